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

near_tie_graph <- function() {
  # tests/python/test_girvan_newman.py's near_tie_graph: a double star whose centres' edge (the
  # first) scores 43 * 87 = 3741, then a component whose last edge scores 62 / (2 * 4^12 + 1)
  # more than its first, both 3741 and a little: all three within 1e-9 (relative), the last
  # edge alone the largest
  e <- c(0, 1, rbind(0, 2:43), rbind(1, 44:129))
  n <- 130
  new <- function(k = 1) {
    n <<- n + k
    (n - k):(n - 1)
  }
  s <- new(); a1 <- new(); a2 <- new(); x <- new()
  e <- c(e, s, a1, a1, x, a2, x)
  v <- x
  for (i in 1:12) {
    w <- new(); mids <- new(4)
    e <- c(e, rbind(v, mids), rbind(mids, w))
    v <- w
  }
  last <- a2
  for (i in 1:24) {
    p <- new(); e <- c(e, last, p); last <- p
  }
  e <- c(e, last, v, rbind(a1, new(24)), rbind(s, new(61)), s, a2)
  igraph::make_graph(e + 1, n = n, directed = FALSE)
}

test_that("a near tie is no tie: the larger edge betweenness goes first, as in igraph", {
  skip_if_no_engine()
  old <- options(cuRnet.backend = "cpu")
  on.exit(options(old))
  g <- near_tie_graph()
  eb <- igraph::edge_betweenness(g)
  expect_equal(which.max(eb), igraph::ecount(g))
  expect_lt(max(eb) - eb[1], 1e-9 * max(eb))
  got <- cuRnet_cluster_edge_betweenness(g)
  want <- igraph::cluster_edge_betweenness(g)
  # up to the first true tie (step 5 here), where igraph's rounding picks
  expect_equal(got$removed.edges[1:4], want$removed.edges[1:4])
  expect_equal(got$edge.betweenness[1:4], want$edge.betweenness[1:4], tolerance = 1e-12)
})
