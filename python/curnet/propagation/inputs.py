"""The propagation calls' inputs: one vector or a matrix of many (genes x sets, dense or SciPy
sparse) as float64 columns, seeds given as vertices, and the result put back in the shape the
caller gave."""
from __future__ import annotations

from typing import Any, cast

import numpy as np
from scipy import sparse

from ..columns import is_string_column
from ..sources import resolve_sources


class Columns:
    """Start vectors as an (n, k) float64 host matrix (dense, or CSC when given sparse), and
    whether the caller gave one vector (the result is then 1-D); `l1`, each column's L1 norm
    where as_columns measured it (None otherwise)."""

    def __init__(self, values, vector: bool, l1: np.ndarray | None = None):
        self.values = values
        self.vector = vector
        self.l1 = l1

    @property
    def k(self) -> int:
        return self.values.shape[1]

    def block(self, lo: int, hi: int, order: str = "C") -> np.ndarray:
        """Columns lo..hi-1 as a dense float64 host array in the given layout."""
        part = self.values[:, lo:hi]
        part = part.toarray() if sparse.issparse(part) else part
        return np.asarray(part, dtype=np.float64, order=cast(Any, order))   # "C" or "F"

    def on_device(self, dev, lo: int, hi: int, order: str = "C"):
        """Columns lo..hi-1 as a dense float64 block on `dev` in the given layout; on a GPU
        sparse columns travel as their non-zeros and are laid out there (a dense block of
        10,000 STRING-size columns is 1.2 GB to copy)."""
        if not dev.on_gpu or not sparse.issparse(self.values):
            return dev.to_device(self.block(lo, hi, order))
        part = self.values[:, lo:hi].tocoo()
        part.sum_duplicates()
        xp = dev.xp
        out = xp.zeros(part.shape, dtype=np.float64, order=order)
        out[xp.asarray(part.row), xp.asarray(part.col)] = xp.asarray(part.data, dtype=np.float64)
        return out

    def shaped(self, result):
        """The (n, k) result in the caller's shape: 1-D for one vector."""
        return result[:, 0] if self.vector else result


def as_columns(values, n: int, what: str, *, nonnegative: bool = False) -> Columns:
    """A numeric vector of length n or an (n, k) matrix (NumPy, list, SciPy sparse), checked:
    finite, of the right length, each column not all zeros (nor negative if asked)."""
    if sparse.issparse(values):
        if values.ndim != 2:
            raise ValueError(f"{what} must be a vector or a matrix")
        m = sparse.csc_matrix(values, dtype=np.float64)
        data, vector = m.data, False
    else:
        arr = np.asarray(values)
        if arr.dtype == object or arr.dtype.kind in "USb":
            raise TypeError(f"{what} must be numeric, got dtype {arr.dtype}")
        arr = arr.astype(np.float64)
        if arr.ndim not in (1, 2):
            raise ValueError(f"{what} must be a vector or a matrix, got {arr.ndim} dimensions")
        vector = arr.ndim == 1
        m = arr[:, None] if vector else arr
        data = m
    if m.shape[0] != n:
        raise ValueError(f"{what} has {m.shape[0]} rows, but the graph has {n} vertices "
                         "(one row a vertex, one column a set)")
    if m.shape[1] == 0:
        raise ValueError(f"{what} has no columns")
    # one pass a check (a call on one vector is a few microseconds of them): the count of
    # non-finite values only when there are some; the L1 norms kept for the caller
    finite = np.isfinite(data)
    if not finite.all():
        raise ValueError(f"{what} holds {int((~finite).sum())} missing or non-finite value(s) (NA, "
                         "NaN, Inf); give every vertex a number (0 for none)")
    negative = data.size > 0 and data.min() < 0
    if nonnegative and negative:
        raise ValueError(f"{what} holds negative values; it must be non-negative")
    l1 = np.asarray((abs(m) if negative else m).sum(axis=0)).ravel()
    nonzero = l1 > 0
    if not nonzero.all():
        j = int(np.flatnonzero(~nonzero)[0])
        where = "" if vector else f"column {j} of "
        raise ValueError(f"{where}{what} is all zeros: nothing to propagate "
                         f"({int((~nonzero).sum())} such column(s))")
    return Columns(m, vector, l1)


def is_vertex_list(seeds) -> bool:
    """True when `seeds` names vertices (names, or integer ids), rather than giving vectors:
    strings, integers, or a list of such lists."""
    if sparse.issparse(seeds):
        return False
    if isinstance(seeds, (str, bytes)) or is_string_column(seeds):
        return True
    if isinstance(seeds, (list, tuple)) and (not seeds or all(_is_set(s) for s in seeds)):
        return True                       # a list of sets (an empty list: resolve_sources says so)
    arr = np.asarray(seeds)
    return arr.dtype.kind in "iuUSO" and arr.ndim <= 1


def _is_set(s) -> bool:
    return isinstance(s, (list, tuple, np.ndarray)) and not np.isscalar(s)


def seed_sets(g, seeds) -> tuple[list[np.ndarray], bool]:
    """One seed set (names or ids) or a list of sets, as distinct vertex-id arrays, and whether
    a list of sets was given (the result then has a column a set)."""
    if isinstance(seeds, (list, tuple)) and seeds and all(_is_set(s) for s in seeds):
        return [_one_set(g, s, f"seed set {i + 1}") for i, s in enumerate(seeds)], True
    return [_one_set(g, seeds, "seeds")], False


def _one_set(g, s, what: str) -> np.ndarray:
    try:
        ids = resolve_sources(g, s)
    except ValueError as e:
        raise ValueError(f"{what}: {str(e).replace('source', 'seed')}") from None
    return np.unique(ids)


def indicator_columns(n: int, sets: list[np.ndarray], *, normalize: bool, vector: bool) -> Columns:
    """A sparse (n, len(sets)) matrix with each set's members at 1 (or 1/size, summing to 1)."""
    rows = np.concatenate(sets)
    cols = np.repeat(np.arange(len(sets)), [len(s) for s in sets])
    vals = np.concatenate([np.full(len(s), 1.0 / len(s) if normalize else 1.0) for s in sets])
    return Columns(sparse.csc_matrix((vals, (rows, cols)), shape=(n, len(sets))), vector)
