# igraph's distance-based measures, computed by the engine (python/curnet/analyses/measures.py): each
# batch of sources is reduced where it was traversed, so no sources x vertices matrix is
# ever built. These wrappers only convert arguments and results.

#' Closeness and harmonic centrality
#'
#' Drop-ins for \code{igraph::closeness()} and \code{igraph::harmonic_centrality()}: same
#' arguments, defaults and result. Closeness is 1 / (sum of the distances to the vertices
#' reached), \code{NaN} for a vertex that reaches none; \code{normalized = TRUE} multiplies
#' by the number reached. Harmonic centrality sums 1 / distance over the other vertices;
#' \code{normalized = TRUE} divides by (number of vertices - 1). All-vertex runs keep only
#' O(vertices) in memory, however many sources.
#'
#' @param graph An igraph object, or a \code{\link{cuRnet_graph}} (or anything
#'   \code{cuRnet_graph()} takes), measured with its own weights unless \code{weights = NA}.
#' @param vids The vertices to score (igraph vertex sequence, names or 1-based indices).
#' @param mode \code{"out"} follows edge directions, \code{"in"} goes against them,
#'   \code{"all"} (or \code{"total"}) ignores them.
#' @param weights \code{NULL} uses the \code{weight} edge attribute if there is one (a
#'   cuRnet graph: its own weights), \code{NA} ignores weights, or (igraph objects only) a
#'   numeric vector of edge weights. Negative weights are an error, as in igraph
#'   (\code{cuRnet_distances} takes them on a directed graph).
#' @param normalized See above.
#' @param cutoff Only paths of length \code{<= cutoff} count; negative: all paths.
#' @param backend Where the engine runs, as in \code{\link{cuRnet_bfs}}.
#' @param progress \code{TRUE}, \code{FALSE} or a \code{function(done, total)}, as in
#'   \code{\link{cuRnet_bfs}}.
#' @return A numeric vector, named by vertex if the graph has names.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::sample_gnp(100, 0.05)
#'   all.equal(cuRnet_closeness(g), igraph::closeness(g))
#'   all.equal(cuRnet_harmonic_centrality(g, normalized = TRUE),
#'             igraph::harmonic_centrality(g, normalized = TRUE))
#' }
#' @export
cuRnet_closeness <- function(graph, vids = igraph::V(graph), mode = c("out", "in", "all", "total"),
                             weights = NULL, normalized = FALSE, cutoff = -1,
                             progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  centrality(graph, "closeness", if (!missing(vids)) vids, match.arg(mode), weights, normalized, cutoff,
             progress, backend)
}

#' @rdname cuRnet_closeness
#' @export
cuRnet_harmonic_centrality <- function(graph, vids = igraph::V(graph),
                                       mode = c("out", "in", "all", "total"), weights = NULL,
                                       normalized = FALSE, cutoff = -1,
                                       progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  centrality(graph, "harmonic_centrality", if (!missing(vids)) vids, match.arg(mode), weights, normalized,
             cutoff, progress, backend)
}

# Closeness and harmonic centrality: igraph's arguments, the same for both (`mode` matched).
centrality <- function(graph, name, vids, mode, weights, normalized, cutoff, progress, backend) {
  mode <- engine_mode(mode)
  per_vertex(graph, name, vids, weights, progress, mode = mode, normalized = isTRUE(normalized),
             cutoff = check_number(cutoff, "cutoff", finite = FALSE), backend = backend)
}

#' Eccentricity and radius
#'
#' Drop-ins for \code{igraph::eccentricity()} and \code{igraph::radius()}: the largest
#' distance from a vertex to the vertices it reaches (0 for an isolated vertex), and the
#' smallest eccentricity. Paths count hops unless \code{weights} say otherwise; the default
#' follows the installed igraph (see \code{weights}).
#'
#' @inheritParams cuRnet_closeness
#' @param mode As in \code{\link{cuRnet_closeness}}; igraph's default here is \code{"all"}.
#' @param weights \code{NA} counts hops; \code{NULL} uses the \code{weight} edge attribute
#'   (a cuRnet graph: its own weights); or (igraph objects only) a numeric vector (not
#'   negative, as in igraph). The default is the installed igraph's: \code{NA} with igraph
#'   1.x, whose \code{eccentricity()} and \code{radius()} take no weights and count hops,
#'   \code{NULL} with igraph 2.x, whose take \code{weights = NULL}.
#' @return \code{cuRnet_eccentricity}: a numeric vector named by vertex if the graph has
#'   names. \code{cuRnet_radius}: a number (\code{NaN} for a graph without vertices).
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_ring(10)
#'   cuRnet_eccentricity(g)
#'   cuRnet_radius(g)
#' }
#' @export
cuRnet_eccentricity <- function(graph, vids = igraph::V(graph), mode = c("all", "out", "in", "total"),
                                weights = igraph_default_weights(igraph::eccentricity),
                                progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  mode <- engine_mode(match.arg(mode))
  per_vertex(graph, "eccentricity", if (!missing(vids)) vids, weights, progress, mode = mode, backend = backend)
}

#' @rdname cuRnet_eccentricity
#' @export
cuRnet_radius <- function(graph, mode = c("all", "out", "in", "total"),
                          weights = igraph_default_weights(igraph::radius),
                          progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  mode <- engine_mode(match.arg(mode))
  g <- weighted_graph(graph, weights, "cuRnet_radius")
  run_measure(g, "radius", progress = progress, mode = mode, weighted = g$use_weights, backend = backend)
}

#' Diameter, and two vertices that attain it
#'
#' Drop-ins for \code{igraph::diameter()} and \code{igraph::farthest_vertices()}.
#'
#' @inheritParams cuRnet_closeness
#' @param directed \code{FALSE} ignores edge directions.
#' @param unconnected \code{TRUE}: the longest finite shortest path; \code{FALSE}: \code{Inf}
#'   when some vertex cannot reach another.
#' @return \code{cuRnet_diameter}: a number. \code{cuRnet_farthest_vertices}: a list of
#'   \code{vertices} (two vertices of \code{graph}: an igraph vertex sequence, or for a cuRnet
#'   graph their names, or 1-based indices if it has none; empty when the distance is infinite
#'   or the graph has no vertices) and \code{distance}. Among several farthest pairs the one returned
#'   may differ from igraph's.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_tree(15, 2, mode = "undirected")
#'   cuRnet_diameter(g)
#'   cuRnet_farthest_vertices(g)
#' }
#' @export
cuRnet_diameter <- function(graph, directed = TRUE, unconnected = TRUE, weights = NULL,
                            progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  cuRnet_farthest_vertices(graph, directed, unconnected, weights, progress, backend)$distance
}

#' @rdname cuRnet_diameter
#' @export
cuRnet_farthest_vertices <- function(graph, directed = TRUE, unconnected = TRUE, weights = NULL,
                                     progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  g <- weighted_graph(graph, weights, "cuRnet_farthest_vertices")
  res <- run_measure(g, "farthest_points", progress = progress, directed = isTRUE(directed),
                     unconnected = isTRUE(unconnected), weighted = g$use_weights, backend = backend)
  ends <- if (is.null(res[[1]])) integer() else as.integer(c(res[[1]], res[[2]])) + 1L
  vertices <- if (igraph::is_igraph(graph)) igraph::V(graph)[ends] else if (!is.null(g$names)) g$names[ends] else ends
  list(vertices = vertices, distance = res[[3]])
}

#' Mean distance and the path-length histogram
#'
#' Drop-ins for \code{igraph::mean_distance()} and \code{igraph::distance_table()}, over
#' every ordered pair of distinct vertices, without the distance matrix: each batch of
#' sources is reduced where it was computed.
#'
#' @inheritParams cuRnet_diameter
#' @param unconnected \code{TRUE} averages over the connected pairs; \code{FALSE} gives
#'   \code{Inf} when some pair is not connected.
#' @param details Also return the number of (ordered) pairs without a path.
#' @return \code{cuRnet_mean_distance}: a number, or with \code{details} a list of \code{res}
#'   and \code{unconnected}. \code{cuRnet_distance_table}: a list of \code{res} (the number of
#'   pairs at distance 1, 2, ...; hops, as igraph) and \code{unconnected}; on an undirected
#'   graph (or with \code{directed = FALSE}) each pair counts once.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::sample_gnp(200, 0.02)
#'   cuRnet_mean_distance(g)
#'   cuRnet_distance_table(g)
#' }
#' @export
cuRnet_mean_distance <- function(graph, weights = NULL, directed = TRUE, unconnected = TRUE,
                                 details = FALSE, progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  g <- weighted_graph(graph, weights, "cuRnet_mean_distance")
  res <- run_measure(g, "mean_distance", progress = progress, directed = isTRUE(directed),
                     unconnected = isTRUE(unconnected), details = TRUE, weighted = g$use_weights,
                     backend = backend)
  if (isTRUE(details)) list(res = res[[1]], unconnected = res[[2]]) else res[[1]]
}

#' @rdname cuRnet_mean_distance
#' @export
cuRnet_distance_table <- function(graph, directed = TRUE,
                                  progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  res <- run_measure(weighted_graph(graph, NA), "distance_table", progress = progress,
                     directed = isTRUE(directed), backend = backend)
  list(res = as.numeric(res[[1]]), unconnected = res[[2]])
}

#' Neighbourhood sizes
#'
#' A drop-in for \code{igraph::ego_size()}: how many vertices lie within \code{order} hops of
#' each vertex, and at least \code{mindist} hops away.
#'
#' @inheritParams cuRnet_closeness
#' @param order The largest number of hops.
#' @param nodes The vertices (igraph vertex sequence, names or 1-based indices).
#' @param mode \code{"all"} (igraph's default), \code{"out"} or \code{"in"}.
#' @param mindist Vertices closer than this are not counted (1 leaves the vertex out).
#' @return A numeric vector.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_ring(10)
#'   cuRnet_ego_size(g, order = 2)
#' }
#' @export
cuRnet_ego_size <- function(graph, order = 1, nodes = igraph::V(graph), mode = c("all", "out", "in"),
                            mindist = 0, progress = getOption("cuRnet.progress", interactive()),
                backend = getOption("cuRnet.backend", "auto")) {
  mode <- match.arg(mode)
  g <- weighted_graph(graph, NA)
  as.numeric(run_measure(g, "ego_size", measure_vertices(graph, g, if (!missing(nodes)) nodes), progress,
                         order = check_number(order, "order", lower = 0, whole = TRUE), mode = mode,
                         mindist = check_number(mindist, "mindist", lower = 0, whole = TRUE), backend = backend))
}

# Weighted measures refuse an igraph object's negative weights, as igraph's do (`measure` names
# the caller; a cuRnet graph's are refused by the engine with the same words).
negative_weights_refused <- function(w, measure) {
  if (is.numeric(w) && length(w) && any(w < 0, na.rm = TRUE)) {
    stop(sprintf(paste0("%s needs non-negative weights, as igraph's measures do (the smallest ",
                        "weight here is %g); count hops instead (weights = NA), or use ",
                        "cuRnet_distances(), which takes negative weights on a directed graph"),
                 measure, min(w, na.rm = TRUE)), call. = FALSE)
  }
}

# The default `weights` of igraph function `f`, for the cuRnet functions that mirror one whose
# default changed: igraph 1.x's eccentricity() and radius() take no weights (they count hops,
# NA here), igraph 2.x's take weights = NULL (the weight attribute).
igraph_default_weights <- function(f) {
  if ("weights" %in% names(formals(f))) eval(formals(f)$weights) else NA
}

# igraph's "total" is "all".
engine_mode <- function(mode) if (mode == "total") "all" else mode

# 0-based engine ids of an igraph vertex selection, or NULL for every vertex in order.
vertex_selection <- function(graph, vids) {
  ids <- as.integer(igraph::V(graph)[vids]) - 1L
  if (length(ids) == igraph::vcount(graph) && all(ids == seq_along(ids) - 1L)) NULL else ids
}

# The 0-based ids of the vertices `vids` of `graph` (NULL: all of them, in order): an igraph
# selection on an igraph object, names or 1-based indices on a cuRnet graph `g`.
measure_vertices <- function(graph, g, vids) {
  if (is.null(vids)) return(NULL)
  if (igraph::is_igraph(graph)) vertex_selection(graph, vids) else vertex_ids(g, vids, "vertex")
}

# The engine's measure `name`: its value, or its values (a list) where it gives several.
run_measure <- function(g, name, vertices = NULL, progress = FALSE, ...) {
  res <- engine_call(held_result(engine_module("measures")$measure(
    g$py, name, if (!is.null(vertices)) as_arrow(vertices), progress_hook(progress, name), ...)))
  if ("values" %in% names(res)) unname(res$values) else res$value
}

# A per-vertex measure of the vertices `vids` (NULL: all), named as igraph names them.
per_vertex <- function(graph, name, vids, weights, progress, ...) {
  g <- weighted_graph(graph, weights, paste0("cuRnet_", name))
  ids <- measure_vertices(graph, g, vids)
  res <- as.numeric(run_measure(g, name, ids, progress, weighted = g$use_weights, ...))
  if (!is.null(g$names)) names(res) <- g$names[if (is.null(ids)) seq_len(g$n) else ids + 1L]
  res
}
