"""cuRnet's engine: many-source BFS, shortest paths and SCC on the GPU (CuPy) or the CPU.

    import curnet
    g = curnet.Graph.from_edges(["a", "b", "c"], ["b", "c", "a"], [0.5, 1.0, 2.0])
    depths = curnet.bfs(g, ["a", "b"])          # (2, 3) int32, -1 unreachable
    dist, pred = curnet.sssp(g, ["a"])
    labels = curnet.scc(g)
"""
# No function is exported here under the name of its own module (`curnet.info` the function
# would hide the module `curnet.info`): modules are named for their concept and imported by
# their path (`from curnet.network_proximity import degree_bins`).
from ._version import __version__
from . import datasets, generators
from .algorithms.bfs import bfs
from .algorithms.scc import scc
from .algorithms.sssp import sssp, sssp_dists
from .errors import BackendUnavailableError, NegativeCycleError, OutputTooLargeError
from .graph import Graph
from .engine_info import info
from .work import WorkBoundExceeded, count_work
from .paths import shortest_paths
from .network_proximity import proximity
from .streaming import bfs_batches, sssp_batches
from .measures import (closeness, diameter, distance_table, eccentricity, ego_size,
                       farthest_points, harmonic_centrality, mean_distance, radius)

try:
    from .io import GraphFormatError, read_graph
except ImportError:  # pragma: no cover - io.py is part of the package
    pass

__all__ = ["Graph", "read_graph", "bfs", "sssp", "sssp_dists", "scc", "info", "generators",
           "NegativeCycleError", "BackendUnavailableError", "OutputTooLargeError", "GraphFormatError",
           "count_work", "WorkBoundExceeded",
           "bfs_batches", "sssp_batches", "shortest_paths", "proximity",
           "closeness", "harmonic_centrality", "eccentricity", "radius", "diameter", "farthest_points",
           "mean_distance", "distance_table", "ego_size"]

from .betweenness_centrality import betweenness, edge_betweenness  # noqa: E402

__all__ += ["betweenness", "edge_betweenness"]

from .communities import girvan_newman  # noqa: E402
__all__ += ["girvan_newman"]

from .steiner_forest import pcsf, pcsf_rand
__all__ += ["pcsf", "pcsf_rand"]

from . import coexpression  # co-expression networks and WGCNA's quantities (curnet.coexpression)
