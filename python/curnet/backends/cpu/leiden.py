"""Leiden's and Louvain's moves on the CPU: `local_moving` and `refine_moves`, the NumPy/SciPy
twins of kernels/leiden.cu's move_loop and refine_loop, over `best_moves` (a bucket's moves at
once; the kernels' warp_best_move, a vertex a warp) (see backends/partitions.py for the gain
and the rules of local moving); `local_moving`,
`refine_moves`, `aggregate`, `community_sums` and `pieces` run compiled
(cpu/compiled_leiden.py) where Numba imports."""
from __future__ import annotations

import numpy as np

from .routes import compiled_module
from ..partitions import (MAX_MOVE_ROUNDS, MAX_REFINE_ROUNDS, MOVE_BUCKETS, ROUND_GAIN, SMALLEST_SHARE,
                          LevelGraph, aggregate, community_sums, gumbel, round_seed, uniform)


def arcs_of(ptr, movable) -> np.ndarray:
    """The positions of the arcs of the `movable` vertices (CSR ranges, in order)."""
    v = np.flatnonzero(movable)
    starts, lens = ptr[v], ptr[v + 1] - ptr[v]
    total = int(lens.sum())
    first = np.cumsum(lens) - lens                  # each range's place in the output
    return np.repeat(starts - first, lens) + np.arange(total, dtype=np.int64)


def _compiled():
    """cpu/compiled_leiden where Numba imports, else None (imported at a Leiden call)."""
    return compiled_module("compiled_leiden")


class CpuMoves:
    xp = np

    def pieces(self, lg: LevelGraph, labels) -> np.ndarray:
        """Each community's connected pieces (labels, any numbering): scipy_pieces's pieces,
        in compiled code where Numba imports."""
        compiled_leiden = _compiled()
        if compiled_leiden is not None:
            return compiled_leiden.pieces(lg, labels)
        return self.scipy_pieces(lg, labels)

    def scipy_pieces(self, lg: LevelGraph, labels) -> np.ndarray:
        """Each community's connected pieces (labels, any numbering): SciPy's components of
        the arcs inside communities."""
        import scipy.sparse as sp   # here: the CPU backend's import leaves SciPy to its first use
        from scipy.sparse.csgraph import connected_components
        inside = labels[lg.src] == labels[lg.idx]
        a = sp.csr_matrix((np.ones(int(inside.sum()), np.int8), (lg.src[inside], lg.idx[inside])),
                          shape=(lg.n, lg.n))
        return connected_components(a, directed=False)[1]

    def aggregate(self, lg: LevelGraph, labels, k: int) -> LevelGraph:
        """partitions.aggregate's next level, in compiled code where Numba imports (the same
        arrays, without NumPy's sort of every arc's community pair)."""
        compiled_leiden = _compiled()
        if compiled_leiden is not None:
            return compiled_leiden.aggregate(lg, labels, k)
        return aggregate(np, lg, labels, k)

    def community_sums(self, lg: LevelGraph, labels, vsize, k: int):
        """partitions.community_sums, in one compiled pass over the arcs where Numba imports."""
        compiled_leiden = _compiled()
        if compiled_leiden is not None:
            return compiled_leiden.community_sums(lg, labels, vsize, k)
        return community_sums(np, lg, labels, vsize, k)

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
        import scipy.sparse as sp
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

    def local_moving(self, lg: LevelGraph, part, vsize, total, count, gamma: float, quality: float,
                     tolerance: float, seed: int):
        """numpy_local_moving's result, in compiled code where Numba imports
        (cpu/compiled_leiden.py: the same labels on integer weights, without a bucket's
        whole-array passes)."""
        compiled_leiden = _compiled()
        if compiled_leiden is not None:
            return compiled_leiden.local_moving(lg, part, vsize, total, count, gamma, quality, tolerance, seed,
                                                MAX_MOVE_ROUNDS, MOVE_BUCKETS, ROUND_GAIN, SMALLEST_SHARE)
        return self.numpy_local_moving(lg, part, vsize, total, count, gamma, quality, tolerance, seed)

    def numpy_local_moving(self, lg: LevelGraph, part, vsize, total, count, gamma: float, quality: float,
                           tolerance: float, seed: int):
        """A level's local moving from labels `part` (vertex ids of lg), with each community's
        penalty weight `total` and vertex `count` and the partition's quality (2m Q): (the new
        labels, each community's penalty weight after the moves, [rounds, buckets, buckets
        accepted]).

        A round draws each vertex a bucket (round_seed's uniform) and moves the buckets one
        after the other: the bucket's vertices still looked at (all at first; later those next
        to a move) each take their best move at once (`best_moves`, greedy), except that a
        singleton never moves to another singleton of larger id (two would swap forever). A
        bucket whose moves together do not raise the quality by more than `tolerance` is
        dropped, and from then on only a random share of each bucket may move (a half, a
        quarter...). A round that moved nothing ends the level (or, after a drop, is tried
        again with the smaller share, down to SMALLEST_SHARE); so does a round that raised the
        quality by less than ROUND_GAIN of it."""
        n = lg.n
        ids = np.arange(n, dtype=np.int64)
        part = part.astype(np.int32, copy=True)
        total = total.astype(np.float64, copy=True)
        count = count.astype(np.int64, copy=True)
        look = np.ones(n, bool)
        share, rounds, buckets, accepted = 1.0, 0, 0, 0
        for r in range(MAX_MOVE_ROUNDS):
            rseed = round_seed(seed, r)
            bucket = (uniform(np, rseed, ids, ids) * MOVE_BUCKETS).astype(np.int32)
            draw = uniform(np, rseed + 1, ids, ids)
            next_look = np.zeros(n, bool)
            moved, round_start = False, quality
            for b in range(MOVE_BUCKETS):
                buckets += 1
                movable = look & (bucket == b)
                if share < 1.0:
                    movable &= draw < share
                target, _ = self.best_moves(lg, part, None, vsize, total, gamma, movable, None, 0.0, 0)
                moving = (target != part) & ~((count[part] == 1) & (count[target] == 1) & (target > part))
                movers = np.flatnonzero(moving)
                if not len(movers):
                    continue
                arcs = arcs_of(lg.ptr, moving)
                u, v = lg.src[arcs], lg.idx[arcs]
                new = np.where(moving, target, part)
                # an arc between a mover and a vertex that stays stands for its reverse too
                delta = (new[u] == new[v]).astype(np.float64) - (part[u] == part[v])
                inside = (lg.w[arcs] * delta * np.where(moving[v], 1.0, 2.0)).sum()
                size = vsize[movers]
                change = np.bincount(target[movers], weights=size, minlength=n) - \
                    np.bincount(part[movers], weights=size, minlength=n)
                touched = change != 0
                t = total[touched]
                now = t + change[touched]
                new_quality = quality + (inside - gamma * (now * now - t * t).sum())
                if not new_quality > quality + tolerance:
                    share *= 0.5                # the moves undid each other: fewer at once
                    continue
                count += np.bincount(target[movers], minlength=n) - np.bincount(part[movers], minlength=n)
                part = new.astype(np.int32)
                total[touched] = now
                quality, moved = new_quality, True
                accepted += 1
                next_look[v] = True
                next_look[movers] = True
            rounds += 1
            if not moved and (share == 1.0 or share < SMALLEST_SHARE):
                break
            if moved and quality - round_start < ROUND_GAIN * abs(round_start):
                break                           # the tail of a level: moves that barely count
            if moved:
                look = next_look
        return part, total, np.array([rounds, buckets, accepted], np.int64)

    def refine_moves(self, lg: LevelGraph, part, vsize, rest, alone, total, cut, gamma: float,
                     beta: float, seed: int):
        """numpy_refine_moves's result, in compiled code where Numba imports."""
        compiled_leiden = _compiled()
        if compiled_leiden is not None:
            return compiled_leiden.refine_moves(lg, part, vsize, rest, alone, total, cut, gamma, beta, seed,
                                                MAX_REFINE_ROUNDS)
        return self.numpy_refine_moves(lg, part, vsize, rest, alone, total, cut, gamma, beta, seed)

    def numpy_refine_moves(self, lg: LevelGraph, part, vsize, rest, alone, total, cut, gamma: float,
                           beta: float, seed: int):
        """Leiden's refinement of `part` from singletons: (sub-community labels, each a vertex
        id of lg; [rounds]). `rest`: the penalty weight of each vertex's community; `alone`:
        the vertices well connected to their community (they may move while still alone);
        `total`, `cut`: each singleton's penalty weight and weight to the rest of its community.

        A round: each vertex still alone draws a move (best_moves with noise, round_seed's)
        to a well-connected sub-community of its community (cut >= g S (S_community - S));
        a vertex being joined this round stays where it is, so each sub-community is its
        founding vertex plus vertices with an arc into it. The cuts and totals are updated
        from the movers' arcs alone. Ends after a round without a mover."""
        n = lg.n
        sub = np.arange(n, dtype=np.int32)
        alone, total, cut = alone.copy(), total.astype(np.float64, copy=True), cut.astype(np.float64, copy=True)
        inside = np.flatnonzero(part[lg.src] == part[lg.idx])    # the arcs inside communities
        in_src, in_dst, in_w = lg.src[inside], lg.idx[inside], lg.w[inside]
        rounds = 0
        for r in range(MAX_REFINE_ROUNDS):
            rounds += 1
            target_ok = cut >= gamma * total * (rest - total)
            target, _ = self.best_moves(lg, sub, part, vsize, total, gamma, alone, target_ok, beta,
                                        round_seed(seed, r))
            joined = np.zeros(n, bool)
            joined[target] = True                     # moved to (or stayed in, by its own)
            moving = (target != sub) & ~joined        # a vertex being joined stays
            movers = np.flatnonzero(moving)
            if not len(movers):
                break
            new = sub.copy()
            new[movers] = target[movers]
            arcs = np.flatnonzero(moving[in_src])     # the movers' arcs inside communities
            u, v, w = in_src[arcs], in_dst[arcs], in_w[arcs]
            was_cut, is_cut = sub[u] != sub[v], new[u] != new[v]
            # the arc u -> v counts in the cut of u's sub-community; its reverse v -> u in v's,
            # counted here when v stays (a moving v's arcs are among `arcs` themselves)
            stays = ~moving[v]
            cut = cut + np.bincount(new[u], weights=w * is_cut, minlength=n) \
                - np.bincount(sub[u], weights=w * was_cut, minlength=n) \
                + np.bincount(new[v], weights=w * (is_cut.astype(np.float64) - was_cut) * stays, minlength=n)
            size = vsize[movers]
            total = total + np.bincount(target[movers], weights=size, minlength=n) \
                - np.bincount(sub[movers], weights=size, minlength=n)
            sub = new
            alone[movers] = False
            alone[target[movers]] = False             # joined: no longer alone
        return sub, np.array([rounds], np.int64)
