# Betweenness centrality by the engine (python/curnet/betweenness_centrality.py): Brandes' algorithm over
# batches of sources on the GPU or the CPU. These wrappers convert arguments and results.

#' Vertex and edge betweenness
#'
#' Drop-ins for \code{igraph::betweenness()} and \code{igraph::edge_betweenness()}: same
#' arguments, defaults and result (a vertex's value named by vertex when the graph has names;
#' edges in \code{E(graph)} order). For each vertex (edge), the sum over pairs of vertices of
#' the share of their shortest paths that pass through it; undirected graphs count each pair
#' once. Parallel edges are distinct paths, as in igraph. Weighted paths of equal length are
#' equal by igraph's relative epsilon (1e-10) on double weights.
#'
#' @param graph An igraph object or a cuRnet graph (\code{\link{cuRnet_graph}}).
#' @param v,e The vertices (edges) to report: igraph sequences, names or 1-based indices.
#' @param directed \code{FALSE} ignores edge directions.
#' @param weights \code{NULL} uses the \code{weight} edge attribute (igraph) or the graph's
#'   weights (cuRnet graph), \code{NA} counts hops, or a numeric vector of positive edge
#'   weights (igraph objects only).
#' @param normalized Divide by the number of vertex pairs, \code{(n-1)(n-2)} (halved for
#'   undirected graphs), as igraph does: \code{NaN} for a graph of fewer than 3 vertices
#'   (no such pair), as in igraph.
#' @param cutoff Only paths of length \code{<= cutoff} count; negative: all paths. Zero
#'   follows the installed igraph: all paths before igraph 1.4 (with igraph's warning), none
#'   from 1.4 on.
#' @param ... igraph's \code{nobigint} (ignored: path counts are doubles, as in igraph).
#' @param backend As in \code{\link{cuRnet_bfs}}.
#' @param progress \code{TRUE}, \code{FALSE} or a \code{function(done, total)}, as in
#'   \code{\link{cuRnet_bfs}}.
#' @return A numeric vector (\code{numeric(0)} for no vertices or edges asked for, as in igraph).
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::sample_gnp(200, 0.03)
#'   all.equal(cuRnet_betweenness(g), igraph::betweenness(g))
#'   all.equal(cuRnet_edge_betweenness(g), igraph::edge_betweenness(g))
#' }
#' @export
cuRnet_betweenness <- function(graph, v = igraph::V(graph), directed = TRUE, weights = NULL,
                               normalized = FALSE, cutoff = -1, ...,
                               backend = getOption("cuRnet.backend", "auto"),
                               progress = getOption("cuRnet.progress", interactive())) {
  g <- weighted_graph(graph, weights)
  ids <- if (missing(v)) NULL else if (igraph::is_igraph(graph)) vertex_selection(graph, v) else
    vertex_ids(g, v, "vertex")
  res <- if (length(ids) || is.null(ids)) {
    run_betweenness(g, "vertex", ids, directed, normalized, cutoff, progress, backend, "betweenness")
  } else numeric(0)                                   # no vertex asked for, as igraph
  if (isTRUE(normalized) && g$n < 3) res[] <- NaN     # igraph's 0 / 0: no pair of other vertices
  if (!is.null(g$names)) names(res) <- g$names[if (is.null(ids)) seq_len(g$n) else ids + 1L]
  res
}

#' @rdname cuRnet_betweenness
#' @export
cuRnet_edge_betweenness <- function(graph, e = igraph::E(graph), directed = TRUE, weights = NULL,
                                    cutoff = -1, ...,
                                    backend = getOption("cuRnet.backend", "auto"),
                                    progress = getOption("cuRnet.progress", interactive())) {
  g <- weighted_graph(graph, weights)
  ids <- NULL
  if (!missing(e)) {
    ids <- if (igraph::is_igraph(graph)) as.integer(igraph::E(graph)[e]) - 1L else as.integer(e) - 1L
    if (!length(ids)) return(numeric(0))                # no edge asked for, as igraph
  }
  run_betweenness(g, "edge", ids, directed, FALSE, cutoff, progress, backend, "edge betweenness")
}

# The values of vertex or edge (`kind`) betweenness of the 0-based `ids` (NULL: all), written
# by the engine into the vector allocated here; `g$use_weights` says whether they are weighted.
run_betweenness <- function(g, kind, ids, directed, normalized, cutoff, progress, backend, what) {
  cutoff <- check_number(cutoff, "cutoff", finite = FALSE)
  if (cutoff == 0 && utils::packageVersion("igraph") < "1.4") {
    warning("`cutoff' == 0 will be treated literally from igraph 1.4. If you want unrestricted ",
            what, ", set it to -1", call. = FALSE)
    cutoff <- -1
  }
  values <- double(if (!is.null(ids)) length(ids) else if (kind == "vertex") g$n else g$m)
  engine_call(engine_module("betweenness")$betweenness_into(
    g$py, kind, data_address(values), if (!is.null(ids)) as_arrow(ids), isTRUE(directed), g$use_weights,
    isTRUE(normalized), cutoff, progress_hook(progress, what), backend))
  values
}

#' Communities by edge betweenness (Girvan-Newman)
#'
#' A drop-in for \code{igraph::cluster_edge_betweenness()}: the edge of highest edge
#' betweenness is removed and the betweenness recomputed (on the engine, for the component
#' that lost the edge), until no edge is left; the removals replayed backwards give the
#' dendrogram, and the division of highest modularity the membership, as igraph does. Edge
#' betweenness values that differ by no more than rounding (16 ulps a vertex of the largest
#' component, relative) count as ties, broken by the lowest edge id (igraph's first maximum),
#' so the removal order is igraph's wherever the exact values decide it. igraph compares its
#' sums exactly, so where edges tie exactly it takes whichever its rounding makes larger: from
#' such a step on the removal order, the merges, the membership and even its modularity may
#' differ from igraph's (each removal is still of a largest exact edge betweenness).
#' With weights (lengths), igraph 1.3.5 also miscounts some shortest paths: on a
#' 739-vertex STRING sub-network it reports 3931.5 for an edge whose betweenness is exactly
#' 3930.5, and later 4131.5 for one of two edges tied exactly at 4088, where cuRnet's values
#' are the exact ones (\code{python -m bench girvan-newman --weighted --r-igraph --exact}).
#'
#' The membership is the division of highest modularity met while the removals are
#' replayed backwards (all vertices apart first, then one merge at a time), the first
#' (fewest merges) of equal ones. Where two divisions' modularities are equal in exact
#' arithmetic, igraph takes whichever its floating-point sums make larger, so at such an
#' exact tie its membership may be the other of the two: the same rule as for edge ties.
#'
#' The fields are igraph 1.3.5's, 1-based, with two differences of its own making:
#' \describe{
#'   \item{\code{bridges}}{the positions in \code{removed.edges} of the removals that split
#'     a cluster (each is a merge, read backwards). igraph 1.3.5 returns each of these
#'     plus one, its known off-by-one (igraph issue #878): subtract 1 from igraph's to
#'     compare.}
#'   \item{\code{membership}}{with \code{modularity = FALSE}, igraph 1.3.5 returns every
#'     vertex apart (\code{1:n}); cuRnet returns the division of highest modularity
#'     either way.}
#' }
#' \code{merges} rows are igraph's: the cluster of the removed edge's tail first on a
#' directed graph, of its larger vertex id on an undirected one, so \code{as.hclust()}
#' and \code{as.dendrogram()} give igraph's trees. A field not asked for is as in igraph:
#' \code{NULL} for \code{edge.betweenness} and \code{modularity}, \code{numeric(0)} for
#' \code{merges}, \code{bridges} and \code{membership} (so, as with igraph,
#' \code{membership()} of a result made with \code{membership = FALSE} is
#' \code{numeric(0)} on a graph without vertex names).
#'
#' @param graph An igraph object.
#' @param weights \code{NULL} uses the \code{weight} edge attribute, \code{NA} ignores
#'   weights, or a numeric vector: lengths for the betweenness, weights for the modularity.
#' @param directed,edge.betweenness,merges,bridges,modularity,membership As in igraph.
#' @param backend As in \code{\link{cuRnet_bfs}}.
#' @param progress As in \code{\link{cuRnet_bfs}} (one step an edge removed).
#' @return An igraph \code{communities} object.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_graph("Zachary")
#'   igraph::membership(cuRnet_cluster_edge_betweenness(g))
#' }
#' @export
cuRnet_cluster_edge_betweenness <- function(graph, weights = NULL, directed = TRUE, edge.betweenness = TRUE,
                                            merges = TRUE, bridges = TRUE, modularity = TRUE,
                                            membership = TRUE,
                                            backend = getOption("cuRnet.backend", "auto"),
                                            progress = getOption("cuRnet.progress", interactive())) {
  if (!igraph::is_igraph(graph)) stop("cuRnet_cluster_edge_betweenness() takes an igraph object", call. = FALSE)
  # `weights` read once: igraph's NULL (the attribute) and NA, and this function's own rule of
  # igraph's, weights that are all NA count hops; the decision then travels as g$use_weights
  w <- igraph_weights(graph, weights)
  g <- weighted_graph(graph, if (is.null(w) || all(is.na(w))) NA else as.numeric(w))
  if (g$use_weights && (membership || modularity)) {       # igraph's own two warnings
    warning("Membership vector will be selected based on the highest modularity score.", call. = FALSE)
    warning("Modularity calculation with weighted edge betweenness community detection might not ",
            "make sense -- modularity treats edge weights as similarities while edge betwenness ",
            "treats them as distances.", call. = FALSE)
  }
  res <- engine_call(held_result(engine_module("betweenness")$girvan_newman_for_r(
    g$py, isTRUE(directed), g$use_weights, progress_hook(progress, "edge removals"), backend)))
  # igraph's shapes: a field not asked for is NULL, and NULL + 1 (igraph's 1-basing) numeric(0)
  out <- list(removed.edges = res$removed + 1,
              edge.betweenness = if (edge.betweenness) res$edge_betweenness,
              merges = if (merges) matrix(res$merges + 1, ncol = 2, byrow = TRUE) else numeric(0),
              bridges = if (bridges) res$bridges + 1 else numeric(0),
              modularity = if (modularity) res$modularity,
              membership = if (membership) res$membership + 1 else numeric(0))
  if (igraph::igraph_opt("add.vertex.names") && igraph::is_named(graph)) out$names <- igraph::V(graph)$name
  out$vcount <- igraph::vcount(graph)
  out$algorithm <- "edge betweenness"
  class(out) <- "communities"
  out
}
