"""Brandes' algorithm over batches of sources: for each batch, the shortest-path DAG of every
source (joint BFS levels, or SSSP distances for weighted graphs), the path counts sigma on
the way out, level by level, the dependencies delta on the way back, and their sums over the
batch's sources added into one vector per device. Only O(n + m) numbers leave a device.

The per-level primitives are the backend's (`bc_levels`, `bc_sigma_level`, `bc_delta_level`,
`bc_edge_dependency`; NumPy twins in backends/brandes.py, kernels in kernels/betweenness.cu).
"""
from __future__ import annotations

import threading
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix

from ..backends import get_backend
from ..backends.brandes import on_path, tie_epsilon
from ..progress import Progress
from .bfs import traverse
from .common import batches_of, over_devices
from .sssp import solve_batch


def brandes_sums(g, sources, *, weighted: bool, target_weight=None, cutoff=None, edges=False,
                 endpoints=False, backend="auto", progress=None):
    """Raw betweenness sums over `sources` (int32 ids, repeats count again): (vertex sums (n,),
    arc sums (num_arcs,) in CSR order or None), float64 on the host, before any scaling.

    target_weight (n,) float64: 1.0 at the targets (None: every vertex). cutoff: only paths
    of length <= cutoff count (igraph's range-limited betweenness). endpoints: NetworkX's
    convention, the ends of each path counted too."""
    be = get_backend(backend)
    n = len(g)
    weight = np.ones(n) if target_weight is None else np.asarray(target_weight, np.float64)
    parts: list[tuple[np.ndarray, Any]] = []     # each device's (vertex sums, arc sums or None)
    lock = threading.Lock()

    def work(dev, row0, share, report):
        xp = dev.xp
        hg = dev.device_graph(g)
        on_device = xp.asarray(weight)
        vertex = xp.zeros(n, np.float64)
        arc = xp.zeros(g.num_arcs, np.float64) if edges else None
        add = threading.Lock()                 # CPU batches run on several threads

        def run(batch):
            _, ids = batch
            level, dist = shortest_path_dag(dev, hg, ids, weighted, cutoff)
            v, a = dependencies(dev, hg, ids, level, dist, on_device, edges, endpoints)
            with add:
                vertex[...] += v
                if arc is not None:
                    arc[...] += a
            return len(ids)

        size = dev.bc_batch_size(n, len(share), weighted)
        for done in dev.map_batches(run, batches_of(share, size)):
            report(done)
        with lock:
            parts.append((dev.to_host(vertex), dev.to_host(arc) if edges else None))

    ids = np.asarray(sources, np.int32)
    # A source without out-arcs reaches no other vertex: its dependencies, its arcs' and its
    # path ends are all zero (R-MAT 20 has 402,111 isolated vertices of 1,048,576).
    ids = ids[np.diff(g.indptr)[ids] > 0]
    if len(ids) == 0:
        return np.zeros(n), (np.zeros(g.num_arcs) if edges else None)
    # sources in breadth-first order cost unlike amounts from region to region: 8 pieces a GPU
    over_devices(be, near_sources_together(g, ids), work, Progress(progress, len(ids), "betweenness"),
                 pieces_per_device=8)
    vertex = np.sum([p[0] for p in parts], axis=0) if parts else np.zeros(n)
    arc = (np.sum([p[1] for p in parts], axis=0) if parts else np.zeros(g.num_arcs)) if edges else None
    return vertex, arc


def near_sources_together(g, sources: np.ndarray) -> np.ndarray:
    """`sources` reordered so that neighbouring sources sit side by side in a batch (the sums do
    not depend on the order). A GPU warp takes one vertex for 32 adjacent sources and walks
    the vertex's arcs at every level any of them puts it on: sources near each other put it on
    fewer levels (a batch of 4,096 STRING sources in id order walks 2.7x the arcs its lanes
    need, in the order of a breadth-first search from the busiest vertex 1.4x; 1,024 sampled
    sources 2.8x and 1.7x: scripts/betweenness_counts.py). The order is found once a graph
    (kept with it): on a large graph (over 2^22 arcs; R-MAT 20's search takes ~1-3 s on the
    host) only for many sources (an eighth of the vertices); fewer than 64 sources (two warps)
    are left as they are."""
    if len(sources) < 64 or (g.num_arcs > 1 << 22 and len(sources) * 8 < len(g)):
        return sources
    rank = g.cache("breadth-first rank", lambda: breadth_first_rank(g))
    return sources[np.argsort(rank[sources], kind="stable")]


def breadth_first_rank(g) -> np.ndarray:
    """Each vertex's position in a breadth-first search from the busiest vertex (arcs taken
    both ways); vertices it does not reach after, in id order. SciPy on the host, O(n + m)."""
    from scipy.sparse.csgraph import breadth_first_order   # lazily: csgraph imports scipy.linalg (~0.1 s)
    n = len(g)
    arcs = csr_matrix((np.ones(len(g.indices), np.int8), g.indices, g.indptr), shape=(n, n))
    start = int(np.argmax(np.diff(g.indptr))) if n else 0
    # an undirected graph's CSR holds both directions already
    order = breadth_first_order(arcs, start, directed=not g.directed, return_predecessors=False) \
        if n else np.zeros(0, np.int64)
    seen = np.zeros(n, bool)
    seen[order] = True
    rank = np.empty(n, np.int64)
    rank[np.r_[order, np.flatnonzero(~seen)].astype(np.int64)] = np.arange(n)
    return rank


def shortest_path_dag(be, hg, ids, weighted: bool, cutoff):
    """(level, dist): the batch's (n, kb) DAG level block (-1 where not reached within the
    cutoff) and, for weighted graphs, its distance block (inf there); dist None for BFS."""
    xp = be.xp
    n, kb = hg.n, len(ids)
    if not weighted:
        level = xp.full((n, kb), -1, np.int32)
        traverse(be, hg, ids, level, -1)
        if cutoff is not None:
            level[level > cutoff] = -1
        return narrow(xp, level), None
    dist, _ = solve_batch(be, hg, ids, False)          # (kb, n)
    dist = xp.ascontiguousarray(dist.T)
    if cutoff is not None:
        # igraph drops a path longer than the cutoff by the same relative-epsilon comparison
        dist[(dist > cutoff) & ~on_path(xp, dist, cutoff, tie_epsilon(dist.dtype))] = np.inf
    return be.bc_levels(hg, dist), dist


def narrow(xp, level):
    """BFS levels below 127 as int8 (the usual case): the sweeps read a level for every
    (arc, source) pair they test, a quarter of the bytes of int32 (one host sync)."""
    if level.size and int(level.max()) < 127:
        return level.astype(np.int8)
    return level


def dependencies(be, hg, ids, level, dist, weight, edges: bool, endpoints: bool):
    """One batch of Brandes' algorithm: (sum over its sources of each vertex's dependency,
    each arc's dependency summed over them or None), arrays of `be.xp`."""
    xp = be.xp
    n, kb = level.shape
    cols = xp.arange(kb)
    src = xp.asarray(np.asarray(ids, np.int64))
    deepest = int(level.max()) if level.size else 0
    # forward: shortest-path counts, a level at a time (a source has one path, to itself)
    sigma = xp.zeros((n, kb), np.float64)
    sigma[src, cols] = 1.0
    for at in range(1, deepest + 1):
        be.bc_sigma_level(hg, level, dist, sigma, at)
    # backward: dependencies, from the deepest level up (a source's own is not needed)
    delta = xp.zeros((n, kb), np.float64)
    for at in range(deepest - 1, 0, -1):
        be.bc_delta_level(hg, level, dist, sigma, delta, weight, at)
    arc = None
    if edges:
        arc = xp.zeros(len(hg.out_idx), np.float64)
        be.bc_edge_dependency(hg, level, dist, sigma, delta, weight, arc)
    vertex = delta.sum(axis=1)
    if endpoints:
        # each reached target w != s is an end of the paths s -> w; s is the start of them all
        reached = (level >= 0) * weight[:, None]
        reached[src, cols] = 0.0
        vertex += reached.sum(axis=1) + xp.bincount(src, weights=reached.sum(axis=0), minlength=n)
    return vertex, arc
