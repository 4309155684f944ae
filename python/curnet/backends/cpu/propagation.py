"""The CPU's fused propagations (as cuda/propagation.py is the GPU's walk): every step of a
block of columns in compiled code (compiled_propagation.py), the block cut into chunks of
columns that run on the backend's threads: the random walk's power iteration (`walk_loop`) and
the regularized Laplacian's conjugate gradients (`laplacian_cg`). From COMPILED_MIN_COLUMNS
columns and COMPILED_MIN_WORK (the matrix's arcs times the block's columns) where Numba
imports; otherwise the caller's step route (SciPy) runs."""
from __future__ import annotations

from types import ModuleType
from typing import Callable

import numpy as np

from .routes import compiled_module

# SciPy's SpMV is faster on a lone vector (about 2.5x on STRING and R-MAT 18), and its SpMM
# about as fast up to a dozen columns; from 16 the chunks share each arc's read (measured on the
# 2-core machine: 1.0-1.4x at 16 columns, 1.8-3.2x at 32-64)
COMPILED_MIN_COLUMNS = 16
# Numba's import (~0.5 s in a fresh process) is worth it from a STRING-sized network (351,642
# arcs) at that width
COMPILED_MIN_WORK = 1 << 22
# a chunk's columns share each arc's read (CHUNK x 8 bytes a row, contiguous)
CHUNK = 32


def walk_loop(backend, ptr, idx, val, dangling, s: np.ndarray, restart: float, *, redistribute: bool,
              ord2: bool, tol: float, max_iter: int, required: bool = False):
    """(x, steps) for the (n, k) block s, as cuda/propagation.walk_loop returns them (steps
    negative where a column met max_iter before tol); None where the compiled route does not
    take the block (`required`: it must, else an error)."""
    def chunk(compiled, block, out, steps, cols):
        compiled.walk_chunk(ptr, idx, val, dangling, block, float(restart), bool(redistribute), bool(ord2),
                            float(tol), int(max_iter), out, steps, cols)
    return _in_chunks(backend, s, len(idx), chunk, required)


def laplacian_cg(backend, off, diagonal, inv_diag, add: float, sigma2: float, s: np.ndarray, *, tol: float,
                 max_iter: int):
    """(x, steps) of conjugate gradients on (add I + sigma2 (off + diag(diagonal))) x = s for
    the (n, k) block s, as walk_loop returns them; None where the compiled route does not take it."""
    def chunk(compiled, block, out, steps, cols):
        compiled.laplacian_cg_chunk(off.indptr, off.indices, off.data, diagonal, inv_diag, float(add),
                                    float(sigma2), block, float(tol), int(max_iter), out, steps, cols)
    return _in_chunks(backend, s, off.nnz, chunk, False)


def _in_chunks(backend, s: np.ndarray, arcs: int, chunk: Callable, required: bool):
    """chunk(module, block, out, steps, cols) over chunks of s's columns on the backend's
    threads, each block a C-order copy of its columns; (out, steps), or None (see walk_loop)."""
    n, k = s.shape
    compiled: ModuleType | None = None
    if k >= COMPILED_MIN_COLUMNS or required:
        compiled = compiled_module("compiled_propagation", arcs * k, 0 if required else COMPILED_MIN_WORK)
    if compiled is None:
        if required:
            raise ValueError("fused=True on the CPU needs Numba (the compiled walk); fused=False takes the step route")
        return None
    out = np.empty((n, k))
    steps = np.zeros(k, np.int64)
    # every thread a chunk, of at least 8 columns (fewer share too little of each arc's read)
    width = min(k, CHUNK, max(8, -(-k // backend.workers)))

    def run(lo: int) -> None:
        hi = min(k, lo + width)
        chunk(compiled, np.array(s[:, lo:hi], order="C"), out, steps, np.arange(lo, hi, dtype=np.int64))
    for _ in backend.map_batches(run, list(range(0, k, width)), parallel=True):
        pass
    return out, steps
