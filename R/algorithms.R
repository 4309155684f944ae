#' Breadth-first search from many sources
#'
#' One joint traversal per batch of sources. Edges are followed in their
#' direction (both ways on undirected graphs); see \code{mode}.
#'
#' @param graph A \code{\link{cuRnet_graph}} (or anything \code{cuRnet_graph()} takes, built on the fly).
#' @param sources Source vertices: names (character), or 1-based vertex
#'   indices; numbers are names for graphs built from a data frame or file
#'   (cuRnet's behaviour), indices otherwise. Repeats give repeated rows.
#' @param integer Return an integer matrix with \code{NA} for unreachable
#'   vertices (half the memory, faster) instead of cuRnet's numeric matrix with \code{Inf}.
#' @param format \code{"matrix"} (sources x vertices, dimnames = vertex
#'   names) or \code{"long"}: a data frame of the reachable pairs.
#' @param mode On a directed graph, \code{"out"} follows the edges,
#'   \code{"in"} goes against them, \code{"all"} ignores their direction (as
#'   igraph's \code{mode}). The reversed or undirected form is built once
#'   and kept with the graph for later calls.
#' @param to Target vertices (as \code{sources}): the result's columns;
#'   \code{NULL} for all vertices.
#' @param backend Where the engine runs: \code{"auto"} (a GPU when one is
#'   usable, else the CPU), \code{"cpu"}, \code{"cuda"} (the current GPU),
#'   \code{"cuda:1"} (GPU 1), \code{"cuda:0,1"} or \code{"cuda:all"} (the
#'   sources split over several GPUs). A GPU backend without a usable GPU is
#'   an error, never a silent fall-back. \code{\link{cuRnet_info}()} says
#'   what the last call ran on and, for \code{"auto"}, why.
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
#'   cuRnet_bfs(g, "d", mode = "in", to = c("a", "b"), backend = "cpu")
#' }
#' @export
cuRnet_bfs <- function(graph, sources, integer = FALSE, format = c("matrix", "long"),
                       mode = c("out", "in", "all"), to = NULL,
                       backend = getOption("cuRnet.backend", "auto"),
                       progress = getOption("cuRnet.progress", interactive())) {
  q <- many_source_query(graph, sources, to, format, mode)
  run_bfs(q, if (check_flag(integer, "integer")) "integer" else "double", backend, progress)
}

#' Shortest paths from many sources: distances and predecessors
#'
#' Bellman-Ford from each source (negative weights allowed on directed
#' graphs). A negative cycle reachable from a source is an error of class
#' \code{cuRnet_negative_cycle} (and \code{cuRnet_error}) whose \code{source}
#' (1-based index) and \code{source_name} say where it was reached from.
#' Unweighted graphs count hops.
#'
#' Precision: on a graph built with \code{cuRnet_graph(..., precision =
#' "single")}, weights and distances are 32-bit floats. Distances then agree
#' with igraph's to about 1e-6 relative (1e-12 or better with the default
#' \code{"double"}). A GPU runs its near-far shortest paths for non-negative
#' weights in either precision (single precision moves half the bytes), and
#' Bellman-Ford for negative weights.
#'
#' The source's own predecessor: cuRnet has none (\code{""} or \code{NA},
#' the default), igraph names the source itself
#' (\code{igraph::shortest_paths(..., predecessors = TRUE)} in igraph 1.3);
#' \code{source_predecessor = "self"} gives igraph's form.
#'
#' @inheritParams cuRnet_bfs
#' @param from Source vertices, as \code{sources} in \code{\link{cuRnet_bfs}}.
#' @param predecessors \code{"names"}: a character matrix of each vertex's
#'   predecessor on a shortest path, \code{""} for none (cuRnet's form);
#'   \code{"index"}: an integer matrix of 1-based vertex indices, \code{NA}
#'   for none (faster).
#' @param source_predecessor \code{"none"} (cuRnet: \code{""} or \code{NA})
#'   or \code{"self"} (igraph: the source itself).
#' @return A list: \code{distances}, a numeric matrix sources x vertices with
#'   \code{Inf} where unreachable, and \code{predecessors}. With
#'   \code{format = "long"}, a data frame of reachable pairs with
#'   \code{distance} and \code{predecessor} columns.
#' @examples
#' if (cuRnet_available()) {
#'   g <- cuRnet_graph(data.frame(from = c("a", "b", "a"), to = c("b", "c", "c"),
#'                                weight = c(1, 1, 5)))
#'   cuRnet_sssp(g, "a")
#'   cuRnet_sssp(g, "a", source_predecessor = "self")$predecessors
#'   tryCatch(cuRnet_sssp(cuRnet_graph(data.frame(from = c("a", "b"), to = c("b", "a"),
#'                                                weight = c(1, -2))), "a"),
#'            cuRnet_negative_cycle = function(e) e$source_name)
#' }
#' @export
cuRnet_sssp <- function(graph, from, predecessors = c("names", "index"), format = c("matrix", "long"),
                        mode = c("out", "in", "all"), to = NULL,
                        source_predecessor = c("none", "self"),
                        backend = getOption("cuRnet.backend", "auto"),
                        progress = getOption("cuRnet.progress", interactive())) {
  q <- many_source_query(graph, from, to, format, mode)
  graph <- q$graph
  ids <- q$ids
  targets <- q$targets
  format <- q$format
  predecessors <- match.arg(predecessors)
  source_predecessor <- match.arg(source_predecessor)
  dist <- result_matrix("double", length(ids), graph, targets, if (predecessors == "names") 20 else 12)
  pred <- result_matrix("integer", length(ids), graph, targets, 0)
  # The engine writes the predecessors as R wants them (1-based, NA or n + 1 for none, the
  # source itself for "self"): R makes no pass over the index matrix, and one index for names.
  run_sssp(graph, ids, dist, pred, progress, backend, q$mode, targets,
           pred_none = if (predecessors == "names") graph$n + 1L else NA_integer_,
           source_self = source_predecessor == "self")
  if (predecessors == "names") pred <- name_matrix(pred, graph)
  if (format == "long") {
    out <- shape_result(dist, graph, ids, "long", "distance", targets)
    out$predecessor <- pred[is.finite(dist)]
    return(out)
  }
  list(distances = shape_result(dist, graph, ids, "matrix", targets = targets),
       predecessors = shape_result(pred, graph, ids, "matrix", targets = targets))
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
                              mode = c("out", "in", "all"), to = NULL,
                              backend = getOption("cuRnet.backend", "auto"),
                              progress = getOption("cuRnet.progress", interactive())) {
  run_sssp_dists(many_source_query(graph, from, to, format, mode), backend, progress)
}

#' Strongly (or weakly) connected components
#'
#' @inheritParams cuRnet_bfs
#' @param integer Return an integer matrix instead of cuRnet's numeric one.
#' @param mode \code{"strong"}: strongly connected components;
#'   \code{"weak"}: the components of the graph with edge directions ignored.
#'   On an undirected graph both are the connected components.
#' @return A 1 x |V| matrix of component ids, columns named by vertex (in
#'   vertex order, matching the ids). Components are numbered 1, 2, ... in
#'   order of their first vertex, so equal graphs give equal ids.
#' @seealso \code{\link{cuRnet_components}} for igraph's \code{components()} form.
#' @examples
#' if (cuRnet_available()) {
#'   g <- cuRnet_graph(data.frame(from = c("a", "b", "c"), to = c("b", "a", "d")))
#'   cuRnet_scc(g)
#'   cuRnet_scc(g, mode = "weak")
#' }
#' @export
cuRnet_scc <- function(graph, integer = FALSE, mode = c("strong", "weak"),
                       backend = getOption("cuRnet.backend", "auto")) {
  graph <- check_graph(graph)
  mode <- match.arg(mode)
  labels <- new_result(if (integer) "integer" else "double", 1L, graph$n)
  engine_call(engine_module("traversals")$scc_into(graph$py, data_address(labels), typeof(labels), base = 1L,
                                backend = backend, mode = mode))
  if (!is.null(graph$names)) dimnames(labels) <- list(NULL, graph$names)
  labels
}

#' Connected components in igraph's \code{components()} form
#'
#' @inheritParams cuRnet_scc
#' @param mode \code{"weak"} (igraph's default) or \code{"strong"}.
#' @return A list as \code{igraph::components()} returns: \code{membership}
#'   (each vertex's component, named by vertex if the graph has names),
#'   \code{csize} (the size of each component) and \code{no} (their number).
#'   Components are numbered in order of their first vertex; for
#'   \code{"weak"} that is igraph's numbering too, for \code{"strong"} igraph
#'   numbers them in another order (the same partition).
#' @examples
#' if (cuRnet_available()) {
#'   g <- cuRnet_graph(data.frame(from = c("a", "b", "c"), to = c("b", "a", "d")))
#'   cuRnet_components(g)
#' }
#' @export
cuRnet_components <- function(graph, mode = c("weak", "strong"),
                              backend = getOption("cuRnet.backend", "auto")) {
  labels <- cuRnet_scc(graph, integer = TRUE, mode = match.arg(mode), backend = backend)
  membership <- as.vector(labels)
  names(membership) <- colnames(labels)
  csize <- tabulate(membership, nbins = max(c(0L, membership)))
  list(membership = membership, csize = as.numeric(csize), no = length(csize))
}

#' Shortest-path distances with igraph's \code{distances()} interface
#'
#' A drop-in for \code{igraph::distances()} (igraph 1.3 and 2.x): same
#' arguments, defaults and result, so igraph code switches by renaming the
#' call. The engine's graph is kept with the igraph object (converted once);
#' a \code{\link{cuRnet_graph}} is taken as it is.
#'
#' @param graph An igraph object, or a \code{\link{cuRnet_graph}} (or anything
#'   \code{cuRnet_graph()} takes), with its own weights unless \code{weights = NA}.
#' @param v,to Source and target vertices (igraph vertex sequences, names or
#'   1-based indices). \code{v = numeric(0)} gives a 0-row matrix, as in igraph.
#' @param mode \code{"all"} ignores edge directions (igraph's default),
#'   \code{"out"} follows them, \code{"in"} goes against them.
#' @param weights \code{NULL} uses the \code{weight} edge attribute if
#'   there is one (a cuRnet graph: its own weights); \code{NA} ignores
#'   weights; or (igraph objects only) a numeric vector.
#' @param algorithm As igraph's. The engine picks its own method for each
#'   batch of sources (breadth-first search without weights; Dijkstra-like
#'   relaxation for non-negative weights, Bellman-Ford otherwise), and every
#'   method gives the same distances, so \code{algorithm} decides what is
#'   accepted, as in igraph: \code{"unweighted"} ignores the weights (with
#'   igraph's warning); \code{"dijkstra"} refuses negative weights;
#'   \code{"automatic"}, \code{"bellman-ford"}, \code{"johnson"} and
#'   \code{"floyd-warshall"} (igraph 2.x) accept negative weights on directed
#'   graphs and run the engine's shortest paths (igraph 1.3.5 refuses
#'   negative weights with \code{"automatic"} and \code{"johnson"}).
#' @param backend,progress As in \code{\link{cuRnet_bfs}}.
#' @param precision \code{"double"} (igraph's results to 1e-12) or
#'   \code{"single"} (float32 weights: about 1e-6 relative, half the memory),
#'   as in \code{\link{cuRnet_graph}}; a cuRnet graph keeps its own.
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
                             algorithm = c("automatic", "unweighted", "dijkstra", "bellman-ford",
                                           "johnson", "floyd-warshall"),
                             backend = getOption("cuRnet.backend", "auto"),
                             progress = getOption("cuRnet.progress", interactive()),
                             precision = c("double", "single")) {
  mode <- match.arg(mode)
  precision <- match_precision(precision)
  algorithm <- match.arg(algorithm)
  if (!igraph::is_igraph(graph)) {
    g <- weighted_graph(graph, weights)
    weighted <- g$use_weights
    lowest <- if (weighted) reticulate::py_to_r(g$py$min_weight) else 1
    v <- if (missing(v)) seq_len(g$n) else vertex_ids(g, v) + 1L
    to <- if (missing(to)) seq_len(g$n) else vertex_ids(g, to, "target") + 1L
    names <- g$names
  } else {
    v <- as.integer(igraph::V(graph)[v])
    to <- as.integer(igraph::V(graph)[to])
    w <- igraph_weights(graph, weights)
    weighted <- !is.null(w)
    lowest <- if (is.numeric(w) && length(w)) min(w, na.rm = TRUE) else 1
    names <- igraph::V(graph)$name
  }
  if (weighted && algorithm == "unweighted") {
    warning("Unweighted algorithm chosen, weights ignored", call. = FALSE)
    weighted <- FALSE
  }
  if (weighted && algorithm == "dijkstra" && lowest < 0) {
    stop("algorithm = \"dijkstra\" needs non-negative weights; use \"bellman-ford\" or ",
         "\"johnson\" for negative ones", call. = FALSE)
  }
  if (!length(v)) {
    return(matrix(numeric(0), 0L, length(to),
                  dimnames = if (!is.null(names)) list(character(0), names[to])))
  }
  if (igraph::is_igraph(graph)) g <- igraph_engine_graph(graph, if (weighted) w, precision = precision)
  # v and to are checked 1-based indices: the query is made here, not by cuRnet_bfs() again
  q <- list(graph = check_graph(g), ids = v - 1L, targets = if (!identical(to, seq_len(g$n))) to - 1L,
            format = "matrix", mode = mode)
  if (weighted) run_sssp_dists(q, backend, progress) else run_bfs(q, "double", backend, progress)
}

# A many-source query's matrix (many_source_query()): allocated for the engine, filled by
# `fill(m)`, then named or made long; `value` names the long form's column.
many_source_result <- function(q, type, value, fill) {
  m <- result_matrix(type, length(q$ids), q$graph, q$targets)
  fill(m)
  shape_result(m, q$graph, q$ids, q$format, value, q$targets)
}

run_bfs <- function(q, type, backend, progress) {
  many_source_result(q, type, "depth", function(depth) with_prefault(list(depth),
    engine_call(engine_module("traversals")$bfs_into(
      q$graph$py, as_numbers(q$ids), data_address(depth), typeof(depth), progress_hook(progress, "BFS"),
      backend, q$mode, engine_targets(q$targets)))))
}

run_sssp_dists <- function(q, backend, progress) {
  many_source_result(q, "double", "distance", function(dist) {
    run_sssp(q$graph, q$ids, dist, NULL, progress, backend, q$mode, q$targets)
  })
}

run_sssp <- function(graph, ids, dist, pred, progress, backend, mode, targets,
                     pred_none = NA_integer_, source_self = FALSE) {
  with_prefault(list(dist, pred),
    engine_call(engine_module("traversals")$sssp_into(
      graph$py, as_numbers(ids), data_address(dist), if (!is.null(pred)) data_address(pred),
      progress_hook(progress, "SSSP"), backend, mode, engine_targets(targets),
      pred_none = pred_none, source_self = source_self),
                graph$names))
}

# Predecessor names from the engine's 1-based indices (n + 1: none, ""), in one index.
name_matrix <- function(pred, graph) {
  out <- c(vertex_names(graph), "")[pred]
  dim(out) <- dim(pred)
  out
}

# The checks every many-source call makes first: the graph, its sources and targets as
# engine ids, and `format` and `mode` among their choices.
many_source_query <- function(graph, sources, to, format, mode) {
  graph <- check_graph(graph)
  list(graph = graph, ids = vertex_ids(graph, sources), targets = target_ids(graph, to),
       format = match.arg(format, c("matrix", "long")), mode = match.arg(mode, c("out", "in", "all")))
}

# The user's vertices (names or 1-based indices) as 0-based engine ids.
# Names are looked up here (R keeps them); the engine checks the ids (none given, none in
# the graph, out of range), so R and Python refuse the same things with the same words.
vertex_ids <- function(graph, v, what = "source") {
  if (is.factor(v) || is.character(v) || (is.numeric(v) && graph$ids_are_names)) {
    if (anyNA(v)) stop(what, "s contain NA", call. = FALSE)
    if (is.null(graph$names)) {
      stop("this graph has no vertex names: give ", what, "s as 1-based indices", call. = FALSE)
    }
    v <- as_label(v)
    i <- match(v, graph$names)
    if (anyNA(i)) stop(unknown_names_message(graph, unique(v[is.na(i)]), what), call. = FALSE)
    v <- i
  } else if (!is.numeric(v) && !(is.logical(v) && all(is.na(v)))) {   # NA alone: the engine's message
    stop(what, "s must be vertex names or 1-based vertex indices", call. = FALSE)
  }
  # whole numbers go as integers; anything else as doubles, which the engine refuses
  whole <- all(is.na(v) | (abs(v) < .Machine$integer.max & v == trunc(v)))
  out <- whole & !is.na(v) & (v < 1 | v > graph$n)
  if (graph$n > 0 && any(out)) {    # said here, in R's 1-based words (the engine would say "id 9")
    stop(cuRnet_error(sprintf("%s %s is not a vertex index: the graph has %s vertices (1..%s)", what,
                              format(v[out][1], scientific = FALSE), graph$n, graph$n)))
  }
  if (whole) as.integer(v) - 1L else as.double(v) - 1
}

# Targets for the engine (NULL: all vertices).
engine_targets <- function(ids) if (!is.null(ids)) as_numbers(ids)

# 0-based target ids (checked by the engine), or NULL for all vertices.
target_ids <- function(graph, to) if (!is.null(to)) vertex_ids(graph, to, "target")

# A k x (n or |targets|) result left uninitialised for the engine, after the engine's
# memory check (bytes_per_cell covers what the call allocates for each cell, in all).
result_matrix <- function(type, k, graph, targets, bytes_per_cell = if (type == "integer") 4 else 8) {
  n <- if (is.null(targets)) graph$n else length(targets)
  if (bytes_per_cell > 0) engine_call(engine_module("handoff")$check_result_fits(k, n, bytes_per_cell))
  new_result(type, k, n)
}

vertex_names <- function(graph) {
  if (is.null(graph$names)) as.character(seq_len(graph$n)) else graph$names
}

# Names a result matrix in place, or turns it into a data frame of the reachable pairs.
# ids: the sources (0-based, from the engine's Arrow array); targets: 0-based columns or NULL.
shape_result <- function(m, graph, ids, format, value = "value", targets = NULL) {
  cols <- if (is.null(targets)) seq_len(graph$n) else targets + 1L
  if (format == "matrix") {
    if (!is.null(graph$names)) dimnames(m) <- list(graph$names[ids + 1L], graph$names[cols])
    return(m)
  }
  cells <- which(is.finite(m))
  k <- nrow(m)
  row <- (cells - 1L) %% k + 1L
  col <- (cells - 1L) %/% k + 1L
  names <- vertex_names(graph)
  out <- data.frame(from = names[ids[row] + 1L], to = names[cols[col]], stringsAsFactors = FALSE)
  out[[value]] <- m[cells]
  out
}
