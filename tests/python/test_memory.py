"""memory.prefaulted: a fresh result's pages mapped by background threads, no byte changed."""
import ctypes
import mmap

import numpy as np
import pytest

from curnet import memory


def resident_share(a: np.ndarray) -> float:
    """The share of a's whole pages in memory (mincore)."""
    libc = ctypes.CDLL(None, use_errno=True)
    page = mmap.PAGESIZE
    start = -(-a.ctypes.data // page) * page
    end = (a.ctypes.data + a.nbytes) // page * page
    pages = (end - start) // page
    vec = (ctypes.c_ubyte * pages)()
    assert libc.mincore(ctypes.c_void_p(start), ctypes.c_size_t(end - start), vec) == 0
    return float(np.frombuffer(vec, np.uint8).astype(bool).mean())


def kernel_populates() -> bool:
    """Whether this kernel takes MADV_POPULATE_WRITE (Linux 5.14+), asked of a fresh mapping."""
    m = mmap.mmap(-1, 1 << 20)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
    ok = memory._madvise()(addr, 1 << 20, memory._MADV_POPULATE_WRITE) == 0
    return ok


def test_prefaulted_maps_the_pages_and_keeps_every_value(monkeypatch):
    monkeypatch.setattr(memory, "PREFAULT_MIN_BYTES", 1 << 20)
    a = np.empty(96 << 20, np.uint8)                   # fresh: not yet in memory
    before = resident_share(a)
    a[:4096 * 3] = 5                                   # written before the threads start
    with memory.prefaulted(a):
        a[-4096 * 3:] = 9                              # written while they run
    assert (a[:4096 * 3] == 5).all() and (a[-4096 * 3:] == 9).all()
    if not kernel_populates():
        pytest.skip("this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)")
    if before > 0.5:
        pytest.skip("the allocator handed out memory already in use")
    assert resident_share(a) > 0.9


def test_prefaulted_leaves_small_arrays_and_none_alone(monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "_madvise", lambda: calls.append(1))
    with memory.prefaulted(None):
        pass
    with memory.prefaulted(np.empty(1000)):
        pass
    monkeypatch.setattr(memory, "PREFAULT_THREADS", 0)
    with memory.prefaulted(np.empty(memory.PREFAULT_MIN_BYTES // 8 + 1)):
        pass
    assert calls == []
