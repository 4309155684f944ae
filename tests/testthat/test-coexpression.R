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
