"""Step 5 of the method: a spanning tree rooted at the dummy root, each subtree kept while
its collected prize pays for the edge above it (`prune`; the package's price_collect), each
tree first re-rooted at its best dummy when asked."""
from __future__ import annotations

import numpy as np
from scipy import sparse


def prune(nv, root, eu, ev, ecost, prize, candidates, root_cost, reroot=True):
    """Step 5 on the spanning tree (eu, ev) over local vertices 0..nv-1 (root among them):
    with reroot, each tree under the root is first re-rooted at its best candidate (a vertex
    with a root edge of cost root_cost[v]); then pruned. Returns (kept vertex mask, parent
    array, cost of the edge above each vertex)."""
    order, parent, bounds, up, f = _collected(nv, root, eu, ev, ecost, prize)
    if reroot:
        eu, ev, ecost = _rerooted(nv, root, eu, ev, ecost, candidates, root_cost, order, parent, bounds, up, f)
        order, parent, bounds, up, f = _collected(nv, root, eu, ev, ecost, prize)
    keep = np.zeros(nv, bool)
    keep[root] = True
    for d in range(1, len(bounds) - 1):
        vs = order[bounds[d]:bounds[d + 1]]
        keep[vs] = keep[parent[vs]] & (f[vs] - up[vs] > 0)
    return keep, parent, up


def _collected(nv, root, eu, ev, ecost, prize):
    """The tree (eu, ev) rooted at root: (order, parent, level bounds, cost of the edge above
    each vertex, f), f[v] the prize v's subtree collects when each child subtree is kept
    while it pays for its edge (the package's price_collect)."""
    key = sparse.csr_matrix((ecost, (eu, ev)), shape=(nv, nv))
    key = key + key.T
    order, parent, bounds = _levels(nv, root, eu, ev)
    up = np.zeros(nv)
    vs = order[1:]
    up[vs] = np.asarray(key[vs, parent[vs]]).ravel()
    f = prize.copy()
    for d in range(len(bounds) - 2, 0, -1):
        vs = order[bounds[d]:bounds[d + 1]]
        np.add.at(f, parent[vs], np.maximum(f[vs] - up[vs], 0.0))
    return order, parent, bounds, up, f


def _rerooted(nv, root, eu, ev, ecost, candidates, root_cost, order, parent, bounds, up, f):
    """The tree's edges with each tree under the root hung from its best candidate: the one
    with the most collected prize left after paying its root edge."""
    # F[v] = the collected prize of the best subtree of v's tree that holds v
    F = f.copy()
    comp = np.full(nv, -1)
    if len(bounds) > 2:
        top = order[bounds[1]:bounds[2]]
        comp[top] = top
    for d in range(2, len(bounds) - 1):
        vs = order[bounds[d]:bounds[d + 1]]
        p = parent[vs]
        rest = F[p] - np.maximum(f[vs] - up[vs], 0.0)
        F[vs] = f[vs] + np.maximum(rest - up[vs], 0.0)
        comp[vs] = comp[p]
    # each tree's root edge: the candidate with the most left after paying for it; the
    # spanning tree's own choice on ties
    cand = np.flatnonzero(candidates & (comp >= 0))
    own = parent[cand] == root
    score = F[cand] - root_cost[cand]
    pick = np.lexsort((~own, -score, comp[cand]))
    cand, comp_c = cand[pick], comp[cand][pick]
    first = np.ones(len(cand), bool)
    first[1:] = comp_c[1:] != comp_c[:-1]
    chosen = cand[first]
    inner = (eu != root) & (ev != root)
    return (np.concatenate([eu[inner], np.full(len(chosen), root)]), np.concatenate([ev[inner], chosen]),
            np.concatenate([ecost[inner], root_cost[chosen]]))


def _levels(n, root, eu, ev):
    """BFS from root over the tree edges: (order, parent (-1 none), level bounds): the
    vertices at depth d are order[bounds[d]:bounds[d + 1]] (BFS lists them by depth)."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    adj = sparse.csr_matrix((np.ones(len(eu)), (eu, ev)), shape=(n, n))
    order, parent = csgraph.breadth_first_order(adj, root, directed=False, return_predecessors=True)
    parent = np.where(parent < 0, -1, parent)
    depth = np.zeros(n, np.int64)
    above = parent.copy()
    while True:                                   # depth = the number of ancestors
        live = above >= 0
        if not live.any():
            break
        depth[live] += 1
        above[live] = parent[above[live]]
    dorder = depth[order]
    bounds = np.searchsorted(dorder, np.arange(int(dorder.max()) + 2)).tolist()
    return order, parent, bounds
