# Paths are compared with igraph's exactly where shortest paths are unique (continuous
# random weights), and checked for validity where ties allow several (hops).

expect_valid_path <- function(ig, vp, ep, from, to, mode, weights = NULL) {
  el <- igraph::as_edgelist(ig, names = FALSE)
  d <- igraph::distances(ig, from, to, mode = mode, weights = if (is.null(weights)) NA else weights)
  if (!is.finite(d)) {
    expect_length(vp, 0)
    expect_length(ep, 0)
    return(invisible())
  }
  expect_equal(as.integer(vp[c(1, length(vp))]), c(from, to))
  expect_length(ep, length(vp) - 1)
  for (i in seq_along(ep)) {
    ends <- el[ep[i], ]
    u <- vp[i]
    v <- vp[i + 1]
    ok <- if (mode == "all" || !igraph::is_directed(ig)) setequal(ends, c(u, v))
          else if (mode == "out") all(ends == c(u, v)) else all(ends == c(v, u))
    expect_true(ok)
  }
  len <- if (is.null(weights)) length(ep) else sum(weights[ep])
  expect_equal(len, d[1, 1], tolerance = 1e-9)
}

test_that("cuRnet_shortest_paths is igraph::shortest_paths where paths are unique", {
  skip_if_no_engine()
  set.seed(21)
  for (directed in c(TRUE, FALSE)) {
    ig <- igraph::sample_gnp(80, 0.05, directed = directed)
    igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig))
    for (mode in c("out", "in", "all")) {
      want <- suppressWarnings(igraph::shortest_paths(ig, 3, mode = mode, output = "both",
                                                      predecessors = TRUE))
      got <- suppressWarnings(cuRnet_shortest_paths(ig, 3, mode = mode, output = "both",
                                                    predecessors = TRUE, backend = "cpu"))
      expect_equal(lapply(got$vpath, as.numeric), lapply(want$vpath, as.numeric))
      expect_equal(lapply(got$epath, as.numeric), lapply(want$epath, as.numeric))
      pred <- as.numeric(want$predecessors)     # igraph's vertex sequence: NA where none
      expect_equal(got$predecessors, replace(pred, is.na(pred), 0))
    }
  }
})

test_that("hop paths are valid shortest paths, with igraph's result shape", {
  skip_if_no_engine()
  set.seed(4)
  ig <- igraph::sample_gnp(60, 0.04, directed = TRUE)
  igraph::V(ig)$name <- sprintf("g%02d", 1:60)
  for (mode in c("out", "in", "all")) {
    got <- suppressWarnings(cuRnet_shortest_paths(ig, "g07", mode = mode, output = "both",
                                                  predecessors = TRUE, inbound.edges = TRUE,
                                                  backend = "cpu"))
    expect_named(got, c("vpath", "epath", "predecessors", "inbound_edges"))
    expect_s3_class(got$vpath[[1]], "igraph.vs")
    expect_length(got$vpath, 60)
    for (t in 1:60) {
      expect_valid_path(ig, as.integer(got$vpath[[t]]), as.integer(got$epath[[t]]), 7, t, mode)
    }
    expect_equal(got$predecessors[7], 7)
    expect_equal(got$inbound_edges[7], 0)
    reached <- is.finite(igraph::distances(ig, 7, mode = mode)[1, ])
    expect_equal(got$predecessors > 0, unname(reached))
    expect_equal(got$inbound_edges > 0, unname(reached) & seq_len(60) != 7)
  }
  one <- cuRnet_shortest_paths(ig, "g07", to = c("g07"), output = "epath", backend = "cpu")
  expect_null(one$vpath)
  expect_length(one$epath[[1]], 0)
  expect_warning(cuRnet_shortest_paths(igraph::make_graph(c(1, 2), n = 3), 1, backend = "cpu"),
                 "reach")
})

test_that("cuRnet graphs from data frames give row numbers as edge ids", {
  skip_if_no_engine()
  edges <- data.frame(from = c("a", "b", "a", "c", "a"), to = c("b", "c", "c", "d", "b"),
                      weight = c(1, 1, 5, 1, 0.5))
  g <- cuRnet_graph(edges)
  p <- cuRnet_shortest_paths(g, "a", c("d", "c"), output = "both", backend = "cpu")
  expect_equal(names(p$vpath[[1]]), c("a", "b", "c", "d"))
  expect_equal(p$epath[[1]], c(5, 2, 4))
  h <- cuRnet_shortest_paths(g, "a", "d", weights = NA, output = "epath", backend = "cpu")
  expect_equal(h$epath[[1]], c(3, 4))
  expect_error(cuRnet_shortest_paths(g, c("a", "b")), "one vertex")
})

test_that("cuRnet_proximity matches distances from igraph", {
  skip_if_no_engine()
  set.seed(3)
  ig <- igraph::sample_gnp(200, 0.03)
  ig <- igraph::induced_subgraph(ig, which(igraph::components(ig)$membership ==
                                             which.max(igraph::components(ig)$csize)))
  n <- igraph::vcount(ig)
  module <- 1:20
  sets <- list(a = 30:34, b = c(1, 2, 50))
  res <- cuRnet_proximity(ig, sets, module, measures = c("closest", "shortest"), n_random = 0,
                          backend = "cpu")
  for (s in names(sets)) {
    d <- igraph::distances(ig, module, sets[[s]])
    row <- res[res$set == s & res$measure == "closest", ]
    expect_equal(row$distance, mean(apply(d, 2, min)))
    expect_equal(res[res$set == s & res$measure == "shortest", "distance"], mean(d))
  }
  z <- cuRnet_proximity(ig, sets, module, n_random = 200, bin_size = 20, seed = 1, backend = "cpu")
  expect_equal(nrow(z), 2)
  expect_true(all(is.finite(z$z)) && all(z$p_value > 0 & z$p_value <= 1))
  expect_equal(z, cuRnet_proximity(ig, sets, module, n_random = 200, bin_size = 20, seed = 1,
                                   backend = "cpu"))
})

test_that("paths on a graph whose names are numbers (Entrez ids) start at the named vertex", {
  skip_if_no_engine()
  path <- tempfile(fileext = ".tsv")
  on.exit(unlink(path))
  writeLines(c("7157\t4193", "4193\t10"), path)   # read by the engine, which keeps the names
  for (g in list(cuRnet_graph(data.frame(from = c(7157, 4193), to = c(4193, 10))), cuRnet_graph(path))) {
    p <- cuRnet_shortest_paths(g, 7157, to = 10)
    expect_equal(as.numeric(unlist(p$vpath)), c(1, 2, 3))     # positions of 7157, 4193, 10
  }
})
