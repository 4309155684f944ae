"""Helpers over whole arrays, written once for NumPy and CuPy (`xp`, the array module)."""
from __future__ import annotations

import numpy as np


def pred_has_cycle(xp, pred):
    """(k,) bool: row r's predecessor pointers contain a cycle (pointer doubling: after
    ceil(log2 n) + 1 squarings every acyclic chain has reached -1)."""
    anc = pred.astype(np.int32, copy=True)
    rows = xp.arange(pred.shape[0])[:, None]
    for _ in range(max(1, int(np.ceil(np.log2(max(pred.shape[1], 2))))) + 1):
        nxt = xp.where(anc >= 0, anc, 0)
        anc = xp.where(anc >= 0, anc[rows, nxt], -1)
    return (anc >= 0).any(axis=1)


def canonical_labels(labels: np.ndarray) -> np.ndarray:
    """Renumber any labelling so components are numbered in order of their smallest vertex.

    Linear: each label's smallest vertex by a scatter-min, then a running count of the
    vertices that are their label's smallest (8x faster than np.unique's sort on R-MAT 20).
    The CUDA backend's twin is backends/cuda/scc.py's canonical_labels."""
    labels = np.asarray(labels).ravel()
    n = len(labels)
    if n == 0:
        return np.empty(0, np.int32)
    if labels.dtype.kind not in "iu" or labels.min() < 0 or labels.max() >= n:
        labels = np.unique(labels, return_inverse=True)[1].ravel()   # squeeze to 0..k-1 first
    ids = np.arange(n, dtype=np.int32)
    first = np.full(n, n, np.int32)
    np.minimum.at(first, labels, ids)
    smallest = first[labels]
    rank = np.cumsum(smallest == ids, dtype=np.int32) - 1
    return rank[smallest]


def depth_stats(xp, d, upto=None, mindist=0, want=("count", "total", "inverse", "farthest")) -> dict:
    """Per column of a distance block d (n vertices x kb sources), over the reachable entries
    with mindist <= d <= upto (upto None: no limit): "count", "total" (sum of d), "inverse"
    (sum of 1/d over d != 0), "farthest" (the largest d, -1 / -inf where none) and
    "farthest_at" (its first row, 0 where none). Unreachable: d < 0 (BFS) or inf (SSSP).
    `want` picks the statistics (each a pass with a block-sized temporary here; the kernel
    computes all four in one pass). The twin of kernels/reduce.cu's depth_stats for int32 blocks."""
    keep = d >= 0 if d.dtype.kind in "iu" else xp.isfinite(d)
    if upto is not None:
        keep &= d <= upto
    if mindist > 0:
        keep &= d >= mindist
    out = {}
    if "count" in want:
        out["count"] = keep.sum(axis=0, dtype=xp.int64)
    if "total" in want:
        out["total"] = xp.where(keep, d, 0).sum(axis=0, dtype=xp.float64)
    if "inverse" in want:
        # 1 / inf is 0: vertices left out (and zero-length paths) add nothing
        far = xp.where(keep & (d != 0), d, xp.inf).astype(xp.float64, copy=False)
        out["inverse"] = xp.reciprocal(far).sum(axis=0)
    if "farthest" in want:
        masked = xp.where(keep, d, -1 if d.dtype.kind in "iu" else -xp.inf)
        out["farthest"] = masked.max(axis=0)
        out["farthest_at"] = masked.argmax(axis=0)
    return out


def depth_histogram(xp, d) -> tuple:
    """(counts, unreachable) of a BFS depth block: counts[x - 1] entries at depth x >= 1 (depth
    0, the sources, is not counted), unreachable the entries < 0. The twin of kernels/reduce.cu's
    depth_histogram."""
    counts = xp.bincount(xp.where(d > 0, d, 0).ravel())[1:]
    return counts, (d < 0).sum(dtype=xp.int64)


def tight_predecessors(dist: np.ndarray, ids, tails: np.ndarray, heads: np.ndarray, w) -> np.ndarray:
    """(kb, n) int32 predecessors (-1 none) from finished shortest-path distances over
    non-negative weights: the NumPy twin of kernels/sssp.cu `nf_pred_*` (float64 near-far).

    Row r, arcs tails -> heads of weights w (None: 1): a reached vertex other than ids[r]
    takes the smallest tail u of an arc attaining its distance and lengthening the path
    (d[u] < d[u] + w == d[v]). Where only ties reach it (zero weights, or a weight lost to
    rounding), adoption rounds: it takes the smallest tail of an arc attaining its distance
    whose own vertex was settled (the source, or a predecessor) when the round began; links
    point to vertices settled earlier, so no cycle closes."""
    kb, n = dist.shape
    none = np.iinfo(np.int32).max
    tails, heads = np.asarray(tails, np.int64), np.asarray(heads, np.int64)
    w = np.ones(len(heads), dist.dtype) if w is None else np.asarray(w)
    pred = np.empty((kb, n), np.int32)
    for r, s in enumerate(np.asarray(ids).tolist()):
        d = dist[r]
        du = d[tails]
        c = du + w
        attains = np.isfinite(du) & (c == d[heads])
        best = np.full(n, none, np.int64)
        lengthens = attains & (c > du)
        np.minimum.at(best, heads[lengthens], tails[lengthens])
        source = np.zeros(n, bool)
        source[s] = True
        still_open = (best == none) & np.isfinite(d) & ~source
        row = np.where(best == none, -1, best)
        while still_open.any():
            settled = (row >= 0) | source
            ok = attains & still_open[heads] & settled[tails]
            cand = np.full(n, none, np.int64)
            np.minimum.at(cand, heads[ok], tails[ok])
            got = cand != none
            if not got.any():
                raise ValueError(f"{int(still_open.sum())} reached vertices attain their distance through "
                                 "no arc: the distances are not shortest-path distances")
            row[got] = cand[got]
            still_open &= ~got
        pred[r] = row
    return pred


def words_for(k: int) -> int:
    """The 64-bit words a vertex's row of a k-source bit traversal takes."""
    return (k + 63) // 64


def padding_bits(k: int) -> np.ndarray:
    """(W,) uint64 with the bits past source k-1 set, so a finished vertex reads as all ones."""
    pad = np.zeros(words_for(k), np.uint64)
    if k % 64:
        pad[-1] = ~((np.uint64(1) << np.uint64(k % 64)) - np.uint64(1))
    return pad
