"""cuRnet's engine: graph analytics for biological networks on NVIDIA GPUs (CuPy) or any CPU.

Traversals and shortest paths from many sources at once, connected components, igraph's
distance measures, betweenness and communities, prize-collecting Steiner forests,
co-expression networks and modules (WGCNA's numbers) and network propagation; the R
package cuRnet runs on it.

    import curnet
    g = curnet.Graph.from_edges(["a", "b", "c"], ["b", "c", "a"], [0.5, 1.0, 2.0])
    depths = curnet.bfs(g, ["a", "b"])          # (2, 3) int32, -1 unreachable
    dist, pred = curnet.sssp(g, ["a"])
    labels = curnet.scc(g)
"""
# No function is exported here under the name of its own module (`curnet.info` the function
# would hide the module `curnet.info`): modules are named for their concept and imported by
# their path (`from curnet.analyses.network_proximity import degree_bins`); the analyses are
# in analyses/, and this table is their public path.
#
# `import curnet` loads NumPy and the graph only: each export below is imported at its first
# use (module __getattr__), so a call loads SciPy, pyarrow, CuPy, Dask or NetworkX only when
# it needs them (docs/first-call.md). Add an export to EXPORTS, not as an import here.
from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec

from ._version import __version__ as __version__   # re-exported: curnet.__version__
from .errors import BackendUnavailableError, NegativeCycleError, OutputTooLargeError
from .graph import Graph

#: Each lazy export and the module that defines it.
EXPORTS = {
    "bfs": "curnet.algorithms.bfs",
    "scc": "curnet.algorithms.scc",
    "sssp": "curnet.algorithms.sssp", "sssp_dists": "curnet.algorithms.sssp",
    "info": "curnet.analyses.engine_info",
    "count_work": "curnet.work", "WorkBoundExceeded": "curnet.work",
    "shortest_paths": "curnet.analyses.paths",
    "proximity": "curnet.analyses.network_proximity",
    "bfs_batches": "curnet.analyses.streaming", "sssp_batches": "curnet.analyses.streaming",
    **{name: "curnet.analyses.measures" for name in (
        "closeness", "diameter", "distance_table", "eccentricity", "ego_size", "farthest_points",
        "harmonic_centrality", "mean_distance", "radius")},
    "read_graph": "curnet.io", "GraphFormatError": "curnet.io",
    **{name: "curnet.analyses.betweenness_centrality" for name in ("betweenness", "edge_betweenness")},
    "girvan_newman": "curnet.analyses.communities",
    **{name: "curnet.analyses.community_detection.partitions" for name in ("leiden", "louvain")},
    "hclust": "curnet.analyses.linkage",
    "pcsf": "curnet.analyses.steiner_forest", "pcsf_rand": "curnet.analyses.steiner_forest",
    "interactome": "curnet.analyses.steiner_forest",
    **{name: "curnet.propagation" for name in (
        "pagerank", "rwr", "diffuse", "diffusion_kernel", "propagation_null")},
}

__all__ = ["Graph", "NegativeCycleError", "BackendUnavailableError", "OutputTooLargeError",
           "generators", "coexpression", "datasets", *EXPORTS]


def __getattr__(name):
    """An export or a subpackage (`curnet.datasets`, `curnet.coexpression`, ...), imported at
    its first use and kept."""
    if name in EXPORTS:
        value = getattr(_import_module(EXPORTS[name]), name)
    elif not name.startswith("__") and _find_spec(f"{__name__}.{name}") is not None:
        value = _import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module 'curnet' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
