test_that("ids handed to Python share R's memory (same address), NA become nulls", {
  skip_if_no_engine()
  ids <- sample.int(1000L, 100000L, replace = TRUE)
  arr <- cuRnet:::as_arrow(ids)
  # addresses exceed R's integers: compare them as decimal strings
  py_address <- reticulate::py_eval("lambda a: str(a.buffers()[1].address)", convert = TRUE)
  r_address <- function(x) sprintf("%.0f", cuRnet:::data_address(x)[1])
  expect_identical(py_address(arr), r_address(ids))
  expect_identical(reticulate::py_to_r(arr$null_count), 0L)

  w <- c(0.5, NA, 2)
  wa <- cuRnet:::as_arrow(w)
  expect_identical(py_address(wa), r_address(w))
  expect_identical(reticulate::py_to_r(wa$to_pylist()), list(0.5, NULL, 2))
  expect_identical(reticulate::py_to_r(cuRnet:::as_arrow(c(1L, NA))$null_count), 1L)
})

test_that("exported vectors are released once Python lets go", {
  skip_if_no_engine()
  drain <- function() { gc(); reticulate::py_run_string("import gc; gc.collect()"); gc()
                        .Call(cuRnet:::C_curnet_arrow_drain) }
  before <- drain()
  local({ a <- cuRnet:::as_arrow(1:10); b <- cuRnet:::as_arrow(c(1, 2)) })
  expect_identical(drain(), before)
})

test_that("results are written into R's matrix, not converted from NumPy", {
  skip_if_no_engine()
  handed <- numeric()
  record <- function(address) handed <<- c(handed, address)
  suppressMessages(trace("data_address", exit = bquote(.(record)(returnValue())),
                         where = asNamespace("cuRnet"), print = FALSE))
  on.exit(suppressMessages(untrace("data_address", where = asNamespace("cuRnet"))))
  g <- cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "c"), weight = c(1, 2)))
  for (res in list(cuRnet_bfs(g, c("a", "b")), cuRnet_bfs(g, "a", integer = TRUE),
                   cuRnet_sssp(g, c("a", "b"), predecessors = "index")$distances,
                   cuRnet_sssp_dists(g, "b"), cuRnet_scc(g))) {
    expect_true(cuRnet:::data_address(res)[1] %in% handed)
  }
  # the adapter returns nothing to convert
  m <- cuRnet:::new_result("double", 1, 3)
  out <- cuRnet:::engine_module("traversals")$bfs_into(g$py, cuRnet:::as_arrow(0L), cuRnet:::data_address(m),
                                                       "double", FALSE)
  expect_true(inherits(out, "python.builtin.NoneType"))
  expect_equal(as.vector(m), c(0, 1, 2))
})

test_that("a result R sizes after the run (a Held) lands in R vectors of its types, at its places", {
  skip_if_no_engine()
  handoff <- cuRnet:::engine_module("handoff")
  held <- handoff$Held(reticulate::py_eval(paste0(
    "{'a': __import__('numpy').array([3, 1], dtype='int32'), ",
    "'t': {'x': __import__('numpy').arange(3.0), 'name': 's'}, 'k': 2, 'none': __import__('numpy').zeros(0)}"),
    convert = FALSE))
  got <- cuRnet:::held_result(held)
  expect_identical(got, list(a = c(3L, 1L), t = list(x = c(0, 1, 2), name = "s"), k = 2L, none = numeric(0)))
})
