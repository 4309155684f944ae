"""Device -> host copies: pinned staging for large blocks, a parallel host scatter for
strided destinations, and the copy thread that overlaps batch i's copy with batch i + 1.

Large copies go through pinned buffers of `stage_chunk` bytes (CudaTuning): the DMA of
chunk c + 1 overlaps the host threads' copy of chunk c into the caller's (often fresh,
page-faulting) memory; see docs/gpu-notes.md for the measurements.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import cupy as cp

_lock = threading.Lock()
_stages: dict = {}       # device id -> that GPU's Staging


class Staging:
    """One GPU's pinned buffers, their events and the host copy threads. A staged copy holds
    `lock`: two threads copying from the same GPU take turns on the buffers."""

    def __init__(self, chunk: int, buffers: int, threads: int):
        self.config = (chunk, buffers, threads)
        self.chunk = chunk
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


def staged_copy(src: cp.ndarray, dst: np.ndarray, tuning) -> None:
    """A C-contiguous device array into a C-contiguous host array of the same bytes."""
    stage = staging(tuning)
    with stage.lock:
        _staged_copy(src, dst, stage)


def _staged_copy(src: cp.ndarray, dst: np.ndarray, stage: Staging) -> None:
    total = src.nbytes
    sptr = src.data.ptr
    dbytes = dst.reshape(-1).view(np.uint8)
    bufs, events, pool, chunk, nthreads = stage.bufs, stage.events, stage.pool, stage.chunk, stage.threads
    stream = cp.cuda.get_current_stream()
    nchunks = -(-total // chunk)
    pending = [[] for _ in bufs]

    def issue(c):
        b = c % len(bufs)
        for f in pending[b]:
            f.result()
        pending[b] = []
        off = c * chunk
        size = min(chunk, total - off)
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
        off = c * chunk
        size = min(chunk, total - off)
        step = -(-size // nthreads)
        step = -(-step // 4096) * 4096
        pending[b] = [pool.submit(part, dbytes[off + a: off + min(a + step, size)], bufs[b][a: min(a + step, size)])
                      for a in range(0, size, step)]
        if c + len(bufs) - 1 < nchunks:
            issue(c + len(bufs) - 1)
    for fs in pending:
        for f in fs:
            f.result()


def get_into(block: cp.ndarray, view: np.ndarray, tuning) -> None:
    """Device block into a host view of the same shape: direct when the layouts agree
    (through pinned staging when large), else through a temporary host copy."""
    if view.dtype == block.dtype:
        if view.flags.f_contiguous and block.flags.f_contiguous and not view.flags.c_contiguous:
            block, view = block.T, view.T
        if view.flags.c_contiguous and block.flags.c_contiguous:
            if block.nbytes >= tuning.stage_min and tuning.stage_chunk > 0:
                staged_copy(block, view, tuning)
            else:
                block.get(out=view)
            return
    host_copy(view, block.get(), tuning)


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
        self._pool = None
        self._stream = None
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
