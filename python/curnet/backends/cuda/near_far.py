"""Near-far SSSP on the GPU (Delta-stepping with one threshold a batch; kernels/sssp.cu):
non-negative float32 weights, few sources. Each arc is relaxed ~1-2 times instead of
Bellman-Ford's ~5; both reach the same float32 fixed point."""
from __future__ import annotations

import numpy as np
import cupy as cp

from .launch import THREADS, DeviceGraph, KernelError, i32, i64
from .sssp import class_heads


class NearFar:
    """Near-far batches on one GPU. `long_route(hg, ids, with_pred)` finishes a batch on
    the host when it runs past `nf_max_iters` iterations (a long-diameter graph)."""

    def __init__(self, launcher, tuning, counters, long_route):
        self.launcher, self.tuning, self.counters, self.long_route = launcher, tuning, counters, long_route

    def suits(self, hg: DeviceGraph, kb: int, with_pred: bool) -> bool:
        """Near-far for this batch: float32, non-negative weights (positive with predecessors:
        zero weights take deterministic Jacobi rounds, see BellmanFord.start), few sources."""
        return (hg.weight_dtype == np.float32 and kb <= self.tuning.nf_max_sources and hg.m > 0
                and kb * hg.n < 2**31 and (hg.min_weight > 0 if with_pred else hg.min_weight >= 0))

    def delta(self, hg: DeviceGraph) -> float:
        base = hg.extra.get("nf_delta_base")
        if base is None:
            mean_w = float(hg.out_w.mean()) if hg.out_w is not None else 1.0
            base = 32.0 * mean_w / max(hg.m / max(hg.n, 1), 1.0)
            if not base > 0:
                base = 1.0
            hg.extra["nf_delta_base"] = base
        return base * self.tuning.nf_delta_factor

    def run(self, hg: DeviceGraph, ids, with_pred: bool):
        """(dist, pred or None), (kb, n) on the device."""
        if hg.long_diameter:
            return self.long_route(hg, ids, with_pred)
        t, L = self.tuning, self.launcher
        kb, n = len(ids), hg.n
        count = kb * n
        ids64 = np.asarray(ids, dtype=np.int64)
        entries = np.arange(kb, dtype=np.int64) * n + ids64
        if with_pred:
            key = cp.full(count, np.uint64(0xFF800000FFFFFFFF), np.uint64)
            key[cp.asarray(entries)] = np.uint64(0x80000000FFFFFFFF)
            suffix = "packed"
        else:
            key = cp.full(count, np.uint32(0xFF800000), np.uint32)
            key[cp.asarray(entries)] = np.uint32(0x80000000)
            suffix = "dist"
        stamp = cp.full(count, -1, np.int32)
        stamp[cp.asarray(entries)] = 0
        far = cp.zeros(count, np.uint8)
        deg = cp.asnumpy(hg.out_ptr[cp.asarray(ids64) + 1] - hg.out_ptr[cp.asarray(ids64)])
        heavy = deg > t.nf_heavy
        nheavy = hg.extra.get(("nf_heavy", t.nf_heavy))
        if nheavy is None:
            nheavy = hg.extra[("nf_heavy", t.nf_heavy)] = int(cp.count_nonzero(cp.diff(hg.out_ptr) > t.nf_heavy))
        hcap = max(1, kb * nheavy)
        lq = [cp.empty(count, np.int64), cp.empty(count, np.int64)]
        hq = [cp.empty(hcap, np.int64), cp.empty(hcap, np.int64)]
        hincl = cp.empty(hcap, np.int64)
        light0, heavy0 = entries[(~heavy) & (deg > 0)], entries[heavy]
        lq[0][:len(light0)] = cp.asarray(light0)
        hq[0][:len(heavy0)] = cp.asarray(heavy0)
        cnt = cp.asarray(np.array([len(light0), 0, 0, len(heavy0), 0, 0], np.uint32))
        delta = self.delta(hg)
        thr = cp.asarray(np.array([delta, delta], np.float32))
        minbox = cp.zeros(1, np.uint32)
        gate = cp.zeros(1, np.int32)
        has_w = hg.out_w is not None
        w = hg.out_w if has_w else cp.zeros(1, np.float32)
        heads, flagged = class_heads(hg, t)
        relax, fmin, fgather = (L.kernel("sssp", f"nf_relax_{suffix}"), L.kernel("sssp", f"nf_far_min_{suffix}"),
                                L.kernel("sssp", f"nf_far_gather_{suffix}"))
        scan = L.kernel("sssp", "nf_heavy_scan")
        grid = (L.max_blocks * 2,)
        sgrid = (max(1, min(L.max_blocks, (count + THREADS - 1) // THREADS)),)
        it = 0
        heavy_arg = i32(t.nf_heavy)
        try:
            while True:
                for _ in range(t.nf_sync_every):
                    b = it % 2
                    scan((1,), (1024,), (hq[b], cnt, i32(it), i64(n), hg.out_ptr, hincl))
                    relax(grid, (THREADS,), (lq[b], hq[b], hincl, cnt, i32(it), thr, i64(n), hg.out_ptr,
                                             heads, w, i32(has_w), i32(flagged), key, stamp, far,
                                             lq[1 - b], hq[1 - b],
                                             heavy_arg, minbox, gate))
                    fmin(sgrid, (THREADS,), (cnt, i32(it), key, far, i64(count), minbox, gate))
                    fgather(sgrid, (THREADS,), (cnt, i32(it), thr, np.float32(delta), key, far, stamp,
                                                i64(count), i64(n), hg.out_ptr, heavy_arg, lq[1 - b], hq[1 - b],
                                                minbox, gate))
                    it += 1
                c = cnt.get()
                slot = it % 3
                if c[slot] == 0 and c[3 + slot] == 0:
                    break
                if it >= t.nf_max_iters:
                    return self.long_route(hg, ids, with_pred)
        except cp.cuda.memory.OutOfMemoryError:
            raise
        except Exception as e:
            raise KernelError(f"curnet: CUDA near-far kernels failed ({kb} sources, {n} vertices): "
                              f"{type(e).__name__}: {e}") from e
        self.counters.add("nf_iters", it)
        key = key.reshape(kb, n)
        dist = cp.empty((kb, n), np.float32)
        if with_pred:
            pred = cp.empty((kb, n), np.int32)
            L.launch("sssp", "unpack_f32", count, (key, i64(count), dist, pred), max_blocks=L.max_blocks)
            return dist, pred
        L.launch("sssp", "from_ordered_f32", count, (key, i64(count), dist), max_blocks=L.max_blocks)
        return dist, None
