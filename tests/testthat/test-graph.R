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

test_that("weights: a weight-like column, else the numeric third column, or the argument", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b"), to = c("b", "c"), score = c(0.5, 0.25))
  # the third column is the weights whatever its name, as in cuRnet 2017, said in one message
  expect_message(g <- cuRnet_graph(df),
                 "^column 'score' read as the weights .*weights = NA for hops, weights = \"name\"")
  expect_true(g$weighted)
  expect_equal(cuRnet_sssp_dists(g, "a")[1, "c"], 0.75)
  expect_false(cuRnet_graph(df, weights = NA)$weighted)
  expect_silent(cuRnet_graph(df, weights = NA))
  # a weight-like name wins wherever it stands; a third column of text is no weight
  expect_silent(gw <- cuRnet_graph(data.frame(df, Distance = c(1, 4))))
  expect_equal(cuRnet_sssp_dists(gw, "a")[1, "c"], 5)
  expect_false(cuRnet_graph(data.frame(df[1:2], type = "pp"))$weighted)
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
  ig <- igraph::graph_from_literal(A -+ B, B -+ C)   # nolint (igraph's literal edge A -+ B)
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

test_that("Matrix Market, DIMACS and METIS vertices are 1-based indices, as in igraph", {
  skip_if_no_engine()
  path <- tempfile(fileext = ".mtx")
  on.exit(unlink(path))
  writeLines(c("%%MatrixMarket matrix coordinate real general", "4 4 3", "3 1 2", "1 2 0.5",
               "2 4 1"), path)
  g <- cuRnet_graph(path)
  expect_null(g$names)
  expect_equal(cuRnet_bfs(g, 3)[1, ], c(1, 2, 0, 3))
  ig <- igraph::graph_from_edgelist(cbind(c(3, 1, 2), c(1, 2, 4)))
  expect_equal(unname(cuRnet_sssp_dists(g, c(3, 1))),
               igraph::distances(ig, c(3, 1), mode = "out", weights = c(2, 0.5, 1)))
  expect_error(cuRnet_bfs(g, 5), "source 5 is not a vertex index: the graph has 4 vertices")
  expect_error(cuRnet_bfs(g, "3"), "no vertex names")
  gr <- tempfile(fileext = ".gr")
  on.exit(unlink(gr), add = TRUE)
  writeLines(c("p sp 4 3", "a 3 1 2", "a 1 2 0.5", "a 2 4 1"), gr)
  expect_equal(cuRnet_sssp_dists(cuRnet_graph(gr), c(3, 1)), cuRnet_sssp_dists(g, c(3, 1)))
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
  # a numeric third column is the weights, as in a data frame, with the same message
  expect_message(g <- cuRnet_graph(path), "^column 'evidence' read as the weights .*weights = NA for hops")
  expect_equal(g$names, c("TP53", "MDM2", "ATM"))
  expect_true(g$weighted)
  expect_equal(cuRnet_sssp_dists(g, "TP53")[1, "ATM"], 3)
  expect_false(suppressWarnings(cuRnet_graph(path, weights = NA))$weighted)
  expect_true(suppressWarnings(cuRnet_graph(path, weights = "evidence"))$weighted)
  expect_equal(suppressWarnings(cuRnet_graph(path, header = FALSE, weights = NA))$m, 3)
})


# cuRnet 2017's documented usage (its README and vignette, InfOmics/cuRnet), verbatim: a data
# frame `from to score` whose third column is the weights, whatever its name.
test_that("cuRnet 2017's README: a CSV of from, to, score gives weighted paths", {
  skip_if_no_engine()
  local_attached("igraph")   # the examples call library(igraph)
  dir <- tempfile()
  dir.create(dir)
  old <- setwd(dir)
  on.exit({ setwd(old); unlink(dir, recursive = TRUE) })
  set.seed(17)
  edges <- unique(t(replicate(300, sample(sprintf("g%02d", 1:60), 2))))
  writeLines(c("from to score", sprintf("%s %s %.3f", edges[, 1], edges[, 2],
                                         runif(nrow(edges), -1, 1))), "my_file.csv")

  # cuRnet 2017's README code as its users wrote it (lintr left out)
  # nolint start
  library(igraph)
  x <- read.table("my_file.csv", header=TRUE)
  x$from <- as.character(x$from)
  x$to <- as.character(x$to)
  x$score <- abs(x$score)
  expect_message(
  my_graph <- cuRnet_graph(x)
  , "column 'score' read as the weights")
  # nolint end

  expect_true(my_graph$weighted)
  ig <- igraph::graph_from_data_frame(x)
  from <- unique(x$from)[1:10]
  expect_equal(suppressMessages(cuRnet_sssp_dists(my_graph, from)),
               igraph::distances(ig, from, mode = "out", weights = x$score)[, my_graph$names],
               tolerance = 1e-9)
})

test_that("cuRnet 2017's README and vignette: BFS and SCC on an igraph power-law graph", {
  skip_if_no_engine()
  local_attached("igraph")   # the examples call library(igraph)
  set.seed(3)
  # cuRnet 2017's README and vignette code as its users wrote it (lintr left out)
  # nolint start
  library(igraph)
  library(cuRnet)
  rg <- sample_fitness_pl(100, 1000, 2.2, 2.3)
  cdf <- data.frame( ends(rg, E(rg))[,1], ends(rg, E(rg))[,2] )
  colnames(cdf) <- c("from", "to")
  my_graph <- cuRnet_graph(cdf)
  expect_false(my_graph$weighted)

  cg <- cuRnet_graph(cdf)
  sources <- union(cdf$from, cdf$to)[1:20]
  bfs <- cuRnet_bfs(cg, sources)
  bfs[1,]
  bfs[2,]
  bfs[20,]
  ig <- igraph::graph_from_data_frame(cdf)
  expect_equal(unname(bfs), unname(igraph::distances(ig, as.character(sources), cg$names,
                                                     mode = "out", weights = NA)))

  rg <- sample_fitness_pl(10000, 30000, 2.2, 2.3)
  cdf <- data.frame( ends(rg, E(rg))[,1], ends(rg, E(rg))[,2] )
  colnames(cdf) <- c("from", "to")
  cg <- cuRnet_graph(cdf)
  cc <- cuRnet_scc(cg)
  expect_equal(length(unique(cc[1,])),
               igraph::components(igraph::graph_from_data_frame(cdf), mode = "strong")$no)
  # nolint end
})

test_that("cuRnet 2017's STRINGdb example: combined_score/1000 is the weight", {
  skip_if_no_engine()
  skip_if_not_installed("STRINGdb")
  local_attached("igraph")   # the examples call library(igraph)
  # ss$get_graph() downloads STRING; the same kind of igraph object (undirected, named
  # proteins, a combined_score of 150..1000) from STRINGdb's bundled interactions
  env <- new.env()
  utils::data("interactions_example", package = "STRINGdb", envir = env)
  ia <- env$interactions_example[1:4000, ]
  set.seed(9606)
  ss_graph <- igraph::simplify(igraph::graph_from_data_frame(
    data.frame(ia[1:2], combined_score = sample(150:1000, nrow(ia), replace = TRUE)),
    directed = FALSE), edge.attr.comb = "first")

  # cuRnet 2017's STRINGdb example as its users wrote it (lintr left out)
  # nolint start
  library(igraph)
  g <- ss_graph
  from <- V(g)$name[1:10]
  x <- data.frame("from" = ends(g,E(g))[,1],
                  "to" = ends(g,E(g))[,2],
                  "score" = E(g)$combined_score/1000)
  library(cuRnet)
  expect_message(
  cg <- cuRnet_graph(x)
  , "column 'score' read as the weights")
  ret <- cuRnet_sssp(cg, from)
  dists = ret[["distances"]]
  preds = ret[["predecessors"]]
  dists[1,]
  preds[1,]

  # cuRnet 2017's graph is directed: the score is a length along each listed edge
  want <- igraph::distances(igraph::graph_from_data_frame(x), from, cg$names, mode = "out",
                            weights = x$score)
  expect_equal(dists, want, tolerance = 1e-9)
  expect_false(isTRUE(all.equal(dists, igraph::distances(igraph::graph_from_data_frame(x), from,
                                                         cg$names, mode = "out", weights = NA))))

  # the vignette's form: the data frame handed to the functions directly
  from <- unique(ends(g,E(g))[,1])[1:10]
  ret <- suppressMessages(cuRnet_sssp(x, from))
  expect_equal(ret[["distances"]], igraph::distances(igraph::graph_from_data_frame(x), from,
                                                     cg$names, mode = "out", weights = x$score),
               tolerance = 1e-9)
  ret <- suppressMessages(cuRnet_sssp_dists(x, from))
  ret[1,]
  expect_equal(ret, suppressMessages(cuRnet_sssp(x, from))[["distances"]])
  # nolint end
})
