# The backend argument, what cuRnet_info() says about the last call, and (on a GPU machine)
# the CUDA backend against the CPU backend and igraph. GPU tests skip where no GPU is usable.

last_run <- function() cuRnet_info()$last_run

test_that("backend = 'cpu' runs on the CPU and cuRnet_info() says so", {
  skip_if_no_engine()
  g <- cuRnet_graph(igraph::make_ring(6, directed = TRUE))
  expect_equal(cuRnet_bfs(g, 1, backend = "cpu")[1, ], 0:5)
  run <- last_run()
  expect_equal(run[c("algorithm", "asked", "backend")], list(algorithm = "bfs", asked = "cpu", backend = "cpu"))
  expect_null(run$why)
  cuRnet_scc(g, backend = "cpu")
  expect_equal(last_run()$algorithm, "scc")
})

test_that("backend = 'auto' says where it ran and why; the option sets the default", {
  skip_if_no_engine()
  g <- cuRnet_graph(igraph::make_ring(6))
  cuRnet_sssp(g, 2)
  run <- last_run()
  expect_equal(run$asked, "auto")
  expect_equal(run$backend, cuRnet_info()$auto_backend)
  expect_match(run$why, if (run$backend == "cuda") "usable GPU was found" else "no usable GPU")
  old <- options(cuRnet.backend = "cpu")
  on.exit(options(old))
  cuRnet_sssp_dists(g, 1)
  expect_equal(last_run()$asked, "cpu")
  cuRnet_distances(igraph::make_ring(4), 1)
  expect_equal(last_run()[c("algorithm", "asked")], list(algorithm = "bfs", asked = "cpu"))
})

test_that("an unknown backend, or a GPU backend without a GPU, is the engine's error", {
  skip_if_no_engine()
  g <- cuRnet_graph(igraph::make_ring(4))
  for (f in list(function(b) cuRnet_bfs(g, 1, backend = b), function(b) cuRnet_scc(g, backend = b),
                 function(b) cuRnet_sssp(g, 1, backend = b))) {
    expect_error(f("gpu"), "backend must be one of 'auto', 'cpu', 'cuda'.*got 'gpu'", class = "cuRnet_error")
    expect_error(f("cuda:x"), "write 'cuda:0', 'cuda:0,1' or 'cuda:all'|no usable GPU")
  }
  skip_if(cuRnet_info()$auto_backend == "cuda", "a GPU is usable here")
  expect_error(cuRnet_bfs(g, 1, backend = "cuda"), "BackendUnavailableError: backend='cuda' was asked for",
               class = "cuRnet_error")
  expect_error(cuRnet_distances(igraph::make_ring(4), 1, backend = "cuda:all"), "no usable GPU")
})

# -- on a GPU -------------------------------------------------------------------------------
skip_if_no_gpu <- function() {
  skip_if_no_engine()
  skip_if_not(cuRnet_info()$auto_backend == "cuda", "no usable GPU (CUDA backend tests)")
}

gpu_graph <- function(n = 3000, directed = TRUE, weighted = TRUE, seed = 21) {
  set.seed(seed)
  ig <- igraph::sample_gnm(n, 4 * n, directed = directed)
  igraph::V(ig)$name <- sprintf("p%05d", seq_len(n))
  if (weighted) igraph::E(ig)$weight <- stats::runif(igraph::ecount(ig), 0.1, 3)
  ig
}

test_that("GPU: BFS on backend 'cuda' equals the CPU backend and igraph, every mode and layout", {
  skip_if_no_gpu()
  ig <- gpu_graph(weighted = FALSE)
  g <- cuRnet_graph(ig)
  src <- sample(igraph::vcount(ig), 300)
  for (mode in c("out", "in", "all")) {
    gpu <- cuRnet_bfs(g, src, mode = mode, backend = "cuda")
    expect_equal(last_run()$backend, "cuda")
    expect_identical(gpu, cuRnet_bfs(g, src, mode = mode, backend = "cpu"))
    expect_equal(gpu, igraph::distances(ig, src, mode = mode))
    expect_identical(cuRnet_bfs(g, src, integer = TRUE, mode = mode, backend = "cuda"),
                     cuRnet_bfs(g, src, integer = TRUE, mode = mode, backend = "cpu"))
  }
  expect_equal(cuRnet_bfs(g, src[1:5], to = 10:1, backend = "cuda:0"),
               igraph::distances(ig, src[1:5], to = 10:1, mode = "out"))
  all_gpus <- cuRnet_bfs(g, src, backend = "cuda:all")
  expect_equal(last_run()$asked, "cuda:all")
  expect_equal(all_gpus, cuRnet_bfs(g, src, backend = "cpu"))
})

test_that("GPU: SSSP on backend 'cuda' equals the CPU backend and igraph; predecessors valid", {
  skip_if_no_gpu()
  ig <- gpu_graph()
  g <- cuRnet_graph(ig)
  src <- sample(igraph::vcount(ig), 100)
  gpu <- cuRnet_sssp(g, src, predecessors = "index", backend = "cuda")
  expect_equal(gpu$distances, cuRnet_sssp_dists(g, src, backend = "cpu"), tolerance = 1e-9)
  expect_equal(gpu$distances, igraph::distances(ig, src, mode = "out"), tolerance = 1e-9)
  expect_valid_predecessors(ig, gpu, src)
  names <- cuRnet_sssp(g, src[1:10], backend = "cuda")$predecessors
  expect_identical(names, matrix(c("", igraph::V(ig)$name)[ifelse(is.na(gpu$predecessors[1:10, ]), 0,
                                                                  gpu$predecessors[1:10, ]) + 1],
                                 10, dimnames = dimnames(names)))
  expect_equal(cuRnet_sssp_dists(g, src, mode = "all", backend = "cuda"),
               igraph::distances(ig, src, mode = "all"), tolerance = 1e-9)
  expect_equal(cuRnet_distances(ig, src[1:20], mode = "in", backend = "cuda"),
               igraph::distances(ig, src[1:20], mode = "in"), tolerance = 1e-9)
})

test_that("GPU: SSSP on a single-precision graph agrees with igraph to 1e-6; predecessors valid", {
  skip_if_no_gpu()
  ig <- gpu_graph()
  g <- cuRnet_graph(ig, precision = "single")
  src <- sample(igraph::vcount(ig), 100)
  ref <- igraph::distances(ig, src, mode = "out")
  for (sources in list(src, src[1:3])) {
    k <- length(sources)
    gpu <- cuRnet_sssp(g, sources, predecessors = "index", backend = "cuda")
    expect_equal(last_run()$backend, "cuda")
    expect_equal(gpu$distances, ref[seq_len(k), , drop = FALSE], tolerance = 1e-6)
    expect_equal(gpu$distances, cuRnet_sssp_dists(g, sources, backend = "cpu"), tolerance = 1e-6)
    expect_valid_predecessors(ig, gpu, sources, tolerance = 1e-6)
  }
  names <- cuRnet_sssp(g, src[1:10], backend = "cuda", source_predecessor = "self")$predecessors
  expect_identical(unname(names[cbind(1:10, src[1:10])]), igraph::V(ig)$name[src[1:10]])
  expect_equal(cuRnet_sssp_dists(g, src, mode = "all", backend = "cuda"),
               igraph::distances(ig, src, mode = "all"), tolerance = 1e-6)
})

test_that("GPU: negative weights and negative cycles on backend 'cuda'", {
  skip_if_no_gpu()
  ig <- gpu_graph(2000)
  w <- igraph::E(ig)$weight
  igraph::E(ig)$weight <- ifelse(seq_along(w) %% 7 == 0, -0.05, w)
  ref <- try(igraph::distances(ig, 1:30, mode = "out", algorithm = "bellman-ford"), silent = TRUE)
  skip_if(inherits(ref, "try-error"), "this random graph has a negative cycle")
  expect_equal(cuRnet_distances(ig, 1:30, mode = "out", backend = "cuda"), ref, tolerance = 1e-9)
  cyc <- cuRnet_graph(data.frame(from = c("s", "a", "b"), to = c("a", "b", "a"), weight = c(1, -3, 1)))
  e <- expect_error(cuRnet_sssp(cyc, "s", backend = "cuda"), class = "cuRnet_negative_cycle")
  expect_equal(list(e$source, e$source_name), list(1L, "s"))
})

test_that("GPU: SCC and weak components on backend 'cuda' equal the CPU backend and igraph", {
  skip_if_no_gpu()
  ig <- gpu_graph(20000, weighted = FALSE)
  ig <- igraph::delete_edges(ig, sample(igraph::ecount(ig), igraph::ecount(ig) * 0.7))
  g <- cuRnet_graph(ig)
  expect_identical(cuRnet_scc(g, backend = "cuda"), cuRnet_scc(g, backend = "cpu"))
  expect_equal(cuRnet_components(g, backend = "cuda"), igraph::components(ig))
  ref <- igraph::components(ig, "strong")
  got <- cuRnet_components(g, "strong", backend = "cuda")
  expect_equal(c(got$no, sort(got$csize)), c(ref$no, sort(ref$csize)))
})
