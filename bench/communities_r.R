# Leiden and Louvain from R, end to end: cuRnet_cluster_leiden / cuRnet_cluster_louvain beside
# igraph's cluster_leiden / cluster_louvain on planted-partition graphs of growing size (and
# the STRING sample's largest component), the same machine, the same R session. Writes a CSV
# of times and a plot of time against edges.
#
#   Rscript bench/communities_r.R [OUT_PREFIX] [SIZES] [REPEATS] [BACKEND]
#   Rscript bench/communities_r.R bench/results/communities_r_cpu 1000,4000,16000 3 auto
#   Rscript bench/communities_r.R --plot RUN.csv      (the plot alone, from a run's CSV)
#
# Each time is the median of REPEATS warm calls (a first call, compiling the GPU's kernels,
# is made before and not counted); cuRnet's include the hand-off from R to the engine.
# Time against edges, Leiden and Louvain side by side, one line a tool.
plot_times <- function(result, path) {
  grDevices::png(path, width = 900, height = 450, res = 100)
  op <- graphics::par(mfrow = c(1, 2))
  for (call in c("leiden_2", "louvain")) {
    r <- result[result$call == call, ]
    tools <- unique(r$tool)
    graphics::plot(r$edges, r$seconds, log = "xy", type = "n", xlab = "edges", ylab = "seconds (median)",
                   main = if (call == "leiden_2") "Leiden, 2 iterations, from R" else "Louvain, from R")
    for (i in seq_along(tools)) {
      s <- r[r$tool == tools[i], ]
      s <- s[order(s$edges), ]
      graphics::lines(s$edges, s$seconds, type = "b", col = i, pch = i)
    }
    graphics::legend("topleft", legend = tools, col = seq_along(tools), pch = seq_along(tools), lty = 1, bty = "n")
  }
  graphics::par(op)
  invisible(grDevices::dev.off())
}

suppressPackageStartupMessages({
  library(cuRnet)
  library(igraph)
})
args <- commandArgs(TRUE)
if (length(args) == 2 && args[1] == "--plot") {   # re-draw a run's CSV (its machine's R had no PNG device)
  plot_times(utils::read.csv(args[2]), sub("[.]csv$", ".png", args[2]))
  quit(save = "no")
}
prefix <- if (length(args) >= 1) args[1] else "communities_r"
sizes <- if (length(args) >= 2) as.integer(strsplit(args[2], ",")[[1]]) else c(1000L, 4000L, 16000L)
repeats <- if (length(args) >= 3) as.integer(args[3]) else 3L
backend <- if (length(args) >= 4) args[4] else "auto"
options(cuRnet.progress = FALSE)

planted <- function(n, seed) {
  # communities of 100 vertices, mean degree about 20 (16 inside, 4 outside)
  set.seed(seed)
  k <- n %/% 100
  p_in <- 16 / 99
  p_out <- 4 / (n - 100)
  pref <- matrix(p_out, k, k)
  diag(pref) <- p_in
  sample_sbm(n, pref, rep(100L, k))
}

graphs <- lapply(sizes, function(n) list(name = sprintf("planted %d", n), g = planted(n, n)))
if (nzchar(system.file(package = "STRINGdb"))) {
  data(interactions_example, package = "STRINGdb")
  ig <- simplify(graph_from_data_frame(interactions_example[, 1:2], directed = FALSE))
  comp <- components(ig)
  graphs[[length(graphs) + 1]] <- list(name = "STRING sample (largest component)",
                                       g = induced_subgraph(ig, comp$membership == which.max(comp$csize)))
}

median_time <- function(f) {
  t <- vapply(seq_len(repeats), function(i) system.time(f(i))[["elapsed"]], numeric(1))
  stats::median(t)
}
invisible(cuRnet_cluster_leiden(graphs[[1]]$g, objective_function = "modularity", seed = 0,
                                backend = backend))                           # the first call
used <- cuRnet_info()$backend
rows <- list()
for (x in graphs) {
  g <- x$g
  calls <- list(
    leiden_2 = list(
      cuRnet = function(i) cuRnet_cluster_leiden(g, objective_function = "modularity", seed = i, backend = backend),
      igraph = function(i) cluster_leiden(g, objective_function = "modularity", n_iterations = 2)),
    louvain = list(
      cuRnet = function(i) cuRnet_cluster_louvain(g, seed = i, backend = backend),
      igraph = function(i) cluster_louvain(g)))
  for (call in names(calls)) {
    for (tool in names(calls[[call]])) {
      f <- calls[[call]][[tool]]
      q <- modularity(g, membership(f(1)))
      rows[[length(rows) + 1]] <- data.frame(
        graph = x$name, vertices = vcount(g), edges = ecount(g), call = call,
        tool = if (tool == "cuRnet") paste0("cuRnet (", used, ")") else paste0("igraph ", packageVersion("igraph")),
        seconds = median_time(f), modularity = q)
      message(paste(utils::tail(rows, 1)[[1]], collapse = "  "))
    }
  }
}
result <- do.call(rbind, rows)
result$machine <- Sys.info()[["nodename"]]
result$date <- format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC")
utils::write.csv(result, paste0(prefix, ".csv"), row.names = FALSE)

plot_times(result, paste0(prefix, ".png"))
print(result[, c("graph", "edges", "call", "tool", "seconds", "modularity")])
