"""The algorithm drivers: each validates, batches the sources, calls the backend's primitives."""
from .bfs import bfs
from .scc import scc
from .sssp import sssp, sssp_dists

__all__ = ["bfs", "sssp", "sssp_dists", "scc"]
