"""Near-far SSSP on the GPU (Delta-stepping with one threshold a batch; kernels/sssp.cu):
non-negative float32 or float64 weights, few sources. An arc that lands past the threshold
is relaxed once a bucket, from its tail's final distance (a settle iteration), so only the
arcs inside a bucket are relaxed again; both reach Bellman-Ford's fixed point in the
weights' precision.
float32 keeps (distance, predecessor) in one packed word; float64 keeps the distance alone
(one 64-bit atomicMin on its ordered bits) and finds predecessors after it (`preds_f64`)."""
from __future__ import annotations

import numpy as np
import cupy as cp

from ..gpu_routes import near_far_suits
from .launch import NULL, THREADS, DeviceGraph, KernelError, i32, i64, resident
from .sssp import class_heads
from ...work import counting, tally

# Ordered keys (kernels/sssp.cu f2o / d2o) of +inf and 0: unreached entries and the sources.
F32_INF, F32_ZERO = np.uint32(0xFF800000), np.uint32(0x80000000)
F64_INF, F64_ZERO = np.uint64(0xFFF0000000000000), np.uint64(0x8000000000000000)
PACKED_INF, PACKED_ZERO = np.uint64(0xFF800000FFFFFFFF), np.uint64(0x80000000FFFFFFFF)
PRED_NONE = np.iinfo(np.int32).max       # kernels/sssp.cu PRED_NONE
NF_STAMPS = 8                            # kernels/sssp.cu NF_STAMPS: the loop's stamps an iteration


def captured(launches) -> cp.cuda.Graph:
    """A CUDA graph of the kernels `launches()` launches, captured on a side stream (none of
    them runs then): replayed, it costs one launch instead of one a kernel. Their arguments
    are fixed at capture, so what changes between replays lives on the device."""
    side = cp.cuda.Stream(non_blocking=True)
    with side:
        side.begin_capture()
        try:
            launches()
        finally:
            graph = side.end_capture()
    return graph


class NearFar:
    """Near-far batches on one GPU. `long_route(hg, ids, with_pred)` finishes a batch on
    the host when it runs past `nf_max_iters` iterations (a long-diameter graph)."""

    def __init__(self, launcher, tuning, counters, long_route):
        self.launcher, self.tuning, self.counters, self.long_route = launcher, tuning, counters, long_route

    def suits(self, hg: DeviceGraph, kb: int, with_pred: bool) -> bool:
        """Near-far for this batch (gpu_routes.near_far_suits): non-negative weights, few
        sources; float32 predecessors want positive weights."""
        return near_far_suits(hg.weight_dtype, hg.min_weight, hg.n, hg.m, kb, with_pred,
                              self.tuning.nf_max_sources)

    def delta(self, hg: DeviceGraph, kb: int) -> float:
        """The bucket width for a batch of kb sources: Davidson et al.'s rule times
        nf_delta_factor, doubled for a batch of few arcs (sources x arcs; few entries an
        iteration, so fewer iterations pay) and halved for one of very many (full
        iterations, so fewer rescans pay)."""
        t = self.tuning
        work = kb * hg.m
        scale = 2.0 if work <= t.nf_wide_max_arcs else 0.5 if work >= t.nf_narrow_min_arcs else 1.0
        base = hg.extra.get("nf_delta_base")
        if base is None:
            mean_w = float(hg.out_w.mean()) if hg.out_w is not None else 1.0
            base = 32.0 * mean_w / max(hg.m / max(hg.n, 1), 1.0)
            if not base > 0:
                base = 1.0
            hg.extra["nf_delta_base"] = base
        return base * t.nf_delta_factor * scale

    def rows_by_weight(self, hg: DeviceGraph):
        """(heads, weights or None, flagged): each vertex's out-arcs in ascending weight, so that a near
        iteration stops at a row's first arc landing past the threshold (kernels/sssp.cu). Built
        once per graph: one sort of (row, weight rank) keys on the device."""
        got = hg.extra.get(("nf_rows_by_weight", self.tuning.edge_classes))
        if got is None:
            heads, flagged = class_heads(hg, self.tuning)
            if hg.out_w is None:                # every weight 1: any order is ascending
                got = (heads, None, flagged)
            else:
                m = hg.m
                rank = cp.empty(m, np.uint64)
                rank[cp.argsort(hg.out_w)] = cp.arange(m, dtype=np.uint64)
                row = cp.searchsorted(hg.out_ptr, cp.arange(m, dtype=hg.out_ptr.dtype), side="right") - 1
                order = cp.argsort((row.astype(np.uint64) << np.uint64(32)) | rank)
                del rank, row
                got = (heads[order], hg.out_w[order], flagged)
            hg.extra[("nf_rows_by_weight", self.tuning.edge_classes)] = got
        return got

    def run(self, hg: DeviceGraph, ids, with_pred: bool, stamps=None):
        """(dist, pred or None), (kb, n) on the device. stamps (benchmarks; a batch run in one
        launch only): a uint64 device array of NF_STAMPS entries an iteration, up to
        nf_max_iters, which the loop fills (kernels/sssp.cu nf_loop: its clock at the phases'
        edges, the entries relaxed, settle and bucket-end flags)."""
        if hg.long_diameter:
            return self.long_route(hg, ids, with_pred)
        t, L = self.tuning, self.launcher
        kb, n = len(ids), hg.n
        count = kb * n
        ids64 = np.asarray(ids, dtype=np.int64)
        entries = np.arange(kb, dtype=np.int64) * n + ids64
        f64 = hg.weight_dtype == np.float64
        # the key form (kernels/sssp.cu NfPacked32 / NfDist32 / NfDist64), its unreached and
        # source values, and the kernels' suffix
        inf: np.unsignedinteger
        zero: np.unsignedinteger
        if f64:
            suffix, inf, zero = "dist64", F64_INF, F64_ZERO
        elif with_pred:
            suffix, inf, zero = "packed", PACKED_INF, PACKED_ZERO
        else:
            suffix, inf, zero = "dist", F32_INF, F32_ZERO
        wdt = np.float64 if f64 else np.float32
        key = cp.full(count, inf, inf.dtype)
        key[cp.asarray(entries)] = zero
        stamp = cp.full(count, -1, np.int32)
        stamp[cp.asarray(entries)] = 0
        far = cp.zeros(-(-count // 16) * 16, np.uint8)     # read 16 at a time (for_each_flagged)
        marked = cp.zeros(count, np.uint8)      # in the settle queues (relaxed in this bucket)
        # the sources' degrees from the host's offsets: no device gather and no copy back
        ptr = hg.graph.indptr
        deg = ptr[ids64 + 1] - ptr[ids64]
        heavy = deg > t.nf_heavy
        nheavy = hg.extra.get(("nf_heavy", t.nf_heavy))
        if nheavy is None:
            nheavy = hg.extra[("nf_heavy", t.nf_heavy)] = int(np.count_nonzero(np.diff(ptr) > t.nf_heavy))
        hcap = max(1, kb * nheavy)
        lq = [cp.empty(count, np.int64), cp.empty(count, np.int64)]
        hq = [cp.empty(hcap, np.int64), cp.empty(hcap, np.int64)]
        sl, sh = cp.empty(count, np.int64), cp.empty(hcap, np.int64)     # the settle queues
        hstart, hincl = cp.empty(hcap, np.int64), cp.empty(hcap, np.int64)   # heavy entries' arc ranges
        light0, heavy0 = entries[(~heavy) & (deg > 0)], entries[heavy]
        lq[0][:len(light0)] = cp.asarray(light0)
        hq[0][:len(heavy0)] = cp.asarray(heavy0)
        # queue counts by slot (light 0-2, heavy 3-5), the mode of even and odd iterations
        # (6, 7: 1 settles), the settle queues' counts (light 8, heavy 11), the iteration
        # running (12; nf_heavy_scan moves it on from -1)
        cnt = cp.asarray(np.array([len(light0), 0, 0, len(heavy0), 0, 0, 0, 0, 0, 0, 0, 0, 0xFFFFFFFF], np.uint32))
        offered = cp.zeros(1, np.uint64) if counting() else None
        offers = np.uint64(0) if offered is None else offered       # 0: a null pointer, nothing counted
        delta = self.delta(hg, kb)
        thr = cp.asarray(np.array([delta, delta], wdt))
        minbox = cp.zeros(1, np.uint64 if f64 else np.uint32)
        gate = cp.zeros(1, np.int32)
        has_w = hg.out_w is not None
        heads, w, flagged = self.rows_by_weight(hg)
        w = w if has_w else cp.zeros(1, wdt)
        ranges, scan = L.kernel("sssp", f"nf_heavy_ranges_{suffix}"), L.kernel("sssp", "nf_heavy_scan")
        relax, fmin, fgather = (L.kernel("sssp", f"nf_relax_{suffix}"), L.kernel("sssp", f"nf_far_min_{suffix}"),
                                L.kernel("sssp", f"nf_far_gather_{suffix}"))
        grid = (L.max_blocks * 2,)
        sgrid = (max(1, min(L.max_blocks, (count + THREADS - 1) // THREADS)),)
        heavy_arg = i32(t.nf_heavy)
        if t.nf_light_lanes not in (1, 2, 4, 8, 16, 32):
            raise ValueError(f"CudaTuning.nf_light_lanes must be a power of two up to 32, not {t.nf_light_lanes}")
        light_shift, lane_min = i32(t.nf_light_lanes.bit_length() - 1), i32(t.nf_lane_arcs_min)
        # heavy entries relax only their rows' range for the iteration where the batch's arcs
        # are many (each iteration pays a binary search a heavy entry; tuning.py's measurements)
        use_ranges = kb * hg.m >= t.nf_ranges_min_arcs
        in_one_launch = 0 < kb * hg.m <= t.nf_loop_max_arcs
        if stamps is not None and not in_one_launch:
            raise ValueError(f"curnet: near-far stamps need a batch run in one launch ({kb} sources x {hg.m} arcs "
                             f"> nf_loop_max_arcs = {t.nf_loop_max_arcs})")

        def iteration(b):
            """One iteration: it reads queues b and appends to 1 - b (its number is on the device)."""
            if use_ranges:
                ranges((L.max_blocks,), (THREADS,), (hq[b], cnt, thr, i64(n), hg.out_ptr, w, i32(has_w), key,
                                                     marked, sl, sh, heavy_arg, hstart, hincl))
            scan((1,), (1024,), (hq[b], sh, cnt, i64(n), hg.out_ptr, i32(use_ranges), hincl))
            relax(grid, (THREADS,), (lq[b], hq[b], i32(use_ranges), hstart, hincl, cnt, thr, i64(n), hg.out_ptr,
                                     heads, w, i32(has_w), i32(flagged), key, stamp, far, marked, sl, sh,
                                     lq[1 - b], hq[1 - b], heavy_arg, lane_min, light_shift, minbox, gate, offers))
            fmin(sgrid, (THREADS,), (cnt, key, far, i64(count), minbox, gate))
            fgather(sgrid, (THREADS,), (cnt, thr, wdt(delta), key, far, stamp, i64(count), i64(n), hg.out_ptr,
                                        heavy_arg, lq[1 - b], hq[1 - b], minbox, gate))

        per_group = t.nf_sync_every + t.nf_sync_every % 2     # even: a group ends on the buffers it began on

        def group():
            for k in range(per_group):
                iteration(k % 2)

        def loop():
            """Every iteration in one cooperative launch (kernels/sssp.cu nf_loop), up to
            nf_max_iters; the counters after it."""
            bar = cp.zeros(2, np.uint32)
            sums = cp.empty(resident("sssp", f"nf_loop_{suffix}"), np.int64)    # the scan's shares, a block each
            L.launch_resident("sssp", f"nf_loop_{suffix}", (
                lq[0], lq[1], hq[0], hq[1], i32(use_ranges), hstart, hincl, cnt, thr, wdt(delta), i64(n),
                i64(count), hg.out_ptr, heads, w, i32(has_w), i32(flagged), key, stamp, far, marked, sl, sh,
                heavy_arg, lane_min, light_shift, minbox, gate, offers, i32(t.nf_max_iters), sums, bar,
                NULL if stamps is None else stamps))
            self.counters.add("nf_loops", 1)
            return cnt.get()

        it, groups, graph = 0, 0, None
        try:
            while True:
                if in_one_launch:
                    c = loop()
                    it = (int(c[12]) + 1) & 0xFFFFFFFF         # cnt[NF_ITER]: the last iteration run
                else:
                    if graph is None and groups >= t.nf_graph_after:
                        graph = captured(group)
                    if graph is None:
                        group()
                    else:
                        graph.launch()
                        self.counters.add("nf_graph_groups", 1)
                    groups += 1
                    it += per_group
                    c = cnt.get()
                slot = it % 3
                if c[slot] == 0 and c[3 + slot] == 0 and c[8] == 0 and c[11] == 0:
                    break
                if in_one_launch or it >= t.nf_max_iters:
                    tally("sssp near-far iterations", it)
                    tally("sssp per-source runs", kb)
                    return self.long_route(hg, ids, with_pred)
        except (cp.cuda.memory.OutOfMemoryError, KernelError):
            raise
        except Exception as e:
            raise KernelError(f"curnet: CUDA near-far kernels failed ({kb} sources, {n} vertices): "
                              f"{type(e).__name__}: {e}") from e
        self.counters.add("nf_iters", it)
        tally("sssp near-far iterations", it)
        if offered is not None:
            tally("sssp near-far arc relaxations", int(offered[0]))
        if f64:
            dist = cp.empty((kb, n), np.float64)
            L.launch("sssp", "from_ordered_f64", count, (key, i64(count), dist), max_blocks=L.max_blocks)
            return dist, (self.preds_f64(hg, ids, key) if with_pred else None)
        dist = cp.empty((kb, n), np.float32)
        if with_pred:
            pred = cp.empty((kb, n), np.int32)
            L.launch("sssp", "unpack_f32", count, (key, i64(count), dist, pred), max_blocks=L.max_blocks)
            return dist, pred
        L.launch("sssp", "from_ordered_f32", count, (key, i64(count), dist), max_blocks=L.max_blocks)
        return dist, None

    def preds_f64(self, hg: DeviceGraph, ids, key) -> cp.ndarray:
        """(kb, n) int32 predecessors (-1 none) from a float64 batch's finished ordered keys:
        the smallest tail of an arc that attains the distance and lengthens the path, then
        adoption rounds for the entries only zero (or rounded-away) weights reach (kernels/
        sssp.cu nf_pred_*). One pass over the batch's arcs; the rounds run only where such
        entries exist."""
        L = self.launcher
        kb, n, m = len(ids), hg.n, hg.m
        count, items = kb * n, kb * m
        has_w = hg.in_w is not None
        w = hg.in_w if has_w else cp.zeros(1, np.float64)
        ids32 = cp.asarray(np.asarray(ids, dtype=np.int32))
        arcs = (hg.in_src, hg.in_dst, w, i32(has_w))
        grid = L.max_blocks * 4
        pred = cp.full(count, PRED_NONE, np.int32)
        L.launch("sssp", "nf_pred_tight_f64", items, (key, i64(kb), i64(n), i64(m)) + arcs + (pred,),
                 max_blocks=grid)
        box = cp.zeros(1, np.uint32)
        L.launch("sssp", "nf_pred_open_f64", count, (key, ids32, i64(kb), i64(n), pred, box),
                 max_blocks=L.max_blocks)
        still_open = int(box[0])
        cand = cp.full(count, PRED_NONE, np.int32) if still_open else None
        rounds = 0
        while still_open:
            box.fill(0)
            L.launch("sssp", "nf_pred_adopt_f64", items,
                     (key, ids32, i64(kb), i64(n), i64(m)) + arcs + (pred, cand), max_blocks=grid)
            L.launch("sssp", "nf_pred_adopt_finish", count, (cand, i64(count), pred, box),
                     max_blocks=L.max_blocks)
            adopted = int(box[0])
            if adopted == 0:     # every reached entry has a tight chain from its source
                raise KernelError(f"curnet: near-far float64 predecessors: {still_open} reached entries "
                                  "attain their distance through no arc (the distances are no fixed point)")
            still_open -= adopted
            rounds += 1
        self.counters.add("nf_pred_rounds", rounds)
        return pred.reshape(kb, n)
