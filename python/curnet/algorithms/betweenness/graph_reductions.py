"""The graphs betweenness traverses, smaller than the caller's where the sums allow it:
isolated vertices left out (`with_arcs_only`), and on undirected paths the leaves (one
neighbour besides themselves) folded into their neighbour's column as sources (`LeafFold`,
`fold_leaf_sources`) and left out as targets (`without_leaves`, `leaf_target_weights`).
Each is found once a graph and kept with it (`Graph.cache`); all on the host (NumPy).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...graph import Graph
from ...work import tally
from ..common import weak_component_labels


def with_arcs_only(g):
    """(g less its isolated vertices, the ids of those kept), or (g, None) where it has none,
    found once a graph and kept with it. R-MAT 20 has 402,111 isolated vertices of 1,048,576:
    without them each batch's (n, kb) blocks, their memsets, the BFS levels and the index
    cover 38% fewer rows. The kept vertices keep their order, so the arcs keep theirs."""
    return g.cache("betweenness: without isolated vertices", lambda: _with_arcs_only(g))


def _with_arcs_only(g):
    touched = np.diff(g.indptr) > 0
    touched[g.indices] = True                       # in-arcs (the CSR's heads)
    kept = np.flatnonzero(touched)
    return (g, None) if len(kept) == len(g) else induced(g, kept)


def without_leaves(g):
    """(g less its leaves (leaf_anchors), the ids of the vertices kept), kept with the graph:
    the rows of the traversals that fold leaves, busiest first (busiest_first). An anchor
    whose neighbours were all leaves stays, without arcs."""
    return g.cache("betweenness: without leaves",
                   lambda: induced(g, busiest_first(g, np.flatnonzero(leaf_anchors(g) < 0))))


def busiest_first(g, kept: np.ndarray) -> np.ndarray:
    """`kept` ordered by their arcs to one another, most first (ties in id order). The blocks'
    rows in this order put the hubs' rows, which the sweeps read most, side by side: one
    1,024-source batch of R-MAT 20's sweeps on the H100, less the first launch, 91.6 against
    99.5 ms in id order, 96.5 in breadth-first order
    (bench/results/betweenness_sweeps_rows_order_h100.txt)."""
    inside = np.zeros(len(g), bool)
    inside[kept] = True
    arcs = np.bincount(g.edge_sources()[inside[g.indices]], minlength=len(g))[kept]
    return kept[np.argsort(-arcs, kind="stable")]


def induced(g, kept: np.ndarray):
    """(the subgraph of g on vertices `kept`, kept): vertex kept[i] of g is its vertex i, its
    arcs those of g between kept vertices, a row's in g's order (so, with `kept` ascending,
    all of them in g's order). Each kept row's arcs are gathered where they lie (no sort)."""
    rows = renumbering(kept, len(g))
    degree = np.diff(g.indptr)[kept]
    first = np.zeros(len(kept) + 1, np.int64)
    np.cumsum(degree, out=first[1:])
    at = np.arange(first[-1], dtype=np.int64) + np.repeat(g.indptr[:-1][kept] - first[:-1], degree)
    head = rows[g.indices[at]]
    keep = head >= 0
    indptr = np.zeros(len(kept) + 1, g.indptr.dtype)
    tail = np.repeat(np.arange(len(kept)), degree)
    np.cumsum(np.bincount(tail[keep], minlength=len(kept)), out=indptr[1:])
    weights = None if g.weights is None else g.weights[at[keep]]
    return Graph(indptr, head[keep].astype(g.indices.dtype), weights, directed=g.directed,
                 num_edges=int(keep.sum()) if g.directed else int(keep.sum()) // 2), kept


def renumbering(kept: np.ndarray, n: int) -> np.ndarray:
    """(n,) int32: each vertex's position in `kept`, -1 for the others."""
    rows = np.full(n, -1, np.int32)
    rows[kept] = np.arange(len(kept), dtype=np.int32)
    return rows


def rows_of(g, name: str, kept: np.ndarray) -> np.ndarray:
    """renumbering(kept, len(g)) for the subgraph of g on `kept` that is kept with g under
    `name` (with_arcs_only, without_leaves): found once a graph too."""
    return g.cache(f"betweenness: {name}, rows", lambda: renumbering(kept, len(g)))


def leaf_target_weights(g, weight) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the vertices whose hanging leaves (hanging_leaves) have target weight, that weight,
    the target weights of without_leaves(g)'s vertices with each anchor's leaves' added);
    `weight` None: 1 each, found once a graph."""
    if weight is None:
        return g.cache("betweenness: leaf target weights, 1 each", lambda: leaf_target_weights(g, np.ones(len(g))))
    hangs = hanging_leaves(g)
    hanging = np.bincount(leaf_anchors(g)[hangs], weights=weight[hangs], minlength=len(g))
    anchors = np.flatnonzero(hanging)
    return anchors, hanging[anchors], (weight + hanging)[without_leaves(g)[1]]


def hanging_leaves(g) -> np.ndarray:
    """(n,) bool: the leaves whose anchor is not a leaf. A lone edge's two ends, each the
    other's leaf, hang on nothing: neither is on a path of anyone else's. Found once a graph
    and kept with it (a Dask chunk asks for it three times)."""
    return g.cache("betweenness hanging leaves", lambda: _hanging_leaves(g))


def _hanging_leaves(g) -> np.ndarray:
    anchor = leaf_anchors(g)
    leaf = anchor >= 0
    return leaf & ~leaf[np.where(leaf, anchor, 0)]


def components(g) -> np.ndarray:
    """Each vertex's connected component (arcs taken both ways), found once a graph (NumPy:
    no SciPy on betweenness's path)."""
    return g.cache("components", lambda: weak_component_labels(g))


def folds_leaves(g, cutoff, edges: bool, endpoints: bool) -> bool:
    """Whether brandes_sums folds leaf sources into their neighbour's column (LeafFold) and
    leaves leaf targets out of the traversals (without_leaves). Not with a cutoff (a leaf's
    paths are one edge longer than its neighbour's, so the cutoff drops
    other ones), with endpoints (the leaf's path ends are its own) or for edges (the leaf's
    edge carries its paths), nor on directed paths (the neighbour's own paths back to a vertex
    with one out-neighbour may pass through others, the leaf's to it do not)."""
    return not g.directed and cutoff is None and not edges and not endpoints


def reaching(g, ids: np.ndarray) -> np.ndarray:
    """`ids` less the sources without out-arcs: such a source reaches no other vertex, so its
    dependencies, its arcs' and its path ends are all zero (R-MAT 20 has 402,111 isolated
    vertices of 1,048,576)."""
    return ids[np.diff(g.indptr)[ids] > 0]



def source_columns(g, ids: np.ndarray) -> np.ndarray:
    """Each source's column where leaves fold (fold_leaf_sources): a hanging leaf's anchor,
    else the source itself."""
    return np.where(hanging_leaves(g)[ids], leaf_anchors(g)[ids], ids)


def opens_column(g, ids: np.ndarray) -> np.ndarray:
    """(len(ids),) float64: 1 where a source is the first of `ids` in its column
    (source_columns), 0 for the leaves that fold into a column already there: the traversals
    a chunk of chunk_order's sources costs, where leaves fold (the ends of a lone edge, never
    traversed, count 1 too)."""
    cost = np.zeros(len(ids))
    cost[np.unique(source_columns(g, ids), return_index=True)[1]] = 1.0
    return cost


class LeafFold(NamedTuple):
    """Leaf sources folded into their neighbour's column, per vertex (host arrays (n,)).

    A leaf l of an undirected graph (one neighbour u besides itself; self-loops and parallel
    edges to u allowed) reaches every other vertex through u, by u's shortest paths one edge
    longer and (parallel l-u edges aside, a factor that cancels) as many of them; no shortest
    path of u's passes through l. So l's dependencies are u's for every v other than l and u,
    0 for l, and for u the target weight of every vertex u reaches but u and l. Each column u
    is traversed once, its dependencies counted `multiplicity` times (u's own repeats as a
    source plus the leaf sources folded into it; an anchor that is not a source itself counts
    only its leaves), and u gets `leaves` x (weight u reaches, u excluded) - `leaf_weight`."""
    multiplicity: np.ndarray     # float64: the times column u's dependencies count
    leaves: np.ndarray           # float64: leaf sources folded into u (repeats count again)
    leaf_weight: np.ndarray      # float64: those leaves' target weights, summed

    def columns(self, xp, ids) -> "LeafFold":
        """The batch `ids`' entries, one a column (kb,), on the device of `xp`."""
        return LeafFold(*(xp.asarray(a[ids]) for a in self))

    def on_rows(self, columns: np.ndarray, rows: np.ndarray, size: int) -> "LeafFold":
        """The entries of `columns` alone (the batches read no other), at their `rows` in a
        subgraph of `size` vertices (rows: renumbering); 0 elsewhere."""
        at = rows[columns]
        out = LeafFold(*(np.zeros(size) for _ in self))
        for mine, whole in zip(out, self):
            mine[at] = whole[columns]
        return out


def fold_leaf_sources(g, ids: np.ndarray, weight) -> tuple[np.ndarray, LeafFold]:
    """(the source columns to traverse, each vertex once, their LeafFold) for `ids` (repeats
    allowed) on undirected graph `g`, the targets' `weight` (None: 1 each). Sources with no
    neighbour besides themselves reach nothing; the two ends of a lone edge (each the other's
    leaf) reach only each other: all their dependencies are zero, so neither is traversed. The
    columns come in the order of
    their sources' first appearance in `ids` (a Dask chunk's breadth-first order is kept)."""
    n = len(g)
    anchor = leaf_anchors(g)
    own = np.bincount(ids, minlength=n).astype(np.float64)
    leaf = anchor >= 0
    hangs = hanging_leaves(g)
    folded = np.flatnonzero(hangs & (own > 0))
    leaves = np.bincount(anchor[folded], weights=own[folded], minlength=n)
    leaf_weight = np.bincount(anchor[folded], weights=own[folded] * (1.0 if weight is None else weight[folded]),
                              minlength=n)
    # a leaf anchor is never a leaf; a source reaching no other vertex has no anchor either
    multiplicity = np.where(leaf | (anchor == NO_NEIGHBOUR), 0.0, own) + leaves
    tally("betweenness leaf sources folded", int(own[leaf].sum()))
    column = source_columns(g, ids)
    column = column[multiplicity[column] > 0]
    first = np.sort(np.unique(column, return_index=True)[1])
    return column[first].astype(np.int32), LeafFold(multiplicity, leaves, leaf_weight)


NO_NEIGHBOUR, SEVERAL_NEIGHBOURS = -2, -1


def leaf_anchors(g) -> np.ndarray:
    """Each vertex's only neighbour besides itself (int32 (n,); its arcs may repeat), or
    SEVERAL_NEIGHBOURS, or NO_NEIGHBOUR (no arcs, or self-loops only). Found once a graph and
    kept with it."""
    return g.cache("betweenness leaf anchors", lambda: _leaf_anchors(g))


def _leaf_anchors(g) -> np.ndarray:
    """leaf_anchors, O(n + m): the smallest and largest other neighbour of each row are equal
    exactly when it has one."""
    lowest, highest = other_neighbour_range(g)
    anchor = np.where(lowest == highest, highest, SEVERAL_NEIGHBOURS)
    anchor[highest < 0] = NO_NEIGHBOUR
    return anchor.astype(np.int32)


def other_neighbour_range(g) -> tuple[np.ndarray, np.ndarray]:
    """(each vertex's smallest neighbour besides itself, or n where none; its largest, or -1),
    int64 (n,), found once a graph and kept with it (leaf anchors, twins' candidates)."""
    return g.cache("betweenness other neighbour range", lambda: _other_neighbour_range(g))


def _other_neighbour_range(g):
    n = len(g)
    rows = g.edge_sources()
    loop = g.indices == rows
    lowest = np.full(n, n, np.int64)
    highest = np.full(n, -1, np.int64)
    has = np.diff(g.indptr) > 0
    starts = g.indptr[:-1][has]
    if len(starts):
        lowest[has] = np.minimum.reduceat(np.where(loop, n, g.indices), starts)
        highest[has] = np.maximum.reduceat(np.where(loop, -1, g.indices), starts)
    return lowest, highest
