"""Propagation as repeated sparse x dense products (SpMM: SciPy on the CPU, cuSPARSE on a GPU),
a block of columns at a time, each column stopping when its own error bound meets `tol`.

- `WalkSolver`: x = r s + (1 - r) W x (random walk with restart; PageRank when the dangling
  vertices' mass is sent back along the personalization, as igraph's PRPACK does), by power
  iteration. W is a contraction of factor (1 - r) in the L1 norm (the 2-norm for the symmetric
  normalization), so ||x_t - x|| <= (1 - r) / r ||x_t - x_(t-1)|| bounds each column's error.
- `RegularizedLaplacianSolver`: (add_diag I + sigma2 L) x = s, by conjugate gradients (Jacobi
  preconditioned, one set of step lengths a column); ||x_t - x||_2 <= ||residual||_2 / add_diag.
  On the CPU, as the walk, in compiled code where the block is large enough.
- `HeatSolver`: x = exp(-sigma2 / 2 L) s, by a Taylor series over steps of norm at most 1.

Every solver is written once over the device's array module `xp`. Tolerances are relative to
each column's size (its norm, in the norm of the bound). On a GPU the walk's power iteration
runs fused instead (`fused`): every step of a block in one kernel (kernels/propagation.cu,
through backends/cuda/propagation.py), each column stopped on the device by the same rule; on
the CPU, where Numba imports and the block is large enough, every step of a block in compiled
code (backends/cpu/propagation.py, on the backend's threads), the step route's operations in
its order. `fused=False` keeps the step-by-step route above (SciPy, cuSPARSE), which the
benchmark measures beside it."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..errors import warn
from .operators import Device, Laplacian, Walk


class ConvergenceWarning(RuntimeWarning):
    """A propagation reached max_iter before meeting its tolerance."""


def _norms(xp, x, ord_):
    if ord_ == 1:
        return xp.abs(x).sum(axis=0)
    return xp.sqrt((x * x).sum(axis=0))


class Solver:
    """Common loop: iterate a block of columns, retire each column when it converges."""
    tol: float
    max_iter: int
    what: str = "propagation"
    # each solver's steps, which the loop below calls: start(s) -> state, step(state) ->
    # (state, error per column), result(state) -> block, select(state, columns) -> state
    start: Callable[[Any], Any]
    step: Callable[[Any], tuple]
    result: Callable[[Any], Any]
    select: Callable[[Any, Any], Any]

    def __init__(self, dev: Device, tol: float, max_iter: int):
        if not (tol > 0):
            raise ValueError(f"tol must be positive, got {tol}")
        if int(max_iter) < 1:
            raise ValueError(f"max_iter must be at least 1, got {max_iter}")
        self.dev, self.xp = dev, dev.xp
        self.tol, self.max_iter = float(tol), int(max_iter)
        self.iterations = 0       # the most steps a column of the last block took

    @property
    def order(self) -> str:
        """The layout solve() takes its blocks in ("C" or "F")."""
        return self.dev.order

    def unconverged(self, count: int) -> str:
        return (f"{self.what}: {count} column(s) did not reach tol={self.tol:g} in max_iter={self.max_iter} "
                "steps; their values are the last iterate")

    def solve(self, s):
        """The propagation of the (n, k) device block s, column by column to tolerance."""
        xp = self.xp
        out = xp.empty_like(s)
        active = np.arange(s.shape[1])
        state = self.start(s)
        steps = 0
        while len(active):
            steps += 1
            state, error = self.step(state)
            done = xp.asnumpy(error <= self.tol) if self.dev.on_gpu else error <= self.tol
            if steps >= self.max_iter and not done.all():
                warn(self.unconverged(int((~done).sum())), ConvergenceWarning)
                done[:] = True
            if done.any():
                to_dev = self.dev.to_device
                out[:, to_dev(active[done])] = self.result(state)[:, to_dev(np.flatnonzero(done))]
                keep = np.flatnonzero(~done)
                active = active[keep]
                if len(active):
                    state = self.select(state, to_dev(keep))
        self.iterations = steps
        return out

    def fused_result(self, x, steps):
        """x from a fused loop (every step in one call) that took `steps` a column, negative
        where a column met max_iter: its iterations kept and its stragglers warned of."""
        self.iterations = int(np.abs(steps).max())
        late = int((steps < 0).sum())
        if late:
            warn(self.unconverged(late), ConvergenceWarning)
        return x


class WalkSolver(Solver):
    """Power iteration of x = r s + (1 - r) (W x + d(x) p), d(x) the mass on dangling vertices
    when `redistribute` (PageRank: p = s, the personalization), else nothing (RWR: it leaks)."""
    what = "random walk with restart"

    def __init__(self, dev, w: Walk, restart: float, *, redistribute: bool, tol=1e-10, max_iter=10_000,
                 fused=None):
        super().__init__(dev, tol, max_iter)
        if not 0 < restart <= 1:
            raise ValueError(f"the restart probability must be in (0, 1], got {restart}")
        self.w, self.r, self.redistribute = w, float(restart), redistribute
        self.ord = 2 if w.symmetric else 1
        self.factor = (1 - self.r) / self.r
        # every step of a block in one call (solve_fused): True on a GPU; on the CPU None takes
        # it where the compiled loop takes the block, True asks for it; False: the step route
        self.fused = (True if dev.on_gpu else None) if fused is None else bool(fused)

    @property
    def order(self) -> str:
        return "C" if self.fused else self.dev.order

    def solve(self, s):
        if self.fused is not False:
            x = self.solve_fused(s)
            if x is not None:
                return x
        return super().solve(s)

    def solve_fused(self, s):
        """Every step of the block in one call: one kernel launch on the GPU, compiled code on
        the CPU; None where the CPU's loop does not take the block (fused=None)."""
        w = self.w
        if self.dev.on_gpu:
            from ..backends.cuda.propagation import long_rows, walk_loop
            if w.long_rows is None:
                w.long_rows = long_rows(w.ptr, w.n)
            x, steps = walk_loop(w.ptr, w.w.indices, w.w.data, w.is_dangling, s, self.r,
                                 redistribute=self.redistribute, ord2=self.ord == 2, tol=self.tol,
                                 max_iter=self.max_iter, cuts=w.long_rows)
        else:
            from ..backends.cpu.propagation import walk_loop as cpu_walk_loop
            done = cpu_walk_loop(self.dev.backend.members[0], w.w.indptr, w.w.indices, w.w.data, w.dangling,
                                 s, self.r, redistribute=self.redistribute, ord2=self.ord == 2, tol=self.tol,
                                 max_iter=self.max_iter, required=self.fused is True)
            if done is None:
                return None
            x, steps = done
        return self.fused_result(x, steps)

    def start(self, s):
        scale = _norms(self.xp, s, self.ord)
        return (s, s, scale)

    def step(self, state):
        x, s, scale = state
        xp = self.xp
        new = self.w.w @ x
        new *= 1 - self.r
        # the restart, and for PageRank the dangling vertices' mass, both go along s
        # (a sum over the dangling rows, not a product with a 0/1 vector: BLAS's threads cost
        # more than the sum on a small graph)
        coef: Any = (1 - self.r) * x[self.w.dangling].sum(axis=0) + self.r if self.redistribute else self.r
        new += s * (coef[None, :] if self.redistribute else coef)
        error = self.factor * _norms(xp, new - x, self.ord) / scale
        return (self.dev.contiguous(new), s, scale), error

    def result(self, state):
        return state[0]

    def select(self, state, keep):
        x, s, scale = state
        c = self.dev.contiguous
        return (c(x[:, keep]), c(s[:, keep]), scale[keep])


class RegularizedLaplacianSolver(Solver):
    """Conjugate gradients on (add_diag I + sigma2 L) x = s, Jacobi preconditioned."""
    what = "regularized Laplacian diffusion"

    def __init__(self, dev, lap: Laplacian, sigma2: float, add_diag: float, *, tol=1e-10, max_iter=10_000):
        super().__init__(dev, tol, max_iter)
        if not sigma2 > 0:
            raise ValueError(f"sigma2 must be positive, got {sigma2}")
        if not add_diag > 0:
            raise ValueError(f"add_diag must be positive (every vertex must leak heat, else the "
                             f"kernel does not exist), got {add_diag}")
        self.lap, self.sigma2, self.add = lap, float(sigma2), float(add_diag)
        self.inv_diag = 1.0 / (self.add + self.sigma2 * lap.diagonal)

    def times(self, x):
        return self.add * x + self.sigma2 * self.lap.times(x)

    def solve(self, s):
        if not self.dev.on_gpu:       # the CPU's compiled iterations, where they take the block
            from ..backends.cpu.propagation import laplacian_cg
            done = laplacian_cg(self.dev.backend.members[0], self.lap.off, self.lap.diagonal, self.inv_diag,
                                self.add, self.sigma2, s, tol=self.tol, max_iter=self.max_iter)
            if done is not None:
                return self.fused_result(*done)
        return super().solve(s)

    def start(self, s):
        xp = self.xp
        x = self.inv_diag[:, None] * s
        r = s - self.times(x)
        z = self.inv_diag[:, None] * r
        return (x, r, z.copy(), (r * z).sum(axis=0), _norms(xp, s, 2))

    def step(self, state):
        xp = self.xp
        x, r, p, rz, scale = state
        q = self.times(p)
        pq = (p * q).sum(axis=0)
        alpha = xp.where(pq > 0, rz / xp.where(pq > 0, pq, 1), 0)
        x = x + alpha * p
        r = r - alpha * q
        z = self.inv_diag[:, None] * r
        rz_new = (r * z).sum(axis=0)
        beta = xp.where(rz > 0, rz_new / xp.where(rz > 0, rz, 1), 0)
        p = z + beta * p
        error = _norms(xp, r, 2) / (self.add * scale)
        return (x, r, p, rz_new, scale), error

    def result(self, state):
        return state[0]

    def select(self, state, keep):
        x, r, p, rz, scale = state
        c = self.dev.contiguous
        return (c(x[:, keep]), c(r[:, keep]), c(p[:, keep]), rz[keep], scale[keep])


class HeatSolver:
    """exp(-t L) s, t = sigma2 / 2, as (exp(-t L / m))^m s with m = ceil(t ||L||_1), each factor
    a Taylor series summed until its terms fall below 2^-53 of the sum (a step's operator has
    norm <= 1, so the series converges quickly and without cancellation trouble)."""
    what = "heat diffusion"
    MAX_TERMS = 60

    def __init__(self, dev, lap: Laplacian, sigma2: float, *, tol=1e-10, max_iter=10_000):
        if not sigma2 > 0:
            raise ValueError(f"sigma2 must be positive, got {sigma2}")
        self.dev, self.xp, self.lap = dev, dev.xp, lap
        t = float(sigma2) / 2
        self.steps = max(1, math.ceil(t * lap.norm1))
        self.h = t / self.steps
        self.tol = max(float(tol), 1e-16) * 1e-3    # each step's terms: well under the call's tol
        self.iterations = 0

    @property
    def order(self) -> str:
        return self.dev.order

    def solve(self, s):
        xp = self.xp
        x = s
        terms = 0
        for _ in range(self.steps):
            term, total = x, x.copy()
            for k in range(1, self.MAX_TERMS + 1):
                term = (-self.h / k) * self.lap.times(term)
                total += term
                terms += 1
                small = _norms(xp, term, 1) <= self.tol * _norms(xp, total, 1)
                if bool(small.all()):
                    break
            x = total
        self.iterations = terms
        return x


def run_blocks(dev: Device, cols, solver, batch: int | None = None) -> np.ndarray:
    """solver over every column of `cols` (a Columns), `batch` columns at a time; host (n, k)."""
    n, k = cols.values.shape
    out = np.empty((n, k))
    width = batch or block_width(dev, n, k)
    with dev.scope():
        for lo in range(0, k, width):
            hi = min(k, lo + width)
            x = solver.solve(cols.on_device(dev, lo, hi, solver.order))
            if dev.on_gpu:      # the backend's copy: large blocks through pinned staging
                dev.backend.members[0].copy_to_host(dev.xp.ascontiguousarray(x), out[:, lo:hi])
            else:
                out[:, lo:hi] = x
    return out


# Blocks whose arrays take at most this are run whole without asking the GPU for its free
# memory (a driver call on every small call, one vector's included)
SMALL_BLOCK_BYTES = 64 << 20


def block_width(dev: Device, n: int, k: int, arrays: int = 8) -> int:
    """Columns a block: `arrays` float64 (n, width) arrays in at most 1 GiB on the CPU, a
    quarter of the free memory on a GPU (all k when they take at most SMALL_BLOCK_BYTES)."""
    column = max(1, arrays * 8 * n)
    if k * column <= SMALL_BLOCK_BYTES:
        return max(1, k)
    if dev.on_gpu:
        free = dev.xp.cuda.Device().mem_info[0] // 4
    else:
        free = 1 << 30
    return int(max(1, min(k, free // column)))
