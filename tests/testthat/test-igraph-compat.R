# mode, to, components and predecessors in igraph's forms, on a graph built once.

random_directed <- function(n = 120, p = 0.03, seed = 3, weighted = TRUE) {
  set.seed(seed)
  ig <- igraph::sample_gnp(n, p, directed = TRUE)
  igraph::V(ig)$name <- sprintf("v%03d", seq_len(n))
  if (weighted) igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig), 0.5, 2)
  ig
}

test_that("mode and to on cuRnet_bfs and cuRnet_sssp_dists agree with igraph::distances", {
  skip_if_no_engine()
  ig <- random_directed()
  g <- cuRnet_graph(ig)
  v <- c(4, 1, 90, 4)
  to <- c(7, 3, 120)   # igraph refuses repeated targets
  for (mode in c("out", "in", "all")) {
    expect_equal(cuRnet_bfs(g, v, mode = mode), igraph::distances(ig, v, mode = mode, weights = NA))
    expect_equal(cuRnet_bfs(g, v, mode = mode, to = to),
                 igraph::distances(ig, v, to = to, mode = mode, weights = NA))
    expect_equal(cuRnet_sssp_dists(g, v, mode = mode, to = to),
                 igraph::distances(ig, v, to = to, mode = mode), tolerance = 1e-9)
    res <- cuRnet_sssp(g, v, mode = mode, predecessors = "index")
    expect_equal(res$distances, igraph::distances(ig, v, mode = mode), tolerance = 1e-9)
  }
  # names as targets, integer results, long format restricted to the targets
  d <- cuRnet_bfs(g, "v001", mode = "all", to = c("v010", "v002"), integer = TRUE)
  expect_identical(colnames(d), c("v010", "v002"))
  want <- igraph::distances(ig, "v001", to = c("v010", "v002"), weights = NA)
  expect_equal(unname(d[1, ]), as.integer(ifelse(is.finite(want), want, NA)))
  long <- cuRnet_bfs(g, c("v001", "v002"), mode = "in", to = c("v010", "v002"), format = "long")
  expect_true(all(long$to %in% c("v010", "v002")))
  expect_equal(nrow(long), sum(is.finite(igraph::distances(ig, c("v001", "v002"), to = c("v010", "v002"),
                                                           mode = "in", weights = NA))))
  expect_equal(dim(cuRnet_bfs(g, 1, to = integer(0))), c(1L, 0L))
})

test_that("mode = 'in' and 'all' are built once and kept with the graph", {
  skip_if_no_engine()
  g <- cuRnet_graph(random_directed(60))
  cuRnet_bfs(g, 1, mode = "in")
  cuRnet_bfs(g, 1, mode = "all")
  kept <- reticulate::py_to_r(reticulate::py_get_attr(g$py, "_oriented"))   # Graph.oriented's cache
  expect_setequal(names(kept), c("in", "all"))
  first <- reticulate::py_id(g$py$oriented("in"))
  cuRnet_sssp(g, 2, mode = "in")
  expect_identical(reticulate::py_id(g$py$oriented("in")), first)
})

test_that("predecessors: valid for every mode; source_predecessor = 'self' is igraph's form", {
  skip_if_no_engine()
  ig <- random_directed()   # continuous weights: shortest paths are unique, so predecessors are too
  g <- cuRnet_graph(ig)
  src <- c(5, 17, 33)
  for (mode in c("out", "in", "all")) {
    res <- cuRnet_sssp(g, src, predecessors = "index", mode = mode, source_predecessor = "self")
    for (i in seq_along(src)) {
      want <- suppressWarnings(igraph::shortest_paths(ig, src[i], mode = mode, predecessors = TRUE,
                                                      output = "vpath")$predecessors)
      expect_equal(unname(res$predecessors[i, ]), as.integer(want))
    }
    plain <- cuRnet_sssp(g, src, predecessors = "index", mode = mode)
    expect_true(all(is.na(plain$predecessors[cbind(seq_along(src), src)])))
  }
  # validity on the in-graph: reversing the edges turns it into an out-search
  rev <- igraph::reverse_edges(ig)
  res <- cuRnet_sssp(g, src, predecessors = "index", mode = "in")
  expect_valid_predecessors(rev, res, src)
  nm <- cuRnet_sssp(g, "v005", source_predecessor = "self", to = c("v005", "v001"))
  expect_equal(unname(nm$predecessors[1, "v005"]), "v005")
  expect_equal(cuRnet_sssp(g, "v005", to = "v005")$predecessors[1, 1], "")
  long <- cuRnet_sssp(g, "v005", format = "long", source_predecessor = "self")
  expect_equal(long$predecessor[long$to == "v005"], "v005")
})

test_that("weak and strong components, and cuRnet_components in igraph's shape", {
  skip_if_no_engine()
  ig <- random_directed(200, 0.008, seed = 11, weighted = FALSE)
  g <- cuRnet_graph(ig)
  weak <- cuRnet_components(g)
  expect_equal(weak, igraph::components(ig, "weak"))   # same numbering: order of first vertex
  strong <- cuRnet_components(g, "strong")
  ref <- igraph::components(ig, "strong")
  expect_equal(strong$no, ref$no)
  expect_equal(sort(strong$csize), sort(ref$csize))
  # the same partition: a one-to-one map between the two labellings
  expect_equal(nrow(unique(cbind(strong$membership, ref$membership))), ref$no)
  expect_identical(names(strong$membership), igraph::V(ig)$name)
  expect_equal(as.vector(cuRnet_scc(g, mode = "weak")), unname(weak$membership))
  expect_identical(cuRnet_scc(g, integer = TRUE), cuRnet_scc(g, integer = TRUE, mode = "strong"))
  u <- cuRnet_graph(igraph::as.undirected(ig))
  expect_identical(cuRnet_scc(u, mode = "weak"), cuRnet_scc(u))
  neg <- cuRnet_graph(data.frame(from = c("a", "b", "d"), to = c("b", "a", "c"), weight = c(-1, 2, -5)))
  expect_equal(cuRnet_components(neg)$membership, c(a = 1L, b = 1L, d = 2L, c = 2L))  # weights play no part
  e <- cuRnet_components(cuRnet_graph(data.frame(from = character(), to = character())))
  expect_equal(e$no, 0L)
})

test_that("an igraph object is converted once, and again only when it changes", {
  skip_if_no_engine()
  set.seed(3)
  ig <- igraph::sample_gnm(50, 120, directed = TRUE)
  igraph::V(ig)$name <- sprintf("g%02d", 1:50)
  igraph::E(ig)$weight <- stats::runif(120, 1, 2)
  count <- new.env()
  count$n <- 0L
  trace("engine_graph", function() count$n <- count$n + 1L, print = FALSE, where = asNamespace("cuRnet"))
  on.exit(untrace("engine_graph", where = asNamespace("cuRnet")))
  a <- cuRnet_ego_size(ig, 1)
  cuRnet_components(ig)
  cuRnet_closeness(ig, weights = NA)
  cuRnet_eccentricity(ig)               # hops: the same conversion as weights = NA
  d <- cuRnet_distances(ig, mode = "out")
  expect_equal(count$n, 2L)               # once without weights, once with them
  cuRnet_graph(ig)
  expect_equal(count$n, 2L)
  # a changed attribute (same igraph environment) is a new conversion, never a stale one
  igraph::E(ig)$weight <- igraph::E(ig)$weight * 2
  expect_equal(cuRnet_distances(ig, mode = "out"), 2 * d)
  expect_equal(count$n, 3L)
  igraph::V(ig)$name[1] <- "renamed"
  expect_equal(names(cuRnet_closeness(ig, weights = NA))[1], "renamed")
  # a structural change is another igraph object: its own conversion
  h <- igraph::add_edges(ig, c(1, 2), weight = 1)
  expect_equal(cuRnet_ego_size(h, 1, mode = "out")[1], igraph::ego_size(h, 1, mode = "out")[1])
  # an undirected graph asked for directed edges gets both directions, weights with them
  u <- igraph::make_graph(c(1, 2, 2, 2, 2, 3), directed = FALSE)
  gd <- cuRnet_graph(u, directed = TRUE, weights = c(1, 5, 2))
  expect_equal(gd$m, 6)
  expect_equal(unname(cuRnet_sssp_dists(gd, 3)[1, ]), c(3, 2, 0))
})
