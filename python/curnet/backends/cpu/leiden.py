"""Leiden's and Louvain's moves on the CPU: `best_moves`, the NumPy/SciPy twin of
kernels/leiden.cu's kernel of the same name (see backends/partitions.py for the gain)."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..partitions import LevelGraph, gumbel


def arcs_of(ptr, movable) -> np.ndarray:
    """The positions of the arcs of the `movable` vertices (CSR ranges, in order)."""
    v = np.flatnonzero(movable)
    starts, lens = ptr[v], ptr[v + 1] - ptr[v]
    total = int(lens.sum())
    first = np.cumsum(lens) - lens                  # each range's place in the output
    return np.repeat(starts - first, lens) + np.arange(total, dtype=np.int64)


class CpuMoves:
    xp = np

    def pieces(self, lg: LevelGraph, labels) -> np.ndarray:
        """Each community's connected pieces (labels, any numbering): SciPy's components of
        the arcs inside communities."""
        from scipy.sparse.csgraph import connected_components
        inside = labels[lg.src] == labels[lg.idx]
        a = sp.csr_matrix((np.ones(int(inside.sum()), np.int8), (lg.src[inside], lg.idx[inside])),
                          shape=(lg.n, lg.n))
        return connected_components(a, directed=False)[1]

    def best_moves(self, lg: LevelGraph, comm, bound, vsize, total, gamma: float, movable,
                   target_ok, beta: float, seed: int):
        """(target, gain) of each vertex: the neighbouring community it gains most by moving
        to (ties: the smallest id), or its own with gain 0.

        Only `movable` vertices move. `bound` (or None): only arcs to vertices of the same
        bound count (the refinement: sub-communities within a community). `target_ok` (or
        None): which communities may be joined. beta 0: greedy, a move needs a gain > 0;
        beta > 0: among the moves of gain >= 0 and staying, the one of largest
        gain / beta + Gumbel noise (seed)."""
        n, k = lg.n, len(total)
        target = comm.astype(np.int32, copy=True)
        gain = np.zeros(n, np.float64)
        keep = arcs_of(lg.ptr, movable)
        if bound is not None:
            keep = keep[bound[lg.src[keep]] == bound[lg.idx[keep]]]
        if not len(keep):
            return target, gain
        # k_uc for every (vertex, neighbouring community): the movers' rows of the adjacency
        # times the membership's indicator matrix (SciPy sums each row's communities in a
        # dense accumulator: no sort; a row's columns come unsorted)
        counts = np.bincount(lg.src[keep], minlength=n)
        indptr = np.zeros(n + 1, np.int64)
        np.cumsum(counts, out=indptr[1:])
        adjacency = sp.csr_matrix((lg.w[keep], lg.idx[keep], indptr), shape=(n, n))
        indicator = sp.csr_matrix((np.ones(n), comm, np.arange(n + 1)), shape=(n, k))
        kuc = adjacency @ indicator
        us = np.repeat(np.arange(n, dtype=np.int64), np.diff(kuc.indptr))
        cs = kuc.indices.astype(np.int64)
        a = comm[us].astype(np.int64)
        own = cs == a
        kua = np.zeros(n, np.float64)
        kua[us[own]] = kuc.data[own]
        su = vsize[us]
        g = (kuc.data - kua[us]) - (gamma * su) * ((total[cs] - total[a]) + su)
        cand = ~own
        if target_ok is not None:
            cand &= target_ok[cs]
        if beta > 0:
            cand &= g >= 0
            score = np.where(cand, g / beta + gumbel(np, seed, us, cs), -np.inf)
        else:
            score = np.where(cand, g, -np.inf)
        starts = np.flatnonzero(np.diff(kuc.indptr))         # rows with entries
        first = kuc.indptr[starts]
        best = np.maximum.reduceat(score, first)
        row = np.repeat(np.arange(len(starts)), np.diff(np.append(first, len(score))))
        top = score == best[row]
        pick_c = np.minimum.reduceat(np.where(top, cs, k), first)     # the smallest c among the best
        pick = np.minimum.reduceat(np.where(top & (cs == pick_c[row]), np.arange(len(score)), len(score)), first)
        u = starts
        if beta > 0:
            stay = gumbel(np, seed, u.astype(np.int64), comm[u].astype(np.int64))
            move = best > stay
        else:
            move = best > 0
        target[u[move]] = cs[pick[move]]
        gain[u[move]] = g[pick[move]]
        return target, gain
