"""One Leiden or Louvain run on a device: the result (`Partition`), validation, the first
level kept with the graph, the iterations over the driver in local_moving.py (the moves a
device's `local_moving` and `refine_moves`), and the modularity of a given membership. `partitions.py` (one run)
and `sweeps.py` (many in one call) both start here."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...backends import get_backend
from ...backends.partitions import LevelGraph, level_graph, renumber
from .local_moving import Stream, one_pass, quality

OBJECTIVES = ("modularity", "cpm")
MAX_STABLE_ITERATIONS = 1000     # n_iterations < 0 ("until stable") stops here at the latest
# ... or once an iteration raises the quality by less than this share (R's loop asks for any
# rise; the parallel moves' random buckets keep finding rises of 1e-9)
STABLE_GAIN = 1e-7


@dataclass
class Partition:
    """A partition of a graph's vertices: `membership` (0-based community of each vertex,
    numbered in order of first appearance) and its `quality` (modularity or CPM's, igraph's
    definitions; NaN on a graph without edges)."""
    membership: np.ndarray
    quality: float
    objective: str
    resolution: float
    algorithm: str
    names: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_communities(self) -> int:
        return int(self.membership.max()) + 1 if len(self.membership) else 0

    def sizes(self) -> np.ndarray:
        return np.bincount(self.membership, minlength=self.n_communities)

    def communities(self) -> list:
        """The vertices of each community (names where the graph has them)."""
        order = np.argsort(self.membership, kind="stable")
        groups = np.split(order, np.cumsum(self.sizes())[:-1]) if len(order) else []
        return [self.names[c] if self.names is not None else c for c in groups]


def check_graph(g, algorithm: str) -> None:
    """igraph's rule: both algorithms are for undirected graphs only."""
    if g.directed:
        what = ("the Leiden algorithm is only implemented for undirected graphs"
                if algorithm == "leiden" else "multi-level (Louvain) community detection works "
                "for undirected graphs only")
        raise ValueError(f"{what}; make the graph undirected first (Graph.oriented('all'))")


def edge_weights(g, weighted) -> np.ndarray | None:
    """The arcs' weights as float64 (None: every edge weighs 1). weighted None: the graph's
    own weights if it has them."""
    use = g.weighted if weighted is None else bool(weighted)
    if not use:
        return None
    if not g.weighted:
        raise ValueError("weighted=True, but the graph has no edge weights")
    w = g.weights.astype(np.float64)
    if len(w) and w.min() < 0:
        i = int(np.argmin(w))
        raise ValueError(f"weights must be positive: edge {int(g.arc_edges[i]) if g.arc_edges is not None else i} "
                         f"has weight {w[i]:g}")
    return w


def first_level(xp, g, weighted, vertex_weights=None) -> LevelGraph:
    n = len(g)
    w = edge_weights(g, weighted)
    if w is None:
        w = np.ones(g.num_arcs, np.float64)
    size = None
    if vertex_weights is not None:
        size = np.asarray(vertex_weights, dtype=np.float64)
        if size.shape != (n,):
            raise ValueError(f"vertex_weights has length {len(size)}, but the graph has {n} vertices")
        if not np.isfinite(size).all() or (size < 0).any():
            i = int(np.flatnonzero(~np.isfinite(size) | (size < 0))[0])
            raise ValueError(f"vertex_weights must be finite and non-negative: vertex {i} has {size[i]:g}")
    return level_graph(xp, g.edge_sources(), g.indices, w, n, size)


def level_on(device, xp, g, weighted, vertex_weights=None) -> LevelGraph:
    """The first level on the device, kept with the graph (a second run on the same graph
    and device finds it there) unless vertex weights are given."""
    if vertex_weights is not None:
        return first_level(xp, g, weighted, vertex_weights)
    where = device.name if device.name == "cpu" else f"{device.name}:{device.device.id}"
    return g.cache(("leiden level", where, weighted), lambda: first_level(xp, g, weighted))


def initial_labels(initial, n: int) -> np.ndarray:
    """A starting membership as labels 0..k-1 (any integer labels accepted)."""
    if initial is None:
        return np.arange(n, dtype=np.int32)
    m = np.asarray(initial)
    if m.shape != (n,):
        raise ValueError(f"initial membership has length {m.size}, but the graph has {n} vertices")
    if m.dtype.kind == "f":
        if not np.isfinite(m).all() or (m != np.round(m)).any():
            raise ValueError("initial membership must hold whole numbers (community labels)")
    elif m.dtype.kind not in "iu":
        raise TypeError(f"initial membership must hold integer labels, got dtype {m.dtype}")
    return renumber(np, m.astype(np.int64))[0]


def run(g, *, algorithm: str, objective: str, resolution: float, weighted, beta: float,
        n_iterations: int, initial, seed, backend: str, vertex_weights=None, lg=None,
        prim=None) -> Partition:
    """One partition; `lg` and `prim` may be given by a sweep that reuses them."""
    objective = objective.lower() if isinstance(objective, str) else objective
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be 'modularity' or 'cpm', got {objective!r}")
    resolution = float(resolution)
    if not np.isfinite(resolution):
        raise ValueError(f"resolution must be a finite number, got {resolution}")
    if algorithm == "louvain" and resolution < 0:
        raise ValueError("the resolution parameter must be non-negative")
    beta = float(beta)
    if not (np.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive number, got {beta}")
    if int(n_iterations) != n_iterations:
        raise ValueError(f"n_iterations must be a whole number, got {n_iterations}")
    check_graph(g, algorithm)
    device = get_backend(backend).members[0]
    if prim is None:
        prim = device.partition_primitives()
    xp = prim.xp
    with device.device_scope():
        if lg is None:
            lg = level_on(device, xp, g, weighted, vertex_weights)
        membership = xp.asarray(initial_labels(initial, lg.n))
        membership, q = iterate(prim, lg, membership, objective, resolution, beta, n_iterations,
                                algorithm == "leiden", Stream(seed))
        host = np.asarray(membership.get() if hasattr(membership, "get") else membership, np.int32)
    return Partition(host, float(q), objective, resolution, algorithm, g.names)


def iterate(prim, lg: LevelGraph, membership, objective: str, resolution: float, beta: float,
            n_iterations: int, leiden: bool, stream: Stream):
    """Leiden's iterations (or Louvain's one pass) from `membership` on the device: (the
    final membership, renumbered 0..k-1, and its quality). Leiden's communities end split
    into their connected pieces."""
    xp = prim.xp
    if lg.n == 0:
        return membership, float("nan")
    if not leiden or n_iterations > 0:
        for _ in range(int(n_iterations) if leiden else 1):
            membership = renumber(xp, one_pass(prim, lg, membership, objective, resolution, beta,
                                               leiden, stream))[0]
        q = quality(prim, lg, membership, objective, resolution)
    else:                                   # until an iteration does not raise the quality (R's loop)
        previous, q = -np.inf, 0.0
        for _ in range(MAX_STABLE_ITERATIONS):
            if not previous + STABLE_GAIN * abs(q) < q:
                break
            previous = q
            membership = renumber(xp, one_pass(prim, lg, membership, objective, resolution,
                                               beta, True, stream))[0]
            q = quality(prim, lg, membership, objective, resolution)
    if leiden:
        # a last level merged without refinement may leave a community in pieces; splitting
        # it never lowers modularity or CPM (no arc is lost, a penalty term is)
        split, k = renumber(xp, prim.pieces(lg, membership))
        if k > int(membership.max()) + 1:
            membership = split
            q = quality(prim, lg, membership, objective, resolution)
    return membership, q


def modularity(g, membership, *, resolution: float = 1.0, weighted=None, backend: str = "cpu") -> float:
    """The modularity of a membership (igraph's `modularity()`; NaN without edges)."""
    check_graph(g, "leiden")
    prim = get_backend(backend).members[0].partition_primitives()
    lg = first_level(prim.xp, g, weighted)
    labels = prim.xp.asarray(initial_labels(membership, len(g)))
    return quality(prim, lg, labels, "modularity", resolution)
