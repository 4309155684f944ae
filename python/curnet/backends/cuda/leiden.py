"""Leiden's and Louvain's moves on the GPU (kernels/leiden.cu): `local_moving` and `refine_moves`
(a level's rounds in one cooperative launch each), with the contracts of their NumPy twins in
backends/cpu/leiden.py. The driver is curnet.analyses.community_detection."""
from __future__ import annotations

import numpy as np
import cupy as cp

from ..partitions import (MAX_MOVE_ROUNDS, MAX_REFINE_ROUNDS, MOVE_BUCKETS, ROUND_GAIN, SMALLEST_SHARE, LevelGraph,
                          aggregate, community_sums)
from .launch import i32, i64


class CudaMoves:
    xp = cp

    def __init__(self, launcher):
        self.launcher = launcher

    def tables(self, lg: LevelGraph):
        """The per-vertex hash tables (2 slots an arc), kept with the level's graph."""
        t = getattr(lg, "_tables", None)
        if t is None:
            slots = max(1, 2 * len(lg.idx))
            t = (cp.empty(slots, np.int32), cp.empty(slots, np.float64))
            lg._tables = t      # type: ignore[attr-defined]
        return t

    def aggregate(self, lg: LevelGraph, labels, k: int) -> LevelGraph:
        """partitions.aggregate on the device."""
        return aggregate(cp, lg, labels, k)

    def community_sums(self, lg: LevelGraph, labels, vsize, k: int):
        """partitions.community_sums on the device."""
        return community_sums(cp, lg, labels, vsize, k)

    def pieces(self, lg: LevelGraph, labels):
        """See CpuMoves.pieces: here each vertex takes the smallest label among its neighbours
        in its community, then its label's label (pointer jumping), until no label changes;
        a piece ends labelled by its smallest vertex id."""
        inside = labels[lg.src] == labels[lg.idx]
        u, v = lg.src[inside], lg.idx[inside]
        lab = cp.arange(lg.n, dtype=np.int32)
        while True:
            new = lab.copy()
            cp.minimum.at(new, u, lab[v])
            new = new[new]
            new = new[new]
            if not bool((new != lab).any()):
                return lab
            lab = new

    def local_moving(self, lg: LevelGraph, part, vsize, total, count, gamma: float, quality: float,
                     tolerance: float, seed: int):
        """See CpuMoves.local_moving: here every round in one launch of move_loop (grid
        barriers between a bucket's steps), so a level waits for the device once, when its
        labels are used. The totals and counts (rounds, buckets, buckets accepted) stay on the
        device."""
        n = lg.n
        part = cp.array(part, dtype=np.int32)
        stats = cp.zeros(3, np.int64)
        total = cp.array(total, dtype=np.float64)     # kept up to date by the moves
        if n == 0:
            return part, total, stats
        keys, vals = self.tables(lg)
        count = cp.array(count, dtype=np.int32)
        looks = cp.zeros(2 * n, np.uint8)
        looks[:n] = 1                                  # every vertex looked at in the first round
        moving = cp.empty(n, np.uint8)
        target = cp.empty(n, np.int32)
        dtot = cp.zeros(n, np.float64)
        dcount = cp.zeros(n, np.int32)
        sums = cp.zeros(9, np.float64)                 # three slots of (movers, inside, penalty)
        bar = cp.zeros(2, np.uint32)
        args = (lg.ptr, lg.idx, cp.ascontiguousarray(lg.w, dtype=np.float64), i64(n), part, total, count,
                cp.ascontiguousarray(vsize, dtype=np.float64), np.float64(gamma), looks[:n], looks[n:],
                target, moving, dtot, dcount, keys, vals, sums, bar, np.float64(quality),
                np.float64(tolerance), np.uint64(seed % 2**64), i32(MAX_MOVE_ROUNDS), i32(MOVE_BUCKETS),
                np.float64(ROUND_GAIN), np.float64(SMALLEST_SHARE), stats)
        self.launcher.launch_resident("leiden", "move_loop", args, vertices=n, lanes=32)
        return part, total, stats

    def refine_moves(self, lg: LevelGraph, part, vsize, rest, alone, total, cut, gamma: float,
                     beta: float, seed: int):
        """See CpuMoves.refine_moves: every round in one launch of refine_loop. The count of
        rounds stays on the device."""
        n = lg.n
        sub = cp.arange(n, dtype=np.int32)
        stats = cp.zeros(1, np.int64)
        if n == 0:
            return sub, stats
        keys, vals = self.tables(lg)
        flags = cp.zeros(3 * n, np.uint8)              # ok, joined, moving
        args = (lg.ptr, lg.idx, cp.ascontiguousarray(lg.w, dtype=np.float64), i64(n),
                cp.ascontiguousarray(part, dtype=np.int32), cp.ascontiguousarray(vsize, dtype=np.float64),
                cp.ascontiguousarray(rest, dtype=np.float64), np.float64(gamma), np.float64(beta), sub,
                cp.array(alone, dtype=np.uint8), cp.array(total, dtype=np.float64),
                cp.array(cut, dtype=np.float64), flags[:n], flags[n:2 * n], flags[2 * n:],
                cp.empty(n, np.int32), keys, vals, cp.zeros(3, np.float64), cp.zeros(2, np.uint32),
                np.uint64(seed % 2**64), i32(MAX_REFINE_ROUNDS), stats)
        self.launcher.launch_resident("leiden", "refine_loop", args, vertices=n, lanes=32)
        return sub, stats
