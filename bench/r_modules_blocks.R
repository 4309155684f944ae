# Several blocks: WGCNA::blockwiseModules with blocks of at most BLOCK genes (its projective
# k-means pre-clustering) beside cuRnet_blockwiseModules in one block and in blocks of BLOCK
# (its own k-means packing, docs/modules.md): module ARI between them and against the
# planted truth of WGCNA::simulateDatExpr.   Rscript bench/r_modules_blocks.R OUT.json GENES BLOCK
suppressPackageStartupMessages({ library(cuRnet); library(WGCNA); library(jsonlite) })
args <- commandArgs(TRUE)
n <- as.integer(args[2]); block <- as.integer(args[3])
ari <- function(a, b) {
  t <- table(a, b); p <- function(v) sum(choose(v, 2))
  e <- p(rowSums(t)) * p(colSums(t)) / choose(length(a), 2)
  (p(t) - e) / ((p(rowSums(t)) + p(colSums(t))) / 2 - e)
}
set.seed(n)
utils::capture.output(sim <- simulateDatExpr(matrix(rnorm(100 * 6), 100, 6), nGenes = n,
                                             modProportions = c(rep(0.12, 6), 0.28), minCor = 0.3, maxCor = 0.9))
x <- sim$datExpr
runs <- list(
  wgcna_one = function() suppressMessages(blockwiseModules(x, maxBlockSize = n + 1, verbose = 0)),
  wgcna_blocks = function() suppressMessages(blockwiseModules(x, maxBlockSize = block, verbose = 0)),
  curnet_one = function() cuRnet_blockwiseModules(x),
  curnet_blocks = function() cuRnet_blockwiseModules(x, maxBlockSize = block))
res <- lapply(runs, function(f) { t <- system.time(v <- f())[["elapsed"]]; list(v = v, s = t) })
planted <- sim$allLabels != 0
row <- list(genes = n, block = block, samples = 100,
            seconds = lapply(res, `[[`, "s"),
            blocks = lapply(res, function(r) length(r$v$dendrograms)),
            modules = lapply(res, function(r) length(unique(r$v$colors))),
            ari_with_wgcna_one = lapply(res, function(r) ari(r$v$colors, res$wgcna_one$v$colors)),
            ari_with_wgcna_blocks = lapply(res, function(r) ari(r$v$colors, res$wgcna_blocks$v$colors)),
            ari_truth = lapply(res, function(r) ari(r$v$colors, sim$allLabels)),
            ari_truth_planted_assigned = lapply(res, function(r) {
              k <- planted & r$v$colors != "grey"; ari(r$v$colors[k], sim$allLabels[k]) }))
str(row)
writeLines(toJSON(list(machine = Sys.info()[["nodename"]], date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                       engine = cuRnet_info()$backend, row = row),
                  auto_unbox = TRUE, pretty = TRUE, digits = NA), args[1])
