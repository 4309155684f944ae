"""Breadth-first search from many sources at once: one joint traversal per batch,
one bit per source per vertex (64 sources a machine word)."""
from __future__ import annotations

import numpy as np

from ..backends import get_backend
from ..backends.contract import Device, GraphArrays
from ..progress import Progress
from ..sources import resolve_sources
from ..work import tally
from .common import batches_of, over_devices, result_buffer
from .sinks import MatrixSink

OUT_DTYPES = (np.int32, np.int64, np.float32, np.float64)


def bfs(g, sources, *, backend="auto", out=None, unreachable=-1, progress=None):
    """Hop distances from each source: a (len(sources), n) matrix, `unreachable` (-1) where none.

    `out` may be a caller's (k, n) array (int32, int64, float32 or float64, C- or
    Fortran-ordered) to write into; the depths are written there and it is returned.
    """
    be = get_backend(backend)            # a bad backend name is the first error, as before
    ids = resolve_sources(g, sources)
    if out is not None and out.dtype not in OUT_DTYPES:
        raise TypeError(f"out must be int32, int64, float32 or float64, not {out.dtype}")
    out = result_buffer(out, (len(ids), len(g)), np.int32, "the BFS depth matrix", be)
    bfs_blocks(g, ids, MatrixSink(out), backend=backend, unreachable=unreachable, progress=progress)
    return out


def bfs_blocks(g, sources, sink, *, backend="auto", unreachable=-1, progress=None,
               max_depth=None) -> None:
    """The batched traversal: each batch's (n, kb) depth block, `unreachable` where none, is
    filled in `sink.block(...)` and handed to `sink.consume(...)` on the device (see
    `curnet.algorithms.sinks`). With `max_depth`, a joint traversal stops after that many
    levels: vertices farther away may be left `unreachable` (for sinks that look no farther,
    such as ego sizes)."""
    be = get_backend(backend)
    ids = resolve_sources(g, sources)
    n, k = len(g), len(ids)

    def work(dev: Device, row0: int, share: np.ndarray, report) -> None:
        hg = dev.device_graph(g)

        def run(batch):
            first, batch_ids = batch
            row = row0 + first
            # (n, kb): a vertex's sources together
            depth = sink.block(dev, row, batch_ids, (n, len(batch_ids)), np.int32, unreachable)
            traverse(dev, hg, batch_ids, depth, unreachable, max_depth)
            sink.consume(dev, row, batch_ids, depth)
            return len(batch_ids)

        for done in dev.map_batches(run, batches_of(share, dev.bfs_batch_size(n, len(share)))):
            report(done)

    over_devices(be, ids, work, Progress(progress, k, "bfs"))


def traverse(be: Device, hg: GraphArrays, ids, depth, unreachable, max_depth=None) -> None:
    """Fill depth (n, kb) with the BFS levels of each source, `unreachable` where none (and,
    with `max_depth`, possibly beyond that many levels: the joint traversal stops there).

    On the CPU `depth` comes pre-set to `unreachable`; a backend whose output_block does not
    fill (CUDA) writes every entry itself: each path below writes every column."""
    xp = be.xp
    if len(ids) == 1:
        # One source: the backend's own one-source BFS (SciPy's on the CPU, a
        # direction-optimizing frontier traversal on the GPU) beats a one-bit joint traversal.
        tally("bfs one-source runs")
        if unreachable == -1 and depth.dtype == np.int32 and depth.flags.c_contiguous:
            be.bfs_one(hg, int(ids[0]), out=depth[:, 0])   # (n, 1): the column itself, nothing copied
            return
        col = be.bfs_one(hg, int(ids[0]))
        # bfs_one marks unreached vertices -1: the caller's -1 needs no pass of its own
        depth[:, 0] = col if unreachable == -1 else xp.where(col < 0, unreachable, col)
        return
    state = be.bits_start(hg, ids, depth, unreachable)
    level = 0
    while True:
        level += 1
        if level > be.max_joint_levels:
            # A long-diameter graph: finish the batch one source at a time.
            tally("bfs one-source runs", len(ids))
            for j, s in enumerate(ids.tolist()):
                col = be.bfs_one(hg, s)
                depth[:, j] = xp.where(col < 0, unreachable, col)
            return
        tally("bfs joint levels")
        if not be.bits_level(hg, state, depth, level):
            return
        if max_depth is not None and level >= max_depth:
            be.bits_stop(hg, state, depth)
            return
