"""R's graphs in the engine: built from R's Arrow id columns, an Arrow table or a file, what
R keeps next to each graph (its summary and names), and the oriented views igraph's `mode`
asks for."""
from __future__ import annotations

import warnings

import numpy as np

from ..backends import get_backend
from ..graph import Graph


def _dtype(double: bool):
    return np.float64 if double else np.float32


def graph_from_arrow(src, dst, weights, directed, num_vertices, double=True) -> Graph:
    """A Graph from 0-based Arrow id columns (and optional weights) that R exported."""
    return Graph.from_edges(src, dst, weights, directed=bool(directed),
                            num_vertices=int(num_vertices), dtype=_dtype(double))


def graph_from_table(table, directed, weights=None, double=True, id_names=False) -> Graph:
    """A Graph from an Arrow table (R's arrow package): columns 1 and 2 are the endpoints
    (with id_names, numeric ids too are vertex names, as in R's data frames), `weights`
    names the weight column (None: unweighted)."""
    from ..io import as_names, from_arrow
    if id_names:
        table = table.set_column(0, table.column_names[0], as_names(table.column(0)))
        table = table.set_column(1, table.column_names[1], as_names(table.column(1)))
    return from_arrow(table, weight=weights, directed=bool(directed), dtype=_dtype(double))


def read_graph(path, double=True, **kwargs) -> Graph:
    """A graph file read by the engine; weights in double precision, as R's numbers (single
    with double=False)."""
    from ..io import read_graph as read
    return read(path, dtype=_dtype(double), **kwargs)


def read_graph_warned(path, double=True, **kwargs) -> list:
    """read_graph, and what the reader warned (a line taken as a header, a column not taken
    as weights) as a list of messages, for R to raise as its own warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = read_graph(path, double, **kwargs)
    return [g, [str(w.message) for w in caught]]


def summary(g: Graph) -> dict:
    """What R's print() shows, and what R keeps next to the graph."""
    return {"n": len(g), "m": int(g.num_edges), "directed": bool(g.directed),
            "weighted": bool(g.weighted), "has_names": g.names is not None,
            "precision": "double" if g.weight_dtype == np.float64 else "single",
            "backend": get_backend("auto").name}


def names(g: Graph):
    """The vertex names as a list (once per graph, for R's dimnames), or None."""
    return None if g.names is None else [str(x) for x in g.names.tolist()]


def view(g: Graph, mode: str = "out") -> Graph:
    """`g` for igraph's `mode` ("out", "in", "all": Graph.oriented, built once and kept), or
    "weak": without directions and without weights, for weak components, which need no
    weights and so allow negative ones (kept on the graph too)."""
    if mode != "weak":
        return g.oriented(mode)
    if not g.directed:
        return g
    return g.cache("weak components", lambda: Graph.from_edges(
        g.edge_sources(), g.indices, None, directed=False, num_vertices=len(g), names=g.names))
