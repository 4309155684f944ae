"""Leiden's and Louvain's moves on the GPU (kernels/leiden.cu): `best_moves`, with the contract
of its NumPy twin in backends/cpu/leiden.py. The driver is curnet.analyses.community_detection."""
from __future__ import annotations

import numpy as np
import cupy as cp

from ..partitions import LevelGraph
from .launch import NULL, i64

WARPS_PER_BLOCK = 8          # the kernel takes a warp a vertex; 256-thread blocks


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

    def pieces(self, lg: LevelGraph, labels):
        """See CpuMoves.pieces: here each vertex takes the smallest label among its neighbours
        in its community, then its label's label (pointer jumping), until no label changes;
        a piece ends labelled by its smallest vertex id."""
        inside = labels[lg.src] == labels[lg.idx]
        u, v = lg.src[inside], lg.idx[inside]
        lab = cp.arange(lg.n, dtype=np.int32)
        if hasattr(cp.minimum, "at"):
            scatter_min = cp.minimum.at
        else:                                         # CuPy before ufunc.at
            import cupyx
            scatter_min = cupyx.scatter_min
        while True:
            new = lab.copy()
            scatter_min(new, u, lab[v])
            new = new[new]
            new = new[new]
            if not bool((new != lab).any()):
                return lab
            lab = new

    def best_moves(self, lg: LevelGraph, comm, bound, vsize, total, gamma: float, movable,
                   target_ok, beta: float, seed: int):
        """See CpuMoves.best_moves."""
        n = lg.n
        target = cp.empty(n, np.int32)
        gain = cp.empty(n, np.float64)
        if n == 0:
            return target, gain
        keys, vals = self.tables(lg)
        ok = NULL if target_ok is None else cp.ascontiguousarray(target_ok, dtype=np.uint8)
        args = (lg.ptr, lg.idx, cp.ascontiguousarray(lg.w, dtype=np.float64),
                cp.ascontiguousarray(comm, dtype=np.int32),
                NULL if bound is None else cp.ascontiguousarray(bound, dtype=np.int32),
                cp.ascontiguousarray(vsize, dtype=np.float64), cp.ascontiguousarray(total, dtype=np.float64),
                np.float64(gamma), cp.ascontiguousarray(movable, dtype=np.uint8), ok,
                np.float64(beta), np.uint64(seed % 2**64), i64(n), keys, vals, target, gain)
        self.launcher.launch("leiden", "best_moves", n * 32, args, max_blocks=self.launcher.max_blocks)
        return target, gain
