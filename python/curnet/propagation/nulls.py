"""Permutation nulls of a propagation: the same propagation from n random seed sets of the
seed set's size, drawn degree-matched as NetColoc and network proximity draw them (each seed
replaced by a random vertex of its degree bin, no vertex twice in a set) or uniformly, all
propagated in batches; z-scores and empirical p-values for every vertex."""
from __future__ import annotations

from typing import Any, cast

from dataclasses import dataclass

import numpy as np

from ..analyses.network_proximity import degree_bins, reference_sets
from .inputs import seed_sets
from .kernels import kernel_solver
from .operators import open_device
from .solvers import block_width


@dataclass
class PropagationNull:
    """What `propagation_null` returns; arrays of length n (one a vertex) unless noted."""
    observed: np.ndarray      # the seed set's propagation
    z: np.ndarray             # (observed - mean) / sd; NaN where the null never varies
    p: np.ndarray             # (1 + #{null >= observed}) / (n + 1)
    mean: np.ndarray          # the null's mean
    sd: np.ndarray            # the null's standard deviation (population: divided by n)
    draws: np.ndarray         # (n, set size) vertex ids of the random seed sets


def propagation_null(g, seeds, n: int = 1000, *, degree_matched: bool = True, bins=100, seed: int = 0,
                     kernel: str = "pagerank", restart=None, alpha=None, sigma2: float = 1.0,
                     add_diag: float = 1.0, normalized=None, weighted=None, directed: bool = True,
                     tol: float = 1e-10, max_iter: int = 10_000, backend: str = "auto",
                     batch=None) -> PropagationNull:
    """z-scores and empirical p-values of a seed set's propagation against n random seed sets.

    Parameters
    ----------
    seeds : the seed set (vertex names or ids).
    n : random sets drawn (seeded by `seed`: the same call gives the same draws).
    degree_matched : each seed replaced by a vertex of its degree bin (degrees ignoring
        directions); False: uniform draws of distinct vertices.
    bins : the fewest vertices a degree bin holds (consecutive degrees grouped, a short last
        bin merged, as `curnet.proximity`), or an array giving each vertex's bin.
    kernel : "pagerank" (the random walk with restart: seeds weigh 1 / set size, the walk of
        `curnet.rwr`), "regularized_laplacian" or "diffusion" (seeds weigh 1, diffuStats' raw
        input); kernel parameters as `curnet.diffuse`.
    """
    n = int(n)
    if n < 2:
        raise ValueError(f"n (random sets) must be at least 2, got {n}")
    sets, many = seed_sets(g, seeds)
    if many:
        raise ValueError("propagation_null takes one seed set; call it once a set")
    members = sets[0]
    nv = len(g)
    if batch is not None and int(batch) < 1:
        raise ValueError(f"batch must be at least 1 draw, got {batch}")
    if len(members) >= nv:
        raise ValueError("the seed set holds every vertex: no random set can differ from it")
    rng = np.random.default_rng(seed)
    bin_of = vertex_bins(g, bins) if degree_matched else np.zeros(nv, dtype=np.int64)
    draws = reference_sets(members, bin_of, n, rng)
    weight = 1.0 / len(members) if kernel == "pagerank" else 1.0
    dev = open_device(backend)
    solver = kernel_solver(g, dev, kernel, sigma2=sigma2, add_diag=add_diag, normalized=normalized,
                           restart=restart, alpha=alpha, weighted=weighted, directed=directed,
                           tol=tol, max_iter=max_iter)
    # the seed set itself walks as the first block's first column (a launch of its own would
    # cost a one-vector call's host work and steps); then, shifted by the observed value: the
    # moments of (null - observed), and the count at or above, summed on the device over the
    # blocks of draws
    width = batch or block_width(dev, nv, n + 1)
    with dev.scope():
        xp = dev.xp
        sums = [xp.zeros(nv) for _ in range(3)]
        obs = None
        for lo in range(0, n, width):
            hi = min(n, lo + width)
            block = draws[lo:hi] if obs is not None else np.vstack([members[None, :], draws[lo:hi]])
            x = solver.solve(draw_block(dev, block, nv, weight, solver.order))
            if obs is None:
                obs, x = x[:, :1].copy(), x[:, 1:]
            diff = x - obs
            del x
            for acc, part in zip(sums, (diff.sum(axis=1), (diff * diff).sum(axis=1), (diff >= 0).sum(axis=1))):
                acc += part
            del diff
        total, squares, above = (dev.to_host(a) for a in sums)
        observed = dev.to_host(obs)[:, 0]
    shift = total / n
    mean = observed + shift
    sd = np.sqrt(np.maximum(squares / n - shift ** 2, 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(sd > 0, (observed - mean) / np.where(sd > 0, sd, 1), np.nan)
    return PropagationNull(observed, z, (above + 1) / (n + 1), mean, sd, draws)


def draw_block(dev, draws: np.ndarray, n: int, weight: float, order: str):
    """The (n, len(draws)) start block of the draws (one a column, each member at `weight`),
    laid out on the device: only the draws' ids travel (as int32 where they fit: half the bytes)."""
    xp = dev.xp
    block = xp.zeros((n, len(draws)), dtype=np.float64, order=cast(Any, order))   # "C" or "F"
    rows = dev.to_device(np.ascontiguousarray(draws.T, dtype=np.int32 if n < 2 ** 31 else np.int64))
    block[rows, xp.arange(len(draws))[None, :]] = weight
    return block


def vertex_bins(g, bins) -> np.ndarray:
    """Each vertex's degree bin: `bins` a bin size (the fewest vertices a bin holds, degrees
    ignoring directions, as `curnet.proximity`), or the bin ids themselves (checked)."""
    if np.isscalar(bins):
        return degree_bins(g.oriented("all").out_degree(), int(cast(Any, bins)))
    bin_of = np.asarray(bins)
    if bin_of.shape != (len(g),) or not np.issubdtype(bin_of.dtype, np.integer) or (bin_of < 0).any():
        raise ValueError("bins must be a bin size, or one non-negative integer bin id a vertex")
    return bin_of.astype(np.int64)
