# A first call from R, as a user types it, in the fresh process bench/first_call.py starts:
#   Rscript bench/first_call.R cpu|cuda|igraph bfs|betweenness [ring|random]
# bfs: library(cuRnet) and a first cuRnet_bfs on a 2,000-vertex ring (the CPU's default) or a
# 20,000-vertex random graph with 100,000 edges (the GPU's default); betweenness: weighted, on a
# PPI-sized graph (7,729 vertices, 24,280 edges). igraph: the same question answered by igraph,
# for the row beside it. With CURNET_BENCH_COMPILES=1 (a GPU), the kernels the call compiled
# and the seconds spent compiling them are printed too (the engine is started before the call
# to count them, so the total is the same work in another order).
args <- commandArgs(trailingOnly = TRUE)
backend <- args[1]
what <- args[2]
shape <- if (length(args) >= 3) args[3] else if (backend == "cuda") "random" else "ring"
t0 <- proc.time()[["elapsed"]]
edges <- function() {
  if (what == "bfs" && shape == "ring") {
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
  tally <- NULL
  if (Sys.getenv("CURNET_BENCH_COMPILES") == "1" && backend == "cuda") {
    stopifnot(cuRnet_available())
    launch <- reticulate::import("curnet.backends.cuda.launch", convert = FALSE)
    counting <- launch$counting_compiles()
    tally <- counting$`__enter__`()
  }
  g <- cuRnet_graph(x, directed = FALSE)
  if (what == "bfs") d <- cuRnet_bfs(g, 1, backend = backend)
  else b <- cuRnet_betweenness(g, weights = NULL, backend = backend)
  if (!is.null(tally)) {
    counting$`__exit__`(NULL, NULL, NULL)
    cat(sprintf("compiled: %d kernels in %.3f s\n", reticulate::py_to_r(tally$count),
                reticulate::py_to_r(tally$seconds)))
  }
}
cat(sprintf("in R: %.3f s\n", proc.time()[["elapsed"]] - t0))
