"""The three graph kernels a diffusion applies, as solvers (products with K, never forming it)
and as dense matrices on the device (`diffusion_kernel`), with diffuStats' parameters:

- "regularized_laplacian": K = (add_diag I + sigma2 L)^-1, L = D - A (diffuStats'
  `regularisedLaplacianKernel`, normalized = FALSE by default);
- "diffusion": K = exp(-sigma2 / 2 L), L = I - D^-1/2 A D^-1/2 by default (its
  `diffusionKernel`, normalized = TRUE by default);
- "pagerank": K = r (I - (1 - r) W)^-1, W = A^T D^-1 the column-stochastic walk: the random
  walk with restart r (alpha = 1 - r in NetColoc's and pyNBS's words) as a kernel.

The Laplacian kernels ignore directions (as diffuStats, which refuses directed graphs); the
pagerank kernel follows them unless directed=False. A vertex without an out-arc leaks its mass
in the pagerank kernel (an isolated vertex keeps r of its own start). On a disconnected graph
each component diffuses on its own: the kernels are block diagonal."""
from __future__ import annotations

from ..memory import check_fits
from .operators import laplacian, open_device, walk
from .solvers import HeatSolver, RegularizedLaplacianSolver, WalkSolver

KERNELS = ("regularized_laplacian", "diffusion", "pagerank")
DEFAULT_NORMALIZED = {"regularized_laplacian": False, "diffusion": True}


def restart_of(restart, alpha) -> float:
    """The restart probability from `restart`, or from NetColoc's `alpha` (= 1 - restart)."""
    if alpha is not None:
        if restart is not None:
            raise ValueError("give restart or alpha (= 1 - restart), not both")
        restart = 1.0 - float(alpha)
    restart = 0.3 if restart is None else float(restart)
    if not 0 < restart <= 1:
        raise ValueError(f"restart must be in (0, 1] (alpha in [0, 1)), got restart={restart}")
    return restart


def check_kernel(kernel: str) -> None:
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {', '.join(map(repr, KERNELS))}, got {kernel!r}")


def kernel_solver(g, dev, kernel: str, *, sigma2=1.0, add_diag=1.0, normalized=None, restart=None,
                  alpha=None, weighted=None, directed=True, tol=1e-10, max_iter=10_000):
    """The solver whose solve(S) is K @ S for the named kernel."""
    check_kernel(kernel)
    if kernel == "pagerank":
        if normalized is not None:
            raise ValueError("normalized applies to the Laplacian kernels, not 'pagerank'")
        w = walk(g, dev, weighted=weighted, directed=directed)
        return WalkSolver(dev, w, restart_of(restart, alpha), redistribute=False, tol=tol, max_iter=max_iter)
    if restart is not None or alpha is not None:
        raise ValueError(f"restart/alpha apply to the 'pagerank' kernel, not {kernel!r}")
    if normalized is None:
        normalized = DEFAULT_NORMALIZED[kernel]
    lap = laplacian(g, dev, weighted=weighted, normalized=normalized)
    if kernel == "regularized_laplacian":
        return RegularizedLaplacianSolver(dev, lap, sigma2, add_diag, tol=tol, max_iter=max_iter)
    return HeatSolver(dev, lap, sigma2, tol=tol)


def diffusion_kernel(g, kind: str = "regularized_laplacian", *, sigma2: float = 1.0,
                     add_diag: float = 1.0, normalized=None, restart=None, alpha=None,
                     weighted=None, directed: bool = True, backend: str = "auto"):
    """The dense (n, n) kernel matrix K on the device (a NumPy array on the CPU, a CuPy array
    on a GPU): 8 n^2 bytes (20,000 vertices: 3.2 GB). Products with it are then matrix
    multiplies (`K @ scores`). Parameters as `curnet.diffuse`."""
    check_kernel(kind)
    dev = open_device(backend)
    n = len(g)
    if not dev.on_gpu:
        check_fits(3 * 8 * n * n, f"the dense {n:,} x {n:,} kernel", "use curnet.diffuse, which never forms it")
    xp = dev.xp
    with dev.scope():
        if kind == "pagerank":
            if normalized is not None:
                raise ValueError("normalized applies to the Laplacian kernels, not 'pagerank'")
            r = restart_of(restart, alpha)
            w = walk(g, dev, weighted=weighted, directed=directed)
            m = -(1 - r) * _dense(w.w, xp)
            m[_diag(xp, n)] += 1.0
            return r * xp.linalg.inv(m)
        if restart is not None or alpha is not None:
            raise ValueError(f"restart/alpha apply to the 'pagerank' kernel, not {kind!r}")
        if normalized is None:
            normalized = DEFAULT_NORMALIZED[kind]
        lap = laplacian(g, dev, weighted=weighted, normalized=normalized)
        dense = _dense(lap.off, xp)
        dense[_diag(xp, n)] += lap.diagonal
        if not sigma2 > 0:
            raise ValueError(f"sigma2 must be positive, got {sigma2}")
        if kind == "regularized_laplacian":
            if not add_diag > 0:
                raise ValueError(f"add_diag must be positive, got {add_diag}")
            dense *= sigma2
            dense[_diag(xp, n)] += add_diag
            k = xp.linalg.inv(dense)
        else:
            values, vectors = xp.linalg.eigh(dense)     # L is symmetric
            k = (vectors * xp.exp(-sigma2 / 2 * values)) @ vectors.T
        return (k + k.T) / 2                            # symmetric up to rounding: exactly


def _dense(m, xp):
    return xp.asarray(m.toarray())


def _diag(xp, n):
    i = xp.arange(n)
    return i, i
