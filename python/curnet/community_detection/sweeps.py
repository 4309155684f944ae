"""Many Leiden or Louvain runs in one call (every resolution with every seed), the graph
prepared once on the device: a membership matrix, a consensus partition by co-assignment
(Lancichinetti & Fortunato's consensus clustering, restricted to the graph's edges as in
ECG) and a resolution profile."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..backends import get_backend
from ..backends.partitions import partition_primitives
from ..graph import Graph
from .partitions import Partition, check_graph, first_level, run


@dataclass
class PartitionSweep:
    """`memberships` (runs x vertices, 0-based), and each run's `quality`, `resolution` and
    `seed`; runs go resolution by resolution, the seeds inside."""
    memberships: np.ndarray
    quality: np.ndarray
    resolution: np.ndarray
    seed: list
    algorithm: str
    objective: str
    graph: Graph = field(repr=False)

    def coassignment(self) -> np.ndarray:
        """For each edge of the graph (Graph.edges() order), the share of runs that put its
        two ends in one community."""
        src, dst, _ = self.graph.edges()
        return (self.memberships[:, src] == self.memberships[:, dst]).mean(axis=0)

    def consensus(self, threshold: float = 0.5, seed=0, backend: str = "auto") -> Partition:
        """The consensus partition: Leiden (modularity) on the graph of the edges whose ends
        share a community in at least `threshold` of the runs, weighted by that share. Its
        quality is the modularity of the original graph (resolution 1)."""
        if not 0 <= threshold <= 1:
            raise ValueError(f"threshold must lie in [0, 1], got {threshold}")
        src, dst, _ = self.graph.edges()
        share = self.coassignment()
        keep = (share >= threshold) & (share > 0)
        together = Graph.from_edges(src[keep], dst[keep], share[keep], directed=False,
                                    num_vertices=len(self.graph), dtype=np.float64)
        found = run(together, algorithm="leiden", objective="modularity", resolution=1.0, weighted=True,
                    beta=0.01, n_iterations=-1, initial=None, seed=seed, backend=backend)
        from .partitions import modularity
        q = modularity(self.graph, found.membership, backend=backend)
        return Partition(found.membership, q, "modularity", 1.0, "consensus", self.graph.names)

    def profile(self) -> dict:
        """Per resolution (sorted): the median number of communities and median quality over
        the seeds, and the largest community's median size."""
        out: dict = {"resolution": [], "communities": [], "quality": [], "largest": []}
        for r in np.unique(self.resolution):
            rows = self.memberships[self.resolution == r]
            out["resolution"].append(float(r))
            out["communities"].append(float(np.median(rows.max(axis=1) + 1)))
            out["quality"].append(float(np.median(self.quality[self.resolution == r])))
            out["largest"].append(float(np.median([np.bincount(m).max() for m in rows])))
        return {k: np.asarray(v) for k, v in out.items()}


def sweep(g, *, algorithm: str, resolutions, seeds, objective: str, weighted, beta: float,
          n_iterations: int, initial, vertex_weights, backend: str) -> PartitionSweep:
    resolutions = np.atleast_1d(np.asarray(resolutions, dtype=np.float64))
    seeds = list(seeds) if not np.isscalar(seeds) and seeds is not None else [seeds]
    if len(resolutions) == 0 or len(seeds) == 0:
        raise ValueError("resolutions and seeds must each hold at least one value")
    check_graph(g, algorithm)
    device = get_backend(backend).members[0]
    prim = partition_primitives(device)
    with device.device_scope():
        lg = first_level(prim.xp, g, weighted, vertex_weights)       # once for every run
    rows, quality, res, seed_of = [], [], [], []
    for r in resolutions:
        for s in seeds:
            p = run(g, algorithm=algorithm, objective=objective, resolution=float(r), weighted=weighted,
                    beta=beta, n_iterations=n_iterations, initial=initial, seed=s, backend=backend,
                    vertex_weights=vertex_weights, lg=lg, prim=prim)
            rows.append(p.membership)
            quality.append(p.quality)
            res.append(float(r))
            seed_of.append(s)
    memberships = np.vstack(rows) if rows else np.zeros((0, len(g)), np.int32)
    return PartitionSweep(memberships.astype(np.int32), np.asarray(quality), np.asarray(res), seed_of,
                          algorithm, objective, g)
