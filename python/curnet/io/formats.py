"""The line formats with their own vertex numbering: SNAP, Matrix Market, DIMACS (.gr), METIS (.graph)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..graph import Graph
from .errors import GraphFormatError
from .tokens import _Rows, _rows


@dataclass
class _Edges:
    """What a format parser found: 0-based endpoints, weights (or None), vertex count."""
    u: np.ndarray
    v: np.ndarray
    w: np.ndarray | None
    n: object
    undirected: bool  # each listed edge is one undirected edge


def _build(e: _Edges, path, directed, weights, dtype, options) -> Graph:
    if weights not in (None, True, False):
        raise ValueError(f"weights must be None, True or False for this format, got {weights!r}")
    if weights is True and e.w is None:
        raise GraphFormatError(path, None, "weights=True but the file has no edge weights")
    w = None if weights is False else e.w
    directed = (not e.undirected) if directed is None else bool(directed)
    u, v = e.u, e.v
    if directed and e.undirected:  # each edge becomes two arcs (one for a self-loop)
        off = u != v
        u, v = np.concatenate([u, v[off]]), np.concatenate([v, u[off]])
        w = None if w is None else np.concatenate([w, w[off]])
    return Graph.from_edges(u, v, w, directed=directed, num_vertices=e.n, dtype=dtype, **options)


def _nonempty(rows: _Rows, what: str) -> _Rows:
    if not len(rows):
        raise GraphFormatError(rows.path, None, f"empty file (no {what})")
    return rows


def _parse_snap(data, path, comment) -> _Edges:
    rows = _nonempty(_rows(data, path, (comment,) if comment else ()), "edges")
    width = rows.counts[0]
    rows.require_counts(lambda c: (c == width) & ((c == 2) | (c == 3)),
                        "2 fields (src dst) or 3 (src dst weight), the same on every line")
    u = rows.column(0, pa.int64(), "source id")
    v = rows.column(1, pa.int64(), "target id")
    for ids, what in ((u, "source id"), (v, "target id")):
        if len(ids) and ids.min() < 0:
            raise rows.error(int(np.argmin(ids)), f"negative {what} {ids.min()}")
    w = rows.column(2, pa.float64(), "weight") if width == 3 else None
    return _Edges(u, v, w, None, undirected=False)


_MTX_FIELDS = {"real": 3, "integer": 3, "double": 3, "pattern": 2}


def _parse_mtx(data, path) -> _Edges:
    banner = data.split(b"\n", 1)[0].decode("utf-8", "replace").lower().split()
    if not banner or banner[0] != "%%matrixmarket":
        raise GraphFormatError(path, 1, "missing '%%MatrixMarket' banner line")
    if len(banner) != 5 or banner[1] != "matrix":
        raise GraphFormatError(path, 1, "expected '%%MatrixMarket matrix coordinate <field> <symmetry>'")
    layout, field, symmetry = banner[2:]
    if layout != "coordinate":
        raise GraphFormatError(path, 1, f"only coordinate matrices are graphs, not {layout!r}")
    if field not in _MTX_FIELDS:
        raise GraphFormatError(path, 1, f"unsupported field {field!r} (expected real, integer or pattern)")
    if symmetry not in ("general", "symmetric"):
        raise GraphFormatError(path, 1, f"unsupported symmetry {symmetry!r} (expected general or symmetric)")
    rows = _nonempty(_rows(data, path, ("%",)), "size line")
    size = rows.head(1)
    size.require_counts(lambda c: c == 3, "the size line 'rows columns entries'")
    n_rows, n_cols, nnz = size.numbers(np.arange(3), pa.int64(), "size")
    if min(n_rows, n_cols, nnz) < 0:
        raise size.error(0, "negative size")
    body = rows.tail(1)
    if len(body) > nnz:
        raise body.error(int(nnz), f"more entries than the {nnz} the size line declares")
    if len(body) < nnz:
        raise size.error(0, f"the size line declares {nnz} entries but the file has {len(body)}")
    width = _MTX_FIELDS[field]
    body.require_counts(lambda c: c == width, f"{width} fields per {field} entry")
    u = body.ids(0, n_rows, "row index")
    v = body.ids(1, n_cols, "column index")
    w = body.column(2, pa.float64(), "value") if width == 3 else None
    return _Edges(u, v, w, int(max(n_rows, n_cols)), undirected=symmetry == "symmetric")


def _parse_dimacs(data, path) -> _Edges:
    rows = _nonempty(_rows(data, path, ("c",)), "problem line")
    kind = rows.field(0)
    is_arc = pc.equal(kind, "a").to_numpy(zero_copy_only=False)
    is_p = pc.equal(kind, "p").to_numpy(zero_copy_only=False)
    other = np.flatnonzero(~is_arc & ~is_p)
    if len(other):
        raise rows.error(other[0], f"unknown line type {rows.text(other[0], 0)!r} (expected 'p' or 'a')")
    problems = np.flatnonzero(is_p)
    if not len(problems) or problems[0] != 0:
        raise rows.error(0, "expected the problem line 'p sp <vertices> <arcs>' before any arc")
    if len(problems) > 1:
        raise rows.error(problems[1], "a second problem line")
    head = rows.head(1)
    if head.counts[0] != 4 or head.text(0, 1) != "sp":
        raise head.error(0, "expected the problem line 'p sp <vertices> <arcs>'")
    n, m = head.numbers([2, 3], pa.int64(), "problem size")
    body = rows.tail(1)
    if len(body) != m:
        raise head.error(0, f"the problem line declares {m} arcs but the file has {len(body)}")
    body.require_counts(lambda c: c == 4, "an arc line 'a <from> <to> <weight>'")
    u, v = body.ids(1, n, "vertex"), body.ids(2, n, "vertex")
    return _Edges(u, v, body.column(3, pa.float64(), "weight"), int(n), undirected=False)


def _metis_header(rows: _Rows):
    """n, m, and (has vertex sizes, vertex weights per vertex, has edge weights)."""
    rows.require_counts(lambda c: (c >= 2) & (c <= 4), "the header 'vertices edges [fmt [ncon]]'")
    values = rows.numbers(np.arange(rows.counts[0]), pa.int64(), "header field")
    n, m = values[:2]
    fmt = rows.text(0, 2) if len(values) > 2 else "0"
    if len(fmt) > 3 or set(fmt) - {"0", "1"} or min(n, m) < 0:
        raise rows.error(0, f"bad header (vertices, edges >= 0; fmt of up to three 0/1 digits, got {fmt!r})")
    fmt = fmt.zfill(3)
    ncon = values[3] if len(values) > 3 else 1
    return int(n), int(m), fmt[0] == "1", int(ncon) if fmt[1] == "1" else 0, fmt[2] == "1"


def _parse_metis(data, path) -> _Edges:
    rows = _rows(data, path, ("%",), keep_empty=True)
    filled = np.flatnonzero(rows.counts > 0)
    if not len(filled):
        raise GraphFormatError(path, None, "empty file (no header line)")
    rows = rows.tail(int(filled[0]))
    n, m, sizes, ncon, weighted = _metis_header(rows.head(1))
    body = rows.tail(1)
    extra = np.flatnonzero(body.counts[n:] > 0)
    if len(extra):
        raise body.error(n + extra[0], f"more vertex lines than the {n} the header declares")
    if len(body) < n:
        raise rows.error(0, f"the header declares {n} vertices but there are {len(body)} vertex lines")
    body = body.head(n)
    skip, step = int(sizes) + ncon, 1 + int(weighted)
    body.require_counts(lambda c: (c >= skip) & ((c - skip) % step == 0),
                        f"{skip} vertex field(s), then {'(neighbour, weight) pairs' if weighted else 'neighbours'}")
    counts = body.counts
    owner = np.repeat(np.arange(n, dtype=np.int64), counts)
    pos = np.arange(len(owner)) - np.repeat(body.starts[:-1], counts)
    nbr_at = np.flatnonzero((pos >= skip) & ((pos - skip) % step == 0))
    u = owner[nbr_at]
    v = body.check_ids(body.numbers(nbr_at, pa.int64(), "neighbour"), n, "neighbour", u)
    w = body.numbers(nbr_at + 1, pa.float64(), "edge weight") if weighted else None
    if len(u) != 2 * m:
        raise rows.error(0, f"the header declares {m} edges ({2 * m} adjacency entries) "
                            f"but the lists hold {len(u)}")
    loops = np.flatnonzero(u == v)
    if len(loops):
        raise body.error(u[loops[0]], f"vertex {u[loops[0]] + 1} lists itself (METIS has no self-loops)")
    _check_symmetric(body, u, v, w)
    half = u < v
    return _Edges(u[half], v[half], None if w is None else w[half], n, undirected=True)


def _check_symmetric(body: _Rows, u, v, w):
    """Every u-v entry (with its weight) must be matched by a v-u entry."""
    zero = np.zeros(len(u)) if w is None else w
    fwd, bwd = u < v, u > v
    a = np.stack([u[fwd], v[fwd], zero[fwd]])      # listed by the smaller endpoint
    b = np.stack([v[bwd], u[bwd], zero[bwd]])      # listed by the larger, flipped
    a = a[:, np.lexsort(a[::-1])]
    b = b[:, np.lexsort(b[::-1])]
    k = min(a.shape[1], b.shape[1])
    diff = np.flatnonzero((a[:, :k] != b[:, :k]).any(axis=0))
    if not len(diff) and a.shape[1] == b.shape[1]:
        return
    i = diff[0] if len(diff) else k
    take_a = i < a.shape[1] and (i >= b.shape[1] or tuple(a[:, i]) < tuple(b[:, i]))
    x, y = (a[0, i], a[1, i]) if take_a else (b[1, i], b[0, i])  # x lists y; y lacks x
    raise body.error(int(x), f"vertex {int(x) + 1} lists {int(y) + 1}, but vertex {int(y) + 1} "
                             f"does not list {int(x) + 1}" + (" with the same weight" if w is not None else ""))
