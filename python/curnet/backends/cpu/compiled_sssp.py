"""Dijkstra from a batch's sources in compiled code (Numba), for non-negative weights: the
CPU backend's shortest paths where the batches are large enough to pay for Numba's import.
SciPy's Dijkstra holds the GIL, so its batches ran one at a time; this one releases it, and
the backend's threads take a batch each. It reads the graph's arcs as they are (parallel arcs
included: the cheapest wins), where SciPy needs a matrix with one arc a pair built first.
Distances are summed in float64, as SciPy sums them, and stored in the result's dtype; a
predecessor is the tail of the arc that first gave a vertex its final distance (SciPy's rule;
among equal paths the heap's order decides, so it may name another valid tail).
Optional: `available()` says whether Numba imports.
"""
from __future__ import annotations

import numpy as np

from .compiled import available, heap_lower, heap_pop, jit

__all__ = ["available", "dijkstra_rows"]


@jit(nogil=True)
def dijkstra_rows(ptr, idx, w, sources, dist_out, pred_out, with_pred) -> None:
    """dist_out[r] (and pred_out[r], -1 unreached or at the source, with `with_pred`) from
    sources[r], over the arcs ptr/idx with lengths w (all >= 0)."""
    n = len(ptr) - 1
    dist = np.empty(n, np.float64)
    pred = np.empty(n, np.int32)
    pos = np.full(n, -1, np.int64)          # each vertex's place in the heap, -1 out of it
    hk = np.empty(n, np.float64)             # the heap: keys and vertices, each vertex once
    hv = np.empty(n, np.int64)
    for r in range(len(sources)):
        dist[:] = np.inf
        pred[:] = -1
        s = sources[r]
        dist[s] = 0.0
        size = heap_lower(hk, hv, pos, 0, 0.0, s)
        while size > 0:
            d, v = hk[0], hv[0]
            size = heap_pop(hk, hv, pos, size)
            for a in range(ptr[v], ptr[v + 1]):
                u = idx[a]
                reach = d + w[a]
                if reach < dist[u]:          # never for a settled u: lengths are non-negative
                    dist[u] = reach
                    pred[u] = v
                    size = heap_lower(hk, hv, pos, size, reach, u)
        for v in range(n):
            dist_out[r, v] = dist[v]
        if with_pred:
            for v in range(n):
                pred_out[r, v] = pred[v]
