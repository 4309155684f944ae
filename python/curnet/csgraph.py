"""`scipy.sparse.csgraph`'s shortest-path, traversal and component functions on cuRnet's engine.

    from curnet import csgraph
    dist = csgraph.shortest_path(A, directed=False)          # A: SciPy sparse, dense, or CuPy
    dist, pred = csgraph.dijkstra(A, indices=[0, 5], return_predecessors=True)

Same names, arguments, defaults, return types and errors (`NegativeCycleError` is SciPy's) as
SciPy's, with one keyword-only addition, `backend` ("auto", "cpu", "cuda", "cuda:N"...). Input
is read as SciPy reads it: in dense input 0, inf and NaN mean "no edge"; in sparse input every
stored entry is an edge, explicit zeros included. CuPy arrays and `cupyx.scipy.sparse` matrices
are accepted; their results come back as CuPy arrays (the traversal runs on the GPU; the graph
and the results pass through host memory on the way).

Where cuRnet differs from SciPy, by design:
- the method picks the algorithm in SciPy; here every method gives the same exact result from
  the engine's batched traversal (Dijkstra or Bellman-Ford by sign of the weights), so 'D' with
  negative weights gives the true shortest paths (SciPy warns and may be wrong) and raises
  `NegativeCycleError` on a negative cycle; 'FW' computes all pairs the same way;
- `connected_components(connection='strong')` numbers components in order of their smallest
  vertex (SciPy numbers them in its search's completion order): the same partition;
- among equally short paths the predecessor may differ from SciPy's (each is a valid one).
"""
from __future__ import annotations

from typing import cast

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import NegativeCycleError
from scipy.sparse.csgraph._validation import validate_graph

from .algorithms.bfs import bfs
from .algorithms.scc import scc
from .algorithms.sssp import sssp, sssp_dists
from .algorithms.order import bfs_order
from .algorithms.supersource import has_negative_cycle, tree_roots, with_super_source
from .errors import NegativeCycleError as _EngineNegativeCycle
from .graph import Graph

__all__ = ["shortest_path", "dijkstra", "bellman_ford", "johnson", "breadth_first_order",
           "breadth_first_tree", "connected_components", "NegativeCycleError"]

NULL = -9999          # SciPy's "no predecessor"
METHODS = ("auto", "FW", "D", "BF", "J")


# -- input and output ---------------------------------------------------------
def _on_device(a) -> bool:
    return type(a).__module__.split(".")[0] in ("cupy", "cupyx")


def _csr(csgraph, directed):
    """SciPy's own reading of the input: a float64 CSR, dense nulls (0, inf, NaN) dropped."""
    if _on_device(csgraph):
        csgraph = csgraph.get()
    return validate_graph(csgraph, directed, dense_output=False)


def _graph(csgraph, directed: bool, unweighted: bool) -> Graph:
    return _graph_of(_csr(csgraph, directed), directed, unweighted)


def _graph_of(m, directed: bool, unweighted: bool) -> Graph:
    """The engine's graph for SciPy's CSR. An undirected edge becomes two arcs, each vertex's
    arcs in SciPy's order (its row, then its column); with a negative weight the graph is
    stored as directed arcs so that Bellman-Ford sees the negative 2-cycle."""
    n = m.shape[0]
    rows = np.repeat(np.arange(n, dtype=np.int32), np.diff(m.indptr))
    cols = m.indices.astype(np.int32)
    w = np.ones(len(cols)) if unweighted else np.asarray(m.data, dtype=np.float64)
    finite = w != np.inf                      # an infinite weight is an arc no path can use
    if not finite.all():
        rows, cols, w = rows[finite], cols[finite], w[finite]
    if np.isnan(w).any():
        raise ValueError("csgraph holds NaN weights in sparse entries")
    if directed or not len(w) or w.min() >= 0:
        return Graph.from_edges(rows, cols, w, directed=directed, num_vertices=n, dtype=np.float64)
    return Graph.from_edges(np.concatenate([rows, cols]), np.concatenate([cols, rows]),
                            np.concatenate([w, w]), directed=True, num_vertices=n, dtype=np.float64)


def _indices(indices, n: int):
    """(ids, shape of the result's leading axes) for SciPy's `indices`."""
    if indices is None:
        return np.arange(n, dtype=np.int32), (n,)
    if _on_device(indices):
        indices = indices.get()
    a = np.asarray(indices)
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.array_equal(a, np.trunc(a)):
            a = a.astype(np.int64)
        else:
            raise ValueError(f"indices must be integers, got dtype {a.dtype}")
    if a.size and (a.min() < 0 or a.max() >= n):
        raise ValueError("indices out of range 0...N")
    return a.reshape(-1).astype(np.int32), a.shape


def _out(a, device: bool):
    if not device:
        return a
    import cupy
    return cupy.asarray(a)


def _scipy_pred(pred: np.ndarray) -> np.ndarray:
    pred = pred.astype(np.int32, copy=False)
    pred[pred < 0] = NULL
    return pred


# -- shortest paths -------------------------------------------------------------
def _solve(csgraph, directed, indices, return_predecessors, unweighted, *, method,
           limit=np.inf, min_only=False, backend="auto"):
    if method not in METHODS:
        raise ValueError(f"unrecognized method '{method}'")
    if method == "FW" and indices is not None:
        raise ValueError("Cannot specify indices with method == 'FW'.")
    limit = float(limit)
    if limit < 0:
        raise ValueError("limit must be >= 0")
    device = _on_device(csgraph)
    g = _graph(csgraph, bool(directed), bool(unweighted))
    n = len(g)
    ids, shape = _indices(indices, n)
    if method == "J" and has_negative_cycle(g, backend=backend):
        # Johnson's algorithm (and SciPy's) refuses a graph with a negative cycle anywhere.
        raise NegativeCycleError("Negative cycle detected in the graph")
    try:
        if min_only:
            return _min_only(g, ids, return_predecessors, limit, backend, device)
        if n == 0 or len(ids) == 0:
            dist, pred = np.zeros((0, n)), np.zeros((0, n), np.int32)
        elif return_predecessors:
            dist, pred = sssp(g, ids, backend=backend)
        elif unweighted:
            depth = bfs(g, ids, backend=backend)
            dist, pred = np.where(depth < 0, np.inf, depth.astype(np.float64)), None
        else:
            dist, pred = sssp_dists(g, ids, backend=backend), None
    except _EngineNegativeCycle as e:
        raise NegativeCycleError(f"Negative cycle detected on a path from node {e.source}") from None
    dist = np.asarray(dist, dtype=np.float64)
    if limit != np.inf:
        far = dist > limit
        dist[far] = np.inf
        if pred is not None:
            pred[far] = -1
    dist = _out(dist.reshape(shape + (n,)), device)
    if not return_predecessors:
        return dist
    return dist, _out(_scipy_pred(cast(np.ndarray, pred)).reshape(shape + (n,)), device)


def _min_only(g, ids, return_predecessors, limit, backend, device):
    """Distance from the nearest of `ids` to every vertex, through a zero-weight super-source."""
    n = len(g)
    if n == 0 or len(ids) == 0:
        dist, pred, src = np.full(n, np.inf), np.full(n, NULL, np.int32), np.full(n, NULL, np.int32)
    else:
        gs = with_super_source(g, ids)
        if return_predecessors:
            d, p = sssp(gs, [n], backend=backend)
            pred = p[0, :n].astype(np.int64)
            pred[pred == n] = -1                  # the sources hang off the virtual vertex
        else:
            d, pred = sssp_dists(gs, [n], backend=backend), None
        dist = np.asarray(d[0, :n], dtype=np.float64)
        unreached = ~np.isfinite(dist) | (dist > limit)
        dist[unreached] = np.inf
        if pred is not None:
            src = tree_roots(pred).astype(np.int32)
            pred[unreached] = -1
            src[unreached] = NULL
            pred = _scipy_pred(pred)
    if not return_predecessors:
        return _out(dist, device)
    return _out(dist, device), _out(pred, device), _out(src, device)


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None, *, backend="auto"):
    """Shortest-path lengths (and predecessors) from `indices` (all vertices if None).

    As `scipy.sparse.csgraph.shortest_path`; `overwrite` is accepted and never needed (the
    input is not modified)."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, method=method,
                  backend=backend)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False,
             unweighted=False, limit=np.inf, min_only=False, *, backend="auto"):
    """As `scipy.sparse.csgraph.dijkstra`: `limit` drops distances above it; `min_only` gives
    each vertex's distance from the nearest index (and, with predecessors, which one)."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, method="D",
                  limit=limit, min_only=min_only, backend=backend)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False, *, backend="auto"):
    """As `scipy.sparse.csgraph.bellman_ford`: NegativeCycleError for a cycle reachable from an index."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, method="BF",
                  backend=backend)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False,
            unweighted=False, *, backend="auto"):
    """As `scipy.sparse.csgraph.johnson`: NegativeCycleError for a negative cycle anywhere."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, method="J",
                  backend=backend)


# -- traversal ------------------------------------------------------------------
def _bfs_tree(csgraph, i_start, directed):
    """(SciPy's CSR, the FIFO order from i_start, each vertex's parent or -1)."""
    m = _csr(csgraph, directed)
    g = _graph_of(m, bool(directed), unweighted=False)
    n = len(g)
    if not (isinstance(i_start, (int, np.integer)) and 0 <= int(i_start) < n):
        raise ValueError(f"i_start must be a vertex index in 0...{n - 1}, got {i_start!r}")
    layers, parent, _ = bfs_order(g.indptr, g.indices, [int(i_start)])
    return m, np.concatenate(layers), parent


def breadth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """As `scipy.sparse.csgraph.breadth_first_order`: the vertices reached from i_start in the
    order a FIFO search visits them (each vertex's arcs in CSR order), and predecessors."""
    device = _on_device(csgraph)
    _, order, parent = _bfs_tree(csgraph, i_start, directed)
    order = _out(order.astype(np.int32), device)
    if not return_predecessors:
        return order
    return order, _out(_scipy_pred(parent), device)


def breadth_first_tree(csgraph, i_start, directed=True):
    """As `scipy.sparse.csgraph.breadth_first_tree`: the search tree as a sparse matrix holding
    the weight of each tree arc (a `csr_matrix` for matrix input, else a `csr_array`). As in
    SciPy, an undirected tree arc weighs the smaller non-zero of the two directions' entries."""
    m, _, parent = _bfs_tree(csgraph, i_start, directed)
    n = m.shape[0]
    child = np.flatnonzero(parent >= 0)
    up = parent[child]
    m = sp.csr_array(m)

    def entries(rows, cols):
        return np.asarray(m[rows, cols], dtype=np.float64).ravel() if len(rows) else np.zeros(0)
    w = entries(up, child)
    if not directed:
        back = entries(child, up)
        w, back = np.where(w == 0, np.inf, w), np.where(back == 0, np.inf, back)
        w = np.minimum(w, back)
    tree = sp.csr_array((w, (up, child)), shape=(n, n))
    if isinstance(csgraph, (sp.spmatrix, np.matrix)) or isinstance(getattr(csgraph, "data", None), np.matrix):
        return sp.csr_matrix(tree)
    return tree


# -- components -----------------------------------------------------------------
def connected_components(csgraph, directed=True, connection="weak", return_labels=True, *,
                         backend="auto"):
    """As `scipy.sparse.csgraph.connected_components`: (n_components, labels int32), weak or
    strong components of a directed graph; components numbered in order of their smallest vertex."""
    if not isinstance(connection, str) or connection.lower() not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    device = _on_device(csgraph)
    strong = bool(directed) and connection.lower() == "strong"
    m = _csr(csgraph, directed)
    n = m.shape[0]
    rows = np.repeat(np.arange(n, dtype=np.int32), np.diff(m.indptr))
    g = Graph.from_edges(rows, m.indices.astype(np.int32), directed=strong, num_vertices=n)
    labels = scc(g, backend=backend) if n else np.zeros(0, np.int32)
    count = int(labels.max()) + 1 if n else 0
    if not return_labels:
        return count
    return count, _out(np.asarray(labels, dtype=np.int32), device)
