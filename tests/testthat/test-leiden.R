# cuRnet_cluster_leiden / cuRnet_cluster_louvain / cuRnet_cluster_sweep against igraph's
# cluster_leiden / cluster_louvain on small graphs.

planted_graph <- function(k = 4, size = 20, p_in = 0.4, p_out = 0.03, seed = 1) {
  set.seed(seed)
  truth <- rep(seq_len(k), each = size)
  pairs <- utils::combn(k * size, 2)
  p <- ifelse(truth[pairs[1, ]] == truth[pairs[2, ]], p_in, p_out)
  keep <- stats::runif(ncol(pairs)) < p
  g <- igraph::make_graph(as.vector(pairs[, keep]), n = k * size, directed = FALSE)
  list(graph = g, truth = truth)
}

connected_communities <- function(g, membership) {
  all(vapply(unique(membership), function(c) {
    igraph::is_connected(igraph::induced_subgraph(g, which(membership == c)))
  }, logical(1)))
}

test_that("Leiden's modularity matches igraph's, recomputed by igraph", {
  skip_if_no_engine()
  p <- planted_graph()
  ours <- lapply(1:3, function(s) cuRnet_cluster_leiden(p$graph, objective_function = "modularity",
                                                       n_iterations = -1, seed = s, backend = "cpu"))
  theirs <- lapply(1:3, function(s) {
    set.seed(s)
    igraph::cluster_leiden(p$graph, objective_function = "modularity", n_iterations = -1)
  })
  for (cl in ours) {
    expect_s3_class(cl, "communities")
    expect_equal(cl$quality, igraph::modularity(p$graph, igraph::membership(cl)), tolerance = 1e-9)
    expect_equal(igraph::modularity(cl), cl$quality, tolerance = 1e-9)
    expect_equal(sum(igraph::sizes(cl)), igraph::vcount(p$graph))
    expect_true(connected_communities(p$graph, igraph::membership(cl)))
    expect_equal(cl$nb_clusters, length(igraph::sizes(cl)))
  }
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_silent(plot(ours[[1]], p$graph))                       # igraph's plot of communities
  expect_equal(length(igraph::communities(ours[[1]])), ours[[1]]$nb_clusters)
  q_ours <- stats::median(vapply(ours, function(x) x$quality, 0))
  q_igraph <- stats::median(vapply(theirs, function(x) x$quality, 0))
  expect_gte(q_ours, q_igraph - 0.002 * abs(q_igraph))
  expect_gte(igraph::compare(igraph::membership(ours[[1]]), p$truth, method = "adjusted.rand"), 0.95)
})

test_that("CPM's quality is igraph's, and the defaults are igraph's (CPM, resolution 1)", {
  skip_if_no_engine()
  p <- planted_graph(seed = 2)
  cl <- cuRnet_cluster_leiden(p$graph, resolution_parameter = 0.1, seed = 1, backend = "cpu")
  set.seed(1)
  ig <- igraph::cluster_leiden(p$graph, resolution_parameter = 0.1)
  cpm <- function(m) {
    e <- igraph::as_edgelist(p$graph, names = FALSE)
    (2 * sum(m[e[, 1]] == m[e[, 2]]) - 0.1 * sum(table(m)^2)) / (2 * igraph::ecount(p$graph))
  }
  expect_equal(ig$quality, cpm(ig$membership), tolerance = 1e-9)      # the formula is igraph's
  expect_equal(cl$quality, cpm(cl$membership), tolerance = 1e-9)
  expect_gte(cl$quality, ig$quality - 0.002 * abs(ig$quality))
  # igraph's default: CPM at resolution 1 leaves (almost) every vertex alone
  one <- cuRnet_cluster_leiden(p$graph, seed = 1, backend = "cpu")
  expect_lte(max(igraph::sizes(one)), 2)
})

test_that("set.seed() makes a run without a seed reproducible, as it makes igraph's", {
  skip_if_no_engine()
  g <- igraph::make_graph("Zachary")
  run <- function(f, s, ...) {
    set.seed(s)
    paste(igraph::membership(f(g, ..., backend = "cpu")), collapse = " ")
  }
  for (f in list(function(...) cuRnet_cluster_leiden(objective_function = "modularity", ...),
                 cuRnet_cluster_louvain)) {
    by_seed <- vapply(1:10, function(s) run(f, s), "")
    expect_identical(by_seed, vapply(1:10, function(s) run(f, s), ""))
    expect_gt(length(unique(by_seed)), 1)      # the seed drawn from R's numbers matters
  }
  set.seed(7)
  drawn <- sample.int(.Machine$integer.max, 1)
  expect_identical(run(cuRnet_cluster_louvain, 7), run(cuRnet_cluster_louvain, 1, seed = drawn))
})

test_that("Louvain matches igraph's cluster_louvain", {
  skip_if_no_engine()
  p <- planted_graph(seed = 3)
  cl <- cuRnet_cluster_louvain(p$graph, seed = 1, backend = "cpu")
  set.seed(1)
  ig <- igraph::cluster_louvain(p$graph)
  expect_s3_class(cl, "communities")
  expect_equal(igraph::modularity(cl), igraph::modularity(p$graph, igraph::membership(cl)), tolerance = 1e-9)
  expect_gte(igraph::modularity(cl), igraph::modularity(ig) - 0.002 * abs(igraph::modularity(ig)))
  expect_equal(igraph::algorithm(cl), "multi level")
})

test_that("weights, isolated vertices, self-loops, multi-edges and initial membership", {
  skip_if_no_engine()
  g <- igraph::make_graph(c(1, 2, 2, 3, 3, 1, 4, 5, 5, 6, 6, 4, 1, 1, 4, 5), n = 7, directed = FALSE)
  igraph::E(g)$weight <- c(1, 2, 1, 3, 1, 1, 1, 2)
  for (cl in list(cuRnet_cluster_leiden(g, objective_function = "modularity", seed = 1, backend = "cpu"),
                  cuRnet_cluster_louvain(g, seed = 1, backend = "cpu"))) {
    expect_equal(as.vector(igraph::membership(cl)), c(1, 1, 1, 2, 2, 2, 3))
    expect_equal(igraph::modularity(cl), igraph::modularity(g, c(1, 1, 1, 2, 2, 2, 3), weights = igraph::E(g)$weight),
                 tolerance = 1e-9)
  }
  start <- cuRnet_cluster_leiden(g, objective_function = "modularity", initial_membership = c(1, 1, 1, 2, 2, 2, 3),
                                 n_iterations = 1, backend = "cpu")
  expect_equal(as.vector(igraph::membership(start)), c(1, 1, 1, 2, 2, 2, 3))
  a <- cuRnet_cluster_leiden(g, seed = 5, resolution_parameter = 0.2, backend = "cpu")
  b <- cuRnet_cluster_leiden(g, seed = 5, resolution_parameter = 0.2, backend = "cpu")
  expect_identical(igraph::membership(a), igraph::membership(b))
  empty <- cuRnet_cluster_leiden(igraph::make_empty_graph(3, directed = FALSE), backend = "cpu")
  expect_equal(as.vector(igraph::membership(empty)), 1:3)
})

test_that("bad input gets clear errors", {
  skip_if_no_engine()
  g <- igraph::make_graph(c(1, 2, 2, 3, 3, 1, 4, 5), directed = FALSE)
  expect_error(cuRnet_cluster_leiden(g, weights = c(1, -1, 1, 1)), "must be positive: edge 2")
  expect_error(cuRnet_cluster_louvain(g, weights = c(1, NA, 1, 1)), "must not be NA")
  expect_error(cuRnet_cluster_leiden(g, weights = c(1, 1, 1)), "has length 3, but the graph has 4 edges")
  expect_error(cuRnet_cluster_leiden(g, initial_membership = c(1, 2)), "one number a vertex")
  expect_error(cuRnet_cluster_louvain(g, resolution = -1), "resolution")
  expect_error(cuRnet_cluster_leiden(igraph::make_graph(c(1, 2), directed = TRUE)), "undirected graphs only")
  expect_warning(cuRnet_cluster_leiden(g, objective_function = "modularity", vertex_weights = rep(1, 5),
                                       backend = "cpu"), "contradicts using modularity")
})

test_that("a sweep returns a membership matrix, a profile and a consensus", {
  skip_if_no_engine()
  p <- planted_graph(seed = 4)
  s <- cuRnet_cluster_sweep(p$graph, resolution_parameter = c(0.5, 1), seeds = 1:3, backend = "cpu")
  expect_equal(dim(s$memberships), c(6, igraph::vcount(p$graph)))
  expect_equal(s$resolution, rep(c(0.5, 1), each = 3))
  expect_equal(nrow(s$profile), 2)
  expect_s3_class(s$consensus, "communities")
  expect_gte(igraph::compare(igraph::membership(s$consensus), p$truth, method = "adjusted.rand"), 0.9)
  expect_equal(igraph::modularity(s$consensus), igraph::modularity(p$graph, igraph::membership(s$consensus)),
               tolerance = 1e-9)
  for (r in seq_len(nrow(s$memberships))) {
    expect_equal(s$quality[r], igraph::modularity(p$graph, s$memberships[r, ], resolution = s$resolution[r]),
                 tolerance = 1e-9)
  }
})
