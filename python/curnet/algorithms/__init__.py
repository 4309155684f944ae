"""The algorithm drivers: each validates, batches the sources, calls the backend's primitives."""
from .bfs import bfs, bfs_blocks
from .scc import scc
from .sssp import sssp, sssp_blocks, sssp_dists

__all__ = ["bfs", "sssp", "sssp_dists", "scc", "bfs_blocks", "sssp_blocks"]
