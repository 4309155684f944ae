"""The host's whole-source routes, which both backends take for long-diameter graphs
(`CPUBackend.bfs_one`, `CPUBackend.shortest_paths_host`; the CUDA backend moves such a
graph's traversals here once a traversal has shown it is long)."""
from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from ..errors import NegativeCycleError
from ..work import tally


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
