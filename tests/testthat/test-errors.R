# Issue 6: a catalogue of bad input at the R entry points. Each case asserts the error and
# that its message names the problem. Cases already asserted elsewhere are not repeated:
# test-graph.R (NA ids, NaN weight, negative undirected weight, < 2 columns, missing file,
# weights of the wrong length for a data frame, stray `vertices`), test-bfs.R (BFS sources:
# unknown name, NA, none, index out of range or fractional), test-sssp.R (negative cycle).

abc <- function() cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "c"), weight = c(1, 2)))

test_that("an empty graph builds, and a traversal on it says it has no vertices", {
  skip_if_no_engine()
  e <- cuRnet_graph(data.frame(from = character(), to = character()))
  expect_equal(c(e$n, e$m), c(0, 0))
  expect_false(any(grepl("vertices:", capture.output(print(e)))))
  expect_error(cuRnet_bfs(e, "a"), "not in the graph: 'a'")
  expect_error(cuRnet_sssp_dists(igraph::make_empty_graph(0), 1), "the graph has no vertices",
               class = "cuRnet_error")
  expect_error(cuRnet_bfs(igraph::make_empty_graph(0), 1), "the graph has no vertices")
  expect_identical(dim(cuRnet_scc(e)), c(1L, 0L))
})

test_that("sssp and sssp_dists refuse zero sources", {
  skip_if_no_engine()
  g <- abc()
  expect_error(cuRnet_sssp(g, character()), "no sources given")
  expect_error(cuRnet_sssp_dists(g, character()), "no sources given")
  expect_error(cuRnet_sssp_dists(g, numeric()), "no sources given")
})

test_that("sources out of range or not in the graph are named (sssp, sssp_dists)", {
  skip_if_no_engine()
  g <- abc()
  expect_error(cuRnet_sssp(g, "zz"), "not in the graph: 'zz'")
  expect_error(cuRnet_sssp_dists(g, c("a", "zz", "yy")), "not in the graph: 'zz', 'yy'")
  expect_error(cuRnet_sssp(g, 5), "not in the graph: '5'")  # numbers are names here
  # indices are checked in R's 1-based words (not the engine's "id 5")
  u <- cuRnet_graph(igraph::make_ring(5, directed = TRUE))
  for (f in list(cuRnet_sssp, cuRnet_sssp_dists, cuRnet_bfs)) {
    expect_error(f(u, 6), "source 6 is not a vertex index: the graph has 5 vertices \\(1..5\\)")
    expect_error(f(u, c(1, 0)), "source 0 is not a vertex index")
    for (bad in list(Inf, 2.5)) expect_error(f(u, bad), "sources must be integer vertex ids")
    expect_error(f(u, c(1, NaN)), "sources has 1 missing value")
    expect_error(f(u, c(1, NA)), "sources has 1 missing value")
  }
  expect_error(cuRnet_bfs(u, 1, to = 7), "target 7 is not a vertex index")
  expect_error(cuRnet_bfs(u, TRUE), "sources must be vertex names or 1-based vertex indices")
  expect_error(cuRnet_bfs(u, 1, to = list(2)), "targets must be vertex names or 1-based vertex indices")
  expect_error(cuRnet_bfs(u, NA), "sources has 1 missing value")
})

test_that("cuRnet_distances refuses unknown vertices, as igraph::distances does", {
  skip_if_no_engine()
  ig <- igraph::make_ring(5, directed = TRUE)
  igraph::V(ig)$name <- letters[1:5]
  # igraph's own selection error (same message as igraph::distances)
  expect_error(cuRnet_distances(ig, 6), "Unknown vertex")
  expect_error(cuRnet_distances(ig, "zz"), "Unknown vertex")
  expect_error(cuRnet_distances(ig, "a", to = "zz"), "Unknown vertex")
})

test_that("NA, NaN and infinite weights are refused, naming the edge", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b"), to = c("b", "c"))
  expect_error(cuRnet_graph(df, weights = c(1, NA)), "weights has 1 missing value")
  expect_error(cuRnet_graph(df, weights = c(1, NaN)), "must be finite: edge 2 has weight NaN")
  expect_error(cuRnet_graph(df, weights = c(1, Inf)), "must be finite: edge 2 has weight Inf")
  expect_error(cuRnet_graph(df, weights = c(-Inf, 1)), "must be finite: edge 1 has weight -Inf")
  expect_error(cuRnet_graph(df, weights = c(1, Inf), directed = FALSE), "finite")
})

test_that("weights given as strings or logicals, or a missing weight column, are refused", {
  skip_if_no_engine()
  df <- data.frame(from = c("a", "b"), to = c("b", "c"), weight = c("1", "2"))
  expect_error(cuRnet_graph(df), "weights must be numeric")
  expect_error(cuRnet_graph(df[1:2], weights = c("1", "2")), "weights must be numeric")
  expect_error(cuRnet_graph(df[1:2], weights = c(TRUE, FALSE)), "weights must be numeric")
  expect_error(cuRnet_graph(df[1:2], weights = "score"), "no column 'score'")
  ig <- igraph::make_ring(5)
  expect_error(cuRnet_distances(ig, 1, weights = letters[1:5]), "weights must be numeric")
})

test_that("a negative cycle is a cuRnet_negative_cycle condition carrying its source", {
  skip_if_no_engine()
  g <- cuRnet_graph(data.frame(from = c("x", "s", "a", "b"), to = c("s", "a", "b", "a"),
                               weight = c(1, 1, -3, 1)))
  e <- expect_error(cuRnet_sssp_dists(g, c("a", "s")), "negative-weight cycle is reachable from",
                    class = "cuRnet_negative_cycle")
  expect_s3_class(e, "cuRnet_error")
  expect_true(e$source %in% c(2L, 3L))     # the batch's first failing source: s or a
  expect_equal(e$source_name, c("x", "s", "a", "b")[e$source])
  expect_match(conditionMessage(e), sprintf("source '%s' \\(vertex %d\\)", e$source_name, e$source))
  e <- expect_error(cuRnet_sssp(g, "s"), class = "cuRnet_negative_cycle")
  expect_equal(list(e$source, e$source_name), list(2L, "s"))
  # unnamed graphs: the 1-based index; mode = "in" from x reaches no cycle, from b it does
  u <- cuRnet_graph(igraph::graph_from_edgelist(cbind(c(1, 2, 3, 4), c(2, 3, 4, 3))), weights = c(1, 1, -3, 1))
  e <- expect_error(cuRnet_sssp(u, 2, backend = "cpu"), class = "cuRnet_negative_cycle")
  expect_equal(e$source, 2L)
  expect_null(e$source_name)
  expect_equal(cuRnet_sssp_dists(u, 1, mode = "in")[1, ], c(0, Inf, Inf, Inf))
  expect_error(cuRnet_sssp_dists(u, 4, mode = "in"), class = "cuRnet_negative_cycle")
})

test_that("mismatched lengths: weights for igraph objects and cuRnet_distances", {
  skip_if_no_engine()
  ig <- igraph::make_ring(5)
  expect_error(cuRnet_graph(ig, weights = c(1, 2)), "2 weights for 5 edges")
  expect_error(cuRnet_distances(ig, 1, weights = c(1, 2, 3, 4, 5, 6)), "6 weights for 5 edges")
  expect_error(cuRnet_graph(data.frame(from = "a", to = "b"), vertices = c("a", "b", "a")),
               "twice: 'a'")
})

test_that("fractional and huge numeric ids in a data frame are vertex names, as in igraph", {
  skip_if_no_engine()
  # data frame ids are labels (igraph::graph_from_data_frame), so no int32 limit applies
  g <- cuRnet_graph(data.frame(from = c(1.5, 2), to = c(2, 3e9)))
  expect_equal(g$names, c("1.5", "2", "3000000000"))
  expect_equal(cuRnet_bfs(g, 1.5)[1, ], c("1.5" = 0, "2" = 1, "3000000000" = 2))
  expect_equal(cuRnet_sssp_dists(g, 3e9)[1, ], c("1.5" = Inf, "2" = Inf, "3000000000" = 0))
  expect_error(cuRnet_bfs(g, 1.25), "not in the graph: '1.25'")
  expect_error(cuRnet_graph(data.frame(from = c(NaN, 1), to = c(1, 2))), "missing value")
})

test_that("an igraph object with an NA weight attribute is refused", {
  skip_if_no_engine()
  ig <- igraph::make_ring(3, directed = TRUE)
  igraph::E(ig)$weight <- c(1, NA, 2)
  expect_error(cuRnet_graph(ig), "weights has 1 missing value")
  expect_error(cuRnet_distances(ig, 1), "weights has 1 missing value")
  expect_equal(cuRnet_distances(ig, 1, weights = NA), igraph::distances(ig, 1, weights = NA))
})

test_that("bad files: empty, truncated gzip, malformed line, ids beyond int32, unknown format", {
  skip_if_no_engine()
  dir <- tempfile("curnet-errors")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  at <- function(name, lines) {
    path <- file.path(dir, name)
    writeLines(lines, path)
    path
  }
  empty <- file.path(dir, "empty.csv")
  file.create(empty)
  expect_error(cuRnet_graph(empty), "empty.csv: empty file", class = "cuRnet_error")

  gz <- file.path(dir, "edges.csv.gz")
  con <- gzfile(gz, "w")
  writeLines(rep("a,b", 5000), con)
  close(con)
  bytes <- readBin(gz, "raw", file.size(gz))
  writeBin(bytes[seq_len(length(bytes) %/% 2)], gz)
  expect_error(cuRnet_graph(gz), "edges.csv.gz: truncated gzip", class = "cuRnet_error")

  expect_error(cuRnet_graph(at("edges.tsv", c("a\tb", "b\tc", "c", "d\te"))),
               "edges.tsv, line 3: expected 2 fields, got 1")
  expect_error(cuRnet_graph(at("w.csv", c("a,b,1", "b,c,x"))), "w.csv, line 2: weight 'x' is not a number")
  expect_error(cuRnet_graph(at("g.mtx", c("%%MatrixMarket matrix coordinate real general", "3 3 2",
                                          "1 2 1.0", "2 x 1.0"))), "g.mtx, line 4: column index 'x'")
  expect_error(cuRnet_graph(at("f.tsv", c("1.5\t2", "2\t3")), ids = "index"),
               "f.tsv, line 1: src id 1.5 is not an integer")
  expect_error(cuRnet_graph(at("big.tsv", c("1\t2", "2\t3000000000")), ids = "index"), "big.tsv: .*3000000000.*int32")
  expect_error(cuRnet_graph(at("nan.tsv", c("1\t2\t1", "2\t3\tNaN"))), "nan.tsv, line 2: missing weight")

  expect_error(cuRnet_graph(at("g.xyz", "a b")), "cannot tell the format of .*g.xyz.*pass format= one of")
  expect_error(cuRnet_graph(at("g.csv", "a,b"), format = "graphml"), "unknown graph format 'graphml'")
})

test_that("repeated sources give identical rows with repeated row names", {
  skip_if_no_engine()
  g <- abc()
  src <- c("a", "b", "a")
  res <- cuRnet_sssp(g, src)
  for (m in res) {
    expect_identical(rownames(m), src)
    expect_identical(m[1, ], m[3, ])
  }
  d <- cuRnet_sssp_dists(g, src)
  expect_identical(rownames(d), src)
  expect_identical(d[1, ], d[3, ])
  expect_identical(d, res$distances)
  ig <- igraph::make_ring(5, directed = TRUE)
  igraph::V(ig)$name <- letters[1:5]
  dd <- cuRnet_distances(ig, c("c", "c"), mode = "out")
  expect_identical(rownames(dd), c("c", "c"))
  expect_identical(dd[1, ], dd[2, ])
})

test_that("a result larger than the available memory is refused by the engine before R allocates it", {
  skip_if_no_engine()
  skip_if_not(file.exists("/proc/meminfo"), "MemAvailable is read from /proc/meminfo")
  g <- cuRnet_graph(igraph::make_empty_graph(1e6))
  src <- rep(1L, 1e6)  # 10^6 x 10^6 cells: terabytes
  expect_error(cuRnet_bfs(g, src), "OutputTooLargeError: .* needs 7450.58 GiB of host memory, but only .* GiB",
               class = "cuRnet_error")
  expect_error(cuRnet_bfs(g, src, integer = TRUE), "needs 3725.29 GiB")
  expect_error(cuRnet_sssp_dists(g, src), "1,000,000 sources x 1,000,000 vertices")
  expect_error(cuRnet_sssp(g, src), "fewer sources per call")
  expect_error(cuRnet_sssp(g, src, predecessors = "index"), "needs 11175.87 GiB")  # 8 + 4 bytes a cell
  expect_equal(dim(cuRnet_bfs(g, src[1:3], to = c(1, 5))), c(3L, 2L))  # small ones run
})

test_that("errors speak R's words: 1-based positions, the mode asked for, no empty message", {
  skip_if_no_engine()
  g <- igraph::make_ring(4, directed = TRUE)
  igraph::E(g)$weight <- c(1, -3, 1, 1)              # a negative cycle
  # igraph's default mode "all" on a directed graph: not "use a directed graph"
  e <- tryCatch(cuRnet_distances(g), error = identity)
  expect_match(conditionMessage(e), "mode 'all' ignores edge directions.*2nd edge")
  expect_no_match(conditionMessage(e), "use a directed graph")
  # a measure meets the negative edge before any cycle, and says so
  e <- tryCatch(cuRnet_closeness(g, mode = "out"), error = identity)
  expect_match(conditionMessage(e), "non-negative weights")
  expect_error(cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "c"), weight = c(1, -2)),
                            directed = FALSE), "on the 2nd edge of an undirected graph")   # no 0-based index
  expect_error(cuRnet_bfs(cuRnet_graph(g), 10), "source 10 is not a vertex index: the graph has 4 vertices \\(1..4\\)")
  expect_error(cuRnet_bfs(cuRnet_graph(g), 0), "source 0 is not a vertex index")
})

test_that("igraph's edge-list matrix is a graph, as a data frame of its columns", {
  skip_if_no_engine()
  ig <- igraph::graph_from_literal(A - B, B - C)
  g <- cuRnet_graph(igraph::as_edgelist(ig), directed = FALSE)
  expect_equal(g$names, c("A", "B", "C"))
  expect_equal(cuRnet_bfs(g, "A")[1, ], c(A = 0, B = 1, C = 2))
  expect_equal(cuRnet_graph(igraph::as_edgelist(ig, names = FALSE))$names, c("1", "2", "3"))
  expect_error(cuRnet_graph(cbind(1:2, 2:3, 3:4)), "two columns")
})

test_that("a negative cycle met by shortest paths says which source, in R's words", {
  skip_if_no_engine()
  g <- igraph::make_ring(4, directed = TRUE)
  igraph::E(g)$weight <- c(1, -4, 1, 1)             # a cycle of length -1
  for (f in list(function() cuRnet_shortest_paths(g, 2), function() cuRnet_sssp(cuRnet_graph(g), 2))) {
    e <- tryCatch(f(), error = identity)
    expect_s3_class(e, "cuRnet_negative_cycle")
    expect_equal(conditionMessage(e), paste0("NegativeCycleError: a negative-weight cycle is reachable ",
                                             "from source vertex 2: shortest paths from it are undefined"))
    expect_equal(e$source, 2L)
  }
})

test_that("the engine's Python warnings are R warnings, which suppressWarnings() silences", {
  skip_if_no_engine()
  numpy_warning <- function() {
    cuRnet:::engine_call(reticulate::py_run_string("import numpy as np; x = np.float64(0.0) / np.float64(0.0)"))
  }
  expect_warning(numpy_warning(), "in the engine's arithmetic \\(NumPy\\): invalid value encountered",
                 class = "cuRnet_warning")
  expect_silent(suppressWarnings(numpy_warning()))
  w <- tryCatch(numpy_warning(), warning = function(w) w)
  expect_identical(w$category, "RuntimeWarning")
  # a warning of the engine's own (a constant gene: no correlation), once per call, every call
  set.seed(1)
  x <- matrix(stats::rnorm(60), 20, 3, dimnames = list(NULL, c("g1", "g2", "g3")))
  x[, 2] <- 1
  for (i in 1:2) {
    expect_warning(cuRnet_adjacency(x, backend = "cpu"), "undefined correlations", class = "cuRnet_warning")
  }
  expect_silent(suppressWarnings(cuRnet_adjacency(x, backend = "cpu")))
})

test_that("engine messages are in R's words: no Python exception names, argument spellings or reprs", {
  skip_if_no_engine()
  g <- igraph::make_ring(5)
  igraph::E(g)$weight <- c(1, 0, 2, 1, 1)
  e <- tryCatch(cuRnet_betweenness(g), error = function(e) e)
  expect_s3_class(e, "cuRnet_error")
  expect_match(conditionMessage(e), "^betweenness needs positive weights.*give weights = NA to count hops")
  expect_false(grepl("weighted=False|ValueError", conditionMessage(e)))
  expect_identical(e$python_type, "ValueError")
  expect_identical(cuRnet:::r_words("prize of terminal np.str_('EGFR') is nan; np.float64(2.5) is inf"),
                   "prize of terminal 'EGFR' is NaN; 2.5 is Inf")
  # a vector where one number belongs is refused in R (not float() of a list in Python)
  ppi <- cuRnet_interactome(data.frame(from = c("A", "B"), to = c("B", "C"), cost = c(1, 1)))
  expect_error(cuRnet_pcsf(ppi, c(A = 2, C = 2), w = c(1, 2)), "^`w` must be one positive number, not 2 values")
  for (call in list(quote(cuRnet_closeness(g, cutoff = NA)), quote(cuRnet_ego_size(g, order = c(1, 2))),
                    quote(cuRnet_ego_size(g, mindist = -1)),
                    quote(cuRnet_proximity(g, list(1:2), 3:4, n_random = NA)))) {
    expect_error(eval(call), "^`(cutoff|order|mindist|n_random)` must be one")
  }
})

test_that("the co-expression functions and betweenness check their numbers in R before any work", {
  # checked before the engine is asked: no engine needed for the refusal
  x <- matrix(stats::rnorm(60), 6, 10)
  for (call in list(quote(cuRnet_coexpression(x, threshold = NA)),
                    quote(cuRnet_coexpression(x, threshold = 2)),
                    quote(cuRnet_coexpression(x, top_k = c(2, 3))),
                    quote(cuRnet_coexpression(x, top_k = 1.5)),
                    quote(cuRnet_coexpression(x, threshold = 0.5, maxPOutliers = NA)),
                    quote(cuRnet_adjacency(x, power = NA)),
                    quote(cuRnet_adjacency(x, power = -1)),
                    quote(cuRnet_pickSoftThreshold(x, RsquaredCut = NA)),
                    quote(cuRnet_pickSoftThreshold(x, nBreaks = 1)),
                    quote(cuRnet_TOMsimilarityFromExpr(x, power = c(6, 7))),
                    quote(cuRnet_TOMsimilarityFromExpr(x, maxPOutliers = 2)))) {
    expect_error(eval(call), "^`(threshold|top_k|maxPOutliers|power|RsquaredCut|nBreaks)` must be one",
                 info = deparse(call))
  }
  expect_error(cuRnet_pickSoftThreshold(x, powerVector = c(1, NA)), "^`powerVector` must be positive numbers")
  expect_error(cuRnet_betweenness(igraph::make_ring(4), cutoff = NA), "^`cutoff` must be one number, not NA")
  expect_error(cuRnet_betweenness(igraph::make_ring(4), cutoff = c(1, 2)), "^`cutoff` must be one number")
})
