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
import types
from typing import Any, cast

import numpy as np
import pyarrow as pa

from .algorithms.bfs import bfs
from .algorithms.common import check_fits
from .algorithms.scc import scc as _scc
from .algorithms.sinks import MatrixSink
from .algorithms.sssp import sssp, sssp_blocks, sssp_dists
from .backends import auto_reason, get_backend
from .engine_info import info as _info
from .errors import NegativeCycleError
from .graph import Graph
from .sources import resolve_sources

#: R's NA_integer_
R_NA_INTEGER = np.iinfo(np.int32).min

_R_TYPES: dict[str, np.dtype] = {"integer": np.dtype(np.int32), "double": np.dtype(np.float64)}

#: What the last call from R ran on, and for backend "auto" why (cuRnet_info() shows it);
#: after a negative cycle, also the 0-based source it was reached from.
last_run: dict = {}


def import_arrow(array_address, schema_address) -> pa.Array:
    """A pyarrow array over the buffers R exported (addresses of ArrowArray / ArrowSchema)."""
    return pa.Array._import_from_c(int(array_address), int(schema_address))


def r_array(address, shape, r_type: str) -> np.ndarray:
    """A writable NumPy view of an R vector or matrix of type "integer" or "double".

    `address` is what R's data_address() passes: the vector's address and its length, which
    must be the cells of `shape` (a view past the end of R's vector would write over R's
    memory: refused before anything is written). A bare address (a Python caller's own
    array) has no length to check."""
    dtype = _R_TYPES[r_type]
    shape = tuple(int(s) for s in np.atleast_1d(shape))
    count = int(np.prod(shape, dtype=np.int64))
    cells = None
    if isinstance(address, (list, tuple)):
        address, cells = address[0], int(address[1])
    if cells is not None and cells != count:
        raise ValueError(f"the result R allocated holds {cells:,} values where {count:,} "
                         f"({' x '.join(f'{s:,}' for s in shape)}) were to be written: nothing "
                         "was written (a bug in cuRnet: please report it)")
    if count == 0:
        return np.empty(shape, dtype=dtype, order="F")
    memory = (ctypes.c_char * (count * dtype.itemsize)).from_address(int(address))
    return np.frombuffer(cast(Any, memory), dtype=dtype, count=count).reshape(shape, order="F")


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
LOCAL = types.SimpleNamespace(bfs=bfs, sssp=sssp, sssp_dists=sssp_dists)
_engine: Any = LOCAL    # LOCAL, or a distributed.ClusterEngine after cuRnet_cluster()
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
    _engine = LOCAL
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
    full_pred: Any = None if pred is None else _engine_out(pred, g, targets)
    ids = resolve_sources(g, sources)
    sink = MatrixSink(full_dist, full_pred, pred_base=1, pred_none=int(pred_none))
    try:
        if _engine is LOCAL:
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
    np.add(_scc(g, backend=_backend(backend, "scc")), base, out=out[0], casting="unsafe")


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
    from .network_proximity import as_columns, proximity
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


def betweenness_for_r(g, kind, selection=None, directed=True, weighted=False, normalized=False,
                      cutoff=-1.0, progress=None, backend="auto"):
    """R's cuRnet_betweenness (`kind` "vertex") and cuRnet_edge_betweenness ("edge"): the
    values of the 0-based vertex or edge ids `selection` (None: all), as a list of floats."""
    from .betweenness_centrality import betweenness, edge_betweenness
    options = dict(directed=bool(directed), weighted=bool(weighted), cutoff=float(cutoff),
                   backend=_backend(backend, f"{kind} betweenness"), progress=_progress(progress))
    if selection is not None:
        from .columns import to_numpy
        selection = to_numpy(selection, "selection").astype(np.int64)
    if kind == "vertex":
        return plain(betweenness(g, selection, normalized=bool(normalized), **options))
    if kind == "edge":
        return plain(edge_betweenness(g, selection, **options))
    raise ValueError(f"unknown betweenness kind {kind!r}")


# -- co-expression (R/coexpression.R) ------------------------------------------------------------
#: the edges of the last cuRnet_coexpression() call, until R has allocated their vectors
_coexpression_edges: dict = {}


def expression_from_r(values, nrow, ncol, genes_in_rows):
    """R's nrow x ncol expression matrix (an Arrow double array, column-major, NA as null) as
    the engine's genes x samples."""
    flat = values.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    m = flat.reshape(int(ncol), int(nrow))           # R's matrix, transposed
    return np.ascontiguousarray(m.T if genes_in_rows else m)


def looks_transposed_for_r(genes, samples, gene_names=None, sample_names=None):
    """Why R's expression matrix, read as `genes` x `samples`, looks transposed (None if not);
    R words the warning (R's character vectors arrive as lists, or a str when of length 1)."""
    from .coexpression import looks_transposed
    as_list = lambda x: None if x is None else [x] if isinstance(x, str) else list(x)
    return looks_transposed(int(genes), int(samples), as_list(gene_names), as_list(sample_names))


def coexpression_edges_for_r(values, nrow, ncol, genes_in_rows, method, threshold, top_k, signed,
                             pvalues, max_p_outliers, backend="auto", names=None) -> dict:
    """cuRnet_coexpression: the network's edges are kept here; R allocates vectors of the
    returned length and fetches them with coexpression_edges_into()."""
    import warnings
    from .coexpression import CoexpressionWarning, coexpression_edges
    x = expression_from_r(values, nrow, ncol, genes_in_rows)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CoexpressionWarning)
        e = coexpression_edges(x, method, threshold=threshold, top_k=None if top_k is None else int(top_k),
                               signed=bool(signed), pvalues=bool(pvalues), names=names,
                               max_p_outliers=float(max_p_outliers),
                               backend=_backend(backend, "coexpression"))
    _coexpression_edges.clear()
    _coexpression_edges.update(e)
    return plain({"m": len(e["source"]), "undefined": e["undefined"],
                  "warnings": [str(w.message) for w in caught]})


def coexpression_edges_into(src_address, dst_address, r_address, p_address=None) -> None:
    """The kept edges into R's vectors: 1-based gene indices, correlations, p-values."""
    e = _coexpression_edges
    m = len(e["source"])
    src, dst = r_array(src_address, (m,), "integer"), r_array(dst_address, (m,), "integer")
    r = r_array(r_address, (m,), "double")
    p = None if p_address is None else r_array(p_address, (m,), "double")
    np.add(e["source"], 1, out=src, casting="unsafe")
    np.add(e["target"], 1, out=dst, casting="unsafe")
    r[:] = e["r"]
    if p is not None:
        p[:] = e["p"]
    _coexpression_edges.clear()


def wgcna_dense_into(what, address, values, nrow, ncol, genes_in_rows, backend="auto", **options) -> None:
    """A dense n x n WGCNA quantity ("cor", "adjacency", "tom_from_expr") into R's matrix."""
    from . import coexpression as ce
    fn: Any = {"cor": ce.cor, "adjacency": ce.adjacency, "tom_from_expr": ce.tom_similarity_from_expr}[what]
    x = expression_from_r(values, nrow, ncol, genes_in_rows)
    out = r_array(address, (x.shape[0], x.shape[0]), "double")    # R's n x n, checked first
    fn(x, backend=_backend(backend, what), out=out, **options)


def tom_into(address, values, n, backend="auto", **options) -> None:
    """TOMsimilarity of R's n x n adjacency into R's matrix."""
    from .coexpression import tom_similarity
    out = r_array(address, (int(n), int(n)), "double")
    adj = values.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    if adj.size != out.size:
        raise ValueError(f"adjMat has {adj.size:,} values, not {int(n):,} x {int(n):,}")
    tom_similarity(adj.reshape(int(n), int(n)).T, backend=_backend(backend, "tom"), out=out, **options)


def pick_soft_threshold_for_r(values, nrow, ncol, genes_in_rows, backend="auto", **options) -> dict:
    from .coexpression import pick_soft_threshold
    x = expression_from_r(values, nrow, ncol, genes_in_rows)
    if "powers" in options:
        options["powers"] = np.atleast_1d(np.asarray(options["powers"], dtype=np.float64))
    fit = pick_soft_threshold(x, backend=_backend(backend, "pickSoftThreshold"), **options)
    return plain({"powerEstimate": fit["powerEstimate"],
                  "fitIndices": {k: v.astype(np.float64) for k, v in fit["fitIndices"].items()},
                  "columns": list(fit["fitIndices"])})

# The last network cuRnet_pcsf was given, by a digest of its arrays and names: R hands the
# same interactome over call after call, and its Graph (with its checks and device copy) is
# then built once instead of every call.
_pcsf_networks: dict = {}


def _pcsf_network(src, dst, cost, vertex_names) -> Graph:
    import hashlib
    from .columns import to_numpy
    arrays = [to_numpy(src, "src"), to_numpy(dst, "dst"), to_numpy(cost, "costs")]
    h = hashlib.blake2b(digest_size=20)
    for a in arrays:
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(cast(Any, np.ascontiguousarray(a).view(np.uint8)))   # an array is a buffer
    h.update("\0".join(vertex_names.tolist()).encode())
    key = h.hexdigest()
    g = _pcsf_networks.get(key)
    if g is None:
        g = Graph.from_edges(*arrays, directed=False, num_vertices=len(vertex_names),
                             names=vertex_names, dtype=np.float64)
        _pcsf_networks.clear()
        _pcsf_networks[key] = g
    return g


def pcsf_for_r(src, dst, cost, vertex_names, terminals, prizes, w, b, mu, dummies=None,
               runs=None, noise=0.1, seed=None, progress=None, backend="auto", improve=True,
               precision="double") -> dict:
    """cuRnet_pcsf / cuRnet_pcsf_rand: the network as 0-based Arrow id columns with costs and
    its vertex names, the terminals' names and prizes; runs=None is one forest (vertex
    name, prize, type; edges from, to, cost; objective, trees), else `runs` noisy runs'
    union (vertex and edge counts) with each run's objective."""
    from .steiner_forest import pcsf, pcsf_rand
    # R's character vectors arrive as lists of str, or as a str when of length one
    strings = lambda x: np.atleast_1d(np.asarray(x, dtype=str))
    g = _pcsf_network(src, dst, cost, strings(vertex_names))
    prizes = (strings(terminals).tolist(), np.atleast_1d(np.asarray(prizes, dtype=np.float64)))
    options = dict(w=float(w), b=float(b), mu=float(mu), dummies=None if dummies is None else strings(dummies).tolist(),
                   improve=bool(improve), precision=str(precision),
                   backend=_backend(backend, "pcsf"), progress=_progress(progress), duplicates="last")
    if runs is None:
        f = pcsf(g, prizes, **options)
        out = {"vertices": f.vertex_table(), "edges": f.edge_table(), "objective": f.objective,
               "objective_terms": f.objective_terms, "trees": f.trees}
    else:
        u = pcsf_rand(g, prizes, n=int(runs), r=float(noise), seed=None if seed is None else int(seed), **options)
        out = {"vertices": u.vertex_table(), "edges": u.edge_table(), "objectives": u.objectives,
               "runs": u.runs}
    done = f if runs is None else u
    out.update(matched=done.matched, unmatched=done.unmatched,
               seconds={k: float(v) for k, v in done.seconds.items()},
               work={k: float(v) for k, v in done.work.items()})
    return plain(out)

def girvan_newman_for_r(g, directed=True, weighted=False, progress=None, backend="auto"):
    """R's cuRnet_cluster_edge_betweenness: igraph's fields, 0-based, as lists (the removed
    edges, their betweenness, merges as one row after another, bridges, modularity,
    membership); the graph's weights, when used, are also the modularity's."""
    from .communities import girvan_newman
    got = girvan_newman(g, directed=bool(directed), weighted=bool(weighted),
                        backend=_backend(backend, "edge betweenness communities"), progress=_progress(progress))
    return plain([got.removed, got.edge_betweenness, got.merges.ravel(), got.bridges, got.modularity,
                  got.membership])
