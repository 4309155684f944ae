#!/usr/bin/env Rscript
# The main job from R on a real network (scNET human gene network by default):
# cuRnet_graph, BFS from 20% of the vertices, SSSP from 5%, SCC, timed end to end from R
# next to igraph's distances() (on a subset of the sources unless --full), and the
# result handoff's throughput.
#
# Usage: Rscript scripts/demo.R [--network=scnet] [--bfs=0.2] [--sssp=0.05]
#                               [--igraph=0.1 | --full] [--runs=1] [--seed=1]
# Needs RETICULATE_PYTHON (or cuRnet_install()) and curnet.datasets' cache or network access.
suppressPackageStartupMessages({
  library(cuRnet)
  library(igraph)
})

args <- list(network = "scnet", bfs = 0.2, sssp = 0.05, igraph = 0.1, runs = 1, seed = 1)
for (a in commandArgs(trailingOnly = TRUE)) {
  if (a == "--full") { args$igraph <- 1; next }
  kv <- regmatches(a, regexec("^--([a-z]+)=(.*)$", a))[[1]]
  if (length(kv) != 3 || !kv[2] %in% names(args)) stop("unknown argument: ", a)
  args[[kv[2]]] <- if (kv[2] == "network") kv[3] else as.numeric(kv[3])
}
options(cuRnet.progress = FALSE)

timed <- function(expr, runs = args$runs) {
  expr <- substitute(expr)
  times <- numeric(runs)
  for (i in seq_len(runs)) {
    t0 <- proc.time()[["elapsed"]]
    value <- eval(expr, parent.frame())
    times[i] <- proc.time()[["elapsed"]] - t0
  }
  list(value = value, median = stats::median(times), min = min(times), max = max(times))
}
rows <- list()
report <- function(what, t, note = "") {
  rows[[length(rows) + 1]] <<- data.frame(work = what, median_s = t$median, min_s = t$min,
                                          max_s = t$max, note = note)
  cat(sprintf("%-48s %8.3f s  (min %.3f, max %.3f) %s\n", what, t$median, t$min, t$max, note))
}

info <- cuRnet_info()
cat(sprintf("cuRnet demo: %s | backend %s (%s) | %s | igraph %s | %s\n", args$network, info$backend,
            info$device, info$r$R, packageVersion("igraph"), format(Sys.time(), "%Y-%m-%d %H:%M")))

path <- as.character(reticulate::import("curnet.datasets")$path(args$network))
t <- timed(utils::read.delim(gzfile(path), stringsAsFactors = FALSE), runs = 1)
df <- t$value
report("read the edge list (read.delim)", t)
if ("score" %in% names(df)) df$weight <- 1 - df$score + 1e-6  # distances from confidence scores
directed <- FALSE

t <- timed(cuRnet_graph(df[c("from", "to", intersect("weight", names(df)))], directed = directed))
g <- t$value
print(g)
report("cuRnet_graph (build in the engine)", t)

set.seed(args$seed)
n <- g$n
bfs_src <- sample(g$names, round(args$bfs * n))
sssp_src <- sample(g$names, round(args$sssp * n))

t <- timed(cuRnet_bfs(g, bfs_src))
report(sprintf("cuRnet_bfs, %d sources (%g%%), numeric", length(bfs_src), 100 * args$bfs), t)
bfs_res <- t$value
bfs_time <- t$median
t <- timed(cuRnet_bfs(g, bfs_src, integer = TRUE))
report(sprintf("cuRnet_bfs, %d sources, integer = TRUE", length(bfs_src)), t)

t <- timed(cuRnet_sssp(g, sssp_src))
report(sprintf("cuRnet_sssp, %d sources (%g%%), name predecessors", length(sssp_src), 100 * args$sssp), t)
sssp_res <- t$value
sssp_time <- t$median
t <- timed(cuRnet_sssp(g, sssp_src, predecessors = "index"))
report(sprintf("cuRnet_sssp, %d sources, index predecessors", length(sssp_src)), t)
t <- timed(cuRnet_sssp_dists(g, sssp_src))
report(sprintf("cuRnet_sssp_dists, %d sources", length(sssp_src)), t)

t <- timed(cuRnet_scc(g))
report("cuRnet_scc", t, sprintf("%d components", length(unique(t$value[1, ]))))

# igraph on the same work (or a share of the sources, scaled up, unless --full)
t <- timed(graph_from_data_frame(df, directed = directed), runs = 1)
ig <- t$value
report("igraph graph_from_data_frame", t)
k_bfs <- max(1, round(args$igraph * length(bfs_src)))
k_sssp <- max(1, round(args$igraph * length(sssp_src)))
scale <- function(t, k, total) { t$median <- t$median * total / k; t$min <- t$min * total / k
                                 t$max <- t$max * total / k; t }
note <- if (args$igraph < 1) sprintf("(%g%% of the sources, scaled)", 100 * args$igraph) else ""
t_ig <- timed(distances(ig, bfs_src[1:k_bfs], weights = NA), runs = 1)
stopifnot(isTRUE(all.equal(t_ig$value, bfs_res[1:k_bfs, colnames(t_ig$value)])))
t_ig <- scale(t_ig, k_bfs, length(bfs_src))
report(sprintf("igraph distances(), BFS, %d sources", length(bfs_src)), t_ig, note)
ig_bfs <- t_ig$median
t_ig <- timed(distances(ig, sssp_src[1:k_sssp], weights = E(ig)$weight), runs = 1)
stopifnot(isTRUE(all.equal(t_ig$value, sssp_res$distances[1:k_sssp, colnames(t_ig$value)], tolerance = 1e-6)))
t_ig <- scale(t_ig, k_sssp, length(sssp_src))
report(sprintf("igraph distances(), SSSP, %d sources", length(sssp_src)), t_ig, note)
ig_sssp <- t_ig$median
t_ig <- timed(components(ig, mode = "strong"), runs = 1)
report("igraph components(mode = \"strong\")", t_ig)

# Result handoff: an engine array written into a fresh R matrix (allocated, not yet
# touched, as the cuRnet_* functions do), vs reticulate's element-wise conversion
k <- length(bfs_src)
rm(bfs_res, sssp_res, t)
reticulate::py_run_string(sprintf("import numpy as np\nhandoff = np.ones((%d, %d), order='F')", k, n))
write_into <- sprintf(paste0("import curnet.r_bridge.handoff as h\n",
                             "h.r_array((%%.0f, %%.0f), (%d, %d), 'double')[...] = handoff"), k, n)
times <- vapply(1:5, function(i) {
  m <- cuRnet:::new_result("double", k, n)
  at <- cuRnet:::data_address(m)     # the address and the length R allocated
  invisible(gc())
  system.time(reticulate::py_run_string(sprintf(write_into, at[1], at[2])))[["elapsed"]]
}, 0)
gb <- 8 * k * n / 1e9
report(sprintf("handoff into R memory, %d x %d double (%.2f GB)", k, n, gb),
       list(median = stats::median(times), min = min(times), max = max(times)),
       sprintf("%.2f GB/s (median), %.2f GB/s (best)", gb / stats::median(times), gb / min(times)))
invisible(gc())
t <- timed(reticulate::py$handoff, runs = 1)
if (is.matrix(t$value)) {
  report("the same through reticulate's conversion", t, sprintf("%.2f GB/s", gb / t$median))
} else {  # reticulate 1.28 under NumPy 2 hands the array back unconverted (cuRnet never asks it to)
  cat(sprintf("%-48s not available: reticulate %s does not convert NumPy %s arrays\n",
              "the same through reticulate's conversion", packageVersion("reticulate"), info$numpy))
}
rm(t)

cat(sprintf("\nSummary: BFS %d sources %.3f s (igraph %.2f s, %.1fx); SSSP %d sources %.3f s (igraph %.2f s, %.1fx)\n",
            length(bfs_src), bfs_time, ig_bfs, ig_bfs / bfs_time,
            length(sssp_src), sssp_time, ig_sssp, ig_sssp / sssp_time))
invisible(do.call(rbind, rows))
