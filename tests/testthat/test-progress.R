test_that("progress callbacks see every batch; a bar can be drawn", {
  skip_if_no_engine()
  set.seed(2)
  ig <- igraph::sample_gnp(1500, 0.004, directed = TRUE)
  g <- cuRnet_graph(ig)
  seen <- list()
  # the CPU backend's batches (512 sources) make several reports; a GPU takes 3,000 in one batch
  res <- cuRnet_bfs(g, rep(1:1500, 2), backend = "cpu",
                    progress = function(done, total) seen[[length(seen) + 1]] <<- c(done, total))
  expect_gt(length(seen), 1)
  expect_equal(seen[[length(seen)]], c(3000, 3000))
  expect_equal(res[1:5, ], igraph::distances(ig, 1:5, mode = "out"))
  expect_silent(cuRnet_sssp_dists(g, 1:10, progress = FALSE))
  expect_no_error(suppressMessages(cuRnet_bfs(g, 1:600, progress = TRUE)))
})

test_that("an interrupt stops between batches and leaves the graph usable", {
  skip_if_no_engine()
  skip_on_os("windows")
  ig <- igraph::sample_gnp(1500, 0.004, directed = TRUE)
  g <- cuRnet_graph(ig)
  calls <- 0
  ctrl_c <- function(done, total) {
    calls <<- calls + 1
    if (calls == 1) tools::pskill(Sys.getpid(), tools::SIGINT)
  }
  expect_error(cuRnet_bfs(g, rep(1:1500, 2), progress = ctrl_c), class = "cuRnet_interrupted")
  expect_lt(calls, 5)
  expect_equal(cuRnet_bfs(g, 1:3), igraph::distances(ig, 1:3, mode = "out"))
  expect_error(cuRnet_sssp(g, rep(1:1500, 2), progress = ctrl_c <- function(d, t) {
    tools::pskill(Sys.getpid(), tools::SIGINT)
  }), class = "cuRnet_interrupted")
  expect_equal(cuRnet_sssp_dists(g, 1:3), igraph::distances(ig, 1:3, mode = "out"))
})
