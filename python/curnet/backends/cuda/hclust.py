"""Hierarchical clustering on the GPU (kernels/hclust.cu): the nearest-neighbour chain over a
square float64 dissimilarity held on the device, one block for the whole clustering, and the
square of a condensed dissimilarity, one kernel."""
from __future__ import annotations

import numpy as np
import cupy as cp

from .launch import i64, i32, kernel, launch, KernelError

LINKS = {"average": 0, "complete": 1, "single": 2}
THREADS = 1024
#: dynamic shared memory a block may take without opting in: the live bitset's limit
SHARED_LIMIT = 48 * 1024
#: the condensed vector's dtypes the expansion reads as they are (others are cast first)
SQUARE_KERNELS = {np.dtype(np.float64): "square_of_condensed_f64", np.dtype(np.float32): "square_of_condensed_f32"}


def square_of_condensed(condensed, n: int):
    """The n x n float64 CuPy matrix of a condensed dissimilarity on the device (SciPy's
    order, n(n - 1)/2 entries): symmetric, its diagonal 0, one cell a thread."""
    name = SQUARE_KERNELS.get(condensed.dtype)
    if name is None:
        condensed, name = condensed.astype(np.float64), SQUARE_KERNELS[np.dtype(np.float64)]
    condensed = cp.ascontiguousarray(condensed)
    out = cp.empty((n, n), dtype=np.float64)
    launch("hclust", name, n * n, (condensed, i64(n), out))
    return out


def nn_chain(d, method: str):
    """The n - 1 merges of a square float64 CuPy matrix `d` (overwritten), as made: (a, b,
    height) on the device, a < b the merged clusters' indices (the union keeps b)."""
    n = d.shape[0]
    shared = 4 * ((n + 31) // 32)                  # the live clusters' bitset
    if shared > SHARED_LIMIT:
        raise ValueError(f"{n:,} objects are more than the GPU clustering's {8 * SHARED_LIMIT:,}")
    size = cp.ones(n, dtype=np.float64)
    chain = cp.empty(n, dtype=np.int32)
    a = cp.empty(max(n - 1, 0), dtype=np.int32)
    b = cp.empty(max(n - 1, 0), dtype=np.int32)
    h = cp.empty(max(n - 1, 0), dtype=np.float64)
    if n > 1:
        try:
            kernel("hclust", "nn_chain")((1,), (THREADS,), (d, i64(n), i32(LINKS[method]), size, chain, a, b, h),
                                   shared_mem=shared)
        except cp.cuda.memory.OutOfMemoryError:
            raise
        except Exception as e:
            raise KernelError(f"curnet: CUDA kernel hclust.nn_chain failed ({n} items): "
                              f"{type(e).__name__}: {e}") from e
    return a, b, h
