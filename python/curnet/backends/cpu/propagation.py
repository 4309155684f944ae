"""The CPU's fused walk (as cuda/propagation.py is the GPU's): every step of a block of
columns in compiled code (compiled_walk.walk_chunk), the block cut into chunks of columns that
run on the backend's threads. From COMPILED_WALK_MIN_COLUMNS columns and COMPILED_WALK_MIN_WORK
(W's arcs times the block's columns) where Numba imports; otherwise the caller's step route
(SciPy) runs."""
from __future__ import annotations

import numpy as np

from .routes import compiled_module

# SciPy's SpMV is faster on a lone vector (about 2.5x on STRING and R-MAT 18), and its SpMM
# about as fast up to a dozen columns; from 16 the chunks share each arc's read (measured on the
# 2-core machine: 1.0-1.4x at 16 columns, 1.8-3.2x at 32-64)
COMPILED_WALK_MIN_COLUMNS = 16
# Numba's import (~0.5 s in a fresh process) is worth it from a STRING-sized network (351,642
# arcs) at that width
COMPILED_WALK_MIN_WORK = 1 << 22
# a chunk's columns share each arc's read of x (CHUNK x 8 bytes a row, contiguous)
CHUNK = 32


def walk_loop(backend, ptr, idx, val, dangling, s: np.ndarray, restart: float, *, redistribute: bool,
              ord2: bool, tol: float, max_iter: int, required: bool = False):
    """(x, steps) for the (n, k) block s, as cuda/propagation.walk_loop returns them (steps
    negative where a column met max_iter before tol); None where the compiled route does not
    take the block (`required`: it must, else an error)."""
    n, k = s.shape
    if k < COMPILED_WALK_MIN_COLUMNS and not required:
        return None
    walk = compiled_module("compiled_walk", len(idx) * k, 0 if required else COMPILED_WALK_MIN_WORK)
    if walk is None:
        if required:
            raise ValueError("fused=True on the CPU needs Numba (the compiled walk); fused=False takes the step route")
        return None
    out = np.empty((n, k))
    steps = np.zeros(k, np.int64)
    # every thread a chunk, of at least 8 columns (fewer share too little of each arc's read)
    width = min(k, CHUNK, max(8, -(-k // backend.workers)))

    def run(lo: int) -> None:
        hi = min(k, lo + width)
        walk.walk_chunk(ptr, idx, val, dangling, np.array(s[:, lo:hi], order="C"), float(restart),
                        bool(redistribute), bool(ord2), float(tol), int(max_iter), out, steps,
                        np.arange(lo, hi, dtype=np.int64))
    for _ in backend.map_batches(run, list(range(0, k, width)), parallel=True):
        pass
    return out, steps
