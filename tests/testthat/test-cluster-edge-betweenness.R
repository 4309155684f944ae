# Girvan-Newman communities against igraph::cluster_edge_betweenness, field by field.

expect_same_communities <- function(got, want) {
  for (field in c("removed.edges", "edge.betweenness", "merges", "bridges", "modularity", "membership")) {
    expect_equal(got[[field]], want[[field]], tolerance = 1e-9, info = field)
  }
  expect_s3_class(got, "communities")
}

test_that("cuRnet_cluster_edge_betweenness is igraph's cluster_edge_betweenness", {
  skip_if_no_engine()
  old <- options(cuRnet.backend = "cpu")
  on.exit(options(old))
  g <- igraph::make_graph("Zachary")
  expect_same_communities(cuRnet_cluster_edge_betweenness(g), igraph::cluster_edge_betweenness(g))
  set.seed(41)
  for (directed in c(FALSE, TRUE)) {
    g <- igraph::sample_gnm(30, 55, directed = directed)
    g <- igraph::add_vertices(g, 2)                                  # isolated vertices
    expect_same_communities(cuRnet_cluster_edge_betweenness(g), igraph::cluster_edge_betweenness(g))
    igraph::E(g)$weight <- stats::runif(igraph::ecount(g), 0.5, 2)   # no ties among lengths
    warned <- testthat::capture_warnings(cuRnet_cluster_edge_betweenness(g))
    expect_equal(warned, sub("^At [^:]*:[0-9]+ : ", "",
                             testthat::capture_warnings(igraph::cluster_edge_betweenness(g))))
    expect_same_communities(suppressWarnings(cuRnet_cluster_edge_betweenness(g)),
                            suppressWarnings(igraph::cluster_edge_betweenness(g)))
  }
})
