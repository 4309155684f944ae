#' igraph's function names, answered by cuRnet
#'
#' cuRnet's drop-ins under the igraph names they replace, igraph 1.3's names and their older
#' dotted aliases: \code{distances} (\code{shortest.paths}), \code{shortest_paths}
#' (\code{get.shortest.paths}), \code{betweenness}, \code{edge_betweenness}
#' (\code{edge.betweenness}), \code{closeness}, \code{harmonic_centrality},
#' \code{eccentricity}, \code{radius}, \code{diameter}, \code{farthest_vertices}
#' (\code{farthest.nodes}), \code{mean_distance} (\code{average.path.length}),
#' \code{ego_size} (\code{neighborhood.size}), \code{components} (\code{clusters}),
#' \code{page_rank} (\code{page.rank}), \code{cluster_leiden}, \code{cluster_louvain}
#' (\code{multilevel.community}) and \code{cluster_edge_betweenness}
#' (\code{edge.betweenness.community}). igraph code evaluated where these names come first
#' runs on cuRnet unchanged, and the rest of igraph (graph building, \code{V()},
#' \code{membership()}, \code{modularity()}) stays igraph's. igraph 1.3.5's own test files run
#' this way against cuRnet in cuRnet's tests; where their answers differ (seeded community
#' memberships, which come from each tool's own random numbers) is listed there.
#'
#' @return A named list of functions, one an igraph name.
#' @examples
#' if (cuRnet_available()) {
#'   g <- igraph::make_graph("Zachary")
#'   with(cuRnet_igraph_functions(), betweenness(g))   # cuRnet_betweenness(g)
#'   # a whole igraph script, its names answered by cuRnet:
#'   # attach(cuRnet_igraph_functions(), name = "cuRnet_igraph"); source("analysis.R")
#' }
#' @export
cuRnet_igraph_functions <- function() {
  list(
    distances = cuRnet_distances, shortest.paths = cuRnet_distances,
    shortest_paths = cuRnet_shortest_paths, get.shortest.paths = cuRnet_shortest_paths,
    betweenness = cuRnet_betweenness,
    edge_betweenness = cuRnet_edge_betweenness, edge.betweenness = cuRnet_edge_betweenness,
    closeness = cuRnet_closeness, harmonic_centrality = cuRnet_harmonic_centrality,
    eccentricity = cuRnet_eccentricity, radius = cuRnet_radius, diameter = cuRnet_diameter,
    farthest_vertices = cuRnet_farthest_vertices, farthest.nodes = cuRnet_farthest_vertices,
    mean_distance = cuRnet_mean_distance, average.path.length = cuRnet_mean_distance,
    ego_size = cuRnet_ego_size, neighborhood.size = cuRnet_ego_size,
    components = cuRnet_components, clusters = cuRnet_components,
    page_rank = cuRnet_page_rank, page.rank = cuRnet_page_rank,
    cluster_leiden = cuRnet_cluster_leiden,
    cluster_louvain = cuRnet_cluster_louvain, multilevel.community = cuRnet_cluster_louvain,
    cluster_edge_betweenness = cuRnet_cluster_edge_betweenness,
    edge.betweenness.community = cuRnet_cluster_edge_betweenness
  )
}
