# End to end from R through the cuRnet R package: Rscript r_curnet.R SPEC.json OUT.json
# The graph build (cuRnet_graph from a data frame) is timed on its own line;
# each task times the cuRnet_* call returning the R matrix, and splits it into
#   engine: the traversal alone, result left on the device (bench.runner.engine_call);
#   device -> host: the engine writing into R matrices whose pages are touched already,
#     less the engine;
#   R: the rest of the call (allocating R's matrix and the first touch of its pages,
#     name predecessors, dimnames).
# The backend is the engine's "auto" (the runner sets CURNET_DISABLE_CUDA for the CPU).
# Variants ending in "_single" run on the graph built with precision = "single" (float32
# weights: the GPU's near-far shortest paths instead of Bellman-Ford).
suppressPackageStartupMessages({ library(cuRnet); library(jsonlite) })
args <- commandArgs(TRUE)
spec <- fromJSON(args[1], simplifyVector = FALSE)
# microseconds on Linux
now <- if (requireNamespace("bench", quietly = TRUE)) function() as.numeric(bench::hires_time()) else
  function() as.numeric(Sys.time())

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
single <- any(vapply(spec$tasks, function(t) endsWith(t$variant, "_single"), logical(1)))
g_single <- if (single) cuRnet_graph(edges, directed = head[3] == 1L, vertices = vertices, precision = "single")
graph_for <- function(t) if (endsWith(t$variant, "_single")) g_single else g
base_variant <- function(t) sub("_single$", "", t$variant)
backend <- if (nzchar(Sys.getenv("CURNET_DISABLE_CUDA"))) "cpu" else "auto"
bridge <- cuRnet:::engine_module("traversals")   # the adapters of bfs_into, sssp_into
runner <- tryCatch(reticulate::import_from_path("bench.runner", path = Sys.getenv("CURNET_BENCH_REPO", "."),
                                                convert = FALSE),
                   error = function(e) { message("engine layer unavailable: ", conditionMessage(e)); NULL })
engine_algorithm <- c(bfs_numeric = "bfs", bfs_integer = "bfs", sssp_index = "sssp", sssp_names = "sssp",
                      sssp_dists = "sssp_dists", scc = "scc")

# The engine alone, through the Python half's own engine layer: a function to time, or NULL.
engine_only <- function(t, v) {
  if (is.null(runner)) return(NULL)
  g <- graph_for(t)
  ids <- if (!is.null(v)) cuRnet:::as_arrow(cuRnet:::vertex_ids(g, v))$to_numpy(zero_copy_only = FALSE)
  pair <- runner$engine_call(engine_algorithm[[base_variant(t)]], g$py, ids, cuRnet_info()$last_run$backend)
  run <- reticulate::py_get_item(pair, 0L)
  sync <- runner$device_sync(cuRnet_info()$last_run$backend)
  function() { reticulate::py_call(run); reticulate::py_call(sync) }
}

# The engine writing into R matrices allocated (and touched) once: no R allocation, no page faults.
into_touched <- function(t, v) {
  if (t$variant == "scc") return(NULL)
  g <- graph_for(t)
  variant <- base_variant(t)
  ids <- cuRnet:::as_arrow(cuRnet:::vertex_ids(g, v))
  k <- length(v)
  if (startsWith(variant, "bfs")) {
    m <- cuRnet:::new_result(if (variant == "bfs_integer") "integer" else "double", k, g$n)
    return(function() bridge$bfs_into(g$py, ids, cuRnet:::data_address(m), typeof(m), FALSE, backend))
  }
  d <- cuRnet:::new_result("double", k, g$n)
  p <- if (variant != "sssp_dists") cuRnet:::new_result("integer", k, g$n)
  function() bridge$sssp_into(g$py, ids, cuRnet:::data_address(d), if (!is.null(p)) cuRnet:::data_address(p),
                              FALSE, backend)
}

time_runs <- function(fn, runs) {
  fn()                                   # warm-up (and first touch)
  vapply(seq_len(runs), function(i) { gc(); a <- now(); fn(); now() - a }, numeric(1))
}

run_one <- function(t, v) {
  g <- graph_for(t)
  switch(base_variant(t),
    bfs_numeric = cuRnet_bfs(g, v, backend = backend, progress = FALSE),
    bfs_integer = cuRnet_bfs(g, v, integer = TRUE, backend = backend, progress = FALSE),
    sssp_index = cuRnet_sssp(g, v, predecessors = "index", backend = backend, progress = FALSE),
    sssp_names = cuRnet_sssp(g, v, predecessors = "names", backend = backend, progress = FALSE),
    sssp_dists = cuRnet_sssp_dists(g, v, backend = backend, progress = FALSE),
    scc = cuRnet_scc(g, integer = TRUE, backend = backend))
}
checksum <- function(t, r) {
  if (t$variant == "scc") return(c(length(unique(as.vector(r))), max(tabulate(as.vector(r)))))
  if (is.list(r)) r <- r$distances
  fin <- is.finite(r) & !is.na(r)
  c(sum(r[fin]), sum(!fin))
}
out <- list(build_s = builds, cuRnet = as.character(packageVersion("cuRnet")), backend = "", tasks = list())
ms <- function(x) sprintf("%.1f ms", 1e3 * x)
for (t in spec$tasks) {
  v <- NULL
  if (t$variant != "scc") {
    con <- file(t$sources, "rb"); v <- as.character(readBin(con, "integer", t$k)); close(con)
  }
  r <- run_one(t, v)                     # warm-up
  times <- c()
  for (i in seq_len(t$max_runs)) { gc(); a <- now(); r <- run_one(t, v); times <- c(times, now() - a) }
  run <- cuRnet_info()$last_run
  out$backend <- run$backend
  task <- list(times = times, checksum = checksum(t, r), bytes = as.numeric(object.size(r)),
               device = run$device, note = sprintf("%d runs after a warm-up", t$max_runs))
  rm(r)
  engine <- tryCatch({ f <- engine_only(t, v); if (!is.null(f)) time_runs(f, t$max_runs) },
                     error = function(e) { message("engine layer: ", conditionMessage(e)); NULL })
  into <- { f <- into_touched(t, v); if (!is.null(f)) time_runs(f, t$max_runs) }
  rm(f); gc()
  if (!is.null(engine) && !is.null(into)) {
    split <- c(engine_s = median(engine), device_to_host_s = max(median(into) - median(engine), 0),
               r_s = max(median(times) - median(into), 0))
    task$split <- as.list(split)
    task$split_runs <- list(engine = engine, engine_into_r_memory = into)
    task$note <- sprintf("%s; median split: engine %s, device->host %s, R allocation/first touch/names %s",
                         task$note, ms(split[1]), ms(split[2]), ms(split[3]))
  }
  out$tasks[[t$id]] <- task
}
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA), args[2])
