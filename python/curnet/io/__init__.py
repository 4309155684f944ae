"""Read graphs from files and Arrow data.

`read_graph` reads edge lists (TSV/CSV, SNAP), Matrix Market, DIMACS shortest-path
(.gr), METIS (.graph), Parquet and Arrow IPC files, gzip-compressed or not.
`from_arrow` builds a graph from an Arrow table or any object with the Arrow
PyCapsule interface (pyarrow, polars, pandas), without copying where it can.

Text formats are parsed whole-file and vectorised (pyarrow.csv, Arrow compute
kernels, NumPy). A malformed file raises `GraphFormatError`, whose message names
the file and the 1-based line.

The package, by concern: `arrow` (tables, Parquet, Arrow IPC), `delimited` (TSV/CSV),
`tokens` and `formats` (SNAP, Matrix Market, DIMACS, METIS), `weights` (which column),
`cells` (the first bad value), `errors`.
"""
from __future__ import annotations

import gzip
import os
import zlib

import numpy as np

from ..graph import Graph
from .arrow import _read_table, _table_graph, as_names, from_arrow
from .delimited import _read_delimited
from .errors import GraphFormatError
from .formats import _build, _parse_dimacs, _parse_metis, _parse_mtx, _parse_snap
from .weights import WEIGHT_NAMES, WeightColumnNote, weight_named


__all__ = ["read_graph", "from_arrow", "as_names", "GraphFormatError", "FORMATS", "WEIGHT_NAMES", "WeightColumnNote",
           "weight_named"]


# format name -> file extensions that select it
FORMATS = {
    "tsv": (".tsv", ".txt", ".edges", ".net"),
    "csv": (".csv",),
    "snap": (),
    "mtx": (".mtx",),
    "dimacs": (".gr",),
    "metis": (".graph",),
    "parquet": (".parquet",),
    "arrow": (".arrow", ".feather", ".ipc"),
}


_EXTENSIONS = {ext: fmt for fmt, exts in FORMATS.items() for ext in exts}


_GZIP_MAGIC = b"\x1f\x8b"


def read_graph(path, format=None, *, directed=None, weights=None, src=0, dst=1, header=None,
               delimiter=None, comment="#", ids="names", dtype=np.float32, **options) -> Graph:
    """Read a graph file; the format comes from the extension (after any .gz) unless given.

    directed: None keeps the format's own convention (edge lists, DIMACS: directed;
        METIS and symmetric Matrix Market: undirected).
    weights: None uses weights when the file has them (for TSV/CSV/Parquet/Arrow: the
        first column with a weight-like name (WEIGHT_NAMES), else the third column when it
        holds numbers, whatever its name, as cuRnet has read `from to score` since 2017;
        a third column read by its place under a header is named in a WeightColumnNote
        warning); True requires them;
        False ignores them; a column name or index picks the weight column
        (TSV/CSV/Parquet/Arrow only).
    src, dst: the endpoint columns, by index or by name (TSV/CSV/Parquet/Arrow only).
        Columns of names (non-numeric ids) become vertex names.
    header: TSV/CSV only. None detects one: the first line is a header when src,
        dst or weights is given by name, or when one of its src/dst/weight fields
        is not a number while the next line's field is, or when its src and dst fields
        are column labels ("gene1 gene2", "source target") naming no vertex elsewhere
        in the file (with a warning). header=True / False decides.
    delimiter: TSV/CSV only. None picks tab if the first line has one, else comma
        if it has one (or the format is csv), else runs of spaces/tabs; " " means
        runs of spaces/tabs.
    comment: lines starting with this are skipped (TSV/CSV/SNAP; the other text
        formats have fixed comment markers: % for Matrix Market and METIS, c for DIMACS).
    ids: "names" (the default, as R's cuRnet_graph and the `curnet` command read files)
        takes every id in an edge list (TSV/CSV/SNAP/Parquet/Arrow) as a vertex name
        (e.g. Entrez ids 7157, 4193), vertices numbered in order of first appearance.
        "index" takes numeric ids as 0-based vertex indices (no names) and other ids as
        names; "auto" is its earlier name. Matrix Market, DIMACS and METIS files number
        their vertices and name none, whatever `ids` says: the graph has no names and its
        vertices are the 0-based positions, as scipy.io.mmread gives them (the file's
        vertex 1 is vertex 0). See docs/ids.md for how sources are then given.
    Other keyword arguments (num_vertices, names) go to Graph.from_edges.
    """
    path = os.fspath(path)
    fmt = _format_of(path, format)
    if ids not in ("names", "index", "auto"):
        raise ValueError(f'ids must be "names" or "index", got {ids!r}')
    data = _read_bytes(path)
    try:
        return _read(data, path, fmt, directed, weights, src, dst, header, delimiter, comment,
                     ids == "names", dtype, options)
    except GraphFormatError:
        raise
    except ValueError as e:  # e.g. from Graph.from_edges: say which file
        raise GraphFormatError(path, None, str(e)) from e


def _read(data, path, fmt, directed, weights, src, dst, header, delimiter, comment, id_names,
          dtype, options):
    if fmt in ("parquet", "arrow"):
        table = _read_table(data, path, fmt)
        return _table_graph(table, path, src, dst, weights, directed, id_names, dtype, options)
    if fmt in ("csv", "tsv"):
        return _read_delimited(data, path, fmt, src, dst, weights, header, delimiter, comment,
                               directed, id_names, dtype, options)
    if (src, dst, header, delimiter) != (0, 1, None, None):
        raise ValueError(f"src, dst, header and delimiter apply to tsv, csv, parquet and arrow "
                         f"files, not to {fmt} files ({path})")
    parse = {"snap": lambda: _parse_snap(data, path, comment), "mtx": lambda: _parse_mtx(data, path),
             "dimacs": lambda: _parse_dimacs(data, path), "metis": lambda: _parse_metis(data, path)}
    edges = parse[fmt]()
    if id_names and fmt == "snap":
        edges.u, edges.v = as_names(edges.u), as_names(edges.v)
    # Matrix Market, DIMACS and METIS number their vertices 1..n and name none: the graph's
    # vertices are the 0-based positions, as scipy.io.mmread gives them (R adds 1, as igraph)
    return _build(edges, path, directed, weights, dtype, options)


def _format_of(path: str, format) -> str:
    known = ", ".join(FORMATS)
    if format is not None:
        if str(format).lower() not in FORMATS:
            raise ValueError(f"unknown graph format {format!r}; known formats: {known}")
        return str(format).lower()
    name = path[:-3] if path.lower().endswith(".gz") else path
    ext = os.path.splitext(name)[1].lower()
    if ext not in _EXTENSIONS:
        raise ValueError(f"cannot tell the format of {path!r} from its extension {ext!r}; pass "
                         f"format= one of: {known} (extensions: {', '.join(_EXTENSIONS)}, optionally .gz)")
    return _EXTENSIONS[ext]


def _read_bytes(path: str) -> bytes:
    """The file's bytes, gunzipped when it is gzip (by magic bytes) or named .gz."""
    with open(path, "rb") as f:  # FileNotFoundError names the path
        data = f.read()
    if data.startswith(_GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except EOFError:
            raise GraphFormatError(path, None, "truncated gzip file (compressed data ends early)") from None
        except (OSError, zlib.error) as e:
            raise GraphFormatError(path, None, f"corrupt gzip data: {e}") from None
    elif path.lower().endswith(".gz") and data:
        raise GraphFormatError(path, None, "named .gz but not gzip-compressed")
    if not data or data.isspace():
        raise GraphFormatError(path, None, "empty file")
    return data
