"""The host's half of a staged device -> host copy, free of CuPy so the CPU tests run it.

A result leaves the GPU through a ring of pinned buffers: the transfer of chunk c + 1 into
one buffer overlaps the host threads' copy of chunk c from another into the caller's
memory. Chunks are whole rows of the destination, so the destination may be a batch's rows
of a larger matrix (rows contiguous, any pitch between them): each GPU's share of a job
lands straight in its rows of the caller's matrix, with no temporary host copy.
`backends/cuda/transfers.py` supplies the transfer (an async memcpy and an event)."""
from __future__ import annotations

import numpy as np


def byte_rows(a: np.ndarray) -> np.ndarray | None:
    """a's bytes as a 2-D (rows, row bytes) uint8 view with contiguous rows: one byte a row
    when a is C-contiguous, else a's own rows when a is 2-D with contiguous rows (a (n, kb)
    view of a batch's rows of a Fortran-ordered (k, n) matrix); None otherwise."""
    if a.flags.c_contiguous:
        return a.reshape(-1).view(np.uint8).reshape(-1, 1)
    if a.ndim == 2 and a.strides[1] == a.itemsize and a.strides[0] >= a.shape[1] * a.itemsize:
        return a.view(np.uint8)
    return None


def chunk_rows(nrows: int, row_bytes: int, chunk: int) -> list:
    """(first row, rows) of each chunk: whole rows, at most `chunk` bytes (at least one row)."""
    per = max(1, chunk // max(1, row_bytes))
    return [(r, min(per, nrows - r)) for r in range(0, nrows, per)]


def thread_parts(count: int, row_bytes: int, threads: int) -> list:
    """(first row, rows) of each host thread's share of a chunk's `count` rows; small rows
    are grouped into whole pages of the buffer."""
    align = max(1, 4096 // max(1, row_bytes))
    step = -(-count // max(1, threads))
    step = -(-step // align) * align
    return [(a, min(step, count - a)) for a in range(0, count, step)]


def copy_through(rows: np.ndarray, bufs: list, start, wait, pool, threads: int) -> None:
    """Fill `rows` ((rows, row bytes) uint8, see byte_rows) through the buffers `bufs` (uint8,
    each at least one chunk): start(b, first_row, count) begins moving the source's rows into
    bufs[b] (asynchronously), wait(b) returns once that move has landed. A buffer is reused
    only after the host copies out of it have finished."""
    row_bytes = rows.shape[1]
    chunks = chunk_rows(len(rows), row_bytes, len(bufs[0]))
    pending: list[list] = [[] for _ in bufs]   # buffer b's host copies still running

    def issue(c):
        b = c % len(bufs)
        for f in pending[b]:
            f.result()
        pending[b] = []
        start(b, *chunks[c])

    try:
        for c in range(min(len(bufs) - 1, len(chunks))):
            issue(c)
        for c, (r0, count) in enumerate(chunks):
            b = c % len(bufs)
            wait(b)
            staged = bufs[b][:count * row_bytes].reshape(count, row_bytes)
            pending[b] = [pool.submit(np.copyto, rows[r0 + a:r0 + a + size], staged[a:a + size])
                          for a, size in thread_parts(count, row_bytes, threads)]
            if c + len(bufs) - 1 < len(chunks):
                issue(c + len(bufs) - 1)
    finally:
        for fs in pending:                 # nothing may write into the caller's array later
            for f in fs:
                f.exception()
    for fs in pending:
        for f in fs:
            f.result()
