# One way from an igraph object to the engine's graph, kept with the object.
#
# Building the engine's graph costs about a second for 300k edges, and every cuRnet call on
# an igraph object needs one. igraph keeps an environment in each graph object (its id);
# copies of the object, and copies whose attributes were changed (E(g)$weight <- w), share
# it, while igraph's structural operations make a new one. The engine graph is kept there
# under the exact content it was built from (edges, weights, names, directions, precision),
# compared in a few milliseconds, so a changed graph is never answered from a stale copy.

# How many conversions of one igraph object are kept (hops and weights, say, or two modes).
IGRAPH_CACHE_SLOTS <- 4L

# The cuRnet graph of igraph object `graph` with `weights` (a numeric vector or NULL:
# already resolved by igraph's convention), one-way edges unless `directed` is FALSE (an
# undirected igraph object asked for directed = TRUE gets both directions of each edge).
igraph_engine_graph <- function(graph, weights, directed = igraph::is_directed(graph),
                                precision = "double") {
  if (!igraph::is_igraph(graph)) stop("this function takes an igraph object", call. = FALSE)
  directed <- isTRUE(directed)
  mutual <- directed && !igraph::is_directed(graph)
  edges <- igraph::as_edgelist(graph, names = FALSE)
  names <- igraph::V(graph)$name
  key <- list(edges = edges, weights = weights, directed = directed, names = names,
              n = igraph::vcount(graph), precision = precision)
  env <- igraph_environment(graph)
  slots <- if (!is.null(env)) get0(".cuRnet_engine_graphs", envir = env, inherits = FALSE)
  for (slot in slots) {
    if (identical(slot$key, key) && !reticulate::py_is_null_xptr(slot$graph$py)) return(slot$graph)
  }
  if (mutual) {     # each edge both ways (loops too), as igraph::as.directed(mode = "mutual")
    edges <- rbind(edges, edges[, 2:1, drop = FALSE])
    if (!is.null(weights)) weights <- c(weights, weights)
  }
  g <- engine_graph(edges[, 1] - 1L, edges[, 2] - 1L, weights, directed, names,
                    n = igraph::vcount(graph), ids_are_names = FALSE, precision = precision)
  if (!is.null(env)) {
    slots <- c(list(list(key = key, graph = g)), slots)
    assign(".cuRnet_engine_graphs", utils::head(slots, IGRAPH_CACHE_SLOTS), envir = env)
  }
  g
}

# The environment igraph keeps in a graph object (NULL if this igraph version keeps none).
igraph_environment <- function(graph) {
  parts <- unclass(graph)
  env <- if (length(parts) >= 10) parts[[10]]
  if (is.environment(env)) env
}
