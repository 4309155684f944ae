"""The narrow entry points the R package cuRnet calls (through reticulate).

Data crosses without reticulate's element-by-element conversion:

* in: R exports its integer and double vectors through the Arrow C data
  interface (the package's src/handoff.c); :func:`import_arrow` wraps them as
  pyarrow arrays over R's own memory, and R's NA arrive as nulls;
* out: R allocates each result matrix and passes its data address; the
  ``*_into`` functions wrap it as a writable Fortran-ordered NumPy array (R's
  column-major layout) and hand it to the engine as ``out=``.

Vertex ids here are 0-based, as everywhere in the engine; the R side converts.
"""
from __future__ import annotations

import ctypes

import numpy as np
import pyarrow as pa

from . import algorithms, info as _info
from .backends import get_backend
from .errors import NegativeCycleError
from .graph import Graph

#: R's NA_integer_
R_NA_INTEGER = np.iinfo(np.int32).min

_R_TYPES = {"integer": np.dtype(np.int32), "double": np.dtype(np.float64)}


def import_arrow(array_address, schema_address) -> pa.Array:
    """A pyarrow array over the buffers R exported (addresses of ArrowArray / ArrowSchema)."""
    return pa.Array._import_from_c(int(array_address), int(schema_address))


def r_array(address, shape, r_type: str) -> np.ndarray:
    """A writable NumPy view of an R vector or matrix of type "integer" or "double"."""
    dtype = _R_TYPES[r_type]
    shape = tuple(int(s) for s in np.atleast_1d(shape))
    count = int(np.prod(shape, dtype=np.int64))
    if count == 0:
        return np.empty(shape, dtype=dtype, order="F")
    memory = (ctypes.c_char * (count * dtype.itemsize)).from_address(int(address))
    return np.frombuffer(memory, dtype=dtype, count=count).reshape(shape, order="F")


def graph_from_arrow(src, dst, weights, directed, num_vertices, double=True) -> Graph:
    """A Graph from 0-based Arrow id columns (and optional weights) that R exported."""
    return Graph.from_edges(src, dst, weights, directed=bool(directed),
                            num_vertices=int(num_vertices),
                            dtype=np.float64 if double else np.float32)


def graph_from_table(table, directed, weights=None, double=True) -> Graph:
    """A Graph from an Arrow table (R's arrow package): columns 1 and 2 are the endpoints,
    `weights` names the weight column (None: unweighted)."""
    from .io import from_arrow
    return from_arrow(table, weight=weights, directed=bool(directed),
                      dtype=np.float64 if double else np.float32)


def read_graph(path, **kwargs) -> Graph:
    """A graph file read by the engine; weights in double precision, as R's numbers."""
    from .io import read_graph as read
    kwargs.setdefault("dtype", np.float64)
    return read(path, **kwargs)


def summary(g: Graph) -> dict:
    """What R's print() shows, and what R keeps next to the graph."""
    return {"n": len(g), "m": int(g.num_edges), "directed": bool(g.directed),
            "weighted": bool(g.weighted), "has_names": g.names is not None,
            "backend": get_backend("auto").name}


def names(g: Graph):
    """The vertex names as a list (once per graph, for R's dimnames), or None."""
    return None if g.names is None else [str(x) for x in g.names.tolist()]


def _progress(r_callback):
    """The engine's progress hook: R's callback returns FALSE when the user interrupted."""
    if r_callback is None or r_callback is False:
        return False

    def hook(done, total):
        if not r_callback(int(done), int(total)):
            raise KeyboardInterrupt("interrupted from R")
    return hook


def bfs_into(g, sources, address, r_type, progress=None, backend="auto") -> None:
    """BFS depths into R's k x n matrix: NA_integer_ or Inf where unreachable."""
    out = r_array(address, (len(sources), len(g)), r_type)   # sources: R's Arrow ids, read in place
    unreachable = R_NA_INTEGER if r_type == "integer" else np.inf
    algorithms.bfs(g, sources, backend=backend, out=out, unreachable=unreachable,
                   progress=_progress(progress))


def sssp_into(g, sources, dist_address, pred_address=None, progress=None, backend="auto") -> int:
    """Distances (double, Inf unreachable) and, if `pred_address`, 0-based predecessors
    (-1 none) into R's k x n matrices. Returns -1, or the 0-based source from which a
    negative cycle is reachable (R names it in its own error)."""
    shape = (len(sources), len(g))
    dist = r_array(dist_address, shape, "double")
    try:
        if pred_address is None:
            algorithms.sssp_dists(g, sources, backend=backend, out=dist, progress=_progress(progress))
        else:
            pred = r_array(pred_address, shape, "integer")
            algorithms.sssp(g, sources, backend=backend, out_dist=dist, out_pred=pred,
                            progress=_progress(progress))
    except NegativeCycleError as e:
        return e.source
    return -1


def scc_into(g, address, r_type, base=1, backend="auto") -> None:
    """Canonical SCC labels, plus `base` (R counts from 1), into R's 1 x n matrix."""
    out = r_array(address, (1, len(g)), r_type)
    np.add(algorithms.scc(g, backend=backend), base, out=out[0], casting="unsafe")


def info() -> dict:
    return _info()


def measure(g, name, vertices=None, progress=None, backend="auto", **options):
    """One of :mod:`curnet.measures` by name, over 0-based `vertices` (R's Arrow ids; None:
    all vertices). Arrays and counts come back as float64 (R numbers: counts of vertex pairs
    outgrow R's integers); tuples as lists."""
    from . import measures
    if name not in measures.__all__:
        raise ValueError(f"unknown measure {name!r}")
    if vertices is not None:
        options["vertices"] = vertices
    result = getattr(measures, name)(g, backend=backend, progress=_progress(progress), **options)

    def for_r(x):
        if isinstance(x, np.ndarray):
            return x.astype(np.float64, copy=False)
        return float(x) if isinstance(x, (int, np.integer)) and not isinstance(x, bool) else x
    return [for_r(x) for x in result] if isinstance(result, tuple) else for_r(result)
