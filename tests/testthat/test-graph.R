test_that("data frames of names, factors and numbers become graphs", {
  skip_if_no_engine()
  df <- data.frame(from = c("a b", "c/d", "é!"), to = c("c/d", "é!", "x'y"))
  g <- cuRnet_graph(df)
  expect_s3_class(g, "cuRnet_graph")
  expect_equal(g$n, 4)
  expect_equal(g$m, 3)
  expect_true(g$directed)
  expect_false(g$weighted)
  expect_equal(g$names, c("a b", "c/d", "é!", "x'y"))

  gf <- cuRnet_graph(data.frame(from = factor(df$from), to = factor(df$to)), directed = FALSE)
  expect_false(gf$directed)
  expect_equal(gf$names, g$names)

  gn <- cuRnet_graph(data.frame(from = c(10, 100000), to = c(100000, 7)))
  expect_equal(gn$names, c("10", "100000", "7"))
  expect_equal(unname(cuRnet_bfs(gn, 10)[1, ]), c(0, 1, 2))
})

test_that("weights come from a weight-like column, or the argument", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b"), to = c("b", "c"), score = c(0.5, 0.25))
  # an evidence count or a confidence score is no length: left out, with a message
  expect_message(g <- cuRnet_graph(df), "column 'score' is not read as weights.*weights = \"score\"")
  expect_false(g$weighted)
  expect_false(cuRnet_graph(df, weights = NA)$weighted)
  expect_equal(cuRnet_sssp_dists(cuRnet_graph(df, weights = "score"), "a")[1, "c"], 0.75)
  expect_equal(cuRnet_sssp_dists(cuRnet_graph(data.frame(df, Distance = c(1, 4))), "a")[1, "c"], 5)
  expect_equal(cuRnet_sssp_dists(cuRnet_graph(df, weights = c(2, 3)), "a")[1, "c"], 5)
  expect_error(cuRnet_graph(df, weights = 1), "1 weights for 2 edges")
})

test_that("`vertices` adds isolated vertices and fixes the order", {
  skip_if_no_engine()
  g <- cuRnet_graph(data.frame(from = "b", to = "a"), vertices = c("a", "b", "z"))
  expect_equal(g$names, c("a", "b", "z"))
  expect_equal(cuRnet_bfs(g, "b")[1, ], c(a = 1, b = 0, z = Inf))
  expect_error(cuRnet_graph(data.frame(from = "b", to = "q"), vertices = c("a", "b")), "'q'")
})

test_that("igraph objects keep directedness, names and weights", {
  skip_if_no_engine()
  ig <- igraph::graph_from_literal(A -+ B, B -+ C)
  igraph::E(ig)$weight <- c(2, 3)
  g <- cuRnet_graph(ig)
  expect_true(g$directed)
  expect_true(g$weighted)
  expect_equal(g$names, c("A", "B", "C"))
  expect_false(cuRnet_graph(igraph::as.undirected(ig))$directed)
  expect_false(cuRnet_graph(ig, directed = FALSE)$directed)
  expect_equal(cuRnet_bfs(cuRnet_graph(ig, directed = FALSE), "C")[1, ], c(A = 2, B = 1, C = 0))
  expect_false(cuRnet_graph(ig, weights = NA)$weighted)
})

test_that("the engine reads files", {
  skip_if_no_engine()
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(data.frame(from = c("a", "b"), to = c("b", "c")), path, row.names = FALSE)
  g <- cuRnet_graph(path, header = TRUE)
  expect_equal(g$n, 3)
  expect_equal(sort(g$names), c("a", "b", "c"))
  expect_equal(cuRnet_bfs(g, "a")[1, c("a", "b", "c")], c(a = 0, b = 1, c = 2))
  expect_error(cuRnet_graph(file.path(tempdir(), "no-such-file.csv")), "not a file")
})

test_that("numeric ids in a file are vertex names, as in a data frame", {
  skip_if_no_engine()
  path <- tempfile(fileext = ".tsv")
  on.exit(unlink(path))
  writeLines(c("7157\t4193", "4193\t10"), path)   # Entrez ids
  g <- cuRnet_graph(path)
  expect_equal(g$n, 3)
  expect_equal(g$names, c("7157", "4193", "10"))
  from_df <- cuRnet_graph(data.frame(from = c(7157, 4193), to = c(4193, 10)))
  expect_equal(cuRnet_bfs(g, 7157), cuRnet_bfs(from_df, 7157))
  expect_equal(cuRnet_bfs(g, c(7157, 10))[, "10"], c(`7157` = 2, `10` = 0))
  expect_equal(cuRnet_bfs(g, "4193")[1, ], c(`7157` = Inf, `4193` = 0, `10` = 1))
  expect_error(cuRnet_bfs(g, 1), "not in the graph: '1'")

  # ids = "index": the engine's 0-based numbering, sources are 1-based indices
  gi <- cuRnet_graph(path, ids = "index")
  expect_null(gi$names)
  expect_equal(gi$n, 7158)
  expect_equal(cuRnet_bfs(gi, 7158)[1, c(7158, 4194, 11)], c(0, 1, 2))
})

test_that("Matrix Market vertices are named by their number in the file", {
  skip_if_no_engine()
  path <- tempfile(fileext = ".mtx")
  on.exit(unlink(path))
  writeLines(c("%%MatrixMarket matrix coordinate pattern general", "4 4 2", "3 1", "1 2"), path)
  g <- cuRnet_graph(path)
  expect_equal(g$names, c("1", "2", "3", "4"))
  expect_equal(cuRnet_bfs(g, 3)[1, ], c(`1` = 1, `2` = 2, `3` = 0, `4` = Inf))
})

test_that("a weight column that is not numbers is an error, never dropped quietly", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b"), to = c("b", "c"), weight = c("0.5", "x"))
  expect_error(cuRnet_graph(df), "must be numeric: column 'weight' holds text such as 'x'")
  expect_false(cuRnet_graph(df, weights = NA)$weighted)
  expect_error(cuRnet_graph(transform(df, weight = c("0.5", "2"))), "numbers stored as text")
  num <- cuRnet_graph(transform(df, weight = as.numeric(c("0.5", "2"))))
  expect_equal(cuRnet_sssp_dists(num, "a")[1, "c"], 2.5)
  expect_error(cuRnet_graph(transform(df, weight = c(TRUE, FALSE))), "TRUE/FALSE")
  expect_error(cuRnet_graph(transform(df, weight = NULL, score = c("0.5", "x")), weights = "score"),
               "column 'score' holds text")
  expect_error(cuRnet_graph(data.frame(from = "a", to = "b", weight = "1")), "column 'weight'")
  expect_error(cuRnet_graph(data.frame(from = "a", to = "b", type = "binding", score = 2),
                            weights = "type"), "column 'type'")
  expect_true(cuRnet_graph(data.frame(from = "a", to = "b", type = "binding", score = 2),
                           weights = "score")$weighted)
  expect_error(cuRnet_graph(df[1:2], weights = c(TRUE, FALSE)), "weights must be numeric, not logical")
})

test_that("factor levels, case and NA ids have one clear meaning", {
  skip_if_no_engine()
  # unused factor levels are not vertices (as in igraph); `vertices` adds them
  f <- data.frame(from = factor("a", levels = c("a", "z")), to = factor("b", levels = c("b", "y")))
  expect_equal(cuRnet_graph(f)$names, c("a", "b"))
  expect_equal(igraph::vcount(igraph::graph_from_data_frame(f)), 2)
  expect_equal(cuRnet_graph(f, vertices = c("a", "b", "z", "y"))$n, 4)
  # names are case-sensitive; a source in the wrong case gets a hint
  g <- cuRnet_graph(data.frame(from = c("TP53", "tp53"), to = c("MDM2", "MDM2")))
  expect_equal(g$n, 3)
  expect_equal(cuRnet_bfs(g, c("TP53", "tp53"))[, "MDM2"], c(TP53 = 1, tp53 = 1))
  expect_error(cuRnet_bfs(g, "Mdm2"), "matched exactly, in case and spaces; the graph has 'MDM2'")
  spaced <- cuRnet_graph(utils::read.csv(text = "from,to\nTP53, MDM2"))   # read.csv keeps the space
  expect_error(cuRnet_bfs(spaced, "MDM2"), "the graph has ' MDM2'")
  # `vertices` as a data frame: the names are its first column, as in igraph
  vdf <- data.frame(name = c("MDM2", "TP53", "ATM"), kind = "gene")
  gv <- cuRnet_graph(data.frame(from = "TP53", to = "MDM2"), vertices = vdf)
  expect_equal(gv$names, c("MDM2", "TP53", "ATM"))
  expect_equal(gv$names, igraph::V(igraph::graph_from_data_frame(data.frame(from = "TP53", to = "MDM2"),
                                                                 vertices = vdf))$name)
  # missing endpoints are refused with their rows
  expect_error(cuRnet_graph(data.frame(from = c("a", NA, "c"), to = c("b", "c", NA))),
               "missing value \\(NA\\) as an edge endpoint in row\\(s\\) '2', '3'")
})

test_that("print shows size, directedness, weights and backend", {
  skip_if_no_engine()
  g <- cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "c"), weight = c(1, 2)), directed = FALSE)
  out <- capture.output(print(g))
  expect_match(out[1], "3 vertices, 2 edges, undirected, weighted")
  expect_match(out[3], "backend: ")
})

test_that("bad input gives clear errors", {
  skip_if_no_engine()
  expect_error(cuRnet_graph(data.frame(from = c("a", NA), to = c("b", "c"))), "missing value")
  expect_error(cuRnet_graph(data.frame(from = c(1L, 2L), to = c(NA, 3L))), "missing value")
  expect_error(cuRnet_graph(data.frame(from = "a", to = "b", weight = -1), directed = FALSE), "negative weight")
  expect_error(cuRnet_graph(data.frame(from = "a", to = "b", weight = NaN)), "finite")
  expect_error(cuRnet_graph(data.frame(from = "a")), "two columns")
  expect_error(cuRnet_graph(list(1, 2)), "takes a data frame")
})

test_that("precision: every way to build a graph stores its weights as asked, and print says so", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b", "c"), to = c("b", "c", "a"), weight = c(0.1, 0.2, 0.3))
  dtype <- function(g) reticulate::py_str(g$py$weights$dtype)
  ig <- igraph::graph_from_data_frame(df)
  path <- tempfile(fileext = ".tsv")
  on.exit(unlink(path))
  utils::write.table(df, path, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
  for (precision in c("double", "single")) {
    graphs <- list(cuRnet_graph(df, precision = precision), cuRnet_graph(ig, precision = precision),
                   cuRnet_graph(path, precision = precision))
    if (requireNamespace("arrow", quietly = TRUE)) {
      graphs <- c(graphs, list(cuRnet_graph(arrow::arrow_table(df), precision = precision)))
    }
    for (g in graphs) {
      expect_equal(g$precision, precision)
      expect_equal(dtype(g), if (precision == "double") "float64" else "float32")
      expect_match(capture.output(print(g))[1], sprintf("weighted \\(%s precision\\)", precision))
    }
  }
  expect_equal(cuRnet_graph(df)$precision, "double")                  # the default
  expect_equal(cuRnet_graph(df, precision = "s")$precision, "single")  # partial matching, as match.arg
  expect_error(cuRnet_graph(df, precision = "half"), "should be one of")
  single <- cuRnet_graph(df, precision = "single")
  expect_identical(cuRnet_graph(single, precision = "single"), single)
  expect_error(cuRnet_graph(single, precision = "double"), "single-precision weights; build it again")
  # unweighted graphs count hops in either precision: no precision to show
  u <- cuRnet_graph(df[1:2], precision = "single")
  expect_true(is.na(u$precision))
  expect_match(capture.output(print(u))[1], "directed, unweighted$")
  # beyond the single-precision range is an error, not an infinite weight
  expect_error(cuRnet_graph(transform(df, weight = c(1, 1e39, 1)), precision = "single"),
               "beyond the float32 range")
})

test_that("unknown arguments are errors, and weights = NA is unweighted for every input", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b"), to = c("b", "c"), weight = c(2, 3))
  expect_error(cuRnet_graph(df, directd = FALSE), "does not take `directd` \\(did you mean `directed`\\?\\)")
  expect_error(cuRnet_graph(df, weight = NA), "does not take `weight` \\(did you mean `weights`\\?\\)")
  ig <- igraph::graph_from_data_frame(df)
  expect_error(cuRnet_graph(ig, weight = NA), "does not take `weight`")
  expect_error(cuRnet_graph(cuRnet_graph(df), weights = NA), "does not take `weights`")
  expect_error(cuRnet_graph(cuRnet_graph(df), directed = FALSE), "directed; build it again")

  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(df, path, row.names = FALSE)
  expect_true(cuRnet_graph(path)$weighted)
  for (x in list(df, ig, path)) expect_false(cuRnet_graph(x, weights = NA)$weighted)
  expect_error(cuRnet_graph(path, directd = FALSE), "does not take `directd` \\(did you mean `directed`\\?\\)")
  expect_error(cuRnet_graph(path, weight = NA), "did you mean `weights`")
  # a file's vertices, in the order given, with isolated ones (no Python TypeError)
  g <- cuRnet_graph(path, vertices = c("c", "b", "a", "z"))
  expect_equal(g$names, c("c", "b", "a", "z"))
  expect_equal(cuRnet_sssp_dists(g, "a")[1, ], c(c = 5, b = 2, a = 0, z = Inf))
})


test_that("a file's header of two column labels is detected, its third column read by name", {
  skip_if_no_engine()
  path <- tempfile(fileext = ".tsv")
  on.exit(unlink(path))
  writeLines(c("gene1\tgene2\tevidence", "TP53\tMDM2\t0", "MDM2\tATM\t3"), path)
  expect_warning(g <- cuRnet_graph(path), "not read as weights|read as a header")
  expect_equal(g$names, c("TP53", "MDM2", "ATM"))
  expect_false(g$weighted)
  expect_true(suppressWarnings(cuRnet_graph(path, weights = "evidence"))$weighted)
  expect_equal(suppressWarnings(cuRnet_graph(path, header = FALSE, weights = NA))$m, 3)
})
