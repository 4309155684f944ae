"""A virtual source joined to a set of vertices by zero-weight arcs: one traversal gives each
vertex's distance to the nearest of them (multi-source shortest paths, SciPy's `min_only`,
and the whole-graph negative-cycle test Johnson's algorithm starts with)."""
from __future__ import annotations

import numpy as np

from ..errors import NegativeCycleError
from ..graph import Graph, offset_dtype
from .sssp import sssp_dists


def with_super_source(g: Graph, targets) -> Graph:
    """g plus vertex n (the last) with an arc of weight 0 to each of `targets`.

    Appending the new vertex's arcs at the end keeps the CSR sorted: O(m) copies, no sort."""
    targets = np.asarray(targets, dtype=np.int32)
    n, m = len(g), g.num_arcs
    indptr = np.empty(n + 2, dtype=offset_dtype(m + len(targets)))
    indptr[:-1] = g.indptr
    indptr[-1] = m + len(targets)
    indices = np.concatenate([g.indices, targets])
    w = g.weights if g.weights is not None else np.ones(m, g.weight_dtype)
    weights = np.concatenate([w, np.zeros(len(targets), w.dtype)])
    return Graph(indptr, indices, weights, directed=True, num_edges=m + len(targets))


def has_negative_cycle(g: Graph, *, backend="auto") -> bool:
    """Whether g holds a negative-weight cycle anywhere (reachable or not from any source)."""
    if g.weights is None or len(g.weights) == 0 or float(g.weights.min()) >= 0:
        return False
    try:
        sssp_dists(with_super_source(g, np.arange(len(g))), [len(g)], backend=backend)
    except NegativeCycleError:
        return True
    return False


def tree_roots(parent: np.ndarray) -> np.ndarray:
    """For each vertex of a forest given by parent pointers (-1 at roots), its root (pointer jumping)."""
    root = np.where(parent >= 0, parent, np.arange(len(parent)))
    while True:
        up = root[root]
        if np.array_equal(up, root):
            return root
        root = up
