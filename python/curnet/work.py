"""Counts of the work the engine does: BFS levels, shortest-path rounds, per-source runs,
vertices scanned by the worklist, SCC passes.

Tests bound these counts instead of seconds (a busy machine misses any time limit, while a
quadratic route shows up as rounds x n however fast the machine is). A user can read them too,
to see why a run took long:

    >>> import curnet
    >>> g = curnet.generators.path(1000, weighted=True)
    >>> with curnet.count_work() as work:
    ...     _ = curnet.sssp(g, [0], backend="cpu")
    >>> work["dijkstra sources"]
    1

`count_work(bounds={...})` also stops the run with WorkBoundExceeded as soon as a count passes
its bound, so a quadratic route fails at once instead of running for hours.

Counting costs a lock per call site and only while someone counts; the call sites are per
level, round or batch, never per arc (the one per-vertex count is summed locally first).
"""
from __future__ import annotations

import contextlib
import threading
from collections import Counter

# What is counted, and where:
#   "bfs joint levels"          one level of a many-source bit traversal (all backends)
#   "bfs one-source runs"       one source traversed on its own (one-source calls, long-diameter graphs)
#   "sssp rounds"               one frontier Bellman-Ford round of a batch (all backends)
#   "sssp per-source runs"      sources handed to the per-source route after max_bf_rounds
#   "sssp near-far iterations"  near-far iterations of a batch (CUDA), the long route's included
#   "sssp near-far arc relaxations"  arcs near-far offered a distance (CUDA; counted on the
#                               device, by a block sum a relaxation, only while someone counts)
#   "dijkstra sources"          sources solved by Dijkstra on the CPU (SciPy's or the compiled one)
#   "worklist scans"            vertices scanned by the negative-weight FIFO worklist (CPU)
#   "scc trim rounds"           one call of the SCC trimming (up to TRIM_PASSES passes; all backends)
#   "scc propagation rounds"    one round of max-label propagation (CPU)
#   "scc whole-graph runs"      SCC by SciPy's Pearce algorithm in one call (CPU)
#   "scc compiled runs"         of those, runs of the compiled trim and peel (CPU with Numba)
#   "betweenness sources traversed"    source columns Brandes' algorithm traverses (all backends)
#   "betweenness leaf sources folded"  leaf sources not traversed, folded into their neighbour's column

_lock = threading.Lock()
_counters: list[tuple[Counter, dict]] = []


class WorkBoundExceeded(AssertionError):
    """A counted quantity passed the bound given to count_work."""


@contextlib.contextmanager
def count_work(bounds: dict | None = None):
    """Count the engine's work inside the block (all threads); yields a Counter.

    bounds: {name: limit}; the engine raises WorkBoundExceeded when a count passes its limit.
    """
    entry: tuple[Counter, dict] = (Counter(), dict(bounds or {}))
    with _lock:
        _counters.append(entry)
    try:
        yield entry[0]
    finally:
        with _lock:
            _counters.remove(entry)


def counting() -> bool:
    """True while some count_work is open: for counts that cost the engine work to keep."""
    return bool(_counters)


def tally(what: str, amount: int = 1) -> None:
    """Add `amount` to `what` in every active count_work; raise if a bound is passed."""
    if not _counters:
        return
    with _lock:
        over = None
        for counts, bounds in _counters:
            counts[what] += amount
            limit = bounds.get(what)
            if limit is not None and counts[what] > limit:
                over = (counts[what], limit)
    if over is not None:
        raise WorkBoundExceeded(f"{what}: {over[0]:,} passed the bound of {over[1]:,}")
