"""The Leiden tests' inputs (test_leiden.py, test_leiden_gpu.py): random levels and the
partitions a level's local moving and refinement start from."""
from __future__ import annotations

import numpy as np

from curnet.backends.partitions import community_sums, quality_of


def level_quality(lg, labels, vsize, gamma: float) -> float:
    """2m times the quality of `labels` on level lg (NumPy arrays), from the live sums."""
    inner, total, _, _ = community_sums(np, lg, labels, vsize, lg.n)
    return quality_of(inner, total, gamma)


def random_arcs(rng, n: int, m: int, hub: bool = False):
    """(src, dst, w): both arcs of m random edges among n vertices (self-loops and repeated
    edges among them), integer weights 1-4 so that every sum is exact; `hub`: 200 more edges
    at one vertex (a warp's table of several passes)."""
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    if hub:
        src = np.r_[src, np.full(200, rng.integers(0, n))]
        dst = np.r_[dst, rng.integers(0, n, 200)]
    w = rng.integers(1, 5, len(src)).astype(np.float64)
    return np.r_[src, dst], np.r_[dst, src], np.r_[w, w]


def moving_start(rng, lg, modularity: bool) -> tuple:
    """What a level's local moving starts from, in local_moving's order after the level:
    (part, vsize, total, count, gamma, quality, tolerance); modularity from singletons, or
    CPM with integer vertex sizes from a random partition."""
    n = lg.n
    if modularity:
        part = np.arange(n, dtype=np.int32)
        vsize, gamma = lg.strength, float(rng.choice([0.5, 1.0, 2.0])) / lg.twice_m
    else:
        part = rng.integers(0, int(rng.integers(1, n + 1)), n).astype(np.int32)
        vsize, gamma = rng.integers(1, 4, n).astype(np.float64), float(rng.choice([0.0, 0.05, 0.5]))
    total = np.bincount(part, weights=vsize, minlength=n)
    count = np.bincount(part, minlength=n)
    quality = level_quality(lg, part, vsize, gamma)
    return part, vsize, total, count, gamma, quality, 1e-12 * max(1.0, abs(quality), lg.twice_m)


def refine_start(rng, lg, modularity: bool) -> tuple:
    """What a level's refinement starts from, in refine_moves' order after the level: (part,
    vsize, rest, alone, total, cut, gamma, beta) for a random partition into at most 11
    communities, every vertex its own sub-community."""
    n = lg.n
    part = rng.integers(0, int(rng.integers(1, 12)), n).astype(np.int32)
    vsize = lg.strength if modularity else rng.integers(1, 4, n).astype(np.float64)
    gamma = (float(rng.choice([0.5, 1.0])) / lg.twice_m) if modularity else float(rng.choice([0.0, 0.002, 0.01]))
    beta = float(rng.choice([0.01, 0.5]))
    cut = np.bincount(lg.src, weights=lg.w * (part[lg.src] == part[lg.idx]), minlength=n)
    rest = np.bincount(part, weights=vsize, minlength=n)[part]
    alone = cut >= gamma * vsize * (rest - vsize)
    return part, vsize, rest, alone, vsize.copy(), cut, gamma, beta
