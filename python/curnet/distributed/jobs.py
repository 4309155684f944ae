"""One many-source job on a client: the chunks sized to the workers, the graph sent (or named)
once, the chunks submitted, their results handed over in source order or as they arrive, and
the route the rows take to the caller."""
from __future__ import annotations

import logging
import os
import socket
import uuid
from concurrent.futures import CancelledError

import numpy as np

from . import device_gather
from ..backends import BACKENDS, get_backend
from ..errors import BackendUnavailableError
from ..graph import Graph
from ..progress import Progress
from ..sources import resolve_sources
from .cluster import ClusterError, _dask
from .shared_memory import SharedMatrix, sees_file, shared_dir
from .shipping import GraphFile, GraphNotOnWorker, Shipped, on_workers, scattered
from .workers import DEVICE, KINDS, run_chunk, worker_resources

log = logging.getLogger("curnet")

# Chunks per worker thread at least (load balance, and less to re-run when a worker dies) ...
CHUNKS_PER_THREAD = 4
# ... and a chunk's result at most this share of a worker thread's free memory.
MEMORY_SHARE = 0.25
# Times a job sends its graph and unfinished chunks again after the graph was lost: Dask's
# memory manager may keep a single copy of data that no queued task needs, so a broadcast graph
# can go with a worker that held its last copy, and the chunks still to run are cancelled.
RESENDS = 2


def sources_per_chunk(resources: list, k: int, n: int, bytes_per_entry: int, overlap: bool = False,
                      chunks_per_thread: int = CHUNKS_PER_THREAD) -> int:
    """Sources a chunk: at least `chunks_per_thread` chunks for each worker thread (of several), and a chunk's
    result within MEMORY_SHARE of the smallest worker thread's memory (host, and device for a
    GPU worker); a multiple of 64 (one BFS word) where the job allows."""
    threads = sum(r["nthreads"] for r in resources)
    # One worker thread: one chunk (nothing to balance; a GPU then writes whole rows, its
    # fastest copy, where a chunk's rows of a larger matrix are pitched), unless the caller
    # copies each chunk itself (`overlap`: chunk i's copy runs while the worker does i + 1).
    rows = k if threads == 1 and not overlap else -(-k // (chunks_per_thread * threads))
    row_bytes = max(1, n * bytes_per_entry)
    for r in resources:
        memory = r["host"] if r["device"] is None else min(r["host"], r["device"])
        rows = min(rows, int(MEMORY_SHARE * memory / r["nthreads"] / row_bytes))
    if rows < 1:
        raise MemoryError(f"one source's result ({row_bytes / 2**20:.1f} MiB) does not fit in a "
                          "Dask worker's share of memory: give the workers more memory")
    return rows if rows >= k or rows < 64 else rows // 64 * 64


def cut_by_cost(costs: np.ndarray, count: int) -> list:
    """`count` contiguous (first, last) bounds whose costs sum about alike, each chunk starting
    at a source of nonzero cost (the free ones stay with the one before them); none empty."""
    total = np.cumsum(costs)
    if len(total) == 0:
        return [(0, 0)]
    cuts = np.searchsorted(total, total[-1] * np.arange(1, count) / count, side="right")
    edges = np.unique(np.r_[0, cuts, len(costs)])
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:])]


class Job:
    """One many-source job on a client: the graph sent (or named) once, the chunks submitted,
    their results handed over in source order or as they arrive."""

    def __init__(self, client, graph, sources, kind, backend, chunk_size, unreachable=-1,
                 reduction=None, depth_dtype=np.int32):
        self.client, self.kind, self.backend = client, kind, backend
        self.file = graph if isinstance(graph, GraphFile) else None
        self.g = graph.load() if self.file else graph
        if not isinstance(self.g, Graph):
            raise TypeError(f"graph must be a curnet.Graph or a GraphFile, not {type(graph).__name__}")
        if not (isinstance(backend, str) and (backend in BACKENDS or backend.startswith("cuda:"))):
            get_backend(backend)   # raises the usual error; the device itself is checked on the workers
        self.ids = resolve_sources(self.g, sources)
        if reduction is not None:
            self.ids = reduction.order(self.g, self.ids)
        self.unreachable, self.reduction, self.depth_dtype = unreachable, reduction, np.dtype(depth_dtype)
        self.resources = self._ask_workers()
        entry = (0 if kind is None else self.depth_dtype.itemsize if kind == "bfs" else
                 self.g.weight_dtype.itemsize + (4 if kind == "sssp" else 0))
        self.chunk_size, self.entry = chunk_size, entry
        self.size_chunks(overlap=False)
        self.futures = []
        self.route = "network"

    def size_chunks(self, overlap: bool) -> None:
        n, k = len(self.g), len(self.ids)
        if k == 0 and self.reduction is not None:
            self.bounds = [(0, 0)]        # its order() left no source: one empty chunk to combine
            return
        per_thread = getattr(self.reduction, "chunks_per_thread", None) or CHUNKS_PER_THREAD
        rows = self.chunk_size or sources_per_chunk(list(self.resources.values()), k, n, self.entry, overlap,
                                                    per_thread)
        costs = None if self.reduction is None else self.reduction.costs(self.g, self.ids)
        # cut by cost: as many chunks as `rows` makes, to the nearest (rows is 64-aligned for BFS words)
        self.bounds = ([(a, min(a + rows, k)) for a in range(0, k, rows)] if costs is None else
                       cut_by_cost(costs, max(1, round(k / rows))))

    def device_route(self, use) -> bool:
        """Whether the workers keep each chunk on their GPU for the caller to copy (CUDA IPC):
        `use` None (where it can), every worker a process of its own on this host with one GPU
        that the caller sees too. Chunks are then sized so that copies overlap the work."""
        workers = list(self.resources.values())
        if use is not None or self.reduction is not None or self.kind not in KINDS:
            return False
        here = socket.gethostname()
        if not all(r.get("bus") and r["hostname"] == here and r["pid"] != os.getpid() for r in workers):
            return False
        if device_gather.caller_devices({r["bus"] for r in workers}) is None:
            return False
        self.size_chunks(overlap=True)
        self.route = "device memory (CUDA IPC)"
        return True

    def _ask_workers(self) -> dict:
        found = self.client.run(worker_resources, self.backend)
        if not found:
            raise ClusterError(f"the Dask cluster at {self.client.scheduler.address} has no workers")
        broken = {w: r["error"] for w, r in found.items() if "error" in r}
        if broken:
            raise BackendUnavailableError(
                f"backend={self.backend!r} cannot run on {len(broken)} of the {len(found)} Dask "
                "worker(s): " + "; ".join(broken.values()))
        return found

    def shared_results(self, dtypes, use) -> list | None:
        """SharedMatrix results for the job, when `use` allows (None: where it can) and every
        worker runs on this host and sees the memory; else None (rows come over the network).
        `self.route` says which it was."""
        if use is False or self.reduction is not None:
            return None
        here = socket.gethostname()
        shape = (len(self.ids), len(self.g))
        need = sum(int(np.prod(shape, dtype=np.int64)) * np.dtype(d).itemsize for d in dtypes)
        local = all(r["hostname"] == here for r in self.resources.values())
        place = SharedMatrix.where(need) if local else None
        if place is None:
            why = (f"shared memory needs every worker on this host and {need / 2**30:.2f} GiB free "
                   f"in {shared_dir()} or in host memory")
            if use:
                raise ClusterError(f"shared_memory=True, but {why}")
            log.info("curnet.distributed: result rows come over the network: %s", why)
            return None
        mats = [SharedMatrix(shape, d, place) for d in dtypes]
        seen = self.client.run(sees_file, mats[0].path, os.stat(mats[0].path).st_ino)
        if all(seen.values()):
            self.route = f"shared memory ({shared_dir() if place == 'dir' else 'memfd'})"
            return mats
        for m in mats:
            m.unlink()
        if use:
            raise ClusterError("shared_memory=True, but some workers do not see this host's shared memory")
        log.info("curnet.distributed: result rows come over the network: some workers do not see "
                 "this host's shared memory")
        return None

    def submit(self, shared=None):
        """Send the chunks; `shared`: the SharedMatrix results the workers write into, or
        DEVICE (each chunk kept on its worker's GPU for the caller)."""
        self.specs = DEVICE if shared == DEVICE else tuple(m.spec() for m in shared) if shared else None
        self.sent_with: list = [None] * len(self.bounds)    # the broadcast each chunk depends on, if any
        self.lost: set = set()                                # the keys of the graphs lost so far
        self.futures = self._send(range(len(self.bounds)))
        return self

    def _send(self, chunks, with_graph: bool = False) -> list:
        """Submit chunks `chunks` (indices into bounds). A broadcast graph is sent first where it
        is not on the workers (anew if it was lost); the chunks depend on it when it was sent
        just now or `with_graph` (a worker without a copy keeps the one its chunk brings), else
        they carry its name alone (shipping: why)."""
        graph: GraphFile | Shipped
        if self.file is not None:
            graph, sent = self.file, None
        else:
            future, fresh = scattered(self.client, self.g)
            graph, sent = Shipped(future.key), (future if fresh or with_graph else None)
        tag = uuid.uuid4().hex[:8]
        futures = []
        for i in chunks:
            a, b = self.bounds[i]
            self.sent_with[i] = sent
            futures.append(self.client.submit(
                run_chunk, graph, self.kind, self.ids[a:b], (a, b), self.backend, self.unreachable,
                self.depth_dtype, self.reduction, self.specs, sent,
                key=f"curnet-{self.kind or 'measure'}-{tag}-{i}", pure=False, priority=len(self.bounds) - i))
        return futures

    def _resends(self, graph) -> bool:
        """Whether chunks cancelled with broadcast `graph` go again: it is gone from the cluster,
        and fewer than RESENDS graphs were lost before in this job."""
        if graph is None or on_workers(graph):
            return False                  # cancelled for another reason
        if graph.key not in self.lost:
            if len(self.lost) == RESENDS:
                return False
            self.lost.add(graph.key)
            log.warning("curnet.distributed: the graph was lost from the workers (a worker that held "
                        "its last copy is gone); sending it again with the chunks left")
        return True

    def results(self, progress, in_order: bool):
        """(chunk index, result) pairs: as each chunk finishes, or in source order. Ctrl-C (or
        an error) cancels what is left, and the client stays usable."""
        distributed = _dask()
        bar = Progress(progress, len(self.ids), (self.kind or "measure").replace("_", "-"))
        index = {f.key: i for i, f in enumerate(self.futures)}
        waiting, next_i = {}, 0
        try:
            arriving = distributed.as_completed(self.futures, loop=self.client.loop)
            for future in arriving:
                i = index[future.key]
                if self.futures[i] is not future:
                    continue                      # a chunk's first sending, replaced (below)
                try:
                    result = future.result()
                except CancelledError:
                    lost = self.sent_with[i]
                    if not self._resends(lost):
                        raise
                    # this chunk and those sent with it not finished (a finished one cancelled
                    # later arrives here in its turn)
                    again = [j for j, f in enumerate(self.futures) if f is not None and self.sent_with[j] is lost
                             and (j == i or f.status != "finished")]
                    self.client.cancel([self.futures[j] for j in again])
                    for j, f in zip(again, self._send(again)):
                        self.futures[j], index[f.key] = f, j
                        arriving.add(f)
                    continue
                except GraphNotOnWorker:
                    # its worker joined or restarted after the graph was sent: again, with the graph
                    (f,) = self._send([i], with_graph=True)
                    self.futures[i], index[f.key] = f, i
                    arriving.add(f)
                    continue
                self.futures[i] = None    # the worker may drop the chunk once it is here
                a, b = self.bounds[i]
                bar.update(b - a)
                if not in_order:
                    yield i, result
                    continue
                waiting[i] = result
                while next_i in waiting:
                    yield next_i, waiting.pop(next_i)
                    next_i += 1
        except BaseException:
            self.client.cancel(self.futures)
            raise
        finally:
            self.futures = []
