"""Brandes' sweeps on the CPU: the NumPy twins of `kernels/betweenness.cu` (the CPU backend's
primitives, the reference the kernels match), over the blocks backends/brandes.py lays out.
BFS levels are swept a level at a time by SciPy's products; a weighted batch's DAG arcs are
found once with its levels (`dag_levels`) and kept as its index (`DagArcs`). Whether a batch
is weighted is the driver's word, read once a sweep: the level sweeps go by the index the
backend made for the batch (DagArcs, None for BFS levels), the arcs' dependency by its
distance block (None for BFS levels), which its DAG test needs.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...graph import compress
from ...work import tally
from ..brandes import on_path, tie_epsilon
from .routes import compiled_module

# Gathered (arc, source) entries per piece: keeps a level's temporaries near 100 MB.
PIECE_ENTRIES = 1 << 22
# From this many (arc, source) tests a weighted batch finds its DAG (arcs, levels, level
# groups) compiled where Numba imports: NumPy's tests, Kahn's rounds and sorts were ~60% of a
# weighted batch's time on STRING (64 sources, 22.5 M tests); below it a fresh process's Numba
# import (~0.5 s, once) would cost more than it saves.
COMPILED_DAG_MIN_ENTRIES = 1 << 22


def _pieces(ptr, rows, size: int = PIECE_ENTRIES):
    """Runs of `rows` (a vertex per entry, repeats allowed) whose arcs (of the CSR with
    offsets `ptr`) number about `size`, each row's arcs in one run: (a, b, positions of the
    arcs of rows[a:b], each arc's entry index within the run, ascending)."""
    length = (ptr[rows + 1] - ptr[rows]).astype(np.int64)
    ends = np.cumsum(length)
    total = int(ends[-1]) if len(ends) else 0
    cuts = np.unique(np.r_[0, np.searchsorted(ends, np.arange(size, total, size)), len(rows)])
    for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
        ln = length[a:b]
        owner = np.repeat(np.arange(b - a), ln)
        if len(owner) == 0:
            continue
        first = np.cumsum(ln) - ln
        pos = ptr[rows[a:b]].astype(np.int64)[owner] + (np.arange(len(owner)) - first[owner])
        yield a, b, pos, owner


def _row_runs(ptr, rows, kb: int):
    """_pieces of the vertex rows `rows` sized for (arcs, kb) blocks of about a quarter of
    PIECE_ENTRIES entries (a sweep holds a few such temporaries)."""
    return _pieces(ptr, rows, max(1, PIECE_ENTRIES // 4 // max(kb, 1)))


def _on_hop_dag(level, tails, heads):
    """(arcs, kb) bool: whether arc tails[i] -> heads[i] is on each of the batch's sources' BFS
    DAGs (the head one level below the tail). The blocks' rows are gathered whole (kb
    contiguous entries an arc), not entry by entry."""
    lt, lh = level[tails], level[heads]
    lt += 1                                  # a gathered copy; BFS levels stay below 127
    return (lt > 0) & (lh == lt)


def _on_length_dag(level, dist, w, tails, heads, placed=True):
    """(arcs, kb) bool: whether arc tails[i] -> heads[i] (weight w[i]) is on each of the batch's
    sources' weighted DAGs: the distances compared (on_path) where the levels allow it, rows
    gathered as in _on_hop_dag. `placed`: the levels are final, so a DAG arc climbs."""
    lt, lh = level[tails], level[heads]
    ok = (lt >= 0) & ((lh > lt) if placed else (lh >= 0))
    with np.errstate(invalid="ignore"):
        reach = dist[tails].astype(np.float64) + np.asarray(w, np.float64)[:, None]
        ok &= on_path(np, reach, dist[heads], tie_epsilon(dist.dtype))
    return ok


def _dag_entry_pairs(hg, level, dist):
    """The weighted DAG's arcs as (tail entry, head entry) int64 pairs, entry v * kb + j, in
    CSR order (a run of reached rows at a time, each arc's row of sources tested whole,
    _on_length_dag; the levels not yet placed: `level` 0 where reached, -1 elsewhere)."""
    kb = level.shape[1]
    rows = np.flatnonzero((level >= 0).any(axis=1))
    tail_entry, head_entry = [], []
    for a, b, pos, owner in _row_runs(hg.out_ptr, rows, kb):
        t, h = rows[a:b][owner], hg.out_idx[pos]
        arc, j = np.nonzero(_on_length_dag(level, dist, hg.out_w[pos], t, h, placed=False))
        tail_entry.append(t[arc].astype(np.int64) * kb + j)
        head_entry.append(h[arc].astype(np.int64) * kb + j)
    if not tail_entry:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(tail_entry), np.concatenate(head_entry)


class DagArcs(NamedTuple):
    """A weighted batch's DAG arcs found once for all its level sweeps (the CPU backend's
    index of a distance block, found with its levels: dag_levels): (tail, head) entry pairs
    sorted by the head's level then head (`by_head`, level l's arcs from head_starts[l]) and
    by the tail's level then tail (`by_tail`, tail_starts[l]), arcs of one entry in CSR order."""
    by_head: tuple
    head_starts: np.ndarray
    by_tail: tuple
    tail_starts: np.ndarray


def _grouped_arcs(level, tails, heads) -> DagArcs:
    """The DagArcs of entry pairs in CSR order, the levels final."""
    flat = level.ravel()
    cuts = np.arange(int(level.max(initial=0)) + 2)

    def grouped(key):            # stable: an entry's arcs keep their CSR order
        order = np.lexsort((key, flat[key]))
        return (tails[order], heads[order]), np.searchsorted(flat[key][order], cuts)

    by_head, head_starts = grouped(heads)
    by_tail, tail_starts = grouped(tails)
    return DagArcs(by_head, head_starts, by_tail, tail_starts)


def _flat(block):
    """The (n, kb) block as a flat view (entry v * kb + j); an error rather than a copy."""
    if not block.flags.c_contiguous:
        raise ValueError("Brandes' sweeps take C-ordered (n, kb) blocks")
    return block.reshape(-1)


def _grouped_sums(value, source, owner, lo: int, hi: int):
    """(owners, sums): for arcs lo..hi grouped by `owner` entry, each owner's sum of
    value[source entry] over its arcs, added in their order."""
    s, o = source[lo:hi], owner[lo:hi]
    if len(o) == 0:
        return o, np.zeros(0)
    first = np.flatnonzero(np.r_[True, o[1:] != o[:-1]])
    return o[first], np.add.reduceat(_flat(value)[s], first)


def dag_levels(hg, dist):
    """Weighted graphs: (the (n, kb) int32 level block of distance block `dist` (inf where not
    reached), the batch's DagArcs). An entry's level is the largest number of arcs on a
    shortest path from its source, by Kahn's order over the DAG arcs (an entry is placed once
    all its DAG in-arcs are). The DAG arcs are found once, as (tail entry, head entry) pairs,
    entry v * kb + j: Kahn's order places each head above its tails, so the pairs are the
    placed levels' DAG arcs too, grouped for the sweeps."""
    n, kb = dist.shape
    level = np.where(np.isfinite(dist), 0, -1).astype(np.int32)
    compiled = compiled_module("compiled_brandes", len(hg.out_idx) * kb, COMPILED_DAG_MIN_ENTRIES)
    if compiled is not None:                  # the same pairs, levels and groups, compiled
        tails, heads = compiled.dag_entry_pairs(hg.out_ptr, hg.out_idx, hg.out_w, dist, tie_epsilon(dist.dtype))
        rounds, groups = compiled.dag_levels(level, tails, heads)
        if rounds < 0:
            raise RuntimeError("the shortest-path DAG has a cycle: is a weight zero or negative?")
        tally("betweenness level rounds", rounds)
        return level, DagArcs(*groups)
    tails, heads = _dag_entry_pairs(hg, level, dist)
    ptr, by_tail = compress(tails, n * kb, heads)
    waiting = np.bincount(heads, minlength=n * kb)          # DAG in-arcs not yet placed
    frontier = np.flatnonzero((level.ravel() >= 0) & (waiting == 0))    # the sources
    at = 0
    while len(frontier):
        tally("betweenness level rounds")
        level.ravel()[frontier] = at
        released = np.concatenate([by_tail[pos] for _, _, pos, _ in _pieces(ptr, frontier)] or
                                  [np.zeros(0, np.int64)])
        waiting -= np.bincount(released, minlength=n * kb)
        touched = np.unique(released)
        frontier = touched[waiting[touched] == 0]
        at += 1
    if (waiting > 0).any():
        raise RuntimeError("the shortest-path DAG has a cycle: is a weight zero or negative?")
    return level, _grouped_arcs(level, tails, heads)


def _level_rows(level, at):
    """(the rows with an entry at level `at`, or None where that is most rows (a small-world
    graph puts nearly every vertex on every level of some source: the whole product then costs
    less than SciPy's row slicing), and the mask of level `at` over those rows)."""
    here = level == at
    rows = np.flatnonzero(here.any(axis=1))
    if 2 * len(rows) > len(level):
        return None, here
    return rows, here[rows]


def _level_product(matrix, rows, block):
    """matrix[rows] @ block (all rows where rows is None)."""
    return (matrix if rows is None else matrix[rows]) @ block


def sigma_level(hg, level, dist, sigma, at: int, arcs=None) -> None:
    """sigma[v, j] = sum of sigma[u, j] over v's DAG in-arcs u -> v, for the (v, j) at level `at`
    (the lower levels done). BFS levels: A^T @ (the counts one level up), SciPy's compiled
    product (the arc counts carry parallel arcs). Weighted: over the batch's DagArcs `arcs`
    (found with its levels, dag_levels), once for all its levels. `arcs` tells the two apart:
    the index the backend made for the batch (None for BFS levels), so `dist` is not read."""
    if arcs is None:
        rows, here = _level_rows(level, at)
        up = np.where(level == at - 1, sigma, 0.0)
        counts = _level_product(hg.arc_count_matrices()[1], rows, up)
        if rows is None:
            np.copyto(sigma, counts, where=here)
        else:
            sigma[rows] = np.where(here, counts, sigma[rows])
        return
    tails, heads = arcs.by_head
    v, sums = _grouped_sums(sigma, tails, heads, arcs.head_starts[at], arcs.head_starts[at + 1])
    _flat(sigma)[v] = sums


def delta_level(hg, level, dist, sigma, share, weight, at: int, arcs=None) -> None:
    """The backward sweep's level `at` (the levels above done): each entry (u, j) there sums
    share[v, j] over its DAG out-arcs u -> v (`share_level`), then is finished
    (`finish_level`): its dependency delta goes into sigma[u, j], its share (weight[u] + delta)
    / sigma into share[u, j]. Brandes' quotient is taken once an entry, not once a DAG arc,
    so the sweep adds one number an arc."""
    share_level(hg, level, dist, share, at, arcs)
    finish_level(level, sigma, share, weight, at)


def share_level(hg, level, dist, share, at: int, arcs=None) -> None:
    """share[u, j] += the sum of share[v, j] over u's DAG out-arcs u -> v, for the (u, j) at
    level `at`. BFS levels: A @ (the shares one level down), SciPy's compiled product (the arc
    counts carry parallel arcs). Weighted: over the batch's DagArcs `arcs` (found with its
    levels, dag_levels), once for all its levels; `arcs` tells the two apart, as in sigma_level."""
    if arcs is None:
        rows, here = _level_rows(level, at)
        down = np.where(level == at + 1, share, 0.0)
        sums = _level_product(hg.arc_count_matrices()[0], rows, down)
        if rows is None:
            np.add(share, sums, out=share, where=here)
        else:
            share[rows] += np.where(here, sums, 0.0)
        return
    tails, heads = arcs.by_tail
    u, sums = _grouped_sums(share, heads, tails, arcs.tail_starts[at], arcs.tail_starts[at + 1])
    _flat(share)[u] += sums


def finish_level(level, sigma, share, weight, at: int) -> None:
    """The entries (v, j) at level `at` once their shares are summed: with S = share[v, j],
    v's dependency delta = sigma * S goes into sigma[v, j] and v's share (weight[v] + delta) /
    sigma = weight[v] / sigma + S into share[v, j]."""
    here = level == at
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = sigma * share
        np.copyto(share, weight[:, None] / sigma + share, where=here)
    np.copyto(sigma, delta, where=here)


def edge_dependency(hg, level, dist, sigma, share, out) -> None:
    """out[p] += sum over the batch's sources of arc p's dependency (out-arc order, as the
    CSR): sigma[u] * share[v] = sigma[u] / sigma[v] * (weight[v] + delta[v]) where u -> v is on
    the DAG (sigma: the path counts; share: finished by finish_level). Each arc's row dot
    product over the batch's sources, a run of arcs at a time; `dist` (None: BFS levels) says
    once which DAG test the runs take."""
    kb = level.shape[1]
    step = max(1, PIECE_ENTRIES // max(kb, 1) // 4)
    if dist is None:
        def on_dag(arcs, t, h):
            return _on_hop_dag(level, t, h)
    else:
        def on_dag(arcs, t, h):
            return _on_length_dag(level, dist, hg.out_w[arcs], t, h)
    for a in range(0, len(hg.out_idx), step):
        arcs = slice(a, a + step)
        t, h = hg.out_src[arcs], hg.out_idx[arcs]
        out[arcs] += np.einsum("ij,ij->i", np.where(on_dag(arcs, t, h), sigma[t], 0.0), share[h])
