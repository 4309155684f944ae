# cuRnet_hclust against stats::hclust and fastcluster::hclust (WGCNA's).

expect_same_tree <- function(got, want, ties = FALSE) {
  expect_s3_class(got, "hclust")
  expect_identical(names(got), c("merge", "height", "order", "labels", "method", "call", "dist.method"))
  expect_identical(got$merge, want$merge)
  expect_equal(got$height, want$height, tolerance = 1e-10)
  expect_identical(got$order, want$order)
  expect_identical(got$labels, want$labels)
  expect_identical(got$method, want$method)
  expect_identical(got$dist.method, want$dist.method)
  n <- length(got$order)
  for (k in seq_len(n)) expect_identical(cutree(got, k), cutree(want, k))
}

random_dist <- function(n, seed) {
  set.seed(seed)
  x <- matrix(rnorm(n * 5), n, 5, dimnames = list(paste0("g", seq_len(n)), NULL))
  dist(x)
}

tied_dist <- function(n, seed, prob = NULL) {
  set.seed(seed)
  m <- matrix(0, n, n)
  m[lower.tri(m)] <- sample(1:3, n * (n - 1) / 2, replace = TRUE, prob = prob)
  as.dist(m + t(m))
}

test_that("cuRnet_hclust equals stats::hclust and fastcluster::hclust on random dissimilarities", {
  skip_if_no_engine()
  skip_if_not_installed("fastcluster")
  for (method in c("average", "complete", "single")) {
    for (n in c(2, 3, 40)) {
      d <- random_dist(n, n)
      got <- cuRnet_hclust(d, method)
      expect_same_tree(got, fastcluster::hclust(d, method))
      expect_same_tree(got, stats::hclust(d, method))
    }
  }
})

test_that("ties: fastcluster's tree; for single linkage its heights and partitions", {
  skip_if_no_engine()
  skip_if_not_installed("fastcluster")
  d <- tied_dist(50, 7)
  for (method in c("average", "complete")) {
    expect_same_tree(cuRnet_hclust(d, method), fastcluster::hclust(d, method))
  }
  # Single linkage at exact ties: the heights, and the partition cut between any two of them
  # (the components of the dissimilarities at most that high), are the same for every valid
  # tree, but the merges within one height are not: fastcluster builds a spanning tree, the GPU
  # runs the nearest-neighbour chain. Rare low values give the tree several levels.
  d <- tied_dist(50, 7, prob = c(0.02, 0.04, 0.94))
  got <- cuRnet_hclust(d, "single")
  want <- fastcluster::hclust(d, "single")
  expect_equal(got$height, want$height)
  expect_equal(got$height, stats::hclust(d, "single")$height)
  levels <- unique(want$height)
  expect_gt(length(levels), 2)
  for (h in c((head(levels, -1) + tail(levels, -1)) / 2, max(levels) + 1)) {
    expect_identical(cutree(got, h = h), cutree(want, h = h))
  }
})

test_that("a matrix is read as as.dist(matrix), labels from its names", {
  skip_if_no_engine()
  skip_if_not_installed("fastcluster")
  d <- as.matrix(random_dist(30, 3))
  got <- cuRnet_hclust(d)
  want <- fastcluster::hclust(as.dist(d), "average")
  expect_same_tree(got, want)
  expect_identical(got$labels, rownames(d))
  expect_identical(cuRnet_hclust(dist(USArrests), "av")$dist.method, "euclidean")
})

test_that("1 - TOM of ALL's genes clusters as WGCNA's fastcluster::hclust does", {
  skip_if_no_engine()
  skip_if_not_installed("fastcluster")
  skip_if_not_installed("ALL")
  skip_if_not_installed("Biobase")
  env <- new.env()
  utils::data("ALL", package = "ALL", envir = env)
  x <- Biobase::exprs(env$ALL)
  x <- x[order(-apply(x, 1, stats::var))[1:150], ]
  tom <- cuRnet_TOMsimilarityFromExpr(t(x), power = 6)
  d <- as.dist(1 - tom)
  expect_same_tree(cuRnet_hclust(d), fastcluster::hclust(d, "average"))
  expect_same_tree(cuRnet_hclust(1 - tom), fastcluster::hclust(d, "average"))
})

test_that("bad input gets R's words", {
  skip_if_no_engine()
  expect_error(cuRnet_hclust(dist(1:5), "ward.D2"), "'method' must be one of")
  expect_error(cuRnet_hclust(dist(1:5), members = 1:5), "members")
  m <- as.matrix(dist(1:4))
  m[1, 2] <- m[2, 1] <- NA
  expect_error(cuRnet_hclust(m), "NA, NaN or infinite")
  for (bad in c(NA, NaN, Inf, -Inf)) {          # anywhere in a dist: first, inside, last
    for (at in c(1, 4, 10)) {
      d <- dist(1:5)
      d[at] <- bad
      expect_error(cuRnet_hclust(d), "NA, NaN or infinite")
    }
  }
  m[1, 2] <- 5
  m[2, 1] <- 6
  expect_error(cuRnet_hclust(m), "symmetric")
  expect_error(cuRnet_hclust(matrix(0, 2, 3)), "square")
  expect_error(cuRnet_hclust(dist(1)), "at least 2")
  expect_error(cuRnet_hclust(structure(c(1, 2), Size = 3L, class = "dist")), "2 values where a dist of Size 3 holds 3")
  expect_error(cuRnet_hclust("a"), "dist object or a numeric matrix")
})
