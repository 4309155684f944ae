"""The CPU backend's strong components: with Numba installed, on a large graph (or a mid-sized
one once the process holds the compiled code), trim and forward-backward peeling over the
CPU's threads (`compiled_scc.py`); else SciPy's Pearce over
the graph's cached SCC view (`HostGraph.scc_view`); and the NumPy twins of kernels/scc.cu's
trim and max propagation (the forward-backward route the CUDA backend takes, exercised here
by the tests)."""
from __future__ import annotations

import sys

import numpy as np

from ...work import tally
from ..hostgraph import HostGraph, segment_starts

# The compiled route from this many arcs on a process's first call. Warm, it wins from ~R-MAT
# 12, but its first use in a process imports Numba and loads the cached machine code (0.2-1.4 s
# on 2 cores; ~20 s to compile it, once per install): below R-MAT 20 (16.8M arcs; SciPy 0.7-1.6
# s on a first call) SciPy's first call is the cheaper. bench/results/cpu_scc_rmat*_2026-12-02.json.
COMPILED_MIN_ARCS = 1 << 23
# ... and from this many, on one thread, once a call in the process has loaded it: warm, on 2
# cores, 1.2-1.7x SciPy's route from R-MAT 15 up (R-MAT 18: 29.6 ms against 48.5, networkit
# 72.6), about 2x with both cores busy elsewhere. One thread, as there two threads can take 13x
# their idle time (R-MAT 16: 144 ms; under OpenMP's default wait policy, a process-wide setting
# left to the user, each of its ~40 parallel regions waits for a thread to get a core).
# bench/results/cpu_scc_loaded_2026-12-03.md.
LOADED_MIN_ARCS = 1 << 16


def scc_labels(hg: HostGraph) -> np.ndarray:
    """Any SCC labelling (compiled, or Pearce's algorithm in SciPy); the driver canonicalises it."""
    if use_compiled(len(hg.in_src)):
        from . import compiled_scc
        tally("scc compiled runs")
        threads = None if len(hg.in_src) >= COMPILED_MIN_ARCS else 1
        return compiled_scc.scc_labels(hg.out_ptr, hg.out_idx, hg.in_ptr, hg.in_src, threads)
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    matrix, order = hg.scc_view()
    _, found = csgraph.connected_components(matrix, directed=True, connection="strong")
    if order is None:
        return found.astype(np.int32, copy=False)
    labels = np.empty(hg.n, np.int32)
    labels[order] = found
    return labels


def use_compiled(arcs: int) -> bool:
    """Whether a graph of `arcs` arcs takes the compiled route: large (over all the threads),
    or mid-sized (on one) once this process has loaded the route's code; and Numba importable."""
    if arcs >= COMPILED_MIN_ARCS:
        from . import compiled_scc
        return compiled_scc.available()
    if arcs < LOADED_MIN_ARCS:
        return False
    # looked up, not imported: importing it imports Numba, a cost COMPILED_MIN_ARCS weighs
    loaded = sys.modules.get(f"{__package__}.compiled_scc")
    return loaded is not None and loaded.loaded()


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
