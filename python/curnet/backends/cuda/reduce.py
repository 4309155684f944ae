"""Reductions of a batch's BFS depth block on the GPU (kernels/reduce.cu): one fused pass
instead of the several passes (each with a block-sized temporary) of the array-generic twins
in backends/arrays.py, which still serve other dtypes (SSSP distances) on the device."""
from __future__ import annotations

import numpy as np
import cupy as cp

from ..arrays import depth_histogram as depth_histogram_xp
from ..arrays import depth_stats as depth_stats_xp
from .launch import i32, i64

COLUMNS_A_BLOCK = 128
HISTOGRAM_BINS = 1024          # deeper entries go to the generic twin (long-diameter graphs)
NO_LIMIT = np.iinfo(np.int32).max


class DepthReductions:
    def __init__(self, launcher):
        self.launcher = launcher

    def _grid(self, n: int, kb: int) -> tuple:
        """Columns across blocks, rows cut into pieces so the GPU holds ~16 blocks an SM (and
        no block counts 2^32 entries in its shared histogram)."""
        gx = -(-kb // COLUMNS_A_BLOCK)
        gy = max(1, min(max(n // 64, 1), self.launcher.sms * 16 // gx), -(-n // (1 << 24)))
        return gx, gy

    @staticmethod
    def _strides(d) -> tuple:
        rs, cs = (s // d.itemsize for s in d.strides)
        return i64(rs), i64(cs)

    def stats(self, d, upto=None, mindist=0, want=None) -> dict:
        """depth_stats of an int32 (n, kb) block (any strides), all four statistics in one
        pass; other dtypes: the twin, for the statistics in `want`."""
        if d.dtype != np.int32 or d.size == 0 or (upto is not None and upto < 0):
            return depth_stats_xp(cp, d, upto, mindist, *([want] if want else []))
        n, kb = d.shape
        count = cp.zeros(kb, np.uint64)
        total = cp.zeros(kb, np.float64)
        inverse = cp.zeros(kb, np.float64)
        farthest = cp.zeros(kb, np.uint64)
        limit = NO_LIMIT if upto is None else min(int(upto), NO_LIMIT)
        gx, gy = self._grid(n, kb)
        self.launcher.kernel("reduce", "depth_stats")(
            (gx, gy), (COLUMNS_A_BLOCK,),
            (d, i64(n), i32(kb), *self._strides(d), i32(max(int(mindist), 0)), i32(limit),
             count, total, inverse, farthest))
        none = count == 0
        key = farthest.view(np.int64)
        return {"count": count.astype(np.int64), "total": total, "inverse": inverse,
                "farthest": cp.where(none, -1, key >> 32).astype(np.int32),
                "farthest_at": cp.where(none, 0, 0xFFFFFFFF - (key & 0xFFFFFFFF))}

    def histogram(self, d) -> tuple:
        """depth_histogram of an int32 (n, kb) block (any strides); other dtypes, or depths
        beyond HISTOGRAM_BINS: the twin."""
        if d.dtype != np.int32 or d.size == 0:
            return depth_histogram_xp(cp, d)
        n, kb = d.shape
        hist = cp.zeros(HISTOGRAM_BINS + 1, np.uint64)
        gx, gy = self._grid(n, kb)
        self.launcher.kernel("reduce", "depth_histogram")(
            (gx, gy), (COLUMNS_A_BLOCK,),
            (d, i64(n), i32(kb), *self._strides(d), i32(HISTOGRAM_BINS), hist),
            shared_mem=(HISTOGRAM_BINS + 1) * 4)
        hist = hist.astype(np.int64)
        if int(hist[HISTOGRAM_BINS]):          # a path of 1,024 hops or more: count exactly
            return depth_histogram_xp(cp, d)
        depths = hist[1:HISTOGRAM_BINS]
        last = int(cp.flatnonzero(depths).max()) + 1 if bool(depths.any()) else 0
        return depths[:last], hist[0]
