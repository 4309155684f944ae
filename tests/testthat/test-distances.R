test_that("cuRnet_distances is igraph::distances", {
  skip_if_no_engine()
  set.seed(5)
  ig <- igraph::sample_gnp(150, 0.02, directed = TRUE)
  igraph::V(ig)$name <- sprintf("gene %03d", seq_len(150))
  v <- c(5, 1, 77, 5)
  for (mode in c("all", "out", "in")) {
    expect_equal(cuRnet_distances(ig, v, mode = mode), igraph::distances(ig, v, mode = mode))
  }
  expect_equal(cuRnet_distances(ig, 1:3), igraph::distances(ig, 1:3))
  expect_equal(cuRnet_distances(ig, igraph::V(ig)[1:3], to = c(9, 2)),
               igraph::distances(ig, igraph::V(ig)[1:3], to = c(9, 2)))
  expect_equal(cuRnet_distances(ig, c("gene 010", "gene 020"), mode = "out"),
               igraph::distances(ig, c("gene 010", "gene 020"), mode = "out"))

  igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig))
  for (mode in c("all", "out", "in")) {
    expect_equal(cuRnet_distances(ig, v, mode = mode), igraph::distances(ig, v, mode = mode), tolerance = 1e-9)
  }
  expect_equal(cuRnet_distances(ig, v, weights = NA), igraph::distances(ig, v, weights = NA))
  w <- stats::runif(igraph::ecount(ig), 1, 3)
  expect_equal(cuRnet_distances(ig, v, mode = "out", weights = w),
               igraph::distances(ig, v, mode = "out", weights = w), tolerance = 1e-9)
})

test_that("cuRnet_distances handles undirected graphs and negative directed weights", {
  skip_if_no_engine()
  set.seed(8)
  ig <- igraph::sample_gnp(100, 0.05)
  expect_equal(cuRnet_distances(ig, 1:4), igraph::distances(ig, 1:4))
  d <- igraph::make_graph(c(1, 2, 2, 3, 1, 3), directed = TRUE)
  igraph::E(d)$weight <- c(2, -1, 3)
  expect_equal(cuRnet_distances(d, 1, mode = "out"), igraph::distances(d, 1, mode = "out"))
  expect_error(cuRnet_distances(data.frame(from = 1, to = 2)), "igraph object")
})
