"""The graph on the workers: sent once a client (a broadcast kept while the caller holds the
Graph), or read by each worker process from the same file (GraphFile). Either way each worker
process keeps its copy (with the copy's device arrays and caches) for later jobs.

Dask's active memory manager keeps one replica of data that no queued task needs: seconds
after a broadcast, all workers but one have dropped it, and a later job's chunks would all be
placed on that one worker while the others waited to steal a chunk and fetch the graph again
(1-2 s of R-MAT 20's 3.7 s; bench/results/several_gpus_betweenness_h200x2_amm.txt). So a
chunk depends on the broadcast only when it is sent with it (a job's first on a new
broadcast, or a chunk sent again to a worker without a copy); otherwise it carries the copy's
name (`Shipped`), and a worker that has none says so (`GraphNotOnWorker`)."""
from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
import weakref
from collections import OrderedDict
from typing import NamedTuple

from ..graph import Graph


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
            from ..io import read_graph
            self._graph = read_graph(self.path, **self.read_kwargs)
        return self._graph

    def __getstate__(self):
        return {"path": self.path, "read_kwargs": self.read_kwargs, "_graph": None}


class Shipped(NamedTuple):
    """What a chunk carries for a broadcast graph: the name of each worker's copy (the
    broadcast's key)."""
    key: str


class GraphNotOnWorker(RuntimeError):
    """A chunk without its graph reached a worker that holds no copy (it joined or restarted
    after the graph was sent): the job sends that chunk again with the graph."""


# Each worker process's graphs, the latest used last; the oldest goes beyond KEPT_GRAPHS
# (each may hold device arrays).
KEPT_GRAPHS = 2
_worker_graphs: OrderedDict = OrderedDict()
_worker_lock = threading.Lock()


def worker_graph(graph, sent: Graph | None = None) -> Graph:
    """The graph on a worker: `graph` a GraphFile (read once per worker process) or a Shipped
    name (`sent`: the broadcast itself, when the chunk came with it), each kept for later
    chunks and jobs."""
    key = graph.key() if isinstance(graph, GraphFile) else graph.key
    with _worker_lock:
        g = _worker_graphs.get(key)
        if g is None:
            if isinstance(graph, GraphFile):
                g = graph.load()
            elif sent is None:
                raise GraphNotOnWorker(f"this worker holds no copy of graph {key}")
            else:
                g = sent
            _worker_graphs[key] = g
        _worker_graphs.move_to_end(key)
        while len(_worker_graphs) > KEPT_GRAPHS:
            _worker_graphs.popitem(last=False)
        return g


async def drop_worker_graph(key, dask_worker=None) -> bool:
    """Drop this worker process's copy named `key` (client.run on each worker), its device
    arrays' memory handed back to the GPU once Dask has freed its own reference (the released
    broadcast, a moment later; awaited, so the worker goes on meanwhile). Whether it held one."""
    with _worker_lock:
        held = _worker_graphs.pop(key, None) is not None
    for _ in range(100):
        if dask_worker is None or key not in dask_worker.data:
            break
        await asyncio.sleep(0.05)
    if held and "cupy" in sys.modules:
        gc.collect()     # a graph's caches may refer back to it
        sys.modules["cupy"].get_default_memory_pool().free_all_blocks()
    return held


def release(client, graph) -> int:
    """Free the workers' copies of `graph` (a Graph or GraphFile) now, rather than when later
    graphs push them out: the broadcast is released and each worker drops its copy. Returns
    the number of workers that held one."""
    if isinstance(graph, GraphFile):
        key = graph.key()
    else:
        _, future = _broadcast.get(graph, {}).pop(id(client), (None, None))
        if future is None:
            return 0           # never sent through this client
        key = future.key
        future.release()
    return sum(client.run(drop_worker_graph, key).values())


def bare(g: Graph) -> Graph:
    """The graph's arrays only (no device copies or caches) to send to the workers; the arcs'
    edge ids too (edge betweenness speaks of the caller's edges)."""
    return Graph(g.indptr, g.indices, g.weights, directed=g.directed, names=g.names,
                 num_edges=g.num_edges, arc_edges=g.arc_edges)


# Graph -> {id(client): (client, its future on the workers)}
_broadcast: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def scattered(client, g: Graph) -> tuple:
    """(the graph's broadcast to the workers of `client`, whether it was sent just now): sent
    once, then named by later jobs while the caller holds the Graph (each worker keeps its copy,
    worker_graph)."""
    on = _broadcast.setdefault(g, {})
    held, future = on.get(id(client), (None, None))
    if held is not client or not on_workers(future):
        future = client.scatter(bare(g), broadcast=True, hash=False)
        on[id(client)] = (client, future)
        return future, True
    return future, False


def on_workers(graph) -> bool:
    """Whether a broadcast graph (its future) is still on the cluster: not lost with the
    workers that held it, nor cancelled."""
    return graph.status in ("finished", "pending")
