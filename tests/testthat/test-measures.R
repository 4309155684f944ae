# The distance measures against igraph, on random graphs (directed and undirected, weighted
# or not, with isolated vertices and several components) and on a real network.

random_graphs <- function() {
  set.seed(13)
  out <- list()
  for (directed in c(FALSE, TRUE)) {
    for (p in c(0.03, 0.08)) {
      g <- igraph::sample_gnp(60, p, directed = directed)
      g <- igraph::add_vertices(g, 2)                      # isolated vertices
      igraph::V(g)$name <- sprintf("v%02d", seq_len(igraph::vcount(g)))
      out[[length(out) + 1]] <- g
      # unrounded weights: no path length falls on a cutoff up to rounding
      igraph::E(g)$weight <- stats::runif(igraph::ecount(g), 0.5, 3)
      out[[length(out) + 1]] <- g
    }
  }
  out
}

test_that("closeness and harmonic centrality are igraph's", {
  skip_if_no_engine()
  for (g in random_graphs()) {
    for (mode in c("out", "in", "all")) {
      expect_equal(cuRnet_closeness(g, mode = mode), igraph::closeness(g, mode = mode))
      expect_equal(cuRnet_closeness(g, mode = mode, normalized = TRUE, cutoff = 2),
                   igraph::closeness(g, mode = mode, normalized = TRUE, cutoff = 2))
      expect_equal(cuRnet_harmonic_centrality(g, mode = mode),
                   igraph::harmonic_centrality(g, mode = mode))
      expect_equal(cuRnet_harmonic_centrality(g, mode = mode, normalized = TRUE, weights = NA, cutoff = 3),
                   igraph::harmonic_centrality(g, mode = mode, normalized = TRUE, weights = NA, cutoff = 3))
    }
    expect_equal(cuRnet_closeness(g, c("v05", "v01")), igraph::closeness(g, c("v05", "v01")))
    expect_equal(cuRnet_closeness(g, 3:1, mode = "total"), igraph::closeness(g, 3:1, mode = "total"))
  }
})

test_that("eccentricity, radius, diameter and farthest vertices are igraph's", {
  skip_if_no_engine()
  for (g in random_graphs()) {
    for (mode in c("all", "out", "in")) {
      expect_equal(cuRnet_eccentricity(g, mode = mode), igraph::eccentricity(g, mode = mode))
      expect_equal(cuRnet_radius(g, mode = mode), igraph::radius(g, mode = mode))
    }
    expect_equal(cuRnet_eccentricity(g, 4:2), igraph::eccentricity(g, 4:2))
    for (directed in c(TRUE, FALSE)) {
      expect_equal(cuRnet_diameter(g, directed = directed), igraph::diameter(g, directed = directed))
      expect_equal(cuRnet_diameter(g, directed = directed, unconnected = FALSE),
                   igraph::diameter(g, directed = directed, unconnected = FALSE))
      far <- cuRnet_farthest_vertices(g, directed = directed)
      expect_equal(far$distance, igraph::farthest_vertices(g, directed = directed)$distance)
      # among ties the pair may differ from igraph's: it must be at that distance
      d <- igraph::distances(g, far$vertices[1], far$vertices[2], mode = if (directed) "out" else "all")
      expect_equal(as.vector(d), far$distance)
    }
  }
  expect_length(cuRnet_farthest_vertices(random_graphs()[[1]], unconnected = FALSE)$vertices, 0)
})

test_that("mean distance and the distance table are igraph's", {
  skip_if_no_engine()
  for (g in random_graphs()) {
    for (directed in c(TRUE, FALSE)) {
      expect_equal(cuRnet_mean_distance(g, directed = directed), igraph::mean_distance(g, directed = directed))
      expect_equal(cuRnet_mean_distance(g, directed = directed, details = TRUE, weights = NA),
                   igraph::mean_distance(g, directed = directed, details = TRUE, weights = NA))
      expect_equal(cuRnet_mean_distance(g, directed = directed, unconnected = FALSE),
                   igraph::mean_distance(g, directed = directed, unconnected = FALSE))
      expect_equal(cuRnet_distance_table(g, directed = directed), igraph::distance_table(g, directed = directed))
    }
  }
  expect_equal(cuRnet_distance_table(igraph::make_empty_graph(3)), igraph::distance_table(igraph::make_empty_graph(3)))
})

test_that("ego sizes are igraph's", {
  skip_if_no_engine()
  for (g in random_graphs()) {
    for (mode in c("all", "out", "in")) {
      for (order in 0:3) {
        expect_equal(cuRnet_ego_size(g, order, mode = mode), igraph::ego_size(g, order, mode = mode))
      }
      expect_equal(cuRnet_ego_size(g, 3, c("v07", "v02"), mode = mode, mindist = 2),
                   igraph::ego_size(g, 3, c("v07", "v02"), mode = mode, mindist = 2))
    }
  }
})

test_that("weights given as a vector, and progress reports", {
  skip_if_no_engine()
  set.seed(3)
  g <- igraph::sample_gnp(80, 0.06, directed = TRUE)
  w <- stats::runif(igraph::ecount(g), 1, 4)
  expect_equal(cuRnet_closeness(g, mode = "all", weights = w), igraph::closeness(g, mode = "all", weights = w))
  expect_equal(cuRnet_mean_distance(g, weights = w), igraph::mean_distance(g, weights = w))
  seen <- NULL
  cuRnet_closeness(g, progress = function(done, total) seen <<- c(done, total))
  expect_equal(seen, c(80, 80))
})

test_that("bad input gives clear errors", {
  skip_if_no_engine()
  g <- igraph::make_ring(5)
  expect_error(cuRnet_closeness(data.frame(a = 1)), "two columns")   # built by cuRnet_graph()
  expect_error(cuRnet_closeness(list(1)), "cuRnet_graph\\(\\) takes")
  expect_error(cuRnet_closeness(g, mode = "both"), "should be one of")
  expect_error(cuRnet_ego_size(g, order = 1, mindist = 2), "mindist <= order")
  expect_error(cuRnet_closeness(g, weights = 1:2), "weights")
})

test_that("on STRING's sample network the measures are igraph's", {
  skip_if_no_engine()
  edges <- string_sample()
  g <- igraph::graph_from_data_frame(edges, directed = FALSE)
  v <- igraph::V(g)[seq(1, igraph::vcount(g), by = 250)]
  expect_equal(cuRnet_closeness(g, v), igraph::closeness(g, v))
  expect_equal(cuRnet_closeness(g, v, weights = NA, normalized = TRUE),
               igraph::closeness(g, v, weights = NA, normalized = TRUE))
  expect_equal(cuRnet_harmonic_centrality(g, v, cutoff = 1.5), igraph::harmonic_centrality(g, v, cutoff = 1.5))
  expect_equal(cuRnet_eccentricity(g, v), igraph::eccentricity(g, v))
  expect_equal(cuRnet_ego_size(g, 2, v), igraph::ego_size(g, 2, v))
  # whole-graph measures: every vertex a source
  expect_equal(cuRnet_distance_table(g), igraph::distance_table(g))
  expect_equal(cuRnet_mean_distance(g, weights = NA), igraph::mean_distance(g, weights = NA))
  expect_equal(cuRnet_diameter(g), igraph::diameter(g))
})

test_that("negative weights are refused, as igraph refuses them", {
  skip_if_no_engine()
  for (directed in c(FALSE, TRUE)) {
    g <- igraph::make_ring(3, directed = directed)
    w <- c(1, -1, 1)
    expect_error(igraph::closeness(g, weights = w), "positive")
    why <- "non-negative weights.*smallest weight here is -1"
    expect_error(cuRnet_closeness(g, weights = w), why)
    expect_error(cuRnet_closeness(g, weights = w, mode = "all"), why)
    expect_error(cuRnet_harmonic_centrality(g, weights = w), why)
    expect_error(cuRnet_eccentricity(g, weights = w), why)
    expect_error(cuRnet_radius(g, weights = w), why)
    expect_error(cuRnet_diameter(g, weights = w), why)
    expect_error(cuRnet_farthest_vertices(g, weights = w), why)
    expect_error(cuRnet_mean_distance(g, weights = w), why)
    igraph::E(g)$weight <- w                          # the weight attribute, too
    expect_error(cuRnet_mean_distance(g), why)
    expect_equal(cuRnet_mean_distance(g, weights = NA), igraph::mean_distance(g, weights = NA))  # hops
  }
})

test_that("the measures take backend = , and refuse an unknown one", {
  skip_if_not(cuRnet_available())
  g <- igraph::sample_gnp(30, 0.15, directed = TRUE)
  expect_equal(cuRnet_closeness(g, backend = "cpu", progress = FALSE), igraph::closeness(g))
  expect_equal(cuRnet_ego_size(g, 2, backend = "cpu", progress = FALSE), igraph::ego_size(g, 2))
  expect_equal(cuRnet_diameter(g, backend = "cpu", progress = FALSE), igraph::diameter(g))
  expect_error(cuRnet_radius(g, backend = "nosuch", progress = FALSE), "nosuch")
  old <- options(cuRnet.backend = "nosuch"); on.exit(options(old))
  expect_error(cuRnet_mean_distance(g, progress = FALSE), "nosuch")
})

test_that("eccentricity's and radius' default weights are the installed igraph's", {
  skip_if_no_engine()
  # igraph 1.x: no weights argument (hops); igraph 2.x: weights = NULL (the weight attribute)
  expect_identical(cuRnet:::igraph_default_weights(function(graph, vids, mode) NULL), NA)
  expect_null(cuRnet:::igraph_default_weights(function(graph, vids, ..., weights = NULL, mode) NULL))
  g <- igraph::make_ring(6)
  igraph::E(g)$weight <- c(1, 5, 1, 1, 1, 1)
  expect_equal(cuRnet_eccentricity(g), igraph::eccentricity(g))
  expect_equal(cuRnet_radius(g), igraph::radius(g))
  expect_equal(cuRnet_eccentricity(g, weights = NULL), apply(igraph::distances(g), 1, max))
  expect_equal(cuRnet_radius(g, weights = NULL), min(apply(igraph::distances(g), 1, max)))
})
