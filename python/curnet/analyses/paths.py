"""Vertex and edge paths for many (source, target) pairs: igraph's
``shortest_paths(..., output = "both")``, from one batched traversal.

Each batch of distinct sources is solved on the device (BFS for hops, SSSP for weights);
its shortest-path tree is turned there into the *inbound arc* of every vertex, an (n, kb)
block; the host then walks back from all the batch's targets at once, one step for every
vertex of the longest path. Only the batch's block is ever held, whatever the number of
sources.

* Weighted: the SSSP predecessor u of v names the arc u -> v; of parallel arcs the cheapest
  (the one the distance used), the first given on ties.
* Hops: BFS returns depths, not predecessors; the inbound arc of v is the first arc u -> v
  with depth(u) + 1 = depth(v), found with array operations on the device.

Edge ids are positions in the edge list the graph was built from (igraph's edge ids when
the graph came from igraph), kept by `Graph.arc_edges`.
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np

from ..algorithms.bfs import bfs_blocks
from ..algorithms.sinks import Sink
from ..algorithms.sssp import sssp_blocks
from ..backends import get_backend
from ..sources import resolve_sources

# Arc x source entries examined at once when deriving BFS trees (bounds the temporaries).
CHUNK_ENTRIES = 1 << 22
NO_ARC = -1

_arrays: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_arrays_lock = threading.Lock()


@dataclass
class Paths:
    """What :func:`shortest_paths` returns.

    sources, targets : int32 vertex ids (targets None for pairs given one to one).
    vpath, epath : lists of int arrays; ``vpath[i][j]`` the vertices from ``sources[i]`` to
        ``targets[j]`` (both included), ``epath[i][j]`` its edge ids; with ``pairs=True``,
        ``vpath[p]`` for the p-th pair. Empty where the target is not reached (a source's
        path to itself is ``[source]`` and no edges). None unless asked for by `output`.
    predecessors, inbound_edges : (len(sources), n) int arrays, or None unless asked for:
        each vertex's predecessor and the edge id that reaches it on the path tree (-1 for
        the source and unreached vertices).
    """
    sources: np.ndarray
    targets: np.ndarray | None
    vpath: list | None
    epath: list | None
    predecessors: np.ndarray | None = None
    inbound_edges: np.ndarray | None = None


def shortest_paths(g, sources, targets=None, *, pairs=False, mode="out", weighted=None,
                   output="both", predecessors=False, inbound_edges=False, backend="auto"):
    """Shortest paths, as vertex and edge lists, from many sources to many targets.

    Parameters
    ----------
    g : Graph
    sources : vertex ids or names
    targets : vertex ids or names, optional
        Every vertex when None. With ``pairs=True``, as many as `sources`: the paths
        ``sources[p] -> targets[p]``.
    pairs : bool
        Pair sources and targets one to one instead of every source with every target.
    mode : {"out", "in", "all"}
        Follow the edges, go against them, or ignore their direction (igraph's `mode`).
    weighted : bool, optional
        Use the weights (default: when the graph has them) or count hops.
    output : {"both", "vpath", "epath"}
    predecessors, inbound_edges : bool
        Also return each source's predecessor and inbound-edge vectors, (k, n).
    backend : str

    Returns
    -------
    Paths

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges(["a", "b", "a", "c"], ["b", "c", "c", "d"], [1, 1, 5, 1])
    >>> p = curnet.shortest_paths(g, "a", ["d", "c"], backend="cpu")
    >>> [g.names[v].tolist() for v in p.vpath[0]], [e.tolist() for e in p.epath[0]]
    ([['a', 'b', 'c', 'd'], ['a', 'b', 'c']], [[0, 1, 3], [0, 1]])
    >>> curnet.shortest_paths(g, "a", "c", weighted=False, output="epath", backend="cpu").epath[0][0].tolist()
    [2]
    """
    if output not in ("both", "vpath", "epath"):
        raise ValueError(f"output must be 'both', 'vpath' or 'epath', got {output!r}")
    get_backend(backend)
    gm = g.oriented(mode)
    src = resolve_sources(gm, sources)
    tgt = np.arange(len(gm), dtype=np.int32) if targets is None else resolve_sources(gm, targets)
    if pairs:
        if targets is None or len(tgt) != len(src):
            raise ValueError(f"pairs=True needs as many targets as sources, got {len(src)} sources "
                             f"and {'no' if targets is None else len(tgt)} targets")
        pair_src, pair_tgt = src, tgt
    else:
        pair_src, pair_tgt = np.repeat(src, len(tgt)), np.tile(tgt, len(src))
    uniq, row_of_pair = np.unique(pair_src, return_inverse=True)
    want_v, want_e = output in ("both", "vpath"), output in ("both", "epath")
    sink = _PathSink(gm, uniq, row_of_pair, pair_tgt, want_v, want_e,
                     keep_tree=predecessors or inbound_edges)
    use_weights = gm.weighted if weighted is None else bool(weighted) and gm.weighted
    if use_weights:
        sssp_blocks(gm, uniq, sink, backend=backend, with_pred=True, progress=False)
    else:
        bfs_blocks(gm, uniq, sink, backend=backend, unreachable=-1, progress=False)

    def shaped(per_pair):
        if per_pair is None or pairs:
            return per_pair
        t = len(tgt)
        return [per_pair[i * t:(i + 1) * t] for i in range(len(src))]

    result = Paths(src, None if pairs else tgt, shaped(sink.vpath), shaped(sink.epath))
    if sink.tree is not None:
        rows = np.searchsorted(uniq, src)
        arcs = sink.tree[rows]
        if predecessors:
            result.predecessors = np.where(arcs >= 0, gm.edge_sources()[np.maximum(arcs, 0)], -1).astype(np.int32)
        if inbound_edges:
            result.inbound_edges = np.where(arcs >= 0, gm.arc_edges[np.maximum(arcs, 0)], -1)
    return result


def _device_arrays(gm, be):
    """Per arc in CSR order, on `be`'s device: (tails, heads, the keys tail * n + head of the
    arcs a weighted path may use, sorted, and those arcs' ids)."""
    key = id(be)
    with _arrays_lock:
        per_graph = _arrays.setdefault(gm, {})
        if key in per_graph:
            return per_graph[key]
        n, tails, heads = len(gm), gm.edge_sources(), gm.indices
        keys = tails.astype(np.int64) * n + heads
        w = gm.weights if gm.weights is not None else np.zeros(len(heads), np.float32)
        order = np.lexsort((gm.arc_edges, w, keys))          # by (tail, head), cheapest first
        first = np.r_[True, keys[order][1:] != keys[order][:-1]] if len(order) else np.zeros(0, bool)
        best = order[first]
        xp = be.xp
        per_graph[key] = (xp.asarray(tails), xp.asarray(heads), xp.asarray(keys[best]),
                          xp.asarray(best.astype(np.int64)))
        return per_graph[key]


def inbound_arcs_from_depths(xp, tails, heads, depth):
    """(n, kb) arc ids: for each vertex and source, the first arc u -> v with
    depth[u] + 1 == depth[v] (NO_ARC for the source and unreached vertices)."""
    n, kb = depth.shape
    m = len(tails)
    # int32 arc ids where they fit: the scatter-min every CuPy version has for them
    dtype = xp.int32 if m < np.iinfo(np.int32).max else xp.int64
    arcs = xp.full((n, kb), m, dtype=dtype)
    arc_ids = xp.arange(m, dtype=dtype)
    step = max(1, CHUNK_ENTRIES // max(m, 1))
    for c in range(0, kb, step):
        cols = slice(c, min(kb, c + step))
        dt, dh = depth[tails, cols], depth[heads, cols]
        a, j = xp.nonzero((dt >= 0) & (dt + 1 == dh))
        part = xp.full((n, cols.stop - c), m, dtype=dtype)
        _scatter_min(xp, part, (heads[a], j), arc_ids[a])
        arcs[:, cols] = part
    arcs[arcs == m] = NO_ARC
    return arcs


def inbound_arcs_from_preds(xp, keys, best, n, pred):
    """(n, kb) arc ids: the cheapest arc pred[v] -> v (NO_ARC where pred is -1)."""
    v = xp.arange(n, dtype=xp.int64)[:, None]
    has = pred >= 0
    want = xp.where(has, pred.astype(xp.int64) * n + v, 0)
    pos = xp.minimum(xp.searchsorted(keys, want), max(len(keys) - 1, 0))
    return xp.where(has, best[pos] if len(best) else NO_ARC, NO_ARC)


def _scatter_min(xp, out, index, values):
    if xp is np:
        np.minimum.at(out, index, values)
    else:
        import cupyx
        cupyx.scatter_min(out, index, values)


class _PathSink(Sink):
    """Turns each batch's tree into inbound arcs on the device, then walks the batch's pairs
    on the host; keeps the arcs of every source only when the caller wants the trees."""

    def __init__(self, gm, uniq, row_of_pair, pair_tgt, want_v, want_e, keep_tree):
        self.gm, self.uniq, self.pair_tgt = gm, uniq, pair_tgt
        self.want_v, self.want_e = want_v, want_e
        order = np.argsort(row_of_pair, kind="stable")
        self.pairs_sorted = order                       # pairs grouped by their source's row
        self.row_starts = np.searchsorted(row_of_pair[order], np.arange(len(uniq) + 1))
        npairs = len(pair_tgt)
        self.vpath = [None] * npairs if want_v else None
        self.epath = [None] * npairs if want_e else None
        self.tree = np.empty((len(uniq), len(gm)), dtype=np.int64) if keep_tree else None

    def consume(self, be, first_row, batch_ids, result) -> None:
        xp = be.xp
        tails, heads, keys, best = _device_arrays(self.gm, be)
        if isinstance(result, tuple):
            arcs = inbound_arcs_from_preds(xp, keys, best, len(self.gm), result[1])
        else:
            arcs = inbound_arcs_from_depths(xp, tails, heads, result)
        arcs = be.to_host(arcs)                         # (n, kb)
        rows = slice(first_row, first_row + len(batch_ids))
        if self.tree is not None:
            self.tree[rows] = arcs.T
        sel = self.pairs_sorted[self.row_starts[rows.start]:self.row_starts[rows.stop]]
        if len(sel) and (self.want_v or self.want_e):
            # each selected pair's column in the block: its source's row less the first row
            counts = np.diff(self.row_starts[rows.start:rows.stop + 1])
            col = np.repeat(np.arange(len(batch_ids)), counts)
            self._walk(arcs, sel, col, first_row)

    def _walk(self, arcs, sel, col, first_row):
        """Walk back from every selected pair's target at once, one arc a round."""
        gm = self.gm
        tails, edges = gm.edge_sources(), gm.arc_edges
        src = self.uniq[first_row + col]
        cur = self.pair_tgt[sel].astype(np.int64)
        reached = (cur == src) | (arcs[cur, col] >= 0)
        verts, eids = [cur.copy()], []
        live = reached & (cur != src)
        while live.any():
            if len(verts) > len(gm):         # a tree never has a path this long
                raise RuntimeError("the shortest-path tree has a cycle (an engine bug)")
            a = arcs[cur[live], col[live]]
            step_e = np.full(len(sel), -1, dtype=np.int64)
            step_e[live] = edges[a]
            cur = cur.copy()
            cur[live] = tails[a]
            eids.append(step_e)
            verts.append(np.where(live, cur, -1))
            live &= cur != src
        lengths = np.where(reached, (np.stack(verts) >= 0).sum(axis=0), 0)   # vertices a path
        for name, steps, extra in (("vpath", verts, 0), ("epath", eids, -1)):
            store = getattr(self, name)
            if store is None:
                continue
            if not steps:
                steps = [np.full(len(sel), -1, dtype=np.int64)]
            mat = np.stack(steps).T                       # (pairs, steps), target first
            count = np.maximum(lengths + extra, 0)
            # reverse each row's first `count` entries: source first
            idx = count[:, None] - 1 - np.arange(mat.shape[1])[None, :]
            ok = idx >= 0
            flat = mat[np.nonzero(ok)[0], idx[ok]]
            dtype = np.int32 if name == "vpath" else edges.dtype
            for p, piece in zip(sel.tolist(), np.split(flat.astype(dtype), np.cumsum(count)[:-1])):
                store[p] = piece
