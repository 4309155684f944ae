"""The SCC primitives on the GPU (kernels/scc.cu): trimming and max-label propagation, which
`algorithms.scc.scc_by_reachability` combines into forward-backward reachability and
colouring; and the canonical renumbering of the labels."""
from __future__ import annotations

import numpy as np
import cupy as cp

from .launch import DeviceGraph, i32, i64


class SccPrimitives:
    def __init__(self, launcher, tuning, counters):
        self.launcher, self.tuning, self.counters = launcher, tuning, counters

    def trim(self, hg: DeviceGraph, alive, passes: int = 1) -> cp.ndarray:
        """alive after up to `passes` trimming passes (stopping at a pass that removes nothing):
        with the device loops one launch and one wait, else a launch and a count a pass."""
        alive = cp.ascontiguousarray(alive, dtype=np.bool_)
        L = self.launcher
        if self.tuning.device_loops:
            bufs = cp.empty((2, hg.n), np.bool_)
            bufs[0] = alive
            ctl = cp.zeros(6, np.uint32)             # changed[3], barrier[2], result[1]
            L.launch_resident("scc", "trim_loop", (hg.in_ptr, hg.in_src, hg.out_ptr, hg.out_idx, i64(hg.n),
                                                   i32(passes), bufs, ctl[0:3], ctl[3:5], ctl[5:6]),
                               vertices=hg.n if self.tuning.loop_blocks_fit else None)
            ran = int(ctl[5])
            self.counters.add("trim_loop_launches")
            self.counters.add("trim_passes", ran)
            return bufs[ran & 1]
        for ran in range(1, passes + 1):
            kept = cp.empty(hg.n, np.bool_)
            L.launch("scc", "trim_step", hg.n, (hg.in_ptr, hg.in_src, hg.out_ptr, hg.out_idx, alive, i64(hg.n),
                                                kept), max_blocks=L.max_blocks)
            self.counters.add("trim_passes")
            if ran == passes or int(kept.sum()) == int(alive.sum()):
                return kept
            alive = kept
        return alive

    def propagate_max(self, hg: DeviceGraph, values, alive, colors=None, backward: bool = False):
        """Closure of max along arcs inside `alive` (and one colour): in-place sweeps until stable."""
        ptr, src, heavy = (hg.in_ptr, hg.in_src, hg.heavy_in) if not backward else \
            (hg.out_ptr, hg.out_idx, hg.heavy_out)
        L = self.launcher
        out_dtype = values.dtype
        vals = values.astype(np.int32, copy=True)
        alive = cp.ascontiguousarray(alive, dtype=np.bool_)
        has_colors = colors is not None
        col = colors.astype(np.int32, copy=False) if has_colors else cp.zeros(1, np.int32)
        n = hg.n
        if self.tuning.device_loops:
            return self.propagate_loop(hg, ptr, src, heavy, vals, alive, col, has_colors).astype(out_dtype, copy=False)
        changed = cp.zeros(1, np.int32)
        sweeps_per_check = 2
        while True:
            changed.fill(0)
            for _ in range(sweeps_per_check):
                L.launch("scc", "propagate_light", n, (ptr, src, alive, col, i32(has_colors), i64(n),
                                                       i64(hg.heavy_degree), vals, changed),
                         max_blocks=L.max_blocks)
                if len(heavy):
                    L.launch("scc", "propagate_heavy", len(heavy) * 32,
                             (ptr, src, alive, col, i32(has_colors), heavy, i64(len(heavy)), vals, changed),
                             max_blocks=L.max_blocks)
            if not int(changed[0]):
                return vals.astype(out_dtype, copy=False)

    def propagate_loop(self, hg: DeviceGraph, ptr, src, heavy, vals, alive, col, has_colors):
        """propagate_max's sweeps on the device (kernels/scc.cu propagate_loop): one launch and
        one wait per 2^16 sweeps, not one every two sweeps."""
        ctl = cp.zeros(7, np.uint32)             # changed[3], barrier[2], result[2]
        max_sweeps = 1 << 16
        while True:
            ctl.fill(0)
            self.launcher.launch_resident("scc", "propagate_loop", (
                ptr, src, alive, col, i32(has_colors), i64(hg.n), i64(hg.heavy_degree), heavy,
                i64(len(heavy)), i32(max_sweeps), vals, ctl[0:3], ctl[3:5], ctl[5:7]),
                vertices=hg.n if self.tuning.loop_blocks_fit else None)
            sweeps, stable = (int(x) for x in ctl[5:7].get())
            self.counters.add("propagate_loop_launches")
            self.counters.add("propagate_sweeps", sweeps)
            if stable:
                return vals

    def labels_in_one_launch(self, hg: DeviceGraph) -> cp.ndarray | None:
        """The driver's labels (trim, the pivot's component, colouring rounds) from one
        cooperative launch (kernels/scc.cu scc_whole), for small graphs, where the driver's
        launches and host reads are most of the time; None when its steps (sweeps and trimming
        passes) reach tuning.long_levels first: the driver then takes the graph."""
        n = hg.n
        labels = cp.empty(n, np.int32)
        scratch = cp.empty((2, n), np.int32)         # colours, marks
        alive = cp.empty(n, np.bool_)
        ctl = cp.zeros(6, np.uint64)     # best[2], then flags[3], barrier[2], result[3] as uint32
        self.launcher.launch_resident("scc", "scc_whole", (
            hg.in_ptr, hg.in_src, hg.out_ptr, hg.out_idx, i64(n), i64(hg.heavy_degree), hg.heavy_in,
            i64(len(hg.heavy_in)), hg.heavy_out, i64(len(hg.heavy_out)), i32(self.tuning.long_levels),
            alive, labels, scratch[0], scratch[1], ctl),
            vertices=n)
        done, steps, rounds = (int(x) for x in ctl.get().view(np.uint32)[9:12])
        self.counters.add("scc_one_launch_runs")
        self.counters.add("scc_one_launch_steps", steps)
        self.counters.add("scc_one_launch_rounds", rounds)
        return labels if done else None

    def canonical_labels(self, labels) -> np.ndarray:
        """Renumber on the device in order of each component's smallest vertex; host int32."""
        labels = labels.astype(np.int64, copy=False)
        n = len(labels)
        ids = cp.arange(n, dtype=np.int64)
        first = cp.full(n, n, np.int64)
        if hasattr(cp.minimum, "at"):                 # smallest vertex of each label
            cp.minimum.at(first, labels, ids)
        else:                                         # older CuPy
            import cupyx
            cupyx.scatter_min(first, labels, ids)
        rep = first[labels]
        rank = cp.cumsum(rep == ids, dtype=np.int32) - 1   # components in order of smallest vertex
        return cp.asnumpy(rank[rep])
