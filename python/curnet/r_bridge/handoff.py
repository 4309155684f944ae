"""R's memory hand-off: R's vectors in as Arrow arrays over R's own memory, results written
into vectors and matrices R allocated, and the plain values reticulate converts.

* in: R exports its integer and double vectors through the Arrow C data interface (the
  package's src/handoff.c); :func:`import_arrow` wraps them as pyarrow arrays over R's own
  memory, and R's NA arrive as nulls; :func:`import_numbers` reads a vector without NA as a
  NumPy array over R's memory, without pyarrow (a graph's columns and a BFS's sources: a
  first call from R then does not import pyarrow);
* out: R allocates each result and passes its data address and length (R's data_address());
  :func:`r_array` wraps it as a writable Fortran-ordered NumPy array (R's column-major
  layout), refusing a size other than the one R allocated before anything is written. A
  result whose sizes R learns only after the run comes back as a :class:`Held` (R reads its
  sizes, allocates and has it write, R/handoff.R's held_result()); :func:`plain` gives the
  scalars and strings around the arrays in Python's own types.

Vertex ids here are 0-based, as everywhere in the engine; the R side converts."""
from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..memory import check_fits

if TYPE_CHECKING:
    import pyarrow as pa

#: R's NA_integer_
R_NA_INTEGER = np.iinfo(np.int32).min

_R_TYPES: dict[str, np.dtype] = {"integer": np.dtype(np.int32), "double": np.dtype(np.float64)}


def import_arrow(array_address, schema_address) -> pa.Array:
    """A pyarrow array over the buffers R exported (addresses of ArrowArray / ArrowSchema)."""
    import pyarrow as pa    # at first use: 30-100 ms of a first call that needs no Arrow array
    return pa.Array._import_from_c(int(array_address), int(schema_address))


# The Arrow C data interface's two structures (https://arrow.apache.org/docs/format/CDataInterface.html).
class _ArrowSchema(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_char_p),
                ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64), ("children", ctypes.c_void_p),
                ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p), ("private_data", ctypes.c_void_p)]


class _ArrowArray(ctypes.Structure):
    _fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
                ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64),
                ("buffers", ctypes.POINTER(ctypes.c_void_p)), ("children", ctypes.c_void_p),
                ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p), ("private_data", ctypes.c_void_p)]


_RELEASE_SCHEMA = ctypes.CFUNCTYPE(None, ctypes.POINTER(_ArrowSchema))
_RELEASE_ARRAY = ctypes.CFUNCTYPE(None, ctypes.POINTER(_ArrowArray))
_ARROW_FORMATS: dict[bytes, np.dtype] = {b"i": np.dtype(np.int32), b"g": np.dtype(np.float64)}  # integer, double


class _ExportedVector:
    """R's exported vector, owned here (the ArrowArray moved out of R's export, as the C data
    interface's consumers do): NumPy's view of it keeps this alive, and this releases R's
    vector when the last view goes."""

    def __init__(self, array: _ArrowArray, dtype: np.dtype):
        self._array = array
        self._release = _RELEASE_ARRAY(array.release)
        data = array.buffers[1] or 0
        self.__array_interface__ = {"version": 3, "shape": (int(array.length),), "typestr": dtype.str,
                                    "data": (data + int(array.offset) * dtype.itemsize, True)}

    def __del__(self):
        self._release(self._array)


def import_numbers(array_address, schema_address):
    """R's exported integer or double vector as a read-only NumPy array (int32 or float64) over
    R's memory, without pyarrow; one with NA comes as the pyarrow array (:func:`import_arrow`),
    whose nulls the engine's checks name as missing values."""
    schema = _ArrowSchema.from_address(int(schema_address))
    exported = _ArrowArray.from_address(int(array_address))
    dtype = _ARROW_FORMATS.get(schema.format)
    if dtype is None or exported.null_count != 0 or exported.n_buffers != 2:
        return import_arrow(array_address, schema_address)
    array = _ArrowArray.from_buffer_copy(exported)   # moved: R's export is marked released
    exported.release = None
    _RELEASE_SCHEMA(schema.release)(ctypes.byref(schema))
    if array.length == 0:
        _RELEASE_ARRAY(array.release)(ctypes.byref(array))
        return np.empty(0, dtype)
    return np.asarray(_ExportedVector(array, dtype))


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


def r_matrix(values, nrow, ncol) -> np.ndarray:
    """R's nrow x ncol double matrix (an Arrow array, column-major, NA as null, NaN then) as
    an (nrow, ncol) array; a matrix of another size is an error naming both."""
    flat = values.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    nrow, ncol = int(nrow), int(ncol)
    if flat.size != nrow * ncol:
        raise ValueError(f"the matrix has {flat.size:,} values, not {nrow:,} x {ncol:,}")
    return flat.reshape(ncol, nrow).T


def check_result_fits(k, n, bytes_per_cell) -> None:
    """The engine's host-memory check, for a result R is about to allocate (k x n cells)."""
    check_fits(int(k) * int(n) * int(bytes_per_cell),
               f"the result for {int(k):,} sources x {int(n):,} vertices")


def progress_hook(r_callback):
    """The engine's progress hook: R's callback returns FALSE when the user interrupted."""
    if r_callback is None or r_callback is False:
        return False

    def hook(done, total):
        if not r_callback(int(done), int(total)):
            raise KeyboardInterrupt("interrupted from R")
    return hook


def plain(x):
    """`x` in Python's own types (lists, floats, ints, str, dicts) for reticulate to convert:
    reticulate 1.28 cannot convert NumPy 2 arrays or scalars (it hands them back unconverted,
    and R then fails on them). For scalars, strings and small tables of mixed types; arrays of
    numbers go into memory R allocated (`r_array`)."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


class Held:
    """A result whose sizes R learns only after the run, held by R (no module keeps it).

    `result` is a dict, nested or not: its 1-d NumPy arrays of numbers are R's vectors to
    fill (int32 arrays as "integer", every other as "double"), everything else (scalars,
    strings, lists of names) comes back as plain values. R asks `values()` for the plain
    part (arrays as None), `arrays()` for each array's place (its keys), R type and length,
    allocates the vectors, and `into(i, address)` writes array i into R's vector."""

    def __init__(self, result: dict):
        self._arrays: list = []
        self._values = self._split(result, ())

    def _split(self, x, path):
        if isinstance(x, dict):
            return {k: self._split(v, path + (k,)) for k, v in x.items()}
        if isinstance(x, np.ndarray) and x.ndim == 1 and x.dtype.kind in "biuf":
            self._arrays.append((list(path), x if x.dtype == np.int32 else x.astype(np.float64, copy=False)))
            return None
        return plain(x)

    def values(self) -> dict:
        return self._values

    def arrays(self) -> list:
        """[keys, "integer" or "double", length] for each array, in order."""
        return [[keys, "integer" if a.dtype == np.int32 else "double", int(a.size)]
                for keys, a in self._arrays]

    def into(self, i, address) -> None:
        a = self._arrays[int(i)][1]
        r_array(address, a.shape, "integer" if a.dtype == np.int32 else "double")[:] = a
