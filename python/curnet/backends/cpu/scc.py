"""The CPU backend's strong components: on a large graph with Numba installed, trim and
forward-backward peeling over the CPU's threads (`compiled_scc.py`); else SciPy's Pearce over
the graph's cached SCC view (`HostGraph.scc_view`); and the NumPy twins of kernels/scc.cu's
trim and max propagation (the forward-backward route the CUDA backend takes, exercised here
by the tests)."""
from __future__ import annotations

import numpy as np

from ...work import tally
from ..hostgraph import HostGraph, segment_starts
from .routes import compiled_module

# The compiled route from this many arcs. Warm, it wins from ~R-MAT 10 (R-MAT 16: 4-6 ms
# against SciPy's 10-25 ms on 2 cores), but its first use in a process imports Numba and loads
# the cached machine code (~0.9 s there; ~20 s to compile it, once per install): below R-MAT
# 20 (16.8M arcs; SciPy 0.7-1.6 s on a first call) SciPy's first call is the cheaper.
# bench/results/cpu_scc_rmat*_2026-12-02.json.
COMPILED_MIN_ARCS = 1 << 23


def scc_labels(hg: HostGraph) -> np.ndarray:
    """Any SCC labelling (compiled, or Pearce's algorithm in SciPy); the driver canonicalises it."""
    compiled_scc = compiled_module("compiled_scc", len(hg.in_src), COMPILED_MIN_ARCS)
    if compiled_scc is not None:
        tally("scc compiled runs")
        return compiled_scc.scc_labels(hg.out_ptr, hg.out_idx, hg.in_ptr, hg.in_src)
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    matrix, order = hg.scc_view()
    _, found = csgraph.connected_components(matrix, directed=True, connection="strong")
    if order is None:
        return found.astype(np.int32, copy=False)
    labels = np.empty(hg.n, np.int32)
    labels[order] = found
    return labels


def trim(hg: HostGraph, alive: np.ndarray, passes: int = 1) -> np.ndarray:
    """alive minus the vertices with no in-arc or no out-arc from/to another alive vertex,
    repeated up to `passes` times (stopping at a pass that removes nothing).

    Self-loops do not count as arcs here.
    """
    inner = hg.in_src != hg.in_dst
    for _ in range(passes):
        keep = alive[hg.in_src] & alive[hg.in_dst] & inner
        has_in = np.zeros(hg.n, bool)
        has_in[hg.in_dst[keep]] = True
        has_out = np.zeros(hg.n, bool)
        has_out[hg.in_src[keep]] = True
        kept = alive & has_in & has_out
        if kept.sum() == alive.sum():
            return kept
        alive = kept
    return alive


def propagate_max(hg: HostGraph, values: np.ndarray, alive: np.ndarray,
                  colors: np.ndarray | None = None, backward: bool = False) -> np.ndarray:
    """Closure of max along arcs inside `alive` (and inside one colour, if given).

    Returns values' where values'[v] = max of values[u] over alive u with a path
    u -> ... -> v through alive vertices (v -> ... -> u if backward).
    """
    tails, heads = (hg.in_src, hg.in_dst) if not backward else (hg.out_idx, hg.out_src)
    sel = alive[tails] & alive[heads]
    if colors is not None:
        sel &= colors[tails] == colors[heads]
    tails, heads = tails[sel], heads[sel]
    if backward:
        order = np.argsort(heads, kind="stable")
        tails, heads = tails[order], heads[order]
    values = values.copy()
    if len(heads) == 0:
        return values
    starts = segment_starts(heads)
    targets = heads[starts]
    while True:
        tally("scc propagation rounds")
        best = np.maximum.reduceat(values[tails], starts)
        grow = best > values[targets]
        if not grow.any():
            return values
        values[targets[grow]] = best[grow]
