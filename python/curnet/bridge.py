"""The narrow entry points the R package cuRnet calls (through reticulate).

Data crosses without reticulate's element-by-element conversion:

* in: R exports its integer and double vectors through the Arrow C data
  interface (the package's src/handoff.c); :func:`import_arrow` wraps them as
  pyarrow arrays over R's own memory, and R's NA arrive as nulls;
* out: R allocates each result matrix and passes its data address; the
  ``*_into`` functions wrap it as a writable Fortran-ordered NumPy array (R's
  column-major layout) and hand it to the engine as ``out=`` (or as the rows of a
  MatrixSink, which also writes predecessors in R's numbering).

Vertex ids here are 0-based, as everywhere in the engine; the R side converts.
"""
from __future__ import annotations

import ctypes

import numpy as np
import pyarrow as pa

from . import algorithms, info as _info
from .algorithms.common import check_fits
from .algorithms.sinks import MatrixSink
from .algorithms.sssp import sssp_blocks
from .backends import auto_reason, get_backend
from .errors import NegativeCycleError
from .graph import Graph
from .sources import resolve_sources

#: R's NA_integer_
R_NA_INTEGER = np.iinfo(np.int32).min

_R_TYPES = {"integer": np.dtype(np.int32), "double": np.dtype(np.float64)}

#: What the last call from R ran on, and for backend "auto" why (cuRnet_info() shows it);
#: after a negative cycle, also the 0-based source it was reached from.
last_run: dict = {}


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


def graph_from_table(table, directed, weights=None, double=True, id_names=False) -> Graph:
    """A Graph from an Arrow table (R's arrow package): columns 1 and 2 are the endpoints
    (with id_names, numeric ids too are vertex names, as in R's data frames), `weights`
    names the weight column (None: unweighted)."""
    from .io import from_arrow, as_names
    if id_names:
        table = table.set_column(0, table.column_names[0], as_names(table.column(0)))
        table = table.set_column(1, table.column_names[1], as_names(table.column(1)))
    return from_arrow(table, weight=weights, directed=bool(directed),
                      dtype=np.float64 if double else np.float32)


def read_graph(path, double=True, **kwargs) -> Graph:
    """A graph file read by the engine; weights in double precision, as R's numbers (single
    with double=False)."""
    from .io import read_graph as read
    return read(path, dtype=np.float64 if double else np.float32, **kwargs)


def read_graph_warned(path, double=True, **kwargs) -> list:
    """read_graph, and what the reader warned (a line taken as a header, a column not taken
    as weights) as a list of messages, for R to raise as its own warnings."""
    import warnings
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


def _progress(r_callback):
    """The engine's progress hook: R's callback returns FALSE when the user interrupted."""
    if r_callback is None or r_callback is False:
        return False

    def hook(done, total):
        if not r_callback(int(done), int(total)):
            raise KeyboardInterrupt("interrupted from R")
    return hook


#: The engine the many-source calls run on: this process, or a Dask cluster (use_cluster).
_engine = algorithms
_local_cluster = None   # a cluster use_cluster started, closed when it is left


def use_cluster(cluster=None, workers=None, gpu=False, timeout=30):
    """Run the many-source calls on a Dask cluster: a scheduler address, or (cluster None,
    workers given) a local cluster of `workers` processes (one a GPU with gpu=True) started
    here; None and None: back to this process. An address not reached within `timeout`
    seconds is an error. Returns the scheduler's address (or None)."""
    global _engine, _local_cluster
    from . import distributed
    if _local_cluster is not None:
        _local_cluster.close()
        _local_cluster = None
    _engine = algorithms
    if cluster is None and workers is None:
        return None
    if cluster is None:
        _own_libpython_first()
        cluster = _local_cluster = distributed.local_cluster(int(workers), gpu=bool(gpu))
    _engine = distributed.ClusterEngine(cluster, timeout=float(timeout))
    return _engine.client.scheduler.address


def _own_libpython_first() -> None:
    """Worker processes started from R inherit R's LD_LIBRARY_PATH, whose system library
    folder holds the system's libpython, ahead of this interpreter's own: the workers would
    start on the wrong one. Put this interpreter's library folder first (kept for the
    workers a nanny restarts later)."""
    import os
    import sysconfig
    libdir = sysconfig.get_config_var("LIBDIR")
    if not (sysconfig.get_config_var("Py_ENABLE_SHARED") and libdir):
        return
    paths = os.environ.get("LD_LIBRARY_PATH", "")
    if paths.split(":")[0] != libdir:
        os.environ["LD_LIBRARY_PATH"] = libdir + (":" + paths if paths else "")


def _backend(name: str, algorithm: str) -> str:
    """Resolves the backend a call from R asked for and records it in `last_run`."""
    be = get_backend(name)
    last_run.clear()
    last_run.update(algorithm=algorithm, asked=name, backend=be.name, device=be.describe())
    if name == "auto":
        last_run["why"] = auto_reason()
    return name


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


def check_result_fits(k, n, bytes_per_cell) -> None:
    """The engine's host-memory check, for a result R is about to allocate (k x n cells)."""
    check_fits(int(k) * int(n) * int(bytes_per_cell),
               f"the result for {int(k):,} sources x {int(n):,} vertices")


def _targets(g, targets):
    """R's 0-based target ids, checked (None: every vertex)."""
    if targets is None:
        return None
    from .columns import to_numpy
    t = to_numpy(targets, "targets")
    if t.size and not np.issubdtype(t.dtype, np.integer):
        raise TypeError(f"targets must be integer vertex ids or vertex names, got dtype {t.dtype}")
    bad = (t < 0) | (t >= len(g))
    if bad.any():
        raise ValueError(f"target id {int(t[bad][0])} is out of range: the graph has "
                         f"{len(g)} vertices (ids 0..{len(g) - 1})")
    return t.astype(np.int64)


def _engine_out(r_out, g, targets):
    """Where the engine writes: R's matrix itself, or with `targets` a k x n array whose
    target columns are copied into R's matrix afterwards."""
    if targets is None:
        return r_out
    from .algorithms.common import result_buffer
    return result_buffer(None, (r_out.shape[0], len(g)), r_out.dtype, "the result for all vertices")


def bfs_into(g, sources, address, r_type, progress=None, backend="auto", mode="out",
             targets=None) -> None:
    """BFS depths into R's k x n matrix (k x len(targets) with `targets`, 0-based vertex ids):
    NA_integer_ or Inf where unreachable."""
    g = view(g, mode)
    targets = _targets(g, targets)
    out = r_array(address, (len(sources), len(g) if targets is None else len(targets)), r_type)
    unreachable = R_NA_INTEGER if r_type == "integer" else np.inf
    full = _engine.bfs(g, sources, backend=_backend(backend, "bfs"), out=_engine_out(out, g, targets),
                          unreachable=unreachable, progress=_progress(progress))
    if targets is not None:
        np.take(full, targets, axis=1, out=out)


def sssp_into(g, sources, dist_address, pred_address=None, progress=None, backend="auto",
              mode="out", targets=None, pred_none=R_NA_INTEGER, source_self=False) -> None:
    """Distances (double, Inf unreachable) and, if `pred_address`, predecessors into R's k x n
    matrices (k x len(targets) with `targets`). Predecessors are written as R uses them:
    1-based vertex indices, `pred_none` where there is none (NA_integer_; n + 1 indexes a
    "" after the names), the source's own vertex with `source_self` (igraph's form), so R
    makes no pass of its own over the matrix. A negative cycle raises NegativeCycleError;
    its source is also left in `last_run`."""
    g = view(g, mode)
    targets = _targets(g, targets)
    shape = (len(sources), len(g) if targets is None else len(targets))
    dist = r_array(dist_address, shape, "double")
    pred = None if pred_address is None else r_array(pred_address, shape, "integer")
    name = _backend(backend, "sssp")
    full_dist = _engine_out(dist, g, targets)
    full_pred = None if pred is None else _engine_out(pred, g, targets)
    ids = resolve_sources(g, sources)
    sink = MatrixSink(full_dist, full_pred, pred_base=1, pred_none=int(pred_none))
    try:
        if _engine is algorithms:
            sssp_blocks(g, ids, sink, backend=name, with_pred=pred is not None,
                        progress=_progress(progress))
        elif pred is None:          # on a Dask cluster: the rows come back, R's form made here
            _engine.sssp_dists(g, ids, backend=name, out=full_dist, progress=_progress(progress))
        else:
            _engine.sssp(g, ids, backend=name, out_dist=full_dist, out_pred=full_pred,
                         progress=_progress(progress))
            none = full_pred < 0
            full_pred += 1
            full_pred[none] = int(pred_none)
    except NegativeCycleError as e:
        last_run["negative_cycle_source"] = e.source
        raise
    if pred is not None and source_self:
        full_pred[np.arange(len(ids)), ids] = ids + 1
    if targets is not None:
        np.take(full_dist, targets, axis=1, out=dist)
        if pred is not None:
            np.take(full_pred, targets, axis=1, out=pred)


def scc_into(g, address, r_type, base=1, backend="auto", mode="strong") -> None:
    """Canonical component labels, plus `base` (R counts from 1), into R's 1 x n matrix:
    strongly connected components, or with mode="weak" the components of the graph with
    its directions ignored."""
    if mode not in ("strong", "weak"):
        raise ValueError(f"mode must be 'strong' or 'weak', got {mode!r}")
    out = r_array(address, (1, len(g)), r_type)
    g = view(g, "weak") if mode == "weak" else g
    np.add(algorithms.scc(g, backend=_backend(backend, "scc")), base, out=out[0], casting="unsafe")


def info() -> dict:
    return dict(_info(), last_run=dict(last_run))


def shortest_paths_for_r(g, source, targets, mode, weighted, output, predecessors, inbound_edges,
                         backend="auto") -> dict:
    """Paths from one 0-based `source` to 0-based `targets` (None: all), for
    cuRnet_shortest_paths: each path list flattened with its lengths (one conversion each
    instead of one a path); vertex and edge ids 0-based; -1 for none in the trees."""
    from .paths import shortest_paths
    # an array: R's ids are positions, even on a graph whose names are numbers (docs/ids.md)
    p = shortest_paths(g, np.array([int(source)]), targets, mode=mode, weighted=weighted, output=output,
                       predecessors=predecessors, inbound_edges=inbound_edges,
                       backend=_backend(backend, "shortest_paths"))
    out = {}
    for name in ("vpath", "epath"):
        paths = getattr(p, name)
        if paths is not None:
            row = paths[0]
            out[name] = (np.concatenate(row).astype(np.float64) if row else np.zeros(0),
                         np.array([len(x) for x in row], dtype=np.int32))
    if predecessors:
        out["predecessors"] = p.predecessors[0].astype(np.float64)
    if inbound_edges:
        out["inbound_edges"] = p.inbound_edges[0].astype(np.float64)
    return plain(out)


def proximity_for_r(g, sets, module, measures, n_random, bin_size, seed, weighted,
                    backend="auto") -> dict:
    """cuRnet_proximity: 0-based sets (a list) against a 0-based module, one row per set
    and measure, as columns."""
    from .proximity import as_columns, proximity
    results = proximity(g, [np.atleast_1d(np.asarray(s, dtype=np.int64)) for s in sets],
                        np.atleast_1d(np.asarray(module, dtype=np.int64)),
                        measures=list(np.atleast_1d(measures)), n_random=int(n_random), bin_size=int(bin_size),
                        seed=int(seed), weighted=bool(weighted),
                        backend=_backend(backend, "proximity"))
    return plain(as_columns(results, range(1, len(results) + 1)))

def measure(g, name, vertices=None, progress=None, backend="auto", **options):
    """One of :mod:`curnet.measures` by name, over 0-based `vertices` (R's Arrow ids; None:
    all vertices). Arrays and counts come back as float64 (R numbers: counts of vertex pairs
    outgrow R's integers); tuples as lists."""
    from . import measures
    if name not in measures.__all__:
        raise ValueError(f"unknown measure {name!r}")
    if vertices is not None:
        options["vertices"] = vertices
    result = getattr(measures, name)(g, backend=_backend(backend, name), progress=_progress(progress),
                                     **options)

    def for_r(x):
        if isinstance(x, np.ndarray):
            return x.astype(np.float64, copy=False)
        return float(x) if isinstance(x, (int, np.integer)) and not isinstance(x, bool) else x
    return plain([for_r(x) for x in result] if isinstance(result, tuple) else for_r(result))


def plain(x):
    """`x` in Python's own types (lists, floats, ints, str, dicts) for reticulate to convert:
    reticulate 1.28 cannot convert NumPy 2 arrays or scalars (it hands them back unconverted,
    and R then fails on them), while the O(n) results of measures, paths and proximity are
    cheap to pass as lists. The k x n matrices never take this path (R allocates them)."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x
