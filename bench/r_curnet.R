# End to end from R through the cuRnet R package: Rscript r_curnet.R SPEC.json OUT.json
# The graph build (cuRnet_graph from a data frame) is timed on its own line;
# each task times the cuRnet_* call returning the R matrix.
suppressPackageStartupMessages({ library(cuRnet); library(jsonlite) })
args <- commandArgs(TRUE)
spec <- fromJSON(args[1], simplifyVector = FALSE)
now <- if (requireNamespace("bench", quietly = TRUE)) function() as.numeric(bench::hires_time()) else function() proc.time()[["elapsed"]]

con <- file(spec$graph, "rb")
head <- readBin(con, "integer", 4L); n <- head[1]; m <- head[2]
src <- readBin(con, "integer", m); dst <- readBin(con, "integer", m)
w <- if (head[4] == 1L) readBin(con, "double", m) else NULL
close(con)
edges <- data.frame(from = src, to = dst)
if (!is.null(w)) edges$weight <- w
vertices <- seq.int(0L, n - 1L)

invisible(cuRnet_graph(edges[1:min(10L, m), ], directed = head[3] == 1L))   # engine start-up
builds <- c()
for (i in 1:3) {
  a <- now(); g <- cuRnet_graph(edges, directed = head[3] == 1L, vertices = vertices)
  builds <- c(builds, now() - a)
}
run_one <- function(t, v) {
  switch(t$variant,
    bfs_numeric = cuRnet_bfs(g, v, progress = FALSE),
    bfs_integer = cuRnet_bfs(g, v, integer = TRUE, progress = FALSE),
    sssp_index = cuRnet_sssp(g, v, predecessors = "index", progress = FALSE),
    sssp_names = cuRnet_sssp(g, v, predecessors = "names", progress = FALSE),
    sssp_dists = cuRnet_sssp_dists(g, v, progress = FALSE),
    scc = cuRnet_scc(g, integer = TRUE))
}
checksum <- function(t, r) {
  if (t$variant == "scc") return(c(length(unique(as.vector(r))), max(tabulate(as.vector(r)))))
  if (is.list(r)) r <- r$distances
  fin <- is.finite(r) & !is.na(r)
  c(sum(r[fin]), sum(!fin))
}
out <- list(build_s = builds, cuRnet = as.character(packageVersion("cuRnet")),
            backend = tryCatch(format(g$backend), error = function(e) ""), tasks = list())
for (t in spec$tasks) {
  v <- NULL
  if (t$variant != "scc") {
    con <- file(t$sources, "rb"); v <- as.character(readBin(con, "integer", t$k)); close(con)
  }
  r <- run_one(t, v)                     # warm-up
  times <- c()
  for (i in seq_len(t$max_runs)) { gc(); a <- now(); r <- run_one(t, v); times <- c(times, now() - a) }
  out$tasks[[t$id]] <- list(times = times, checksum = checksum(t, r),
                            bytes = as.numeric(object.size(r)),
                            note = sprintf("%d runs after a warm-up", t$max_runs))
}
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA), args[2])
