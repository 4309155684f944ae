"""The graph on the workers: sent once a client (a broadcast kept while the caller holds the
Graph), or read by each worker process from the same file (GraphFile)."""
from __future__ import annotations

import os
import threading
import weakref

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


_worker_graphs: dict = {}
_worker_lock = threading.Lock()


def worker_graph(graph) -> Graph:
    """The graph on a worker: the broadcast one, or the file read once per worker process."""
    if isinstance(graph, Graph):
        return graph
    with _worker_lock:
        g = _worker_graphs.get(graph.key())
        if g is None:
            g = _worker_graphs[graph.key()] = graph.load()
        return g


def bare(g: Graph) -> Graph:
    """The graph's arrays only (no device copies or caches) to send to the workers; the arcs'
    edge ids too (edge betweenness speaks of the caller's edges)."""
    return Graph(g.indptr, g.indices, g.weights, directed=g.directed, names=g.names,
                 num_edges=g.num_edges, arc_edges=g.arc_edges)


_broadcast = weakref.WeakKeyDictionary()   # Graph -> {id(client): (client, its future on the workers)}


def scattered(client, g: Graph):
    """The graph on every worker of `client`: sent once, then reused by later jobs while the
    caller holds the Graph (a worker keeps its device copy between jobs too)."""
    on = _broadcast.setdefault(g, {})
    held, future = on.get(id(client), (None, None))
    if held is not client or not on_workers(future):
        future = client.scatter(bare(g), broadcast=True, hash=False)
        on[id(client)] = (client, future)
    return future


def on_workers(graph) -> bool:
    """Whether a broadcast graph (its future) is still on the cluster: not lost with the
    workers that held it, nor cancelled."""
    return graph.status in ("finished", "pending")
