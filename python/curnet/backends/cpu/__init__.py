"""The CPU backend (NumPy and SciPy), by concern: `backend` (CPUBackend, the delegation),
`batches` (the thread plan), `bfs`, `sssp`, `scc`, `brandes`, `leiden`, `propagation`; the
compiled routes where Numba imports, `compiled_bfs`, `compiled_sssp`, `compiled_scc`,
`compiled_brandes` (Girvan–Newman's rescore, weighted DAGs), `compiled_leiden` and
`compiled_propagation` (the walk's power iteration, the regularized Laplacian's conjugate
gradients), over what they share in `compiled`, each taken where `routes.compiled_module`
says; the graph's host copy is `backends.hostgraph`."""
from ..hostgraph import HostGraph
from .backend import CPUBackend

__all__ = ["CPUBackend", "HostGraph"]
