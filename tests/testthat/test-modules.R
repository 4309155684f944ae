# cuRnet_blockwiseModules against WGCNA::blockwiseModules (one block), on planted modules and
# on ALL's genes; WGCNA's downstream functions on its result; bad input.

adjusted_rand <- function(a, b) {
  t <- table(a, b)
  pairs <- function(v) sum(choose(v, 2))
  s <- pairs(t)
  sa <- pairs(rowSums(t))
  sb <- pairs(colSums(t))
  e <- sa * sb / choose(length(a), 2)
  (s - e) / ((sa + sb) / 2 - e)
}

# eigengenes of the same module (by name) equal up to sign
expect_same_eigengenes <- function(got, want, tolerance = 1e-6) {
  expect_setequal(names(got), names(want))
  for (m in names(want)) {
    a <- got[[m]]
    b <- want[[m]]
    expect_lt(min(max(abs(a - b), na.rm = TRUE), max(abs(a + b), na.rm = TRUE)), tolerance)
    expect_identical(is.na(a), is.na(b))
  }
}

# WGCNA's blockwiseModules finds its cor() on the search path
attach_wgcna <- function(envir = parent.frame()) {
  local_attached("WGCNA", envir = envir)
  suppressMessages(library(WGCNA))
}

expect_like_wgcna <- function(net, x) {
  want <- suppressMessages(WGCNA::blockwiseModules(x, maxBlockSize = ncol(x) + 1, verbose = 0, nThreads = 1))
  expect_identical(names(net), names(want))
  expect_gte(adjusted_rand(net$colors, want$colors), 0.99)
  expect_identical(length(unique(net$colors)), length(unique(want$colors)))
  expect_same_eigengenes(net$MEs, want$MEs)
  expect_identical(net$goodGenes, want$goodGenes)
  expect_identical(net$goodSamples, want$goodSamples)
  expect_identical(net$dendrograms[[1]]$merge, want$dendrograms[[1]]$merge)
  expect_equal(net$dendrograms[[1]]$height, want$dendrograms[[1]]$height, tolerance = 1e-10)
  expect_identical(net$blockGenes, want$blockGenes)
  expect_equal(net$blocks, want$blocks)
  want
}

# The planted truth (simulateDatExpr's labels, 0 = background): the planted genes that get a
# module get their planted module's, and most planted genes get one.
expect_near_truth <- function(colors, truth, assigned) {
  both <- truth != 0 & colors != "grey"
  expect_gte(adjusted_rand(colors[both], truth[both]), 0.95)
  expect_gte(mean(colors[truth != 0] != "grey"), assigned)
}

planted <- function() {
  set.seed(12)
  eigen <- matrix(rnorm(50 * 4), 50, 4)
  utils::capture.output(sim <- WGCNA::simulateDatExpr(eigen, nGenes = 300,
                                                        modProportions = c(0.25, 0.2, 0.15, 0.1, 0.3),
                                                        minCor = 0.3, maxCor = 0.9, propNegativeCor = 0.3))
  sim
}

test_that("planted modules: WGCNA's modules, eigengenes and dendrogram", {
  skip_if_no_engine()
  skip_if_not_installed("WGCNA")
  skip_if_not_installed("dynamicTreeCut")
  attach_wgcna()
  sim <- planted()
  net <- cuRnet_blockwiseModules(sim$datExpr)
  want <- expect_like_wgcna(net, sim$datExpr)
  expect_near_truth(net$colors, sim$allLabels, assigned = 0.7)
  # WGCNA's downstream functions take the result
  me <- WGCNA::moduleEigengenes(sim$datExpr, net$colors)$eigengenes
  expect_same_eigengenes(me[names(net$MEs)], net$MEs, tolerance = 1e-10)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(WGCNA::plotDendroAndColors(net$dendrograms[[1]], net$colors[net$blockGenes[[1]]],
                                           dendroLabels = FALSE))
  numeric <- cuRnet_blockwiseModules(sim$datExpr, numericLabels = TRUE)
  expect_type(numeric$colors, "double")
  expect_identical(unname(WGCNA::labels2colors(numeric$colors)), unname(net$colors))
})

test_that("ALL's genes: WGCNA's modules and eigengenes", {
  skip_if_no_engine()
  skip_if_not_installed("WGCNA")
  skip_if_not_installed("dynamicTreeCut")
  skip_if_not_installed("ALL")
  skip_if_not_installed("Biobase")
  attach_wgcna()
  env <- new.env()
  utils::data("ALL", package = "ALL", envir = env)
  e <- Biobase::exprs(env$ALL)
  x <- t(e[order(-apply(e, 1, stats::var))[1:300], ])
  net <- cuRnet_blockwiseModules(x, power = 6, minModuleSize = 15)
  want <- suppressMessages(WGCNA::blockwiseModules(x, power = 6, minModuleSize = 15, maxBlockSize = 5000,
                                                   verbose = 0, nThreads = 1))
  expect_gte(adjusted_rand(net$colors, want$colors), 0.99)
  expect_identical(length(unique(net$colors)), length(unique(want$colors)))
  expect_same_eigengenes(net$MEs, want$MEs)
  expect_identical(names(net$colors), colnames(x))
  expect_identical(rownames(net$MEs), rownames(x))
})

test_that("several blocks: each a dendrogram, every good gene in one block", {
  skip_if_no_engine()
  skip_if_not_installed("WGCNA")
  skip_if_not_installed("dynamicTreeCut")
  sim <- planted()
  net <- cuRnet_blockwiseModules(sim$datExpr, maxBlockSize = 120)
  expect_gt(length(net$dendrograms), 1)
  expect_true(all(lengths(net$blockGenes) <= 120))
  expect_identical(sort(unlist(net$blockGenes)), seq_len(ncol(sim$datExpr)))
  for (b in seq_along(net$blockGenes)) expect_true(all(net$blocks[net$blockGenes[[b]]] == b))
  # the blocks split modules WGCNA's one block keeps whole: near the planted truth still
  expect_near_truth(net$colors, sim$allLabels, assigned = 0.6)
})

test_that("bad input: WGCNA's handling or an error in R's words", {
  skip_if_no_engine()
  skip_if_not_installed("dynamicTreeCut")
  set.seed(3)
  hub <- matrix(rnorm(30 * 3), 30, 3)
  x <- hub[, rep(1:3, each = 30)] + matrix(rnorm(30 * 90, sd = 0.7), 30, 90)
  colnames(x) <- paste0("g", 1:90)
  # constant genes and a gene mostly missing: left out (grey), as goodSamplesGenes does
  y <- x
  y[, 5] <- 1
  y[1:20, 7] <- NA
  net <- cuRnet_blockwiseModules(y, minModuleSize = 10)
  expect_identical(which(!net$goodGenes), c(5L, 7L))
  expect_identical(unname(net$colors[c("g5", "g7")]), c("grey", "grey"))
  expect_true(is.na(net$blocks[5]))
  # a few missing values left over: WGCNA would impute them
  y <- x
  y[2, 3] <- NA
  expect_error(cuRnet_blockwiseModules(y, minModuleSize = 10), "impute")
  expect_error(cuRnet_blockwiseModules(x, power = 0), "power must be a number between 1 and 30")
  expect_error(cuRnet_blockwiseModules(x, power = 31), "between 1 and 30")
  expect_error(cuRnet_blockwiseModules(x[1:3, ]), "too few samples")
  expect_error(cuRnet_blockwiseModules(x, deepSplit = 7), "deepSplit")
  expect_error(cuRnet_blockwiseModules(x, networkType = "bogus"), "networkType")
  expect_error(cuRnet_blockwiseModules(x, maxBlocksize = 10), "unknown argument\\(s\\).*maxBlocksize")
  expect_error(cuRnet_blockwiseModules(x, saveTOMs = TRUE), "only saveTOMs = FALSE")
  expect_error(cuRnet_blockwiseModules(x, blocks = 1:3), "blocks has 3 entries for 90 genes")
  # genes in rows: a warning that datExpr looks transposed
  expect_warning(try(cuRnet_blockwiseModules(t(cbind(x, x, x, x, x, x)), minModuleSize = 10), silent = TRUE),
                 "looks transposed")
})
