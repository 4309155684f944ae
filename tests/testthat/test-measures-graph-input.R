# The measures on a cuRnet graph (cuRnet_graph()) give igraph's results for the same network:
# the graph's own weights unless weights = NA, vertices by name or 1-based index.

# Small random networks, directed and undirected, weighted or not, with isolated vertices;
# each as an igraph object and as a cuRnet graph built from a data frame of its edges.
graph_pairs <- function() {
  set.seed(29)
  out <- list()
  for (directed in c(FALSE, TRUE)) {
    g <- igraph::sample_gnp(40, 0.07, directed = directed)
    g <- igraph::add_vertices(g, 2)                         # isolated vertices
    igraph::V(g)$name <- sprintf("v%02d", seq_len(igraph::vcount(g)))
    for (weighted in c(FALSE, TRUE)) {
      if (weighted) igraph::E(g)$weight <- stats::runif(igraph::ecount(g), 0.5, 3)
      edges <- igraph::as_data_frame(g, "edges")
      cg <- cuRnet_graph(edges, directed = directed, vertices = igraph::V(g)$name)
      out[[length(out) + 1]] <- list(ig = g, cg = cg)
    }
  }
  out
}

test_that("closeness, harmonic centrality and eccentricity take a cuRnet graph", {
  skip_if_no_engine()
  for (p in graph_pairs()) {
    ig <- p$ig
    cg <- p$cg
    expect_true(cg$weighted == !is.null(igraph::E(ig)$weight))
    for (mode in c("out", "in", "all")) {
      expect_equal(cuRnet_closeness(cg, mode = mode), igraph::closeness(ig, mode = mode))
      expect_equal(cuRnet_closeness(cg, mode = mode, weights = NA, normalized = TRUE),
                   igraph::closeness(ig, mode = mode, weights = NA, normalized = TRUE))
      expect_equal(cuRnet_harmonic_centrality(cg, mode = mode, cutoff = 2),
                   igraph::harmonic_centrality(ig, mode = mode, cutoff = 2))
      expect_equal(cuRnet_eccentricity(cg, mode = mode), igraph::eccentricity(ig, mode = mode))
    }
    expect_equal(cuRnet_closeness(cg, c("v05", "v01")), igraph::closeness(ig, c("v05", "v01")))
    expect_equal(cuRnet_eccentricity(cg, c("v07", "v03")), igraph::eccentricity(ig, c("v07", "v03")))
    expect_equal(cuRnet_radius(cg), igraph::radius(ig))
    # the same call on the igraph object and on the cuRnet graph
    expect_equal(cuRnet_closeness(cg, mode = "all"), cuRnet_closeness(ig, mode = "all"))
  }
})

test_that("diameter, mean distance, distance table and ego size take a cuRnet graph", {
  skip_if_no_engine()
  for (p in graph_pairs()) {
    ig <- p$ig
    cg <- p$cg
    for (directed in c(TRUE, FALSE)) {
      expect_equal(cuRnet_diameter(cg, directed = directed), igraph::diameter(ig, directed = directed))
      expect_equal(cuRnet_diameter(cg, directed = directed, weights = NA),
                   igraph::diameter(ig, directed = directed, weights = NA))
      expect_equal(cuRnet_mean_distance(cg, directed = directed, details = TRUE),
                   igraph::mean_distance(ig, directed = directed, details = TRUE))
      expect_equal(cuRnet_mean_distance(cg, directed = directed, weights = NA),
                   igraph::mean_distance(ig, directed = directed, weights = NA))
      expect_equal(cuRnet_distance_table(cg, directed = directed),
                   igraph::distance_table(ig, directed = directed))
    }
    far <- cuRnet_farthest_vertices(cg)
    expect_equal(far$distance, igraph::farthest_vertices(ig)$distance)
    expect_type(far$vertices, "character")
    expect_equal(igraph::distances(ig, far$vertices[1], far$vertices[2], mode = "out")[1, 1], far$distance)
    for (mode in c("all", "out", "in")) {
      expect_equal(cuRnet_ego_size(cg, 2, mode = mode, mindist = 1),
                   igraph::ego_size(ig, 2, mode = mode, mindist = 1))
    }
    expect_equal(cuRnet_ego_size(cg, 1, nodes = c("v02", "v09")), igraph::ego_size(ig, 1, nodes = c("v02", "v09")))
  }
})

test_that("distances and betweenness take a cuRnet graph", {
  skip_if_no_engine()
  for (p in graph_pairs()) {
    ig <- p$ig
    cg <- p$cg
    for (mode in c("all", "out", "in")) {
      expect_equal(cuRnet_distances(cg, mode = mode), igraph::distances(ig, mode = mode))
      expect_equal(cuRnet_distances(cg, c("v03", "v01"), c("v10", "v02"), mode = mode, weights = NA),
                   igraph::distances(ig, c("v03", "v01"), c("v10", "v02"), mode = mode, weights = NA))
    }
    expect_equal(suppressWarnings(cuRnet_distances(cg, c("v01", "v02", "v03"), algorithm = "unweighted")),
                 suppressWarnings(igraph::distances(ig, 1:3, algorithm = "unweighted")))
    expect_equal(dim(cuRnet_distances(cg, character(0))), c(0L, igraph::vcount(ig)))
    expect_equal(cuRnet_betweenness(cg), igraph::betweenness(ig))
    expect_equal(cuRnet_betweenness(cg, weights = NA), igraph::betweenness(ig, weights = NA))
  }
})

test_that("a cuRnet graph from an igraph object keeps its vertex numbers", {
  skip_if_no_engine()
  set.seed(3)
  ig <- igraph::sample_gnp(30, 0.1)
  igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig), 1, 2)
  cg <- cuRnet_graph(ig)
  expect_equal(cuRnet_closeness(cg, 4:2), igraph::closeness(ig, 4:2))
  expect_equal(cuRnet_distances(cg, 5, 1:4), igraph::distances(ig, 5, 1:4))
  expect_equal(cuRnet_farthest_vertices(cg)$distance, igraph::farthest_vertices(ig)$distance)
  expect_type(cuRnet_farthest_vertices(cg)$vertices, "integer")
})

test_that("weights on a cuRnet graph: its own, NA, never a vector; negative ones refused", {
  skip_if_no_engine()
  cg <- cuRnet_graph(data.frame(from = c("a", "b", "c"), to = c("b", "c", "a"), weight = c(1, 2, 3)))
  expect_error(cuRnet_closeness(cg, weights = c(1, 1, 1)), "igraph object")
  expect_error(cuRnet_mean_distance(cg, weights = c(1, 1, 1)), "igraph object")
  expect_error(cuRnet_distances(cg, weights = c(1, 1, 1)), "igraph object")
  neg <- cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "c"), weight = c(1, -1)))
  expect_error(cuRnet_closeness(neg), "non-negative weights")
  expect_error(cuRnet_mean_distance(neg), "non-negative weights")
  expect_equal(cuRnet_closeness(neg, weights = NA), c(a = 1 / 3, b = 1, c = NaN))
  expect_error(cuRnet_distances(neg, algorithm = "dijkstra", mode = "out"), "non-negative")
  expect_equal(cuRnet_distances(neg, "a", mode = "out"),
               matrix(c(0, 1, 0), 1, dimnames = list("a", c("a", "b", "c"))))
})
