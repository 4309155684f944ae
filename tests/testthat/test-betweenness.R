# Betweenness against igraph: directed and undirected, weighted with ties (integer weights),
# cutoff, normalized, multi-edges, loops, isolated vertices, several components; igraph objects
# and cuRnet graphs.

betweenness_graphs <- function() {
  set.seed(29)
  out <- list()
  for (directed in c(FALSE, TRUE)) {
    g <- igraph::sample_gnm(50, 110, directed = directed)
    g <- igraph::add_edges(g, c(1, 2, 1, 2, 3, 3))       # a parallel edge and a loop
    g <- igraph::add_vertices(g, 3)                      # isolated vertices
    igraph::V(g)$name <- sprintf("v%02d", seq_len(igraph::vcount(g)))
    out[[length(out) + 1]] <- g
    igraph::E(g)$weight <- sample(1:3, igraph::ecount(g), replace = TRUE)   # many ties
    out[[length(out) + 1]] <- g
  }
  out
}

test_that("vertex and edge betweenness are igraph's", {
  skip_if_no_engine()
  for (g in betweenness_graphs()) {
    for (directed in c(TRUE, FALSE)) {
      expect_equal(cuRnet_betweenness(g, directed = directed),
                   igraph::betweenness(g, directed = directed), tolerance = 1e-9)
      expect_equal(cuRnet_betweenness(g, directed = directed, normalized = TRUE, weights = NA),
                   igraph::betweenness(g, directed = directed, normalized = TRUE, weights = NA),
                   tolerance = 1e-9)
      expect_equal(cuRnet_edge_betweenness(g, directed = directed),
                   igraph::edge_betweenness(g, directed = directed), tolerance = 1e-9)
      for (cutoff in c(1, 2, 3.5)) {
        expect_equal(cuRnet_betweenness(g, directed = directed, cutoff = cutoff),
                     igraph::betweenness(g, directed = directed, cutoff = cutoff), tolerance = 1e-9)
        expect_equal(cuRnet_edge_betweenness(g, directed = directed, cutoff = cutoff),
                     igraph::edge_betweenness(g, directed = directed, cutoff = cutoff), tolerance = 1e-9)
      }
    }
    expect_equal(cuRnet_betweenness(g, c("v07", "v02")), igraph::betweenness(g, c("v07", "v02")),
                 tolerance = 1e-9)
    expect_equal(cuRnet_edge_betweenness(g, 5:2), igraph::edge_betweenness(g, 5:2), tolerance = 1e-9)
  }
})

test_that("a cuRnet graph gives igraph's betweenness, on the backend asked for", {
  skip_if_no_engine()
  ig <- betweenness_graphs()[[4]]                            # directed, weighted
  el <- igraph::as_data_frame(ig)
  g <- cuRnet_graph(el, directed = TRUE)
  ref <- igraph::betweenness(ig)
  got <- cuRnet_betweenness(g, backend = "cpu")
  expect_equal(got[names(ref)[names(ref) %in% names(got)]], ref[names(ref) %in% names(got)],
               tolerance = 1e-9)
  expect_equal(cuRnet_edge_betweenness(g, backend = "cpu"), igraph::edge_betweenness(ig), tolerance = 1e-9)
  old <- options(cuRnet.backend = "cpu")
  on.exit(options(old))
  expect_equal(cuRnet_betweenness(ig, weights = NA), igraph::betweenness(ig, weights = NA),
               tolerance = 1e-9)
  expect_error(cuRnet_betweenness(ig, weights = c(0, rep(1, igraph::ecount(ig) - 1))), "positive")
})

test_that("igraph's edge cases: no vertices or edges asked for, normalized under 3 vertices", {
  skip_if_no_engine()
  g <- igraph::make_graph("Zachary")
  named <- igraph::set_vertex_attr(g, "name", value = sprintf("v%d", 1:34))
  for (x in list(g, named)) {
    expect_identical(cuRnet_betweenness(x, v = numeric(0)), igraph::betweenness(x, v = numeric(0)))
    expect_identical(cuRnet_edge_betweenness(x, e = numeric(0)), igraph::edge_betweenness(x, e = numeric(0)))
  }
  expect_identical(cuRnet_betweenness(cuRnet_graph(named), v = character(0)),
                   igraph::betweenness(named, v = character(0)))
  for (n in 1:3) {
    for (directed in c(FALSE, TRUE)) {
      ring <- igraph::make_ring(n, directed = directed)
      want <- igraph::betweenness(ring, normalized = TRUE)
      if (n < 3) expect_true(all(is.nan(want)))
      expect_identical(cuRnet_betweenness(ring, normalized = TRUE), want)
      expect_identical(cuRnet_betweenness(cuRnet_graph(ring), normalized = TRUE), want)
    }
  }
})
