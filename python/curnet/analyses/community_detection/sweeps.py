"""Many Leiden or Louvain runs in one call (every resolution with every seed), the graph
prepared once on the device: a membership matrix, a consensus partition by co-assignment
(Lancichinetti & Fortunato's consensus clustering, restricted to the graph's edges as in
ECG) and a resolution profile."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...backends import get_backend
from ...backends.partitions import LevelGraph
from ...graph import Graph
from .local_moving import Stream, penalty
from .runs import OBJECTIVES, Partition, check_graph, initial_labels, iterate, level_on, run


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
        from .runs import modularity
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


# A batch of runs is one graph of copies of the graph: about ARC_BYTES an arc on the device
# (the copies' arrays, the moves' hash tables, and the aggregation's int64 keys, sort and
# inverse), in at most BATCH_MEMORY_SHARE of the device's free memory (on an H200, 1,000 runs on
# PCSF's STRING, 42 GB, are one batch: its levels are paid once); and the copies' vertex ids
# must fit int32.
ARC_BYTES = 120
BATCH_MEMORY_SHARE = 1 / 2


def runs_per_batch(free_bytes: int, arcs: int, vertices: int) -> int:
    """Copies of a graph of `arcs` arcs and `vertices` vertices a batch holds in `free_bytes`
    of free memory (1 at least)."""
    by_memory = int(free_bytes * BATCH_MEMORY_SHARE) // (ARC_BYTES * max(1, arcs))
    return max(1, min(by_memory, (2**31 - 1) // max(1, vertices)))


def copies(xp, lg: LevelGraph, vsize, scale) -> LevelGraph:
    """len(scale) disjoint copies of lg, copy r's penalty weights `vsize` times scale[r] (its
    CPM vertex sizes; the copies' communities never meet, so one CPM of resolution 1 over
    the copies is each copy's own objective at resolution scale[r]^2)."""
    c, n, arcs = len(scale), lg.n, len(lg.idx)
    shift = xp.arange(c, dtype=np.int64)[:, None]
    def tile(a):
        return xp.tile(a, c)
    return LevelGraph(
        c * n,
        xp.concatenate([(lg.ptr[None, :-1] + shift * arcs).ravel(), xp.asarray([c * arcs], np.int64)]),
        (lg.src[None, :] + shift * n).ravel().astype(np.int32),
        (lg.idx[None, :] + shift * n).ravel().astype(np.int32),
        tile(lg.w), tile(lg.inner), tile(lg.strength),
        (vsize[None, :] * xp.asarray(scale, dtype=np.float64)[:, None]).ravel())


def copies_quality(xp, lg: LevelGraph, labels, c: int, vsize, gammas) -> np.ndarray:
    """The quality of each copy's partition (labels of the copies' vertices, each community
    inside one copy), igraph's, from the unscaled penalty weights and each copy's g."""
    n = lg.n
    k = int(labels.max()) + 1
    copy_of = xp.zeros(k, np.int64)
    copy_of[labels] = xp.arange(c * n, dtype=np.int64) // n
    src = xp.tile(lg.src, c) + xp.repeat(xp.arange(c, dtype=np.int64) * n, len(lg.src))
    dst = xp.tile(lg.idx, c) + xp.repeat(xp.arange(c, dtype=np.int64) * n, len(lg.idx))
    same = labels[src] == labels[dst]
    inside = xp.bincount(labels, weights=xp.tile(lg.inner, c), minlength=k) + \
        xp.bincount(labels[src], weights=xp.tile(lg.w, c) * same, minlength=k)
    total = xp.bincount(labels, weights=xp.tile(vsize, c), minlength=k)
    per_copy = xp.bincount(copy_of, weights=inside, minlength=c) - \
        xp.asarray(gammas) * xp.bincount(copy_of, weights=total * total, minlength=c)
    out = per_copy / lg.twice_m
    return np.asarray(out.get() if hasattr(out, "get") else out, np.float64)


def batched_runs(prim, lg: LevelGraph, *, algorithm: str, objective: str, resolutions, seeds,
                 beta: float, n_iterations: int, initial, free_bytes: int):
    """Every (resolution, seed) run, a batch of them at once as one run over copies of the
    graph (resolutions >= 0): (memberships, qualities). Each copy is a run of its own
    (its communities stay inside it); a batch's randomness comes from its seeds together,
    so a row is reproducible from the sweep's seeds but is not the single run of its seed.
    `free_bytes`: the device's free memory, which sizes the batches (runs_per_batch)."""
    xp = prim.xp
    n = lg.n
    vsize, _ = penalty(lg, objective, 1.0)
    unit = 1.0 / lg.twice_m if objective == "modularity" else 1.0    # g a unit of resolution
    runs = [(float(r), s) for r in resolutions for s in seeds]
    per_batch = runs_per_batch(free_bytes, len(lg.idx), lg.n)
    start = None if initial is None else xp.asarray(initial_labels(initial, n))
    rows, quality = [], []
    for first in range(0, len(runs), per_batch):
        batch = runs[first:first + per_batch]
        c = len(batch)
        gammas = np.array([r * unit for r, _ in batch])
        big = copies(xp, lg, vsize, np.sqrt(gammas))
        seed_list = [s for _, s in batch]
        stream = Stream(None if any(s is None for s in seed_list) else [int(s) for s in seed_list])
        labels = xp.arange(c * n, dtype=np.int32) if start is None else \
            (start[None, :] + xp.arange(c, dtype=np.int32)[:, None] * n).ravel()
        labels, _ = iterate(prim, big, labels, "cpm", 1.0, beta, n_iterations, algorithm == "leiden", stream)
        quality.append(copies_quality(xp, lg, labels, c, vsize, gammas))
        # labels run in order of first appearance over the copies, so each copy's labels
        # are a block: less its first label, they are its own 0..k-1
        m = labels.reshape(c, n)
        m = m - m[:, :1]
        rows.append(np.asarray(m.get() if hasattr(m, "get") else m, np.int32))
    return np.vstack(rows), np.concatenate(quality)


def sweep(g, *, algorithm: str, resolutions, seeds, objective: str, weighted, beta: float,
          n_iterations: int, initial, vertex_weights, backend: str, as_copies=None) -> PartitionSweep:
    """Every (resolution, seed) run. `as_copies` None: on a GPU as copies of the graph
    (batched_runs), where each run's rounds are a handful of launches whatever its size; on
    the CPU one run at a time, where the copies' whole-array passes cost more than they save
    (STRING's sample, 5 resolutions x 3 seeds: 8.5 s as copies, 6.2 s one at a time)."""
    resolutions = np.atleast_1d(np.asarray(resolutions, dtype=np.float64))
    seeds = list(seeds) if not np.isscalar(seeds) and seeds is not None else [seeds]
    if len(resolutions) == 0 or len(seeds) == 0:
        raise ValueError("resolutions and seeds must each hold at least one value")
    check_graph(g, algorithm)
    device = get_backend(backend).members[0]
    prim = device.partition_primitives()
    res = [float(r) for r in resolutions for _ in seeds]
    seed_of = [s for _ in resolutions for s in seeds]
    objective = objective.lower() if isinstance(objective, str) else objective
    with device.device_scope():
        lg = level_on(device, prim.xp, g, weighted, vertex_weights)       # once for every run
        if as_copies is None:
            as_copies = device.name == "cuda"
        if as_copies and objective in OBJECTIVES and len(g) and lg.twice_m > 0 \
                and bool(np.isfinite(resolutions).all()) and resolutions.min() >= 0 and float(beta) > 0 \
                and int(n_iterations) == n_iterations:
            memberships, quality = batched_runs(prim, lg, algorithm=algorithm, objective=objective,
                                                resolutions=resolutions, seeds=seeds, beta=float(beta),
                                                n_iterations=int(n_iterations), initial=initial,
                                                free_bytes=device.free_memory())
            return PartitionSweep(memberships, quality, np.asarray(res), seed_of, algorithm, objective, g)
    rows, quality = [], []                  # one run at a time (and run's checks of the arguments)
    for r, s in zip(res, seed_of):
        p = run(g, algorithm=algorithm, objective=objective, resolution=r, weighted=weighted,
                beta=beta, n_iterations=n_iterations, initial=initial, seed=s, backend=backend,
                vertex_weights=vertex_weights, lg=lg, prim=prim)
        rows.append(p.membership)
        quality.append(p.quality)
    memberships = np.vstack(rows) if rows else np.zeros((0, len(g)), np.int32)
    return PartitionSweep(memberships.astype(np.int32), np.asarray(quality), np.asarray(res), seed_of,
                          algorithm, objective, g)
