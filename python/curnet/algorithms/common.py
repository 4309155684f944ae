"""What the many-source drivers share: result buffers, batching, and the split of a job's
sources over several GPUs."""
from __future__ import annotations

import math
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

import numpy as np

from ..backends.contract import Backend, Device
from ..memory import check_fits


def result_buffer(out, shape: tuple, dtype, what: str, be: Backend | None = None) -> np.ndarray:
    """The caller's `out` (checked) or a new array (`be.host_result`: pinned where a GPU's
    result is small). New arrays are Fortran-ordered: each vertex's sources are adjacent, the
    layout the traversals write and R's matrix layout."""
    if out is None:
        check_fits(math.prod(shape) * np.dtype(dtype).itemsize, what)
        if be is not None:
            return be.host_result(shape, dtype)
        return np.empty(shape, dtype=dtype, order="F")
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a NumPy array, got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"out has shape {out.shape}, but {what} is {shape}")
    if not (out.flags.c_contiguous or out.flags.f_contiguous or is_row_block(out)) or not out.flags.writeable:
        raise ValueError("out must be a writable, contiguous array (or a block of rows of a "
                         "Fortran-ordered one)")
    return out


def is_row_block(a: np.ndarray) -> bool:
    """A block of whole rows of a larger Fortran-ordered matrix (a Dask worker's share of the
    caller's shared result): each vertex's sources adjacent, the layout the batches write."""
    return a.ndim == 2 and a.strides[0] == a.itemsize and a.strides[1] >= a.shape[0] * a.itemsize


def batches_of(sources: np.ndarray, size: int) -> list:
    """(first row, ids) pieces of `sources`, `size` at a time."""
    return [(i, sources[i:i + size]) for i in range(0, len(sources), size)]


def primary(be: Backend) -> Device:
    """The backend that runs whole-graph work (SCC): the first GPU of a multi-GPU backend."""
    return be.members[0]


class _Stopped(Exception):
    """Raised inside a share's thread when another share failed or the caller interrupted."""


# While several GPUs' threads run, each hands the interpreter lock over after this many
# seconds (Python's default 0.005): a thread back from a device sync (a level's count, a
# batch's deepest level) waits for the lock to queue its next kernels, and its GPU idles
# meanwhile. R-MAT 20 betweenness from 65,536 sources on two H200s: 4.47 / 4.25 s at 0.005,
# 3.92 / 4.27 s at 0.0002, 3.92 / 3.92 s at 0.00005; one GPU 6.62 s
# (betweenness_switch_interval_h200x2.txt). None: Python's own.
SWITCH_INTERVAL: float | None = 0.00005
_switching = threading.Lock()
_switch_state = {"jobs": 0, "before": 0.005}     # multi-GPU jobs running; Python's interval before


@contextmanager
def frequent_switches():
    """SWITCH_INTERVAL while a multi-GPU job runs; Python's own again once the last job that
    runs at the same time (threads of a Dask worker, say) ends."""
    with _switching:
        if _switch_state["jobs"] == 0:
            _switch_state["before"] = sys.getswitchinterval()
            if SWITCH_INTERVAL is not None:
                sys.setswitchinterval(min(_switch_state["before"], SWITCH_INTERVAL))
        _switch_state["jobs"] += 1
    try:
        yield
    finally:
        with _switching:
            _switch_state["jobs"] -= 1
            if _switch_state["jobs"] == 0:
                sys.setswitchinterval(_switch_state["before"])

# Pieces over PIECE_ALIGN sources are cut at its multiples (two sources for each of a warp's 32
# lanes): each batch a piece becomes then has an even width, which the path counts' pull reads
# two sources a lane (LANE_SOURCES), and the pieces' blocks keep one size. R-MAT 20 exact on two
# H200s in pieces of 4,086 and 4,087 sources: 13% more GPU time a source than one GPU's batches
# of 4,096, and a few batches twice as long while the other GPU ran (not when the two took
# turns); in pieces of 4,096: 27.06 s against one GPU's 52.13, 1.93x
# (betweenness_two_gpus_diagnosis_h200x2.txt, betweenness_rmat20_exact_two_gpus_aligned_h200x2.txt).
PIECE_ALIGN = 64


def piece_width(k: int, devices: int, piece_size: int | None) -> int:
    """Sources a piece of over_devices' split of k sources over `devices`: as many pieces as
    a multiple of the devices, each at most piece_size (None: one piece a device), the
    width rounded up to a multiple of PIECE_ALIGN past it (at most piece_size still)."""
    rounds = 1 if piece_size is None else -(-k // (devices * max(1, piece_size)))
    width = max(1, -(-k // (devices * rounds)))
    if width > PIECE_ALIGN:
        width = -(-width // PIECE_ALIGN) * PIECE_ALIGN
    return width if piece_size is None else max(1, min(width, piece_size))


# A list here (set by a benchmark) receives (GPU index, first row, sources, start, end) for each
# piece over_devices runs on several GPUs, times in time.perf_counter() seconds.
PIECE_LOG: list | None = None


def over_devices(be: Backend, ids: np.ndarray, work: Callable[[Device, int, np.ndarray, Callable], None],
                 bar, piece_size: int | None = None) -> None:
    """work(member, first_row, share_ids, report) over the GPUs of `be`, each GPU in its own
    thread (every GPU holds the whole graph), or the whole job on the one device. The sources
    are cut into contiguous pieces (piece_width), and each GPU's thread takes the next piece
    when done with its last. piece_size None: one piece a GPU, where every source costs alike
    (the batches stay as wide as possible). Else pieces of at most piece_size sources (a
    batch): where costs differ from piece to piece (betweenness over sources in breadth-first
    order) a GPU that ends early takes work instead of waiting, and no piece leaves a
    part-filled batch behind (a batch costs nearly alike at 3,774 and 4,096 sources on an
    H200). report(done) after each batch; the progress bar (which may be an R
    callback) is only ever advanced from the calling thread. An error in one piece, or an
    interrupt, stops the others at their next batch; no piece is running when this returns
    or raises."""
    members = be.members
    if len(members) == 1 or len(ids) < 2:
        with members[0].device_scope():
            work(members[0], 0, ids, bar.update)
        return
    lock, stop = threading.Lock(), threading.Event()
    pending = [0]

    def report(done):
        if stop.is_set():
            raise _Stopped()
        with lock:
            pending[0] += done

    width = piece_width(len(ids), len(members), piece_size)
    pieces = iter([(a, ids[a:a + width]) for a in range(0, len(ids), width)])

    def share(member):
        with member.device_scope():
            while not stop.is_set():
                with lock:
                    piece = next(pieces, None)
                if piece is None:
                    return
                start = time.perf_counter()
                work(member, piece[0], piece[1], report)
                if PIECE_LOG is not None:
                    PIECE_LOG.append((members.index(member), piece[0], len(piece[1]), start, time.perf_counter()))

    def drain():
        with lock:
            done, pending[0] = pending[0], 0
        if done:
            bar.update(done)

    with frequent_switches():
        pool = ThreadPoolExecutor(len(members), thread_name_prefix="curnet-gpu")
        futures = [pool.submit(share, m) for m in members]
        try:
            while True:
                done, running = wait(futures, timeout=0.2, return_when=FIRST_EXCEPTION)
                drain()
                for f in done:
                    f.result()                     # the first error is raised here
                if not running:
                    return
        finally:
            stop.set()
            pool.shutdown(wait=True)


def weak_component_labels(g) -> np.ndarray:
    """(n,) int32: each vertex's weak component (arcs taken both ways) in graph g, numbered in
    order of their smallest vertex, as SciPy's connected_components numbers them, in NumPy: a
    first betweenness then imports no SciPy csgraph (~0.1 s, which imports scipy.linalg)."""
    return hooked_labels(len(g), g.edge_sources(), g.indices)[0]


def hooked_labels(n: int, tails: np.ndarray, heads: np.ndarray) -> tuple[np.ndarray, int]:
    """(labels, rounds) of weak_component_labels over the arcs tails -> heads. Each round hooks
    every root to the smallest root across its arcs (always a smaller id, so no cycles), then
    jumps pointers to the roots; a component's root ends as its smallest vertex. The smallest,
    not any: with any one write, a hub whose id is above its many leaves' took one leaf a
    round (a star of 16,000 leaves: 3.8 s); with the smallest it takes two rounds."""
    parent = np.arange(n, dtype=np.int32)       # the graph's ids are int32
    rounds = 0
    while len(tails):
        a, b = parent[tails], parent[heads]        # roots: parent is fully compressed here
        apart = a != b                              # arcs inside one tree stay so: dropped
        tails, heads, a, b = tails[apart], heads[apart], a[apart], b[apart]
        if not len(tails):
            break
        rounds += 1
        np.minimum.at(parent, np.maximum(a, b), np.minimum(a, b))
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up
    root = parent == np.arange(n, dtype=np.int32)
    return (np.cumsum(root, dtype=np.int32) - 1)[parent], rounds

