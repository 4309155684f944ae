"""The CPU backend's shortest paths. Non-negative weights: Dijkstra, a batch's sources at a
time, compiled (compiled_sssp, on the backend's threads) for large batches, else SciPy's.
Negative weights: Bellman-Ford, the NumPy twin of kernels/sssp.cu's relaxation rounds over a
batch's (source row, vertex) pairs (long-diameter graphs finish on `host_routes`' worklist)."""
from __future__ import annotations

import numpy as np

from .. import host_routes
from ...work import tally
from ..hostgraph import HostGraph, segment_starts
from .bfs import out_arcs
from .routes import compiled_module

# From this much work (a batch's sources x arcs) a batch's Dijkstra runs compiled where Numba
# imports. SciPy's takes ~10 ns an arc and source (scNET, the 2-core machine), so a batch below
# it is at most ~0.2 s there, under what a fresh process's Numba import (~0.5 s, once) costs.
COMPILED_DIJKSTRA_MIN_WORK = 1 << 24


def dijkstra(hg: HostGraph, sources: np.ndarray, with_pred: bool):
    """Non-negative weights: dist (k, n) in the weight dtype, and pred (k, n) int32 (-1 at the
    sources and where unreached) or None."""
    compiled_sssp = compiled_module("compiled_sssp", len(sources) * len(hg.out_idx), COMPILED_DIJKSTRA_MIN_WORK)
    if compiled_sssp is None:
        return host_routes.dijkstra(hg, sources, with_pred)
    tally("dijkstra sources", len(sources))
    k = len(sources)
    dist = np.empty((k, hg.n), hg.weight_dtype)
    pred = np.empty((k, hg.n) if with_pred else (0, 0), np.int32)
    w = hg.out_w if hg.out_w is not None else np.ones(len(hg.out_idx), hg.weight_dtype)
    compiled_sssp.dijkstra_rows(hg.out_ptr, hg.out_idx, w, np.asarray(sources, np.int64), dist, pred, with_pred)
    return dist, (pred if with_pred else None)


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
