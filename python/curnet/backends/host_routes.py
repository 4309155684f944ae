"""The host's whole-source routes, which both backends take for long-diameter graphs
(`CPUBackend.bfs_one`, `CPUBackend.shortest_paths_host`; the CUDA backend moves such a
graph's traversals here once a traversal has shown it is long, through `HostRoutes`)."""
from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from ..errors import NegativeCycleError
from ..work import tally
from .arrays import padding_bits
from .hostgraph import HostGraph, host_graph


def depths_from_tree(order: np.ndarray, pred: np.ndarray, n: int) -> np.ndarray:
    """BFS depths from a BFS tree, by pointer doubling (O(n log depth))."""
    depth = np.full(n, -1, np.int32)
    depth[order] = 0
    anc = np.where(pred >= 0, pred, -1).astype(np.int64)
    hops = (anc >= 0).astype(np.int32)
    while (anc >= 0).any():
        step = anc >= 0
        up = anc[step]
        hops[step] += hops[up]
        anc[step] = anc[up]
    depth[order] = hops[order]
    return depth


def items(a: np.ndarray) -> Any:
    """A memoryview of `a`: its items as Python numbers, read and written in place. Typed Any:
    typeshed's memoryview takes int items only, and NumPy's stubs give ndarray the buffer
    protocol (`__buffer__`) from Python 3.12 on."""
    return memoryview(a)  # type: ignore[arg-type]  # an ndarray is a buffer (see above)


def worklist_paths(hg, source: int, dist: np.ndarray, pred: np.ndarray) -> None:
    """Shortest paths from one source with negative weights, into rows dist (all inf) and pred
    (all -1): label-correcting with a FIFO queue (SPFA). A vertex is rescanned only when its
    distance drops, so a long path costs O(n) where rounds of Bellman-Ford (SciPy's or the
    frontier's) cost O(n) each. Raises NegativeCycleError(source) for a cycle it reaches."""
    n = hg.n
    # memoryviews index to Python numbers without copying the arrays. Storing into dist rounds
    # to the weight dtype, so each sum is the frontier twin's dist[u] + w in that dtype (a float64
    # sum of two float32 values, rounded to float32, is their float32 sum).
    ptr, idx, w = (items(np.ascontiguousarray(a)) for a in (hg.out_ptr, hg.out_idx, hg.out_w))
    d, p = items(dist), items(pred)
    hops = [0] * n          # arcs on each vertex's current path: n of them repeat a vertex
    queued = bytearray(n)
    d[source] = 0.0
    queue = deque([source])
    scans = 0
    try:
        while queue:
            u = queue.popleft()
            queued[u] = 0
            scans += 1
            du, h = d[u], hops[u] + 1
            for a in range(ptr[u], ptr[u + 1]):
                v = idx[a]
                old, c = d[v], du + w[a]
                if c < old:
                    d[v] = c
                    if d[v] < old:          # still lower once rounded to the weight dtype
                        p[v], hops[v] = u, h
                        if h >= n:
                            raise NegativeCycleError(source)
                        if not queued[v]:
                            queued[v] = 1
                            queue.append(v)
    finally:
        tally("worklist scans", scans)


def bfs_one(hg: HostGraph, source: int, backward: bool = False) -> np.ndarray:
    """Depths from one source through SciPy's compiled BFS (long-diameter route);
    `backward`: along the arcs reversed."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    a = hg.reverse_matrix() if backward else hg.scipy_matrix()
    order, pred = csgraph.breadth_first_order(a, int(source), directed=True, return_predecessors=True)
    return depths_from_tree(order, pred, hg.n)


def dijkstra(hg: HostGraph, sources: np.ndarray, with_pred: bool):
    """Non-negative weights: SciPy's Dijkstra. Returns dist (k, n) in the weight dtype, pred or None."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    tally("dijkstra sources", len(sources))
    res = csgraph.dijkstra(hg.scipy_matrix(), directed=True, indices=sources,
                           return_predecessors=with_pred)
    dist, pred = res if with_pred else (res, None)
    dist = dist.astype(hg.weight_dtype, copy=False)
    if pred is not None:
        pred = pred.astype(np.int32)
        pred[pred < 0] = -1
    return dist, pred


def shortest_paths_host(hg: HostGraph, ids: np.ndarray, with_pred: bool):
    """A whole batch, one source at a time: SciPy's Dijkstra for non-negative weights, else
    a FIFO worklist (raising NegativeCycleError naming the source). The long-diameter route
    of both backends."""
    if hg.min_weight >= 0:
        return dijkstra(hg, ids, with_pred)
    dist = np.full((len(ids), hg.n), np.inf, hg.weight_dtype)
    pred = np.full((len(ids), hg.n), -1, np.int32)
    for r, s in enumerate(np.asarray(ids).tolist()):
        worklist_paths(hg, s, dist[r], pred[r])
    return dist, (pred if with_pred else None)


class HostRoutes:
    """What the CUDA backend asks of the host: a graph's host copy and the whole-source routes
    above (long-diameter graphs), and the bit traversal's padding. Without the CPU backend's
    threads: these routes run one source at a time in SciPy."""

    def device_graph(self, g) -> HostGraph:
        return host_graph(g)

    def bfs_one(self, hg: HostGraph, source: int, backward: bool = False) -> np.ndarray:
        return bfs_one(hg, source, backward)

    def shortest_paths_host(self, hg: HostGraph, ids: np.ndarray, with_pred: bool):
        return shortest_paths_host(hg, ids, with_pred)

    def padding_bits(self, k: int) -> np.ndarray:
        return padding_bits(k)
