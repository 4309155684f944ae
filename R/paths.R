#' Shortest paths as vertex and edge sequences, with igraph's shortest_paths() interface
#'
#' The arguments, defaults and result of \code{igraph::shortest_paths()}
#' (igraph 1.3): the paths from one vertex to many, as vertices and as edges,
#' and optionally the shortest-path tree. Weighted graphs use shortest paths
#' (negative weights allowed on directed graphs), unweighted ones count hops.
#' Where several shortest paths tie, any one of them may be returned.
#'
#' @param graph An igraph object, or a \code{\link{cuRnet_graph}} (or anything
#'   \code{cuRnet_graph()} takes). Edge ids are the graph's own: igraph's
#'   \code{E(graph)} order, or the rows of the data frame the graph was built from.
#' @param from The source vertex (one; name or 1-based index).
#' @param to Target vertices; all vertices by default.
#' @param mode \code{"out"} follows the edges, \code{"in"} goes against them,
#'   \code{"all"} ignores their direction.
#' @param weights \code{NULL} uses the graph's weights (igraph: the \code{weight}
#'   edge attribute), \code{NA} counts hops; for igraph objects also a numeric
#'   vector, one weight an edge.
#' @param output \code{"vpath"}, \code{"epath"} or \code{"both"}.
#' @param predecessors,inbound.edges Also return, for every vertex, its
#'   predecessor and the edge that reaches it on the tree of shortest paths
#'   (igraph 1.3's numbers: the source's predecessor is itself, 0 for none).
#' @param algorithm As igraph's: \code{"unweighted"} counts hops; the others use
#'   the weights when there are any.
#' @param backend As in \code{\link{cuRnet_bfs}}.
#' @return A list: \code{vpath} (a list, one vector of vertex indices a target,
#'   empty where it is not reached; \code{igraph.vs} sequences for igraph
#'   objects when igraph's \code{return.vs.es} option is on), \code{epath}
#'   (likewise, edge indices), \code{predecessors} and \code{inbound_edges}
#'   (numeric vectors), each \code{NULL} unless asked for. A warning names
#'   unreached targets, as igraph's does.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_graph(~ A - B - C - D, A - C)
#'   cuRnet_shortest_paths(g, "A", c("D", "B"), output = "both")
#'   edges <- data.frame(from = c("a", "b", "a"), to = c("b", "c", "c"), weight = c(1, 1, 5))
#'   cuRnet_shortest_paths(cuRnet_graph(edges), "a", "c", output = "epath")$epath
#' }
#' @export
cuRnet_shortest_paths <- function(graph, from, to = NULL, mode = c("out", "all", "in"),
                                  weights = NULL, output = c("vpath", "epath", "both"),
                                  predecessors = FALSE, inbound.edges = FALSE,
                                  algorithm = c("automatic", "unweighted", "dijkstra", "bellman-ford"),
                                  backend = getOption("cuRnet.backend", "auto")) {
  mode <- match.arg(mode)
  output <- match.arg(output)
  algorithm <- match.arg(algorithm)
  ig <- if (igraph::is_igraph(graph)) graph
  g <- weighted_graph(graph, weights)
  if (length(from) != 1) stop("`from` must be one vertex", call. = FALSE)
  source <- vertex_ids(g, if (!is.null(ig)) as.integer(igraph::V(ig)[from]) else from)
  targets <- if (is.null(to)) NULL else vertex_ids(g, if (!is.null(ig)) as.integer(igraph::V(ig)[to]) else to)
  res <- engine_call(held_result(engine_module("paths")$shortest_paths_for_r(
    g$py, source, if (!is.null(targets)) as_arrow(targets), mode, g$use_weights && algorithm != "unweighted",
    output, isTRUE(predecessors), isTRUE(inbound.edges), backend)))
  split_paths <- function(flat, len) {
    if (is.null(flat)) return(NULL)
    ends <- cumsum(len)
    lapply(seq_along(ends), function(i) flat[seq_len(len[i]) + ends[i] - len[i]] + 1)
  }
  vpath <- split_paths(res$vpath, res$vpath_lengths)
  epath <- split_paths(res$epath, res$epath_lengths)
  lengths <- res$vpath_lengths
  if (!is.null(lengths) && any(lengths == 0)) warning("Couldn't reach some vertices", call. = FALSE)
  as_seq <- !is.null(ig) && isTRUE(igraph::igraph_opt("return.vs.es"))
  if (as_seq) {
    vs <- igraph::V(ig)
    es <- igraph::E(ig)
    vpath <- if (!is.null(vpath)) lapply(vpath, function(v) vs[as.numeric(v)])
    epath <- if (!is.null(epath)) lapply(epath, function(e) es[as.numeric(e)])
  } else if (!is.null(g$names) && !is.null(vpath)) {
    vpath <- lapply(vpath, function(v) structure(v, names = g$names[v]))
  }
  tree <- function(x, self) {
    if (is.null(x)) return(NULL)
    x <- x + 1   # engine's -1 (none) becomes igraph's 0
    x[source + 1L] <- self
    x
  }
  list(vpath = if (output != "epath") vpath,
       epath = if (output != "vpath") epath,
       predecessors = tree(res$predecessors, source + 1),
       inbound_edges = tree(res$inbound_edges, 0))
}

#' Network proximity of gene sets to a disease module, with z-scores
#'
#' The proximity of Guney et al. (Nat. Commun. 2016) between each set (e.g. a
#' drug's targets) and a module (e.g. disease genes), and the separation of
#' Menche et al. (Science 2015), each against a reference distribution of
#' random sets that keep the degrees of the originals (vertices binned by
#' degree, at least \code{bin_size} a bin, as the paper's code does). One
#' many-source traversal serves every set, every random set and every measure.
#'
#' Measures, with \eqn{d(s, t)} the shortest-path length (hops by default):
#' \describe{
#'   \item{closest}{mean over \eqn{t} in the set of the distance to the nearest module vertex}
#'   \item{shortest}{mean distance over all (module, set) pairs}
#'   \item{kernel}{\eqn{-mean_t \ln mean_s e^{-(d(s,t)+1)}}}
#'   \item{centre}{mean distance from the module's centre (its vertex with the
#'     smallest total distance to the module) to the set}
#'   \item{separation}{\eqn{s_{AB} = <d_{AB}> - (<d_{AA}> + <d_{BB}>)/2}}
#' }
#'
#' @param graph A \code{\link{cuRnet_graph}} (or anything \code{cuRnet_graph()}
#'   takes, igraph objects included). Undirected networks are the usual case;
#'   on directed ones distances run from the module to the set.
#' @param sets A vector of vertices (names or 1-based indices), or a list of such vectors.
#' @param module The module's vertices.
#' @param measures Any of \code{"closest"}, \code{"shortest"},
#'   \code{"kernel"}, \code{"centre"}, \code{"separation"}, or \code{"all"}.
#' @param n_random Random set pairs in the reference distribution (0: none).
#' @param bin_size The fewest vertices in a degree bin.
#' @param seed Seed of the random sets.
#' @param weighted Use the graph's weights as lengths (default: hops).
#' @param backend As in \code{\link{cuRnet_bfs}}.
#' @return A data frame, one row a set and measure: \code{set} (its name in
#'   \code{sets}, or its number), \code{measure}, \code{distance}, \code{z}
#'   (\code{(distance - mean) / sd}), \code{p_value} (the share of reference
#'   values at most \code{distance}, counting the observed one), \code{mean}
#'   and \code{sd} of the reference values, \code{n_set}, \code{n_module}.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::sample_gnp(300, 0.02)
#'   cuRnet_proximity(g, list(drug = 1:10), module = 11:40, n_random = 100, bin_size = 30)
#' }
#' @export
cuRnet_proximity <- function(graph, sets, module, measures = "closest", n_random = 1000,
                             bin_size = 100, seed = 0, weighted = FALSE,
                             backend = getOption("cuRnet.backend", "auto")) {
  n_random <- check_number(n_random, "n_random", lower = 0, whole = TRUE)   # 0: no reference sets
  bin_size <- check_number(bin_size, "bin_size", lower = 1, whole = TRUE)
  seed <- check_number(seed, "seed", lower = 0, whole = TRUE)
  graph <- weighted_graph(graph, NULL)
  if (!is.list(sets)) sets <- list(sets)
  if (identical(measures, "all")) measures <- c("closest", "shortest", "kernel", "centre", "separation")
  ids <- lapply(sets, function(s) vertex_ids(graph, s))
  res <- engine_call(held_result(engine_module("paths")$proximity_for_r(
    graph$py, unname(ids), vertex_ids(graph, module), as.list(measures), n_random, bin_size, seed,
    weighted, backend)))
  out <- as.data.frame(lapply(res, unlist), stringsAsFactors = FALSE)
  if (!is.null(names(sets))) out$set <- names(sets)[out$set]
  out
}
