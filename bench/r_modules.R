# cuRnet_hclust against fastcluster::hclust and stats::hclust, and cuRnet_blockwiseModules
# against WGCNA::blockwiseModules (one block), side by side on the same data, from R:
#   Rscript bench/r_modules.R OUT.json [GENES ...]
# Data: WGCNA::simulateDatExpr, 6 planted modules, GENES x 100 samples. Each time is one call
# (elapsed seconds); the agreement columns compare the results (same merges, heights to 1e-10;
# module ARI, module counts, eigengenes up to sign). cuRnet_hclust runs twice (the first call
# of the process, then warm).
# Where WGCNA is not installed (the GPU machine: its dependencies, GO.db alone 82 MB, do not
# travel), the data are 6 planted modules drawn here (each gene its module's eigengene plus
# noise), WGCNA's columns are left out, and stats::hclust runs only up to 10,000 genes.
suppressPackageStartupMessages({ library(cuRnet); library(jsonlite) })
has_wgcna <- requireNamespace("WGCNA", quietly = TRUE)
if (has_wgcna) suppressPackageStartupMessages(library(WGCNA))
args <- commandArgs(TRUE)
out <- args[1]
sizes <- if (length(args) > 1) as.integer(args[-1]) else c(500L, 1000L, 2000L)
elapsed <- function(expr) { t <- system.time(value <- expr)[["elapsed"]]; list(value = value, s = t) }
ari <- function(a, b) {
  t <- table(a, b); p <- function(v) sum(choose(v, 2))
  e <- p(rowSums(t)) * p(colSums(t)) / choose(length(a), 2)
  (p(t) - e) / ((p(rowSums(t)) + p(colSums(t))) / 2 - e)
}
# 6 modules of 12% of the genes each (the rest grey): a gene is its module's eigengene times a
# correlation drawn in [0.3, 0.9], plus noise; labels 1..6, 0 for grey (as simulateDatExpr's).
planted_modules <- function(n, samples = 100, modules = 6) {
  eigengenes <- matrix(rnorm(samples * modules), samples, modules)
  labels <- rep(0L, n)
  size <- floor(0.12 * n)
  labels[seq_len(size * modules)] <- rep(seq_len(modules), each = size)
  r <- runif(n, 0.3, 0.9)
  x <- matrix(rnorm(samples * n), samples, n)
  inside <- labels > 0
  x[, inside] <- sweep(eigengenes[, labels[inside]], 2, r[inside], "*") +
    sweep(x[, inside], 2, sqrt(1 - r[inside]^2), "*")
  list(datExpr = x, allLabels = labels)
}
rows <- list()
for (n in sizes) {
  set.seed(n)
  sim <- if (has_wgcna) {
    utils::capture.output(s <- simulateDatExpr(matrix(rnorm(100 * 6), 100, 6), nGenes = n,
                                               modProportions = c(rep(0.12, 6), 0.28), minCor = 0.3, maxCor = 0.9))
    s
  } else planted_modules(n)
  x <- sim$datExpr
  tom <- cuRnet_TOMsimilarityFromExpr(x, power = 6)
  d <- as.dist(1 - tom)
  cu <- elapsed(cuRnet_hclust(d, "average"))
  cu_warm <- elapsed(cuRnet_hclust(d, "average"))
  fc <- elapsed(fastcluster::hclust(d, "average"))
  st <- if (has_wgcna || n <= 10000) elapsed(stats::hclust(d, "average")) else NULL
  bw_cu <- elapsed(cuRnet_blockwiseModules(x))
  if (!has_wgcna) {
    row <- list(genes = n, samples = 100, engine = cuRnet_info()$backend,
                hclust_curnet_s = cu$s, hclust_curnet_warm_s = cu_warm$s, hclust_fastcluster_s = fc$s,
                hclust_stats_s = if (is.null(st)) NA else st$s,
                hclust_same_as_fastcluster = identical(cu$value$merge, fc$value$merge) &&
                  isTRUE(all.equal(cu$value$height, fc$value$height, tolerance = 1e-10)),
                modules_curnet_s = bw_cu$s, modules_curnet = length(unique(bw_cu$value$colors)),
                ari_curnet_truth = ari(bw_cu$value$colors, sim$allLabels))
    print(unlist(row))
    rows[[length(rows) + 1]] <- row
    next
  }
  bw_wg <- elapsed(suppressMessages(blockwiseModules(x, maxBlockSize = n + 1, verbose = 0)))
  me_diff <- max(vapply(names(bw_wg$value$MEs), function(m) {
    a <- bw_wg$value$MEs[[m]]; b <- bw_cu$value$MEs[[m]]
    if (is.null(b)) return(Inf)
    min(max(abs(a - b)), max(abs(a + b)))
  }, numeric(1)))
  row <- list(genes = n, samples = 100, engine = cuRnet_info()$backend,
              hclust_curnet_s = cu$s, hclust_curnet_warm_s = cu_warm$s, hclust_fastcluster_s = fc$s,
              hclust_stats_s = st$s,
              hclust_same_as_fastcluster = identical(cu$value$merge, fc$value$merge) &&
                isTRUE(all.equal(cu$value$height, fc$value$height, tolerance = 1e-10)),
              hclust_same_as_stats = identical(cu$value$merge, st$value$merge),
              modules_curnet_s = bw_cu$s, modules_wgcna_s = bw_wg$s,
              modules_ari = ari(bw_cu$value$colors, bw_wg$value$colors),
              modules_curnet = length(unique(bw_cu$value$colors)), modules_wgcna = length(unique(bw_wg$value$colors)),
              eigengenes_max_diff = me_diff,
              ari_curnet_truth = ari(bw_cu$value$colors, sim$allLabels),
              ari_wgcna_truth = ari(bw_wg$value$colors, sim$allLabels))
  print(unlist(row))
  rows[[length(rows) + 1]] <- row
}
writeLines(toJSON(list(machine = Sys.info()[["nodename"]], date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                       R = R.version.string, engine = cuRnet_info()$backend,
                       WGCNA = if (has_wgcna) as.character(packageVersion("WGCNA")) else "not installed",
                       rows = rows),
                  auto_unbox = TRUE, pretty = TRUE, digits = NA), out)
