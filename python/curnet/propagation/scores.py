"""diffuStats' seven diffusion scores (Picart-Armada et al., Bioinformatics 2018; the
definitions of its `diffuse`, `diffuse_raw` and `diffuse_mc`), computed with products by the
kernel (`kernels.kernel_solver`) rather than a dense kernel, for a vector or a matrix of scores.

y is the input on the labelled vertices (the `background`), 0 elsewhere; B is the background,
n_B its size, K the kernel:

- raw: K y;  ml: K y with negatives (0 in the background) at -1 (binary input);
- gm: as ml, unlabelled vertices at (n_pos - n_neg) / n (binary input);
- ber_s: raw / (y + eps);
- z: (raw - mu) / sigma, mu and sigma the moments of raw under permutations of y over B:
  mu_i = s1 R1_i / n_B, sigma_i^2 = (n_B R2_i - R1_i^2) (n_B s2 - s1^2) / ((n_B - 1) n_B^2),
  with R1_i = sum_{j in B} K_ij, R2_i = sum_{j in B} K_ij^2, s1 = sum y, s2 = sum y^2 (a vertex
  the background cannot reach gets NaN, as in diffuStats);
- mc: 1 - p, p = (r + 1) / (n_perm + 1), r the permutations whose raw score is strictly
  higher; each permutation puts a column's non-zero values on a uniform random draw of
  background vertices (for a binary input, diffuStats' draw of n_pos vertices);
- ber_p: -log10(p) raw.

The permutations are NumPy's (`seed`), not R's: mc and ber_p agree with diffuStats in
distribution, not draw for draw."""
from __future__ import annotations

import numpy as np
from scipy import sparse

from ..sources import resolve_sources
from .inputs import Columns, as_columns
from .kernels import kernel_solver
from .operators import open_device
from .solvers import block_width, run_blocks

METHODS = ("raw", "ml", "gm", "z", "ber_s", "ber_p", "mc")


def diffuse(g, scores, *, method: str = "raw", kernel: str = "regularized_laplacian", background=None,
            sigma2: float = 1.0, add_diag: float = 1.0, normalized=None, restart=None, alpha=None,
            eps: float = 1.0, n_perm: int = 10_000, seed: int = 1, weighted=None, directed: bool = True,
            tol: float = 1e-10, max_iter: int = 10_000, backend: str = "auto", batch=None) -> np.ndarray:
    """diffuStats' diffusion scores of every vertex, for a vector or an (n, k) matrix of input
    scores (dense or SciPy sparse; the result has the same shape, dense).

    Parameters
    ----------
    scores : the input y, one row a vertex; vertices outside `background` must hold 0.
    method : "raw", "ml", "gm", "z", "ber_s", "ber_p" or "mc" (see the module's definitions).
    kernel : "regularized_laplacian" (diffuStats' default), "diffusion" or "pagerank"; its
        parameters sigma2, add_diag, normalized, restart / alpha are those of
        `curnet.diffusion_kernel`.
    background : the labelled vertices (names or ids); None: all of them.
    eps : ber_s's offset.  n_perm, seed : mc's and ber_p's permutations.
    tol, max_iter : each propagation's tolerance (see `curnet.rwr`, `curnet.diffuse`'s kernels).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    n = len(g)
    cols = as_columns(scores, n, "scores")
    y = cols.values.toarray() if sparse.issparse(cols.values) else np.array(cols.values)
    labelled = _background(g, background)
    outside = (y[~labelled] != 0).any(axis=1) if (~labelled).any() else np.zeros(0, bool)
    if outside.any():
        v = int(np.flatnonzero(~labelled)[np.flatnonzero(outside)[0]])
        raise ValueError(f"scores: vertex {v} is outside the background but has a non-zero score "
                         "(unlabelled vertices must hold 0)")
    dev = open_device(backend)
    solver = kernel_solver(g, dev, kernel, sigma2=sigma2, add_diag=add_diag, normalized=normalized,
                           restart=restart, alpha=alpha, weighted=weighted, directed=directed,
                           tol=tol, max_iter=max_iter)

    def propagate(inputs: np.ndarray) -> np.ndarray:
        return run_blocks(dev, Columns(inputs, False), solver, batch)

    if method in ("ml", "gm"):
        on_b = y[labelled]
        if not np.isin(on_b, (0.0, 1.0)).all():
            raise ValueError(f"method {method!r} needs binary scores (1 positive, 0 negative)")
        signed = np.zeros_like(y)
        signed[labelled] = np.where(on_b == 1, 1.0, -1.0)
        if method == "gm" and (~labelled).any():
            n_pos = on_b.sum(axis=0)
            signed[~labelled] = (n_pos - (labelled.sum() - n_pos)) / n
        return cols.shaped(propagate(signed))
    raw = propagate(y)
    if method == "raw":
        return cols.shaped(raw)
    if method == "ber_s":
        return cols.shaped(raw / (y + eps))
    if method == "z":
        return cols.shaped(_z_scores(dev, solver, y, raw, labelled, batch))
    p = _permutation_p(dev, solver, y, raw, labelled, int(n_perm), seed, batch)
    return cols.shaped(1 - p if method == "mc" else -np.log10(p) * raw)


def _background(g, background) -> np.ndarray:
    labelled = np.zeros(len(g), dtype=bool)
    if background is None:
        labelled[:] = True
    else:
        labelled[resolve_sources(g, background)] = True
    if labelled.sum() < 2:
        raise ValueError("the background needs at least 2 vertices")
    return labelled


def kernel_row_sums(dev, solver, labelled: np.ndarray, batch=None):
    """R1 = K 1_B and R2 = the row sums of K[:, B] squared: B's unit vectors propagated a block
    at a time."""
    n = len(labelled)
    members = np.flatnonzero(labelled)
    r1 = run_blocks(dev, Columns(labelled.astype(np.float64)[:, None], True), solver, batch)[:, 0]
    r2 = np.zeros(n)
    width = batch or block_width(dev, n, len(members))
    with dev.scope():
        for lo in range(0, len(members), width):
            part = members[lo:lo + width]
            unit = np.zeros((n, len(part)), order=solver.order)
            unit[part, np.arange(len(part))] = 1.0
            k = solver.solve(dev.to_device(unit))
            r2 += dev.to_host((k * k).sum(axis=1)) if dev.on_gpu else (k * k).sum(axis=1)
            del k
    return r1, r2


def _z_scores(dev, solver, y, raw, labelled, batch):
    nb = int(labelled.sum())
    r1, r2 = kernel_row_sums(dev, solver, labelled, batch)
    s1 = y[labelled].sum(axis=0)
    s2 = (y[labelled] ** 2).sum(axis=0)
    mean = np.outer(r1 / nb, s1)
    var = np.outer((nb * r2 - r1 ** 2) / ((nb - 1) * nb ** 2), nb * s2 - s1 ** 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (raw - mean) / np.sqrt(var)


def _permutation_p(dev, solver, y, raw, labelled, n_perm, seed, batch):
    """p = (r + 1) / (n_perm + 1) for every vertex and column, r the permuted raw scores above
    the observed one; the draws are shared by all columns (as diffuStats' are)."""
    if n_perm < 1:
        raise ValueError(f"n_perm must be at least 1, got {n_perm}")
    n, k = y.shape
    members = np.flatnonzero(labelled)
    rng = np.random.default_rng(seed)
    nonzero = [np.flatnonzero(y[members, c]) for c in range(k)]
    size = max(len(z) for z in nonzero)
    # each draw without replacement, one at a time (a whole n_perm x |B| matrix of keys would
    # be 1.6 GB for diffuStats' 10,000 permutations of a 20,000-gene background)
    draws = np.stack([rng.choice(len(members), size, replace=False) for _ in range(n_perm)])
    width = batch or block_width(dev, n, n_perm)
    above = np.zeros((n, k))
    with dev.scope():
        for c in range(k):
            values = y[members[nonzero[c]], c]
            observed = dev.to_device(raw[:, c:c + 1])
            for lo in range(0, n_perm, width):
                hi = min(n_perm, lo + width)
                block = np.zeros((n, hi - lo), order=solver.order)
                picked = members[draws[lo:hi, :len(values)]]                 # (w, k_c)
                block[picked.T, np.arange(hi - lo)[None, :]] = values[:, None]
                null = solver.solve(dev.to_device(block))
                count = (null > observed).sum(axis=1)
                above[:, c] += dev.to_host(count) if dev.on_gpu else count
    return (above + 1) / (n_perm + 1)
