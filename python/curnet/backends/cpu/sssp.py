"""The CPU backend's Bellman-Ford: the NumPy twin of kernels/sssp.cu's relaxation rounds over a
batch's (source row, vertex) pairs. (Non-negative weights and long-diameter graphs go to SciPy's
Dijkstra and the worklist of `host_routes`.)"""
from __future__ import annotations

import numpy as np

from ..hostgraph import HostGraph, segment_starts
from .bfs import out_arcs


def relax(hg: HostGraph, dist: np.ndarray, pred: np.ndarray | None, active: np.ndarray) -> np.ndarray:
    """One Bellman-Ford round from the active (source row, vertex) pairs.

    For every arc u->v with active[r, u]: dist[r, v] = min(dist[r, v], dist[r, u] + w).
    A lowered entry gets a predecessor u that attains it and is active next round.
    """
    k, n = dist.shape
    rows, tails = np.nonzero(active)
    new_active = np.zeros_like(active)
    if len(tails) == 0:
        return new_active
    arc, deg = out_arcs(hg, tails)
    rows_a, tails_a = np.repeat(rows, deg), np.repeat(tails, deg)
    heads = hg.out_idx[arc]
    w = hg.out_w[arc] if hg.out_w is not None else np.ones(len(arc), dist.dtype)
    cand = dist[rows_a, tails_a] + w
    flat = rows_a.astype(np.int64) * n + heads
    better = cand < dist.ravel()[flat]
    flat, cand, tails_a = flat[better], cand[better], tails_a[better]
    if len(flat) == 0:
        return new_active
    order = np.lexsort((tails_a, cand, flat))   # cheapest first; ties to the smallest tail
    flat, cand, tails_a = flat[order], cand[order], tails_a[order]
    first = segment_starts(flat)
    dist.ravel()[flat[first]] = cand[first]
    if pred is not None:
        pred.ravel()[flat[first]] = tails_a[first]
    new_active.ravel()[flat[first]] = True
    return new_active


def sp_start(hg: HostGraph, ids: np.ndarray):
    """(state, active) for a batch: dist 0 at each source, inf elsewhere, pred -1; the sources
    active. Predecessors are always kept (the CPU twin tracks them whatever the caller asks)."""
    kb, n = len(ids), hg.n
    rows = np.arange(kb)
    dist = np.full((kb, n), np.inf, dtype=hg.weight_dtype)
    pred = np.full((kb, n), -1, dtype=np.int32)
    dist[rows, ids] = 0
    active = np.zeros((kb, n), dtype=bool)
    active[rows, ids] = True
    return (dist, pred), active
