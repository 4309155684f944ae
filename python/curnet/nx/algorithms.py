"""NetworkX's functions on a CurnetGraph: same signatures, same return types, same errors.
The traversals' and distances' are here; betweenness, PageRank and communities have modules
of their own beside it (which read the engine backend here: `engine_backend`).

Each takes the graph NetworkX's dispatcher converted (`G` is a CurnetGraph) and returns what
NetworkX returns: dicts keyed by node objects (in node order),
generators where NetworkX yields, ints for integer or missing weights, floats otherwise.
"""
from __future__ import annotations

import math

import networkx as nx
import numpy as np
from _curnet_nx import default_config

from ..algorithms.bfs import bfs as engine_bfs, bfs_blocks
from ..algorithms.order import bfs_order
from ..algorithms.reductions import SourceStats
from ..algorithms.scc import scc as engine_scc
from ..algorithms.sssp import sssp as engine_sssp, sssp_blocks, sssp_dists as engine_sssp_dists
from ..algorithms.supersource import has_negative_cycle, with_super_source
from ..errors import NegativeCycleError

# Rows of an all-pairs result held at once (before they become dicts).
BATCH_BYTES = 1 << 27


def settings():
    """nx.config.backends.curnet; its defaults when NetworkX has not registered the backend
    (functions called directly, without the entry points installed)."""
    cfg = getattr(nx.config.backends, "curnet", None)
    return cfg if cfg is not None else nx.utils.Config(**default_config())


def engine_backend() -> str:
    """The engine backend the calls run on: nx.config.backends.curnet.backend ("auto" by default,
    resolved and kept once a process by `backends.get_backend`)."""
    return settings().backend


# -- helpers --------------------------------------------------------------------
def _source(G, source, error=nx.NodeNotFound, message="Source {} is not in G") -> int:
    if source not in G:
        raise error(message.format(source))
    return G.index[source]


def _batches(G, itemsize: int):
    n = len(G)
    rows = max(1, BATCH_BYTES // max(1, n * itemsize))
    for first in range(0, n, rows):
        yield np.arange(first, min(n, first + rows), dtype=np.int32)


def _as_dict(G, values: np.ndarray, keep: np.ndarray, integral: bool, source: int | None = None) -> dict:
    """{node: value} over `keep`, in node order (building the dict is most of an all-pairs
    call's time: no sort, and no gather when every node is kept). NetworkX starts every search
    at the int 0, so a source's own distance is 0 (an int) whatever the weights."""
    if keep.all():
        keys = G.nodes
    else:
        ids = np.flatnonzero(keep)
        keys, values = G.node_array[ids].tolist(), values[ids]
    if integral and values.dtype.kind == "f":
        values = values.astype(np.int64)
    out = dict(zip(keys, values.tolist()))
    if source is not None and not integral:
        out[G.nodes[source]] = 0
    return out


def _within(values: np.ndarray, reached: np.ndarray, cutoff, source: int | None) -> np.ndarray:
    """Reached entries no farther than cutoff; the source always (as NetworkX keeps it)."""
    keep = reached if cutoff is None else reached & (values <= cutoff)
    if source is not None:
        keep[source] = True
    return keep


def _hops(cutoff):
    """NetworkX's BFS keeps depth d while d < cutoff + 1: the largest depth kept, for `<=`."""
    if cutoff is None or cutoff == float("inf"):
        return None
    return math.ceil(cutoff + 1) - 1


def _nonnegative(g, name: str) -> None:
    w = g.weights
    if w is not None and len(w) and float(w.min()) < 0:
        raise NotImplementedError(f"{name} with negative weights: NetworkX's Dijkstra is undefined "
                                  "there; use the Bellman-Ford functions (cuRnet runs them on the GPU too)")


def _dists(g, ids, with_pred=False):
    """Shortest-path distances (and predecessors) from ids; NetworkXUnbounded on a negative cycle."""
    try:
        if with_pred:
            return engine_sssp(g, ids, backend=engine_backend())
        return engine_sssp_dists(g, ids, backend=engine_backend()), None
    except NegativeCycleError:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from None


def _is_int(G, g) -> bool:
    """Distances are ints where NetworkX gives ints: no weights read, or integer weights."""
    return g.weights is None or G.integral


def _paths(G, source: int, parent: np.ndarray, order: np.ndarray) -> dict:
    """{node: [source, ..., node]} for the vertices in `order`, from a parent array (-1 at source)."""
    nodes = G.nodes
    paths = {source: [nodes[source]]}
    for v in order.tolist():
        chain = []
        while v not in paths:
            chain.append(v)
            v = int(parent[v])
        for u in reversed(chain):
            paths[u] = paths[int(parent[u])] + [nodes[u]]
    return {nodes[v]: paths[v] for v in order.tolist()}


# -- unweighted -------------------------------------------------------------------
def single_source_shortest_path_length(G, source, cutoff=None):
    s = _source(G, source)
    depth = engine_bfs(G.graph, [s], backend=engine_backend())[0]
    return _as_dict(G, depth, _within(depth, depth >= 0, _hops(cutoff), s), True)


def all_pairs_shortest_path_length(G, cutoff=None):
    hops = _hops(cutoff)

    def pairs():
        for ids in _batches(G, 4):
            depth = engine_bfs(G.graph, ids, backend=engine_backend())
            for row, s in zip(depth, ids.tolist()):
                yield G.nodes[s], _as_dict(G, row, _within(row, row >= 0, hops, s), True)
    return pairs()


def bfs_layers(G, sources):
    if sources in G:
        sources = [sources]
    first = list(set(sources))       # NetworkX's first layer, in its set's order
    for s in first:
        if s not in G:
            raise nx.NetworkXError(f"The node {s} is not in the graph.")

    def layers():
        if not first:
            return
        found, _, _ = bfs_order(G.graph.indptr, G.graph.indices, [G.index[s] for s in first])
        yield first
        for layer in found[1:]:
            yield G.node_array[layer].tolist()
    return layers()


def descendants_at_distance(G, source, distance):
    s = _source(G, source, nx.NetworkXError, "The node {} is not in the graph.")
    if distance < 0:
        return set()
    depth = engine_bfs(G.graph, [s], backend=engine_backend())[0]
    return set(G.node_array[depth == distance].tolist())


def single_source_shortest_path(G, source, cutoff=None):
    s = _source(G, source, message="Source {} not in G")
    layers, parent, _ = bfs_order(G.graph.indptr, G.graph.indices, [s])
    hops = _hops(cutoff)
    if hops is not None:
        layers = layers[:max(hops, 0) + 1]
    return _paths(G, s, parent, np.concatenate(layers))


# -- weighted -----------------------------------------------------------------------
def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    s = _source(G, source, message="Node {} not found in graph")
    g = G.read_as(weight)
    _nonnegative(g, "single_source_dijkstra_path_length")
    dist = _dists(g, [s])[0][0]
    return _as_dict(G, dist, _within(dist, dist < np.inf, cutoff, s), _is_int(G, g), s)


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    s = _source(G, source, message="Node {} not found in graph")
    g = G.read_as(weight)
    _nonnegative(g, "single_source_dijkstra_path")
    dist, pred = _dists(g, [s], with_pred=True)
    dist, pred = dist[0], pred[0]
    keep = _within(dist, dist < np.inf, cutoff, s)
    ids = np.flatnonzero(keep)
    return _paths(G, s, pred, ids[np.argsort(dist[ids], kind="stable")])


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    if not sources:
        raise ValueError("sources must not be empty")
    ids = [_source(G, s, message="Node {} not found in graph") for s in sources]
    g = G.read_as(weight)
    _nonnegative(g, "multi_source_dijkstra_path_length")
    n = len(G)
    dist = engine_sssp_dists(with_super_source(g, ids), [n], backend=engine_backend())[0, :n]
    keep = _within(dist, dist < np.inf, cutoff, None)
    keep[ids] = True
    return _as_dict(G, dist, keep, _is_int(G, g))


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    g = G.read_as(weight)
    _nonnegative(g, "all_pairs_dijkstra_path_length")
    return _all_pairs_lengths(G, g, cutoff)


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    s = _source(G, source, message="Source {} not in G")
    g = G.read_as(weight)
    dist = _dists(g, [s])[0][0]
    return _as_dict(G, dist, _within(dist, dist < np.inf, None, s), _is_int(G, g), s)


def all_pairs_bellman_ford_path_length(G, weight="weight"):
    return _all_pairs_lengths(G, G.read_as(weight), None)


def _all_pairs_lengths(G, g, cutoff):
    integral = _is_int(G, g)

    def pairs():
        for ids in _batches(G, 8):
            dist = _dists(g, ids)[0]
            for row, s in zip(dist, ids.tolist()):
                yield G.nodes[s], _as_dict(G, row, _within(row, row < np.inf, cutoff, s), integral, s)
    return pairs()


def bellman_ford_predecessor_and_distance(G, source, target=None, weight="weight", heuristic=False):
    s = _source(G, source, message="Node {} is not found in the graph")
    g = G.read_as(weight)
    tails = np.repeat(np.arange(len(G), dtype=np.int64), np.diff(g.indptr))
    w = g.weights if g.weights is not None else np.ones(len(g.indices))
    if ((g.indices == tails) & (w < 0)).any():       # NetworkX checks negative self-loops first
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    if len(G) == 1:
        return {source: []}, {source: 0}
    dist = _dists(g, [s])[0][0].astype(np.float64)
    # every predecessor on a shortest path, as NetworkX lists them: u -> v with d[u] + w == d[v]
    heads = g.indices
    tight = (dist[tails] < np.inf) & (dist[tails] + w == dist[heads])
    pred: dict = {v: [] for v in G.node_array[np.flatnonzero(dist < np.inf)].tolist()}
    nodes = G.nodes
    for u, v in zip(tails[tight].tolist(), heads[tight].tolist()):
        pred[nodes[v]].append(nodes[u])
    reached = dist < np.inf
    dists = _as_dict(G, dist, reached, _is_int(G, g), s)
    return {v: pred[v] for v in dists}, dists


def negative_edge_cycle(G, weight="weight", heuristic=True):
    return has_negative_cycle(G.read_as(weight), backend=engine_backend())


def johnson(G, weight="weight"):
    g = G.read_as(weight)
    if has_negative_cycle(g, backend=engine_backend()):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    out = {}
    for ids in _batches(G, 12):
        dist, pred = _dists(g, ids, with_pred=True)
        for d, p, s in zip(dist, pred, ids.tolist()):
            reached = np.flatnonzero(d < np.inf)
            out[G.nodes[s]] = _paths(G, s, p, reached[np.argsort(d[reached], kind="stable")])
    return out


# -- components -----------------------------------------------------------------------
def _scc_labels(G) -> np.ndarray:
    if len(G) == 0:
        return np.zeros(0, np.int32)
    return np.asarray(engine_scc(G.graph, backend=engine_backend()))


def strongly_connected_components(G):
    labels = _scc_labels(G)

    def components():
        order = np.argsort(labels, kind="stable")
        bounds = np.flatnonzero(np.diff(labels[order])) + 1
        for part in np.split(order, bounds) if len(order) else []:
            yield set(G.node_array[part].tolist())
    return components()


def number_strongly_connected_components(G):
    labels = _scc_labels(G)
    return int(labels.max()) + 1 if len(labels) else 0


def is_strongly_connected(G):
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return number_strongly_connected_components(G) == 1


# -- distance measures ------------------------------------------------------------------
def _source_stats(g, ids, weighted: bool, want) -> SourceStats:
    """Per-source reductions of the distances from ids, batch by batch on the device (the k x n
    matrix is never held)."""
    sink = SourceStats(len(ids), want=want)
    if len(ids):
        run = sssp_blocks if weighted else bfs_blocks
        try:
            run(g, np.asarray(ids, dtype=np.int32), sink, backend=engine_backend())
        except NegativeCycleError:
            raise nx.NetworkXUnbounded("Negative cycle detected.") from None
    return sink


def _nbunch(G, v) -> list:
    """NetworkX's nbunch: None for every node, one node, or the nodes of a container in G."""
    if v is None:
        return list(range(len(G)))
    if v in G:
        return [G.index[v]]
    try:
        return [G.index[x] for x in v if x in G]
    except TypeError:
        raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from None


def eccentricity(G, v=None, sp=None, weight=None):
    g = G.read_as(weight)
    weighted = g.weights is not None
    if weighted:
        _nonnegative(g, "eccentricity")
    ids = _nbunch(G, v)
    s = _source_stats(g, ids, weighted, ("count", "farthest"))
    if len(ids) and s.count.min() != len(G):
        raise nx.NetworkXError(
            "Found infinite path length because the digraph is not strongly connected"
            if G.is_directed() else "Found infinite path length because the graph is not connected")
    far = s.farthest.astype(np.int64).tolist() if _is_int(G, g) else s.farthest.tolist()
    e = dict(zip(G.node_array[ids].tolist(), far))
    return e[v] if v in G else e


def diameter(G, e=None, usebounds=False, weight=None):
    return max(eccentricity(G, weight=weight).values())


def radius(G, e=None, usebounds=False, weight=None):
    return min(eccentricity(G, weight=weight).values())


def closeness_centrality(G, u=None, distance=None, wf_improved=True):
    """NetworkX's closeness: incoming distances on a directed graph, (reached - 1) / (sum of
    distances), scaled by (reached - 1) / (n - 1) when wf_improved; 0 where nothing is reached."""
    g = G.read_as(distance)
    weighted = g.weights is not None
    if weighted:
        _nonnegative(g, "closeness_centrality")
    if u is not None:
        ids = [_source(G, u, message="Source {} is not in G")]
    else:
        ids = list(range(len(G)))
    s = _source_stats(g.oriented("in"), ids, weighted, ("count", "total"))
    n = len(G)
    reached = s.count - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where((s.total > 0) & (n > 1), reached / s.total, 0.0)
    if wf_improved and n > 1:
        c = c * (reached / (n - 1))       # NetworkX's order of operations: the same rounding
    out = dict(zip(G.node_array[ids].tolist(), c.tolist()))
    return out[u] if u is not None else out

