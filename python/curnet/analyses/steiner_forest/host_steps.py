"""Steps 3 to 5 of the method for one run, on the host (`solve_run`): the terminals'
clusters, the spanning tree over them and the root, its edges expanded into their shortest
paths, the second spanning tree and the pruning; with improve=True the re-rooting among a
tree's dummies and the improving rounds, each kept only where the objective falls."""
from __future__ import annotations

import numpy as np
from scipy import sparse

from .problem import Problem
from .pruning import prune
from .spanning_trees import prim_tree, spanning_tree


# improve=True: at most this many rounds of re-spanning the forest's vertices (each round
# must lower the objective to go on; two or three do on STRING)
IMPROVE_ROUNDS = 10


def solve_run(P: Problem, D, paths, cost, improve=True):
    """Steps 3-5 for one run: D (T, T + 1) distances, paths(a, b) its shortest paths (see
    `paths_between_terminals`), `cost` this run's (unadjusted) edge costs. Returns (vertex ids, edge
    from, edge to, edge cost, trees)."""
    T = len(P.terminals)
    Dt = D[:, :T]
    # a pair's distance as the package takes it: from the search of the earlier terminal
    S = np.where(np.triu(np.ones((T, T), bool), 1), Dt, Dt.T)
    np.fill_diagonal(S, 0.0)
    ct = P.prize[P.terminals]
    members = _clusters(S, ct)
    a, b = _terminal_tree(D, S, members)
    # expand each tree edge into its path (from the search of terminal a, a < b): from b to a
    path = paths(a, b)                                      # (L, edges)
    lo, hi = _path_edges(path)
    verts = np.unique(np.concatenate([lo, hi, [P.root]]))
    # the package's forest: the spanning tree of the paths' edges (its Prim, in its order),
    # pruned as it hangs
    tu, tv = prim_tree(lo, hi, cost[P.lookup(np.minimum(lo, hi), np.maximum(lo, hi))])
    best = _span_and_prune(P, verts, np.minimum(tu, tv), np.maximum(tu, tv), cost, reroot=False)
    if not improve:
        return best
    # every dummy on the expanded tree offered its root edge, each tree re-rooted at its best
    # (see the package's notes); kept only where that lowers the objective
    extra = verts[P.is_dummy[verts]]
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
    lo2, hi2 = np.concatenate([lo, extra]), np.concatenate([hi, np.full(len(extra), P.root)])
    pairs = np.unique(np.minimum(lo2, hi2) * (P.n + 1) + np.maximum(lo2, hi2))
    candidates = [best, _span_and_prune(P, verts, pairs // (P.n + 1), pairs % (P.n + 1), cost)]
    for _ in range(IMPROVE_ROUNDS):
        # the best forest's vertices again, spanned over every network edge among them: a
        # spanning tree no heavier, pruned at best; kept while the objective falls
        best = min(candidates, key=lambda c: P.objective(c[0], c[3], c[4]))   # the first of equals
        inside = np.append(best[0], P.root)
        sub = P.edge_id[inside][:, inside].tocoo()
        upper = sub.row < sub.col
        again = _span_and_prune(P, np.sort(inside), inside[sub.row[upper]], inside[sub.col[upper]], cost)
        if P.objective(again[0], again[3], again[4]) >= P.objective(best[0], best[3], best[4]) - 1e-12:
            break
        candidates = [again]
    return min(candidates, key=lambda c: P.objective(c[0], c[3], c[4]))


def _span_and_prune(P: Problem, verts, lo, hi, cost, reroot=True):
    """A minimum spanning tree of the edges (lo, hi) over `verts` (sorted, the root among
    them) with this run's costs, pruned (step 5), each tree re-rooted first with reroot.
    Returns (vertex ids, edge from, edge to, edge cost, trees)."""
    ecost = cost[P.lookup(lo, hi)]
    nv = len(verts)
    lu, lv = np.searchsorted(verts, lo), np.searchsorted(verts, hi)
    tu, tv, tc = spanning_tree(ecost, lu, lv, nv)
    root = int(np.searchsorted(verts, P.root))
    root_cost = np.zeros(nv)
    has_root_edge = np.zeros(nv, bool)
    at_root = (lu == root) | (lv == root)
    other = np.where(lu == root, lv, lu)[at_root]
    root_cost[other] = ecost[at_root]
    has_root_edge[other] = True
    keep, parent, up = prune(nv, root, tu, tv, tc, P.prize[verts], has_root_edge, root_cost, reroot)
    kept = np.flatnonzero(keep)
    kept = kept[kept != root]
    trees = int((parent[kept] == root).sum())
    inner = kept[parent[kept] != root]
    return verts[kept], verts[inner], verts[parent[inner]], up[inner], trees


def _clusters(S, ct):
    """Step 3: cluster member lists (ids into the terminals) after regrouping."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    close = (S <= np.minimum.outer(ct, ct)) & np.isfinite(S)
    np.fill_diagonal(close, False)
    _, label = csgraph.connected_components(sparse.csr_matrix(close), directed=False)
    # clusters numbered by their smallest member; members in increasing order
    _, first = np.unique(label, return_index=True)
    order = np.argsort(first)
    members = [list(np.flatnonzero(label == label[first[k]])) for k in order]
    large = [k for k, m in enumerate(members) if len(m) > 2]
    if not large:
        return members
    small = [k for k, m in enumerate(members) if len(m) <= 2]
    for k in small:
        for x in list(members[k]):
            cand = np.concatenate([members[j] for j in large])
            owner = np.repeat(large, [len(members[j]) for j in large])
            score = S[x, cand] - ct[x] - ct[cand]
            i = int(np.argmin(score))                       # the first of equal minima
            if np.isfinite(score[i]):
                members[owner[i]].append(x)
                members[k].remove(x)
    return members


def _terminal_tree(D, S, members):
    """Step 4a: the minimum spanning tree over the terminals (0..T-1) and the root (T): root
    edges to every terminal, complete graphs within clusters, in the package's order, spanned
    as the package's Prim spans them. Rows (a < b), in the order of the tree's vertices."""
    T = D.shape[0]
    a, b, w = [np.full(T, T)], [np.arange(T)], [D[:, T]]
    for m in members:
        if len(m) > 1:
            m = np.asarray(m)                  # the package's order: members, then those joined
            i, j = np.triu_indices(len(m), 1)
            a.append(m[i])
            b.append(m[j])
            w.append(S[m[i], m[j]])
    u, v = prim_tree(np.concatenate(a), np.concatenate(b), np.concatenate(w), numbered=True)
    return np.minimum(u, v), np.maximum(u, v)


def _path_edges(path):
    """The edges of the expanded paths (columns of `path`, -1 padded) in the order the
    package meets them: path by path, along each path; a pair met again is left out."""
    u, v = path[:-1].T.ravel(), path[1:].T.ravel()       # column by column: path by path
    ok = v >= 0
    u, v = u[ok].astype(np.int64), v[ok].astype(np.int64)
    key = np.minimum(u, v) * (int(max(u.max(initial=0), v.max(initial=0))) + 1) + np.maximum(u, v)
    _, first = np.unique(key, return_index=True)
    first = np.sort(first)
    return u[first], v[first]

