"""Host memory: how much is available, and refusing what cannot fit before allocating it.
A leaf module (errors only), so that the graph, the drivers and the backends can all use it."""
from __future__ import annotations

import ctypes
import mmap
import os
import threading
from contextlib import contextmanager

import numpy as np

from .errors import OutputTooLargeError


def available_host_memory() -> int:
    """Bytes of host memory available now (MemAvailable), or a large number if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 1 << 62


def check_fits(nbytes: int, what: str,
               hint: str = "use fewer sources per call (or write results in pieces)") -> None:
    """Refuse, before allocating, something that cannot fit in host memory."""
    free = available_host_memory()
    if nbytes > free:
        raise OutputTooLargeError(
            f"{what} needs {nbytes / 2**30:.2f} GiB of host memory, but only {free / 2**30:.2f} GiB "
            f"is available: {hint}")


# -- fresh results mapped while a GPU computes them -------------------------------------------

PREFAULT_THREADS = min(16, os.cpu_count() or 1)   # 0: off
PREFAULT_MIN_BYTES = 256 << 20
_MADV_POPULATE_WRITE = 23                          # Linux 5.14+
_PIECE = 64 << 20


def _madvise():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.madvise
        fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        return fn
    except (OSError, AttributeError):
        return None


@contextmanager
def prefaulted(a: np.ndarray | None):
    """While the block runs, background threads map the pages of `a`, a fresh result that a GPU
    is about to fill (madvise MADV_POPULATE_WRITE: the page tables filled as a write would fill
    them, no byte written, so it is safe beside the copies that write the results). The
    device-to-host copies then write into mapped memory instead of taking the first-touch
    faults themselves, on the few staging threads: two GPUs writing a fresh 16 GiB result were
    bound by those faults (docs/gpu-notes.md). Nothing happens for small or None arrays, with
    PREFAULT_THREADS = 0, or where the kernel lacks the call."""
    madvise = _madvise() if a is not None and a.nbytes >= PREFAULT_MIN_BYTES and PREFAULT_THREADS else None
    if madvise is None:
        yield
        return
    page = mmap.PAGESIZE
    start = -(-a.ctypes.data // page) * page               # whole pages inside the array
    end = (a.ctypes.data + a.nbytes) // page * page
    pieces = [(p, min(_PIECE, end - p)) for p in range(start, end, _PIECE)]
    stop = threading.Event()

    def work(part):
        for addr, size in part:
            if stop.is_set() or madvise(addr, size, _MADV_POPULATE_WRITE) != 0:
                return                                         # EINVAL: an older kernel

    threads = [threading.Thread(target=work, args=(pieces[i::PREFAULT_THREADS],), daemon=True,
                                name="curnet-prefault") for i in range(min(PREFAULT_THREADS, len(pieces)))]
    for t in threads:
        t.start()
    try:
        yield
    finally:
        stop.set()
        for t in threads:
            t.join()
