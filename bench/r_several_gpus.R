#!/usr/bin/env Rscript
# R on several GPUs: backend = "cuda" (one GPU) beside backend = "cuda:all" (sources split over
# every GPU), end to end from R on scNET: BFS from 20% of the vertices into an R matrix, and the
# closeness of every vertex (a reduction: nothing but one number a vertex comes back).
# Median of `runs` calls after a warm-up; every result is checked equal to the one-GPU result.
#
#   Rscript bench/r_several_gpus.R [runs] [json] [one,all]    (one,all: the two backends, by
#   default cuda,cuda:all; cpu,cpu is a dry run on a machine without GPUs)
# Needs RETICULATE_PYTHON and scNET in the engine's cache or CURNET_DATA (scnet.edges.tsv.gz).
suppressPackageStartupMessages(library(cuRnet))
args <- commandArgs(trailingOnly = TRUE)
runs <- if (length(args) >= 1) as.integer(args[1]) else 3L
json <- if (length(args) >= 2) args[2] else ""
backends <- strsplit(if (length(args) >= 3) args[3] else "cuda,cuda:all", ",")[[1]]
options(cuRnet.progress = FALSE)

data_dir <- Sys.getenv("CURNET_DATA")
path <- file.path(data_dir, "scnet.edges.tsv.gz")
if (!nzchar(data_dir) || !file.exists(path))
  path <- as.character(reticulate::import("curnet.datasets")$path("scnet"))
df <- utils::read.delim(gzfile(path), stringsAsFactors = FALSE)
g <- cuRnet_graph(df[c("from", "to")], directed = FALSE)
ig <- igraph::graph_from_data_frame(df[c("from", "to")], directed = FALSE)
set.seed(1)
src <- sample(g$names, round(0.2 * g$n))
gpus <- if (backends[1] == "cpu") 0L else reticulate::import("cupy")$cuda$runtime$getDeviceCount()
cat(sprintf("scNET: %d vertices, %d edges; %d GPUs; %s UTC\n", g$n, igraph::ecount(ig), gpus,
            format(Sys.time(), tz = "UTC", "%Y-%m-%d %H:%M")))

timed <- function(f) {
  value <- f()                                     # warm-up: graph on each device, kernels loaded
  t <- vapply(seq_len(runs), function(i) {
    t0 <- proc.time()[["elapsed"]]; f(); proc.time()[["elapsed"]] - t0 }, 0)
  list(value = value, median = stats::median(t), min = min(t))
}
jobs <- list(
  list(work = sprintf("cuRnet_bfs, %d sources (20%%), integer", length(src)),
       run = function(be) function() cuRnet_bfs(g, src, integer = TRUE, backend = be)),
  list(work = "cuRnet_closeness, every vertex",
       run = function(be) function() cuRnet_closeness(ig, backend = be)))
rows <- list()
for (job in jobs) {
  one <- timed(job$run(backends[1]))
  all <- timed(job$run(backends[2]))
  same <- isTRUE(all.equal(one$value, all$value, check.attributes = TRUE))
  cat(sprintf("%-44s %s %7.3f s   %s %7.3f s   %.2fx   equal: %s\n", job$work, backends[1], one$median,
              backends[2], all$median, one$median / all$median, same))
  rows[[length(rows) + 1]] <- list(work = job$work, one_gpu_s = one$median, all_gpus_s = all$median,
                                   speedup = one$median / all$median, equal = same, gpus = gpus)
  if (!same) quit(status = 1)
}
if (nzchar(json))
  writeLines(jsonlite::toJSON(list(date = format(Sys.time(), tz = "UTC"), runs = runs, rows = rows),
                              auto_unbox = TRUE, pretty = TRUE), json)
