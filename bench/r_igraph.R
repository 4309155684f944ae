# R igraph side of `python -m bench`: Rscript r_igraph.R SPEC.json OUT.json
# Reads the graph written by bench/comparators.py (write_graph_bin), times
# igraph's distances() / components() on each task's sources, and writes the
# times plus a checksum of each result (sum of finite entries, count of Inf).
suppressPackageStartupMessages({ library(igraph); library(jsonlite) })
args <- commandArgs(TRUE)
spec <- fromJSON(args[1], simplifyVector = FALSE)

now <- if (requireNamespace("bench", quietly = TRUE)) function() as.numeric(bench::hires_time()) else
  function() proc.time()[["elapsed"]]
read_graph <- function(path) {
  con <- file(path, "rb"); on.exit(close(con))
  head <- readBin(con, "integer", 4L)
  n <- head[1]; m <- head[2]
  src <- readBin(con, "integer", m); dst <- readBin(con, "integer", m)
  w <- if (head[4] == 1L) readBin(con, "double", m) else NULL
  list(n = n, src = src, dst = dst, w = w, directed = head[3] == 1L)
}
read_sources <- function(path, k) {
  con <- file(path, "rb"); on.exit(close(con))
  readBin(con, "integer", k) + 1L
}

t0 <- now()
e <- read_graph(spec$graph)
t1 <- now()
g <- make_empty_graph(e$n, directed = e$directed)
g <- add_edges(g, rbind(e$src + 1L, e$dst + 1L))
if (!is.null(e$w)) E(g)$weight <- e$w
t2 <- now()
rm(e); invisible(gc())

run_one <- function(algorithm, v) {
  switch(algorithm,
    bfs = distances(g, v = v, mode = "out", weights = NA),
    sssp = , sssp_dists = distances(g, v = v, mode = "out", algorithm = "dijkstra"),
    scc = components(g, mode = "strong")$membership)
}
checksum <- function(algorithm, r) {
  if (algorithm == "scc") return(c(length(unique(r)), max(tabulate(r))))
  fin <- is.finite(r)
  c(sum(r[fin]), sum(!fin))
}

out <- list(read_s = t1 - t0, build_s = t2 - t1, igraph = as.character(packageVersion("igraph")),
            tasks = list())
for (t in spec$tasks) {
  v <- if (t$algorithm == "scc") NULL else read_sources(t$sources, t$k)
  times <- c(); note <- ""
  if (isTRUE(t$single)) {
    r <- run_one(t$algorithm, v[1])               # warm-up
    res <- vector("list", length(v))
    for (i in seq_along(v)) {
      a <- now(); res[[i]] <- run_one(t$algorithm, v[i]); times <- c(times, now() - a)
    }
    r <- do.call(rbind, res)
    note <- "each source alone"
  } else {
    a <- now(); r <- run_one(t$algorithm, v); first <- now() - a
    budget <- if (first > t$slow_s) 0L else if (first > t$slow_s / 4) 2L else t$max_runs
    if (budget == 0L) {
      times <- first; note <- "slow: 1 run, no separate warm-up"
    } else {
      for (i in seq_len(budget)) { a <- now(); r <- run_one(t$algorithm, v); times <- c(times, now() - a) }
      note <- sprintf("%d runs after a warm-up", budget)
    }
  }
  out$tasks[[t$id]] <- list(times = times, checksum = checksum(t$algorithm, r), note = note)
}
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA), args[2])
