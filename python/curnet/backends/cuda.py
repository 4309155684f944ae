"""The CUDA backend: CuPy arrays and RawModule kernels (kernels/*.cu), one per CPU primitive.

Each method here has the contract of its NumPy twin in `cpu.CPUBackend`; the drivers in
`curnet.algorithms` call both the same way. Kernel sources are files compiled once per
process through NVRTC (CuPy's `RawModule`, which also keeps its own on-disk cache).

What the GPU does not do well is routed, measured, to the host: graphs whose BFS or
Bellman-Ford needs thousands of levels (a path of a million vertices) run on the host's
compiled SciPy routines once a traversal has shown it is long (see `LONG_LEVELS`).
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

import numpy as np
import cupy as cp

from . import log
from .cpu import CPUBackend, words_for

KERNEL_DIR = os.path.join(os.path.dirname(__file__), "kernels")
THREADS = 256
# Arcs per thread in the many-source pull expansion: balances R-MAT hubs across threads.
EXPAND_CHUNK = 32
# Vertices with more arcs than this get a warp each in label propagation.
HEAVY_DEGREE = 128
# Edge classes for shortest paths (kernels/sssp.cu): arcs into a sink do not queue it, arcs
# into a vertex of in-degree 1 write without an atomic (self-loops are always skipped). The
# class rides in the top two bits of a copy of the arc heads. Directed graphs only: on the
# H100, one-source near-far on directed R-MAT 22 (2.2M sinks) 2.87 -> 2.73 ms with them, but
# undirected R-MAT 22 (no sinks; leaves the only class) 23.4 -> 25.1 ms. EDGE_CLASSES = False
# turns them off everywhere (the benchmarks measure both).
CLASS_SINK, CLASS_IN_ONE = 1, 2
EDGE_CLASSES = True
# A one-source BFS (or a Bellman-Ford batch) past this many levels (rounds) is a
# long-diameter graph: it is finished on the host, and later calls on the same graph go
# there at once. Each GPU level costs 10-30 us of launches and synchronisation, so
# 2,048 levels waste at most ~50 ms before the switch.
LONG_LEVELS = 2048

# Near-far SSSP (`near_far`): used for non-negative float32 weights on batches of at most
# NF_MAX_SOURCES sources. Entries with more arcs than NF_HEAVY are spread over the grid.
# The host looks at the queue counts every NF_SYNC_EVERY iterations; past NF_MAX_ITERS
# iterations the graph is long-diameter and the batch finishes on the host (a path of a
# million vertices needs a million dependent steps: SciPy's serial Dijkstra is faster).
# Delta = NF_DELTA_FACTOR x 32 x mean weight / mean out-degree (Davidson et al.'s rule).
NF_MAX_SOURCES = 4096
NF_HEAVY = 256
NF_SYNC_EVERY = 8
NF_MAX_ITERS = 8192
NF_DELTA_FACTOR = 0.5

# The joint traversal pushes (top-down) a level whose frontier's out-arcs are fewer than
# m / PUSH_ALPHA (0: always pull).
PUSH_ALPHA = 14

# Bytes of per-level new bits a joint traversal keeps before writing them into the depths
# (None: an eighth of free device memory, at most 4 GiB). Tests set it small.
LEVEL_BYTES = None

_modules: dict = {}
_lock = threading.Lock()


def mark_long_diameter(hg: "DeviceGraph", what: str) -> None:
    """Route this graph's traversals to the host from now on, and say so (once per graph)."""
    if not hg.long_diameter:
        hg.long_diameter = True
        log.warning("curnet: %s ran past its level limit on this graph (a long-diameter graph): the "
                    "CUDA backend finishes it, and later calls on this graph, on the host (SciPy), "
                    "which is faster for such graphs", what)


def kernel(module: str, name: str):
    """A kernel from kernels/<module>.cu for the current device, compiled on first use (once
    per process; each GPU loads its own copy of the module)."""
    key = (module, cp.cuda.runtime.getDevice())
    with _lock:
        mod = _modules.get(key)
        if mod is None:
            with open(os.path.join(KERNEL_DIR, module + ".cu")) as f:
                src = f.read()
            mod = cp.RawModule(code=src, options=("-std=c++17",))
            _modules[key] = mod
    return mod.get_function(name)


class KernelError(RuntimeError):
    """A CUDA kernel launch failed; the message names the kernel and its launch shape."""


def launch(module: str, name: str, count: int, args, threads: int = THREADS, max_blocks: int | None = None):
    """Launch kernel `name` over `count` items (one a thread, grid-stride where capped)."""
    blocks = max(1, (int(count) + threads - 1) // threads)
    if max_blocks is not None:
        blocks = min(blocks, max_blocks)
    try:
        kernel(module, name)((blocks,), (threads,), args)
    except cp.cuda.memory.OutOfMemoryError:
        raise
    except Exception as e:  # CUDADriverError / CUDARuntimeError / CompileException
        raise KernelError(f"curnet: CUDA kernel {module}.{name} failed "
                          f"(grid {blocks} x {threads}, {count} items): {type(e).__name__}: {e}") from e


def i64(x) -> np.int64:
    return np.int64(x)


def i32(x) -> np.int32:
    return np.int32(x)


@dataclass
class DeviceGraph:
    """The graph's arrays on the device; offsets int64, ids int32."""
    n: int
    m: int
    out_ptr: cp.ndarray
    out_idx: cp.ndarray
    out_w: cp.ndarray | None
    in_ptr: cp.ndarray
    in_src: cp.ndarray
    in_dst: cp.ndarray
    in_w: cp.ndarray | None
    weight_dtype: np.dtype
    min_weight: float
    heavy_in: cp.ndarray
    heavy_out: cp.ndarray
    graph: object = None                 # the host Graph, for host routes
    long_diameter: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def nbytes(self) -> int:
        arrays = [self.out_ptr, self.out_idx, self.out_w, self.in_ptr, self.in_src, self.in_dst, self.in_w]
        seen, total = set(), 0
        for a in arrays:
            if a is not None and id(a) not in seen:
                seen.add(id(a))
                total += a.nbytes
        return total


@dataclass
class SPState:
    """A Bellman-Ford batch's state on the device (see `sp_start`)."""
    kb: int
    n: int
    ids: np.ndarray
    mode: str                            # "packed32", "dist32", "jacobi"
    key: cp.ndarray                      # packed u64 / ordered u32 / ordered u32 or u64, (kb, n)
    pred: cp.ndarray | None = None       # jacobi mode only


class CUDABackend:
    name = "cuda"
    xp = cp
    # The bit traversal's levels are cheap on the GPU; a batch past this many levels is a
    # long-diameter graph and is finished per source by `bfs_one` (which goes to the host).
    max_joint_levels = 256
    has_dijkstra = False
    has_scc = False
    max_bf_rounds = LONG_LEVELS

    def __init__(self, device: int | None = None):
        self.device = cp.cuda.Device(device if device is not None else cp.cuda.runtime.getDevice())
        props = cp.cuda.runtime.getDeviceProperties(self.device.id)
        self.props = props
        self.sms = int(props["multiProcessorCount"])
        self.max_blocks = self.sms * 16       # grid-stride kernels: enough to fill the chip
        self._cpu = None
        self.splits = 0          # batches split after running out of device memory
        self._last_active = None  # (active array, its flatnonzero) from the last sp_relax
        self.stats = {"rounds": 0, "arcs": 0}   # Bellman-Ford rounds and arcs relaxed
        # Sources per batch at most (None: as memory allows); benchmarks and tests lower it.
        self.batch_limit = None
        # map_batches copies batch i to the host while batch i + 1 computes (False: in turn).
        self.overlap_batches = True
        self._copies = None       # inside an overlapping map_batches: this batch's copy futures
        self._copier = None       # (one-thread executor, non-blocking stream) for those copies

    # -- description ----------------------------------------------------------
    def _device_name(self) -> str:
        name = self.props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)

    def describe(self) -> str:
        return f"cuda ({self._device_name()}, CuPy {cp.__version__})"

    def info(self) -> dict:
        free, total = cp.cuda.runtime.memGetInfo()
        rt = cp.cuda.runtime.runtimeGetVersion()
        drv = cp.cuda.runtime.driverGetVersion()
        cc = f"{self.props['major']}.{self.props['minor']}"
        return {"backend": "cuda", "device": f"{self._device_name()} (compute capability {cc}, "
                f"{self.sms} SMs)", "device_memory": f"{total / 2**30:.1f} GiB ({free / 2**30:.1f} GiB free)",
                "cupy": cp.__version__, "cuda_runtime": f"{rt // 1000}.{(rt % 1000) // 10}",
                "cuda_driver": f"{drv // 1000}.{(drv % 1000) // 10}"}

    def free_memory(self) -> int:
        """Bytes the next allocations may use: free device memory plus CuPy's pool's idle blocks,
        capped by the pool's limit if one is set."""
        pool = cp.get_default_memory_pool()
        free = cp.cuda.runtime.memGetInfo()[0] + pool.free_bytes()
        limit = pool.get_limit()
        if limit:
            free = min(free, limit - pool.used_bytes())
        return max(int(free), 0)

    def cpu(self) -> CPUBackend:
        if self._cpu is None:
            self._cpu = CPUBackend()
        return self._cpu

    # -- data movement --------------------------------------------------------
    def device_graph(self, g) -> DeviceGraph:
        """The graph's arrays on this backend's GPU (built once, kept with the graph)."""
        cache_key = f"cuda:{self.device.id}"
        cached = g._device.get(cache_key)
        if cached is not None:
            return cached
        n = len(g)
        out_ptr = cp.asarray(g.indptr.astype(np.int64))
        out_idx = cp.asarray(g.indices)
        out_w = cp.asarray(g.weights) if g.weights is not None else None
        if g.directed:
            ip, isrc, iw = g.csc()
            in_ptr = cp.asarray(ip.astype(np.int64))
            in_src = cp.asarray(isrc)
            in_w = cp.asarray(iw) if iw is not None else None
        else:
            in_ptr, in_src, in_w = out_ptr, out_idx, out_w
        in_deg = cp.diff(in_ptr)
        out_deg = cp.diff(out_ptr)
        in_dst = cp.empty(len(in_src), np.int32)
        launch("bfs", "fill_rows", n, (in_ptr, i64(n), in_dst), max_blocks=self.max_blocks)
        w = g.weights
        dg = DeviceGraph(
            n=n, m=len(g.indices), out_ptr=out_ptr, out_idx=out_idx, out_w=out_w,
            in_ptr=in_ptr, in_src=in_src, in_dst=in_dst, in_w=in_w,
            weight_dtype=w.dtype if w is not None else np.dtype(np.float32),
            min_weight=float(w.min()) if w is not None and len(w) else 1.0,
            heavy_in=cp.flatnonzero(in_deg > HEAVY_DEGREE).astype(np.int32),
            heavy_out=cp.flatnonzero(out_deg > HEAVY_DEGREE).astype(np.int32),
            graph=g)
        g._device[cache_key] = dg
        return dg

    def to_host(self, a) -> np.ndarray:
        return cp.asnumpy(a) if isinstance(a, cp.ndarray) else np.asarray(a)

    def output_block(self, view: np.ndarray, fill):
        """A device (n, kb) block, C-ordered, in the dtype of the caller's view. Not filled:
        every traversal path writes each entry, unreachable ones included (saves a pass)."""
        return cp.empty(view.shape, dtype=view.dtype)

    def finish_block(self, block, view: np.ndarray) -> None:
        """Copy a finished block into the caller's host view (straight in when contiguous)."""
        self._to_host(block, view)

    def copy_to_host(self, a, dest: np.ndarray) -> None:
        """a (kb, n) on the device into dest (kb, n) on the host, any layout."""
        if dest.strides[0] < dest.strides[1]:      # column-major (rows of an F-ordered matrix too)
            self._to_host(cp.ascontiguousarray(a.T).astype(dest.dtype, copy=False), dest.T)
        else:
            self._to_host(a.astype(dest.dtype, copy=False), dest)

    def _to_host(self, block: cp.ndarray, view: np.ndarray) -> None:
        """Device block into host view: now, or inside an overlapping `map_batches` queued on the
        copy thread, which waits for the block's kernels (an event on this thread's stream) and
        copies on its own stream. The queued job holds `block`, so the pool cannot hand its
        memory out again before the copy has finished."""
        if self._copies is None:
            _get_into(block, view)
            return
        if self._copier is None:
            from concurrent.futures import ThreadPoolExecutor
            self._copier = (ThreadPoolExecutor(1, thread_name_prefix="curnet-batch-d2h"),
                            cp.cuda.Stream(non_blocking=True))
        pool, stream = self._copier
        ready = cp.cuda.Event(disable_timing=True)
        ready.record()

        def job():
            with self.device, stream:
                ready.synchronize()
                _get_into(block, view)
        self._copies.append(pool.submit(job))

    def map_batches(self, fn, batches, parallel: bool = True):
        """Run fn on each batch in turn, yielding its result once its output is in host memory.
        A batch that runs out of device memory is split in two and retried (down to one
        source), so a job whose result fits in host memory completes.

        With several batches (and `overlap_batches`), the host copies that fn asks for
        (`finish_block`, `copy_to_host`) run on a copy thread: batch i's copy overlaps batch
        i + 1's kernels. At most two batches' outputs are in flight: after batch i + 1 has
        run, batch i's copies are waited for and its result yielded. Nothing is left copying
        when this returns or raises (errors and KeyboardInterrupt included)."""
        if not self.overlap_batches or len(batches) < 2:
            for b in batches:
                yield from self._run_split(fn, b)
            return
        prev = None                      # (result, copy futures) of the batch being copied
        self._copies = []
        try:
            for b in batches:
                for result in self._run_split(fn, b):
                    done, prev = prev, (result, self._copies)
                    self._copies = []
                    if done is not None:
                        yield _wait_copies(*done)
            if prev is not None:
                done, prev = prev, None
                yield _wait_copies(*done)
        finally:
            pending = (prev[1] if prev is not None else []) + (self._copies or [])
            self._copies = None
            for f in pending:            # no copy may still write into the caller's arrays
                f.exception()            # (an error of theirs is not raised over the first)

    def _drain_copies(self) -> None:
        """Wait for every queued copy (the copy thread runs them in order): frees their blocks."""
        if self._copies is not None and self._copier is not None:
            self._copier[0].submit(lambda: None).result()

    def _run_split(self, fn, batch):
        try:
            yield fn(batch)
            return
        except cp.cuda.memory.OutOfMemoryError:
            first, ids = batch
            if len(ids) <= 1:
                raise
        self.splits += 1
        self._drain_copies()
        cp.get_default_memory_pool().free_all_blocks()
        half = (len(ids) + 1) // 2
        yield from self._run_split(fn, (first, ids[:half]))
        yield from self._run_split(fn, (first + half, ids[half:]))

    def bfs_batch_size(self, n: int, k: int) -> int:
        """As many sources as fit in half the free device memory: per source and vertex the
        depth (up to 8 bytes), seen/frontier/next bits and the levels' new bits."""
        per_source = n * (8 + 4 / 8 + 2) + 1     # + ~16 levels of new bits kept for the depths
        fit = int(self.free_memory() * 0.5 // per_source)
        size = min(max(64, (fit // 64) * 64), 4096)   # at most 64 words a vertex (the masks)
        return max(1, min(size, k, self.batch_limit or k))

    # -- many-source BFS primitives -------------------------------------------
    def seed_bits(self, n: int, sources) -> cp.ndarray:
        k = len(sources)
        bits = cp.zeros((n, words_for(k)), np.uint64)
        src = cp.asarray(np.asarray(sources, dtype=np.int32)) if not isinstance(sources, cp.ndarray) \
            else sources.astype(np.int32)
        launch("bfs", "seed_bits", k, (src, i32(k), i32(words_for(k)), bits))
        return bits

    def padding_bits(self, k: int) -> cp.ndarray:
        return cp.asarray(self.cpu().padding_bits(k))

    def expand_bits(self, hg: DeviceGraph, frontier: cp.ndarray, seen: cp.ndarray) -> cp.ndarray:
        """new[v] = (OR of frontier[u] over arcs u->v) & ~seen[v]."""
        n, W = seen.shape
        if W > 64:
            raise ValueError("the CUDA bit traversal takes at most 4,096 sources a batch")
        frontier = cp.ascontiguousarray(frontier)
        seen = cp.ascontiguousarray(seen)
        amask, dmask = self._masks(frontier, seen)
        new = cp.zeros_like(seen)
        self._expand(hg, frontier, seen, amask, dmask, new)
        return new

    def _masks(self, frontier, seen):
        n, W = seen.shape
        amask = cp.empty(n, np.uint64)
        dmask = cp.empty(n, np.uint64)
        launch("bfs", "bits_flags", n, (frontier, seen, i64(n), i32(W), amask, dmask), max_blocks=self.max_blocks)
        return amask, dmask

    def _expand(self, hg, frontier, seen, amask, dmask, nxt):
        W = seen.shape[1]
        m = len(hg.in_src)
        if m:
            chunks = (m + EXPAND_CHUNK - 1) // EXPAND_CHUNK
            launch("bfs", "bits_expand", chunks * W,
                   (hg.in_src, hg.in_dst, i64(m), i32(EXPAND_CHUNK), i32(W), frontier, seen, amask, dmask, nxt))

    def bits_start(self, hg: DeviceGraph, ids, depth, unreachable) -> dict:
        """A joint traversal's state. Depths are not written level by level (scattered 4-byte
        stores into a matrix far larger than L2): each level's new bits are kept, and
        `_flush_depths` writes the depth block from them in one coalesced pass at the end
        (or when they outgrow their memory budget), unreachable entries included, so the
        block needs no fill beforehand."""
        seen = self.seed_bits(hg.n, ids)
        frontier = seen.copy()
        seen |= self.padding_bits(len(ids))
        amask, dmask = self._masks(frontier, seen)
        return {"seen": seen, "frontier": frontier, "pending": [(0, frontier)], "flushed": False,
                "unreachable": unreachable, "amask": amask, "amask_new": cp.empty_like(amask),
                "dmask": dmask, "count": cp.zeros(1, np.uint32), "small": PUSH_ALPHA * len(ids) < hg.m,
                "budget": LEVEL_BYTES if LEVEL_BYTES is not None else
                max(seen.nbytes * 4, min(self.free_memory() // 8, 4 << 30))}

    _FLUSH_KERNELS = {np.dtype(np.int32): "bits_depths_i32", np.dtype(np.int64): "bits_depths_i64",
                      np.dtype(np.float32): "bits_depths_f32", np.dtype(np.float64): "bits_depths_f64"}

    def _flush_depths(self, st: dict, depth) -> None:
        pending = st["pending"]
        if not pending and st["flushed"]:
            return
        name = self._FLUSH_KERNELS.get(depth.dtype)
        if name is None or depth.strides[1] != depth.itemsize:
            raise TypeError(f"the depth block must be row-contiguous int32/int64/float32/float64, "
                            f"got {depth.dtype} with strides {depth.strides}")
        n, kb = depth.shape
        W = st["seen"].shape[1]
        ptrs = cp.asarray(np.array([a.data.ptr for _, a in pending] or [0], np.uint64))
        nums = cp.asarray(np.array([lv for lv, _ in pending] or [0], np.int32))
        tpr = 32                              # threads a row: a power of two, 32..THREADS
        while tpr < kb and tpr < THREADS:
            tpr *= 2
        rows_per_block = THREADS // W           # the kernel folds a block's rows' words at once
        launch("bfs", name, -(-n // rows_per_block) * THREADS,
               (ptrs, nums, i32(len(pending)), i64(n), i32(W), i32(kb), depth,
                i64(depth.strides[0] // depth.itemsize), depth.dtype.type(st["unreachable"]),
                i32(not st["flushed"]), i32(tpr)),
               max_blocks=self.max_blocks * 4)
        st["flushed"] = True
        st["pending"] = []

    def _push(self, hg: DeviceGraph, st: dict, nxt) -> bool:
        """Top-down expansion when the frontier's out-arcs are fewer than m / PUSH_ALPHA (the
        first level, where the frontier is the sources); False (nothing done) otherwise."""
        if not PUSH_ALPHA:
            return False
        queue = cp.flatnonzero(st["amask"]).astype(np.int32)
        if len(queue) == 0:
            return True
        incl = cp.cumsum(hg.out_ptr[queue + 1] - hg.out_ptr[queue])
        total = int(incl[-1])
        if total * PUSH_ALPHA >= hg.m:
            return False
        self.stats["push_levels"] = self.stats.get("push_levels", 0) + 1
        if total:
            launch("bfs", "bits_push", total, (queue, incl, i32(len(queue)), i64(total), hg.out_ptr, hg.out_idx,
                                               i32(st["seen"].shape[1]), st["frontier"], st["seen"],
                                               st["amask"], nxt), max_blocks=self.max_blocks * 4)
        return True

    def bits_level(self, hg: DeviceGraph, st: dict, depth, level: int) -> bool:
        """One level of the joint traversal: expand, then a fused finish (seen, masks, count);
        one host synchronisation. False when no source reached a new vertex (depths written)."""
        seen, frontier = st["seen"], st["frontier"]
        n, W = seen.shape
        nxt = cp.zeros_like(seen)
        if not (st["small"] and self._push(hg, st, nxt)):
            self._expand(hg, frontier, seen, st["amask"], st["dmask"], nxt)
        st["amask_new"].fill(0)
        st["count"].fill(0)
        launch("bfs", "bits_finish", n * W, (nxt, seen, i64(n), i32(W), st["amask_new"], st["dmask"],
                                             st["count"]), max_blocks=self.max_blocks)
        st["amask"], st["amask_new"] = st["amask_new"], st["amask"]
        words = int(st["count"][0])
        if words == 0:
            self._flush_depths(st, depth)
            return False
        st["small"] = words * PUSH_ALPHA < n    # a small frontier: try the top-down push
        st["frontier"] = nxt
        st["pending"].append((level, nxt))
        if len(st["pending"]) * nxt.nbytes > st["budget"] or len(st["pending"]) >= 64:
            self._flush_depths(st, depth)
        return True

    _DEPTH_KERNELS = {np.dtype(np.int32): "write_depths_i32", np.dtype(np.int64): "write_depths_i64",
                      np.dtype(np.float32): "write_depths_f32", np.dtype(np.float64): "write_depths_f64"}

    def write_depths(self, new: cp.ndarray, depth: cp.ndarray, level: int) -> None:
        """depth[v, j] = level for every set bit j of new[v]; depth is (n, k) on the device."""
        n, W = new.shape
        kb = depth.shape[1]
        name = self._DEPTH_KERNELS.get(depth.dtype)
        if name is None or depth.strides[1] != depth.itemsize:
            raise TypeError(f"write_depths needs a row-contiguous int32/int64/float32/float64 block, "
                            f"got {depth.dtype} with strides {depth.strides}")
        ld = depth.strides[0] // depth.itemsize
        launch("bfs", name, n * W, (cp.ascontiguousarray(new), i64(n), i32(W), i32(kb), depth, i64(ld),
                                    depth.dtype.type(level)), max_blocks=self.max_blocks)

    def any(self, a) -> bool:
        last = self._last_active
        if last is not None and last[0] is a:
            return len(last[1]) > 0
        return bool(a.any())

    def bfs_one(self, hg: DeviceGraph, source: int) -> cp.ndarray:
        """Depths (n,) int32 from one source: direction-optimizing BFS (top-down over a queue
        of the frontier, bottom-up over in-arcs in the wide middle levels)."""
        n = hg.n
        if hg.long_diameter:
            return cp.asarray(self.cpu().bfs_one(self.cpu().device_graph(hg.graph), source))
        depth = cp.full(n, -1, np.int32)
        depth[int(source)] = 0
        queue = cp.asarray(np.array([source], np.int32))
        found = cp.zeros(1, np.uint32)
        out_deg = hg.out_ptr[1:] - hg.out_ptr[:-1]
        unexplored = hg.m
        level = 0
        top_down = True
        alpha, beta = 14, 24
        while True:
            if level >= LONG_LEVELS:
                mark_long_diameter(hg, "a one-source BFS")
                return self.bfs_one(hg, source)
            if top_down:
                incl = cp.cumsum(out_deg[queue])
                mf = int(incl[-1])
                if mf == 0:
                    return depth
                if mf > unexplored / alpha and hg.m > 0:
                    top_down = False
                else:
                    unexplored -= mf
                    level += 1
                    launch("bfs", "bfs_top_down", mf,
                           (queue, incl, i32(len(queue)), i64(mf), hg.out_ptr, hg.out_idx, depth, i32(level)),
                           max_blocks=self.max_blocks * 4)
                    queue = cp.flatnonzero(depth == level).astype(np.int32)
                    if len(queue) == 0:
                        return depth
                    continue
            level += 1
            found.fill(0)
            launch("bfs", "bfs_bottom_up", n, (hg.in_ptr, hg.in_src, depth, i64(n), i32(level), found),
                   max_blocks=self.max_blocks)
            nf = int(found[0])
            if nf == 0:
                return depth
            if nf < n / beta:
                top_down = True
                queue = cp.flatnonzero(depth == level).astype(np.int32)

    # -- shortest-path primitives ---------------------------------------------
    def sssp_batch_size(self, n: int, k: int, dijkstra: bool) -> int:
        """Sources per near-far / Bellman-Ford batch: enough to fill the GPU on small networks,
        bounded by a quarter of free memory and by 2^31 entries (the queues' 32-bit counts)."""
        per_source = n * 40 + 1      # near-far: key 8, stamp 4, far 1, two queues 16, result
        fit = int(self.free_memory() * 0.25 // per_source)
        return max(1, min(k, fit, 4096, (2**31 - 1) // max(n, 1),   # entries r * n + v in int32 counts
                          self.batch_limit or k))

    def sssp_parallel(self, dijkstra: bool) -> bool:
        return False

    def sp_start(self, hg: DeviceGraph, ids, track_pred: bool):
        """The state of a Bellman-Ford batch and its first active set (the sources).

        float32 predecessors over positive weights ride in the packed word (one atomicMin an
        arc); float64, and float32 predecessors where zero or negative weights could tie,
        take Jacobi rounds (three phases, deterministic: see kernels/sssp.cu)."""
        kb, n = len(ids), hg.n
        dist = cp.full((kb, n), np.inf, hg.weight_dtype)
        dist[cp.arange(kb), cp.asarray(np.asarray(ids, dtype=np.int64))] = 0
        if hg.weight_dtype == np.float64 or (track_pred and hg.min_weight <= 0):
            pred = cp.full((kb, n), -1, np.int32)
            return self._sp_state(dist, pred, "jacobi", ids), dist == 0
        if track_pred:
            return self._sp_state(dist, cp.full((kb, n), -1, np.int32), "packed32", ids), dist == 0
        return self._sp_state(dist, None, "dist32", ids), dist == 0

    def _sp_state(self, dist, pred, mode: str, ids) -> SPState:
        """A batch state holding (dist, pred) in the form `mode` keeps them."""
        kb, n = dist.shape
        count = kb * n
        dist = cp.ascontiguousarray(dist)
        if mode == "packed32":
            key = cp.empty((kb, n), np.uint64)
            launch("sssp", "pack_f32", count, (dist, cp.ascontiguousarray(pred), i64(count), key),
                   max_blocks=self.max_blocks)
            return SPState(kb, n, np.asarray(ids), mode, key)
        suffix = "f64" if dist.dtype == np.float64 else "f32"
        key = cp.empty((kb, n), np.uint64 if suffix == "f64" else np.uint32)
        launch("sssp", f"to_ordered_{suffix}", count, (dist, i64(count), key), max_blocks=self.max_blocks)
        return SPState(kb, n, np.asarray(ids), mode, key, pred if mode == "jacobi" else None)

    def class_heads(self, hg: DeviceGraph):
        """(arc heads with their CLASS_* bits on top, 1), or (plain heads, 0) where classes are
        off, the graph is undirected, or ids need the top bits (2^30 vertices or more). Built
        once per graph."""
        got = hg.extra.get(("class_heads", EDGE_CLASSES))
        if got is None:
            if EDGE_CLASSES and hg.n <= 2**30 and hg.graph.directed:
                cls = ((cp.diff(hg.out_ptr) == 0).astype(np.uint32) * CLASS_SINK
                       | (cp.diff(hg.in_ptr) == 1).astype(np.uint32) * CLASS_IN_ONE)
                heads = hg.out_idx.astype(np.uint32) | (cls[hg.out_idx] << np.uint32(30))
                got = (heads.view(np.int32), 1)
            else:
                got = (hg.out_idx, 0)
            hg.extra[("class_heads", EDGE_CLASSES)] = got
        return got

    def sp_relax(self, hg: DeviceGraph, state: SPState, active) -> cp.ndarray:
        """One Bellman-Ford round from the active entries; returns the next active set."""
        n = state.n
        nxt = cp.zeros((state.kb, n), np.bool_)
        last = self._last_active
        entries = last[1] if last is not None and last[0] is active else cp.flatnonzero(active)
        self._last_active = None
        if len(entries) == 0:
            return nxt
        tails = entries % n
        deg = hg.out_ptr[tails + 1] - hg.out_ptr[tails]
        incl = cp.cumsum(deg)
        total = int(incl[-1])
        self.stats["rounds"] += 1
        self.stats["arcs"] += total
        if total == 0:
            return nxt
        qlen = len(entries)
        has_w = hg.out_w is not None
        w = hg.out_w if has_w else cp.zeros(1, hg.weight_dtype)
        common = (entries, incl, i64(qlen), i64(total), i64(n), hg.out_ptr, hg.out_idx, w, i32(has_w))
        grid = self.max_blocks * 4
        if state.mode in ("packed32", "dist32"):
            heads, flagged = self.class_heads(hg)
            launch("sssp", "relax_packed_f32" if state.mode == "packed32" else "relax_dist_f32", total,
                   common[:6] + (heads,) + common[7:] + (i32(flagged), state.key, nxt), max_blocks=grid)
        else:
            suffix = "f64" if state.key.dtype == np.uint64 else "f32"
            prev = state.key.copy()
            launch("sssp", f"relax_jacobi_min_{suffix}", total, common + (prev, state.key), max_blocks=grid)
            best = cp.full((state.kb, n), np.iinfo(np.int32).max, np.int32)
            launch("sssp", f"relax_jacobi_pred_{suffix}", total, common + (prev, state.key, best), max_blocks=grid)
            count = state.kb * n
            launch("sssp", f"relax_jacobi_finish_{suffix}", count,
                   (prev, state.key, best, i64(count), state.pred, nxt),
                   max_blocks=self.max_blocks)
        # the next round's queue now (one synchronisation), so that `any` needs no reduction
        self._last_active = (nxt, cp.flatnonzero(nxt))
        return nxt

    def sp_preds(self, state: SPState):
        """The batch's predecessors now (for the cycle search), or None if not tracked."""
        if state.mode == "jacobi":
            return state.pred
        if state.mode == "packed32":
            return (state.key & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)
        return None

    def sp_finish(self, state: SPState, with_pred: bool):
        """(dist, pred or None) of a finished batch, (kb, n), on the device."""
        count = state.kb * state.n
        if state.mode == "jacobi":
            f64 = state.key.dtype == np.uint64
            dist = cp.empty((state.kb, state.n), np.float64 if f64 else np.float32)
            launch("sssp", "from_ordered_f64" if f64 else "from_ordered_f32", count,
                   (state.key, i64(count), dist), max_blocks=self.max_blocks)
            return dist, (state.pred if with_pred else None)
        dist = cp.empty((state.kb, state.n), np.float32)
        if state.mode == "dist32":
            launch("sssp", "from_ordered_f32", count, (state.key, i64(count), dist), max_blocks=self.max_blocks)
            return dist, None
        pred = cp.empty((state.kb, state.n), np.int32)
        launch("sssp", "unpack_f32", count, (state.key, i64(count), dist, pred), max_blocks=self.max_blocks)
        return dist, (pred if with_pred else None)

    # -- near-far SSSP --------------------------------------------------------
    def near_far_ok(self, hg: DeviceGraph, kb: int, with_pred: bool) -> bool:
        """Near-far for this batch: float32, non-negative weights (positive with predecessors:
        zero weights take deterministic Jacobi rounds, see sp_start), few sources."""
        return (hg.weight_dtype == np.float32 and kb <= NF_MAX_SOURCES and hg.m > 0 and kb * hg.n < 2**31
                and (hg.min_weight > 0 if with_pred else hg.min_weight >= 0))

    def nf_delta(self, hg: DeviceGraph) -> float:
        base = hg.extra.get("nf_delta_base")
        if base is None:
            mean_w = float(hg.out_w.mean()) if hg.out_w is not None else 1.0
            base = 32.0 * mean_w / max(hg.m / max(hg.n, 1), 1.0)
            if not base > 0:
                base = 1.0
            hg.extra["nf_delta_base"] = base
        return base * NF_DELTA_FACTOR

    def near_far(self, hg: DeviceGraph, ids, with_pred: bool):
        """(dist, pred or None), (kb, n) on the device: near-far SSSP (non-negative float32).
        Equal to Bellman-Ford's distances (both reach the same float32 fixed point)."""
        if hg.long_diameter:
            return self.sp_long(hg, ids, with_pred)
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
        heavy = deg > NF_HEAVY
        nheavy = hg.extra.get(("nf_heavy", NF_HEAVY))
        if nheavy is None:
            nheavy = hg.extra[("nf_heavy", NF_HEAVY)] = int(cp.count_nonzero(cp.diff(hg.out_ptr) > NF_HEAVY))
        hcap = max(1, kb * nheavy)
        lq = [cp.empty(count, np.int64), cp.empty(count, np.int64)]
        hq = [cp.empty(hcap, np.int64), cp.empty(hcap, np.int64)]
        hincl = cp.empty(hcap, np.int64)
        light0, heavy0 = entries[(~heavy) & (deg > 0)], entries[heavy]
        lq[0][:len(light0)] = cp.asarray(light0)
        hq[0][:len(heavy0)] = cp.asarray(heavy0)
        cnt = cp.asarray(np.array([len(light0), 0, 0, len(heavy0), 0, 0], np.uint32))
        delta = self.nf_delta(hg)
        thr = cp.asarray(np.array([delta, delta], np.float32))
        minbox = cp.zeros(1, np.uint32)
        gate = cp.zeros(1, np.int32)
        has_w = hg.out_w is not None
        w = hg.out_w if has_w else cp.zeros(1, np.float32)
        heads, flagged = self.class_heads(hg)
        relax, fmin, fgather = (kernel("sssp", f"nf_relax_{suffix}"), kernel("sssp", f"nf_far_min_{suffix}"),
                                kernel("sssp", f"nf_far_gather_{suffix}"))
        scan = kernel("sssp", "nf_heavy_scan")
        grid = (self.max_blocks * 2,)
        sgrid = (max(1, min(self.max_blocks, (count + THREADS - 1) // THREADS)),)
        it = 0
        heavy_arg = i32(NF_HEAVY)
        try:
            while True:
                for _ in range(NF_SYNC_EVERY):
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
                if it >= NF_MAX_ITERS:
                    return self.sp_long(hg, ids, with_pred)
        except cp.cuda.memory.OutOfMemoryError:
            raise
        except Exception as e:
            raise KernelError(f"curnet: CUDA near-far kernels failed ({kb} sources, {n} vertices): "
                              f"{type(e).__name__}: {e}") from e
        self.stats["nf_iters"] = self.stats.get("nf_iters", 0) + it
        key = key.reshape(kb, n)
        dist = cp.empty((kb, n), np.float32)
        if with_pred:
            pred = cp.empty((kb, n), np.int32)
            launch("sssp", "unpack_f32", count, (key, i64(count), dist, pred), max_blocks=self.max_blocks)
            return dist, pred
        launch("sssp", "from_ordered_f32", count, (key, i64(count), dist), max_blocks=self.max_blocks)
        return dist, None

    def sp_long(self, hg: DeviceGraph, ids, with_pred: bool):
        """A batch on a long-diameter graph, finished on the host by SciPy (see LONG_LEVELS)."""
        mark_long_diameter(hg, "a shortest-path batch")
        dist, pred = self.cpu().shortest_paths_host(self.cpu().device_graph(hg.graph), ids, with_pred)
        return cp.asarray(dist), (cp.asarray(pred) if pred is not None else None)

    def relax(self, hg: DeviceGraph, dist, pred, active, jacobi: bool = False) -> cp.ndarray:
        """The CPU twin's contract on (dist, pred) arrays (for tests): one round, in place.
        float64 (and float32 with `jacobi`) takes Jacobi rounds, float32 the packed word."""
        track = pred is not None
        if dist.dtype == np.float64 or jacobi:
            state = self._sp_state(dist, pred if track else cp.full(dist.shape, -1, np.int32), "jacobi", [])
        else:
            state = self._sp_state(dist, pred, "packed32" if track else "dist32", [])
        nxt = self.sp_relax(hg, state, active)
        d, p = self.sp_finish(state, track)
        dist[...] = d
        if track:
            pred[...] = p
        return nxt

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

    def pred_has_cycle(self, pred) -> cp.ndarray:
        """(k,) bool: row r's predecessor pointers contain a cycle (pointer doubling)."""
        anc = pred.astype(np.int32, copy=True)
        rows = cp.arange(pred.shape[0])[:, None]
        for _ in range(max(1, int(np.ceil(np.log2(max(pred.shape[1], 2))))) + 1):
            nxt = cp.where(anc >= 0, anc, 0)
            anc = cp.where(anc >= 0, anc[rows, nxt], -1)
        return (anc >= 0).any(axis=1)

    # -- SCC primitives -------------------------------------------------------
    def trim(self, hg: DeviceGraph, alive) -> cp.ndarray:
        kept = cp.empty(hg.n, np.bool_)
        launch("scc", "trim_step", hg.n, (hg.in_ptr, hg.in_src, hg.out_ptr, hg.out_idx,
                                         cp.ascontiguousarray(alive, dtype=np.bool_), i64(hg.n), kept),
               max_blocks=self.max_blocks)
        return kept

    def propagate_max(self, hg: DeviceGraph, values, alive, colors=None, backward: bool = False):
        """Closure of max along arcs inside `alive` (and one colour): in-place sweeps until stable."""
        ptr, src, heavy = (hg.in_ptr, hg.in_src, hg.heavy_in) if not backward else \
            (hg.out_ptr, hg.out_idx, hg.heavy_out)
        out_dtype = values.dtype
        vals = values.astype(np.int32, copy=True)
        alive = cp.ascontiguousarray(alive, dtype=np.bool_)
        has_colors = colors is not None
        col = colors.astype(np.int32, copy=False) if has_colors else cp.zeros(1, np.int32)
        changed = cp.zeros(1, np.int32)
        n = hg.n
        sweeps_per_check = 2
        while True:
            changed.fill(0)
            for _ in range(sweeps_per_check):
                launch("scc", "propagate_light", n, (ptr, src, alive, col, i32(has_colors), i64(n),
                                                     i64(HEAVY_DEGREE), vals, changed),
                       max_blocks=self.max_blocks)
                if len(heavy):
                    launch("scc", "propagate_heavy", len(heavy) * 32,
                           (ptr, src, alive, col, i32(has_colors), heavy, i64(len(heavy)), vals, changed),
                           max_blocks=self.max_blocks)
            if not int(changed[0]):
                return vals.astype(out_dtype, copy=False)


class MultiCUDABackend:
    """Several GPUs of one host. Each GPU holds the whole graph and takes a contiguous share of
    a many-source job's sources (BFS, shortest paths), in a thread of its own
    (`algorithms.common.over_devices`); whole-graph work (SCC) and anything else runs on the
    first GPU. Sources are independent, so one host needs no scheduler beyond that split."""
    name = "cuda"

    def __init__(self, devices):
        self.members = []
        for d in devices:
            with cp.cuda.Device(d):
                self.members.append(CUDABackend(d))

    def describe(self) -> str:
        return f"cuda x{len(self.members)} ({', '.join(m._device_name() for m in self.members)}, " \
               f"CuPy {cp.__version__})"

    def info(self) -> dict:
        infos = [m.info() for m in self.members]
        out = dict(infos[0])
        out["device"] = "; ".join(f"GPU {m.device.id}: {i['device']}" for m, i in zip(self.members, infos))
        out["device_memory"] = "; ".join(f"GPU {m.device.id}: {i['device_memory']}"
                                         for m, i in zip(self.members, infos))
        return out

    def __getattr__(self, attr):
        return getattr(self.members[0], attr)


# Device -> host copies of at least STAGE_MIN bytes go through pinned buffers of STAGE_CHUNK
# bytes: the DMA of chunk c + 1 (55 GB/s pinned, against ~10 pageable) overlaps the host
# threads' copy of chunk c into the caller's (often fresh, page-faulting) memory.
STAGE_MIN = 16 << 20
STAGE_CHUNK = 32 << 20
STAGE_BUFFERS = 3
STAGE_THREADS = max(1, min(8, os.cpu_count() or 1))
_stages: dict = {}       # device id -> that GPU's staging buffers, events and copy threads


def _stage_parts():
    """The current GPU's staging parts (each GPU of a multi-GPU job copies through its own)."""
    with _lock:
        stage = _stages.setdefault(cp.cuda.runtime.getDevice(), {})
        if stage.get("chunk") != STAGE_CHUNK:
            if "pool" in stage:
                stage["pool"].shutdown(wait=True)
            stage.clear()
            stage["chunk"] = STAGE_CHUNK
            from concurrent.futures import ThreadPoolExecutor
            mems = [cp.cuda.alloc_pinned_memory(STAGE_CHUNK) for _ in range(STAGE_BUFFERS)]
            stage["mems"] = mems
            stage["bufs"] = [np.frombuffer(m, np.uint8, STAGE_CHUNK) for m in mems]
            stage["events"] = [cp.cuda.Event(block=False, disable_timing=True) for _ in mems]
            stage["pool"] = ThreadPoolExecutor(STAGE_THREADS, thread_name_prefix="curnet-d2h")
    return stage["bufs"], stage["events"], stage["pool"]


def _staged_copy(src: cp.ndarray, dst: np.ndarray) -> None:
    """A C-contiguous device array into a C-contiguous host array of the same bytes."""
    total = src.nbytes
    sptr = src.data.ptr
    dbytes = dst.reshape(-1).view(np.uint8)
    bufs, events, pool = _stage_parts()
    stream = cp.cuda.get_current_stream()
    nchunks = -(-total // STAGE_CHUNK)
    pending = [[] for _ in bufs]

    def issue(c):
        b = c % len(bufs)
        for f in pending[b]:
            f.result()
        pending[b] = []
        off = c * STAGE_CHUNK
        size = min(STAGE_CHUNK, total - off)
        cp.cuda.runtime.memcpyAsync(bufs[b].ctypes.data, sptr + off, size,
                                    cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
        events[b].record(stream)

    def part(dst_slice, src_slice):
        np.copyto(dst_slice, src_slice)

    for c in range(min(len(bufs) - 1, nchunks)):
        issue(c)
    for c in range(nchunks):
        b = c % len(bufs)
        events[b].synchronize()
        off = c * STAGE_CHUNK
        size = min(STAGE_CHUNK, total - off)
        step = -(-size // STAGE_THREADS)
        step = -(-step // 4096) * 4096
        pending[b] = [pool.submit(part, dbytes[off + a: off + min(a + step, size)], bufs[b][a: min(a + step, size)])
                      for a in range(0, size, step)]
        if c + len(bufs) - 1 < nchunks:
            issue(c + len(bufs) - 1)
    for fs in pending:
        for f in fs:
            f.result()


def _wait_copies(result, futures):
    """A batch's result once all its copies are done (the first copy error raised)."""
    for f in futures:
        f.exception()
    for f in futures:
        f.result()
    return result


def _get_into(block: cp.ndarray, view: np.ndarray) -> None:
    """Device block into a host view of the same shape: direct when the layouts agree
    (through pinned staging when large), else through a temporary host copy."""
    if view.dtype == block.dtype:
        if view.flags.f_contiguous and block.flags.f_contiguous and not view.flags.c_contiguous:
            block, view = block.T, view.T
        if view.flags.c_contiguous and block.flags.c_contiguous:
            if block.nbytes >= STAGE_MIN and STAGE_CHUNK > 0:
                _staged_copy(block, view)
            else:
                block.get(out=view)
            return
    _host_copy(view, block.get())


def _host_copy(dst: np.ndarray, src: np.ndarray) -> None:
    """np.copyto into a strided host view (a batch's rows of a larger matrix): large copies are
    cut along dst's outermost axis over the staging threads (NumPy releases the GIL)."""
    if src.nbytes < STAGE_MIN or dst.ndim == 0:
        np.copyto(dst, src, casting="unsafe")
        return
    axis = int(np.argmax(np.abs(dst.strides)))
    dst, src = np.moveaxis(dst, axis, 0), np.moveaxis(src, axis, 0)
    pool = _stage_parts()[2]
    step = -(-len(dst) // STAGE_THREADS)
    futures = [pool.submit(np.copyto, dst[a:a + step], src[a:a + step], casting="unsafe")
               for a in range(0, len(dst), step)]
    for f in futures:
        f.result()
