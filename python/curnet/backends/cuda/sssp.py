"""Frontier Bellman-Ford on the GPU, a batch of sources at a time (kernels/sssp.cu).

float32 predecessors over positive weights ride in a packed word with the distance (one
atomicMin an arc); float64, and float32 predecessors where zero or negative weights could
tie, take Jacobi rounds (three phases, deterministic, the CPU twin's rule exactly)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import cupy as cp

from .launch import DeviceGraph, i32, i64, inclusive_degree_sum

# Edge classes (kernels/sssp.cu): arcs into a sink do not queue it, arcs into a vertex of
# in-degree 1 write without an atomic (self-loops are always skipped). The class rides in
# the top two bits of a copy of the arc heads; directed graphs only (docs/gpu-notes.md).
CLASS_SINK, CLASS_IN_ONE = 1, 2


@dataclass
class SPState:
    """A Bellman-Ford batch's state on the device (see `BellmanFord.start`)."""
    kb: int
    n: int
    ids: np.ndarray
    mode: str                            # "packed32", "dist32", "jacobi"
    key: cp.ndarray                      # packed u64 / ordered u32 / ordered u32 or u64, (kb, n)
    pred: cp.ndarray | None = None       # jacobi mode only


def class_heads(hg: DeviceGraph, tuning):
    """(arc heads with their CLASS_* bits on top, 1), or (plain heads, 0) where classes are
    off, the graph is undirected, or ids need the top bits (2^30 vertices or more). Built
    once per graph."""
    got = hg.extra.get(("class_heads", tuning.edge_classes))
    if got is None:
        if tuning.edge_classes and hg.n <= 2**30 and hg.graph.directed:
            cls = ((cp.diff(hg.out_ptr) == 0).astype(np.uint32) * CLASS_SINK
                   | (cp.diff(hg.in_ptr) == 1).astype(np.uint32) * CLASS_IN_ONE)
            heads = hg.out_idx.astype(np.uint32) | (cls[hg.out_idx] << np.uint32(30))
            got = (heads.view(np.int32), 1)
        else:
            got = (hg.out_idx, 0)
        hg.extra[("class_heads", tuning.edge_classes)] = got
    return got


class BellmanFord:
    """The Bellman-Ford batch primitives of one GPU. `call` is the backend's per-thread
    CallState (the last active set, so that `any` needs no reduction)."""

    def __init__(self, launcher, tuning, counters, call):
        self.launcher, self.tuning, self.counters, self.call = launcher, tuning, counters, call

    def batch_size(self, n: int, k: int) -> int:
        """Sources per near-far / Bellman-Ford batch: enough to fill the GPU on small networks,
        bounded by a quarter of free memory and by 2^31 entries (the queues' 32-bit counts)."""
        per_source = n * 49 + 1      # near-far: key 8, stamp 4, far 1, marked 1, three queues 24, result
        fit = int(self.launcher.free_memory() * 0.25 // per_source)
        return max(1, min(k, fit, 4096, (2**31 - 1) // max(n, 1),   # entries r * n + v in int32 counts
                          self.tuning.batch_limit or k))

    def start(self, hg: DeviceGraph, ids, track_pred: bool):
        """The state of a batch and its first active set (the sources)."""
        kb, n = len(ids), hg.n
        dist = cp.full((kb, n), np.inf, hg.weight_dtype)
        dist[cp.arange(kb), cp.asarray(np.asarray(ids, dtype=np.int64))] = 0
        if hg.weight_dtype == np.float64 or (track_pred and hg.min_weight <= 0):
            pred = cp.full((kb, n), -1, np.int32)
            return self.state(dist, pred, "jacobi", ids), dist == 0
        if track_pred:
            return self.state(dist, cp.full((kb, n), -1, np.int32), "packed32", ids), dist == 0
        return self.state(dist, None, "dist32", ids), dist == 0

    def state(self, dist, pred, mode: str, ids) -> SPState:
        """A batch state holding (dist, pred) in the form `mode` keeps them."""
        kb, n = dist.shape
        count = kb * n
        dist = cp.ascontiguousarray(dist)
        L = self.launcher
        if mode == "packed32":
            key = cp.empty((kb, n), np.uint64)
            L.launch("sssp", "pack_f32", count, (dist, cp.ascontiguousarray(pred), i64(count), key),
                     max_blocks=L.max_blocks)
            return SPState(kb, n, np.asarray(ids), mode, key)
        suffix = "f64" if dist.dtype == np.float64 else "f32"
        key = cp.empty((kb, n), np.uint64 if suffix == "f64" else np.uint32)
        L.launch("sssp", f"to_ordered_{suffix}", count, (dist, i64(count), key), max_blocks=L.max_blocks)
        return SPState(kb, n, np.asarray(ids), mode, key, pred if mode == "jacobi" else None)

    def any(self, a) -> bool:
        last = self.call.last_active
        if last is not None and last[0] is a:
            return len(last[1]) > 0
        return bool(a.any())

    def relax(self, hg: DeviceGraph, state: SPState, active) -> cp.ndarray:
        """One round from the active entries; returns the next active set."""
        n = state.n
        L = self.launcher
        nxt = cp.zeros((state.kb, n), np.bool_)
        last = self.call.last_active
        entries = last[1] if last is not None and last[0] is active else cp.flatnonzero(active)
        self.call.last_active = None
        if len(entries) == 0:
            return nxt
        incl, total = inclusive_degree_sum(hg, entries % n)
        self.counters.add("rounds")
        self.counters.add("arcs", total)
        if total == 0:
            return nxt
        qlen = len(entries)
        has_w = hg.out_w is not None
        w = hg.out_w if has_w else cp.zeros(1, hg.weight_dtype)
        common = (entries, incl, i64(qlen), i64(total), i64(n), hg.out_ptr, hg.out_idx, w, i32(has_w))
        grid = L.max_blocks * 4
        if state.mode in ("packed32", "dist32"):
            heads, flagged = class_heads(hg, self.tuning)
            L.launch("sssp", "relax_packed_f32" if state.mode == "packed32" else "relax_dist_f32", total,
                     common[:6] + (heads,) + common[7:] + (i32(flagged), state.key, nxt), max_blocks=grid)
        else:
            suffix = "f64" if state.key.dtype == np.uint64 else "f32"
            prev = state.key.copy()
            L.launch("sssp", f"relax_jacobi_min_{suffix}", total, common + (prev, state.key), max_blocks=grid)
            best = cp.full((state.kb, n), np.iinfo(np.int32).max, np.int32)
            L.launch("sssp", f"relax_jacobi_pred_{suffix}", total, common + (prev, state.key, best),
                     max_blocks=grid)
            count = state.kb * n
            L.launch("sssp", f"relax_jacobi_finish_{suffix}", count,
                     (prev, state.key, best, i64(count), state.pred, nxt), max_blocks=L.max_blocks)
        # the next round's queue now (one synchronisation), so that `any` needs no reduction
        self.call.last_active = (nxt, cp.flatnonzero(nxt))
        return nxt

    def preds(self, state: SPState):
        """The batch's predecessors now (for the cycle search), or None if not tracked."""
        if state.mode == "jacobi":
            return state.pred
        if state.mode == "packed32":
            return (state.key & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)
        return None

    def finish(self, state: SPState, with_pred: bool):
        """(dist, pred or None) of a finished batch, (kb, n), on the device."""
        count = state.kb * state.n
        L = self.launcher
        if state.mode == "jacobi":
            f64 = state.key.dtype == np.uint64
            dist = cp.empty((state.kb, state.n), np.float64 if f64 else np.float32)
            L.launch("sssp", "from_ordered_f64" if f64 else "from_ordered_f32", count,
                     (state.key, i64(count), dist), max_blocks=L.max_blocks)
            return dist, (state.pred if with_pred else None)
        dist = cp.empty((state.kb, state.n), np.float32)
        if state.mode == "dist32":
            L.launch("sssp", "from_ordered_f32", count, (state.key, i64(count), dist), max_blocks=L.max_blocks)
            return dist, None
        pred = cp.empty((state.kb, state.n), np.int32)
        L.launch("sssp", "unpack_f32", count, (state.key, i64(count), dist, pred), max_blocks=L.max_blocks)
        return dist, (pred if with_pred else None)
