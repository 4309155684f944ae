"""Running a job's batches on one GPU: out-of-memory splitting, and the overlap of batch
i's host copies with batch i + 1's kernels. What one call needs to remember (its queued
copies, the last active set of its Bellman-Ford rounds) lives in a `CallState` of the
calling thread, so that two threads sharing one backend cannot mix their calls."""
from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any

import cupy as cp

from . import transfers


class CallState(threading.local):
    """The calling thread's state on one backend."""
    # inside an overlapping map_batches: the current batch's copy futures (None otherwise)
    copies: list[Future] | None = None
    # (active array, its flatnonzero) from this thread's last sp_relax (see CUDABackend.any)
    last_active: tuple | None = None


class Counters(dict):
    """Counts a backend keeps over all its calls (rounds, arcs relaxed, push levels, ...);
    `add` may be called from several threads."""

    def __init__(self, **start):
        super().__init__(**start)
        self._lock = threading.Lock()

    def add(self, key: str, n: int = 1) -> None:
        with self._lock:
            self[key] = self.get(key, 0) + n


class BatchRunner:
    """map_batches for one backend: `to_host` queues a copy when called inside an
    overlapping map_batches of the same thread, or copies at once."""

    def __init__(self, device: cp.cuda.Device, tuning, call: CallState, counters: Counters):
        self.tuning, self.call, self.counters = tuning, call, counters
        self.copier = transfers.CopyThread(device)

    def to_host(self, block: cp.ndarray, view) -> None:
        """Device block into host view: now, or queued on the copy thread (see CopyThread)."""
        if self.call.copies is None:
            transfers.get_into(block, view, self.tuning)
            return
        self.call.copies.append(self.copier.submit(block, view, self.tuning))

    def map_batches(self, fn, batches):
        """Run fn on each batch in turn, yielding its result once its output is in host memory.
        A batch that runs out of device memory is split in two and retried (down to one
        source), so a job whose result fits in host memory completes.

        With several batches (and `overlap_batches`), the host copies that fn asks for
        (`finish_block`, `copy_to_host`) run on the copy thread: batch i's copy overlaps batch
        i + 1's kernels. At most two batches' outputs are in flight: after batch i + 1 has
        run, batch i's copies are waited for and its result yielded. Nothing is left copying
        when this returns or raises (errors and KeyboardInterrupt included)."""
        if not self.tuning.overlap_batches or len(batches) < 2:
            for b in batches:
                yield from self._run_split(fn, b)
            return
        call = self.call
        outer = call.copies              # a map_batches of this thread already open (nested)
        prev: tuple[Any, list[Future]] | None = None   # (result, copy futures) of the batch being copied
        call.copies = []
        try:
            for b in batches:
                for result in self._run_split(fn, b):
                    done, prev = prev, (result, call.copies)
                    call.copies = []
                    if done is not None:
                        yield transfers.wait_copies(*done)
            if prev is not None:
                done, prev = prev, None
                yield transfers.wait_copies(*done)
        finally:
            pending = (prev[1] if prev is not None else []) + (call.copies or [])
            call.copies = outer
            for f in pending:            # no copy may still write into the caller's arrays
                f.exception()            # (an error of theirs is not raised over the first)

    def _run_split(self, fn, batch):
        try:
            yield fn(batch)
            return
        except cp.cuda.memory.OutOfMemoryError:
            first, ids = batch
            if len(ids) <= 1:
                raise
        self.counters.add("splits")
        if self.call.copies is not None:
            self.copier.drain()
        cp.get_default_memory_pool().free_all_blocks()
        half = (len(ids) + 1) // 2
        yield from self._run_split(fn, (first, ids[:half]))
        yield from self._run_split(fn, (first + half, ids[half:]))
