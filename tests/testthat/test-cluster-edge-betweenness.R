# Girvan-Newman communities against igraph::cluster_edge_betweenness, field by field.

# igraph 1.3.5 returns each bridge plus one (its known off-by-one, igraph issue #878);
# measured here on a single edge, whose one removal (position 1) is the one bridge.
igraph_bridge_offset <- function() {
  unclass(igraph::cluster_edge_betweenness(igraph::make_graph(c(1, 2))))$bridges - 1
}

expect_same_communities <- function(got, want) {
  for (field in c("removed.edges", "edge.betweenness", "merges", "modularity")) {
    expect_same_field(got, want, field, tolerance = 1e-9)
  }
  bridges <- unclass(want)$bridges - igraph_bridge_offset()
  expect_gt(length(bridges), 0)
  expect_equal(unclass(got)$bridges, bridges)
  expect_s3_class(got, "communities")
  expect_same_membership(got, want)
}

same_partition <- function(a, b) {
  length(unique(paste(a, b))) == length(unique(a)) && length(unique(a)) == length(unique(b))
}

# The membership: igraph's where one division has the highest modularity; at an exact tie of
# modularities (equal within rounding) cuRnet's is the first tied division (fewest merges) and
# igraph's one of the tied ones, whichever its sums make larger (the documented tie rule).
expect_same_membership <- function(got, want) {
  mod <- unclass(want)$modularity
  tied <- which(abs(mod - max(mod)) <= 1e-12 * abs(max(mod)))
  expect_gt(length(unclass(want)$membership), 0)
  if (length(tied) == 1) {
    expect_same_field(got, want, "membership")
    expect_equal(igraph::membership(got), igraph::membership(want))
    return(invisible())
  }
  first <- igraph::cut_at(want, steps = tied[1] - 1)
  expect_true(same_partition(igraph::membership(got), first))
  expect_true(any(vapply(tied, function(k) same_partition(igraph::membership(want),
                                                          igraph::cut_at(want, steps = k - 1)), TRUE)))
}

test_that("cuRnet_cluster_edge_betweenness is igraph's cluster_edge_betweenness", {
  skip_if_no_engine()
  old <- options(cuRnet.backend = "cpu")
  on.exit(options(old))
  if (utils::packageVersion("igraph") == "1.3.5") expect_equal(igraph_bridge_offset(), 1)
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

test_that("directed merges are in igraph's row order: as.hclust gives igraph's tree", {
  skip_if_no_engine()
  old <- options(cuRnet.backend = "cpu")
  on.exit(options(old))
  set.seed(7)
  for (i in 1:3) {
    g <- igraph::sample_gnm(16, 40, directed = TRUE)
    igraph::E(g)$weight <- stats::runif(igraph::ecount(g), 0.5, 2)   # no exact edge ties
    got <- suppressWarnings(cuRnet_cluster_edge_betweenness(g))
    want <- suppressWarnings(igraph::cluster_edge_betweenness(g))
    expect_same_field(got, want, "removed.edges")
    expect_same_field(got, want, "merges")
    expect_identical(stats::as.hclust(got)$merge, stats::as.hclust(want)$merge)
  }
})

test_that("fields not asked for have igraph's shapes; membership() then behaves as igraph's", {
  skip_if_no_engine()
  old <- options(cuRnet.backend = "cpu")
  on.exit(options(old))
  g <- igraph::make_graph("Zachary")
  for (off in c("membership", "merges", "bridges", "edge.betweenness")) {
    args <- stats::setNames(list(FALSE), off)
    got <- unclass(do.call(cuRnet_cluster_edge_betweenness, c(list(g), args)))
    want <- unclass(do.call(igraph::cluster_edge_betweenness, c(list(g), args)))
    expect_true(off %in% names(want))
    expect_identical(got[off], want[off], info = off)      # the named entry, NULL or numeric(0)
    expect_identical(names(got), names(want), info = off)
  }
  got <- cuRnet_cluster_edge_betweenness(g, membership = FALSE)
  expect_identical(igraph::membership(got), igraph::membership(igraph::cluster_edge_betweenness(g, membership = FALSE)))
  expect_identical(unclass(got)$membership, numeric(0))
  expect_null(unclass(cuRnet_cluster_edge_betweenness(g, modularity = FALSE))$modularity)
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
  got <- unclass(cuRnet_cluster_edge_betweenness(g))
  want <- unclass(igraph::cluster_edge_betweenness(g))
  # up to the first true tie (step 5 here), where igraph's rounding picks
  expect_equal(got$removed.edges[1:4], want$removed.edges[1:4])
  expect_equal(got$edge.betweenness[1:4], want$edge.betweenness[1:4], tolerance = 1e-12)
})
