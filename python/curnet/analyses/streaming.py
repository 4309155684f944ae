"""Many-source results as a stream of host blocks, one a batch, as the batches finish.

    for sources, depths in curnet.bfs_batches(g, range(len(g))):
        ...   # depths: (len(sources), n) int32 on the host; the full matrix never exists

The traversal runs in a producer thread over the drivers' sinks (`bfs_blocks`,
`sssp_blocks`); finished blocks wait in a short queue, so host memory holds at most the
blocks being computed plus `max_pending` finished ones. When the consumer stops early (a
`break`, an exception, `close()`) or is interrupted (Ctrl-C), the producer stops at its next
batch and the generator returns only once no batch is running.
"""
from __future__ import annotations

import queue
import threading

import numpy as np

from ..algorithms.bfs import bfs_blocks
from ..algorithms.sinks import Sink
from ..algorithms.sssp import sssp_blocks
from ..backends import get_backend
from ..progress import Progress
from ..sources import resolve_sources

# How long the consumer and producer wait on the queue before looking at the stop flag again.
POLL_SECONDS = 0.1


class _Stopped(Exception):
    """Raised inside the producer when the consumer has gone away."""


class _QueueSink(Sink):
    """Copies each finished batch to the host and hands it to the consumer's queue (waiting,
    while the queue is full, unless the consumer stopped)."""

    def __init__(self, sources: np.ndarray, results: queue.Queue, stop: threading.Event):
        self.sources, self.results, self.stop = sources, results, stop

    def consume(self, be, first_row, batch_ids, result) -> None:
        if self.stop.is_set():
            raise _Stopped()
        if isinstance(result, tuple):                  # shortest paths: (dist, pred or None)
            dist, pred = result
            block = (be.to_host(dist.T), None if pred is None else be.to_host(pred.T))
        else:
            block = be.to_host(result.T)              # (kb, n): one row a source
        item = (self.sources[first_row:first_row + len(batch_ids)], block)
        while True:
            try:
                self.results.put(item, timeout=POLL_SECONDS)
                return
            except queue.Full:
                if self.stop.is_set():
                    raise _Stopped() from None


def _stream(run, sources, total: int, label: str, progress, max_pending: int):
    """Run `run(sink)` in a producer thread and yield what the sink queues, as it comes."""
    if max_pending < 1:
        raise ValueError(f"max_pending must be at least 1, got {max_pending}")
    results: queue.Queue = queue.Queue(maxsize=max_pending)
    stop = threading.Event()
    done = object()
    failure: list = []

    def produce():
        try:
            run(_QueueSink(sources, results, stop))
        except _Stopped:
            pass
        except BaseException as e:       # handed to the consumer, raised there
            failure.append(e)
        finally:
            while not stop.is_set():
                try:
                    results.put(done, timeout=POLL_SECONDS)
                    break
                except queue.Full:
                    pass

    bar = Progress(progress, total, label)     # advanced in the consumer's thread (R-safe)
    producer = threading.Thread(target=produce, name="curnet-stream", daemon=True)
    producer.start()
    try:
        while True:
            try:
                item = results.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            if item is done:
                break
            yield item
            bar.update(len(item[0]))
        if failure:
            raise failure[0]
    finally:
        stop.set()
        while producer.is_alive():       # drain, so a producer waiting on put sees the flag
            try:
                results.get_nowait()
            except queue.Empty:
                producer.join(POLL_SECONDS)


def bfs_batches(g, sources, *, backend="auto", unreachable=-1, max_pending=2, progress=None):
    """BFS depths from many sources, yielded a batch at a time as ``(source_ids, depths)``.

    Parameters
    ----------
    g : Graph
    sources : vertex ids or names
    backend : str
        As in :func:`curnet.bfs`.
    unreachable : int
        The depth written where a vertex is not reached (-1).
    max_pending : int
        Finished blocks that may wait for the consumer (host memory: about
        ``(max_pending + running batches) * batch * n * 4`` bytes).
    progress : None, bool or callable(done, total)
        Advanced as blocks are yielded, in the consumer's thread.

    Yields
    ------
    source_ids : ndarray of int32, (kb,)
        The batch's sources (vertex ids), in the order of the block's rows.
    depths : ndarray of int32, (kb, n)
        Hop distances; batches come in the order they finish, not necessarily source order.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.generators.path(5)
    >>> for ids, block in curnet.bfs_batches(g, [0, 2], backend="cpu"):
    ...     print(ids.tolist(), block.tolist())
    [0, 2] [[0, 1, 2, 3, 4], [-1, -1, 0, 1, 2]]
    """
    get_backend(backend)
    ids = resolve_sources(g, sources)

    def run(sink):
        bfs_blocks(g, ids, sink, backend=backend, unreachable=unreachable, progress=False)
    return _stream(run, ids, len(ids), "bfs", progress, max_pending)


def sssp_batches(g, sources, *, backend="auto", with_pred=False, max_pending=2, progress=None):
    """Shortest-path distances from many sources, yielded a batch at a time.

    As :func:`bfs_batches`; each item is ``(source_ids, (dist, pred))`` with ``dist``
    (kb, n) in the graph's weight dtype (``inf`` unreachable) and ``pred`` (kb, n) int32
    predecessors (-1 none), or None unless ``with_pred``.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1], [1, 2], [0.5, 2.0])
    >>> [(ids.tolist(), dist.tolist()) for ids, (dist, _) in curnet.sssp_batches(g, [0], backend="cpu")]
    [([0], [[0.0, 0.5, 2.5]])]
    """
    get_backend(backend)
    ids = resolve_sources(g, sources)

    def run(sink):
        sssp_blocks(g, ids, sink, backend=backend, with_pred=with_pred, progress=False)
    return _stream(run, ids, len(ids), "sssp", progress, max_pending)
