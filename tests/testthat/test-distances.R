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
  # anything cuRnet_graph() takes (numbers in a data frame are vertex names)
  expect_equal(cuRnet_distances(data.frame(from = 1, to = 2), mode = "out"),
               matrix(c(0, Inf, 1, 0), 2, dimnames = list(c("1", "2"), c("1", "2"))))
  expect_error(cuRnet_distances(list(1)), "cuRnet_graph\\(\\) takes")
})

test_that("cuRnet_distances takes igraph's algorithm argument and v = numeric(0)", {
  skip_if_no_engine()
  set.seed(12)
  ig <- igraph::sample_gnp(80, 0.05, directed = TRUE)
  igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig), -0.2, 2)
  igraph::E(ig)$weight[igraph::which_mutual(ig)] <- 1   # no negative two-cycles
  skip_if(inherits(try(igraph::distances(ig, 1, mode = "out", algorithm = "bellman-ford"), silent = TRUE),
                   "try-error"), "this random graph has a negative cycle")
  # igraph 1.3.5 refuses negative weights with "automatic" and (a bug) "johnson": its
  # Bellman-Ford is the reference for all of them
  want <- igraph::distances(ig, 1:6, mode = "out", algorithm = "bellman-ford")
  for (algorithm in c("bellman-ford", "automatic", "johnson", "floyd-warshall")) {
    expect_equal(cuRnet_distances(ig, 1:6, mode = "out", algorithm = algorithm), want, tolerance = 1e-9)
  }
  expect_error(cuRnet_distances(ig, 1, mode = "out", algorithm = "dijkstra"), "non-negative weights")
  expect_error(igraph::distances(ig, 1, mode = "out", algorithm = "dijkstra"))
  expect_warning(d <- cuRnet_distances(ig, 1:3, algorithm = "unweighted"), "weights ignored")
  expect_equal(d, suppressWarnings(igraph::distances(ig, 1:3, algorithm = "unweighted")))
  igraph::E(ig)$weight <- abs(igraph::E(ig)$weight)
  expect_equal(cuRnet_distances(ig, 2:4, to = c(9, 1), mode = "in", algorithm = "dijkstra"),
               igraph::distances(ig, 2:4, to = c(9, 1), mode = "in", algorithm = "dijkstra"))
  expect_error(cuRnet_distances(ig, 1, algorithm = "astar"), "should be one of")
  # no sources: a 0 x |to| matrix, named as igraph names it
  expect_identical(dim(cuRnet_distances(ig, numeric(0))), c(0L, 80L))
  expect_equal(cuRnet_distances(ig, numeric(0)), igraph::distances(ig, numeric(0)))
  igraph::V(ig)$name <- sprintf("g%02d", 1:80)
  expect_equal(cuRnet_distances(ig, numeric(0), to = 1:3), igraph::distances(ig, numeric(0), to = 1:3))
  expect_equal(cuRnet_distances(ig, character(0)), igraph::distances(ig, character(0)))
})

test_that("every argument of igraph::distances is an argument of cuRnet_distances", {
  expect_true(all(names(formals(igraph::distances)) %in% names(formals(cuRnet_distances))))
  igraph_algorithms <- eval(formals(igraph::distances)$algorithm)
  expect_true(all(igraph_algorithms %in% eval(formals(cuRnet_distances)$algorithm)))
})

test_that("cuRnet_distances(precision = \"single\") agrees with igraph to 1e-6 relative", {
  skip_if_no_engine()
  set.seed(5)
  ig <- igraph::sample_gnp(150, 0.05)
  igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig), 0.1, 2)
  ref <- igraph::distances(ig, 1:10)
  single <- cuRnet_distances(ig, 1:10, precision = "single")
  expect_equal(single, ref, tolerance = 1e-6)
  expect_false(identical(single, ref))
  expect_equal(cuRnet_distances(ig, 1:10), ref, tolerance = 1e-12)
})
