"""Many-source jobs on a Dask cluster: each worker holds the graph, takes chunks of the sources.

    from curnet import distributed
    cluster = distributed.local_cluster(workers=2)             # or "tcp://host:8786", a Client
    depths = distributed.bfs(g, sources, cluster=cluster)      # (k, n), as curnet.bfs
    distributed.to_parquet(g, sources, "depths.parquet", cluster=cluster)
    ecc = distributed.reduce(g, sources, distributed.per_source("bfs", eccentricity), cluster=cluster)

The work is split across sources only; every worker holds the whole graph, sent once (a
broadcast, reused by later jobs on the same Graph), or read by each worker from the same file
(`GraphFile`). Chunks are sized to the
smallest worker's memory (its device memory on GPU workers, asked of the worker). A chunk
whose worker dies is re-run on another one by the scheduler (the chunks are pure), so the
result is complete and identical. Needs the `[dask]` extra (dask, distributed; dask-cuda for
one worker per GPU).
"""
from __future__ import annotations

import logging
import mmap
import os
import socket
import threading
import uuid
import weakref

import numpy as np

from . import device_gather
from .algorithms import bfs as bfs_driver, sssp as sssp_driver
from .algorithms.common import result_buffer
from .memory import available_host_memory
from .outputs import long_columns
from .algorithms.bfs import OUT_DTYPES
from .backends import BACKENDS, get_backend
from .errors import BackendUnavailableError
from .graph import Graph
from .progress import Progress
from .sources import resolve_sources

log = logging.getLogger("curnet")

KINDS = ("bfs", "sssp", "sssp_dists")
DEVICE = "device"      # a job's result route: kept on the workers' GPUs, copied by the caller

# Chunks per worker thread at least (load balance, and less to re-run when a worker dies) ...
CHUNKS_PER_THREAD = 4
# ... and a chunk's result at most this share of a worker thread's free memory.
MEMORY_SHARE = 0.25


class ClusterError(RuntimeError):
    """No Dask cluster could be used: none given, or its scheduler cannot be reached."""


def _dask():
    try:
        import distributed
    except ImportError:
        raise ImportError("curnet.distributed needs Dask: pip install 'curnet[dask]' "
                          "(dask and distributed)") from None
    return distributed


# -- clusters --------------------------------------------------------------------------------

def local_cluster(workers: int | None = None, *, gpu: bool = False, threads_per_worker: int = 1,
                  **kwargs):
    """Start a Dask cluster on this machine: `workers` CPU worker processes (LocalCluster), or
    with gpu=True one worker per GPU (dask-cuda's LocalCUDACluster; `workers` GPUs at most).
    Extra keyword arguments go to the cluster class. Close it with .close() when done."""
    distributed = _dask()
    if gpu:
        try:
            from dask_cuda import LocalCUDACluster
        except ImportError:
            raise BackendUnavailableError(
                "a cluster of GPU workers needs dask-cuda (one worker per GPU): "
                "pip install dask-cuda, or use gpu=False for CPU workers") from None
        if workers is not None:
            kwargs.setdefault("n_workers", workers)
        return LocalCUDACluster(threads_per_worker=threads_per_worker, **kwargs)
    kwargs.setdefault("processes", True)
    return distributed.LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                    threads_per_worker=threads_per_worker, **kwargs)


_clients: dict = {}


def connect(cluster=None, *, timeout: float = 30):
    """A distributed.Client for `cluster`: a Client (used as is), a cluster object
    (LocalCluster, LocalCUDACluster), a scheduler address such as "tcp://host:8786", or None
    for the current default client. An address is connected to once and the client reused;
    an unreachable one raises ClusterError after `timeout` seconds."""
    distributed = _dask()
    if isinstance(cluster, distributed.Client):
        return cluster
    if cluster is None:
        try:
            return distributed.default_client()
        except ValueError:
            raise ClusterError("no Dask cluster: pass cluster= a scheduler address "
                               "('tcp://host:8786'), a distributed.Client, or a cluster from "
                               "curnet.distributed.local_cluster()") from None
    if isinstance(cluster, str):
        client = _clients.get(cluster)
        if client is not None and client.status == "running":
            return client
        try:
            client = distributed.Client(cluster, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {cluster!r} within {timeout:g} s "
                               f"({type(e).__name__}: {e}); is `dask scheduler` running there, "
                               "and the port open?") from None
        _clients[cluster] = client
        return client
    if hasattr(cluster, "scheduler_address"):
        key = cluster.scheduler_address
        client = _clients.get(key)
        if client is None or client.status != "running":
            client = _clients[key] = distributed.Client(cluster, set_as_default=False)
        return client
    raise TypeError("cluster must be a distributed.Client, a cluster object or a scheduler "
                    f"address string, not {type(cluster).__name__}")


# -- the graph on the workers ---------------------------------------------------------------

class GraphFile:
    """A graph every worker reads itself from the same path (a shared file system, or the
    same file on every host), instead of receiving it from the caller. `read_kwargs` go to
    curnet.read_graph. The caller reads it too (for the vertex count, names and sources)."""

    def __init__(self, path, **read_kwargs):
        self.path = os.path.abspath(os.fspath(path))   # the caller's path, the same on every host
        self.read_kwargs = read_kwargs
        self._graph = None

    def key(self):
        return (self.path, tuple(sorted((k, repr(v)) for k, v in self.read_kwargs.items())))

    def load(self) -> Graph:
        if self._graph is None:
            from .io import read_graph
            self._graph = read_graph(self.path, **self.read_kwargs)
        return self._graph

    def __getstate__(self):
        return {"path": self.path, "read_kwargs": self.read_kwargs, "_graph": None}


_worker_graphs: dict = {}
_worker_lock = threading.Lock()


def _worker_graph(graph) -> Graph:
    """The graph on a worker: the broadcast one, or the file read once per worker process."""
    if isinstance(graph, Graph):
        return graph
    with _worker_lock:
        g = _worker_graphs.get(graph.key())
        if g is None:
            g = _worker_graphs[graph.key()] = graph.load()
        return g


def _bare(g: Graph) -> Graph:
    """The graph's arrays only (no device copies or caches) to send to the workers; the arcs'
    edge ids too (edge betweenness speaks of the caller's edges)."""
    return Graph(g.indptr, g.indices, g.weights, directed=g.directed, names=g.names,
                 num_edges=g.num_edges, arc_edges=g.arc_edges)


def _describe(worker) -> str:
    return f"{worker.address} (host {worker.ip}, pid {os.getpid()})"


def _worker_backend(backend: str, worker):
    try:
        return get_backend(backend)
    except (BackendUnavailableError, ValueError) as e:   # no GPU; no such GPU ("cuda:7")
        raise BackendUnavailableError(f"Dask worker {_describe(worker)}: {e}") from None


def _worker_resources(backend: str, dask_worker=None) -> dict:
    """What a worker offers (client.run on each worker before a job): its backend, or the
    reason it has none, and the memory a chunk may use."""
    try:
        be = _worker_backend(backend, dask_worker)
    except BackendUnavailableError as e:
        return {"error": str(e)}
    host = available_host_memory()
    limit = dask_worker.memory_manager.memory_limit
    if limit:
        host = min(host, int(limit))
    device = bus = None
    if be.name.startswith("cuda"):
        import cupy
        device = int(cupy.cuda.runtime.memGetInfo()[0])
        bus = device_gather.worker_bus() if len(be.members) == 1 else None   # one GPU a worker
    return {"backend": be.name, "host": host, "device": device, "nthreads": dask_worker.state.nthreads,
            "hostname": socket.gethostname(), "bus": bus, "pid": os.getpid()}


def _chunk(graph, kind: str, ids: np.ndarray, rows, backend: str, unreachable, depth_dtype, reduction,
           shared):
    """One chunk of sources on a worker: its result rows (returned, written into the
    caller's SharedMatrix specs `shared` at `rows`, or with shared == DEVICE kept on the GPU
    for the caller to copy), or its reduction's partial."""
    from distributed import get_worker
    g = _worker_graph(graph)
    _worker_backend(backend, get_worker())   # a worker that joined after the job's check
    if reduction is not None and reduction.kind is None:
        return reduction.chunk(g, ids, backend)      # it runs its own traversal
    if shared == DEVICE:
        if kind == "bfs":
            return device_gather.keep_on_device(lambda sink: bfs_driver.bfs_blocks(
                g, ids, sink, backend=backend, unreachable=unreachable, progress=False))
        return device_gather.keep_on_device(lambda sink: sssp_driver.sssp_blocks(
            g, ids, sink, backend=backend, with_pred=kind == "sssp", progress=False))
    a, b = rows
    outs = [SharedMatrix.open(spec)[a:b] for spec in shared] if shared else [None, None]
    if kind == "bfs":
        depth = outs[0] if shared else np.empty((len(ids), len(g)), dtype=depth_dtype, order="F")
        values, pred = bfs_driver.bfs(g, ids, backend=backend, out=depth, unreachable=unreachable,
                                      progress=False), None
    elif kind == "sssp":
        values, pred = sssp_driver.sssp(g, ids, backend=backend, out_dist=outs[0], out_pred=outs[1],
                                       progress=False)
    else:
        values, pred = sssp_driver.sssp_dists(g, ids, backend=backend, out=outs[0], progress=False), None
    if reduction is not None:
        return reduction.chunk(g, ids, (values, pred) if kind == "sssp" else values)
    return None if shared else (values, pred)


# -- reductions on the workers --------------------------------------------------------------

class Reduction:
    """A many-source result reduced on the workers, so the (k, n) matrix never travels.

    `kind` is the traversal ("bfs", "sssp" or "sssp_dists"); `chunk(g, ids, values)` runs on a
    worker with a chunk's (len(ids), n) result (for "sssp" a (dist, pred) pair) and returns a
    small picklable partial; `combine(partials)` runs in the caller with every chunk's
    partial, in source order, and returns the answer. With kind None the reduction runs its
    own traversal: `chunk(g, ids, backend)` (a measure reduced on the device as it goes)."""

    kind = "bfs"

    def chunk(self, g, ids, values):
        raise NotImplementedError

    def combine(self, partials):
        raise NotImplementedError


class per_source(Reduction):
    """A reduction that gives each source its own value(s): func(g, ids, values) returns an
    array whose first axis is the chunk's sources; the chunks are joined in source order.
    E.g. eccentricity: per_source("bfs", lambda g, ids, d: np.where(d >= 0, d, 0).max(axis=1))."""

    def __init__(self, kind: str, func):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        self.kind, self.func = kind, func

    def chunk(self, g, ids, values):
        out = np.asarray(self.func(g, ids, values))
        if out.shape[:1] != (len(ids),):
            raise ValueError(f"a per-source reduction must give one row a source: {len(ids)} "
                             f"sources, got shape {out.shape}")
        return out

    def combine(self, partials):
        return np.concatenate(partials)


class per_vertex(Reduction):
    """A per-vertex score that runs its own traversal on the workers, a chunk of the vertices
    each: func(g, ids, backend) returns one value (row) an id; joined in vertex order."""

    kind = None

    def __init__(self, func):
        self.func = func

    def chunk(self, g, ids, backend):
        return np.asarray(self.func(g, ids, backend))

    def combine(self, partials):
        return np.concatenate(partials)


class measure(per_vertex):
    """A per-vertex measure of curnet.measures (closeness, harmonic_centrality, eccentricity,
    ego_size), each worker reducing its chunk of the vertices on its device as it goes;
    `kwargs` go to the measure (mode, cutoff, weighted, ...).
    E.g. reduce(g, None, measure("closeness", mode="out"), cluster=...)."""

    PER_VERTEX = ("closeness", "harmonic_centrality", "eccentricity", "ego_size")

    def __init__(self, name: str, **kwargs):
        if name not in self.PER_VERTEX:
            raise ValueError(f"measure must be one of {', '.join(self.PER_VERTEX)}, got {name!r}")
        self.name, self.kwargs = name, kwargs
        super().__init__(self._run)

    def _run(self, g, ids, backend):
        from . import measures
        return getattr(measures, self.name)(g, ids, backend=backend, progress=False, **self.kwargs)


# -- results in shared memory ---------------------------------------------------------------

SHARED_DIR = os.environ.get("CURNET_SHARED_DIR", "/dev/shm")   # a tmpfs the workers of this host see


class SharedMatrix:
    """A (k, n) Fortran-ordered result in shared memory that workers on the caller's host map
    and write their rows into, so the rows never go through a socket. It is a file in
    SHARED_DIR when that has room, else an anonymous memory file (Linux memfd) that the
    workers open through /proc/<caller>/fd/: a container's /dev/shm is often 64 MiB, far
    short of a large result, while the memory itself is there."""

    def __init__(self, shape, dtype, place: str):
        self.shape, self.dtype = tuple(int(x) for x in shape), np.dtype(dtype)
        nbytes = max(1, int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize)
        self.fd = None
        if place == "memfd":
            self.fd = os.memfd_create("curnet-result")
            os.ftruncate(self.fd, nbytes)
            self.path = f"/proc/{os.getpid()}/fd/{self.fd}"
        else:
            self.path = os.path.join(SHARED_DIR, f"curnet-{uuid.uuid4().hex}.bin")
            with open(self.path, "wb") as f:
                f.truncate(nbytes)
        self.array = self.open(self.spec())

    def spec(self):
        return self.path, self.dtype.str, self.shape

    @staticmethod
    def open(spec) -> np.ndarray:
        """The whole matrix, mapped (shared) into this process."""
        path, dtype, shape = spec
        with open(path, "r+b") as f:
            mapping = mmap.mmap(f.fileno(), 0)
        return np.ndarray(tuple(shape), dtype=np.dtype(dtype), buffer=mapping, order="F")

    def unlink(self):
        """Remove the file (close the memory file); the caller's mapping (self.array) stays valid."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            return
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    @staticmethod
    def where(nbytes: int) -> str | None:
        """Where `nbytes` of results fit: "dir" (SHARED_DIR), "memfd", or None."""
        try:
            st = os.statvfs(SHARED_DIR)
            if st.f_bavail * st.f_frsize >= nbytes:
                return "dir"
        except OSError:
            pass
        if hasattr(os, "memfd_create") and available_host_memory() >= nbytes:
            return "memfd"
        return None


def _sees_file(path, inode, dask_worker=None) -> bool:
    try:
        return os.stat(path).st_ino == inode
    except OSError:
        return False


# -- jobs ------------------------------------------------------------------------------------

def sources_per_chunk(resources: list, k: int, n: int, bytes_per_entry: int, overlap: bool = False) -> int:
    """Sources a chunk: at least CHUNKS_PER_THREAD chunks for each worker thread (of several), and a chunk's
    result within MEMORY_SHARE of the smallest worker thread's memory (host, and device for a
    GPU worker); a multiple of 64 (one BFS word) where the job allows."""
    threads = sum(r["nthreads"] for r in resources)
    # One worker thread: one chunk (nothing to balance; a GPU then writes whole rows, its
    # fastest copy, where a chunk's rows of a larger matrix are pitched), unless the caller
    # copies each chunk itself (`overlap`: chunk i's copy runs while the worker does i + 1).
    rows = k if threads == 1 and not overlap else -(-k // (CHUNKS_PER_THREAD * threads))
    row_bytes = max(1, n * bytes_per_entry)
    for r in resources:
        memory = r["host"] if r["device"] is None else min(r["host"], r["device"])
        rows = min(rows, int(MEMORY_SHARE * memory / r["nthreads"] / row_bytes))
    if rows < 1:
        raise MemoryError(f"one source's result ({row_bytes / 2**20:.1f} MiB) does not fit in a "
                          "Dask worker's share of memory: give the workers more memory")
    return rows if rows >= k or rows < 64 else rows // 64 * 64


_broadcast = weakref.WeakKeyDictionary()   # Graph -> {id(client): (client, its future on the workers)}


def _scattered(client, g: Graph):
    """The graph on every worker of `client`: sent once, then reused by later jobs while the
    caller holds the Graph (a worker keeps its device copy between jobs too)."""
    on = _broadcast.setdefault(g, {})
    held, future = on.get(id(client), (None, None))
    if held is not client or future.status not in ("finished", "pending"):
        future = client.scatter(_bare(g), broadcast=True, hash=False)
        on[id(client)] = (client, future)
    return future


class _Job:
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
        self.unreachable, self.reduction, self.depth_dtype = unreachable, reduction, np.dtype(depth_dtype)
        self.resources = self._ask_workers()
        n, k = len(self.g), len(self.ids)
        entry = (0 if kind is None else self.depth_dtype.itemsize if kind == "bfs" else
                 self.g.weight_dtype.itemsize + (4 if kind == "sssp" else 0))
        self.chunk_size, self.entry = chunk_size, entry
        self.size_chunks(overlap=False)
        self.futures = []
        self.route = "network"

    def size_chunks(self, overlap: bool) -> None:
        n, k = len(self.g), len(self.ids)
        rows = self.chunk_size or sources_per_chunk(list(self.resources.values()), k, n, self.entry, overlap)
        self.bounds = [(a, min(a + rows, k)) for a in range(0, k, rows)]

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
        found = self.client.run(_worker_resources, self.backend)
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
                   f"in {SHARED_DIR} or in host memory")
            if use:
                raise ClusterError(f"shared_memory=True, but {why}")
            log.info("curnet.distributed: result rows come over the network: %s", why)
            return None
        mats = [SharedMatrix(shape, d, place) for d in dtypes]
        seen = self.client.run(_sees_file, mats[0].path, os.stat(mats[0].path).st_ino)
        if all(seen.values()):
            self.route = f"shared memory ({SHARED_DIR if place == 'dir' else 'memfd'})"
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
        specs = DEVICE if shared == DEVICE else tuple(m.spec() for m in shared) if shared else None
        graph = self.file or _scattered(self.client, self.g)
        tag = uuid.uuid4().hex[:8]
        self.futures = [
            self.client.submit(_chunk, graph, self.kind, self.ids[a:b], (a, b), self.backend,
                               self.unreachable, self.depth_dtype, self.reduction, specs,
                               key=f"curnet-{self.kind or 'measure'}-{tag}-{i}", pure=False,
                               priority=len(self.bounds) - i)
            for i, (a, b) in enumerate(self.bounds)]
        return self

    def results(self, progress, in_order: bool):
        """(chunk index, result) pairs: as each chunk finishes, or in source order. Ctrl-C (or
        an error) cancels what is left, and the client stays usable."""
        distributed = _dask()
        bar = Progress(progress, len(self.ids), (self.kind or "measure").replace("_", "-"))
        index = {f.key: i for i, f in enumerate(self.futures)}
        waiting, next_i = {}, 0
        try:
            for future in distributed.as_completed(self.futures, loop=self.client.loop):
                i = index[future.key]
                result = future.result()
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


class ClusterEngine:
    """The many-source calls of curnet (bfs, sssp, sssp_dists) run on a Dask cluster, with the
    same signatures plus `chunk_size` (sources a chunk; None: sized to the workers' memory)
    and `shared_memory` (None: GPU workers on this host keep their chunks on the device and
    the caller copies them into its result, CUDA IPC; other workers on this host write the
    result in place, through /dev/shm, when it has room; True: shared memory required; False:
    rows always come over the network). `route` says how the last job's rows came."""

    def __init__(self, cluster=None, *, timeout: float = 30):
        self.client = connect(cluster, timeout=timeout)
        self.route = None      # how the last job's rows reached the caller (shared memory or network)

    def bfs(self, g, sources, *, backend="auto", out=None, unreachable=-1, progress=None, chunk_size=None,
            shared_memory=None):
        if out is not None and getattr(out, "dtype", None) not in OUT_DTYPES:
            raise TypeError("out must be a NumPy array of int32, int64, float32 or float64")
        job = _Job(self.client, g, sources, "bfs", backend, chunk_size, unreachable,
                   depth_dtype=np.int32 if out is None else out.dtype)
        return self._gather(job, [(out, job.depth_dtype, "the BFS depth matrix")], progress, shared_memory)[0]

    def sssp(self, g, sources, *, backend="auto", out_dist=None, out_pred=None, progress=None, chunk_size=None,
             shared_memory=None):
        job = _Job(self.client, g, sources, "sssp", backend, chunk_size)
        return tuple(self._gather(job, [(out_dist, job.g.weight_dtype, "the distance matrix"),
                                        (out_pred, np.int32, "the predecessor matrix")], progress, shared_memory))

    def sssp_dists(self, g, sources, *, backend="auto", out=None, progress=None, chunk_size=None,
                   shared_memory=None):
        job = _Job(self.client, g, sources, "sssp_dists", backend, chunk_size)
        return self._gather(job, [(out, job.g.weight_dtype, "the distance matrix")], progress, shared_memory)[0]

    def _gather(self, job, wanted, progress, shared_memory):
        """The job's result matrices, [(caller's out or None, dtype, what)] each, in source
        order. GPU workers on this host keep their chunks on the device and the caller copies
        them (device_gather); other workers on this host write into shared memory (the result
        itself when the caller gave no `out`); the rest send their rows, written as each chunk
        arrives."""
        shape = (len(job.ids), len(job.g))
        outs = [None if out is None else result_buffer(out, shape, dtype, what) for out, dtype, what in wanted]
        if job.device_route(shared_memory):
            self.route = job.route
            outs = [o if o is not None else result_buffer(None, shape, d, what)
                    for o, (_, d, what) in zip(outs, wanted)]
            copies = device_gather.DeviceCopies(job.kind, outs, job.ids)
            try:
                for i, chunk in job.submit(DEVICE).results(progress, in_order=False):
                    copies.submit(job.bounds[i][0], chunk)
                    copies.release_done(self.client)
                copies.release_done(self.client, wait=True)
            finally:
                copies.close(self.client)
            return outs
        shared = job.shared_results([out.dtype if out is not None else np.dtype(dtype)
                                     for out, (_, dtype, _) in zip(outs, wanted)], shared_memory)
        self.route = job.route
        if shared is None:
            outs = [o if o is not None else result_buffer(None, shape, d, what)
                    for o, (_, d, what) in zip(outs, wanted)]
        try:
            for i, rows in job.submit(shared).results(progress, in_order=False):
                a, b = job.bounds[i]
                for j, out in enumerate(outs):
                    if shared is None:
                        out[a:b] = rows[j]
                    elif out is not None:
                        out[a:b] = shared[j].array[a:b]
        finally:
            for m in shared or ():
                m.unlink()
        if shared is not None:
            outs = [o if o is not None else m.array for o, m in zip(outs, shared)]
        return outs

    def reduce(self, g, sources, reduction: Reduction, *, backend="auto", progress=None, chunk_size=None):
        """`reduction` computed on the workers: each chunk's partial, combined in source order.
        `sources` None: every vertex, in vertex order."""
        if sources is None:
            sources = np.arange(len(g.load() if isinstance(g, GraphFile) else g), dtype=np.int32)
        job = _Job(self.client, g, sources, reduction.kind, backend, chunk_size, reduction=reduction)
        return reduction.combine([p for _, p in job.submit().results(progress, in_order=True)])

    def to_parquet(self, g, sources, path, kind="bfs", *, backend="auto", progress=None, chunk_size=None) -> int:
        """Stream the result to a Parquet file in long format, one row group a chunk in source
        order: columns source, target, the value (`bfs` hops or `sssp` distance) and, for
        kind="sssp", predecessor; reachable pairs only. Returns the number of rows written."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        job = _Job(self.client, g, sources, kind, backend, chunk_size)
        writer, rows = None, 0
        try:
            for i, (values, pred) in job.submit().results(progress, in_order=True):
                a, b = job.bounds[i]
                table = pa.table(long_columns(job.g, job.ids[a:b], values, pred, kind))
                if writer is None:
                    writer = pq.ParquetWriter(os.fspath(path), table.schema)
                writer.write_table(table)
                rows += table.num_rows
        finally:
            if writer is not None:
                writer.close()
        return rows


# -- the module's calls: an engine for the given cluster --------------------------------------

def bfs(g, sources, *, cluster=None, **kwargs):
    """curnet.bfs on a Dask cluster (see ClusterEngine.bfs); `g` a Graph or a GraphFile."""
    return ClusterEngine(cluster).bfs(g, sources, **kwargs)


def sssp(g, sources, *, cluster=None, **kwargs):
    """curnet.sssp on a Dask cluster: (dist, pred)."""
    return ClusterEngine(cluster).sssp(g, sources, **kwargs)


def sssp_dists(g, sources, *, cluster=None, **kwargs):
    """curnet.sssp_dists on a Dask cluster."""
    return ClusterEngine(cluster).sssp_dists(g, sources, **kwargs)


def reduce(g, sources, reduction: Reduction, *, cluster=None, **kwargs):
    """A Reduction computed on the workers of a Dask cluster."""
    return ClusterEngine(cluster).reduce(g, sources, reduction, **kwargs)


def to_parquet(g, sources, path, kind="bfs", *, cluster=None, **kwargs) -> int:
    """Stream a many-source result from a Dask cluster to Parquet (ClusterEngine.to_parquet)."""
    return ClusterEngine(cluster).to_parquet(g, sources, path, kind, **kwargs)


class betweenness(Reduction):
    """Betweenness (curnet.betweenness; edge betweenness with edges=True) summed over the
    chunks' sources: each worker runs Brandes on its device over its chunk and returns the raw
    (n,) or (edges,) sums; the caller adds them and scales once, so
    reduce(g, None, betweenness(), cluster=...) equals curnet.betweenness(g). `sources` other
    than all vertices give the subset betweenness of those sources."""

    kind = None

    def __init__(self, *, edges=False, directed=True, weighted=None, normalized=False, cutoff=None,
                 targets=None):
        self.edges, self.normalized = edges, normalized
        self.options = dict(directed=directed, weighted=weighted, cutoff=cutoff, targets=targets)

    def chunk(self, g, ids, backend):
        from .betweenness_centrality import BetweennessJob
        job = BetweennessJob(g, sources=ids, **self.options)
        vertex, arc = job.sums(edges=self.edges, backend=backend, progress=False)
        raw = np.bincount(job.graph.arc_edges, weights=arc, minlength=g.num_edges) if self.edges else vertex
        return raw, len(g), job.undirected

    def combine(self, partials):
        from .betweenness_centrality import rescale
        raw = np.sum([p[0] for p in partials], axis=0)
        _, n, undirected = partials[0]
        return rescale(raw, n if self.edges else n - 1, self.normalized, undirected)
