# Fresh results' pages touched by background threads while the engine fills them
# (src/handoff.c curnet_prefault_*, R/handoff.R with_prefault).

test_that("prefaulting leaves every value as it is, whatever the split", {
  for (x in list(seq_len(300000L), as.double(seq_len(150000L)) / 7, 1:3, numeric(0))) {
    before <- if (is.integer(x)) x + 0L else x + 0    # a copy to compare with
    for (threads in c(1L, 3L, 16L, 40L)) {
      h <- .Call(cuRnet:::C_curnet_prefault_start, x, threads, 0)
      joined <- .Call(cuRnet:::C_curnet_prefault_join, h)
      expect_identical(x, before)
      expect_identical(joined, length(x) > 0 && .Platform$OS.type == "unix")
    }
  }
})

test_that("small results, no threads or other types start nothing", {
  expect_null(.Call(cuRnet:::C_curnet_prefault_start, 1:10, 4L, 1e6))
  expect_null(.Call(cuRnet:::C_curnet_prefault_start, 1:10, 0L, 0))
  expect_false(.Call(cuRnet:::C_curnet_prefault_join, NULL))
  expect_error(.Call(cuRnet:::C_curnet_prefault_start, letters, 2L, 0), "integer or double")
})

test_that("results filled while their pages are touched equal those filled without", {
  skip_if_no_engine()
  set.seed(7)
  n <- 6000
  df <- data.frame(from = sample.int(n, 5 * n, TRUE), to = sample.int(n, 5 * n, TRUE),
                   weight = runif(5 * n))
  g <- cuRnet_graph(df)
  src <- sample.int(n, 900)             # 900 x 6000: 21 MB of integers, 43 MB of doubles
  old <- options(cuRnet.prefault_bytes = 0, cuRnet.prefault_threads = 4L)
  on.exit(options(old))
  with_threads <- list(cuRnet_bfs(g, src, integer = TRUE, backend = "cpu"),
                       cuRnet_sssp(g, src[1:200], backend = "cpu"))
  options(cuRnet.prefault_threads = 0L)
  without <- list(cuRnet_bfs(g, src, integer = TRUE, backend = "cpu"),
                  cuRnet_sssp(g, src[1:200], backend = "cpu"))
  expect_identical(with_threads, without)
})
