# cuRnet_pcsf / cuRnet_pcsf_rand beside the PCSF package's PCSF() / PCSF_rand(), in one R
# session on the package's STRING network (15,405 vertices, 175,821 edges), each result checked.
#
#   Rscript bench/r_pcsf.R --backend cpu  --out bench/results/pcsf_cpu.json
#   Rscript bench/r_pcsf.R --backend cuda --out bench/results/pcsf_h100.json --rand-runs 100
#
# Options: --backend (cuRnet's), --sizes 20,50,100,200,500,1000 (the terminal sweep),
#   --reps 3 (cuRnet runs a row; the package runs --pkg-reps, default 1, as it is slow),
#   --rand-runs 10 (n of PCSF_rand / cuRnet_pcsf_rand), --pcsf-lib DIR (where the package is
#   installed), --plot FILE.png (default: the JSON's name with .png), --replot 1 (only the
#   plot, from an earlier run's JSON).
# Rows: the Tgfb prizes; 100 random terminals (the thesis's DLBCL study shape: seeded genes,
# prizes U(0.1, 3)); PCSF_rand vs cuRnet_pcsf_rand; the sweep. Checks: cuRnet's objective
# (recomputed here from the network) is never worse than the package's, and whether
# cuRnet_pcsf(improve = FALSE), the package's method, gives the package's forest (timed once).
# Times are medians (seconds) of the whole calls, after a warm-up. Under each row, cuRnet's last
# call split (graph attribute seconds: R before the engine, the engine's setup / shortest paths /
# host steps, the hand-over, R after) and its counted work (graph attribute work: the route).
suppressPackageStartupMessages({ library(cuRnet); library(igraph); library(jsonlite) })

opt <- list(backend = "auto", sizes = "20,50,100,200,500,1000", reps = "3", `pkg-reps` = "1",
            `rand-runs` = "10", `pcsf-lib` = "", out = "bench/results/pcsf_cpu.json", plot = "", replot = "0")
args <- commandArgs(TRUE)
for (i in seq(1, length(args), by = 2)) opt[[sub("^--", "", args[i])]] <- args[i + 1]
if (nzchar(opt$`pcsf-lib`)) .libPaths(c(opt$`pcsf-lib`, .libPaths()))
if (!requireNamespace("PCSF", quietly = TRUE)) stop("the PCSF package is not installed (give --pcsf-lib)")
sizes <- as.integer(strsplit(opt$sizes, ",")[[1]])
reps <- as.integer(opt$reps); pkg_reps <- as.integer(opt$`pkg-reps`); runs <- as.integer(opt$`rand-runs`)
plot_file <- if (nzchar(opt$plot)) opt$plot else sub("\\.json$", ".png", opt$out)

# The sweep's times against the number of terminals, both axes logarithmic.
plot_sweep <- function(out, file) {
  sweep <- Filter(function(r) startsWith(r$row, "sweep:"), out$rows)
  k <- vapply(sweep, function(r) r$terminals, numeric(1))
  a <- vapply(sweep, function(r) r$curnet_seconds, numeric(1))
  p <- vapply(sweep, function(r) r$pcsf_seconds, numeric(1))
  grDevices::png(file, width = 800, height = 560, res = 110)
  graphics::plot(k, p, log = "xy", type = "b", pch = 19, col = "grey30", ylim = range(c(a, p)),
                 xlab = "terminals", ylab = "seconds (whole call)", cex.main = 0.9,
                 main = sprintf("PCSF on STRING (15,405 vertices, 175,821 edges)\n%s, %d cores, %s",
                                out$backend, out$cores, out$when))
  graphics::lines(k, a, type = "b", pch = 17, col = "firebrick")
  graphics::legend("topleft", c("PCSF() (Boost Dijkstra)", sprintf("cuRnet_pcsf, backend %s", out$backend)),
                   col = c("grey30", "firebrick"), pch = c(19, 17), lty = 1, bty = "n")
  invisible(grDevices::dev.off())
}
if (identical(opt$replot, "1")) {          # --replot 1: the plot again from --out's JSON
  plot_sweep(fromJSON(opt$out, simplifyVector = FALSE), plot_file)
  quit(save = "no")
}

env <- new.env()
utils::data("STRING", "Tgfb_phospho", package = "PCSF", envir = env)
ppi_pkg <- PCSF::construct_interactome(env$STRING)
ppi <- cuRnet_interactome(env$STRING)
stopifnot(identical(as_edgelist(ppi), as_edgelist(ppi_pkg)), identical(E(ppi)$weight, E(ppi_pkg)$weight))

# where cuRnet's last call went (graph attributes seconds and work), under its row
split_line <- function(result) {
  sec <- graph_attr(result, "seconds")
  work <- graph_attr(result, "work")
  cat(sprintf("    cuRnet's last call: %s s; %s\n", paste(sprintf("%s %.3f", names(sec), sec), collapse = ", "),
              if (length(work)) paste(sprintf("%s %g", names(work), work), collapse = ", ") else "no work counted"))
}
quiet <- function(expr) { r <- NULL; utils::capture.output(r <- suppressWarnings(suppressMessages(expr))); r }
timed <- function(f, k) {
  t <- numeric(k); r <- NULL
  for (i in seq_len(k)) { a <- proc.time()[["elapsed"]]; r <- f(); t[i] <- proc.time()[["elapsed"]] - a }
  list(result = r, seconds = stats::median(t), all = t)
}

# costs + w x trees + lost terminal prizes + mu x degree of its Steiner vertices
objective <- function(forest, prizes, w = 2, b = 1, mu = 5e-4) {
  prizes <- prizes[names(prizes) %in% V(ppi)$name]
  prizes <- prizes[!duplicated(names(prizes), fromLast = TRUE)]
  el <- as_edgelist(forest)
  cost <- E(ppi)$weight[get.edge.ids(ppi, as.vector(t(el)))]
  kept <- V(forest)$name
  sum(cost) + w * components(forest)$no + b * sum(prizes[!names(prizes) %in% kept]) +
    mu * sum(degree(ppi, setdiff(kept, names(prizes))))
}
edge_key <- function(g) sort(apply(as_edgelist(g), 1, function(e) paste(sort(e), collapse = "|")))

terminals_of <- function(k) {
  set.seed(k)
  genes <- sample(V(ppi)$name, k)
  setNames(round(stats::runif(k, 0.1, 3), 6), genes)
}

invisible(quiet(cuRnet_pcsf(ppi, env$Tgfb_phospho, backend = opt$backend)))   # engine start-up
rows <- list()
compare <- function(label, prizes, k_reps = reps) {
  ours <- timed(function() quiet(cuRnet_pcsf(ppi, prizes, backend = opt$backend, progress = FALSE)), k_reps)
  plain <- timed(function() quiet(cuRnet_pcsf(ppi, prizes, improve = FALSE, backend = opt$backend,
                                               progress = FALSE)), 1)
  theirs <- timed(function() quiet(PCSF::PCSF(ppi_pkg, prizes)), pkg_reps)
  o1 <- objective(ours$result, prizes); o2 <- objective(theirs$result, prizes)
  o3 <- objective(plain$result, prizes)
  row <- list(row = label, terminals = length(prizes), curnet_seconds = ours$seconds,
              curnet_runs = ours$all, pcsf_seconds = theirs$seconds, pcsf_runs = theirs$all,
              speedup = theirs$seconds / ours$seconds, objective_curnet = o1, objective_pcsf = o2,
              never_worse = o1 <= o2 * (1 + 1e-9), edges_curnet = ecount(ours$result),
              edges_pcsf = ecount(theirs$result),
              package_method_seconds = plain$seconds, objective_package_method = o3,
              package_method_identical = identical(edge_key(plain$result), edge_key(theirs$result)))
  cat(sprintf("%-28s cuRnet %7.3f s  PCSF %7.3f s  %5.1fx  objective %.6f vs %.6f (improve = FALSE: %.6f, %s)\n",
              label, ours$seconds, theirs$seconds, row$speedup, o1, o2, o3,
              if (row$package_method_identical) "identical" else "differs"))
  row$curnet_split <- as.list(graph_attr(ours$result, "seconds"))
  row$curnet_work <- as.list(graph_attr(ours$result, "work"))
  split_line(ours$result)
  rows[[length(rows) + 1]] <<- row
  row
}

invisible(compare("Tgfb_phospho", env$Tgfb_phospho))
invisible(compare("100 random terminals", terminals_of(100)))
sweep <- lapply(sizes, function(k) compare(sprintf("sweep: %d terminals", k), terminals_of(k)))

prizes <- terminals_of(100)
set.seed(1)
ours <- timed(function() quiet(cuRnet_pcsf_rand(ppi, prizes, n = runs, r = 0.1, backend = opt$backend,
                                                progress = FALSE)), 1)
set.seed(1)
theirs <- timed(function() quiet(PCSF::PCSF_rand(ppi_pkg, prizes, n = runs, r = 0.1)), 1)
rand <- list(row = sprintf("rand: n = %d, 100 random terminals", runs), runs = runs,
             curnet_seconds = ours$seconds, pcsf_seconds = theirs$seconds,
             speedup = theirs$seconds / ours$seconds,
             union_vertices_curnet = vcount(ours$result), union_vertices_pcsf = vcount(theirs$result),
             shared_vertices = length(intersect(V(ours$result)$name, V(theirs$result)$name)))
cat(sprintf("%-28s cuRnet %7.3f s  PCSF %7.3f s  %5.1fx  union %d vs %d vertices (%d shared)\n", rand$row,
            ours$seconds, theirs$seconds, rand$speedup, rand$union_vertices_curnet, rand$union_vertices_pcsf,
            rand$shared_vertices))
split_line(ours$result)
rand$curnet_split <- as.list(graph_attr(ours$result, "seconds"))
rand$curnet_work <- as.list(graph_attr(ours$result, "work"))

cpu <- tryCatch(sub(".*: ", "", grep("model name", readLines("/proc/cpuinfo"), value = TRUE)[1]),
                error = function(e) NA)
info <- cuRnet_info()
out <- list(when = format(Sys.time(), "%Y-%m-%dT%H:%M:%SZ", tz = "UTC"), host = Sys.info()[["nodename"]],
            cpu = cpu, cores = parallel::detectCores(), backend = opt$backend,
            device = tryCatch(info$last_run$device, error = function(e) NULL),
            commit = tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) NA),
            r = R.version.string, rows = rows, rand = rand)
dir.create(dirname(opt$out), showWarnings = FALSE, recursive = TRUE)
writeLines(toJSON(out, auto_unbox = TRUE, pretty = TRUE, digits = NA), opt$out)
cat("wrote", opt$out, "\n")

plot_sweep(out, plot_file)
cat("wrote", plot_file, "\n")
