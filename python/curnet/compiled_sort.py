"""The counting sort that builds a graph's CSR (graph.compress) in compiled code (Numba): one
pass over the keys, each arc placed at its row's cursor, where NumPy's stable argsort of int32
keys is a merge sort (bench/graph_build.py).
Optional: `available()` says whether Numba imports.
"""
from __future__ import annotations

import numpy as np

from .jit import available, jit

__all__ = ["available", "counting_order"]


@jit()
def _place(keys, offsets, order) -> None:
    cursor = offsets[:-1].copy()
    for i in range(len(keys)):
        k = keys[i]
        order[cursor[k]] = i
        cursor[k] += 1


def counting_order(keys: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The stable order of `keys` (ints in 0..n-1) given their row offsets (n + 1): what
    np.argsort(keys, kind="stable") returns."""
    order = np.empty(len(keys), np.int64)
    _place(keys, offsets, order)
    return order
