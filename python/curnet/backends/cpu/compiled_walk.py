"""The random walk's power iteration in compiled code (Numba): the CPU's twin of the GPU's fused
walk (kernels/propagation.cu's walk_loop), every step of a chunk of columns in one call, each
column retired when its own error bound meets tol. The steps are the step route's
(`propagation/solvers.py` WalkSolver.step, SciPy's SpMM and NumPy's reductions) operation for
operation and in its order: each row's sum over its arcs in their order, times (1 - r), plus
coef times s; the dangling mass and the change summed over rows in row order. So a block of two
columns or more comes out equal to the step route's, bit for bit, with the same steps (a lone
column's two sums NumPy adds pairwise: equal to rounding there). SciPy's SpMM runs on one
thread and costs about what its columns cost one by one; here the chunks run on the backend's
threads (the GIL released), and a chunk's columns share each arc's read. Optional:
`available()` says whether Numba imports.
"""
from __future__ import annotations

import numpy as np

from .compiled import available, jit

__all__ = ["available", "walk_chunk"]


@jit(nogil=True)
def _row_sums(ptr, idx, val, x, i, active, acc) -> None:
    """acc[c] = sum over row i's arcs j, in their order, of val[j] x[idx[j], c], for the first
    `active` columns (one column: a scalar sum, which the loop over columns would make about
    four times slower)."""
    if active == 1:
        t = 0.0
        for j in range(ptr[i], ptr[i + 1]):
            t += val[j] * x[idx[j], 0]
        acc[0] = t
        return
    for c in range(active):
        acc[c] = 0.0
    for j in range(ptr[i], ptr[i + 1]):
        v, wv = idx[j], val[j]
        for c in range(active):
            acc[c] += wv * x[v, c]


@jit(nogil=True)
def walk_chunk(ptr, idx, val, dangling, s, r, redistribute, ord2, tol, max_iter, out, steps, cols) -> None:
    """x = (1 - r) W x + coef s, from x = s, for the columns of the (n, kc) C-order block s
    (overwritten: it is the chunk's work space), W's CSR rows ptr/idx/val; coef is r, plus
    (1 - r) times the mass on the `dangling` rows when `redistribute`. Column c's result goes
    to out[:, cols[c]] and its step count to steps[cols[c]], negative where it met max_iter
    before tol."""
    n, kc = s.shape
    x = s.copy()
    new = np.empty_like(s)
    scale = np.zeros(kc)
    for i in range(n):                   # the start's norm a column (L1, or the 2-norm)
        for c in range(kc):
            scale[c] += s[i, c] * s[i, c] if ord2 else abs(s[i, c])
    if ord2:
        scale = np.sqrt(scale)
    factor = (1.0 - r) / r
    cols = cols.copy()
    acc = np.empty(kc)
    coef = np.empty(kc)
    change = np.empty(kc)
    active = kc
    step = 0
    while active > 0:
        step += 1
        for c in range(active):
            coef[c] = r
            change[c] = 0.0
        if redistribute:
            acc[:active] = 0.0
            for d in dangling:
                for c in range(active):
                    acc[c] += x[d, c]
            for c in range(active):
                coef[c] = (1.0 - r) * acc[c] + r
        for i in range(n):
            _row_sums(ptr, idx, val, x, i, active, acc)
            for c in range(active):
                y = acc[c] * (1.0 - r)
                y += s[i, c] * coef[c]
                d = y - x[i, c]
                change[c] += d * d if ord2 else abs(d)
                new[i, c] = y
        c = 0
        while c < active:                # retire the columns that met tol (or max_iter)
            error = factor * (np.sqrt(change[c]) if ord2 else change[c]) / scale[c]
            if error <= tol or step >= max_iter:
                out[:, cols[c]] = new[:, c]
                steps[cols[c]] = step if error <= tol else -step
                last = active - 1        # the last active column takes its place
                if c != last:
                    new[:, c] = new[:, last]
                    s[:, c] = s[:, last]
                    cols[c], scale[c], change[c] = cols[last], scale[last], change[last]
                active -= 1
            else:
                c += 1
        x, new = new, x
