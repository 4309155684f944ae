# Network propagation by the engine (python/curnet/propagation/): PageRank, diffuStats'
# diffusion scores and graph kernels, for one vector or a matrix of many sets at once.

#' PageRank and personalized PageRank, many personalizations at once
#'
#' A drop-in for \code{igraph::page_rank()}: the same arguments and result (\code{$vector},
#' \code{$value}, \code{$options}), equal to igraph's PRPACK answer to about 1e-10. A walker
#' follows an out-edge (chosen in proportion to its weight) with probability \code{damping},
#' else jumps to a vertex drawn from \code{personalized} (uniform when \code{NULL}); a walker
#' on a vertex without out-edges jumps the same way, as igraph does. The power iteration runs
#' on the GPU when there is one (\code{backend}), every column of a matrix \code{personalized}
#' in the same sparse x dense product, each stopping when its error is below \code{tol}.
#'
#' \code{personalized} may be a matrix with a row a vertex (in vertex order, or matched by
#' its row names to the vertex names) and a column a set: \code{$vector} is then a matrix
#' with a column a set. \code{algo} is accepted for igraph's sake: both give PRPACK's answer.
#' On a disconnected graph a component gets rank only through the jumps.
#'
#' @param graph An igraph object.
#' @param algo Accepted, ignored (\code{"prpack"} or \code{"arpack"}: the same answer).
#' @param vids The vertices whose ranks are returned.
#' @param directed Whether to follow edge directions.
#' @param damping The probability of following an edge, in [0, 1).
#' @param personalized \code{NULL}, a non-negative vector of one value a vertex, or a matrix
#'   of such columns; each is rescaled to sum to 1.
#' @param weights Edge weights (non-negative); \code{NULL} uses the \code{weight} edge
#'   attribute when there is one, \code{NA} ignores it.
#' @param options Must be \code{NULL} (ARPACK's settings do not apply).
#' @param tol Each column's bound on its L1 error.
#' @param max_iter The most power-iteration steps (a warning when a column needs more).
#' @param backend \code{"auto"}, \code{"cpu"} or \code{"cuda"}.
#' @return A list: \code{vector} (named ranks, or a vertices x sets matrix), \code{value}
#'   (1) and \code{options} (\code{NULL}, as igraph's PRPACK).
#' @examples
#' \dontrun{
#' g <- igraph::sample_gnm(1000, 5000, directed = TRUE)
#' pr <- cuRnet_page_rank(g, personalized = diag(1000)[, 1:10])
#' }
#' @export
cuRnet_page_rank <- function(graph, algo = c("prpack", "arpack"), vids = igraph::V(graph), directed = TRUE,
                             damping = 0.85, personalized = NULL, weights = NULL, options = NULL,
                             tol = 1e-10, max_iter = 10000L, backend = getOption("cuRnet.backend", "auto")) {
  check_igraph(graph)
  match.arg(algo)
  if (!is.null(options)) stop("options (ARPACK's settings) do not apply: leave options = NULL", call. = FALSE)
  damping <- check_number(damping, "damping", lower = 0, upper = 1)
  if (damping == 1) stop("`damping` must be below 1 (at 1 the walk never jumps)", call. = FALSE)
  check_number(tol, "tol", lower = 0, above = TRUE)
  check_number(max_iter, "max_iter", lower = 1, whole = TRUE)
  g <- propagation_graph(graph, weights)
  n <- igraph::vcount(graph)
  p <- if (!is.null(personalized)) propagation_matrix(personalized, graph, "personalized", nonnegative = TRUE)
  k <- if (is.null(p)) 1L else ncol(p)
  out <- new_result("double", n, k)
  engine_call(engine_module("propagation")$page_rank_for_r(
    g$py, data_address(out), if (!is.null(p)) as_arrow(as.double(p)), k, as.double(damping),
    isTRUE(directed), as.double(tol), as.integer(max_iter), backend))
  keep <- as.integer(igraph::V(graph)[vids])
  names <- igraph::V(graph)$name
  vector <- if (is.null(p) || !is.matrix(personalized)) {
    v <- out[keep, 1]
    if (!is.null(names)) names(v) <- names[keep]
    v
  } else {
    m <- out[keep, , drop = FALSE]
    dimnames(m) <- list(names[keep], colnames(personalized))
    m
  }
  list(vector = vector, value = 1, options = NULL)
}

#' diffuStats' diffusion scores, computed without a dense kernel
#'
#' A drop-in for \code{diffuStats::diffuse()}: the same arguments, methods and score
#' definitions (Picart-Armada et al. 2018), for a named vector, a matrix (a column a set of
#' scores) or a named list of matrices of scores. The kernel is applied as products on the
#' engine (conjugate gradients for the regularized Laplacian, a Taylor series for the
#' diffusion kernel, a random walk with restart for \code{"pagerank"}), so networks too
#' large for diffuStats' dense kernels fit.
#'
#' Scores are named by vertex: the named vertices are the background (the labelled
#' vertices); the others are unlabelled. Unnamed scores must have one value a vertex.
#' Methods: \code{raw} (K y), \code{ml} (negatives at -1), \code{gm} (unlabelled vertices
#' at (n+ - n-) / n), \code{ber_s} (raw / (y + eps)), \code{z} (raw standardized by its exact
#' mean and variance under permutations of the input), \code{mc} (1 - p, p the share of
#' \code{n.perm} input permutations scoring higher, (r + 1) / (n.perm + 1)) and \code{ber_p}
#' (-log10(p) raw). The permutations are the engine's (\code{seed}), not R's: \code{mc} and
#' \code{ber_p} agree with diffuStats in distribution, not draw for draw. Edge directions are
#' ignored by the Laplacian kernels (diffuStats refuses directed graphs).
#'
#' @param graph An igraph object.
#' @param scores A named numeric vector, a matrix with row names, or a named list of such
#'   matrices (each its own background).
#' @param method One of \code{"raw"}, \code{"ml"}, \code{"gm"}, \code{"ber_s"}, \code{"z"},
#'   \code{"mc"}, \code{"ber_p"}.
#' @param kernel \code{"regularized_laplacian"} (diffuStats' default),
#'   \code{"diffusion"} or \code{"pagerank"}.
#' @param sigma2,add_diag,normalized The kernel's parameters, as diffuStats'
#'   \code{regularisedLaplacianKernel} and \code{diffusionKernel} (\code{normalized = NULL}:
#'   their defaults, FALSE and TRUE).
#' @param restart The \code{"pagerank"} kernel's restart probability.
#' @param eps \code{ber_s}'s offset.
#' @param n.perm,seed The permutations of \code{mc} and \code{ber_p}.
#' @param weights Edge weights (non-negative); \code{NULL}: the \code{weight} attribute.
#' @param ... Refused (diffuStats' \code{sample.prob} and \code{K} are not supported).
#' @param backend \code{"auto"}, \code{"cpu"} or \code{"cuda"}.
#' @return Scores of every vertex, in the format of \code{scores}.
#' @export
cuRnet_diffuse <- function(graph, scores, method = "raw", ..., kernel = "regularized_laplacian", sigma2 = 1,
                           add_diag = 1, normalized = NULL, restart = NULL, eps = 1, n.perm = 10000L,
                           seed = 1L, weights = NULL, backend = getOption("cuRnet.backend", "auto")) {
  check_igraph(graph)
  if (...length()) {
    stop("cuRnet_diffuse: argument(s) ", paste(names(list(...)), collapse = ", "),
         " not supported (diffuStats' sample.prob and K are not)", call. = FALSE)
  }
  if (is.list(scores) && !is.data.frame(scores)) {
    return(lapply(scores, function(s) cuRnet_diffuse(graph, s, method, kernel = kernel, sigma2 = sigma2,
                                                     add_diag = add_diag, normalized = normalized,
                                                     restart = restart, eps = eps, n.perm = n.perm,
                                                     seed = seed, weights = weights, backend = backend)))
  }
  method <- match.arg(method, c("raw", "ml", "gm", "ber_s", "z", "mc", "ber_p"))
  kernel <- match.arg(kernel, c("regularized_laplacian", "diffusion", "pagerank"))
  check_kernel_options(sigma2, add_diag, restart, normalized)
  check_number(eps, "eps")
  check_number(n.perm, "n.perm", lower = 1, whole = TRUE)
  check_number(seed, "seed", whole = TRUE)
  g <- propagation_graph(graph, weights)
  n <- igraph::vcount(graph)
  input <- diffusion_input(scores, graph)
  k <- ncol(input$y)
  out <- new_result("double", n, k)
  engine_call(engine_module("propagation")$diffuse_for_r(
    g$py, data_address(out), as_arrow(as.double(input$y)), k,
    if (!is.null(input$background)) as_arrow(input$background - 1L), method, kernel, as.double(sigma2),
    as.double(add_diag), normalized, if (!is.null(restart)) as.double(restart), as.double(eps),
    as.integer(n.perm), as.integer(seed), backend = backend))
  names <- igraph::V(graph)$name
  if (is.matrix(scores)) {
    dimnames(out) <- list(names, colnames(scores))
    out
  } else {
    v <- out[, 1]
    names(v) <- names
    v
  }
}

#' Graph kernels as dense matrices, computed on the GPU
#'
#' The regularized Laplacian kernel \eqn{(add\_diag I + \sigma^2 L)^{-1}}, the diffusion
#' kernel \eqn{e^{-\sigma^2 L / 2}} (diffuStats' \code{regularisedLaplacianKernel} and
#' \code{diffusionKernel}, with their defaults) or the random walk with restart's kernel
#' \eqn{r (I - (1 - r) W)^{-1}}, \eqn{W} the column-stochastic walk. The matrix has
#' \eqn{n^2} doubles (20,000 vertices: 3.2 GB).
#'
#' @inheritParams cuRnet_diffuse
#' @param directed Whether the \code{"pagerank"} kernel follows edge directions.
#' @return An n x n matrix, with the vertex names as dimnames.
#' @export
cuRnet_diffusion_kernel <- function(graph, kernel = c("regularized_laplacian", "diffusion", "pagerank"),
                                    sigma2 = 1, add_diag = 1, normalized = NULL, restart = NULL,
                                    directed = TRUE, weights = NULL,
                                    backend = getOption("cuRnet.backend", "auto")) {
  check_igraph(graph)
  kernel <- match.arg(kernel)
  check_kernel_options(sigma2, add_diag, restart, normalized)
  g <- propagation_graph(graph, weights)
  n <- igraph::vcount(graph)
  engine_call(engine_module("handoff")$check_result_fits(n, n, 8L))
  out <- new_result("double", n, n)
  engine_call(engine_module("propagation")$diffusion_kernel_for_r(
    g$py, data_address(out), kernel, as.double(sigma2), as.double(add_diag), normalized,
    if (!is.null(restart)) as.double(restart), isTRUE(directed), backend))
  names <- igraph::V(graph)$name
  if (!is.null(names)) dimnames(out) <- list(names, names)
  out
}

#' Permutation null of a propagation: z-scores and p-values from degree-matched seed sets
#'
#' Propagates the seed set, then \code{n} random sets of its size, and scores every vertex
#' against them, as NetColoc's \code{netprop_zscore} and diffuStats' Monte Carlo scores do.
#' Each random set replaces every seed by a random vertex of its degree bin (degrees
#' ignoring directions; consecutive degrees grouped until a bin holds \code{bin_size}
#' vertices, a short last bin merged, as \code{cuRnet_proximity}), with no vertex twice in a
#' set; \code{degree_matched = FALSE} draws uniformly. All random sets are propagated
#' together, in blocks, as the columns of one matrix.
#'
#' \code{kernel = "pagerank"} is the random walk with restart (each seed weighs 1 / the set's
#' size; NetColoc's \code{alpha} is \code{1 - restart}); the Laplacian kernels give each seed
#' 1, diffuStats' raw input. \code{z} is (observed - mean) / sd over the \code{n} draws (the
#' sd divided by \code{n}; NaN where the null never varies, e.g. a component the seeds cannot
#' reach) and \code{p} is (1 + the draws scoring at least the observed value) / (n + 1).
#' The draws come from the engine's seeded generator (\code{seed}), not R's.
#'
#' @param graph An igraph object.
#' @param seeds The seed set: vertex names or 1-based vertex indices.
#' @param n The number of random sets (at least 2).
#' @param degree_matched Whether each random seed is drawn from its seed's degree bin.
#' @param bin_size The fewest vertices a degree bin holds.
#' @param seed The seed of the draws: the same call gives the same draws.
#' @param kernel \code{"pagerank"} (the random walk with restart), \code{"regularized_laplacian"}
#'   or \code{"diffusion"}.
#' @param restart The random walk's restart probability (\code{NULL}: 0.3); only for
#'   \code{kernel = "pagerank"}.
#' @param sigma2,add_diag,normalized The Laplacian kernels' parameters, as \code{cuRnet_diffuse}.
#' @param directed Whether the walk follows edge directions.
#' @param weights Edge weights (non-negative); \code{NULL}: the \code{weight} attribute.
#' @param tol Each propagation's bound on its error (relative to the seed vector's norm).
#' @param max_iter The most iteration steps.
#' @param backend \code{"auto"}, \code{"cpu"} or \code{"cuda"}.
#' @return A list: \code{scores}, a data frame with a row a vertex (\code{vertex}: name or
#'   index; \code{observed}, the seed set's propagation; the null's \code{mean} and \code{sd};
#'   \code{z}; \code{p}; \code{bin}, the vertex's degree bin, 1-based, all 1 without degree
#'   matching), and \code{draws}, an \code{n} x set-size matrix of the random sets' 1-based
#'   vertex indices (a row a set, a column a seed).
#' @examples
#' \dontrun{
#' g <- igraph::sample_gnm(2000, 10000)
#' null <- cuRnet_propagation_null(g, 1:20, n = 1000, restart = 0.5)
#' head(null$scores[order(-null$scores$z), ])
#' }
#' @export
cuRnet_propagation_null <- function(graph, seeds, n = 1000, degree_matched = TRUE, bin_size = 100, seed = 0,
                                    kernel = c("pagerank", "regularized_laplacian", "diffusion"),
                                    restart = NULL, sigma2 = 1, add_diag = 1, normalized = NULL,
                                    directed = TRUE, weights = NULL, tol = 1e-10, max_iter = 10000L,
                                    backend = getOption("cuRnet.backend", "auto")) {
  check_igraph(graph)
  kernel <- match.arg(kernel)
  n <- check_number(n, "n", lower = 2, whole = TRUE)
  check_flag(degree_matched, "degree_matched")
  bin_size <- check_number(bin_size, "bin_size", lower = 1, whole = TRUE)
  seed <- check_number(seed, "seed", lower = 0, whole = TRUE)
  check_kernel_options(sigma2, add_diag, restart, normalized)
  check_flag(directed, "directed")
  check_number(tol, "tol", lower = 0, above = TRUE)
  check_number(max_iter, "max_iter", lower = 1, whole = TRUE)
  if (!length(seeds)) stop("seeds is empty", call. = FALSE)
  g <- propagation_graph(graph, weights)
  ids <- unique(vertex_ids(g, seeds, "seed"))
  nv <- igraph::vcount(graph)
  if (length(ids) >= nv) stop("seeds hold every vertex: no random set can differ from them", call. = FALSE)
  stats <- new_result("double", nv, 6L)
  draws <- new_result("integer", n, length(ids))
  engine_call(engine_module("propagation")$propagation_null_for_r(
    g$py, as.list(ids), data_address(stats), data_address(draws), as.integer(n), degree_matched,
    as.integer(bin_size), as.integer(seed), kernel, if (!is.null(restart)) as.double(restart),
    as.double(sigma2), as.double(add_diag), normalized, directed, as.double(tol), as.integer(max_iter),
    backend))
  names <- igraph::V(graph)$name
  scores <- data.frame(vertex = if (is.null(names)) seq_len(nv) else names, observed = stats[, 1],
                       mean = stats[, 2], sd = stats[, 3], z = stats[, 4], p = stats[, 5],
                       bin = as.integer(stats[, 6]) + 1L, stringsAsFactors = FALSE)
  list(scores = scores, draws = draws + 1L)
}

# A vertices x sets matrix from a vector or matrix of one value a vertex: in vertex order,
# or matched by (row) names to the vertex names.
propagation_matrix <- function(x, graph, what, nonnegative = FALSE) {
  m <- score_matrix(x, what)
  if (nonnegative && any(m < 0)) stop(what, " contains negative values", call. = FALSE)
  n <- igraph::vcount(graph)
  vnames <- igraph::V(graph)$name
  if (!is.null(rownames(m)) && !is.null(vnames)) {
    i <- match(vnames, rownames(m))
    unknown <- setdiff(rownames(m), vnames)
    if (length(unknown)) stop(what, ": ", show_some(unknown), " not in the graph", call. = FALSE)
    full <- matrix(0, n, ncol(m))
    full[!is.na(i), ] <- m[i[!is.na(i)], ]
    return(full)
  }
  if (nrow(m) != n) {
    stop(what, " has ", nrow(m), " values a column but the graph has ", n, " vertices", call. = FALSE)
  }
  m
}

# diffuStats' input: the scores of the named vertices (the background), 0 elsewhere.
diffusion_input <- function(scores, graph) {
  m <- score_matrix(scores, "scores")
  vnames <- igraph::V(graph)$name
  if (is.null(rownames(m))) {
    if (nrow(m) != igraph::vcount(graph)) {
      stop("scores without names must have one value a vertex (", igraph::vcount(graph), "), not ",
           nrow(m), call. = FALSE)
    }
    return(list(y = m, background = NULL))
  }
  if (is.null(vnames)) stop("scores are named, but the graph's vertices have no names", call. = FALSE)
  i <- match(rownames(m), vnames)
  if (anyNA(i)) {
    stop("scores: ", show_some(unique(rownames(m)[is.na(i)])), " not in the graph", call. = FALSE)
  }
  y <- matrix(0, igraph::vcount(graph), ncol(m))
  y[i, ] <- m
  list(y = y, background = i)
}

# A numeric matrix with a row a vertex and a column a set, from a vector or a matrix (its
# names, or row names, kept); NA refused.
score_matrix <- function(x, what) {
  m <- if (is.matrix(x)) x else matrix(x, ncol = 1, dimnames = list(names(x), NULL))
  if (!is.numeric(m)) stop(what, " must be numeric", call. = FALSE)
  if (anyNA(m)) stop(what, " contains NA", call. = FALSE)
  m
}

check_igraph <- function(graph) {
  if (!igraph::is_igraph(graph)) stop("graph must be an igraph object", call. = FALSE)
}

# The engine graph of an igraph object with igraph's `weights` (NULL: the weight attribute,
# NA: none), converted once and kept with the object (R/igraph.R).
propagation_graph <- function(graph, weights) igraph_engine_graph(graph, igraph_weights(graph, weights))

# The kernels' parameters: the Laplacian kernels' sigma2, add_diag and normalized, the random
# walk's restart (NULL: the kernel's default).
check_kernel_options <- function(sigma2, add_diag, restart, normalized) {
  check_number(sigma2, "sigma2", lower = 0, above = TRUE)
  check_number(add_diag, "add_diag", lower = 0, above = TRUE)
  if (!is.null(restart)) check_number(restart, "restart", lower = 0, upper = 1, above = TRUE)
  if (!is.null(normalized)) check_flag(normalized, "normalized")
}
