"""Breadth-first discovery order, exactly as a FIFO queue visits vertices: the engine's one
breadth-first order.

The many-source drivers compute depths; NetworkX's `bfs_layers` and SciPy's
`breadth_first_order` also promise an order (each layer in the order its vertices
were first reached, scanning the previous layer's vertices in order and each
vertex's arcs in CSR order) and a parent (the first vertex to reach it). Betweenness
orders its sources by the same search from its busiest vertex (`betweenness.order`), on
the host or on a GPU. One level at a time, vectorised, over arrays of NumPy or CuPy.
"""
from __future__ import annotations

from typing import Any

import numpy as np


def bfs_order(indptr, indices, sources, *, xp: Any = np, also=None, by_id: bool = False) -> tuple[list, Any, Any]:
    """(layers, parent, via) of a FIFO breadth-first search from `sources` (in that order).

    layers: list of int64 arrays, layer 0 the distinct sources in first-given order;
    parent: (n,) int64, the vertex that first reached each vertex, -1 for sources and
    vertices never reached; via: (n,) int64, the arc it came by (an index into `indices`, or
    len(indices) + an index into also's), -1 likewise. Arrays of `xp` (NumPy or CuPy).

    also: a second CSR (indptr, indices) over the same vertices whose arcs are followed after
    each vertex's arcs of the first (a directed graph's in-arcs: its arcs taken both ways, as
    SciPy's `directed=False`). by_id: each vertex's neighbours in id order (in each CSR in
    turn) rather than CSR order, as SciPy's search visits a graph whose rows are sorted (`via`
    is then one of the parallel arcs from the parent, not necessarily the first).
    """
    csrs = [(indptr, indices)] + ([] if also is None else [also])
    n = len(indptr) - 1
    offset = [0, len(indices)]                  # the arc ids of each CSR in `via`
    seen = xp.zeros(n, dtype=bool)
    parent = xp.full(n, -1, dtype=np.int64)
    via = xp.full(n, -1, dtype=np.int64)
    layer = np.asarray(sources, dtype=np.int64).reshape(-1)
    _, first = np.unique(layer, return_index=True)
    layer = xp.asarray(layer[np.sort(first)])
    seen[layer] = True
    layers = [layer]
    while True:
        found = [_arcs_of(xp, ptr, idx, layer, offset[k]) for k, (ptr, idx) in enumerate(csrs)]
        owner, arcs, heads = (xp.concatenate(parts) for parts in zip(*found))
        fresh = ~seen[heads]
        owner, arcs, heads = owner[fresh], arcs[fresh], heads[fresh]
        if len(heads) == 0:
            return layers, parent, via
        if by_id or len(csrs) > 1:
            # by the owner's place in the layer, then the CSR, then id (or the arc's place)
            which = (arcs >= offset[1]).astype(np.int64) if len(csrs) > 1 else 0
            after = heads if by_id else xp.arange(len(heads), dtype=np.int64)
            span = max(n, len(heads))
            order = xp.argsort((owner * 2 + which) * span + after)
            owner, arcs, heads = owner[order], arcs[order], heads[order]
        _, first = xp.unique(heads, return_index=True)
        first = xp.sort(first)                  # first reached first: queue order
        reached = heads[first]
        parent[reached] = layer[owner[first]]
        via[reached] = arcs[first]
        seen[reached] = True
        layer = reached
        layers.append(layer)


def _arcs_of(xp, indptr, indices, layer, offset: int):
    """(the position in `layer` of each arc's tail, the arc's id + `offset`, its head), for
    the arcs of the vertices of `layer` in one CSR, in layer order then CSR order."""
    start = indptr[layer].astype(np.int64)
    deg = indptr[layer + 1].astype(np.int64) - start
    ends = xp.cumsum(deg)
    total = int(ends[-1]) if len(ends) else 0
    # the tail's place in the layer: at the first arc of each tail with arcs, the step from the
    # tail before it with arcs, summed along the arcs (distinct places: no scatter-add needed)
    tails = xp.flatnonzero(deg)
    step = tails.copy()
    step[1:] -= tails[:-1]
    owner = xp.zeros(total, np.int64)
    owner[(ends - deg)[tails]] = step
    owner = xp.cumsum(owner)
    arcs = start[owner] + xp.arange(total, dtype=np.int64) - (ends - deg)[owner]
    return owner, arcs + offset, indices[arcs].astype(np.int64)
