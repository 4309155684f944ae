"""TSV/CSV edge lists: delimiter and header detection, columns by index or name, checks that name the line."""
from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from ..errors import warn
from ..graph import Graph
from .arrow import _column, _is_numeric, as_names
from .cells import _first_failure, _first_nonfinite
from .errors import GraphFormatError
from .weights import WEIGHT_NAMES, _weight_spec


_SPACE_TO_TAB = bytes.maketrans(b" ", b"\t")


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
        self.data, self.skip = data, skip
        self._lines: np.ndarray | None = None

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
    warn(f"the first line ({first[0]}, {first[1]}) is read as a header; header=False "
                  f"reads it as an edge ({path})")
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
