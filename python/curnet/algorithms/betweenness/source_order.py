"""The order betweenness takes its sources in: the sums do not depend on it, the time does.
Sources near each other share batches (`near_sources_together`) and a Dask job's chunks
(`chunk_order`), both by the rank of a breadth-first search from the busiest vertex
(`breadth_first_rank`, the engine's one breadth-first order, `algorithms.order.bfs_order`,
on the host or on a GPU)."""
from __future__ import annotations

import numpy as np

from ...backends import get_backend
from ..order import bfs_order
from .graph_reductions import leaf_anchors, reaching


def near_sources_together(g, sources: np.ndarray, dev=None) -> np.ndarray:
    """`sources` reordered so that neighbouring sources sit side by side in a batch (the sums do
    not depend on the order). A GPU warp takes one vertex for 32 adjacent sources and walks
    the vertex's arcs at every level any of them puts it on: sources near each other put it on
    fewer levels (a batch of 4,096 STRING sources in id order walks 2.7x the arcs its lanes
    need, in the order of a breadth-first search from the busiest vertex 1.4x; 1,024 sampled
    sources 2.8x and 1.7x: docs/gpu-notes.md, issue 25). The order is found once a graph and
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
    """Each vertex's position in a breadth-first search from the busiest vertex, arcs taken
    both ways (each vertex's out-neighbours by id, then its in-neighbours by id: SciPy's
    `breadth_first_order(..., directed=False)`); vertices it does not reach after, in id
    order. Found once a graph and kept with it, whichever device found it: on `dev` (a GPU's
    copy of the arcs: R-MAT 20's core, 33 million arcs, in 0.02-0.07 s) when given, else on
    the host (~2 s there)."""
    dev = get_backend("cpu") if dev is None else dev

    def search():
        hg = dev.device_graph(g)
        n = hg.n
        start = [busiest_vertex(g)] if n else []
        also = (hg.in_ptr, hg.in_src) if g.directed else None     # an undirected CSR holds both
        layers, _, _ = bfs_order(hg.out_ptr, hg.out_idx, start, xp=dev.xp, also=also, by_id=True)
        xp = dev.xp
        order = xp.concatenate(layers)
        rank = xp.full(n, -1, np.int64)
        rank[order] = xp.arange(len(order))
        rest = xp.flatnonzero(rank < 0)
        rank[rest] = len(order) + xp.arange(len(rest))
        return np.asarray(dev.to_host(rank))
    return g.cache("breadth-first rank", search)


def busiest_vertex(g) -> int:
    """The vertex of most out-arcs (the first of them), where the searches start; 0 if none."""
    return int(np.argmax(np.diff(g.indptr))) if len(g) else 0


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

