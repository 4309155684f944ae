"""Brandes' sweeps over a batch's shortest-path DAGs: the NumPy twins of
`kernels/betweenness.cu` (the CPU backend's primitives, the reference the kernels match).

A batch of kb sources is described by (n, kb) blocks, a vertex's sources together:

* ``level[v, j]``: v's level in source j's shortest-path DAG, -1 where v is not reached. For
  BFS it is the hop depth; for weighted graphs the largest number of arcs on a shortest path
  from the source (`dag_levels`), so each DAG arc goes from a lower level to a higher one;
* ``dist[v, j]``: the distance (weighted graphs only, None for BFS);
* ``sigma[v, j]``: the number of shortest paths (float64: counts overflow integers);
* ``delta[v, j]``: the dependency of source j on v.

An arc u -> v (weight w) is on source j's DAG when both ends are reached and
  BFS:      level[v, j] == level[u, j] + 1,
  weighted: dist[u, j] + w equals dist[v, j] by igraph's relative-epsilon comparison
            (`on_path`), the sum taken in float64. Float64 graphs use igraph's epsilon
            (1e-10); float32 distances carry float32 rounding, so theirs is 2^-22 (a few
            float32 ulps). Integer weights (below 2^24) are exact either way.
Parallel arcs are distinct paths (igraph's count); self-loops are never on a shortest path.
"""
from __future__ import annotations

import numpy as np

from ..work import tally

# igraph's IGRAPH_SHORTEST_PATH_EPSILON: distances whose difference is below this fraction of
# the sum of their magnitudes are equal (igraph_cmp_epsilon in its core/math/utils.c).
TIE_EPSILON = 1e-10
# float32 distances (rounded once each from the solver's sums): a few float32 ulps
TIE_EPSILON_FLOAT32 = 2.0 ** -22


def tie_epsilon(dtype) -> float:
    return TIE_EPSILON if np.dtype(dtype) == np.float64 else TIE_EPSILON_FLOAT32
# Gathered (arc, source) entries per piece: keeps a level's temporaries near 100 MB.
PIECE_ENTRIES = 1 << 22


def on_path(xp, reach, dist_v, eps=TIE_EPSILON):
    """Whether the length `reach` = dist[u] + w of a path through arc u -> v equals dist[v]:
    igraph's igraph_cmp_epsilon(reach, dist_v, eps) == 0 (dist_v = 0 never is: positive
    weights; an infinite one never is)."""
    with np.errstate(invalid="ignore"):
        return (reach == dist_v) | (xp.abs(reach - dist_v) < eps * (xp.abs(reach) + xp.abs(dist_v)))


def _pieces(ptr, rows, kb):
    """Runs of `rows` whose arcs (of the CSR with offsets `ptr`) number about
    PIECE_ENTRIES / kb: (rows, arc positions, each arc's row index within the run)."""
    length = (ptr[rows + 1] - ptr[rows]).astype(np.int64)
    ends = np.cumsum(length)
    cap = max(1, PIECE_ENTRIES // max(kb, 1))
    cuts = np.unique(np.r_[0, np.searchsorted(ends, np.arange(cap, int(ends[-1]) if len(ends) else 0, cap)),
                           len(rows)])
    for a, b in zip(cuts[:-1], cuts[1:]):
        r = rows[a:b]
        ln = length[a:b]
        owner = np.repeat(np.arange(len(r)), ln)
        if len(owner) == 0:
            continue
        first = np.cumsum(ln) - ln
        pos = ptr[r].astype(np.int64)[owner] + (np.arange(len(owner)) - first[owner])
        yield r, pos, owner


def _on_dag(level, dist, tails, heads, w, tail_cols=None, head_cols=None):
    """(arcs, kb) bool: each arc tails[i] -> heads[i] on each source's DAG. `tail_cols` /
    `head_cols` are the gathered rows when the caller has them."""
    lt = level[tails] if tail_cols is None else tail_cols
    lh = level[heads] if head_cols is None else head_cols
    if dist is None:
        return (lt >= 0) & (lh == lt + 1)
    with np.errstate(invalid="ignore"):
        reach = dist[tails].astype(np.float64) + w.astype(np.float64)[:, None]
        return (lt >= 0) & (lh >= 0) & on_path(np, reach, dist[heads], tie_epsilon(dist.dtype))


def dag_levels(hg, dist):
    """Weighted graphs: the (n, kb) int32 level block of distance block `dist` (inf where not
    reached): rounds of level[v] = max(level[v], level[u] + 1 over v's DAG in-arcs) from 0 at
    every reached vertex, until none changes (as many rounds as the deepest level, plus one)."""
    n, kb = dist.shape
    level = np.where(np.isfinite(dist), 0, -1).astype(np.int32)
    rows = np.flatnonzero((level >= 0).any(axis=1) & (np.diff(hg.in_ptr) > 0))
    for _ in range(n + 1):
        tally("betweenness level rounds")
        changed = False
        for r, pos, owner in _pieces(hg.in_ptr, rows, kb):
            tails, heads = hg.in_src[pos], r[owner]
            dag = _on_dag(level, dist, tails, heads, hg.in_w[pos])
            cand = np.where(dag, level[tails] + 1, -1)
            best = np.maximum.reduceat(cand, np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]]), axis=0)
            here = r[np.unique(owner)]
            up = best > level[here]
            if up.any():
                level[here] = np.where(up, best, level[here])
                changed = True
        if not changed:
            return level
    raise RuntimeError("the shortest-path DAG levels did not settle: is a weight zero or negative?")


def _segment_sums(values, owner):
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    return np.add.reduceat(values, starts, axis=0), np.unique(owner)


def sigma_level(hg, level, dist, sigma, at: int) -> None:
    """sigma[v, j] = sum of sigma[u, j] over v's DAG in-arcs u -> v, for the (v, j) at level `at`
    (the lower levels done)."""
    kb = level.shape[1]
    rows = np.flatnonzero((level == at).any(axis=1))
    for r, pos, owner in _pieces(hg.in_ptr, rows, kb):
        tails, heads = hg.in_src[pos], r[owner]
        dag = _on_dag(level, dist, tails, heads, None if hg.in_w is None else hg.in_w[pos])
        sums, which = _segment_sums(np.where(dag, sigma[tails], 0.0), owner)
        v = r[which]
        sigma[v] = np.where(level[v] == at, sums, sigma[v])


def _dependency(sigma, delta, weight, tails, heads, dag):
    """(arcs, kb): sigma[u] / sigma[v] * (weight[v] + delta[v]) on the DAG arcs u -> v, else 0."""
    num = np.where(dag, sigma[tails], 0.0) * (weight[heads][:, None] + delta[heads])
    return np.divide(num, sigma[heads], out=np.zeros_like(num), where=dag)


def delta_level(hg, level, dist, sigma, delta, weight, at: int) -> None:
    """delta[u, j] = sum over u's DAG out-arcs u -> v of sigma[u, j] / sigma[v, j] *
    (weight[v] + delta[v, j]), for the (u, j) at level `at` (the higher levels done).
    `weight[v]` is 1.0 where v is a target (every vertex unless a subset is asked for)."""
    kb = level.shape[1]
    rows = np.flatnonzero((level == at).any(axis=1))
    for r, pos, owner in _pieces(hg.out_ptr, rows, kb):
        tails, heads = r[owner], hg.out_idx[pos]
        dag = _on_dag(level, dist, tails, heads, None if hg.out_w is None else hg.out_w[pos])
        sums, which = _segment_sums(_dependency(sigma, delta, weight, tails, heads, dag), owner)
        u = r[which]
        delta[u] = np.where(level[u] == at, sums, delta[u])


def edge_dependency(hg, level, dist, sigma, delta, weight, out) -> None:
    """out[p] += sum over the batch's sources of arc p's dependency (out-arc order, as the
    CSR): sigma[u] / sigma[v] * (weight[v] + delta[v]) where u -> v is on the DAG."""
    kb = level.shape[1]
    rows = np.arange(hg.n)
    for r, pos, owner in _pieces(hg.out_ptr, rows, kb):
        tails, heads = r[owner], hg.out_idx[pos]
        dag = _on_dag(level, dist, tails, heads, None if hg.out_w is None else hg.out_w[pos])
        out[pos] += _dependency(sigma, delta, weight, tails, heads, dag).sum(axis=1)
