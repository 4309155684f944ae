test_that("SSSP matches igraph on the STRING sample, with valid predecessors", {
  skip_if_no_engine()
  df <- string_sample()
  ig <- igraph::graph_from_data_frame(df, directed = FALSE)
  g <- cuRnet_graph(df, directed = FALSE)
  src <- igraph::V(ig)$name[c(3, 300, 3000, 3)]
  ref <- igraph_dist(ig, src, weights = NULL)
  res <- cuRnet_sssp(g, src)
  expect_equal(res$distances, ref, tolerance = 1e-9)
  expect_equal(cuRnet_sssp_dists(g, src), ref, tolerance = 1e-9)
  expect_type(res$predecessors, "character")
  expect_identical(dimnames(res$predecessors), dimnames(ref))
  expect_true(all(res$predecessors[cbind(1:4, match(src, colnames(ref)))] == ""))
  idx <- cuRnet_sssp(g, src, predecessors = "index")
  expect_type(idx$predecessors, "integer")
  expect_identical(is.na(idx$predecessors), res$predecessors == "")
  named <- idx$predecessors
  named[] <- c("", igraph::V(ig)$name)[ifelse(is.na(named), 0L, named) + 1L]
  expect_identical(named, res$predecessors)
  expect_valid_predecessors(ig, list(distances = unname(res$distances), predecessors = unname(idx$predecessors)),
                            match(src, igraph::V(ig)$name))
})

test_that("SSSP matches igraph on weighted random graphs, directed and undirected", {
  skip_if_no_engine()
  set.seed(3)
  for (directed in c(TRUE, FALSE)) {
    ig <- igraph::sample_gnp(200, 0.03, directed = directed)
    igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig), 0.1, 2)
    src <- c(sample(200, 10), 1, 1)
    res <- cuRnet_sssp(cuRnet_graph(ig), src, predecessors = "index")
    expect_equal(res$distances, igraph_dist(ig, src, weights = NULL), tolerance = 1e-9)
    expect_valid_predecessors(ig, res, src)
  }
})

test_that("unweighted SSSP counts hops", {
  skip_if_no_engine()
  ig <- igraph::sample_gnp(100, 0.05, directed = TRUE)
  expect_equal(cuRnet_sssp_dists(cuRnet_graph(ig), 1:5), igraph_dist(ig, 1:5))
})

test_that("negative weights: allowed on directed graphs, cycles reported by name", {
  skip_if_no_engine()
  df <- data.frame(from = c("s", "s", "a", "b"), to = c("a", "b", "c", "a"), weight = c(4, 1, 1, -2))
  res <- cuRnet_sssp(cuRnet_graph(df), "s")
  expect_equal(res$distances[1, ], c(s = 0, a = -1, b = 1, c = 0))
  expect_equal(res$predecessors[1, ], c(s = "", a = "b", b = "s", c = "a"))
  cyc <- rbind(df, data.frame(from = "c", to = "b", weight = -1))
  g <- cuRnet_graph(cyc)
  e <- expect_error(cuRnet_sssp(g, c("c", "s")), "negative-weight cycle is reachable from source 'c' \\(vertex 4\\)",
                    class = "cuRnet_negative_cycle")
  expect_equal(e$source, 4L)
  expect_equal(e$source_name, "c")
  expect_error(cuRnet_sssp_dists(g, "s"), "negative-weight cycle")
  expect_error(cuRnet_graph(df, directed = FALSE), "negative weight")
  expect_equal(cuRnet_sssp_dists(cuRnet_graph(df), "s"), res$distances)
})

test_that("long SSSP output lists reachable pairs", {
  skip_if_no_engine()
  g <- cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "c"), weight = c(0.5, 2)))
  long <- cuRnet_sssp(g, c("a", "c"), format = "long")
  expect_equal(long, data.frame(from = c("a", "a", "a", "c"), to = c("a", "b", "c", "c"),
                                distance = c(0, 0.5, 2.5, 0), predecessor = c("", "a", "b", "")))
  expect_equal(nrow(cuRnet_sssp_dists(g, "b", format = "long")), 2)
})

test_that("single precision agrees with igraph to 1e-6 relative, double to 1e-12", {
  skip_if_no_engine()
  set.seed(17)
  for (directed in c(TRUE, FALSE)) {
    ig <- igraph::sample_gnp(300, 0.03, directed = directed)
    igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig), 0.1, 2)
    src <- c(sample(300, 12), 5)
    ref <- igraph_dist(ig, src, weights = NULL)
    fin <- is.finite(ref) & ref > 0
    double <- cuRnet_sssp(cuRnet_graph(ig), src, predecessors = "index")
    expect_equal(double$distances, ref, tolerance = 1e-12)
    single_graph <- cuRnet_graph(ig, precision = "single")
    single <- cuRnet_sssp(single_graph, src, predecessors = "index")
    expect_identical(is.finite(single$distances), is.finite(ref))
    rel <- abs(single$distances[fin] - ref[fin]) / ref[fin]
    expect_lt(max(rel), 1e-6)
    expect_gt(max(rel), 0)        # float32 weights: runif's doubles are not all representable
    expect_valid_predecessors(ig, single, src, tolerance = 1e-6)
    expect_equal(cuRnet_sssp_dists(single_graph, src), single$distances)
  }
})

test_that("single precision on the STRING sample: distances to 1e-6, same names layout", {
  skip_if_no_engine()
  df <- string_sample()
  ig <- igraph::graph_from_data_frame(df, directed = FALSE)
  src <- igraph::V(ig)$name[c(3, 300, 3000)]
  ref <- igraph_dist(ig, src, weights = NULL)
  res <- cuRnet_sssp(cuRnet_graph(df, directed = FALSE, precision = "single"), src)
  expect_equal(res$distances, ref, tolerance = 1e-6)
  expect_identical(dimnames(res$predecessors), dimnames(ref))
  none <- !is.finite(ref)
  none[cbind(seq_along(src), match(src, colnames(ref)))] <- TRUE
  expect_identical(unname(res$predecessors == ""), unname(none))
})

test_that("predecessors from the engine: 1-based with NA, names, igraph's self form, targets", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b", "a", "d"), to = c("b", "c", "c", "e"), weight = c(1, 1, 5, 1))
  g <- cuRnet_graph(df, vertices = c("a", "b", "c", "d", "e"))
  idx <- cuRnet_sssp(g, c("a", "d", "a"), predecessors = "index")$predecessors
  want <- rbind(c(NA, 1L, 2L, NA, NA), c(NA, NA, NA, NA, 4L), c(NA, 1L, 2L, NA, NA))
  expect_identical(unname(idx), want)
  nm <- cuRnet_sssp(g, c("a", "d"), predecessors = "names")$predecessors
  expect_identical(unname(nm), rbind(c("", "a", "b", "", ""), c("", "", "", "", "d")))
  self <- cuRnet_sssp(g, c("a", "d"), predecessors = "index", source_predecessor = "self")$predecessors
  expect_identical(unname(self), rbind(c(1L, 1L, 2L, NA, NA), c(NA, NA, NA, 4L, 4L)))
  self_names <- cuRnet_sssp(g, "d", source_predecessor = "self", to = c("e", "d", "a", "d"))$predecessors
  expect_identical(unname(self_names), rbind(c("d", "d", "", "d")))
})
