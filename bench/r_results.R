# R end-to-end BFS with results dropped and kept, with and without the prefault threads
# (R/handoff.R with_prefault), and the fresh result's own costs: allocation, first touch.
#
#   Rscript bench/r_results.R [edge file: from<TAB>to, names] [backend] [fraction] [calls]
#   Rscript bench/r_results.R "" cuda 0.2 20      # a generated named graph
#
# Prints p50 / p90 over `calls` calls of cuRnet_bfs(g, <fraction of the vertices>, integer =
# TRUE) for each way, one line each, with the machine and the date. Kept: the results are
# appended to a list (as lapply over gene sets makes); dropped: each replaces the last.
suppressPackageStartupMessages(library(cuRnet))
args <- commandArgs(trailingOnly = TRUE)
file <- if (length(args) >= 1 && nzchar(args[1])) args[1] else ""
backend <- if (length(args) >= 2) args[2] else "auto"
fraction <- if (length(args) >= 3) as.numeric(args[3]) else 0.2
calls <- if (length(args) >= 4) as.integer(args[4]) else 20L

if (nzchar(file)) {
  df <- utils::read.delim(file, header = FALSE, colClasses = "character")[, 1:2]
  names(df) <- c("from", "to")
  what <- basename(file)
} else {                      # 18,000 named vertices, 700,000 arcs: the size of a human PPI
  set.seed(1)
  n <- 18000
  ids <- sprintf("GENE%05d", seq_len(n))
  df <- data.frame(from = ids[sample.int(n, 7e5, TRUE)], to = ids[sample.int(n, 7e5, TRUE)])
  what <- "generated (18,000 named vertices, 700,000 arcs)"
}
g <- cuRnet_graph(df, directed = FALSE)
n <- g$n
set.seed(2)
src <- sample(g$names, round(fraction * n))
cat(sprintf("%s: %d vertices, %d sources, backend %s; %s, %d cores; %s UTC\n", what, n, length(src),
            backend, Sys.info()[["machine"]], parallel::detectCores(),
            format(Sys.time(), tz = "UTC", "%Y-%m-%d %H:%M")))

ms <- function(expr) { t <- proc.time()[["elapsed"]]; force(expr); (proc.time()[["elapsed"]] - t) * 1e3 }
report <- function(label, t) cat(sprintf("%-58s p50 %7.1f ms  p90 %7.1f ms\n", label,
                                         stats::median(t), stats::quantile(t, 0.9, names = FALSE)))

invisible(cuRnet_bfs(g, src[1:2], integer = TRUE, backend = backend))      # warm: graph on the device
for (threads in c(0L, 4L)) {
  options(cuRnet.prefault_threads = threads)
  for (keep in c(FALSE, TRUE)) {
    kept <- list()
    t <- vapply(seq_len(calls), function(i) ms({
      d <- cuRnet_bfs(g, src, integer = TRUE, backend = backend)
      if (keep) kept[[length(kept) + 1L]] <<- d
    }), 0)
    report(sprintf("cuRnet_bfs, results %s, prefault threads %d", if (keep) "kept" else "dropped", threads), t)
    rm(kept)
    invisible(gc())
  }
}
parts <- list()
t_alloc <- vapply(seq_len(calls), function(i) ms(parts[[i]] <<- cuRnet:::new_result("integer", length(src), n)), 0)
report("  part: new_result() alone (kept)", t_alloc)
t_touch <- vapply(seq_len(calls), function(i) ms({
  m <- cuRnet:::new_result("integer", length(src), n)
  .Call(cuRnet:::C_curnet_prefault_join, .Call(cuRnet:::C_curnet_prefault_start, m, 4L, 0))
  parts[[calls + i]] <<- m
}), 0)
report("  part: new_result() + every page touched, 4 threads (kept)", t_touch)
