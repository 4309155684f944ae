"""The CPU backend (NumPy and SciPy), by concern: `backend` (CPUBackend, the delegation),
`batches` (the thread plan), `bfs`, `sssp`, `scc`; the graph's host copy is `backends.hostgraph`."""
from ..hostgraph import HostGraph
from .backend import CPUBackend

__all__ = ["CPUBackend", "HostGraph"]
