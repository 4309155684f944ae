"""Breadth-first search on the GPU: the joint bit traversal of a batch of sources (one bit a
source a vertex) and the direction-optimizing one-source BFS (kernels/bfs.cu)."""
from __future__ import annotations

import numpy as np
import cupy as cp

from ..arrays import words_for
from .launch import NULL, THREADS, DeviceGraph, i32, i64, inclusive_degree_sum, mark_long_diameter

# Kernels that write a depth block of each dtype from the levels' bits.
FLUSH_KERNELS = {np.dtype(np.int32): "bits_depths_i32", np.dtype(np.int64): "bits_depths_i64",
                 np.dtype(np.float32): "bits_depths_f32", np.dtype(np.float64): "bits_depths_f64"}


class BfsStrategy:
    """BFS primitives on one GPU. `host` gives the host's routes (`host_routes.HostRoutes`:
    long-diameter graphs finish there); `counters` counts push levels."""

    def __init__(self, launcher, tuning, counters, host):
        self.launcher, self.tuning, self.counters, self.host = launcher, tuning, counters, host

    def batch_size(self, n: int, k: int) -> int:
        """As many sources as fit in half the free device memory: per source and vertex the
        depth (up to 8 bytes), seen/frontier/next bits and the levels' new bits."""
        limit = self.tuning.batch_limit
        if k <= 64:                              # within the smallest batch: no memory query
            return max(1, min(k, limit or k))
        per_source = n * (8 + 4 / 8 + 2) + 1     # + ~16 levels of new bits kept for the depths
        fit = int(self.launcher.free_memory() * 0.5 // per_source)
        size = min(max(64, (fit // 64) * 64), 4096)   # at most 64 words a vertex (the masks)
        return max(1, min(size, k, limit or k))

    # -- the joint traversal --------------------------------------------------
    def seed_bits(self, n: int, sources) -> cp.ndarray:
        k = len(sources)
        bits = cp.zeros((n, words_for(k)), np.uint64)
        src = cp.asarray(np.asarray(sources, dtype=np.int32)) if not isinstance(sources, cp.ndarray) \
            else sources.astype(np.int32)
        self.launcher.launch("bfs", "seed_bits", k, (src, i32(k), i32(words_for(k)), bits))
        return bits

    def padding_bits(self, k: int) -> cp.ndarray:
        return cp.asarray(self.host().padding_bits(k))

    def active_words(self, frontier):
        """amask: per vertex one bit a word, set where the frontier's word is non-zero."""
        n, W = frontier.shape
        amask = cp.empty(n, np.uint64)
        L = self.launcher
        L.launch("bfs", "bits_flags", n, (frontier, i64(n), i32(W), amask), max_blocks=L.max_blocks)
        return amask

    def expand(self, hg: DeviceGraph, frontier, seen, amask, nxt) -> None:
        """nxt[v] |= (OR of frontier[u] over arcs u->v) & ~seen[v] (pull, over the in-arcs)."""
        W = seen.shape[1]
        m = len(hg.in_src)
        if m:
            chunk = self.tuning.expand_chunk
            chunks = (m + chunk - 1) // chunk
            self.launcher.launch("bfs", "bits_expand", chunks * W,
                                 (hg.in_src, hg.in_dst, i64(m), i32(chunk), i32(W), frontier, seen,
                                  amask, nxt))

    def bits_start(self, hg: DeviceGraph, ids, depth, unreachable) -> dict:
        """A joint traversal's state. Depths are not written level by level (scattered 4-byte
        stores into a matrix far larger than L2): each level's new bits are kept, and
        `flush_depths` writes the depth block from them in one coalesced pass at the end
        (or when they outgrow their memory budget), unreachable entries included, so the
        block needs no fill beforehand."""
        seen = self.seed_bits(hg.n, ids)
        frontier = seen.copy()
        seen |= self.padding_bits(len(ids))
        amask = self.active_words(frontier)
        level_bytes = self.tuning.level_bytes
        return {"seen": seen, "frontier": frontier, "pending": [(0, frontier)], "flushed": False,
                "unreachable": unreachable, "amask": amask, "amask_new": cp.empty_like(amask),
                "count": cp.zeros(1, np.uint32),
                "small": self.tuning.push_alpha * len(ids) < hg.m,
                "budget": level_bytes if level_bytes is not None else
                max(seen.nbytes * 4, min(self.launcher.free_memory() // 8, 4 << 30))}

    def flush_depths(self, st: dict, depth) -> None:
        """Write the pending levels' bits into the depth block (and `unreachable` where no
        level reached, on the first flush)."""
        pending = st["pending"]
        if not pending and st["flushed"]:
            return
        name = FLUSH_KERNELS.get(depth.dtype)
        if name is None or depth.strides[1] != depth.itemsize:
            raise TypeError(f"the depth block must be row-contiguous int32/int64/float32/float64, "
                            f"got {depth.dtype} with strides {depth.strides}")
        n, kb = depth.shape
        W = st["seen"].shape[1]
        ptrs = cp.asarray(np.array([a.data.ptr for _, a in pending] or [0], np.uint64))
        nums = cp.asarray(np.array([lv for lv, _ in pending] or [0], np.int32))
        ld = depth.strides[0] // depth.itemsize
        # a thread's adjacent entries: 16 bytes (one vector store) where every row starts
        # on a 16-byte boundary and holds whole vectors, else one
        vector = 16 // depth.itemsize
        span = vector if depth.data.ptr % 16 == 0 and (ld * depth.itemsize) % 16 == 0 and kb % vector == 0 else 1
        tpr = 32                              # threads a row: a power of two, 32..THREADS
        while tpr * span < kb and tpr < THREADS:
            tpr *= 2
        rows_per_block = THREADS // W           # the kernel folds a block's rows' words at once
        self.launcher.launch("bfs", name, -(-n // rows_per_block) * THREADS,
                             (ptrs, nums, i32(len(pending)), i64(n), i32(W), i32(kb), depth, i64(ld),
                              depth.dtype.type(st["unreachable"]), i32(not st["flushed"]), i32(tpr), i32(span)),
                             max_blocks=self.launcher.max_blocks * 4)
        st["flushed"] = True
        st["pending"] = []

    def push(self, hg: DeviceGraph, st: dict, nxt) -> bool:
        """Top-down expansion when the frontier's out-arcs are fewer than m / push_alpha (the
        first level, where the frontier is the sources); False (nothing done) otherwise."""
        alpha = self.tuning.push_alpha
        if not alpha:
            return False
        queue = cp.flatnonzero(st["amask"]).astype(np.int32)
        if len(queue) == 0:
            return True
        incl, total = inclusive_degree_sum(hg, queue)
        if total * alpha >= hg.m:
            return False
        self.counters.add("push_levels")
        if total:
            self.launcher.launch("bfs", "bits_push", total,
                                 (queue, incl, i32(len(queue)), i64(total), hg.out_ptr, hg.out_idx,
                                  i32(st["seen"].shape[1]), st["frontier"], st["seen"], st["amask"], nxt),
                                 max_blocks=self.launcher.max_blocks * 4)
        return True

    def bits_level(self, hg: DeviceGraph, st: dict, depth, level: int) -> bool:
        """One level of the joint traversal: expand, then a fused finish (seen, masks, count);
        one host synchronisation. False when no source reached a new vertex (depths written)."""
        seen, frontier = st["seen"], st["frontier"]
        n, W = seen.shape
        nxt = cp.zeros_like(seen)
        if not (st["small"] and self.push(hg, st, nxt)):
            self.expand(hg, frontier, seen, st["amask"], nxt)
        st["amask_new"].fill(0)
        st["count"].fill(0)
        self.launcher.launch("bfs", "bits_finish", n * W, (nxt, seen, i64(n), i32(W), st["amask_new"],
                                                          st["count"]),
                             max_blocks=self.launcher.max_blocks)
        st["amask"], st["amask_new"] = st["amask_new"], st["amask"]
        words = int(st["count"][0])
        if words == 0:
            self.flush_depths(st, depth)
            return False
        st["small"] = words * self.tuning.push_alpha < n    # a small frontier: try the top-down push
        st["frontier"] = nxt
        st["pending"].append((level, nxt))
        if len(st["pending"]) * nxt.nbytes > st["budget"] or len(st["pending"]) >= 64:
            self.flush_depths(st, depth)
        return True

    # -- one source -----------------------------------------------------------
    def bfs_one(self, hg: DeviceGraph, source: int, backward: bool = False, out=None) -> cp.ndarray:
        """Depths (n,) int32 from one source: direction-optimizing BFS (top-down over a queue
        of the frontier, bottom-up over in-arcs in the wide middle levels). `backward`: along
        the arcs reversed (the hops from each vertex to the source). `out`: a contiguous (n,)
        int32 device array the depths are written into (and returned)."""
        if self.tuning.device_loops and not hg.long_diameter:
            return self.bfs_one_loop(hg, source, backward, out=out)
        depth = self.bfs_one_levels(hg, source, backward)
        if out is None:
            return depth
        out[...] = depth
        return out

    def bfs_one_levels(self, hg: DeviceGraph, source: int, backward: bool = False) -> cp.ndarray:
        """bfs_one a launch a level, the host choosing each level's direction
        (`CudaTuning.device_loops` False); a long-diameter graph's on the host."""
        n = hg.n
        if hg.long_diameter:
            host = self.host()
            return cp.asarray(host.bfs_one(host.device_graph(hg.graph), source, backward))
        # top-down follows the arcs out of the frontier, bottom-up looks along the arcs into a vertex
        down_ptr, down_idx, up_ptr, up_idx = ((hg.in_ptr, hg.in_src, hg.out_ptr, hg.out_idx) if backward else
                                              (hg.out_ptr, hg.out_idx, hg.in_ptr, hg.in_src))
        L = self.launcher
        depth = cp.full(n, -1, np.int32)
        depth[int(source)] = 0
        queue = cp.asarray(np.array([source], np.int32))
        found = cp.zeros(1, np.uint32)
        unexplored = hg.m
        level = 0
        top_down = True
        alpha, beta = self.tuning.bfs_one_alpha, self.tuning.bfs_one_beta
        while True:
            if level >= self.tuning.long_levels:
                mark_long_diameter(hg, "a one-source BFS")
                return self.bfs_one_levels(hg, source, backward)
            if top_down:
                incl, mf = inclusive_degree_sum(hg, queue, backward)
                if mf == 0:
                    return depth
                if mf > unexplored / alpha and hg.m > 0:
                    top_down = False
                else:
                    unexplored -= mf
                    level += 1
                    L.launch("bfs", "bfs_top_down", mf,
                             (queue, incl, i32(len(queue)), i64(mf), down_ptr, down_idx, depth, i32(level)),
                             max_blocks=L.max_blocks * 4)
                    queue = cp.flatnonzero(depth == level).astype(np.int32)
                    if len(queue) == 0:
                        return depth
                    continue
            level += 1
            found.fill(0)
            L.launch("bfs", "bfs_bottom_up", n, (up_ptr, up_idx, depth, i64(n), i32(level), found),
                     max_blocks=L.max_blocks)
            nf = int(found[0])
            if nf == 0:
                return depth
            if nf < n / beta:
                top_down = True
                queue = cp.flatnonzero(depth == level).astype(np.int32)

    def bfs_one_loop(self, hg: DeviceGraph, source: int, backward: bool = False, stamps=None,
                     out=None) -> cp.ndarray:
        """bfs_one with its level loop on the device (kernels/bfs.cu bfs_one_loop): one launch,
        one wait. Past tuning.long_levels levels the graph is marked long-diameter, as in the
        host loop, and the search finishes on the host. stamps: a uint64 device array of
        tuning.long_levels + 1 entries, filled with the GPU clock (ns) at the start and at the
        end of each level (benchmarks)."""
        n = hg.n
        down_ptr, down_idx, up_ptr, up_idx = ((hg.in_ptr, hg.in_src, hg.out_ptr, hg.out_idx) if backward else
                                              (hg.out_ptr, hg.out_idx, hg.in_ptr, hg.in_src))
        work = hg.extra.get("bfs_one_loop")
        if work is None:       # kept with the graph; the kernel sets them (ctl's barrier starts at zero)
            work = hg.extra["bfs_one_loop"] = {
                "queues": tuple(cp.empty((4, max(n, 1)), np.int32)),   # light and heavy, this level's and the next
                "open_lists": cp.empty(2 * max(n, 1), np.int32),        # bottom-up levels' unvisited, in turn
                # u64 arcs[3], vertices looked at; then uint32 found[6], barrier[2], result[4], left[3]
                "ctl": cp.zeros(12, np.uint64)}
        with_in = work.get(("with_in", backward))     # the first bottom-up level's candidates
        if with_in is None:
            up_degree = hg.out_degree if backward else hg.in_degree
            with_in = work[("with_in", backward)] = cp.flatnonzero(up_degree > 0).astype(np.int32)
        depth = cp.empty(n, np.int32) if out is None else out    # the kernel writes every entry
        t = self.tuning
        self.launcher.launch_resident("bfs", "bfs_one_loop", (
            down_ptr, down_idx, up_ptr, up_idx, i64(n), i64(hg.m), i32(source), i32(t.long_levels),
            i32(t.bfs_one_alpha), i32(t.bfs_one_beta), i32(t.bfs_one_heavy), i32(t.bfs_one_warp_list), depth,
            *work["queues"], with_in, i64(len(with_in)), work["open_lists"], work["ctl"],
            NULL if stamps is None else stamps),
            vertices=n if t.loop_blocks_fit else None)
        ctl = work["ctl"].get()
        levels, pushes, pulls, finished = (int(x) for x in ctl.view(np.uint32)[16:20])
        self.counters.add("bfs_one_loop_launches")
        self.counters.add("bfs_one_levels", levels)
        self.counters.add("bfs_one_push_levels", pushes)
        self.counters.add("bfs_one_pull_levels", pulls)
        self.counters.add("bfs_one_pull_vertices", int(ctl[3]))
        if not finished:
            mark_long_diameter(hg, "a one-source BFS")
            return self.bfs_one(hg, source, backward, out)
        return depth
