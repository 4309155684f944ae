"""Read graphs from files and Arrow data.

`read_graph` reads edge lists (TSV/CSV, SNAP), Matrix Market, DIMACS shortest-path
(.gr), METIS (.graph), Parquet and Arrow IPC files, gzip-compressed or not.
`from_arrow` builds a graph from an Arrow table or any object with the Arrow
PyCapsule interface (pyarrow, polars, pandas), without copying where it can.

Text formats are parsed whole-file and vectorised (pyarrow.csv, Arrow compute
kernels, NumPy). A malformed file raises `GraphFormatError`, whose message names
the file and the 1-based line.
"""
from __future__ import annotations

import gzip
import os
import re
import warnings
import zlib
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from .graph import INT32_MAX, Graph
from .memory import check_fits

__all__ = ["read_graph", "from_arrow", "GraphFormatError", "FORMATS"]


class GraphFormatError(ValueError):
    """A file that breaks its format; the message names the file and, where known, the line."""

    def __init__(self, path, line, problem):
        self.path, self.line, self.problem = str(path), line, problem
        where = self.path if line is None else f"{self.path}, line {line}"
        super().__init__(f"{where}: {problem}")

    def __reduce__(self):
        return type(self), (self.path, self.line, self.problem)


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
_SPACE_TO_TAB = bytes.maketrans(b" ", b"\t")


# -- public API ---------------------------------------------------------------
def read_graph(path, format=None, *, directed=None, weights=None, src=0, dst=1, header=None,
               delimiter=None, comment="#", ids="names", dtype=np.float32, **options) -> Graph:
    """Read a graph file; the format comes from the extension (after any .gz) unless given.

    directed: None keeps the format's own convention (edge lists, DIMACS: directed;
        METIS and symmetric Matrix Market: undirected).
    weights: None uses weights when the file has them (for TSV/CSV/Parquet/Arrow: the
        first column with a weight-like name (WEIGHT_NAMES), or in a file without a header
        the third column if its first value is a number; a third column of another name is
        left out, with a warning); True requires them;
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
        takes every id as a vertex name (e.g. Entrez ids 7157, 4193): edge lists
        (TSV/CSV/SNAP/Parquet/Arrow) number their vertices in order of first appearance,
        while Matrix Market, DIMACS and METIS keep their vertices 1..n and name each by its
        number in the file. "index" takes numeric ids as 0-based vertex indices (as the
        formats define them: Matrix Market, DIMACS and METIS count from 1; no names) and
        other ids as names; "auto" is its earlier name. See docs/ids.md for how sources
        are then given.
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
    elif id_names:  # the format numbers its vertices 1..n: each is named by its number
        n = edges.n if edges.n is not None else int(max(edges.u.max(initial=-1), edges.v.max(initial=-1))) + 1
        if n > INT32_MAX:   # checked before the names are made (a header alone can claim 3e9)
            raise ValueError(f"the file has {n:,} vertices, beyond the int32 range cuRnet supports")
        check_fits(n * 4 * len(str(n)), f"the names of {n:,} vertices", "read it with ids=\"index\"")
        options = {**options, "names": np.arange(1, n + 1).astype(str)}
    return _build(edges, path, directed, weights, dtype, options)


def as_names(col):
    """An id column as vertex names: the ids' text ("7157"), whatever their type."""
    if isinstance(col, np.ndarray):
        return col.astype(str)
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type) or pa.types.is_dictionary(col.type):
        return col
    return pc.cast(col, pa.string())


def from_arrow(data, src=0, dst=1, weight=None, directed=True, **options) -> Graph:
    """Build a graph from an Arrow table (or record batch) or any object with the Arrow
    PyCapsule interface (__arrow_c_stream__ / __arrow_c_array__: pyarrow, polars, pandas).

    src, dst and weight are column indices or names; weight=None gives an unweighted
    graph. Arrow columns are handed to Graph.from_edges as they are, so single-chunk
    numeric columns without nulls are read without a copy. Other keyword arguments
    (num_vertices, names, dtype) go to Graph.from_edges.
    """
    table = _as_table(data)
    s, d = (_column(table, c, what) for c, what in ((src, "src"), (dst, "dst")))
    w = None if weight is None else _column(table, weight, "weight")
    return Graph.from_edges(s, d, w, directed=directed, **options)


# -- files ----------------------------------------------------------------------
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


def _read_table(data: bytes, path: str, fmt: str) -> pa.Table:
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    source = pa.BufferReader(data)
    try:
        if fmt == "parquet":
            return pq.read_table(source)
        try:
            return feather.read_table(source)  # Arrow IPC file, Feather v1 and v2
        except (pa.ArrowException, OSError):
            return pa.ipc.open_stream(pa.BufferReader(data)).read_all()
    except (pa.ArrowException, OSError) as e:  # pyarrow reports some corrupt input as OSError
        raise GraphFormatError(path, None, f"not a readable {fmt} file: {e}") from None


# -- Arrow tables ---------------------------------------------------------------
def _as_table(data):
    if isinstance(data, (pa.Table, pa.RecordBatch)):
        return data
    if hasattr(data, "__arrow_c_stream__") or type(data).__module__.startswith("pandas"):
        return pa.table(data)
    if hasattr(data, "__arrow_c_array__"):
        return pa.record_batch(data)
    raise TypeError(f"expected an Arrow table or an object with the Arrow PyCapsule interface, "
                    f"got {type(data).__name__}")


def _column(table, spec, what: str):
    names = table.column_names
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        if not -len(names) <= spec < len(names):
            raise ValueError(f"{what} column index {spec} is out of range: there are {len(names)} columns")
        return table.column(int(spec))
    if isinstance(spec, str):
        if spec not in names:
            raise ValueError(f"{what} column {spec!r} not found; columns are {names}")
        return table.column(spec)
    raise TypeError(f"{what} must be a column index or name, got {spec!r}")


def _is_numeric(t) -> bool:
    return pa.types.is_integer(t) or pa.types.is_floating(t)


def _table_graph(table, path, src, dst, weights, directed, id_names, dtype, options) -> Graph:
    weight = _weight_spec(weights, table.num_columns, lambda: _is_numeric(table.column(2).type), path,
                          names=table.column_names)
    if id_names:
        s, d = (as_names(_column(table, c, what)) for c, what in ((src, "src"), (dst, "dst")))
        w = None if weight is None else _column(table, weight, "weight")
        return Graph.from_edges(s, d, w, directed=True if directed is None else directed,
                                dtype=dtype, **options)
    return from_arrow(table, src, dst, weight, True if directed is None else directed,
                      dtype=dtype, **options)


# Column names read as weights without being asked (case aside), as igraph reads `weight`: a
# third column of another name (an evidence count, a confidence score) is no length.
WEIGHT_NAMES = ("weight", "weights", "w", "distance", "dist", "length", "cost")


def weight_named(names) -> int | None:
    """The index of the first column whose name is weight-like, or None."""
    return next((i for i, n in enumerate(names) if str(n).strip().lower() in WEIGHT_NAMES), None)


def _weight_spec(weights, num_columns: int, third_is_number, path=None, names=None):
    """The weight column: an explicit spec; for None/True, a weight-like column when the columns
    have names (`names`), else column 2 when it holds numbers (the edge list's own layout)."""
    if weights is False:
        return None
    if weights is True and num_columns < 3:
        raise GraphFormatError(path, None, "weights=True but there is no third column")
    if weights is None or weights is True:
        if names is not None and num_columns > 2:
            named = weight_named(names)
            if named is not None or weights is True:
                return 2 if named is None else named
            if third_is_number():
                warnings.warn(f"column {names[2]!r} is not read as weights: only a weight-like name "
                              f"({', '.join(WEIGHT_NAMES)}) is; give weights={names[2]!r} to use it"
                              + (f" ({path})" if path else ""), stacklevel=5)
            return None
        return 2 if num_columns > 2 and (weights is True or third_is_number()) else None
    return weights


# -- TSV / CSV ------------------------------------------------------------------
def _read_delimited(data, path, fmt, src, dst, weights, header, delimiter, comment,
                    directed, id_names, dtype, options) -> Graph:
    _require_utf8(data, path)
    if comment:
        data = _blank_lines_starting(data, comment.encode())
    first = _first_line(data)
    if first is None:
        raise GraphFormatError(path, None, "empty file (only comments and blank lines)")
    if delimiter is None:
        delimiter = "\t" if b"\t" in first else "," if (b"," in first or fmt == "csv") else " "
    if delimiter == " ":
        data, delimiter = _collapse_blanks(data), "\t"
    table = _parse_csv(data, path, delimiter)
    by_name = any(isinstance(c, str) for c in (src, dst, weights))
    if header is None:
        header = by_name or _looks_like_header(table, src, dst, weights) or _header_of_names(table, src, dst, path)
    if header:
        table = _apply_header(table)
    elif by_name:
        raise ValueError(f"columns chosen by name need a header line, and header=False ({path})")
    line_of = _RowLines(data, skip=1 if header else 0)
    weight = _weight_spec(weights, table.num_columns, lambda: table.num_rows > 0 and
                          _is_number(table.column(2)[0].as_py()), path,
                          names=table.column_names if header else None)
    cols = [_column(table, c, what) for c, what in ((src, "src"), (dst, "dst"), (weight, "weights"))
            if c is not None]
    for col, what in zip(cols, ("src", "dst", "weights")):
        _check_no_nulls(col, what, path, line_of)
    if id_names:
        cols[:2] = [as_names(c) for c in cols[:2]]
    elif header:
        cols[:2] = [_ids_as_ints(c) for c in cols[:2]]
    for col, what in zip(cols[:2], ("src", "dst")):
        _check_ids(col, what, path, line_of)
    if weight is not None:
        cols[2] = _cast_column(cols[2], pa.float64(), "weight", path, line_of)
    return Graph.from_edges(*cols, directed=True if directed is None else directed,
                            dtype=dtype, **options)


def _blank_lines_starting(data: bytes, prefix: bytes) -> bytes:
    """Empty every line that starts with `prefix`, keeping its newline so line numbers hold."""
    buf = np.frombuffer(data, np.uint8)
    newlines = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], newlines + 1])
    ends = np.concatenate([newlines, [len(buf)]])
    hit = starts < len(buf)
    hit[hit] = buf[starts[hit]] == prefix[0]
    if len(prefix) > 1:
        hit[hit] = [data.startswith(prefix, int(s)) for s in starts[hit]]
    if not hit.any():
        return data
    delta = np.zeros(len(buf) + 1, np.int8)
    delta[starts[hit]] = 1
    delta[ends[hit]] = -1
    return buf[np.cumsum(delta[:-1]) == 0].tobytes()


# a blank beside another blank or a line end: where the plain tab translation would not do
_BLANK_RUNS = (b"  ", b"\t\t", b" \t", b"\t ", b"\n ", b"\n\t", b" \n", b"\t\n", b" \r", b"\t\r")


def _collapse_blanks(data: bytes) -> bytes:
    """Runs of spaces/tabs become one tab; leading and trailing ones go."""
    ends = data[:1] + data[-1:]
    if b" " not in ends and b"\t" not in ends and not any(p in data for p in _BLANK_RUNS):
        return data.translate(_SPACE_TO_TAB)  # fast path, no regex
    data = re.sub(rb"(?m)^[ \t]+|[ \t]+(?=\r?$)", b"", data)
    return re.sub(rb"[ \t]+", b"\t", data)


def _first_line(data: bytes):
    """The first line that is not blank, or None."""
    m = re.search(rb"\S", data)
    return None if m is None else data[data.rfind(b"\n", 0, m.start()) + 1:].split(b"\n", 1)[0]


class _RowLines:
    """Maps a pyarrow.csv row to its 1-based file line (pyarrow skips empty lines)."""

    def __init__(self, data: bytes, skip: int):
        self.data, self.skip, self._lines = data, skip, None

    def __call__(self, row: int) -> int:
        if self._lines is None:
            buf = np.frombuffer(self.data, np.uint8)
            newlines = np.flatnonzero(buf == 10)
            starts = np.concatenate([[0], newlines + 1])
            ends = np.concatenate([newlines, [len(buf)]])
            length = ends - starts
            cr_only = (length == 1) & (buf[np.minimum(starts, len(buf) - 1)] == 13)
            self._lines = np.flatnonzero((length > 0) & ~cr_only) + 1
        return int(self._lines[row + self.skip])


def _parse_csv(data: bytes, path: str, delimiter: str) -> pa.Table:
    bad_rows = []

    def on_invalid(row):
        bad_rows.append(row)
        return "error"

    try:
        return pcsv.read_csv(pa.BufferReader(data),
                             read_options=pcsv.ReadOptions(autogenerate_column_names=True),
                             parse_options=pcsv.ParseOptions(delimiter=delimiter,
                                                             invalid_row_handler=on_invalid))
    except pa.ArrowException as e:
        if bad_rows:
            row = bad_rows[0]
            raise GraphFormatError(path, _line_of_text(data, row.text),
                                   f"expected {row.expected_columns} fields, got {row.actual_columns}: "
                                   f"{row.text[:80]!r}") from None
        raise GraphFormatError(path, None, f"cannot parse as delimited text: {e}") from None


def _line_of_text(data: bytes, text: str):
    m = re.search(rb"(?m)^" + re.escape(text.encode()) + rb"\r?$", data)
    return None if m is None else data.count(b"\n", 0, m.start()) + 1


def _is_number(value) -> bool:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    try:
        float(value)
        return True
    except (TypeError, ValueError):
        return False


def _looks_like_header(table, src, dst, weights) -> bool:
    if table.num_rows < 2:
        return False
    weight = _weight_spec(weights, table.num_columns, lambda: True)
    for spec in (src, dst, weight):
        if isinstance(spec, int) and -table.num_columns <= spec < table.num_columns:
            col = table.column(spec)
            if not _is_number(col[0].as_py()) and _is_number(col[1].as_py()):
                return True
    # a weight-like label over numbers, in any column ("a,b,kind,weight")
    return any(str(col[0].as_py()).strip().lower() in WEIGHT_NAMES and _is_number(col[1].as_py())
               for col in table.columns)


# First-line words that label a column of vertices: "gene1 gene2", "source target", "protein_a".
HEADER_WORD = re.compile(r"(?i)^(from|to|source|target|src|dst|node|vertex|gene|protein|"
                         r"interactor|symbol|entrez|id|name)[ _.-]?([0-9]|[ab]|id|name|s)?$")


def _header_of_names(table, src, dst, path) -> bool:
    """A first line of two column labels over columns of names, where the number rule cannot
    see it: both fields are label words ("gene1 gene2") and neither is a vertex elsewhere in
    the file. Said (a warning), since the line could be an edge; header=False keeps it one."""
    if table.num_rows < 2 or not all(isinstance(c, int) and -table.num_columns <= c < table.num_columns
                                     for c in (src, dst)):
        return False
    first = [table.column(c)[0].as_py() for c in (src, dst)]
    if not all(isinstance(v, str) and HEADER_WORD.match(v.strip()) for v in first):
        return False
    rest = [pc.cast(table.column(c).slice(1), pa.string()) for c in (src, dst)]
    if any(pc.any(pc.is_in(col, value_set=pa.array(first))).as_py() for col in rest):
        return False
    warnings.warn(f"the first line ({first[0]}, {first[1]}) is read as a header; header=False "
                  f"reads it as an edge ({path})", stacklevel=5)
    return True


def _apply_header(table) -> pa.Table:
    names = [str(table.column(i)[0].as_py()) for i in range(table.num_columns)]
    return table.slice(1).rename_columns(names)


def _ids_as_ints(col):
    """A string id column left by a header line: integers if every value is one, else names."""
    if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
        return col
    try:
        return pc.cast(col, pa.int64())
    except pa.ArrowInvalid:
        return col


def _require_utf8(data: bytes, path: str):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise GraphFormatError(path, data.count(b"\n", 0, e.start) + 1, "not valid UTF-8 text") from None


def _check_ids(col, what, path, line_of):
    """Integer ids must be >= 0; floating-point ids are refused at the first non-whole one."""
    if not len(col) or not _is_numeric(col.type):
        return
    values = col.to_numpy()
    if pa.types.is_floating(col.type):
        row = int(np.argmax(values != np.floor(values)))  # row 0 if all look whole ("1.0")
        raise GraphFormatError(path, line_of(row), f"{what} id {values[row]} is not an integer")
    if values.min() < 0:
        row = int(np.argmax(values < 0))
        raise GraphFormatError(path, line_of(row), f"negative {what} id {values[row]}")


def _check_no_nulls(col, what, path, line_of):
    if col.null_count:
        row = int(np.flatnonzero(col.is_null().to_numpy(zero_copy_only=False))[0])
        raise GraphFormatError(path, line_of(row), f"missing {what} value")


def _cast_column(col, typ, what, path, line_of):
    try:
        out = pc.cast(col, typ)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        col = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
        if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
            raise GraphFormatError(path, None, f"{what} column has type {col.type}, not numbers") from None
        row = _first_failure(col, typ)
        raise GraphFormatError(path, line_of(row), f"{what} {col[row].as_py()!r} is not a number") from None
    bad = _first_nonfinite(out.to_numpy())
    if bad is not None:
        raise GraphFormatError(path, line_of(bad), f"{what} {col[bad].as_py()!r} is not finite")
    return out


def _first_nonfinite(values: np.ndarray):
    bad = np.flatnonzero(~np.isfinite(values))
    return int(bad[0]) if len(bad) else None


def _first_failure(arr, typ) -> int:
    """Index of the first element that does not cast to `typ` (some element is known not to)."""
    lo, hi = 0, len(arr)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            pc.cast(arr.slice(lo, mid - lo), typ)
            lo = mid
        except pa.ArrowInvalid:
            hi = mid
    return lo


# -- whitespace-separated text: SNAP, Matrix Market, DIMACS, METIS ---------------
@dataclass
class _Rows:
    """The non-comment lines of a text file, split into whitespace-separated tokens."""
    path: str
    lines: np.ndarray   # 1-based line number of each row
    starts: np.ndarray  # row i's tokens are tokens[starts[i]:starts[i + 1]]
    tokens: pa.Array    # strings

    def __len__(self):
        return len(self.lines)

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.starts)

    def error(self, row, problem) -> GraphFormatError:
        return GraphFormatError(self.path, int(self.lines[row]), problem)

    def tail(self, k: int) -> "_Rows":
        return _Rows(self.path, self.lines[k:], self.starts[k:] - self.starts[k],
                     self.tokens.slice(self.starts[k]))

    def head(self, k: int) -> "_Rows":
        return _Rows(self.path, self.lines[:k], self.starts[:k + 1], self.tokens.slice(0, self.starts[k]))

    def require_counts(self, ok, expected: str):
        bad = np.flatnonzero(~ok(self.counts))
        if len(bad):
            r = bad[0]
            raise self.error(r, f"expected {expected}, got {self.counts[r]} field(s)")

    def field(self, j) -> pa.Array:
        """Field j (as text) of every row; rows must have more than j fields."""
        return self.tokens.take(pa.array(self.starts[:-1] + j, pa.int64()))

    def text(self, row, j) -> str:
        return self.tokens[int(self.starts[row]) + j].as_py()

    def numbers(self, token_index, typ, what) -> np.ndarray:
        """Tokens at `token_index` as NumPy numbers; a bad one raises naming its line."""
        col = self.tokens.take(pa.array(token_index, pa.int64()))
        try:
            out = pc.cast(col, typ).to_numpy()
        except pa.ArrowInvalid:
            i = _first_failure(col, typ)
            kind = "an integer" if pa.types.is_integer(typ) else "a number"
            raise self.error(self.row_of(token_index[i]), f"{what} {col[i].as_py()!r} is not {kind}") from None
        bad = _first_nonfinite(out) if out.dtype.kind == "f" else None
        if bad is not None:
            raise self.error(self.row_of(token_index[bad]), f"{what} {col[bad].as_py()!r} is not finite")
        return out

    def column(self, j, typ, what) -> np.ndarray:
        return self.numbers(self.starts[:-1] + j, typ, what)

    def row_of(self, token: int) -> int:
        return int(np.searchsorted(self.starts, token, side="right") - 1)

    def ids(self, j, n, what) -> np.ndarray:
        """1-based vertex ids in field j, checked against 1..n, as 0-based int64."""
        return self.check_ids(self.column(j, pa.int64(), what), n, what, np.arange(len(self)))

    def check_ids(self, ids, n, what, rows) -> np.ndarray:
        bad = np.flatnonzero((ids < 1) | (ids > n))
        if len(bad):
            i = bad[0]
            raise self.error(rows[i], f"{what} {ids[i]} is outside 1..{n}")
        return ids - 1


def _rows(data: bytes, path: str, comments, keep_empty=False) -> _Rows:
    """Split the text into lines and tokens with Arrow kernels; drop comment (and blank) lines."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    raw = pa.array(lines, pa.binary())
    try:
        text = raw.cast(pa.string())
    except pa.ArrowInvalid:
        raise GraphFormatError(path, _first_failure(raw, pa.string()) + 1, "not valid UTF-8 text") from None
    text = pc.ascii_trim_whitespace(text)
    nonempty = pc.greater(pc.binary_length(text), 0)
    is_comment = pa.array(np.zeros(len(text), bool))
    for prefix in comments:
        is_comment = pc.or_(is_comment, pc.starts_with(text, prefix))
    keep = pc.invert(is_comment) if keep_empty else pc.and_(nonempty, pc.invert(is_comment))
    kept_nonempty = nonempty.filter(keep).to_numpy(zero_copy_only=False)
    split = pc.ascii_split_whitespace(text.filter(keep).filter(kept_nonempty))
    counts = np.zeros(len(kept_nonempty), np.int64)
    counts[kept_nonempty] = pc.list_value_length(split).to_numpy()
    starts = np.concatenate([[0], np.cumsum(counts)])
    line_numbers = np.flatnonzero(keep.to_numpy(zero_copy_only=False)) + 1
    return _Rows(path, line_numbers, starts, pc.list_flatten(split))


@dataclass
class _Edges:
    """What a format parser found: 0-based endpoints, weights (or None), vertex count."""
    u: np.ndarray
    v: np.ndarray
    w: object
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
