# A first call from R, as a user types it, in the fresh process bench/first_call.py starts:
#   Rscript bench/first_call.R cpu|cuda|igraph bfs|betweenness
# cpu bfs: library(cuRnet) and a first cuRnet_bfs on a 2,000-vertex ring; cuda bfs: on a
# 20,000-vertex graph; betweenness: weighted, on a PPI-sized graph (7,729 vertices, 24,280 edges).
# igraph: the same question answered by igraph, for the row beside it.
args <- commandArgs(trailingOnly = TRUE)
backend <- args[1]
what <- args[2]
t0 <- proc.time()[["elapsed"]]
edges <- function() {
  if (what == "bfs" && backend %in% c("cpu", "igraph")) {
    n <- 2000
    return(data.frame(from = 1:n, to = c(2:n, 1)))
  }
  if (what == "bfs") {
    set.seed(0)
    n <- 20000
    return(data.frame(from = sample.int(n, 5 * n, TRUE), to = sample.int(n, 5 * n, TRUE)))
  }
  set.seed(1)
  n <- 7729
  m <- 24280
  data.frame(from = sample.int(n, m, TRUE), to = sample.int(n, m, TRUE), weight = 0.1 + runif(m))
}
x <- edges()
if (backend == "igraph") {
  library(igraph)
  g <- graph_from_data_frame(x, directed = FALSE)
  if (what == "bfs") d <- distances(g, 1) else b <- betweenness(g, weights = E(g)$weight)
} else {
  library(cuRnet)
  g <- cuRnet_graph(x, directed = FALSE)
  if (what == "bfs") d <- cuRnet_bfs(g, 1, backend = backend)
  else b <- cuRnet_betweenness(g, weights = NULL, backend = backend)
}
cat(sprintf("in R: %.3f s\n", proc.time()[["elapsed"]] - t0))
