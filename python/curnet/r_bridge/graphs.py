"""R's graphs in the engine: built from R's Arrow id columns, an Arrow table or a file, what
R keeps next to each graph (its summary and names), and the oriented views igraph's `mode`
asks for."""
from __future__ import annotations

import warnings

import numpy as np

from ..backends import get_backend
from ..columns import WEIGHT_NAMES  # noqa: F401  (R's weight_names(), R/graph.R)
from ..graph import Graph


# The weights' float width is `dtype` (NumPy's name, the engine's); R says `precision =
# "double"/"single"` and maps it (R/graph.R, engine_dtype()).

def graph_from_arrow(src, dst, weights, directed, num_vertices, dtype="float64") -> Graph:
    """A Graph from 0-based Arrow id columns (and optional weights) that R exported."""
    return Graph.from_edges(src, dst, weights, directed=bool(directed),
                            num_vertices=int(num_vertices), dtype=dtype)


def graph_from_table(table, directed, weights=None, dtype="float64", id_names=False) -> Graph:
    """A Graph from an Arrow table (R's arrow package): columns 1 and 2 are the endpoints
    (with id_names, numeric ids too are vertex names, as in R's data frames), `weights`
    names the weight column (None: unweighted)."""
    from ..io import as_names, from_arrow
    if id_names:
        table = table.set_column(0, table.column_names[0], as_names(table.column(0)))
        table = table.set_column(1, table.column_names[1], as_names(table.column(1)))
    return from_arrow(table, weight=weights, directed=bool(directed), dtype=dtype)


def read_graph(path, dtype="float64", **kwargs) -> Graph:
    """A graph file read by the engine; weights as float64, R's numbers (float32 with
    dtype="float32")."""
    from ..io import read_graph as read
    return read(path, dtype=dtype, **kwargs)


def read_graph_warned(path, dtype="float64", **kwargs) -> list:
    """read_graph, and what the reader warned (a line taken as a header, a column not taken
    as weights) as a list of messages, for R to raise as its own warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = read_graph(path, dtype, **kwargs)
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
