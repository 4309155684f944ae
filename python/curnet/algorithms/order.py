"""Breadth-first discovery order, exactly as a FIFO queue visits vertices.

The many-source drivers compute depths; NetworkX's `bfs_layers` and SciPy's
`breadth_first_order` also promise an order (each layer in the order its vertices
were first reached, scanning the previous layer's vertices in order and each
vertex's arcs in CSR order) and a parent (the first vertex to reach it). One
level at a time, vectorised, on the host CSR.
"""
from __future__ import annotations

import numpy as np


def bfs_order(indptr: np.ndarray, indices: np.ndarray, sources) -> tuple[list, np.ndarray, np.ndarray]:
    """(layers, parent, via) of a FIFO breadth-first search from `sources` (in that order).

    layers: list of int arrays, layer 0 the distinct sources in first-given order;
    parent: (n,) int64, the vertex that first reached each vertex, -1 for sources and
    vertices never reached; via: (n,) int64, the arc (index into `indices`) it came by, -1 likewise.
    """
    n = len(indptr) - 1
    seen = np.zeros(n, dtype=bool)
    parent = np.full(n, -1, dtype=np.int64)
    via = np.full(n, -1, dtype=np.int64)
    layer = np.asarray(sources, dtype=np.int64).reshape(-1)
    _, first = np.unique(layer, return_index=True)
    layer = layer[np.sort(first)]
    seen[layer] = True
    layers = [layer]
    while True:
        start = indptr[layer].astype(np.int64)
        deg = indptr[layer + 1].astype(np.int64) - start
        arcs = np.repeat(start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
        heads = indices[arcs]
        fresh = ~seen[heads]
        arcs, heads = arcs[fresh], heads[fresh]
        if len(heads) == 0:
            return layers, parent, via
        _, first = np.unique(heads, return_index=True)
        first.sort()                           # first reached first: queue order
        layer = heads[first].astype(np.int64)
        tails = np.repeat(layers[-1], deg)[fresh]
        parent[layer] = tails[first]
        via[layer] = arcs[first]
        seen[layer] = True
        layers.append(layer)
