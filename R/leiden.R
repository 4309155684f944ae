# Communities by Leiden and Louvain on the engine (python/curnet/analyses/community_detection/):
# drop-ins for igraph's cluster_leiden() and cluster_louvain(), and a sweep over resolutions
# and seeds with a consensus partition.

# The edge weights of an igraph call, checked in R's words: NULL takes the `weight`
# attribute, a lone NA means none; else one positive number an edge.
community_weights <- function(graph, weights) {
  weights <- igraph_weights(graph, weights)
  if (is.null(weights)) return(NULL)
  m <- igraph::ecount(graph)
  if (!is.numeric(weights)) stop("`weights` must be numeric", call. = FALSE)
  if (length(weights) != m) {
    stop(sprintf("`weights` has length %d, but the graph has %d edges", length(weights), m), call. = FALSE)
  }
  if (anyNA(weights)) {
    stop(sprintf("`weights` must not be NA (edge %d is)", which(is.na(weights))[1]), call. = FALSE)
  }
  if (any(weights < 0)) {
    i <- which(weights < 0)[1]
    stop(sprintf("`weights` must be positive: edge %d has weight %g", i, weights[i]), call. = FALSE)
  }
  as.numeric(weights)
}

# The engine's copy of an undirected igraph graph (igraph's rule: both algorithms refuse
# directed graphs).
community_graph <- function(graph, weights, what) {
  if (!igraph::is_igraph(graph)) stop(sprintf("%s() takes an igraph object", what), call. = FALSE)
  if (igraph::is_directed(graph)) {
    stop(sprintf("%s() works on undirected graphs only (as igraph's); use igraph::as.undirected() first",
                 what), call. = FALSE)
  }
  igraph_engine_graph(graph, weights, directed = FALSE)
}

# NULL draws the seed from R's random numbers, so that set.seed() makes a run reproducible,
# as it makes igraph's.
check_seed <- function(seed) {
  if (is.null(seed)) return(sample.int(.Machine$integer.max, 1))
  as.integer(check_number(seed, "seed", lower = 0, upper = .Machine$integer.max, whole = TRUE))
}

# igraph's `communities` object from a 0-based membership.
communities_result <- function(graph, membership, algorithm, fields) {
  out <- c(list(membership = as.numeric(unlist(membership)) + 1), fields)
  out$vcount <- igraph::vcount(graph)
  out$algorithm <- algorithm
  if (igraph::igraph_opt("add.vertex.names") && igraph::is_named(graph)) out$names <- igraph::V(graph)$name
  class(out) <- "communities"
  out
}

#' Communities by the Leiden algorithm
#'
#' A drop-in for \code{igraph::cluster_leiden()} (Traag, Waltman & van Eck 2019): the same
#' arguments, defaults and result, run on the GPU when there is one. Local moving is
#' parallel (every vertex at once, in four random buckets a round), then Leiden's
#' refinement and the aggregation into the graph of communities; every community is
#' connected. With \code{objective_function = "modularity"} the resolution is divided by
#' the total strength and the vertex weights are the strengths, as igraph does.
#' \code{n_iterations} below 1 runs until an iteration no longer raises the quality (by more
#' than a relative 1e-7).
#'
#' The result is igraph's \code{communities} object (\code{membership()}, \code{sizes()},
#' \code{plot()}, ... work on it), with igraph's fields (\code{membership},
#' \code{nb_clusters}, \code{quality}, \code{algorithm}, \code{vcount}) plus
#' \code{modularity} (the membership's modularity, so \code{modularity()} works on it,
#' where igraph 1.3.5's object says it was not calculated). The partition may differ from
#' igraph's (another random order of moves); its quality is on a par.
#'
#' Differences from igraph 1.3.5, which runs silently on these: weights of the wrong length,
#' negative or NA weights are errors here, and so is a directed graph (igraph's own C code
#' refuses it too).
#'
#' @param graph An undirected igraph object.
#' @param objective_function \code{"CPM"} (the default, as igraph's) or \code{"modularity"}.
#' @param weights \code{NULL} uses the \code{weight} edge attribute, \code{NA} ignores it,
#'   or one non-negative number an edge.
#' @param resolution_parameter The resolution (igraph's).
#' @param beta The randomness of the refinement (igraph's), a positive number.
#' @param initial_membership \code{NULL} or a starting membership (one label a vertex).
#' @param n_iterations Iterations of the algorithm; below 1: until stable.
#' @param vertex_weights CPM's vertex weights (1 each when \code{NULL}).
#' @param ... Ignored (igraph's signature).
#' @param seed A whole number: the same seed gives the same result; \code{NULL}: drawn
#'   from R's random numbers, so \code{set.seed()} makes the result reproducible, as with
#'   igraph's (igraph's own partitions are not reproduced: each tool draws its own).
#' @param backend As in \code{\link{cuRnet_bfs}}.
#' @return An igraph \code{communities} object.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_graph("Zachary")
#'   cl <- cuRnet_cluster_leiden(g, objective_function = "modularity", seed = 1)
#'   igraph::sizes(cl)
#'   igraph::modularity(cl)
#' }
#' @export
cuRnet_cluster_leiden <- function(graph, objective_function = c("CPM", "modularity"), weights = NULL,
                                  resolution_parameter = 1, beta = 0.01, initial_membership = NULL,
                                  n_iterations = 2, vertex_weights = NULL, ..., seed = NULL,
                                  backend = getOption("cuRnet.backend", "auto")) {
  objective <- tolower(match.arg(objective_function))
  weights <- community_weights(graph, weights)
  resolution <- check_number(resolution_parameter, "resolution_parameter")
  beta <- check_number(beta, "beta", lower = 0, above = TRUE)
  n_iterations <- check_number(n_iterations, "n_iterations", whole = TRUE)
  n <- igraph::vcount(graph)
  if (!is.null(initial_membership)) {
    if (!is.numeric(initial_membership) || length(initial_membership) != n || anyNA(initial_membership)) {
      stop(sprintf("`initial_membership` must hold one number a vertex (%d), without NA", n), call. = FALSE)
    }
  }
  if (!is.null(vertex_weights)) {
    if (!is.numeric(vertex_weights) || length(vertex_weights) != n || anyNA(vertex_weights) ||
        any(vertex_weights < 0)) {
      stop(sprintf("`vertex_weights` must hold one non-negative number a vertex (%d), without NA", n),
           call. = FALSE)
    }
    if (objective == "modularity") {      # igraph's warning; it then uses them as CPM's
      warning("Providing node weights contradicts using modularity", call. = FALSE)
      objective <- "cpm"
    }
  }
  g <- community_graph(graph, weights, "cuRnet_cluster_leiden")
  res <- engine_call(held_result(engine_module("communities")$leiden_for_r(
    g$py, objective, resolution, beta, if (!is.null(initial_membership)) as.numeric(initial_membership),
    as.integer(n_iterations), if (!is.null(vertex_weights)) as.numeric(vertex_weights), check_seed(seed),
    backend)))
  membership <- as.numeric(res$membership)
  communities_result(graph, membership, "leiden",
                     list(nb_clusters = if (n) max(membership) + 1 else 0, quality = res$quality,
                          modularity = res$modularity))
}

#' Communities by the Louvain method
#'
#' A drop-in for \code{igraph::cluster_louvain()} (Blondel et al. 2008): local moving (every
#' vertex at once, in four random buckets a round) and aggregation until a level merges
#' nothing, then local moving once more on the original vertices, on the GPU when there is
#' one. The result is igraph's \code{communities} object;
#' \code{memberships} holds the final level only, and \code{modularity} its modularity at
#' \code{resolution}.
#'
#' @param graph An undirected igraph object.
#' @param weights As in \code{\link{cuRnet_cluster_leiden}}.
#' @param resolution The resolution (non-negative; 1 is modularity).
#' @param seed,backend As in \code{\link{cuRnet_cluster_leiden}}.
#' @return An igraph \code{communities} object.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_graph("Zachary")
#'   igraph::membership(cuRnet_cluster_louvain(g, seed = 1))
#' }
#' @export
cuRnet_cluster_louvain <- function(graph, weights = NULL, resolution = 1, seed = NULL,
                                   backend = getOption("cuRnet.backend", "auto")) {
  weights <- community_weights(graph, weights)
  resolution <- check_number(resolution, "resolution", lower = 0)
  g <- community_graph(graph, weights, "cuRnet_cluster_louvain")
  res <- engine_call(held_result(engine_module("communities")$louvain_for_r(
    g$py, resolution, check_seed(seed), backend)))
  membership <- as.numeric(res$membership)
  communities_result(graph, membership, "multi level",
                     list(memberships = matrix(membership + 1, nrow = 1), modularity = res$quality))
}

#' Many Leiden or Louvain runs in one call, with their consensus
#'
#' Every resolution with every seed, the graph sent to the device once: a membership matrix
#' (a row a run), each run's quality, a resolution profile, and a consensus partition. On a
#' GPU the runs go together, as one run over copies of the graph (each copy its own
#' resolution): the sweep is reproducible from its seeds, but a row is not the single run of
#' its seed (on the CPU it is). The consensus is Leiden (modularity) on the graph's edges
#' whose two ends share a community in at least \code{threshold} of the runs, each weighted
#' by that share (consensus clustering, Lancichinetti & Fortunato 2012, on the edges as in
#' ECG).
#'
#' @param graph An undirected igraph object.
#' @param resolution_parameter The resolutions.
#' @param seeds The seeds (whole numbers), each run at every resolution.
#' @param method \code{"leiden"} or \code{"louvain"}.
#' @param objective_function As in \code{\link{cuRnet_cluster_leiden}} (Leiden only; here
#'   \code{"modularity"} by default).
#' @param weights,beta,n_iterations As in \code{\link{cuRnet_cluster_leiden}}.
#' @param threshold The share of runs that must agree for an edge to count in the consensus.
#' @param backend As in \code{\link{cuRnet_bfs}}.
#' @return A list: \code{memberships} (runs x vertices, 1-based), \code{quality},
#'   \code{resolution} and \code{seed} of each run, \code{profile} (a data frame: a row a
#'   resolution, the median number of communities, quality and largest community over the
#'   seeds) and \code{consensus} (an igraph \code{communities} object).
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_graph("Zachary")
#'   s <- cuRnet_cluster_sweep(g, resolution_parameter = c(0.5, 1, 2), seeds = 1:5)
#'   s$profile
#'   igraph::membership(s$consensus)
#' }
#' @export
cuRnet_cluster_sweep <- function(graph, resolution_parameter = c(0.5, 1, 2), seeds = 1:10,
                                 method = c("leiden", "louvain"),
                                 objective_function = c("modularity", "CPM"), weights = NULL, beta = 0.01,
                                 n_iterations = 2, threshold = 0.5,
                                 backend = getOption("cuRnet.backend", "auto")) {
  method <- match.arg(method)
  objective <- tolower(match.arg(objective_function))
  weights <- community_weights(graph, weights)
  if (!is.numeric(resolution_parameter) || !length(resolution_parameter) ||
      any(!is.finite(resolution_parameter))) {
    stop("`resolution_parameter` must hold finite numbers", call. = FALSE)
  }
  if (method == "louvain" && any(resolution_parameter < 0)) {
    stop("`resolution_parameter` must be non-negative for Louvain", call. = FALSE)
  }
  if (!is.numeric(seeds) || !length(seeds) || anyNA(seeds) || any(seeds != round(seeds)) || any(seeds < 0)) {
    stop("`seeds` must hold non-negative whole numbers", call. = FALSE)
  }
  beta <- check_number(beta, "beta", lower = 0, above = TRUE)
  n_iterations <- check_number(n_iterations, "n_iterations", whole = TRUE)
  threshold <- check_number(threshold, "threshold", lower = 0, upper = 1)
  g <- community_graph(graph, weights, "cuRnet_cluster_sweep")
  res <- engine_call(held_result(engine_module("communities")$sweep_for_r(
    g$py, method, objective, as.list(as.numeric(resolution_parameter)), as.list(as.integer(seeds)), beta,
    as.integer(n_iterations), threshold, backend)))
  n <- igraph::vcount(graph)
  memberships <- matrix(as.numeric(res$memberships) + 1, nrow = res$runs, ncol = n)
  if (igraph::is_named(graph)) colnames(memberships) <- igraph::V(graph)$name
  consensus <- as.numeric(res$consensus)
  profile <- as.data.frame(lapply(res$profile, as.numeric))
  list(memberships = memberships, quality = as.numeric(res$quality),
       resolution = as.numeric(res$resolution), seed = as.integer(res$seed),
       profile = profile,
       consensus = communities_result(graph, consensus, "consensus",
                                      list(nb_clusters = if (n) max(consensus) + 1 else 0,
                                           modularity = res$consensus_modularity)))
}
