"""Dask results gathered from the workers' GPUs by the caller (CUDA IPC).

Workers on the caller's host keep each chunk's batches in device memory of their own and send
only handles to it. The caller maps each handle (cudaIpcOpenMemHandle) and copies the batch into
its rows of the result through the direct call's own device -> host path (pinned staging, in
place, one thread a GPU). The result therefore lands in the caller's ordinary memory, with
transparent huge pages, at the speed of a direct call: the shared-memory route makes workers
fault a /dev/shm or memfd matrix in 4 KiB pages, which cost five times the direct call on a
16 GiB BFS result (docs/gpu-notes.md).

The worker holds a chunk until the caller says it has copied it (`release`); a worker whose
held chunks would pass HOLD_SHARE of its device memory waits for releases before keeping more.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..algorithms.sinks import MatrixSink, Sink

HOLD_SHARE = 0.5          # of a worker GPU's memory, held for the caller at most
HOLD_WAIT_S = 600         # a caller that never copies: the chunk fails after this long

_held: dict = {}          # on a worker: chunk key -> its kept device arrays
_held_bytes = [0]
_room = threading.Condition()


class _KeepSink(Sink):
    """A chunk's batches copied out of CuPy's pool into allocations of their own (another
    process can map only a whole cudaMalloc allocation), in order of their first row. BFS
    blocks are in the job's depth dtype, as the caller's matrix (R's: float64, Inf where
    unreachable)."""

    def __init__(self, depth_dtype):
        self.depth_dtype = depth_dtype
        self.kept = []            # (first row in the chunk, batch size, [arrays or None])

    def block(self, be, first_row, batch_ids, shape, dtype, fill):
        return super().block(be, first_row, batch_ids, shape, self.depth_dtype, fill)

    def consume(self, be, first_row, batch_ids, result) -> None:
        import cupy as cp
        parts = result if isinstance(result, tuple) else (result,)
        kept: list = []
        for a in parts:
            if a is None:
                kept.append(None)
                continue
            _wait_for_room(a.nbytes)
            try:
                mem = cp.cuda.memory.Memory(a.nbytes)
            except cp.cuda.memory.OutOfMemoryError:
                cp.get_default_memory_pool().free_all_blocks()
                mem = cp.cuda.memory.Memory(a.nbytes)
            b = cp.ndarray(a.shape, a.dtype, cp.cuda.MemoryPointer(mem, 0))
            b[...] = a
            kept.append(b)
        cp.cuda.get_current_stream().synchronize()
        self.kept.append((first_row, len(batch_ids), kept))


def _wait_for_room(nbytes: int) -> None:
    import cupy as cp
    budget = HOLD_SHARE * cp.cuda.runtime.memGetInfo()[1]
    with _room:
        if not _room.wait_for(lambda: _held_bytes[0] == 0 or _held_bytes[0] + nbytes <= budget,
                              timeout=HOLD_WAIT_S):
            raise RuntimeError(f"curnet: {_held_bytes[0] / 2**30:.1f} GiB of results held on this "
                               f"worker's GPU for {HOLD_WAIT_S} s: the caller has not copied them")
        _held_bytes[0] += nbytes


def keep_on_device(run_blocks, depth_dtype=np.int32) -> dict:
    """On a worker: run_blocks(sink) traverses the chunk into a keeping sink (BFS blocks in
    `depth_dtype`); returns what the caller needs to copy it (the GPU's PCI bus id, this
    worker, and each batch's handles)."""
    import cupy as cp
    from distributed import get_worker
    sink = _KeepSink(depth_dtype)
    run_blocks(sink)
    worker = get_worker()
    key = worker.get_current_task()
    with _room:
        _held[key] = sink.kept
    blocks = [(first, kb, [None if a is None else
                           (cp.cuda.runtime.ipcGetMemHandle(a.data.ptr), a.shape, a.dtype.str)
                           for a in arrays])
              for first, kb, arrays in sink.kept]
    return {"device_blocks": blocks, "bus": cp.cuda.Device().pci_bus_id, "key": key,
            "worker": worker.address, "pid": os.getpid()}


def release(key, dask_worker=None) -> int:
    """On a worker (client.run): drop a chunk the caller has copied; its bytes."""
    with _room:
        kept = _held.pop(key, None)
        freed = sum(a.nbytes for _, _, arrays in kept or () for a in arrays if a is not None)
        _held_bytes[0] -= freed
        _room.notify_all()
    return freed


def worker_bus() -> str | None:
    """The PCI bus id of the worker's current GPU (asked before a job)."""
    import cupy as cp
    return cp.cuda.Device().pci_bus_id


def caller_devices(buses) -> dict | None:
    """The caller's device number of each worker GPU (by PCI bus id), or None when the caller
    cannot map them (no CuPy or no GPU here, or a GPU the caller does not see)."""
    try:
        import cupy as cp
        return {bus: cp.cuda.runtime.deviceGetByPCIBusId(bus) for bus in buses}
    except Exception:      # noqa: BLE001 - CuPy missing, no driver, a GPU hidden from the caller
        return None


class DeviceCopies:
    """The caller's side: each chunk's batches mapped from the worker's GPU and copied into the
    caller's result rows (MatrixSink, the direct call's path), one copy thread a GPU; released
    on the worker once copied."""

    def __init__(self, kind: str, outs: list, ids: np.ndarray):
        self.kind, self.ids = kind, ids
        self.sink = MatrixSink(outs[0], outs[1] if len(outs) > 1 else None)
        self.pools: dict = {}
        self.pending: list = []       # (future, chunk's key, worker)

    def submit(self, first_row: int, chunk: dict) -> None:
        import cupy as cp
        device = cp.cuda.runtime.deviceGetByPCIBusId(chunk["bus"])
        pool = self.pools.setdefault(device, ThreadPoolExecutor(1, thread_name_prefix=f"curnet-ipc-{device}"))
        self.pending.append((pool.submit(self._copy, device, first_row, chunk["device_blocks"]),
                             chunk["key"], chunk["worker"]))

    def _copy(self, device: int, first_row: int, blocks) -> None:
        import cupy as cp
        from ..backends import get_backend
        be = get_backend(f"cuda:{device}")
        with be.device_scope():
            for first, kb, parts in blocks:
                opened: list = []
                try:
                    for p in parts:
                        if p is None:
                            opened.append(None)
                            continue
                        handle, shape, dtype = p
                        ptr = cp.cuda.runtime.ipcOpenMemHandle(handle)
                        nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
                        mem = cp.cuda.UnownedMemory(ptr, nbytes, owner=None, device_id=device)
                        opened.append((ptr, cp.ndarray(shape, dtype, cp.cuda.MemoryPointer(mem, 0))))
                    arrays = [None if o is None else o[1] for o in opened]
                    result = arrays[0] if self.kind == "bfs" else tuple(arrays)
                    row = first_row + first
                    self.sink.consume(be, row, self.ids[row:row + kb], result)
                    cp.cuda.get_current_stream().synchronize()
                finally:
                    for o in opened:
                        if o is not None:
                            cp.cuda.runtime.ipcCloseMemHandle(o[0])

    def release_done(self, client, wait: bool = False) -> None:
        """Tell the workers which chunks are copied (all of them, waiting, with wait=True); the
        first copy error is raised."""
        still = []
        for future, key, worker in self.pending:
            if wait or future.done():
                try:
                    future.result()
                finally:
                    client.run(release, key, workers=[worker])
            else:
                still.append((future, key, worker))
        self.pending = still

    def close(self, client) -> None:
        """Every copy finished (or abandoned) and every chunk released on its worker."""
        for future, key, worker in self.pending:
            future.exception()
            try:
                client.run(release, key, workers=[worker])
            except Exception:      # noqa: BLE001 - a worker gone: its memory went with it
                pass
        self.pending = []
        for pool in self.pools.values():
            pool.shutdown(wait=True)
