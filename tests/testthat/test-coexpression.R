# cuRnet's co-expression functions against WGCNA 1.72 (skipped when WGCNA is missing) and R.

random_expr <- function(samples = 24, genes = 60, seed = 1) {
  set.seed(seed)
  d <- matrix(rnorm(samples * genes), samples, genes, dimnames = list(NULL, paste0("g", seq_len(genes))))
  d[, 2] <- d[, 1] + rnorm(samples, sd = 0.3)
  d[, 3] <- -d[, 1] + rnorm(samples, sd = 0.3)
  d
}

quietly <- function(expr) {
  utils::capture.output(value <- suppressWarnings(expr))
  value
}

test_that("the threshold network equals R's cor() thresholded pair by pair", {
  skip_if_no_engine()
  d <- random_expr()
  d[4, 7] <- NA
  for (method in c("pearson", "spearman")) {
    r <- stats::cor(d, use = "pairwise.complete.obs", method = method)
    e <- cuRnet_coexpression(d, method, threshold = 0.4, genes = "columns", as = "data.frame", backend = "cpu")
    keep <- which(abs(r) >= 0.4 & upper.tri(r), arr.ind = TRUE)
    expected <- data.frame(from = colnames(d)[keep[, 1]], to = colnames(d)[keep[, 2]], r = r[keep])
    expected <- expected[order(match(expected$from, colnames(d)), match(expected$to, colnames(d))), ]
    rownames(expected) <- NULL
    expect_equal(e, expected, tolerance = 1e-12)
  }
})

test_that("graphs: every gene a vertex, weights as asked, igraph's form", {
  skip_if_no_engine()
  d <- random_expr()
  g <- cuRnet_coexpression(t(d), threshold = 0.8, weight = "distance", pvalues = TRUE, backend = "cpu")
  expect_s3_class(g, "cuRnet_graph")
  expect_equal(g$n, ncol(d))
  expect_false(g$directed)
  expect_true(all(c("from", "to", "r", "p") %in% names(g$edges)))
  ig <- cuRnet_coexpression(t(d), threshold = 0.8, as = "igraph", backend = "cpu")
  expect_equal(igraph::vcount(ig), ncol(d))
  expect_equal(sort(igraph::E(ig)$weight), sort(abs(g$edges$r)))
  none <- cuRnet_coexpression(t(d), threshold = 1, as = "igraph", backend = "cpu")
  expect_equal(igraph::ecount(none), 0)
  top <- cuRnet_coexpression(t(d), top_k = 1, as = "data.frame", backend = "cpu")
  expect_true(all(colnames(d) %in% c(top$from, top$to)))
})

test_that("bad input is a clear error; constant genes are named in a warning", {
  skip_if_no_engine()
  d <- random_expr()
  expect_error(cuRnet_coexpression(t(d), backend = "cpu"), "exactly one")
  dup <- t(d)
  rownames(dup)[2] <- "g1"
  expect_error(cuRnet_coexpression(dup, threshold = 0.5, backend = "cpu"), "duplicated: 'g1'")
  expect_error(cuRnet_coexpression(d[1:2, ], genes = "columns", threshold = 0.5, backend = "cpu"), "at least 3")
  expect_error(cuRnet_coexpression(data.frame(a = letters[1:3], b = 1:3), threshold = 0.5), "numeric")
  d[, 9] <- 5
  expect_warning(e <- cuRnet_coexpression(d, genes = "columns", threshold = 0, as = "data.frame", backend = "cpu"),
                 "'g9'")
  expect_false("g9" %in% c(e$from, e$to))
})

test_that("an ExpressionSet is taken with its probes as genes", {
  skip_if_no_engine()
  skip_if_not_installed("Biobase")
  d <- random_expr()
  eset <- Biobase::ExpressionSet(t(d))
  e <- cuRnet_coexpression(eset, threshold = 0.8, as = "data.frame", backend = "cpu")
  expect_equal(e, cuRnet_coexpression(t(d), threshold = 0.8, as = "data.frame", backend = "cpu"))
})

test_that("adjacency, pickSoftThreshold and TOM equal WGCNA's", {
  skip_if_no_engine()
  skip_if_not_installed("WGCNA")
  suppressMessages(library(WGCNA, quietly = TRUE, warn.conflicts = FALSE))
  d <- random_expr()
  d[5, 11] <- NA
  for (type in c("unsigned", "signed", "signed hybrid")) {
    expect_equal(cuRnet_adjacency(d, type = type, backend = "cpu"), adjacency(d, type = type), tolerance = 1e-9)
    expect_equal(cuRnet_adjacency(d, type = type, corFnc = "bicor", backend = "cpu"),
                 adjacency(d, type = type, corFnc = "bicor"), tolerance = 1e-9)
    ours <- cuRnet_pickSoftThreshold(d, networkType = type, verbose = -1, backend = "cpu")
    theirs <- quietly(pickSoftThreshold(d, networkType = type, verbose = 0))
    expect_equal(ours$fitIndices, theirs$fitIndices, tolerance = 1e-9)
    expect_identical(ours$powerEstimate, theirs$powerEstimate)
  }
  a <- adjacency(d, power = 6)
  for (tom in c("unsigned", "signed")) {
    expect_equal(cuRnet_TOM(a, TOMType = tom, backend = "cpu"), TOMsimilarity(a, TOMType = tom, verbose = 0),
                 tolerance = 1e-9)
  }
  complete <- d[-5, ]
  for (nt in c("unsigned", "signed")) {
    expect_equal(cuRnet_TOMsimilarityFromExpr(complete, corType = "bicor", networkType = nt, backend = "cpu"),
                 TOMsimilarityFromExpr(complete, corType = "bicor", networkType = nt, verbose = 0),
                 tolerance = 1e-9)
  }
})

# -- orientation: Bioconductor objects, the families' conventions, transposed-looking input --------

wgcna_loaded <- function() {
  skip_if_not_installed("WGCNA")
  suppressMessages(library(WGCNA, quietly = TRUE, warn.conflicts = FALSE))
}

test_that("an ExpressionSet or SummarizedExperiment given to the WGCNA drop-ins is read with genes in rows", {
  skip_if_no_engine()
  skip_if_not_installed("Biobase")
  wgcna_loaded()
  # fewer genes than samples (the result R allocates is then smaller than a swapped reading's)
  # and more genes than samples
  for (shape in list(c(samples = 40, genes = 12), c(samples = 16, genes = 45))) {
    d <- random_expr(shape[["samples"]], shape[["genes"]], seed = shape[["genes"]])
    objects <- list(Biobase::ExpressionSet(t(d)))
    if (requireNamespace("SummarizedExperiment", quietly = TRUE)) {
      objects <- c(objects, SummarizedExperiment::SummarizedExperiment(list(counts = t(d))))
    }
    for (obj in objects) {
      expect_no_warning(tom <- cuRnet_TOMsimilarityFromExpr(obj, backend = "cpu"))
      expect_equal(dim(tom), c(ncol(d), ncol(d)))
      expect_equal(tom, TOMsimilarityFromExpr(d, verbose = 0), tolerance = 1e-9)
      expect_equal(cuRnet_adjacency(obj, backend = "cpu"), adjacency(d), tolerance = 1e-9)
      ours <- cuRnet_pickSoftThreshold(obj, verbose = -1, backend = "cpu")
      theirs <- quietly(pickSoftThreshold(d, verbose = 0))
      expect_identical(ours$powerEstimate, theirs$powerEstimate)
      expect_equal(ours$fitIndices$mean.k., theirs$fitIndices$mean.k., tolerance = 1e-9)
    }
  }
})

test_that("Bioconductor's ALL through the WGCNA drop-ins equals WGCNA on t(exprs(ALL))", {
  skip_if_no_engine()
  skip_if_not_installed("ALL")
  skip_if_not_installed("Biobase")
  wgcna_loaded()
  env <- new.env()
  utils::data("ALL", package = "ALL", envir = env)
  all <- env$ALL
  spread <- apply(Biobase::exprs(all), 1, stats::var)
  for (top in c(50, 300)) {              # 50 probes: fewer genes than ALL's 128 samples
    sub <- all[order(-spread)[seq_len(top)], ]
    datExpr <- t(Biobase::exprs(sub))
    tom <- cuRnet_TOMsimilarityFromExpr(sub, backend = "cpu")
    expect_equal(dim(tom), c(top, top))
    expect_equal(tom, TOMsimilarityFromExpr(datExpr, verbose = 0), tolerance = 1e-9)
    ours <- cuRnet_pickSoftThreshold(sub, verbose = -1, backend = "cpu")
    theirs <- quietly(pickSoftThreshold(datExpr, verbose = 0))
    expect_identical(ours$powerEstimate, theirs$powerEstimate)
    expect_equal(ours$fitIndices$mean.k., theirs$fitIndices$mean.k., tolerance = 1e-9)
    expect_lt(ours$fitIndices$mean.k.[1], top)
  }
})

test_that("a result of the wrong size is refused before the engine writes into it", {
  skip_if_no_engine()
  d <- random_expr(20, 8)
  small <- cuRnet:::new_result("double", 5, 5)
  small[] <- -7
  expect_error(cuRnet:::engine_call(cuRnet:::engine_module("coexpression")$wgcna_dense_into(
    "adjacency", cuRnet:::data_address(small), cuRnet:::as_arrow(as.double(d)), nrow(d), ncol(d), FALSE,
    backend = "cpu")), "allocated holds 25 values where 64")
  expect_true(all(small == -7))
  a <- cuRnet:::new_result("double", 3, 3)
  expect_error(cuRnet:::engine_call(cuRnet:::engine_module("coexpression")$tom_into(
    cuRnet:::data_address(a), cuRnet:::as_arrow(as.double(diag(4))), 4L, backend = "cpu")),
    "allocated holds 9 values where 16")
})

test_that("a matrix that looks transposed is a warning; the stated layout is not", {
  skip_if_no_engine()
  d <- random_expr(samples = 20, genes = 150)        # WGCNA's datExpr: 20 samples x 150 genes
  expect_warning(cuRnet_coexpression(d, threshold = 0.9, as = "data.frame", backend = "cpu"),
                 "looks transposed: it has 150 samples for 20 genes.*genes = \"columns\"")
  expect_no_warning(cuRnet_coexpression(d, threshold = 0.9, genes = "columns", as = "data.frame", backend = "cpu"))
  expect_no_warning(cuRnet_coexpression(d, threshold = 0.9, genes = "rows", as = "data.frame", backend = "cpu"))
  # the WGCNA drop-ins take samples x genes: genes in rows look transposed to them
  expect_warning(cuRnet_adjacency(t(d), backend = "cpu"), "datExpr looks transposed.*samples x genes")
  expect_warning(cuRnet_pickSoftThreshold(t(d), verbose = -1, backend = "cpu"), "data looks transposed")
  expect_no_warning(cuRnet_adjacency(d, backend = "cpu"))
  # names say it too: probe ids as sample names, GEO sample ids as gene names
  probes <- d[, 1:30]
  colnames(probes) <- paste0(1000 + seq_len(30), "_at")
  expect_warning(cuRnet_coexpression(probes, threshold = 0.9, backend = "cpu"), "look like gene ids \\('1001_at'")
  gsm <- d[, 1:30]
  rownames(gsm) <- paste0("GSM", 100 + seq_len(20))
  expect_warning(cuRnet_TOMsimilarityFromExpr(t(gsm), backend = "cpu"), "look like sample ids \\('GSM101'")
})

# -- every WGCNA argument supported or refused by name ---------------------------------------------

test_that("misspelt and unsupported WGCNA arguments are errors that name them", {
  skip_if_no_engine()
  d <- random_expr()
  a <- cuRnet_adjacency(d, backend = "cpu")
  expect_error(cuRnet_adjacency(d, powr = 6), "unused argument \\(powr = 6\\)")
  expect_error(cuRnet_TOM(a, TOMtype = "signed"), "unused argument \\(TOMtype = \"signed\"\\)")
  expect_error(cuRnet_TOMsimilarityFromExpr(d, power = 6, TOMtype = "unsigned"), "unused argument")
  w <- matrix(runif(length(d)), nrow(d))
  expect_error(cuRnet_TOMsimilarityFromExpr(d, weights = w),
               "cuRnet_TOMsimilarityFromExpr: weights not supported.*WGCNA::TOMsimilarityFromExpr\\)")
  expect_error(cuRnet_adjacency(d, weights = w), "weights not supported")
  expect_error(cuRnet_pickSoftThreshold(d, weights = w), "weights not supported")
  expect_error(cuRnet_adjacency(d, selectCols = 1:3), "selectCols not supported")
  expect_error(cuRnet_TOMsimilarityFromExpr(d, quickCor = 1, cosineCorrelation = TRUE),
               "quickCor, cosineCorrelation not supported")
  expect_error(cuRnet_adjacency(d, corFnc = function(x, ...) stats::cor(x, method = "kendall")),
               "corFnc must be cor or bicor")
  expect_error(cuRnet_adjacency(d, corOptions = list(use = "p", method = "kendall")), "kendall")
  expect_error(cuRnet_adjacency(d, corOptions = list(use = "p", robustX = FALSE)), "robustX")
})

test_that("corFnc, corOptions and the TOM's options give WGCNA's results", {
  skip_if_no_engine()
  wgcna_loaded()
  d <- random_expr()
  spear <- list(use = "p", method = "spearman")
  expect_equal(cuRnet_adjacency(d, corOptions = spear, backend = "cpu"), adjacency(d, corOptions = spear),
               tolerance = 1e-9)
  expect_equal(cuRnet_adjacency(d, corFnc = WGCNA::bicor, corOptions = list(use = "p", maxPOutliers = 0.05),
                                backend = "cpu"),
               adjacency(d, corFnc = "bicor", corOptions = list(use = "p", maxPOutliers = 0.05)), tolerance = 1e-9)
  expect_equal(cuRnet_adjacency(d, corFnc = stats::cor, backend = "cpu"), adjacency(d), tolerance = 1e-9)
  expect_equal(cuRnet_pickSoftThreshold(d, corOptions = spear, verbose = -1, backend = "cpu")$fitIndices,
               quietly(pickSoftThreshold(d, corOptions = spear, verbose = 0))$fitIndices, tolerance = 1e-9)
  # missing values: "all.obs" (also cor()'s default when corOptions gives no use) refuses them, as WGCNA
  d[4, 7] <- NA
  for (opts in list(list(use = "all.obs"), list())) {
    expect_error(adjacency(d, corOptions = opts), "Missing values")
    expect_error(cuRnet_adjacency(d, corOptions = opts, backend = "cpu"), "missing values")
    expect_error(cuRnet_pickSoftThreshold(d, corOptions = opts, verbose = -1, backend = "cpu"), "missing values")
  }
  complete <- list(use = "complete.obs")
  expect_equal(cuRnet_adjacency(d, corOptions = complete, backend = "cpu"), adjacency(d, corOptions = complete),
               tolerance = 1e-9)
  expect_error(cuRnet_adjacency(d, corOptions = list(use = "everything"), backend = "cpu"), "everything")
  # the TOM's own options
  expect_error(cuRnet_TOM(adjacency(d[-4, ]), suppressTOMForZeroAdjacencies = TRUE),
               "cuRnet_TOM: suppressTOMForZeroAdjacencies not supported.*WGCNA::TOMsimilarity\\)")
  s <- cor(d[-4, 1:20])
  expect_equal(cuRnet_TOM(s, TOMType = "signed", suppressNegativeTOM = TRUE, backend = "cpu"),
               TOMsimilarity(s, TOMType = "signed", suppressNegativeTOM = TRUE, verbose = 0), tolerance = 1e-9)
  expect_equal(cuRnet_TOMsimilarityFromExpr(d[-4, ], suppressNegativeTOM = TRUE, backend = "cpu"),
               TOMsimilarityFromExpr(d[-4, ], suppressNegativeTOM = TRUE, verbose = 0), tolerance = 1e-9)
})
