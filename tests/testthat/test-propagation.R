# cuRnet_page_rank against igraph::page_rank (PRPACK); cuRnet_diffuse and
# cuRnet_diffusion_kernel against diffuStats' definitions computed densely here.

small_graph <- function(seed, n = 30, m = 80, directed = TRUE, weighted = TRUE) {
  set.seed(seed)
  el <- cbind(sample(n - 3, m, replace = TRUE), sample(n - 3, m, replace = TRUE))  # 3 isolated
  el <- el[el[, 1] != el[, 2], ]
  g <- igraph::make_graph(t(el), n = n, directed = directed)
  igraph::V(g)$name <- paste0("v", seq_len(n))
  if (weighted) igraph::E(g)$weight <- runif(igraph::ecount(g), 0.1, 2)
  g
}

test_that("cuRnet_page_rank matches igraph's PRPACK, personalized or not", {
  skip_if_no_engine()
  for (directed in c(TRUE, FALSE)) {
    g <- small_graph(1, directed = directed)
    want <- igraph::page_rank(g)
    got <- cuRnet_page_rank(g, backend = "cpu")
    expect_equal(got$vector, want$vector, tolerance = 1e-10)
    expect_equal(names(got$vector), igraph::V(g)$name)
    expect_equal(got$value, 1)
    expect_null(got$options)
    p <- c(5, rep(0, 10), 1, rep(0, 18))
    expect_equal(cuRnet_page_rank(g, personalized = p, damping = 0.7, backend = "cpu")$vector,
                 igraph::page_rank(g, personalized = p, damping = 0.7)$vector, tolerance = 1e-10)
    expect_equal(cuRnet_page_rank(g, weights = NA, directed = FALSE, backend = "cpu")$vector,
                 igraph::page_rank(g, weights = NA, directed = FALSE)$vector, tolerance = 1e-10)
  }
})

test_that("a matrix of personalizations gives a column a set, each igraph's", {
  skip_if_no_engine()
  g <- small_graph(2)
  set.seed(3)
  P <- matrix(runif(30 * 4), 30, 4, dimnames = list(NULL, paste0("set", 1:4)))
  P[P < 0.6] <- 0
  got <- cuRnet_page_rank(g, personalized = P, vids = c("v1", "v5", "v9"), backend = "cpu")$vector
  expect_equal(dim(got), c(3L, 4L))
  expect_equal(colnames(got), colnames(P))
  for (j in 1:4) {
    want <- igraph::page_rank(g, personalized = P[, j], vids = c("v1", "v5", "v9"))$vector
    expect_equal(got[, j], want, tolerance = 1e-10)
  }
  named <- c(v3 = 1, v7 = 2)        # by name: the other vertices 0
  full <- setNames(rep(0, 30), igraph::V(g)$name)
  full[c("v3", "v7")] <- c(1, 2)
  expect_equal(cuRnet_page_rank(g, personalized = named, backend = "cpu")$vector,
               igraph::page_rank(g, personalized = full)$vector, tolerance = 1e-10)
})

test_that("cuRnet_page_rank's errors are in R's words", {
  skip_if_no_engine()
  g <- small_graph(4)
  expect_error(cuRnet_page_rank(g, personalized = c(NA, rep(1, 29)), backend = "cpu"), "personalized contains NA")
  expect_error(cuRnet_page_rank(g, personalized = c(-1, rep(1, 29)), backend = "cpu"), "negative")
  expect_error(cuRnet_page_rank(g, personalized = rep(1, 3), backend = "cpu"), "3 values a column")
  expect_error(cuRnet_page_rank(g, personalized = rep(0, 30), backend = "cpu"), "all zeros")
  expect_error(cuRnet_page_rank(g, personalized = c(zz = 1), backend = "cpu"), "zz")
  expect_error(cuRnet_page_rank(g, damping = 1, backend = "cpu"), "damping")
  expect_error(cuRnet_page_rank(g, weights = -igraph::E(g)$weight, backend = "cpu"), "negative edge weight")
})

dense_laplacian <- function(g) {
  A <- as.matrix(igraph::as_adjacency_matrix(g, attr = if ("weight" %in% igraph::edge_attr_names(g)) "weight"))
  diag(rowSums(A)) - A
}

test_that("cuRnet_diffuse and cuRnet_diffusion_kernel follow diffuStats' definitions", {
  skip_if_no_engine()
  g <- small_graph(5, directed = FALSE)
  K <- solve(diag(30) + dense_laplacian(g))
  dimnames(K) <- NULL
  expect_equal(unname(cuRnet_diffusion_kernel(g, backend = "cpu")), K, tolerance = 1e-10)
  y <- setNames(c(1, 0, 1, 0, 0, 1, 0, 0), paste0("v", 1:8))   # v9.. unlabelled
  B <- 1:8
  raw <- unname(drop(K[, B] %*% y))
  got <- cuRnet_diffuse(g, y, method = "raw", backend = "cpu")
  expect_equal(unname(got), raw, tolerance = 1e-8)
  expect_equal(names(got), igraph::V(g)$name)
  ml <- unname(drop(K[, B] %*% ifelse(y == 1, 1, -1)))
  expect_equal(unname(cuRnet_diffuse(g, y, method = "ml", backend = "cpu")), ml, tolerance = 1e-8)
  full <- rep((sum(y) - sum(1 - y)) / 30, 30)
  full[B] <- ifelse(y == 1, 1, -1)
  expect_equal(unname(cuRnet_diffuse(g, y, method = "gm", backend = "cpu")), unname(drop(K %*% full)), tolerance = 1e-8)
  yin <- rep(0, 30)
  yin[B] <- y
  expect_equal(unname(cuRnet_diffuse(g, y, method = "ber_s", eps = 0.5, backend = "cpu")),
               raw / (yin + 0.5), tolerance = 1e-8)
  nb <- length(B)
  r1 <- rowSums(K[, B])
  r2 <- rowSums(K[, B]^2)
  z <- (raw - r1 / nb * sum(y)) /
    sqrt((nb * r2 - r1^2) / ((nb - 1) * nb^2) * (nb * sum(y^2) - sum(y)^2))
  expect_equal(unname(cuRnet_diffuse(g, y, method = "z", backend = "cpu")), z, tolerance = 1e-8)
  mc <- cuRnet_diffuse(g, y, method = "mc", n.perm = 200, backend = "cpu")
  expect_true(all(mc >= 0 & mc < 1))
  # a matrix of scores and a list of backgrounds keep their format
  Y <- cbind(a = y, b = rev(y))
  m <- cuRnet_diffuse(g, Y, backend = "cpu")
  expect_equal(dimnames(m), list(igraph::V(g)$name, c("a", "b")))
  expect_equal(unname(m[, "b"]), unname(drop(K[, B] %*% rev(y))), tolerance = 1e-8)
  l <- cuRnet_diffuse(g, list(first = Y, second = Y[1:4, ]), backend = "cpu")
  expect_equal(names(l), c("first", "second"))
  expect_equal(unname(l$second[, "a"]), unname(drop(K[, 1:4] %*% y[1:4])), tolerance = 1e-8)
  Kd <- cuRnet_diffusion_kernel(g, "diffusion", sigma2 = 2, backend = "cpu")
  d <- igraph::strength(g)
  h <- ifelse(d > 0, 1 / sqrt(pmax(d, 1e-300)), 0)               # an isolated vertex's row is 0
  Ln <- diag(as.numeric(d > 0)) - diag(h) %*% (diag(d) - dense_laplacian(g)) %*% diag(h)
  e <- eigen(Ln, symmetric = TRUE)
  expect_equal(unname(Kd), e$vectors %*% diag(exp(-e$values)) %*% t(e$vectors), tolerance = 1e-10)
})

test_that("cuRnet_diffuse's errors are in R's words", {
  skip_if_no_engine()
  g <- small_graph(6, directed = FALSE)
  expect_error(cuRnet_diffuse(g, c(v1 = 1, zz = 1), backend = "cpu"), "zz")
  expect_error(cuRnet_diffuse(g, c(v1 = NA, v2 = 1), backend = "cpu"), "NA")
  expect_error(cuRnet_diffuse(g, c(v1 = 2, v2 = 0), method = "ml", backend = "cpu"), "binary")
  expect_error(cuRnet_diffuse(g, c(v1 = 1, v2 = 0), method = "nope", backend = "cpu"), "should be one of")
  expect_error(cuRnet_diffuse(g, c(v1 = 1, v2 = 0), sample.prob = 1, backend = "cpu"), "sample.prob")
  expect_error(cuRnet_diffuse(g, c(v1 = 0, v2 = 0), backend = "cpu"), "all zeros")
  expect_error(cuRnet_diffusion_kernel(g, sigma2 = -1, backend = "cpu"), "sigma2")
})

# R's own binning: consecutive degrees grouped until a bin holds `size` vertices, a short last
# bin joining the one before (Guney et al.'s).
degree_bins_r <- function(degree, size) {
  values <- sort(unique(degree))
  bin <- integer(length(values))
  b <- 1L
  filled <- 0
  for (i in seq_along(values)) {
    bin[i] <- b
    filled <- filled + sum(degree == values[i])
    if (filled >= size) {
      b <- b + 1L
      filled <- 0
    }
  }
  if (filled > 0 && b > 1L) bin[bin == b] <- b - 1L
  bin[match(degree, values)]
}

test_that("cuRnet_propagation_null's z-scores and p-values match a direct loop over its draws", {
  skip_if_no_engine()
  g <- igraph::simplify(small_graph(7, n = 40, m = 110, directed = FALSE))
  n <- 40
  seeds <- c("v2", "v5", "v11", "v17")
  A <- unname(as.matrix(igraph::as_adjacency_matrix(g, attr = "weight")))
  d <- rowSums(A)
  W <- t(A) %*% diag(ifelse(d > 0, 1 / d, 0))               # W[i, j]: the chance of j -> i
  kernels <- list(pagerank = 0.4 * solve(diag(n) - 0.6 * W),   # restart 0.4; seeds weigh 1 / 4
                  regularized_laplacian = solve(diag(n) + unname(dense_laplacian(g))))   # seeds weigh 1
  for (kernel in names(kernels)) {
    restart <- if (kernel == "pagerank") 0.4
    res <- cuRnet_propagation_null(g, seeds, n = 300, bin_size = 8, seed = 3, kernel = kernel,
                                   restart = restart, backend = "cpu")
    draws <- res$draws
    expect_equal(dim(draws), c(300L, 4L))
    weight <- if (kernel == "pagerank") 1 / 4 else 1
    propagate <- function(set) drop(kernels[[kernel]][, set] %*% rep(weight, length(set)))
    observed <- propagate(match(seeds, igraph::V(g)$name))
    null <- apply(draws, 1, propagate)                           # vertices x draws, one at a time
    mu <- rowMeans(null)
    sd <- sqrt(rowMeans((null - mu)^2))
    s <- res$scores
    expect_equal(s$vertex, igraph::V(g)$name)
    expect_equal(s$observed, observed, tolerance = 1e-8)
    expect_equal(s$mean, mu, tolerance = 1e-8)
    expect_equal(s$sd, sd, tolerance = 1e-7)
    varies <- sd > 1e-9
    expect_true(any(!varies))                                   # the isolated vertices
    expect_true(all(is.nan(s$z[!varies])))
    expect_equal(s$z[varies], ((observed - mu) / sd)[varies], tolerance = 1e-6)
    # no ties: a draw that keeps a seed's component as it is ties with the observed value there
    # exactly, which the engine's iteration (stopped at tol) meets only to ~1e-11; exact zeros
    # (a component no seed reaches) are exact on both sides
    clear <- apply(abs(null - observed) > 1e-9 | (null == 0 & observed == 0), 1, all)
    expect_true(any(clear))
    expect_equal(s$p[clear], ((1 + rowSums(null >= observed)) / 301)[clear])
    # every vertex: between the counts with every near-tie below and with every one above
    expect_true(all(s$p >= (1 + rowSums(null > observed + 1e-9)) / 301 - 1e-12))
    expect_true(all(s$p <= (1 + rowSums(null >= observed - 1e-9)) / 301 + 1e-12))
  }
  # degree-matched: each draw's vertex is in its seed's bin, no vertex twice in a draw
  bins <- degree_bins_r(igraph::degree(g), 8)
  expect_equal(res$scores$bin, bins)
  seed_bins <- bins[match(seeds, igraph::V(g)$name)]
  expect_true(all(matrix(bins[draws], nrow(draws)) == rep(seed_bins, each = nrow(draws))))
  expect_true(all(apply(draws, 1, anyDuplicated) == 0))
  # seeded: the same call draws the same sets, another seed others
  again <- cuRnet_propagation_null(g, seeds, n = 300, bin_size = 8, seed = 3, restart = 0.4, backend = "cpu")
  expect_identical(again$draws, res$draws)
  other <- cuRnet_propagation_null(g, seeds, n = 300, bin_size = 8, seed = 4, restart = 0.4, backend = "cpu")
  expect_false(identical(other$draws, res$draws))
  uniform <- cuRnet_propagation_null(g, seeds, n = 50, degree_matched = FALSE, backend = "cpu")
  expect_true(all(uniform$scores$bin == 1L))
})

test_that("cuRnet_propagation_null's errors are in R's words", {
  skip_if_no_engine()
  g <- small_graph(8, directed = FALSE)
  expect_error(cuRnet_propagation_null(g, c("v1", "zz"), backend = "cpu"), "zz")
  expect_error(cuRnet_propagation_null(g, 31, backend = "cpu"), "1..30")
  expect_error(cuRnet_propagation_null(g, "v1", n = 1, backend = "cpu"), "`n`")
  expect_error(cuRnet_propagation_null(g, character(0), backend = "cpu"), "empty")
  expect_error(cuRnet_propagation_null(g, 1:30, backend = "cpu"), "every vertex")
  expect_error(cuRnet_propagation_null(g, "v1", kernel = "diffusion", restart = 0.5, backend = "cpu"),
               "restart")
})
