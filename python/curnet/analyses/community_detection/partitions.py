"""`curnet.leiden` and `curnet.louvain`: communities of an undirected graph that maximise
modularity or the Constant Potts Model (igraph's `cluster_leiden` / `cluster_louvain`), on the
CPU or a GPU: one run (runs.py) or, given several resolutions or seeds, a sweep (sweeps.py)."""
from __future__ import annotations

from .runs import Partition, modularity, run
from .sweeps import sweep

__all__ = ["Partition", "leiden", "louvain", "modularity"]


def leiden(g, *, resolution: float = 1.0, objective: str = "modularity", weighted=None,
           beta: float = 0.01, n_iterations: int = 2, initial=None, seed=None,
           vertex_weights=None, backend: str = "auto", resolutions=None, seeds=None):
    """Communities by the Leiden algorithm (Traag, Waltman & van Eck 2019), igraph's
    `cluster_leiden`: `objective` "modularity" (igraph's default in python-igraph's
    `community_leiden(objective_function="modularity")`) or "cpm"; `n_iterations` < 0 runs
    until an iteration no longer raises the quality. `initial`: a starting membership.
    `vertex_weights`: CPM's vertex weights (1 each by default). Every community is connected.

    With `resolutions=[...]` and/or `seeds=[...]`: every combination in one call, a
    `PartitionSweep` (membership matrix, qualities, consensus, resolution profile)."""
    if resolutions is not None or seeds is not None:
        return sweep(g, algorithm="leiden", resolutions=resolutions if resolutions is not None else [resolution],
                     seeds=seeds if seeds is not None else [seed], objective=objective, weighted=weighted,
                     beta=beta, n_iterations=n_iterations, initial=initial, vertex_weights=vertex_weights,
                     backend=backend)
    return run(g, algorithm="leiden", objective=objective, resolution=resolution, weighted=weighted,
               beta=beta, n_iterations=n_iterations, initial=initial, seed=seed, backend=backend,
               vertex_weights=vertex_weights)


def louvain(g, *, resolution: float = 1.0, weighted=None, seed=None, backend: str = "auto",
            resolutions=None, seeds=None):
    """Communities by the Louvain method (Blondel et al. 2008; igraph's `cluster_louvain`):
    local moving and aggregation until no level merges anything; the quality is modularity
    at `resolution`. `resolutions` / `seeds`: a `PartitionSweep`, as `leiden`."""
    if resolutions is not None or seeds is not None:
        return sweep(g, algorithm="louvain", resolutions=resolutions if resolutions is not None else [resolution],
                     seeds=seeds if seeds is not None else [seed], objective="modularity",
                     weighted=weighted, beta=0.01, n_iterations=1, initial=None, vertex_weights=None,
                     backend=backend)
    return run(g, algorithm="louvain", objective="modularity", resolution=resolution, weighted=weighted,
               beta=0.01, n_iterations=1, initial=None, seed=seed, backend=backend)
