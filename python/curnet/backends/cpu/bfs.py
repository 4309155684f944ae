"""The CPU backend's many-source BFS: the NumPy twins of kernels/bfs.cu. A batch of k sources
is one bit a source in W = ceil(k / 64) words a vertex; a level pushes from a small frontier or
pulls over the in-arcs (cut into vertex ranges over the threads the batch may use), and the
depths are written from the cumulative bits once the batch ends.

`threads` is the backend's thread plan (`CPUBackend`): `level_threads()`, the threads the
calling batch may use, and `over_ranges(fn, ranges)`."""
from __future__ import annotations

from typing import cast

import numpy as np

from ..arrays import padding_bits, words_for
from ..hostgraph import HostGraph, row_arcs, segment_starts
from .routes import compiled_module

ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)
GATHER_ARCS = 1 << 15
PUSH_RATIO = 8   # push from the frontier when its out-arcs are under 1/8 of all arcs
# A pull level (or the final depth write) is cut into vertex ranges over the threads a batch
# may use when it has at least this many arcs (depth entries): below it the threads cost more than
# they save.
SPLIT_ARCS = 1 << 20
# From this many arcs a pull level runs compiled (compiled_bfs) where Numba imports: its walks
# stop at full words. Below it the NumPy pull is fast enough that a fresh process's Numba import
# (~0.5 s, once) would cost more than it saves.
COMPILED_PULL_MIN_ARCS = 1 << 20


def out_arcs(hg: HostGraph, vertices: np.ndarray):
    """The ids of the out-arcs of `vertices`, concatenated, and each vertex's out-degree."""
    return row_arcs(hg.out_ptr, vertices)


def balanced_ranges(ptr: np.ndarray, parts: int) -> list:
    """(v0, v1) vertex ranges holding about equal shares of a CSR's entries (one range when
    there are too few entries to be worth splitting)."""
    n, m = len(ptr) - 1, int(ptr[-1])
    parts = max(1, min(parts, m // SPLIT_ARCS))
    if parts == 1:
        return [(0, n)]
    cuts = np.unique(np.r_[0, np.searchsorted(ptr, np.arange(1, parts) * (m / parts)), n])
    return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:])]


def or_into(new: np.ndarray, frontier: np.ndarray, seen: np.ndarray, tails: np.ndarray,
            heads: np.ndarray) -> None:
    """new[v] = (OR of frontier[t] over the arcs t->v) & ~seen[v], for the arcs (tails, heads)
    sorted by head (the rows of `new` they touch are written, no others)."""
    if len(heads) == 0:
        return
    starts = segment_starts(heads)
    reached = np.empty((len(starts), seen.shape[1]), np.uint64)
    # Gather and reduce a cache-sized run of whole segments at a time (measured 1.5x
    # faster than one gather of every active arc's words).
    cuts = np.unique(np.r_[np.searchsorted(starts, np.arange(0, len(heads), GATHER_ARCS)), len(starts)])
    for a, b in zip(cuts[:-1], cuts[1:]):
        lo, hi = starts[a], starts[b] if b < len(starts) else len(heads)
        reached[a:b] = np.bitwise_or.reduceat(frontier[tails[lo:hi]], starts[a:b] - lo, axis=0)
    v = heads[starts]
    new[v] = reached & ~seen[v]


def seed_bits(n: int, sources: np.ndarray) -> np.ndarray:
    """(n, W) uint64: bit j of row sources[j] set. Padding bits past k are left clear."""
    bits = np.zeros((n, words_for(len(sources))), np.uint64)
    j = np.arange(len(sources))
    np.bitwise_or.at(bits, (sources, j // 64), np.left_shift(np.uint64(1), (j % 64).astype(np.uint64)))
    return bits


def expand_bits(threads, hg: HostGraph, frontier: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """new[v] = (OR of frontier[u] over arcs u->v) & ~seen[v]."""
    new = np.zeros_like(seen)
    active = cast(np.ndarray, frontier.any(axis=1))
    done = (seen == ALL_BITS).all(axis=1)
    pushers = np.flatnonzero(active)
    arc, deg = out_arcs(hg, pushers)
    if len(arc) * PUSH_RATIO < len(hg.in_src):
        # Few frontier arcs (first and last levels, long-diameter graphs): push from the
        # frontier instead of scanning every in-arc.
        tails, heads = np.repeat(pushers, deg), hg.out_idx[arc]
        keep = ~done[heads]
        order = np.argsort(heads[keep], kind="stable")
        or_into(new, frontier, seen, tails[keep][order], heads[keep][order])
        return new

    compiled_bfs = compiled_module("compiled_bfs", len(hg.in_src), COMPILED_PULL_MIN_ARCS)
    if compiled_bfs is not None:
        def pull(v0, v1):        # heads v0..v1-1 (disjoint rows of `new`), each walk stopping once full
            compiled_bfs.pull_range(hg.in_ptr, hg.in_src, frontier, seen, active, new, v0, v1)
    else:
        def pull(v0, v1):        # the in-arcs of heads v0..v1-1: disjoint rows of `new`
            a0, a1 = hg.in_ptr[v0], hg.in_ptr[v1]
            src, dst = hg.in_src[a0:a1], hg.in_dst[a0:a1]
            sel = active[src] & ~done[dst]
            or_into(new, frontier, seen, src[sel], dst[sel])
    threads.over_ranges(pull, balanced_ranges(hg.in_ptr, threads.level_threads()))
    return new


def bits_start(hg: HostGraph, ids: np.ndarray):
    """A joint traversal's state [seen, frontier, history]: the sources' bits, and the
    cumulative seen bits after each level, from which the depths are written at the end."""
    seen = seed_bits(hg.n, ids)
    frontier = seen.copy()
    seen |= padding_bits(len(ids))
    return [seen, frontier, [seen.copy()]]


def bits_level(threads, hg: HostGraph, state, depth: np.ndarray) -> bool:
    """One level: expand and advance; False when nothing new was reached (depths written)."""
    seen, frontier, history = state
    new = expand_bits(threads, hg, frontier, seen)
    if not new.any():
        depths_from_history(threads, history, depth)
        return False
    seen |= new
    history.append(seen.copy())
    state[1] = new
    return True


def depths_from_history(threads, history: list, depth: np.ndarray) -> None:
    """depth[v, j] = the first level whose cumulative bits hold bit j of v; pairs never
    reached keep depth's value. One sequential pass a level: measured 3x faster than
    scattering each level's new bits into the (strided) result rows."""
    n, kb = depth.shape

    def unpack(bits):
        return np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :kb]

    def rows(a, b):
        level: np.ndarray = np.zeros((b - a, kb), np.uint8 if len(history) <= 255 else np.uint16)
        for seen in history[:-1]:
            level += 1 - unpack(seen[a:b])
        np.copyto(depth[a:b], level, where=unpack(history[-1][a:b]).view(bool), casting="unsafe")
    # row ranges of equal size: the same split as a pull level's, kb entries a row
    threads.over_ranges(rows, balanced_ranges(np.arange(n + 1, dtype=np.int64) * kb, threads.level_threads()))
