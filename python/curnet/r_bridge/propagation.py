"""R's adapters for network propagation (R/propagation.R): cuRnet_page_rank, cuRnet_diffuse,
cuRnet_diffusion_kernel and cuRnet_propagation_null over curnet.propagation. R's n x k
matrices arrive as Arrow double arrays (column-major); every result's size is known before
the run, so each is written into the matrix R allocated."""
from __future__ import annotations

import numpy as np

from ..backends import get_backend
from .handoff import r_array, r_matrix
from .session import run_on


def _fill(address, result) -> None:
    """An (n,) or (n, k) result into R's n x k matrix (r_array: R's dims, column-major)."""
    result = np.asarray(result)
    if result.ndim == 1:
        result = result[:, None]
    r_array(address, result.shape, "double")[:] = result


def page_rank_for_r(g, address, values=None, k=1, damping=0.85, directed=True, tol=1e-10,
                    max_iter=10_000, backend="auto") -> None:
    from ..propagation import pagerank
    p = None if values is None else r_matrix(values, len(g), k)
    _fill(address, pagerank(g, p, damping=float(damping), directed=bool(directed), tol=float(tol),
                            max_iter=int(max_iter), backend=run_on(backend, "page_rank")))


def diffuse_for_r(g, address, values, k, background=None, method="raw", kernel="regularized_laplacian",
                  sigma2=1.0, add_diag=1.0, normalized=None, restart=None, eps=1.0, n_perm=10_000,
                  seed=1, tol=1e-10, max_iter=10_000, backend="auto") -> None:
    from ..propagation import diffuse
    if background is not None:
        background = np.asarray(background.to_numpy(zero_copy_only=False), dtype=np.int64)
    _fill(address, diffuse(g, r_matrix(values, len(g), k), method=method, kernel=kernel,
                           background=background, sigma2=float(sigma2), add_diag=float(add_diag),
                           normalized=normalized, restart=restart, eps=float(eps), n_perm=int(n_perm),
                           seed=int(seed), tol=float(tol), max_iter=int(max_iter),
                           backend=run_on(backend, "diffuse")))


def diffusion_kernel_for_r(g, address, kind="regularized_laplacian", sigma2=1.0, add_diag=1.0,
                           normalized=None, restart=None, directed=True, backend="auto") -> None:
    from ..propagation import diffusion_kernel
    backend = run_on(backend, "diffusion_kernel")
    k = diffusion_kernel(g, kind, sigma2=float(sigma2), add_diag=float(add_diag), normalized=normalized,
                         restart=restart, directed=bool(directed), backend=backend)
    _fill(address, get_backend(backend).members[0].to_host(k))     # computed on the first device


def propagation_null_for_r(g, seeds, stats_address, draws_address, n=1000, degree_matched=True,
                           bin_size=100, seed=0, kernel="pagerank", restart=None, sigma2=1.0, add_diag=1.0,
                           normalized=None, directed=True, tol=1e-10, max_iter=10_000,
                           backend="auto") -> None:
    """Writes R's n x 6 matrix (observed, mean, sd, z, p, degree bin) and R's draws x set size
    matrix of 0-based vertex ids; `seeds` are 0-based ids (R's checks made them so)."""
    from ..propagation import propagation_null
    from ..propagation.nulls import vertex_bins    # the bins the draws are matched on
    seeds = [int(s) for s in np.atleast_1d(seeds)]
    res = propagation_null(g, seeds, int(n), degree_matched=bool(degree_matched), bins=int(bin_size),
                           seed=int(seed), kernel=kernel, restart=restart, sigma2=float(sigma2),
                           add_diag=float(add_diag), normalized=normalized, directed=bool(directed),
                           tol=float(tol), max_iter=int(max_iter),
                           backend=run_on(backend, "propagation_null"))
    bins = vertex_bins(g, int(bin_size)) if degree_matched else np.zeros(len(g))
    _fill(stats_address, np.column_stack([res.observed, res.mean, res.sd, res.z, res.p, bins]))
    r_array(draws_address, res.draws.shape, "integer")[:] = res.draws
