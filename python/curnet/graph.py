"""The immutable graph every algorithm reads: CSR out-arcs, lazily CSC in-arcs."""
from __future__ import annotations

import numpy as np

from .memory import check_fits
from .work import tally
from .columns import to_numpy, is_string_column

INT32_MAX = np.iinfo(np.int32).max


def offset_dtype(num_arcs: int) -> np.dtype:
    """CSR offsets are int32 while they fit, int64 beyond (2^31 - 1 arcs)."""
    return np.dtype(np.int32) if num_arcs <= INT32_MAX else np.dtype(np.int64)


#: From this many arcs, compress sorts them by the compiled counting sort where Numba imports:
#: NumPy's stable argsort of int32 keys is a merge sort, and a process's first compiled sort
#: pays ~0.5 s for Numba's import and its cached code (R-MAT 18 undirected, 8.4M arcs, on the
#: 2-core machine: argsort 1.45 s, compiled 0.78 s warm and 1.10 s in a fresh process;
#: bench/results/graph_build_2026-12-04.json). Keys are int32 (vertex ids), the signature the
#: warm-up compiles.
COMPILED_SORT_MIN_ARCS = 1 << 23


def compress(keys: np.ndarray, n: int, *payload: np.ndarray):
    """Stable sort of arcs by `keys` (ints in 0..n-1; int32 vertex ids, or int64 entries as the
    CPU's weighted betweenness sorts, which take the argsort): returns (offsets, *payload sorted)."""
    counts = np.bincount(keys, minlength=n)
    offsets = np.zeros(n + 1, dtype=offset_dtype(len(keys)))
    np.cumsum(counts, out=offsets[1:])
    order = None
    if len(keys) >= COMPILED_SORT_MIN_ARCS and keys.dtype == np.int32:    # the warmed signature
        from . import compiled_sort
        if compiled_sort.available():
            tally("graph compiled sorts")
            order = compiled_sort.counting_order(keys, offsets)
    if order is None:
        order = np.argsort(keys, kind="stable")
    return (offsets, *(p[order] for p in payload))


def _vertex_ids(col, what: str) -> np.ndarray:
    ids = to_numpy(col, what)
    if ids.size == 0 and ids.dtype.kind in "fO":
        ids = ids.astype(np.int32)   # an empty list: no edges
    if ids.dtype == bool or not np.issubdtype(ids.dtype, np.integer):
        if np.issubdtype(ids.dtype, np.floating):
            raise TypeError(f"{what} holds floating-point ids; vertex ids must be integers "
                            "(convert them, e.g. with .astype(int), after checking they are whole)")
        raise TypeError(f"{what} must hold integer ids or vertex names, got dtype {ids.dtype}")
    if ids.size and ids.min() < 0:
        raise ValueError(f"{what} holds a negative vertex id ({int(ids.min())})")
    if ids.size and ids.max() >= INT32_MAX:
        raise ValueError(f"{what} holds vertex id {int(ids.max())}, beyond the int32 range cuRnet supports")
    return ids.astype(np.int32, copy=False)


def _weights(col, m: int, dtype) -> np.ndarray:
    w = to_numpy(col, "weights")
    if w.dtype == object or w.dtype.kind in "USbc":
        raise TypeError(f"weights must be numeric (real), got dtype {w.dtype} (convert strings to numbers first)")
    if w.shape != (m,):
        raise ValueError(f"weights has length {len(w)}, but there are {m} edges")
    with np.errstate(over="ignore"):
        given, w = w, w.astype(dtype, copy=False)
    bad = ~np.isfinite(w)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        why = f" (beyond the {dtype} range)" if np.isfinite(given[i]) else ""
        raise ValueError(f"weights must be finite: edge {i} has weight {given[i]}{why} "
                         f"({int(bad.sum())} non-finite weight(s) in all)")
    return w


def _first_appearance(src_names: np.ndarray, dst_names: np.ndarray):
    """Ids of the names in order of first appearance (sources, then targets), and the names as
    an object array. Arrow's dictionary encoding hashes each name where it lies; NumPy's
    astype(str) would pad every name to the longest (one 635-character name made each of the
    2m endpoints 2.5 KB: 4.4 GB for a 312k-edge file)."""
    import pyarrow as pa
    try:
        both = pa.concat_arrays([pa.array(src_names, type=pa.large_string()),
                                 pa.array(dst_names, type=pa.large_string())])
    except (pa.ArrowInvalid, pa.ArrowTypeError):     # mixed types: each as its text
        both = pa.array([str(x) for x in np.concatenate([src_names, dst_names]).tolist()],
                        type=pa.large_string())
    encoded = both.dictionary_encode()
    ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    return ids, np.array(encoded.dictionary.to_pylist(), dtype=object)


def _factorize(src_names: np.ndarray, dst_names: np.ndarray, names):
    """Map two columns of names to ids: in `names` order if given, else first appearance."""
    if names is None:
        ids, names = _first_appearance(src_names, dst_names)
    else:
        both = [str(x) for x in np.concatenate([src_names, dst_names]).tolist()]
        names = np.asarray(names).astype(str)
        index = {name: i for i, name in enumerate(names.tolist())}
        if len(index) != len(names):
            raise ValueError("names holds duplicate vertex names")
        try:
            ids = np.fromiter((index[x] for x in both), dtype=np.int64, count=len(both))
        except KeyError as e:
            raise ValueError(f"edge endpoint {e.args[0]!r} is not in names") from None
    m = len(src_names)
    return ids[:m].astype(np.int32), ids[m:].astype(np.int32), names


def _ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st: positions that R and Python users read alike."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


class Graph:
    """A directed or undirected graph in CSR form, built once and reused.

    Undirected graphs store both arc directions. Duplicate edges and
    self-loops are kept (shortest paths use the cheapest of parallel arcs).
    """

    def __init__(self, indptr, indices, weights, *, directed: bool, names=None, num_edges=None,
                 arc_edges=None):
        self.indptr = indptr
        self.indices = indices
        self.weights = weights
        # the input edge (its position in the edge list) each stored arc came from: edge paths
        # speak of the caller's edges; host memory only, never sent to a device
        self.arc_edges = arc_edges
        self._oriented: dict = {}
        self.directed = bool(directed)
        self.names = names
        self.num_edges = int(num_edges if num_edges is not None else len(indices))
        self._csc: tuple | None = None
        self._name_index: dict | None = None
        self._device: dict = {}  # Graph.cache: key ("cpu", "cuda:0", a derived view) -> what is kept

    # -- construction -------------------------------------------------------
    @classmethod
    def from_edges(cls, src, dst, weights=None, *, directed=True, num_vertices=None,
                   names=None, dtype=np.float32):
        """Build a graph from two columns of endpoints (ids or names) and optional weights.

        Columns may be NumPy/CuPy arrays, lists, pandas or polars columns, or
        Arrow arrays. String columns are vertex names, mapped to ids in order of
        first appearance (or in the order of `names`, if given).
        """
        dtype = np.dtype(dtype)
        if dtype not in (np.float32, np.float64):
            raise TypeError(f"dtype must be float32 or float64, got {dtype}")
        if num_vertices is not None and not 0 <= num_vertices <= INT32_MAX:
            raise ValueError(f"num_vertices={num_vertices} is outside 0..{INT32_MAX} (vertex ids are int32)")
        if is_string_column(src) or is_string_column(dst):
            s_names = to_numpy(src, "src")
            d_names = to_numpy(dst, "dst")
            if len(s_names) != len(d_names):
                raise ValueError(f"src and dst differ in length ({len(s_names)} vs {len(d_names)})")
            s, d, names = _factorize(s_names, d_names, names)
            if num_vertices is not None and num_vertices != len(names):
                raise ValueError(f"num_vertices={num_vertices} but the edges name {len(names)} vertices")
        else:
            s = _vertex_ids(src, "src")
            d = _vertex_ids(dst, "dst")
            if len(s) != len(d):
                raise ValueError(f"src and dst differ in length ({len(s)} vs {len(d)})")
            top = int(max(s.max(initial=-1), d.max(initial=-1))) + 1
            if names is not None:
                names = np.asarray(names).astype(str)
                if num_vertices is None:
                    num_vertices = len(names)
                elif num_vertices != len(names):
                    raise ValueError(f"num_vertices={num_vertices} but {len(names)} names were given")
            if num_vertices is None:
                num_vertices = top
            elif top > num_vertices:
                raise ValueError(f"vertex id {top - 1} is out of range for num_vertices={num_vertices}")
        n = int(num_vertices) if num_vertices is not None else len(names)
        # one edge to vertex 2^31 - 2, or a file header's vertex count, would ask for 32 GiB
        check_fits(16 * (n + 1), f"a graph of {n:,} vertices", "its vertex offsets alone do not fit")
        m = len(s)
        w = None if weights is None else _weights(weights, m, dtype)
        if w is not None and not directed and m and w.min() < 0:
            i = int(np.argmin(w))
            raise ValueError(f"negative weight {w[i]:g} on the {_ordinal(i + 1)} edge (index {i}) of "
                             "an undirected graph: every undirected negative edge is a negative "
                             "cycle; use a directed graph")
        edge = np.arange(m, dtype=np.int32 if m <= INT32_MAX else np.int64)
        if not directed:
            s, d, edge = np.concatenate([s, d]), np.concatenate([d, s]), np.concatenate([edge, edge])
            if w is not None:
                w = np.concatenate([w, w])
        payload = (d, edge) if w is None else (d, edge, w)
        indptr, *rest = compress(s, n, *payload)
        return cls(indptr, rest[0], rest[2] if w is not None else None,
                   directed=directed, names=names, num_edges=m, arc_edges=rest[1])

    # -- properties ---------------------------------------------------------
    def __len__(self) -> int:
        return len(self.indptr) - 1

    @property
    def num_vertices(self) -> int:
        return len(self)

    @property
    def num_arcs(self) -> int:
        """Stored arcs: edges for a directed graph, twice the edges for an undirected one."""
        return len(self.indices)

    @property
    def weighted(self) -> bool:
        return self.weights is not None

    @property
    def weight_dtype(self) -> np.dtype:
        """The dtype of weights and distances: the weights', float32 for an unweighted graph."""
        return self.weights.dtype if self.weights is not None else np.dtype(np.float32)

    @property
    def nbytes(self) -> int:
        arrays = [self.indptr, self.indices, self.weights, self.arc_edges]
        if self._csc is not None and self.directed:
            arrays += list(self._csc)
        return int(sum(a.nbytes for a in arrays if a is not None))

    def out_degree(self) -> np.ndarray:
        return np.diff(self.indptr)

    def in_degree(self) -> np.ndarray:
        return np.diff(self.csc()[0])

    @property
    def min_weight(self) -> float:
        """The smallest arc weight (1.0 for an unweighted or arc-less graph): the drivers'
        choice of shortest-path method reads it."""
        w = self.weights
        return float(w.min()) if w is not None and len(w) else 1.0

    def cache(self, key, build):
        """The value kept with this graph under `key` (a backend's copy of its arrays), made
        by build() on first use. Two threads asking at once may both build; the first stored
        is kept and returned to both."""
        value = self._device.get(key)
        if value is None:
            value = self._device.setdefault(key, build())
        return value

    def csc(self):
        """In-arcs as (indptr, sources, weights), built on first use; the CSR itself if undirected."""
        if not self.directed:
            return self.indptr, self.indices, self.weights
        if self._csc is None:
            src = self.edge_sources()
            payload = (src,) if self.weights is None else (src, self.weights)
            indptr, *rest = compress(self.indices, len(self), *payload)
            self._csc = (indptr, rest[0], rest[1] if self.weights is not None else None)
        return self._csc

    def edge_sources(self) -> np.ndarray:
        """The source vertex of each stored arc, aligned with `indices`."""
        return np.repeat(np.arange(len(self), dtype=np.int32), np.diff(self.indptr))

    def edges(self):
        """(src, dst, weights or None) in the order the edges were given (an undirected edge
        in either orientation)."""
        if self.arc_edges is None:
            raise ValueError("this graph does not know its input edge order (it was not built "
                             "by Graph.from_edges)")
        first = np.zeros(self.num_edges, dtype=np.int64)
        # each edge's first stored arc (undirected edges have two)
        first[self.arc_edges[::-1]] = np.arange(self.num_arcs - 1, -1, -1)
        w = None if self.weights is None else self.weights[first]
        return self.edge_sources()[first], self.indices[first], w

    def oriented(self, mode: str = "out") -> "Graph":
        """The graph whose out-arcs follow `mode` (igraph's): "out" this graph, "in" its
        reverse, "all" it without directions. Built once and kept; edge ids, names and
        weights are this graph's."""
        if mode not in ("out", "in", "all"):
            raise ValueError(f"mode must be 'out', 'in' or 'all', got {mode!r}")
        if mode == "out" or not self.directed:
            return self
        if mode not in self._oriented:
            src, dst, w = self.edges()
            if mode == "in":
                src, dst = dst, src
            if mode == "all" and w is not None and len(w) and w.min() < 0:
                i = int(np.argmin(w))
                raise ValueError(f"mode 'all' ignores edge directions, and a negative edge without "
                                 f"a direction is a negative cycle (the {_ordinal(i + 1)} edge, index "
                                 f"{i}, weighs {w[i]:g}): follow the directions (mode 'out' or 'in'), "
                                 "or count hops")
            self._oriented[mode] = Graph.from_edges(
                src, dst, w, directed=mode == "in", num_vertices=len(self), names=self.names,
                dtype=self.weight_dtype)
        return self._oriented[mode]

    def without_weights(self) -> "Graph":
        """The same arcs without weights (hops), built once and kept with its own device
        copies; this graph itself if it has no weights."""
        if self.weights is None:
            return self
        if "unweighted" not in self._oriented:
            self._oriented["unweighted"] = Graph(
                self.indptr, self.indices, None, directed=self.directed, names=self.names,
                num_edges=self.num_edges, arc_edges=self.arc_edges)
        return self._oriented["unweighted"]

    def name_index(self) -> dict:
        if self.names is None:
            raise ValueError("this graph has no vertex names; give sources as integer ids")
        if self._name_index is None:
            self._name_index = {name: i for i, name in enumerate(self.names.tolist())}
        return self._name_index

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        w = f"weighted ({self.weights.dtype})" if self.weighted else "unweighted"
        named = ", named" if self.names is not None else ""
        return (f"<curnet.Graph {kind}, {w}{named}: {len(self):,} vertices, "
                f"{self.num_edges:,} edges ({self.num_arcs:,} arcs), {self.nbytes / 2**20:.1f} MiB>")

