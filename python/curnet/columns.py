"""One place that turns a user's column (NumPy, CuPy, list, pandas, polars, Arrow) into NumPy."""
from __future__ import annotations

import sys

import numpy as np

# Column names read as weights wherever they stand (case aside), as igraph reads `weight`: the
# readers' rule (curnet.io.weights), which R's data frames follow too (here, so that R reads the
# list without loading the readers).
WEIGHT_NAMES = ("weight", "weights", "w", "distance", "dist", "length", "cost")


def _arrow_module():
    try:
        import pyarrow
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    return pyarrow


def _as_arrow(col):
    """Arrow arrays, chunked arrays and objects with the Arrow PyCapsule interface."""
    capsule = hasattr(col, "__arrow_c_array__") or hasattr(col, "__arrow_c_stream__")
    if not capsule and "pyarrow" not in sys.modules:
        return None     # not Arrow data: pyarrow stays unloaded (30-100 ms of a first call)
    pa = _arrow_module()
    if pa is None:
        return None
    if isinstance(col, (pa.Array, pa.ChunkedArray)):
        return col
    if capsule:
        if type(col).__module__.startswith(("pandas", "polars")):
            return None  # their own to_numpy() is direct
        return pa.array(col) if hasattr(col, "__arrow_c_array__") else pa.chunked_array(col)
    return None


def _is_string_view(t) -> bool:
    """Arrow's string_view (what polars exports); pyarrow before 16 has no such type."""
    pa = _arrow_module()
    return getattr(pa.types, "is_string_view", lambda _: False)(t)


def is_string_column(col) -> bool:
    arrow = _as_arrow(col)
    if arrow is not None:
        pa = _arrow_module()
        t = arrow.type
        return (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_dictionary(t)
                or _is_string_view(t))
    dtype = getattr(col, "dtype", None)
    if dtype is not None:
        kind = getattr(dtype, "kind", None)
        if kind in ("U", "S", "O"):
            return True
        name = str(dtype).lower()
        return name in ("string", "str", "utf8", "category", "categorical") or name.startswith("string")
    if isinstance(col, (list, tuple)):
        return any(isinstance(x, str) for x in col)
    return False


def _number_dtype(t) -> np.dtype | None:
    """The NumPy dtype of an Arrow integer or float32/float64 type, else None."""
    pa = _arrow_module()
    if pa.types.is_integer(t):
        return np.dtype(f"{'u' if pa.types.is_unsigned_integer(t) else ''}int{t.bit_width}")
    if pa.types.is_float32(t) or pa.types.is_float64(t):
        return np.dtype(f"float{t.bit_width}")
    return None


def to_numpy(col, what: str = "column") -> np.ndarray:
    """A 1-D NumPy view or copy of `col`; Arrow data without nulls is read zero-copy."""
    if col is None:
        raise TypeError(f"{what} is missing")
    arrow = _as_arrow(col)
    if arrow is not None:
        if arrow.null_count:
            raise ValueError(f"{what} has {arrow.null_count} missing value(s) (NA/null)")
        pa = _arrow_module()
        if pa.types.is_dictionary(arrow.type):
            arrow = arrow.cast(arrow.type.value_type)
        if _is_string_view(arrow.type):
            arrow = arrow.cast(pa.large_string())   # polars exports strings as string_view
        if isinstance(arrow, pa.ChunkedArray):
            arrow = arrow.combine_chunks() if arrow.num_chunks != 1 else arrow.chunk(0)
        dtype = _number_dtype(arrow.type)
        if dtype is not None:   # read directly: pyarrow's to_numpy imports pandas (0.3 s of a first call)
            return np.frombuffer(arrow.buffers()[1], dtype=dtype, count=len(arrow),
                                 offset=arrow.offset * dtype.itemsize)
        return arrow.to_numpy(zero_copy_only=False)
    if hasattr(col, "__cuda_array_interface__") and hasattr(col, "get"):
        return np.asarray(col.get()).ravel()
    if hasattr(col, "to_numpy") and not isinstance(col, np.ndarray):
        arr = col.to_numpy()
    else:
        arr = np.asarray(col)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional, got shape {arr.shape}")
    if arr.dtype == object:
        _reject_missing(arr, what)
    elif arr.dtype.kind == "f" and what in ("src", "dst", "sources") and np.isnan(arr).any():
        raise ValueError(f"{what} has missing values (NaN)")
    return arr


def _reject_missing(arr: np.ndarray, what: str) -> None:
    for i, v in enumerate(arr.tolist()):
        if v is None or (isinstance(v, float) and v != v):
            raise ValueError(f"{what} has a missing value (NA/None) at row {i}")
