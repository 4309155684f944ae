same_partition <- function(a, b) {
  length(unique(a)) == length(unique(b)) && length(unique(paste(a, b))) == length(unique(a))
}

test_that("SCC is igraph's strong components, as a named 1 x |V| matrix", {
  skip_if_no_engine()
  set.seed(11)
  for (ig in list(igraph::sample_gnp(400, 0.004, directed = TRUE),
                  igraph::sample_fitness_pl(1000, 3000, 2.2, 2.3),
                  igraph::as.directed(igraph::sample_fitness_pl(1000, 1200, 2.2, 2.3), "arbitrary"))) {
    igraph::V(ig)$name <- paste0("v ", seq_len(igraph::vcount(ig)), "/x")
    cc <- cuRnet_scc(cuRnet_graph(ig))
    expect_identical(dim(cc), c(1L, igraph::vcount(ig)))
    expect_identical(colnames(cc), igraph::V(ig)$name)
    ref <- igraph::components(ig, mode = "strong")$membership
    expect_true(same_partition(cc[1, ], ref))
    # canonical: numbered 1, 2, ... in order of each component's first vertex
    expect_identical(unique(as.vector(cc)), as.numeric(seq_len(max(cc))))
  }
})

test_that("SCC on the STRING sample (undirected: connected components)", {
  skip_if_no_engine()
  df <- string_sample()
  ig <- igraph::graph_from_data_frame(df, directed = FALSE)
  cc <- cuRnet_scc(cuRnet_graph(df, directed = FALSE), integer = TRUE)
  expect_type(cc, "integer")
  expect_true(same_partition(cc[1, ], igraph::components(ig)$membership))
  expect_identical(colnames(cc), igraph::V(ig)$name)
})

test_that("SCC ids match the column names (the original cuRnet mismatched them)", {
  skip_if_no_engine()
  df <- data.frame(from = c("z", "y", "x", "w"), to = c("y", "z", "w", "x"))
  cc <- cuRnet_scc(cuRnet_graph(df))
  expect_equal(cc[1, ], c(z = 1, y = 1, x = 2, w = 2))
})
