"""A propagation's iterations in compiled code (Numba), every step of a chunk of columns in one
call, each column retired when its own error bound meets tol:

- `walk_chunk`: the random walk's power iteration, the CPU's twin of the GPU's fused walk
  (kernels/propagation.cu's walk_loop);
- `laplacian_cg_chunk`: conjugate gradients on (add_diag I + sigma2 L) x = s, Jacobi
  preconditioned (the regularized Laplacian kernel of `curnet.diffuse`).

Each repeats its step route's operations (`propagation/solvers.py`: WalkSolver.step and
RegularizedLaplacianSolver.start/step, SciPy's SpMM and NumPy's reductions) in their order:
each row's sum over its arcs in their order, the elementwise terms as NumPy groups them, the
column sums over rows in row order. So a block of two columns or more comes out equal to the
step route's, bit for bit, with the same steps (a lone column's sums NumPy adds pairwise:
equal to rounding there). SciPy's SpMM runs on one thread and costs about what its columns cost
one by one; here the chunks run on the backend's threads (the GIL released), and a chunk's
columns share each arc's read. Optional: `available()` says whether Numba imports.
"""
from __future__ import annotations

import numpy as np

from .compiled import available, jit

__all__ = ["available", "laplacian_cg_chunk", "walk_chunk"]


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
                last = active - 1
                _retire(out, steps, cols, c, last, step, error <= tol, (new, s))
                scale[c], change[c] = scale[last], change[last]
                active -= 1
            else:
                c += 1
        x, new = new, x


@jit(nogil=True)
def _retire(out, steps, cols, c, last, step, converged, arrays) -> None:
    """Column c's result (arrays[0][:, c]) to out[:, cols[c]] and its steps (negative where it
    did not converge) to steps[cols[c]]; then the last active column moves into c's place in
    each of `arrays`."""
    out[:, cols[c]] = arrays[0][:, c]
    steps[cols[c]] = step if converged else -step
    if c != last:
        for a in arrays:
            a[:, c] = a[:, last]
        cols[c] = cols[last]


@jit(nogil=True)
def laplacian_cg_chunk(ptr, idx, val, diagonal, inv_diag, add, sigma2, s, tol, max_iter, out, steps, cols) -> None:
    """x with (add I + sigma2 L) x = s, L = off + diag(diagonal) (off's CSR rows ptr/idx/val),
    by conjugate gradients preconditioned by inv_diag = 1 / (add + sigma2 diagonal), for the
    columns of the (n, kc) C-order block s; column c's x goes to out[:, cols[c]] and its steps
    to steps[cols[c]], negative where it met max_iter before ||r||_2 / (add ||s||_2) <= tol."""
    n, kc = s.shape
    x = np.empty_like(s)
    r = np.empty_like(s)
    p = np.empty_like(s)
    q = np.empty_like(s)
    acc = np.empty(kc)
    rz = np.zeros(kc)
    scale = np.zeros(kc)
    for i in range(n):                   # x = D^-1 s, r = s - A x, p = z = D^-1 r
        for c in range(kc):
            x[i, c] = inv_diag[i] * s[i, c]
    for i in range(n):
        _row_sums(ptr, idx, val, x, i, kc, acc)
        for c in range(kc):
            ax = add * x[i, c] + sigma2 * (acc[c] + diagonal[i] * x[i, c])
            r[i, c] = s[i, c] - ax
            z = inv_diag[i] * r[i, c]
            p[i, c] = z
            rz[c] += r[i, c] * z
            scale[c] += s[i, c] * s[i, c]
    scale = np.sqrt(scale)
    cols = cols.copy()
    pq = np.empty(kc)
    rz_new = np.empty(kc)
    rr = np.empty(kc)
    alpha = np.empty(kc)
    active = kc
    step = 0
    while active > 0:
        step += 1
        for c in range(active):
            pq[c] = 0.0
            rz_new[c] = 0.0
            rr[c] = 0.0
        for i in range(n):               # q = A p, and p.q
            _row_sums(ptr, idx, val, p, i, active, acc)
            for c in range(active):
                q[i, c] = add * p[i, c] + sigma2 * (acc[c] + diagonal[i] * p[i, c])
                pq[c] += p[i, c] * q[i, c]
        for c in range(active):
            alpha[c] = rz[c] / pq[c] if pq[c] > 0 else 0.0
        for i in range(n):               # x += alpha p, r -= alpha q, and r.z, r.r
            for c in range(active):
                x[i, c] = x[i, c] + alpha[c] * p[i, c]
                r[i, c] = r[i, c] - alpha[c] * q[i, c]
                rz_new[c] += r[i, c] * (inv_diag[i] * r[i, c])
                rr[c] += r[i, c] * r[i, c]
        for c in range(active):          # beta, kept in alpha's place
            alpha[c] = rz_new[c] / rz[c] if rz[c] > 0 else 0.0
            rz[c] = rz_new[c]
        for i in range(n):               # p = z + beta p
            for c in range(active):
                p[i, c] = inv_diag[i] * r[i, c] + alpha[c] * p[i, c]
        c = 0
        while c < active:
            error = np.sqrt(rr[c]) / (add * scale[c])
            if error <= tol or step >= max_iter:
                last = active - 1
                _retire(out, steps, cols, c, last, step, error <= tol, (x, r, p))
                rz[c], scale[c], rr[c] = rz[last], scale[last], rr[last]
                active -= 1
            else:
                c += 1
