"""The host's half of a staged device -> host copy (backends/staging.py), with a NumPy
stand-in for the DMA: chunks of whole rows land in a batch's rows of a larger matrix, and no
buffer is refilled while its rows are still being copied out. The GPU runs the same code
with an async memcpy (test_gpu.py: test_staged_copy, test_split_on_one_gpu)."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from curnet.backends.staging import byte_rows, chunk_rows, copy_through, thread_parts


def stage_copy(src: np.ndarray, dst: np.ndarray, chunk: int, buffers: int, threads: int, delay=0.0):
    """copy_through with a 'DMA' that lands later on a thread of its own (as a GPU's does)."""
    rows = byte_rows(dst)
    assert rows is not None
    flat = np.ascontiguousarray(src).reshape(-1).view(np.uint8)
    row_bytes = rows.shape[1]
    bufs = [np.zeros(chunk, np.uint8) for _ in range(buffers)]
    busy = [threading.Lock() for _ in bufs]          # held while a buffer is being filled
    dma = ThreadPoolExecutor(1)
    landed = [None] * buffers

    def start(b, first, count):
        assert busy[b].acquire(blocking=False), "a buffer was refilled while being filled"

        def move():
            time.sleep(delay)
            bufs[b][:count * row_bytes] = flat[first * row_bytes:(first + count) * row_bytes]
            busy[b].release()
        landed[b] = dma.submit(move)

    with ThreadPoolExecutor(threads) as pool:
        copy_through(rows, bufs, start, lambda b: landed[b].result(), pool, threads)
    dma.shutdown()


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.int8])
def test_rows_of_a_larger_matrix(dtype):
    rng = np.random.default_rng(3)
    k, n, first, kb = 300, 1001, 77, 150
    big = np.full((k, n), 7, dtype=dtype, order="F")           # the caller's result
    block = rng.integers(-100, 100, (n, kb)).astype(dtype)      # a batch, as a traversal writes it
    view = big[first:first + kb].T                              # (n, kb): rows contiguous, pitched
    assert not view.flags.c_contiguous and byte_rows(view).shape == (n, kb * np.dtype(dtype).itemsize)
    stage_copy(block, view, chunk=5000, buffers=3, threads=4, delay=0.001)
    assert np.array_equal(big[first:first + kb], block.T)
    assert (big[:first] == 7).all() and (big[first + kb:] == 7).all()


def test_contiguous_destination():
    rng = np.random.default_rng(4)
    src = rng.integers(0, 2**31 - 1, (333, 217), dtype=np.int32)
    dst = np.zeros_like(src)
    stage_copy(src, dst, chunk=4096 * 3 + 12, buffers=2, threads=3)
    assert np.array_equal(dst, src)


@settings(max_examples=60, deadline=None)
@given(nrows=st.integers(0, 400), row_bytes=st.integers(1, 5000), chunk=st.integers(1, 20000),
       threads=st.integers(1, 9))
def test_chunks_and_thread_parts_cover_each_row_once(nrows, row_bytes, chunk, threads):
    seen = np.zeros(nrows, np.int64)
    for first, count in chunk_rows(nrows, row_bytes, chunk):
        assert count >= 1 and (count * row_bytes <= chunk or count == 1)
        covered = np.zeros(count, np.int64)
        for a, size in thread_parts(count, row_bytes, threads):
            assert size >= 1
            covered[a:a + size] += 1
        assert (covered == 1).all()
        seen[first:first + count] += 1
    assert (seen == 1).all()


def test_layouts_without_contiguous_rows_are_refused():
    a = np.zeros((50, 40), np.int32, order="F")
    assert byte_rows(a[::2]) is None                             # rows not contiguous
    assert byte_rows(a) is None                                  # F-ordered: its rows are not
    assert byte_rows(a.T).shape == (8000, 1)                     # its transpose is C: bytes
    assert byte_rows(a[10:30].T).shape == (40, 80)               # a block of its rows, pitched
