"""Brandes' algorithm over batches of sources: for each batch, the shortest-path DAG of every
source (joint BFS levels, or SSSP distances for weighted graphs), the path counts sigma on
the way out, level by level, the dependencies delta on the way back, and their sums over the
batch's sources added into one vector per device. Only O(n + m) numbers leave a device.

The per-level primitives are the backend's (`bc_levels`, `bc_level_index`, `bc_sigma_level`,
`bc_delta_level`, `bc_edge_dependency`; NumPy twins in backends/brandes.py, kernels in
kernels/betweenness.cu).
"""
from __future__ import annotations

import threading
from typing import Any, NamedTuple

import numpy as np

from ..backends import get_backend
from ..graph import Graph
from ..backends.brandes import LevelIndex, on_path, tie_epsilon
from ..progress import Progress
from ..work import tally
from .bfs import traverse
from .common import adjacency, batches_of, over_devices, primary, weak_components
from .sssp import solve_batch


def brandes_sums(g, sources, *, weighted: bool, target_weight=None, cutoff=None, edges=False,
                 endpoints=False, backend="auto", progress=None):
    """Raw betweenness sums over `sources` (int32 ids, repeats count again): (vertex sums (n,),
    arc sums (num_arcs,) in CSR order or None), float64 on the host, before any scaling.

    target_weight (n,) float64: 1.0 at the targets (None: every vertex). cutoff: only paths
    of length <= cutoff count (igraph's range-limited betweenness). endpoints: NetworkX's
    convention, the ends of each path counted too."""
    weight = None if target_weight is None else np.asarray(target_weight, np.float64)
    h, kept = with_arcs_only(g)
    if kept is None:
        return _brandes_sums(g, np.asarray(sources, np.int32), weighted, weight, cutoff, edges, endpoints,
                             backend, progress)
    # an isolated vertex reaches nothing and nothing reaches it: its sums are 0, and every
    # other's are those of the graph without it (whose arcs keep their order)
    ids = rows_of(g, "without isolated vertices", kept)[np.asarray(sources, np.int32)]
    vertex, arc = _brandes_sums(h, ids[ids >= 0], weighted, None if weight is None else weight[kept], cutoff,
                                edges, endpoints, backend, progress)
    every = np.zeros(len(g))
    every[kept] = vertex
    return every, arc


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


def _brandes_sums(g, ids, weighted, weight, cutoff, edges, endpoints, backend, progress):
    """brandes_sums on a graph without isolated vertices (the target weights given, None: every
    vertex a target of weight 1): leaf sources folded and leaf targets left out where
    folds_leaves says, else every source with an arc traversed."""
    if not folds_leaves(g, cutoff, edges, endpoints):
        return _traverse_columns(g, reaching(g, ids), None, weighted, weight, cutoff, edges, endpoints, backend,
                                 progress)
    ids, fold = fold_leaf_sources(g, ids, weight)
    # The leaves as targets: a leaf's shortest paths are its anchor u's, one edge longer, so
    # they count as u's for every vertex but u, and pass through u itself. So the traversals
    # run on the graph less its leaves, each anchor's target weight carrying its leaves', and u
    # gets its leaves' weight from every column that reaches it (its component: no cutoff
    # here) but its own, whose leaf sources pass through u to u's other leaves too.
    # A chunk of a Dask job does this for its sources alone: what does not depend on them is
    # found once a graph, and the fold is copied for the columns only (R-MAT 20's 1M vertices:
    # ~75 ms of host work a chunk on the 2-core machine, ~25 ms now).
    core, kept = without_leaves(g)
    anchors, hanging, core_weight = leaf_target_weights(g, weight)
    rows = rows_of(g, "without leaves", kept)
    vertex_core, _ = _traverse_columns(core, rows[ids], fold.on_rows(ids, rows, len(core)), weighted, core_weight,
                                       None, False, False, backend, progress)
    vertex = np.zeros(len(g))
    vertex[kept] = vertex_core
    component = components(g)
    reach = np.bincount(component[ids], weights=fold.multiplicity[ids], minlength=len(g))
    vertex[anchors] += hanging * (reach[component[anchors]] - fold.multiplicity[anchors] + fold.leaves[anchors])
    return vertex, None


def _traverse_columns(g, ids, fold, weighted, weight, cutoff, edges, endpoints, backend, progress):
    """The sums over source columns `ids` (each traversed once; `fold`: their LeafFold, else
    each a source once), batch by batch on every device of `backend`; `weight` the targets'
    (None: 1 each)."""
    be = get_backend(backend)
    n = len(g)
    tally("betweenness sources traversed", len(ids))
    tally("betweenness rows", n)                   # each batch's blocks: (rows, sources)
    if len(ids) == 0:
        return np.zeros(n), (np.zeros(g.num_arcs) if edges else None)
    sums: dict[int, tuple] = {}                  # each device's (device, vertex sums, arc sums or None)
    size = len(ids)                              # sources a batch: the fewest any device takes
    for dev in be.members:
        with dev.device_scope():
            dev.device_graph(g)                  # on the device before its free memory is read
            size = min(size, dev.bc_batch_size(n, len(ids), weighted, edges))

    def work(dev, row0, share, report):
        xp = dev.xp
        hg = dev.device_graph(g)
        if id(dev) not in sums:                  # only this device's thread writes its entry
            sums[id(dev)] = (dev, xp.zeros(n, np.float64), xp.zeros(g.num_arcs, np.float64) if edges else None)
        _, vertex, arc = sums[id(dev)]
        # The target weights are copied at each piece, not once a device: copied once, two
        # H200s' R-MAT 20 sampled run took 3.79-3.82 s against 3.49-3.53, one GPU thread's first
        # piece twice as long in 5 runs of 6 (betweenness_weights_copy_ab_h200x2.txt). A copy
        # from host memory waits for the device: likely why, not measured.
        on_device = xp.ones(n) if weight is None else xp.asarray(weight)
        add = threading.Lock()                 # CPU batches run on several threads

        def run(batch):
            _, ids = batch
            dag = shortest_path_dag(dev, hg, ids, weighted, cutoff)
            columns = None if fold is None else fold.columns(xp, ids)
            v, a = dependencies(dev, hg, ids, dag, on_device, edges, endpoints, columns)
            with add:
                vertex[...] += v
                if arc is not None:
                    arc[...] += a
            return len(ids)

        for done in dev.map_batches(run, batches_of(share, size)):
            report(done)

    with primary(be).device_scope():             # the order is found on the (first) GPU
        ordered = near_sources_together(g, ids, primary(be))
    # sources in breadth-first order cost unlike amounts from region to region: pieces of a batch
    over_devices(be, ordered, work, Progress(progress, len(ids), "betweenness"), piece_size=size)
    vertex, arc = np.zeros(n), (np.zeros(g.num_arcs) if edges else None)
    for dev, v, a in sums.values():
        with dev.device_scope():
            vertex += dev.to_host(v)
            if edges:
                arc += dev.to_host(a)
    return vertex, arc


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
    """Each vertex's connected component (arcs taken both ways), found once a graph (SciPy)."""
    return g.cache("components", lambda: weak_components(adjacency(g))[1])


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


def chunk_order(g, ids: np.ndarray, fold: bool) -> np.ndarray:
    """`ids` in the order to cut into contiguous chunks that run apart (Dask workers,
    processes), each chunk a brandes_sums call: the sources that reach nothing left out (a
    third of R-MAT's vertices: chunks of them would cost nothing and unbalance the others),
    the rest in breadth-first order (near_sources_together's reason), and, where the chunks
    fold leaves (`fold`), each leaf source right after its neighbour, so that no chunk
    traverses the neighbour's column only for leaves whose neighbour another chunk has."""
    ids = reaching(g, np.asarray(ids, np.int32))
    if len(ids) == 0:
        return ids
    leaf, key = np.zeros(len(ids), bool), ids        # sorted by the rank of key, leaves last
    if fold:
        anchor = leaf_anchors(g)[ids]
        leaf = anchor >= 0
        key = np.where(leaf, anchor, ids)
    return ids[np.lexsort((leaf, breadth_first_rank(g)[key]))]


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
    anchor = np.where(lowest == highest, highest, SEVERAL_NEIGHBOURS)
    anchor[highest < 0] = NO_NEIGHBOUR
    return anchor.astype(np.int32)


def near_sources_together(g, sources: np.ndarray, dev=None) -> np.ndarray:
    """`sources` reordered so that neighbouring sources sit side by side in a batch (the sums do
    not depend on the order). A GPU warp takes one vertex for 32 adjacent sources and walks
    the vertex's arcs at every level any of them puts it on: sources near each other put it on
    fewer levels (a batch of 4,096 STRING sources in id order walks 2.7x the arcs its lanes
    need, in the order of a breadth-first search from the busiest vertex 1.4x; 1,024 sampled
    sources 2.8x and 1.7x: scripts/betweenness_counts.py). The order is found once a graph and
    kept with it (breadth_first_rank), on GPU `dev` when given. On the host, a large graph's
    search (over 2^22 arcs; R-MAT 20's takes ~2 s) is made only for many sources (a 32nd of
    the vertices: R-MAT 20's 65,536 sampled sources took 17.5 s in the sample's order, 16.3 s
    in this one with the search in the call, 14.2 s with it kept, on an H200). Fewer than 64
    sources (two warps) are left as they are."""
    if len(sources) < 64:
        return sources
    on_host = dev is None or dev.xp is np
    if on_host and g.num_arcs > 1 << 22 and len(sources) * 32 < len(g):
        return sources
    return sources[np.argsort(breadth_first_rank(g, dev)[sources], kind="stable")]


def breadth_first_rank(g, dev=None) -> np.ndarray:
    """Each vertex's position in a breadth-first search from the busiest vertex (arcs taken
    both ways); vertices it does not reach after, in id order. Found once a graph and kept
    with it: on GPU `dev` when given (search_rank over the device's copy of the arcs), else
    with SciPy on the host (O(n + m); R-MAT 20's graph less its leaves, 33 million arcs, ~2 s)."""
    if dev is None or dev.xp is np:
        return g.cache("breadth-first rank", lambda: _breadth_first_rank(g))

    def on_device():
        hg = dev.device_graph(g)
        return dev.to_host(search_rank(dev.xp, hg.in_src, hg.in_dst, len(g), busiest_vertex(g), g.directed))
    return g.cache("breadth-first rank", on_device)


def busiest_vertex(g) -> int:
    """The vertex of most out-arcs (the first of them), where the searches start; 0 if none."""
    return int(np.argmax(np.diff(g.indptr))) if len(g) else 0


def _breadth_first_rank(g) -> np.ndarray:
    from scipy.sparse.csgraph import breadth_first_order   # lazily: csgraph imports scipy.linalg (~0.1 s)
    n = len(g)
    # an undirected graph's CSR holds both directions already
    order = breadth_first_order(adjacency(g), busiest_vertex(g), directed=not g.directed,
                                return_predecessors=False) if n else np.zeros(0, np.int64)
    seen = np.zeros(n, bool)
    seen[order] = True
    rank = np.empty(n, np.int64)
    rank[np.r_[order, np.flatnonzero(~seen)].astype(np.int64)] = np.arange(n)
    return rank


def search_rank(xp, tails, heads, n: int, start: int, both_ways: bool):
    """breadth_first_rank from `start` over the arcs tails -> heads (arrays of `xp`, taken both
    ways when `both_ways`), a level at a time with no queue: each level's new vertices follow
    the rank of their first-ranked neighbour in the level before, then their ids, the order a
    queue-based search over rows sorted by id gives. Each level tests every arc once (a GPU's
    pass over 33 million arcs takes about a millisecond)."""
    if both_ways:
        tails, heads = xp.concatenate((tails, heads)), xp.concatenate((heads, tails))
    level = xp.full(n, -1, np.int32)
    rank = xp.full(n, -1, np.int64)
    placed = depth = 0
    if n:
        level[start], rank[start], placed = 0, 0, 1
    while True:
        step = (level[tails] == depth) & (level[heads] < 0)
        parent, new = tails[step], heads[step]
        if len(new) == 0:
            break
        new = new[xp.argsort(rank[parent] * n + new)]       # by the parent's rank, then by id
        new, first = xp.unique(new, return_index=True)
        new = new[xp.argsort(first)]                          # each where its first parent puts it
        depth += 1
        level[new] = depth
        rank[new] = placed + xp.arange(len(new))
        placed += len(new)
    rest = xp.flatnonzero(rank < 0)
    rank[rest] = placed + xp.arange(len(rest))
    return rank


# A pushed arc (an atomic add) costs more than a pulled one (a load): on one H200, R-MAT 20's
# level 3 pushed from level 2, whose entries have 0.58 of the arcs, took 106 ms against 74 ms
# pulled (about 2.4x a pushed arc; scripts/betweenness_profile.py --account). With the sweeps
# a tile of sources at a time, pushing only below a sixth is a little faster: R-MAT 20 exact on
# the H100, 59.01 s at 4 and 58.46 s at 6 in one process (61.66 s at 3 against 62.81 s at 4 in
# another; betweenness_rmat20_exact_knobs*_h100.txt).
PUSH_RATIO = 6


def pushes(index, at: int, other: int) -> bool:
    """Whether BFS level `at` is swept from level `other`'s end: the batch's index is a
    LevelIndex (bc_level_index; other indexes offer no direction) that gives `other` under
    1/PUSH_RATIO of its arcs."""
    return isinstance(index, LevelIndex) and index.arcs[other] * PUSH_RATIO < index.arcs[at]


class Dag(NamedTuple):
    """A batch's shortest-path DAGs: the (n, kb) level block (-1 where not reached within the
    cutoff), the distance block (weighted graphs; inf there) or None, and the backend's index
    of them for the level sweeps (or None): found with the weighted levels (bc_levels), or
    from BFS levels (bc_level_index)."""
    level: Any
    dist: Any
    index: Any


def shortest_path_dag(be, hg, ids, weighted: bool, cutoff) -> Dag:
    """The batch's Dag from its sources `ids`: joint BFS levels, or SSSP distances (weighted)."""
    xp = be.xp
    n, kb = hg.n, len(ids)
    if not weighted:
        level = xp.full((n, kb), -1, np.int32)
        traverse(be, hg, ids, level, -1)
        if cutoff is not None:
            level[level > cutoff] = -1
        level = narrow(xp, level)
        return Dag(level, None, be.bc_level_index(hg, level))
    dist, _ = solve_batch(be, hg, ids, False)          # (kb, n)
    dist = xp.ascontiguousarray(dist.T)
    if cutoff is not None:
        # igraph drops a path longer than the cutoff by the same relative-epsilon comparison
        dist[(dist > cutoff) & ~on_path(xp, dist, cutoff, tie_epsilon(dist.dtype))] = np.inf
    level, index = be.bc_levels(hg, dist)
    return Dag(level, dist, index)


def narrow(xp, level):
    """BFS levels below 127 as int8 (the usual case): the sweeps read a level for every
    (arc, source) pair they test, a quarter of the bytes of int32 (one host sync)."""
    if level.size and int(level.max()) < 127:
        return level.astype(np.int8)
    return level


def dependencies(be, hg, ids, dag: Dag, weight, edges: bool, endpoints: bool, fold=None):
    """One batch of Brandes' algorithm over its Dag: (sum over its sources of each vertex's
    dependency, each arc's dependency summed over them or None), arrays of `be.xp`. `fold`:
    the batch's LeafFold columns (ids then distinct): each column's dependencies weighted by
    its multiplicity, and its anchor's dependency from the leaves folded into it added."""
    xp = be.xp
    level, dist, index = dag
    n, kb = level.shape
    cols = xp.arange(kb)
    src = xp.asarray(np.asarray(ids, np.int64))
    deepest = int(level.max()) if level.size else 0
    # BFS levels join consecutive levels only, so a level can be swept from the next one's end
    # instead (push): where that end's entries have under 1/PUSH_RATIO of the arcs to walk
    # (the index counts out-degrees; the shares' push walks in-arcs, so on directed graphs
    # the count is an estimate: the choice moves the time, never the values). The Dag's index
    # also lets each sweep visit only its level's tasks (the CPU's, of a weighted batch: its
    # DAG arcs).

    # forward: shortest-path counts, a level at a time (a source has one path, to itself)
    sigma = xp.zeros((n, kb), np.float64)
    sigma[src, cols] = 1.0
    for at in range(1, deepest + 1):
        be.bc_sigma_level(hg, level, dist, sigma, at, push=pushes(index, at, at - 1), index=index)
    counts = sigma.copy() if edges else None     # the arcs' dependencies read the path counts
    # backward, from the deepest level up: each level's dependencies into sigma's entries,
    # its shares (weight + delta) / sigma for the level above
    share = xp.zeros((n, kb), np.float64)
    # for the leaf fold and the endpoints, the sources' own level too: a source's dependency is
    # the target weight its column reaches, itself excluded (every path passes through it).
    # (Summed from the level block instead, an (n, kb) temporary and a reduction across rows
    # took ~35 ms a 928-source R-MAT 20 batch on the H100: the exact run 104.9 s, was 124.0 s.)
    own = fold is not None or endpoints
    for at in range(deepest, -1 if own else 0, -1):
        be.bc_delta_level(hg, level, dist, sigma, share, weight, at, push=pushes(index, at, at + 1), index=index)
    delta = sigma                                # now the dependencies; a source's own is not one
    reached = delta[src, cols] if own else None
    delta[src, cols] = 0.0
    arc = None
    if edges:
        arc = xp.zeros(len(hg.out_idx), np.float64)
        be.bc_edge_dependency(hg, level, dist, counts, share, arc)
    if fold is None:
        vertex = delta.sum(axis=1)
    else:
        vertex = delta @ fold.multiplicity
        # every path from a leaf folded into column j passes through j: j's dependency from it
        # is the target weight of every vertex j reaches but j and the leaf
        vertex[src] += fold.leaves * reached - fold.leaf_weight
    if endpoints:
        # each reached target w != s is an end of the paths s -> w; s is the start of them all
        ends = weight * ((level >= 0).sum(axis=1) - xp.bincount(src, minlength=n))
        vertex += ends + xp.bincount(src, weights=reached, minlength=n)
    return vertex, arc
