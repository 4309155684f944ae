# R's first call, step by step (wall and CPU seconds of each), in a fresh process:
#   Rscript bench/first_call_steps.R [cpu|cuda] [ring|random|ppi]
# The steps are those of library(cuRnet) and a first cuRnet_bfs on a 2,000-vertex ring (or the
# 20,000-vertex random graph of bench/first_call.R; ppi: a first weighted cuRnet_betweenness on
# first_call.R's PPI-sized graph, 7,729 vertices and 24,280 edges), taken one at a time: reticulate (with the
# Matrix package its NAMESPACE imports), the probe of the engine's Python (reticulate runs its
# config.py in a Python of its own, which imports NumPy), Python's start in R (with NumPy), the
# engine's R entry (its drivers and adapters), the graph (R's columns read over R's memory),
# the BFS (on the CPU SciPy's csgraph, which imports scipy.linalg; on a GPU CuPy and the CUDA
# context, timed apart before the graph).
# Each line: the step, its wall and CPU ms (bench/first_call.py's r-steps row reads them).
# The results are read in docs/first-call.md.
args <- commandArgs(trailingOnly = TRUE)
backend <- if (length(args) >= 1) args[1] else "cpu"
shape <- if (length(args) >= 2) args[2] else "ring"
cpu <- function() { p <- proc.time(); sum(p[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE) }
W <- proc.time()[["elapsed"]]
C <- cpu()
mark <- function(label) {
  cat(sprintf("%-44s wall %6.0f ms  cpu %6.0f ms\n", label, 1000 * (proc.time()[["elapsed"]] - W), 1000 * (cpu() - C)))
  W <<- proc.time()[["elapsed"]]
  C <<- cpu()
}
library(cuRnet); mark("library(cuRnet)")
invisible(loadNamespace("Matrix")); mark("Matrix (imported by reticulate)")
invisible(loadNamespace("reticulate")); mark("reticulate (its other imports)")
python <- cuRnet_python(); invisible(cuRnet:::reticulate_cannot_start(python)); mark("the engine's Python chosen")
invisible(reticulate::py_config()); mark("reticulate starts Python (its probe, then NumPy)")
invisible(cuRnet:::bridge()); mark("the engine's R entry (curnet.r_bridge.session)")
if (backend != "cpu") {   # what cuRnet_graph's summary (backend "auto") and the BFS would start
  cupy <- reticulate::import("cupy", convert = FALSE); mark("import cupy")
  invisible(cupy$zeros(1L)); invisible(cupy$cuda$Device()$synchronize()); mark("the CUDA context (first allocation)")
  invisible(reticulate::import("curnet.backends", convert = FALSE)$get_backend(backend))
  mark("the CUDA backend (get_backend)")
}
if (shape == "ring") {
  n <- 2000
  x <- data.frame(from = 1:n, to = c(2:n, 1))
} else if (shape == "random") {
  set.seed(0)
  n <- 20000
  x <- data.frame(from = sample.int(n, 5 * n, TRUE), to = sample.int(n, 5 * n, TRUE))
} else {                  # first_call.R's betweenness graph
  set.seed(1)
  n <- 7729
  m <- 24280
  x <- data.frame(from = sample.int(n, m, TRUE), to = sample.int(n, m, TRUE), weight = 0.1 + runif(m))
}
g <- cuRnet_graph(x, directed = FALSE); mark(sprintf("cuRnet_graph (%s of %d)", shape, n))
if (shape == "ppi") {
  b <- cuRnet_betweenness(g, weights = NULL, backend = backend); mark(sprintf("first cuRnet_betweenness (%s)", backend))
} else {
  d <- cuRnet_bfs(g, 1, backend = backend); mark(sprintf("first cuRnet_bfs (%s)", backend))
}
