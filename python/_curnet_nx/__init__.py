"""NetworkX's `networkx.backend_info` entry point for cuRnet's backend (`backend="curnet"`).

NetworkX calls `get_info()` on every `import networkx`, so it lives in this tiny package that
imports nothing (not curnet's engine, never CuPy); the backend itself is `curnet.nx`, loaded
only when a call is dispatched to it.
"""
import os

# The functions the backend implements, with what it does differently from NetworkX.
FUNCTIONS = {
    "single_source_shortest_path_length": "",
    "all_pairs_shortest_path_length": "Sources run in batches on the engine (many-source BFS).",
    "bfs_layers": "",
    "descendants_at_distance": "",
    "single_source_shortest_path": "",
    "single_source_dijkstra_path_length": "Negative weights are declined (NotImplementedError).",
    "single_source_dijkstra_path": "Negative weights are declined. Among equally short paths "
                                   "the one returned may differ from NetworkX's.",
    "all_pairs_dijkstra_path_length": "Sources run in batches on the engine. Negative weights are declined.",
    "multi_source_dijkstra_path_length": "One traversal from a virtual source joined to all sources. "
                                         "Negative weights are declined.",
    "single_source_bellman_ford_path_length": "",
    "all_pairs_bellman_ford_path_length": "Sources run in batches on the engine.",
    "bellman_ford_predecessor_and_distance": "`heuristic` is ignored: negative cycles are always "
                                             "detected exactly.",
    "negative_edge_cycle": "`heuristic` is ignored.",
    "johnson": "Paths come from the engine's batched shortest paths (no reweighting needed); "
               "among equally short paths the one returned may differ from NetworkX's.",
    "strongly_connected_components": "Components come in order of their smallest node "
                                     "(position in G), not in NetworkX's order.",
    "number_strongly_connected_components": "",
    "is_strongly_connected": "",
    "closeness_centrality": "All nodes in batches, reduced on the device (the distance matrix "
                            "is never held). Negative distances are declined.",
    "eccentricity": "Reduced on the device; `sp` (precomputed lengths) is declined.",
    "diameter": "All eccentricities, exactly (`usebounds` is not needed); `e` is declined.",
    "radius": "All eccentricities, exactly (`usebounds` is not needed); `e` is declined.",
}

WEIGHTED = {name for name in FUNCTIONS if "dijkstra" in name or "bellman" in name
            or name in ("negative_edge_cycle", "johnson", "closeness_centrality", "eccentricity",
                        "diameter", "radius")}


def default_config() -> dict:
    """`nx.config.backends.curnet`: which engine backend runs the calls, and when automatic
    dispatch (backend priority) should use cuRnet at all."""
    return {
        # "auto" (a GPU when one is usable, else the CPU), "cpu", "cuda", "cuda:0,1", "cuda:all"
        "backend": os.environ.get("CURNET_NX_BACKEND", "auto"),
        # graphs with fewer nodes stay with NetworkX under automatic dispatch
        "min_nodes": int(os.environ.get("CURNET_NX_MIN_NODES", "64")),
    }


def get_info() -> dict:
    return {
        "backend_name": "curnet",
        "project": "cuRnet",
        "package": "curnet",
        "short_summary": "Many-source BFS, shortest paths (negative weights too) and SCC on the GPU or CPU.",
        "default_config": default_config(),
        "functions": {name: ({"additional_docs": doc} if doc else {}) for name, doc in FUNCTIONS.items()},
    }

# Betweenness (curnet.nx.betweenness): Brandes' algorithm over batches of sources.
FUNCTIONS.update({
    "betweenness_centrality": "Sources in batches, path counts and dependencies summed on the "
                              "device. A seed samples the same k sources as NetworkX. Zero or "
                              "negative weights are declined.",
    "edge_betweenness_centrality": "As betweenness_centrality; a multigraph is declined.",
    "betweenness_centrality_subset": "As betweenness_centrality, over the given sources and targets.",
})
WEIGHTED |= {"betweenness_centrality", "edge_betweenness_centrality", "betweenness_centrality_subset"}

# Propagation (curnet.nx.propagation): power iteration, one SpMM a step.
FUNCTIONS.update({
    "pagerank": "Iterates until each rank is within 1e-10 (tol and max_iter are not needed). "
                "A dangling distribution other than the personalization, and multigraphs, are "
                "declined.",
})
WEIGHTED |= {"pagerank"}

# Communities (curnet.nx.communities): Leiden and Louvain, undirected graphs.
FUNCTIONS.update({
    "louvain_communities": "Parallel local moving on the engine; levels go on until one merges "
                           "nothing (threshold not needed). Directed graphs, multigraphs and "
                           "max_level are declined.",
    "leiden_communities": "Leiden (modularity) until an iteration no longer raises it; every "
                          "community connected. Declined as louvain_communities.",
    "modularity": "Computed on the engine. Directed graphs and multigraphs are declined.",
})
WEIGHTED |= {"louvain_communities", "leiden_communities", "modularity"}
