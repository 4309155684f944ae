test_that("BFS matches igraph on the STRING sample", {
  skip_if_no_engine()
  df <- string_sample()
  ig <- igraph::graph_from_data_frame(df, directed = FALSE)
  g <- cuRnet_graph(df, directed = FALSE)
  expect_equal(g$names, igraph::V(ig)$name)
  src <- igraph::V(ig)$name[c(1, 50, 999, 5000, 12000, 50)]
  res <- cuRnet_bfs(g, src)
  expect_identical(dim(res), c(6L, igraph::vcount(ig)))
  expect_identical(rownames(res), src)
  expect_identical(colnames(res), igraph::V(ig)$name)
  expect_equal(res, igraph_dist(ig, src))
})

test_that("BFS matches igraph on random graphs, directed and undirected", {
  skip_if_no_engine()
  set.seed(42)
  graphs <- list(igraph::sample_gnp(300, 0.01, directed = TRUE),
                 igraph::sample_gnp(300, 0.01, directed = FALSE),
                 igraph::sample_fitness_pl(500, 1500, 2.2, 2.3),
                 igraph::sample_fitness_pl(500, 1500, 2.2, 2.3))
  graphs[[4]] <- igraph::as.directed(graphs[[4]], mode = "arbitrary")
  for (ig in graphs) {
    src <- sample(igraph::vcount(ig), 20)
    expect_equal(cuRnet_bfs(cuRnet_graph(ig), src), igraph_dist(ig, src))
  }
})

test_that("cuRnet's manual example: numeric ids from a data frame are names", {
  skip_if_no_engine()
  set.seed(7)
  rg <- igraph::sample_fitness_pl(100, 1000, 2.2, 2.3)
  cdf <- data.frame(igraph::ends(rg, igraph::E(rg))[, 1], igraph::ends(rg, igraph::E(rg))[, 2])
  colnames(cdf) <- c("from", "to")
  sources <- union(cdf$from, cdf$to)[1:20]
  bfs <- cuRnet_bfs(cuRnet_graph(cdf), sources)
  expect_identical(rownames(bfs), as.character(sources))
  ref <- igraph_dist(igraph::graph_from_data_frame(cdf), as.character(sources))
  expect_equal(bfs, ref[, colnames(bfs)])
})

test_that("repeated sources repeat rows; integer and long forms agree", {
  skip_if_no_engine()
  g <- cuRnet_graph(data.frame(from = c("a", "b", "c"), to = c("b", "c", "a b")))
  res <- cuRnet_bfs(g, c("b", "a", "b"))
  expect_identical(rownames(res), c("b", "a", "b"))
  expect_identical(res[1, ], res[3, ])
  int <- cuRnet_bfs(g, c("b", "a", "b"), integer = TRUE)
  expect_type(int, "integer")
  expect_identical(is.na(int), is.infinite(res))
  expect_equal(int[!is.na(int)], as.integer(res[is.finite(res)]))
  long <- cuRnet_bfs(g, c("b", "a"), format = "long")
  expect_named(long, c("from", "to", "depth"))
  expect_equal(nrow(long), sum(is.finite(res[1:2, ])))
  expect_equal(long$depth[long$from == "a" & long$to == "a b"], 3)
})

test_that("sources: unknown names, NA, out of range, unnamed graphs", {
  skip_if_no_engine()
  g <- cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "c")))
  expect_error(cuRnet_bfs(g, c("a", "nope")), "not in the graph: 'nope'")
  expect_error(cuRnet_bfs(g, c("a", NA)), "NA")
  expect_error(cuRnet_bfs(g, character()), "no sources")
  u <- cuRnet_graph(igraph::make_ring(5, directed = TRUE))
  expect_null(dimnames(cuRnet_bfs(u, 1)))
  expect_equal(cuRnet_bfs(u, 2)[1, ], c(4, 0, 1, 2, 3))
  # the engine checks ids (0-based in its words: index 6 is id 5)
  expect_error(cuRnet_bfs(u, 6), "source 6 is not a vertex index: the graph has 5 vertices", class = "cuRnet_error")
  expect_error(cuRnet_bfs(u, 1.5), "sources must be integer vertex ids")
  expect_error(cuRnet_bfs(u, "a"), "no vertex names")
})

test_that("functions take igraph objects and data frames directly", {
  skip_if_no_engine()
  ig <- igraph::make_star(6, mode = "out")
  expect_equal(cuRnet_bfs(ig, 1), igraph_dist(ig, 1))
})
