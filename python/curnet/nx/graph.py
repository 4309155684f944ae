"""The backend's graph: a curnet.Graph built from a NetworkX graph's adjacency, with its nodes."""
from __future__ import annotations

from itertools import chain

import numpy as np

from ..graph import Graph, offset_dtype

EXACT_INT = 2.0 ** 53      # float64 holds every integer up to here exactly


class CurnetGraph:
    """What NetworkX's dispatcher converts a graph to (and caches in G.__networkx_cache__).

    `graph` is the engine's CSR, each node's arcs in the order of G's adjacency (so breadth-first
    orders match NetworkX's); node i is `nodes[i]`, G's i-th node. Weights are float64 (NetworkX
    sums Python floats); `integral` says they were all integers (or absent), so distances are
    given back as ints, as NetworkX gives them."""

    __networkx_backend__ = "curnet"

    def __init__(self, graph: Graph, nodes: list, *, multigraph: bool, integral: bool, weight=None):
        self.graph = graph
        self.nodes = nodes
        self.multigraph = multigraph
        self.integral = integral
        self.weight = weight
        self.__networkx_cache__: dict = {}
        self._index: dict | None = None
        self._node_array: np.ndarray | None = None
        self._views = {weight: graph}

    def read_as(self, weight) -> Graph:
        """The engine graph a call with this `weight` (or `distance`) argument reads.

        NetworkX hands any cached conversion to a call that asks for no edge attribute, so a
        graph converted for a weighted call also reaches the unweighted ones: `weight=None`
        gets the same arcs without weights (built once, kept under the key None, so its device
        copies are kept too). A weight attribute other than the one converted is refused."""
        view = self._views.get(weight)
        if view is None:
            if weight is not None:
                raise ValueError(
                    f"this graph was converted with weights {self.weight!r}, not {weight!r}; "
                    f"call the function on the NetworkX graph (or convert with edge_attrs={{{weight!r}: 1}})")
            view = self._views.setdefault(None, self.graph.without_weights())
        return view

    def is_directed(self) -> bool:
        return self.graph.directed

    def is_multigraph(self) -> bool:
        return self.multigraph

    def __len__(self) -> int:
        return len(self.nodes)

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node) -> bool:
        try:
            return node in self.index
        except TypeError:          # an unhashable "node", as NetworkX answers it
            return False

    @property
    def index(self) -> dict:
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self.nodes)}
        return self._index

    @property
    def node_array(self) -> np.ndarray:
        """The nodes as an object array, to pick many by position at once."""
        if self._node_array is None:
            self._node_array = np.fromiter(self.nodes, dtype=object, count=len(self.nodes))
        return self._node_array

    def __repr__(self) -> str:
        return f"<CurnetGraph of {self.graph!r}>"


def from_networkx(G, weight=None, default=1) -> CurnetGraph:
    """Convert G: adjacency to CSR in G's order; weights from edge attribute `weight` (missing
    ones are `default`; a multigraph's parallel edges count with their smallest weight).

    Raises NotImplementedError (NetworkX then uses its own code) for weights that are not
    finite real numbers."""
    adj = G._adj
    nodes = list(adj)
    index = {v: i for i, v in enumerate(nodes)}
    n = len(nodes)
    degree = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
    m = int(degree.sum())
    indptr = np.zeros(n + 1, dtype=offset_dtype(m))
    np.cumsum(degree, out=indptr[1:])
    indices = np.fromiter(map(index.__getitem__, chain.from_iterable(adj.values())),
                          dtype=np.int32, count=m)
    weights, integral = None, True
    if weight is not None:
        if G.is_multigraph():
            values = [min(d.get(weight, default) for d in keyed.values())
                      for nbrs in adj.values() for keyed in nbrs.values()]
        else:
            values = [d.get(weight, default) for nbrs in adj.values() for d in nbrs.values()]
        weights, integral = _weights(values, n, weight)
    if G.is_directed():   # each arc is its own edge (Graph.oriented reads them back)
        graph = Graph(indptr, indices, weights, directed=True, num_edges=m,
                      arc_edges=np.arange(m, dtype=np.int64))
    else:
        graph = Graph(indptr, indices, weights, directed=False,
                      num_edges=(m + int(np.sum(indices == _tails(indptr)))) // 2)
    return CurnetGraph(graph, nodes, multigraph=G.is_multigraph(), integral=integral, weight=weight)


def _tails(indptr: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(len(indptr) - 1, dtype=np.int32), np.diff(indptr))


def _weights(values: list, n: int, name) -> tuple[np.ndarray, bool]:
    try:
        raw = np.asarray(values)
    except (TypeError, ValueError):
        raw = np.asarray(values, dtype=object)
    if raw.dtype.kind not in "biuf":
        raise NotImplementedError(f"edge attribute {name!r} holds values that are not real numbers "
                                  f"(e.g. {_first_bad(values)!r}); cuRnet needs finite real weights")
    w = raw.astype(np.float64)
    if not np.isfinite(w).all():
        raise NotImplementedError(f"edge attribute {name!r} holds a non-finite weight; "
                                  "cuRnet needs finite real weights")
    integral = raw.dtype.kind in "biu"
    if integral and len(w) and float(np.abs(w).max()) * max(n - 1, 1) >= EXACT_INT:
        raise NotImplementedError("integer weights this large could sum past 2**53, beyond what "
                                  "float64 distances hold exactly")
    return w, integral


def _first_bad(values):
    for v in values:
        if not isinstance(v, (int, float, np.integer, np.floating)):
            return v
    return None


def to_networkx(cg: CurnetGraph):
    """A NetworkX graph with cg's nodes and arcs (parallel edges merged, their smallest weight kept)."""
    import networkx as nx
    G = nx.DiGraph() if cg.is_directed() else nx.Graph()
    G.add_nodes_from(cg.nodes)
    g = cg.graph
    nodes = cg.nodes
    tails = _tails(g.indptr).tolist()
    heads = g.indices.tolist()
    if g.weights is None or cg.weight is None:
        G.add_edges_from((nodes[u], nodes[v]) for u, v in zip(tails, heads))
    else:
        cast = int if cg.integral else float
        G.add_edges_from((nodes[u], nodes[v], {cg.weight: cast(w)})
                         for u, v, w in zip(tails, heads, g.weights.tolist()))
    return G
