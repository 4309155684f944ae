"""The method's minimum spanning trees: `prim_tree`, the tree the PCSF package's Boost Prim
makes (among equal costs, the package's choices), and `spanning_tree`, SciPy's (the
improving rounds, where any minimum tree serves)."""
from __future__ import annotations

import numpy as np
from scipy import sparse


def prim_tree(eu, ev, ew, numbered=False):
    """The spanning tree of the edges (eu[i], ev[i], weight ew[i]) that Boost's
    prim_minimum_spanning_tree finds when they are added to an adjacency_list in this order,
    as the PCSF package adds them: vertices numbered in order of first appearance (numbered:
    by their ids, 0..n-1), Prim from vertex 0, a 4-ary heap keyed on the weight of the edge
    reaching each vertex, a key replaced only by a strictly smaller one. Among equal weights
    (every root edge costs w) it keeps what Boost keeps, so the package's trees come out edge
    for edge. Tree edges (u, v) in the ids given, in the order of the tree's vertices;
    vertices Prim does not reach (cut off from vertex 0, or reached only by infinite weights)
    are left out, as Boost leaves them."""
    if len(eu) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    ends = np.column_stack([eu, ev]).ravel()
    ids, at = np.unique(ends, return_index=True)
    order = np.arange(len(ids)) if numbered else np.argsort(at, kind="stable")   # first appearance
    local = np.empty(len(ids), np.int64)
    local[order] = np.arange(len(ids))
    names = ids[order]
    lu, lv = local[np.searchsorted(ids, eu)].tolist(), local[np.searchsorted(ids, ev)].tolist()
    n = len(ids)
    adj: list[list] = [[] for _ in range(n)]
    for x, y, w in zip(lu, lv, np.asarray(ew, np.float64).tolist()):
        adj[x].append((y, w))
        adj[y].append((x, w))
    inf = float("inf")
    key, pred, color = [inf] * n, list(range(n)), [0] * n     # color: 0 white, 1 gray, 2 black
    heap: list = []
    where = [-1] * n

    def up(i):                                          # preserve_heap_property_up
        x, kx, j, moved = heap[i], key[heap[i]], i, 0
        while j > 0 and kx < key[heap[(j - 1) >> 2]]:
            j, moved = (j - 1) >> 2, moved + 1
        j = i
        for _ in range(moved):
            p = (j - 1) >> 2
            heap[j] = heap[p]
            where[heap[j]] = j
            j = p
        heap[j] = x
        where[x] = j

    def pop():                                          # pop, preserve_heap_property_down
        top = heap[0]
        where[top] = -1
        last = heap.pop()
        if not heap:
            return top
        heap[0], where[last] = last, 0
        i, kx, size = 0, key[last], len(heap)
        while 4 * i + 1 < size:
            first = 4 * i + 1
            best, kb = first, key[heap[first]]
            for c in range(first + 1, min(first + 4, size)):
                if key[heap[c]] < kb:
                    best, kb = c, key[heap[c]]
            if not kb < kx:
                break
            heap[i], heap[best] = heap[best], heap[i]
            where[heap[i]], where[heap[best]] = i, best
            i = best
        return top

    key[0], color[0] = 0.0, 1
    heap.append(0)
    where[0] = 0
    while heap:
        x = pop()
        for y, w in adj[x]:
            if color[y] == 0:                           # tree edge: relax, then push
                if w < key[y]:
                    key[y], pred[y] = w, x
                color[y] = 1
                heap.append(y)
                where[y] = len(heap) - 1
                up(len(heap) - 1)
            elif color[y] == 1 and w < key[y]:          # gray target: relax, decrease
                key[y], pred[y] = w, x
                up(where[y])
        color[x] = 2
    parent = np.asarray(pred)
    inner = np.flatnonzero(parent != np.arange(n))
    return names[inner].astype(np.int64), names[parent[inner]].astype(np.int64)


def spanning_tree(w, a, b, n):
    """SciPy's minimum spanning tree of the edges (a, b) of weights w >= 0 over n vertices:
    (rows, cols, weights). SciPy reads a zero in a sparse matrix as no edge, so a zero
    weight (an edge of cost 0, as PCSF() accepts) stands in as a value below every positive
    one while the tree is made: the same order of weights, the same tree."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    w = np.asarray(w, np.float64)
    zero = w == 0
    if zero.any():
        positive = w[~zero]
        stand_in = positive.min() / 2 if len(positive) else 1.0
        w = np.where(zero, stand_in, w)
    tree = csgraph.minimum_spanning_tree(sparse.csr_matrix((w, (a, b)), shape=(n, n))).tocoo()
    data = np.asarray(tree.data)
    if zero.any():
        data = np.where(data == stand_in, 0.0, data)
    return tree.row, tree.col, data
