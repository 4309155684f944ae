"""Graphs from Arrow data: tables and record batches in memory, Parquet and Arrow IPC files."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..graph import Graph
from .errors import GraphFormatError
from .weights import _weight_spec


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
