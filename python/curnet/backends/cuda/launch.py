"""Compiling and launching the kernels of kernels/*.cu, and the graph's arrays on a GPU.

Kernel sources are compiled once per process and GPU through NVRTC (CuPy's `RawModule`),
with kernels/common.cuh put in front of each, and kept on disk in cuRnet's kernel cache
(`backends/kernel_cache.py`): after `curnet warm-up` a process loads them without compiling.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from ...graph import Graph
from .. import kernel_cache, log

kernel_cache.use()    # before CuPy's import fixes its cache folder (kernel_cache.use's note)
import cupy as cp  # noqa: E402  (after kernel_cache.use(), as said above)

KERNEL_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "kernels")
THREADS = 256

_modules: dict = {}
_lock = threading.Lock()


def kernel_source(module: str) -> str:
    """kernels/<module>.cu with kernels/common.cuh in front (what NVRTC compiles)."""
    parts = []
    for name in ("common.cuh", module + ".cu"):
        with open(os.path.join(KERNEL_DIR, name)) as f:
            parts.append(f.read())
    return "\n".join(parts)


def compiled_module(module: str, cooperative: bool = False) -> cp.RawModule:
    """kernels/<module>.cu as a RawModule for the current device, made once per process (each
    GPU loads its own copy; NVRTC compiles it at its first kernel, or `.compile()`).
    `cooperative`: the copy whose kernels launch cooperatively (every block resident at once;
    the loop kernels' grid barriers need it), which takes grids of at most the resident blocks."""
    key = (module, cp.cuda.runtime.getDevice(), cooperative)
    with _lock:
        mod = _modules.get(key)
        if mod is None:
            mod = cp.RawModule(code=kernel_source(module), options=("-std=c++17",),
                               enable_cooperative_groups=cooperative)
            _modules[key] = mod
    return mod


def kernel(module: str, name: str, cooperative: bool = False):
    """A kernel from kernels/<module>.cu for the current device, compiled on first use
    (compiled_module)."""
    return compiled_module(module, cooperative).get_function(name)


def resident_blocks(fn, threads: int, sms: int) -> int:
    """How many blocks of `threads` of kernel `fn` the GPU holds at once (the occupancy API)."""
    try:
        per_sm = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(fn.kernel.ptr, threads, 0)
    except (AttributeError, cp.cuda.driver.CUDADriverError):    # a CuPy without it: one a multiprocessor
        per_sm = 1
    return max(1, int(per_sm)) * sms


_resident: dict = {}     # (device id, module, kernel, threads) -> blocks resident at once


def resident(module: str, name: str, threads: int = THREADS) -> int:
    """Blocks of loop kernel `name` the current GPU holds at once (cached a device)."""
    dev = cp.cuda.Device()
    key = (dev.id, module, name, threads)
    if key not in _resident:
        sms = int(cp.cuda.runtime.getDeviceProperties(dev.id)["multiProcessorCount"])
        _resident[key] = resident_blocks(kernel(module, name, cooperative=True), threads, sms)
    return _resident[key]


def launch_cooperative(module: str, name: str, blocks: int, args, threads: int = THREADS,
                       shape: str = "") -> None:
    """Launch loop kernel `name` (grid barriers inside) on `blocks` blocks, all resident at
    once; a failure names the kernel and its grid (and `shape`, what it ran over)."""
    fn = kernel(module, name, cooperative=True)
    try:
        fn((blocks,), (threads,), args)
    except cp.cuda.memory.OutOfMemoryError:
        raise
    except Exception as e:
        raise KernelError(f"curnet: CUDA loop kernel {module}.{name} failed (cooperative grid "
                          f"{blocks} x {threads}{', ' + shape if shape else ''}): "
                          f"{type(e).__name__}: {e}") from e


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


# A null pointer argument (CuPy passes None as 0xffffffff, cupy/cupy#9046): an optional
# array a kernel may go without (BFS levels have no distances and no weights).
NULL = np.uint64(0)


def i64(x) -> np.int64:
    return np.int64(x)


def i32(x) -> np.int32:
    return np.int32(x)


class Launcher:
    """One GPU: its properties, free memory, and kernel launches sized for it."""

    def __init__(self, device_id: int):
        self.device = cp.cuda.Device(device_id)
        self.props = cp.cuda.runtime.getDeviceProperties(self.device.id)
        self.sms = int(self.props["multiProcessorCount"])
        self.max_blocks = self.sms * 16       # grid-stride kernels: enough to fill the chip

    def launch(self, module: str, name: str, count: int, args, threads: int = THREADS,
               max_blocks: int | None = None):
        launch(module, name, count, args, threads=threads, max_blocks=max_blocks)

    def kernel(self, module: str, name: str):
        return kernel(module, name)

    def launch_resident(self, module: str, name: str, args, vertices: int | None = None, lanes: int = 1) -> int:
        """Launch a loop kernel (grid barriers inside) cooperatively on as many blocks as the
        GPU holds at once, or, given the graph's `vertices`, on no more than `lanes` threads a
        vertex need (1; 32 for a warp a vertex), at least a block a multiprocessor: on small
        graphs fewer blocks meet at each grid barrier. The number of blocks."""
        blocks = resident(module, name)
        if vertices is not None:
            blocks = min(blocks, max(self.sms, -(-int(vertices) * lanes // THREADS)))
        launch_cooperative(module, name, blocks, args,
                           shape=f"{vertices} vertices" if vertices is not None else "")
        return blocks

    def device_name(self) -> str:
        name = self.props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)

    def free_memory(self) -> int:
        """Bytes the next allocations may use: free device memory plus CuPy's pool's idle blocks,
        capped by the pool's limit if one is set."""
        pool = cp.get_default_memory_pool()
        free = cp.cuda.runtime.memGetInfo()[0] + pool.free_bytes()
        limit = pool.get_limit()
        if limit:
            free = min(free, limit - pool.used_bytes())
        return max(int(free), 0)


def inclusive_degree_sum(hg: "DeviceGraph", vertices: cp.ndarray, backward: bool = False):
    """(incl, total): the inclusive sum of the out-degrees (in-degrees when `backward`) of
    `vertices` (a frontier queue), which the load-balanced advance (kernels/common.cuh)
    searches, and their sum (one sync)."""
    incl = cp.cumsum((hg.in_degree if backward else hg.out_degree)[vertices])
    return incl, int(incl[-1])


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
    heavy_in: cp.ndarray                 # vertices of in-degree over heavy_degree (SCC: a warp each)
    heavy_out: cp.ndarray
    heavy_degree: int
    graph: Graph                         # the host Graph, for host routes
    long_diameter: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def out_degree(self) -> cp.ndarray:
        """(n,) int64 out-degrees, made on first use."""
        return self._degrees("out_degree", self.out_ptr)

    @property
    def in_degree(self) -> cp.ndarray:
        """(n,) int64 in-degrees, made on first use."""
        return self._degrees("in_degree", self.in_ptr)

    def _degrees(self, key: str, ptr: cp.ndarray) -> cp.ndarray:
        """The degrees of the CSR with offsets `ptr`, made at the first call and kept in extra[key]."""
        deg = self.extra.get(key)
        if deg is None:
            deg = self.extra[key] = cp.diff(ptr)
        return deg


def build_device_graph(launcher: Launcher, g, heavy_degree: int) -> DeviceGraph:
    """The graph's arrays on the launcher's GPU (the current device). The heavy rows are found
    on the host, where the offsets already are: no device pass and no host read for them."""
    n = len(g)
    out_ptr = cp.asarray(g.indptr.astype(np.int64))
    out_idx = cp.asarray(g.indices)
    out_w = cp.asarray(g.weights) if g.weights is not None else None
    heavy_out = np.flatnonzero(np.diff(g.indptr) > heavy_degree).astype(np.int32)
    if g.directed:
        ip, isrc, iw = g.csc()
        in_ptr = cp.asarray(ip.astype(np.int64))
        in_src = cp.asarray(isrc)
        in_w = cp.asarray(iw) if iw is not None else None
        heavy_in = np.flatnonzero(np.diff(ip) > heavy_degree).astype(np.int32)
    else:
        in_ptr, in_src, in_w = out_ptr, out_idx, out_w
        heavy_in = heavy_out
    in_dst = cp.empty(len(in_src), np.int32)
    launcher.launch("bfs", "fill_rows", n, (in_ptr, i64(n), in_dst), max_blocks=launcher.max_blocks)
    return DeviceGraph(
        n=n, m=len(g.indices), out_ptr=out_ptr, out_idx=out_idx, out_w=out_w,
        in_ptr=in_ptr, in_src=in_src, in_dst=in_dst, in_w=in_w,
        weight_dtype=g.weight_dtype, min_weight=g.min_weight,
        heavy_in=cp.asarray(heavy_in), heavy_out=cp.asarray(heavy_out),
        heavy_degree=heavy_degree, graph=g)


def mark_long_diameter(hg: DeviceGraph, what: str) -> None:
    """Route this graph's traversals to the host from now on, and say so (once per graph)."""
    if not hg.long_diameter:
        hg.long_diameter = True
        log.warning("curnet: %s ran past its level limit on this graph (a long-diameter graph): the "
                    "CUDA backend finishes it, and later calls on this graph, on the host (SciPy), "
                    "which is faster for such graphs", what)


class CompileTally:
    """Kernels compiled (cache misses) while counting_compiles() was open, and their seconds."""

    def __init__(self):
        self.count = 0
        self.seconds = 0.0
        self._lock = threading.Lock()

    def add(self, seconds: float):
        with self._lock:
            self.count += 1
            self.seconds += seconds


# CuPy's functions that compile a kernel, called only on a cache miss (CuPy 14 calls the
# second from its cache; earlier versions the first; the third where nvcc was asked for).
COMPILERS = ("compile_using_nvrtc", "_compile_using_nvrtc_no_warning", "compile_using_nvcc")
_compiling = threading.local()


@contextmanager
def counting_compiles():
    """Count the kernels compiled in this process meanwhile: CuPy calls its compilers only when
    neither its memory nor its disk cache has the kernel, so a warmed cache counts 0. Yields a
    CompileTally (one compile counts once, however many of COMPILERS it passes through)."""
    from cupy.cuda import compiler
    tally = CompileTally()
    names = [n for n in COMPILERS if hasattr(compiler, n)]
    originals = {n: getattr(compiler, n) for n in names}

    def counted(compile_fn):
        def call(*args, **kwargs):
            depth = getattr(_compiling, "depth", 0)
            _compiling.depth = depth + 1
            t = time.perf_counter()
            try:
                return compile_fn(*args, **kwargs)
            finally:
                _compiling.depth = depth
                if depth == 0:
                    tally.add(time.perf_counter() - t)
        return call

    for n in names:
        setattr(compiler, n, counted(originals[n]))
    try:
        yield tally
    finally:
        for n in names:
            setattr(compiler, n, originals[n])
