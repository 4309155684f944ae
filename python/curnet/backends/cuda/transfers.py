"""Device -> host copies: pinned staging for large blocks, a parallel host scatter for
other strided destinations, and the copy thread that overlaps batch i's copy with batch i + 1.

Large copies go through pinned buffers of `stage_chunk` bytes (CudaTuning): the DMA of
chunk c + 1 overlaps the host threads' copy of chunk c into the caller's (often fresh,
page-faulting) memory, straight into a batch's rows of the caller's matrix where the
result is larger than the batch (backends/staging.py, the host's half); see
docs/gpu-notes.md for the measurements.
"""
from __future__ import annotations

import math
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import cupy as cp
import cupyx

from ...work import tally
from ..staging import byte_rows, copy_through

_lock = threading.Lock()
_stages: dict = {}       # device id -> that GPU's Staging


class Staging:
    """One GPU's pinned buffers, their events and the host copy threads. A staged copy holds
    `lock`: two threads copying from the same GPU take turns on the buffers."""

    def __init__(self, chunk: int, buffers: int, threads: int):
        self.config = (chunk, buffers, threads)
        self.lock = threading.Lock()
        self.mems = [cp.cuda.alloc_pinned_memory(chunk) for _ in range(buffers)]
        self.bufs = [np.frombuffer(m, np.uint8, chunk) for m in self.mems]
        self.events = [cp.cuda.Event(block=False, disable_timing=True) for _ in self.mems]
        self.threads = threads
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="curnet-d2h")


def staging(tuning) -> Staging:
    """The current GPU's staging parts, (re)built when the tuning asks for other sizes (each
    GPU of a multi-GPU job copies through its own)."""
    config = (tuning.stage_chunk, tuning.stage_buffers, tuning.stage_threads)
    with _lock:
        device = cp.cuda.runtime.getDevice()
        stage = _stages.get(device)
        if stage is None or stage.config != config:
            if stage is not None:
                with stage.lock:
                    stage.pool.shutdown(wait=True)
            stage = _stages[device] = Staging(*config)
    return stage


def staged_copy(src: cp.ndarray, rows: np.ndarray, tuning) -> None:
    """A C-contiguous device array into `rows`, the (rows, row bytes) view (byte_rows) of a
    host array of the same shape: C-contiguous, or a batch's rows of a larger matrix."""
    stage = staging(tuning)
    row_bytes = rows.shape[1]
    stream = cp.cuda.get_current_stream()

    def start(b, first, count):
        cp.cuda.runtime.memcpyAsync(stage.bufs[b].ctypes.data, src.data.ptr + first * row_bytes,
                                    count * row_bytes, cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
        stage.events[b].record(stream)

    with stage.lock:
        copy_through(rows, stage.bufs, start, lambda b: stage.events[b].synchronize(), stage.pool,
                     stage.threads)


def get_into(block: cp.ndarray, view: np.ndarray, tuning) -> None:
    """Device block into a host view of the same shape. Large blocks go through pinned
    staging straight into the view's rows: the whole result, or a batch's rows of it (pitched);
    a block of another dtype (int32 depths into a caller's float64 matrix) or of the other
    order (a C-ordered caller's matrix) is converted on the device first. Small blocks are
    copied directly when the layouts agree, and anything else through a temporary host copy."""
    if block.flags.f_contiguous and not block.flags.c_contiguous:
        block, view = block.T, view.T                  # free: the device block's layout leads
    if view.dtype == block.dtype and view.flags.c_contiguous and block.flags.c_contiguous and pinned(view):
        tally("pinned direct copies")
        block.get(out=view)                            # the link's speed: no staging
        return
    if block.nbytes >= tuning.stage_min and tuning.stage_chunk > 0:
        try:
            if view.dtype != block.dtype:
                block = block.astype(view.dtype)
            if block.ndim == 2 and byte_rows(view) is None and byte_rows(view.T) is not None:
                block, view = cp.ascontiguousarray(block.T), view.T
        except cp.cuda.memory.OutOfMemoryError:
            pass                                       # converted on the host below instead
        rows = byte_rows(view) if view.flags.c_contiguous or tuning.stage_pitched else None
        if (view.dtype == block.dtype and block.flags.c_contiguous and rows is not None
                and rows.shape[1] <= tuning.stage_chunk):
            staged_copy(block, rows, tuning)
            return
    if view.dtype == block.dtype and view.flags.c_contiguous and block.flags.c_contiguous:
        block.get(out=view)
        return
    host_copy(view, block.get(), tuning)


class PinnedResults:
    """Public calls' results in pinned host memory (CuPy's pinned pool: a freed result's memory
    serves the next call), the bytes of those alive at once bounded by `pinned_live_max`: a
    caller keeping every result would otherwise pin memory afresh at each call (8.3 ms for
    16 MiB on the H200's host, against the 1 ms its copy saves) and hold page-locked memory
    without end. One a GPU; any thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.live = 0                     # bytes of the pinned results not yet freed

    def empty(self, shape: tuple, dtype, tuning) -> np.ndarray | None:
        """A new Fortran-ordered pinned array, or None where the tuning's bounds say pageable
        (or the host refuses to pin more)."""
        nbytes = math.prod(shape) * np.dtype(dtype).itemsize
        if not tuning.pinned_result_min <= nbytes <= tuning.pinned_result_max:
            return None
        with self.lock:
            if self.live + nbytes > tuning.pinned_live_max:
                return None
            self.live += nbytes
        try:
            a = cupyx.empty_pinned(shape, dtype=dtype, order="F")
        except cp.cuda.runtime.CUDARuntimeError:
            self.release(nbytes)
            return None
        weakref.finalize(a, self.release, nbytes)    # its views keep it alive
        return a

    def release(self, nbytes: int) -> None:
        with self.lock:
            self.live -= nbytes


def pinned(a: np.ndarray) -> bool:
    """Whether host array `a` lies in pinned (page-locked) memory, such as host_result's."""
    if a.size == 0:
        return False
    kind = cp.cuda.runtime.pointerGetAttributes(a.ctypes.data).type
    return kind == cp.cuda.runtime.memoryTypeHost


def host_copy(dst: np.ndarray, src: np.ndarray, tuning) -> None:
    """np.copyto into a strided host view (a batch's rows of a larger matrix): large copies are
    cut along dst's outermost axis over the staging threads (NumPy releases the GIL)."""
    if src.nbytes < tuning.stage_min or dst.ndim == 0:
        np.copyto(dst, src, casting="unsafe")
        return
    axis = int(np.argmax(np.abs(dst.strides)))
    dst, src = np.moveaxis(dst, axis, 0), np.moveaxis(src, axis, 0)
    stage = staging(tuning)
    step = -(-len(dst) // stage.threads)
    futures = [stage.pool.submit(np.copyto, dst[a:a + step], src[a:a + step], casting="unsafe")
               for a in range(0, len(dst), step)]
    for f in futures:
        f.result()


class CopyThread:
    """One backend's copy thread and its non-blocking stream: a queued copy waits for the
    block's kernels (an event on the caller's stream), then copies on its own stream. The
    queued job holds the block, so CuPy's pool cannot hand its memory out again before the
    copy has finished."""

    def __init__(self, device: cp.cuda.Device):
        self.device = device
        self._pool: ThreadPoolExecutor | None = None
        self._stream: Any = None              # a cupy.cuda.Stream, made with the pool
        self._lock = threading.Lock()

    def submit(self, block: cp.ndarray, view: np.ndarray, tuning):
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="curnet-batch-d2h")
                self._stream = cp.cuda.Stream(non_blocking=True)
        pool, stream = self._pool, self._stream
        ready = cp.cuda.Event(disable_timing=True)
        ready.record()

        def job():
            with cp.cuda.Device(self.device.id), stream:    # a Device of its own (see device_scope)
                ready.synchronize()
                get_into(block, view, tuning)
        return pool.submit(job)

    def drain(self) -> None:
        """Wait for every queued copy (the thread runs them in order): frees their blocks."""
        if self._pool is not None:
            self._pool.submit(lambda: None).result()


def wait_copies(result, futures):
    """A batch's result once all its copies are done (the first copy error raised)."""
    for f in futures:
        f.exception()
    for f in futures:
        f.result()
    return result
