"""Twin sources folded into one column, on unweighted undirected paths: vertices with the same
neighbours (Sariyüce, Saule, Kaya and Çatalyürek, "Shattering and compressing networks for
betweenness centrality", SDM 2013: identical vertices) have the same shortest paths to every
other vertex, so one traversal stands for its class (`twin_classes`, `fold_twin_sources`).
Found once a graph and kept with it; all on the host (NumPy).

Two kinds, neighbours counted with their parallel arcs and self-loops left out:
  * apart: u and v not adjacent, N(u) = N(v). A path from u to any t other than v turns into
    one from v by its first vertex, and no shortest path of u's passes through v (two edges
    longer). So the dependencies of u and v agree on every vertex but u and v, except those
    from the target v (for u) and u (for v): the u-v paths, two edges through each common
    neighbour x, whose share of them is m(x)^2 / sum m^2 (m: the arcs to x).
  * adjacent: u and v adjacent, N(u) + u = N(v) + v. The same, and the u-v path has no vertex
    between: the dependencies of u and v are equal.
Neither twin lies between the other's paths; a class (mutual twins) is traversed once, from
its representative r, counted as often as its members are sources, and a source c of an apart
class adds (w(r) - w(c)) m(x)^2 / sum m^2 at each neighbour x of r (w: the target weights;
nothing where they are equal). A leaf (leaf fold) or a vertex a leaf hangs on has no twin: a
twin of u has u's neighbours, so a leaf on u would have two. STRING's exact run traverses 275
columns fewer (12,744 of 13,019), R-MAT 20's 146 fewer (bench/results/betweenness_twins_2026-12-02.txt).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...backends.hostgraph import row_arcs
from ...work import tally
from .graph_reductions import LeafFold, other_neighbour_range

# Random keys below 2**24: a row's sum of them is exact in float64 below 2**29 arcs (past
# that, equal rows may sum apart: a class missed, never a false one, as members are compared).
KEY_BITS = 24


class TwinClasses(NamedTuple):
    """Each vertex's class representative (int32 (n,): the smallest id of its class, itself
    where it has no twin) and whether its class is of apart twins (bool (n,))."""
    representative: np.ndarray
    apart: np.ndarray


def twin_classes(g) -> TwinClasses:
    """The twin classes of undirected graph g (see the module), found once a graph: vertices
    grouped by their degree and their smallest and largest other neighbour (leaf_anchors finds
    those anyway), then those that share a group by two random-key sums over their neighbours,
    then each member's sorted neighbours compared with its group's first (a member whose differ
    has no twin). Only the arcs of the vertices the first grouping leaves are read again:
    R-MAT 20's classes in 0.33-0.48 s on the loaded 2-core host, ~3.6 s summing every row's
    keys."""
    return g.cache("betweenness twin classes", lambda: _twin_classes(g))


def _twin_classes(g) -> TwinClasses:
    n = len(g)
    ids = np.arange(n)
    lowest, highest = other_neighbour_range(g)
    rows = g.edge_sources()
    degree = np.diff(g.indptr) - np.bincount(rows[g.indices == rows], minlength=n)
    candidates = np.flatnonzero(lowest < highest)              # two or more other neighbours
    representative = ids.astype(np.int32)
    apart = _grouped(g, candidates, (degree, lowest, highest), False, representative)
    rest = candidates[~apart[candidates]]
    _grouped(g, rest, (degree, np.minimum(lowest, ids), np.maximum(highest, ids)), True, representative)
    return TwinClasses(representative, apart)


def _grouped(g, candidates, key, closed: bool, representative) -> np.ndarray:
    """The classes among `candidates` (their neighbours, with themselves where `closed`, equal)
    whose `key` columns agree: their representatives written into `representative`; (n,) bool:
    the members of the classes found."""
    n = len(g)
    member = np.zeros(n, bool)
    rows, _ = _groups(candidates, (_mixed(key),))
    if len(rows) == 0:
        return member
    tail, head = _neighbour_lists(g, rows, closed)
    keys = np.random.default_rng(0).integers(0, 1 << KEY_BITS, (2, n)).astype(np.float64)
    sums = [np.bincount(tail, weights=k[head], minlength=n) for k in keys]
    members, firsts = _groups(rows, (*key, *sums))
    if len(members) == 0:
        return member
    rows = np.unique(members)                     # the firsts among them
    tail, head = _neighbour_lists(g, rows, closed)
    order = np.lexsort((head, tail))
    agree = _same_neighbours(members, firsts, rows, tail[order], head[order])
    members, firsts = members[agree], firsts[agree]
    # a group whose members all differ from its first keeps no class
    kept = np.bincount(firsts, minlength=n)[firsts] > 1
    representative[members[kept]] = firsts[kept]
    member[members[kept]] = True
    return member


def _mixed(key) -> np.ndarray:
    """The `key` columns mixed into one uint64 (wrapping): equal columns give equal values, and
    the rare unequal ones that collide are told apart by the later groupings (one sort key
    instead of three)."""
    mixed = np.zeros(len(key[0]), np.uint64)
    for k in key:
        mixed = mixed * np.uint64(0x9E3779B97F4A7C15) + k.astype(np.uint64)
    return mixed


def _groups(candidates, key):
    """(the candidates in groups of two or more with equal `key` columns, each one's group's
    first: its smallest id)."""
    order = candidates[np.lexsort(tuple(k[candidates] for k in reversed(key)))]    # ids ascend in a group
    if len(order) < 2:
        return order[:0], order[:0]
    same = np.ones(len(order) - 1, bool)
    for k in key:
        same &= k[order[1:]] == k[order[:-1]]
    starts = np.flatnonzero(np.r_[True, ~same])
    size = np.diff(np.r_[starts, len(order)])
    grouped = np.repeat(size > 1, size)
    return order[grouped], np.repeat(order[starts], size)[grouped]


def _neighbour_lists(g, rows, closed: bool):
    """(tail, head) int64: the arcs of `rows` (ascending) less self-loops, in CSR order, with
    an arc v -> v for each where `closed` (after them all)."""
    at, length = row_arcs(g.indptr, rows)
    tail, head = np.repeat(rows.astype(np.int64), length), g.indices[at].astype(np.int64)
    other = head != tail
    tail, head = tail[other], head[other]
    if closed:
        tail, head = np.r_[tail, rows], np.r_[head, rows]
    return tail, head


def _same_neighbours(members, firsts, rows, tail, head) -> np.ndarray:
    """(len(members),) bool: whether each member's sorted neighbour list (tail, head: those of
    `rows`, sorted by tail then head) equals its group's first's (the same length, by the key)."""
    start = np.searchsorted(tail, rows)
    count = np.diff(np.r_[start, len(tail)])
    mine, theirs = np.searchsorted(rows, members), np.searchsorted(rows, firsts)
    length = count[mine]
    step = np.arange(length.sum()) - np.repeat(np.cumsum(length) - length, length)
    differs = head[np.repeat(start[mine], length) + step] != head[np.repeat(start[theirs], length) + step]
    owner = np.repeat(np.arange(len(members)), length)
    return np.bincount(owner[differs], minlength=len(members)) == 0


def fold_twin_sources(g, columns: np.ndarray, fold: LeafFold, weight):
    """(the columns to traverse, their LeafFold, the (n,) correction to add to the vertex sums)
    for the leaf fold's `columns` and `fold` (fold_leaf_sources) on unweighted undirected
    graph g, the targets' `weight` (None: 1 each): each twin class's columns become its
    representative's, their multiplicities summed there (twins have no leaves), in the order of
    their first column."""
    n = len(g)
    classes = twin_classes(g)
    rep = classes.representative
    multiplicity = np.bincount(rep, weights=fold.multiplicity, minlength=n)
    merged = rep[columns]
    merged = merged[np.sort(np.unique(merged, return_index=True)[1])]
    tally("betweenness twin columns folded", len(columns) - len(merged))
    correction = np.zeros(n)
    if weight is not None:
        # sum over an apart class's sources c of (w(r) - w(c)), at its representative r
        gap = np.where(classes.apart, fold.multiplicity * (weight[rep] - weight), 0.0)
        gap = np.bincount(rep, weights=gap, minlength=n)
        _spread_over_neighbours(g, np.flatnonzero(gap), gap, correction)
    return merged.astype(np.int32), fold._replace(multiplicity=multiplicity), correction


def _spread_over_neighbours(g, reps, gap, correction) -> None:
    """correction[x] += gap[r] m(x)^2 / sum m^2 over each r of `reps` and its neighbours x
    (m(x): r's arcs to x, self-loops left out): r's share of the paths to its apart twin
    through x. Each of the m(x) arcs adds gap[r] m(x) / sum m^2."""
    if len(reps) == 0:
        return
    tail, head = _neighbour_lists(g, reps, False)
    _, pair, m = np.unique(tail * len(g) + head, return_inverse=True, return_counts=True)
    m = m[pair.ravel()].astype(np.float64)
    squares = np.bincount(tail, weights=m, minlength=len(g))
    np.add.at(correction, head, gap[tail] * m / squares[tail])
