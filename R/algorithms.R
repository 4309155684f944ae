#' Breadth-first search from many sources
#'
#' One joint traversal per batch of sources. Edges are followed in their
#' direction (both ways on undirected graphs).
#'
#' @param graph A \code{\link{cuRnet_graph}} (or anything \code{cuRnet_graph()} takes, built on the fly).
#' @param sources Source vertices: names (character), or 1-based vertex
#'   indices; numbers are names for graphs built from a data frame or file
#'   (cuRnet's behaviour), indices otherwise. Repeats give repeated rows.
#' @param integer Return an integer matrix with \code{NA} for unreachable
#'   vertices (half the memory, faster) instead of cuRnet's numeric matrix with \code{Inf}.
#' @param format \code{"matrix"} (sources x vertices, dimnames = vertex
#'   names) or \code{"long"}: a data frame of the reachable pairs.
#' @param progress \code{TRUE} for a progress bar on long jobs, \code{FALSE},
#'   or a \code{function(done, total)} called between batches of sources.
#'   Ctrl-C stops between batches and leaves the graph usable.
#' @return A numeric matrix of depths (hops), \code{Inf} where unreachable;
#'   see \code{integer} and \code{format}.
#' @examples
#' if (cuRnet_available()) {
#'   g <- cuRnet_graph(data.frame(from = c("a", "b", "c"), to = c("b", "c", "d")))
#'   cuRnet_bfs(g, c("a", "c"))
#'   cuRnet_bfs(g, "a", integer = TRUE, format = "long")
#' }
#' @export
cuRnet_bfs <- function(graph, sources, integer = FALSE, format = c("matrix", "long"),
                       progress = getOption("cuRnet.progress", interactive())) {
  graph <- check_graph(graph)
  format <- match.arg(format)
  ids <- vertex_ids(graph, sources)
  check_result_fits(length(ids), graph$n, if (integer) 4 else 8)
  depth <- new_result(if (integer) "integer" else "double", length(ids), graph$n)
  engine_call(bridge()$bfs_into(graph$py, as_arrow(ids), data_address(depth), typeof(depth),
                                progress_hook(progress, "BFS")))
  shape_result(depth, graph, ids, format, "depth")
}

#' Shortest paths from many sources: distances and predecessors
#'
#' Bellman-Ford from each source (negative weights allowed on directed
#' graphs; a negative cycle reachable from a source is an error naming it).
#' Unweighted graphs count hops.
#'
#' @inheritParams cuRnet_bfs
#' @param from Source vertices, as \code{sources} in \code{\link{cuRnet_bfs}}.
#' @param predecessors \code{"names"}: a character matrix of each vertex's
#'   predecessor on a shortest path, \code{""} for none (cuRnet's form);
#'   \code{"index"}: an integer matrix of 1-based vertex indices, \code{NA}
#'   for none (faster).
#' @return A list: \code{distances}, a numeric matrix sources x vertices with
#'   \code{Inf} where unreachable, and \code{predecessors}. With
#'   \code{format = "long"}, a data frame of reachable pairs with
#'   \code{distance} and \code{predecessor} columns.
#' @examples
#' if (cuRnet_available()) {
#'   g <- cuRnet_graph(data.frame(from = c("a", "b", "a"), to = c("b", "c", "c"),
#'                                weight = c(1, 1, 5)))
#'   cuRnet_sssp(g, "a")
#' }
#' @export
cuRnet_sssp <- function(graph, from, predecessors = c("names", "index"), format = c("matrix", "long"),
                        progress = getOption("cuRnet.progress", interactive())) {
  graph <- check_graph(graph)
  predecessors <- match.arg(predecessors)
  format <- match.arg(format)
  ids <- vertex_ids(graph, from)
  check_result_fits(length(ids), graph$n, if (predecessors == "names") 20 else 12)
  dist <- new_result("double", length(ids), graph$n)
  pred <- new_result("integer", length(ids), graph$n)
  run_sssp(graph, ids, dist, pred, progress)
  pred <- if (predecessors == "names") {
    matrix(c("", vertex_names(graph))[pred + 2L], nrow(pred), ncol(pred))
  } else {
    pred[pred < 0L] <- NA_integer_
    pred + 1L
  }
  if (format == "long") {
    out <- shape_result(dist, graph, ids, "long", "distance")
    out$predecessor <- pred[is.finite(dist)]
    return(out)
  }
  list(distances = shape_result(dist, graph, ids, "matrix"),
       predecessors = shape_result(pred, graph, ids, "matrix"))
}

#' Shortest-path distances from many sources
#'
#' As \code{\link{cuRnet_sssp}} without predecessors (less work, less memory).
#'
#' @inheritParams cuRnet_sssp
#' @return A numeric matrix sources x vertices, \code{Inf} where unreachable
#'   (or a long data frame, see \code{format}).
#' @export
cuRnet_sssp_dists <- function(graph, from, format = c("matrix", "long"),
                              progress = getOption("cuRnet.progress", interactive())) {
  graph <- check_graph(graph)
  format <- match.arg(format)
  ids <- vertex_ids(graph, from)
  check_result_fits(length(ids), graph$n, 8)
  dist <- new_result("double", length(ids), graph$n)
  run_sssp(graph, ids, dist, NULL, progress)
  shape_result(dist, graph, ids, format, "distance")
}

#' Strongly connected components
#'
#' @inheritParams cuRnet_bfs
#' @param integer Return an integer matrix instead of cuRnet's numeric one.
#' @return A 1 x |V| matrix of component ids, columns named by vertex (in
#'   vertex order, matching the ids). Components are numbered 1, 2, ... in
#'   order of their first vertex, so equal graphs give equal ids. On an
#'   undirected graph these are the connected components.
#' @examples
#' if (cuRnet_available()) {
#'   g <- cuRnet_graph(data.frame(from = c("a", "b", "c"), to = c("b", "a", "d")))
#'   cuRnet_scc(g)
#' }
#' @export
cuRnet_scc <- function(graph, integer = FALSE) {
  graph <- check_graph(graph)
  labels <- new_result(if (integer) "integer" else "double", 1L, graph$n)
  engine_call(bridge()$scc_into(graph$py, data_address(labels), typeof(labels), base = 1L))
  if (!is.null(graph$names)) dimnames(labels) <- list(NULL, graph$names)
  labels
}

#' Shortest-path distances with igraph's \code{distances()} interface
#'
#' A drop-in for \code{igraph::distances()}: same arguments, defaults and
#' result, so igraph code switches by renaming the call. The graph is built in
#' the engine for each call; to reuse it, see \code{\link{cuRnet_graph}}.
#'
#' @param graph An igraph object.
#' @param v,to Source and target vertices (igraph vertex sequences, names or indices).
#' @param mode \code{"all"} ignores edge directions (igraph's default),
#'   \code{"out"} follows them, \code{"in"} goes against them.
#' @param weights \code{NULL} uses the \code{weight} edge attribute if
#'   there is one; \code{NA} ignores weights; or a numeric vector.
#' @param progress As in \code{\link{cuRnet_bfs}}.
#' @return A numeric matrix \code{length(v)} x \code{length(to)}, \code{Inf}
#'   where unreachable, dimnames = vertex names if the graph has them.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::sample_gnp(50, 0.05, directed = TRUE)
#'   d <- cuRnet_distances(g, 1:5, mode = "out")
#'   all.equal(d, igraph::distances(g, 1:5, mode = "out"))
#' }
#' @export
cuRnet_distances <- function(graph, v = igraph::V(graph), to = igraph::V(graph),
                             mode = c("all", "out", "in"), weights = NULL,
                             progress = getOption("cuRnet.progress", interactive())) {
  if (!igraph::is_igraph(graph)) stop("cuRnet_distances() takes an igraph object", call. = FALSE)
  mode <- match.arg(mode)
  directed <- igraph::is_directed(graph) && mode != "all"
  edges <- igraph::as_edgelist(graph, names = FALSE)
  if (mode == "in") edges <- edges[, 2:1, drop = FALSE]
  w <- igraph_weights(graph, weights)
  g <- engine_graph(edges[, 1] - 1L, edges[, 2] - 1L, w, directed, igraph::V(graph)$name,
                    n = igraph::vcount(graph), ids_are_names = FALSE)
  v <- as.integer(igraph::V(graph)[v])
  to <- as.integer(igraph::V(graph)[to])
  d <- if (is.null(w)) cuRnet_bfs(g, v, progress = progress) else cuRnet_sssp_dists(g, v, progress = progress)
  if (identical(to, seq_len(g$n))) d else d[, to, drop = FALSE]
}

run_sssp <- function(graph, ids, dist, pred, progress) {
  bad <- engine_call(reticulate::py_to_r(bridge()$sssp_into(
    graph$py, as_arrow(ids), data_address(dist), if (!is.null(pred)) data_address(pred),
    progress_hook(progress, "SSSP"))))
  if (bad >= 0) {
    stop(cuRnet_error(sprintf(
      "a negative-weight cycle is reachable from source %s: shortest paths from it are undefined",
      vertex_label(graph, bad + 1L))))
  }
}

# 0-based engine ids of the user's vertices (names or 1-based indices).
vertex_ids <- function(graph, v) {
  if (!length(v)) stop("no sources given", call. = FALSE)
  if (graph$n == 0) stop("the graph has no vertices", call. = FALSE)
  if (anyNA(v)) stop("sources contain NA", call. = FALSE)
  if (is.factor(v) || is.character(v) || (is.numeric(v) && graph$ids_are_names)) {
    if (is.null(graph$names)) {
      stop("this graph has no vertex names: give sources as 1-based indices", call. = FALSE)
    }
    v <- as_label(v)
    i <- match(v, graph$names)
    if (anyNA(i)) stop(unknown_names_message(graph, unique(v[is.na(i)])), call. = FALSE)
  } else if (is.numeric(v)) {
    if (any(v != trunc(v) | v < 1 | v > graph$n)) {
      stop(sprintf("source indices must be whole numbers in 1..%d", graph$n), call. = FALSE)
    }
    i <- as.integer(v)
  } else {
    stop("sources must be vertex names or 1-based vertex indices", call. = FALSE)
  }
  i - 1L
}

vertex_names <- function(graph) {
  if (is.null(graph$names)) as.character(seq_len(graph$n)) else graph$names
}

vertex_label <- function(graph, i) {
  if (is.null(graph$names)) sprintf("vertex %d", i) else sprintf("'%s' (vertex %d)", graph$names[i], i)
}

# Names a result matrix in place, or turns it into a data frame of the reachable pairs.
shape_result <- function(m, graph, ids, format, value = "value") {
  if (format == "matrix") {
    if (!is.null(graph$names)) dimnames(m) <- list(graph$names[ids + 1L], graph$names)
    return(m)
  }
  cells <- which(is.finite(m))
  k <- nrow(m)
  row <- (cells - 1L) %% k + 1L
  col <- (cells - 1L) %/% k + 1L
  names <- vertex_names(graph)
  out <- data.frame(from = names[ids[row] + 1L], to = names[col], stringsAsFactors = FALSE)
  out[[value]] <- m[cells]
  out
}
