"""Which genes a run clusters, and in which block (WGCNA's blockwiseModules, steps 1 and 2):
`good_samples_genes` leaves out the genes and samples with too many missing values or no
variance; `form_blocks` splits the good genes into blocks of at most `max_block_size` genes,
by default as many as the device's memory holds (`largest_block`, checked again before each
block is built: `check_block_fits`)."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ...memory import check_fits

#: the matrices of n x n float64 a block holds at once on the device (adjacency, TOM, the
#: clustering's work copy)
BLOCK_MATRICES = 3


def good_samples_genes(x: np.ndarray, min_fraction: float = 0.5, min_n_samples: int = 4,
                       min_n_genes: int = 4):
    """WGCNA's goodSamplesGenes on x (genes x samples): (good genes, good samples)."""
    genes, samples = x.shape
    finite = x[~np.isnan(x)]
    tol = 1e-10 * (np.abs(finite).max() if finite.size else 0.0)
    gg = np.ones(genes, dtype=bool)
    gs = np.ones(samples, dtype=bool)
    bad_g = bad_s = 0
    while True:
        ns = int(gs.sum())
        na = np.isnan(x[:, gs]).sum(axis=1)
        gg = gg & (ns - na >= min_n_samples)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)       # genes without two values: 0 below
            var = np.nanvar(x[np.ix_(gg, gs)], axis=1, ddof=1)
        var = np.where(np.isnan(var), 0.0, var)
        keep = (na[gg] < (1 - min_fraction) * ns) & (var > tol ** 2) & (ns - na[gg] >= min_n_samples)
        gg[np.flatnonzero(gg)] = keep
        if gg.sum() < min_n_genes:
            raise ValueError("too few genes with valid expression levels in the required number of samples "
                             f"(at least {min_n_genes} genes with {min_n_samples} values and non-zero variance)")
        ng = int(gg.sum())
        na_s = np.isnan(x[np.ix_(gg, gs)]).sum(axis=0)
        gs[np.flatnonzero(gs)] = (na_s < (1 - min_fraction) * ng) & (ng - na_s >= min_n_genes)
        if gs.sum() < min_n_samples:
            raise ValueError(f"too few samples with valid expression levels (at least {min_n_samples} "
                             "samples are needed)")
        changed = (~gg).sum() > bad_g or (~gs).sum() > bad_s
        bad_g, bad_s = int((~gg).sum()), int((~gs).sum())
        if not changed:
            return gg, gs


def largest_block(device) -> int:
    """The most genes one block may hold on `device` (BLOCK_MATRICES n x n float64 matrices
    in 90% of its free memory; the host's available memory for the CPU)."""
    return max(1, int(math.sqrt(0.9 * device.free_memory() / (BLOCK_MATRICES * 8))))


def check_block_fits(device, genes: int) -> None:
    """Refuse, before allocating, a block of `genes` genes that `device`'s memory cannot hold."""
    check_fits(BLOCK_MATRICES * genes * genes * 8,
               f"a block of {genes:,} genes (its adjacency, TOM and clustering)",
               "give a smaller maxBlockSize (or, on a GPU, the CPU backend)", device=device)


def form_blocks(z: np.ndarray, max_block_size: int, signed: bool, seed: int = 54321) -> np.ndarray:
    """Block numbers (1..B, the largest block first) of genes whose prepared rows are `z`
    (unit-norm, centred: dot products are correlations).

    One block of every gene when they fit; beyond that, genes are k-means clustered by
    correlation (WGCNA's number of centres, min(n / 20, 100 n / max_block_size); centres:
    random genes, then their members' sign-aligned mean, ten rounds), a cluster larger than
    `max_block_size` cut in pieces, and the blocks filled greedily: the largest piece left
    starts a block, and the pieces whose centres correlate best with the block's join it
    while they fit. WGCNA's projective k-means forms its blocks otherwise, so several blocks
    give other (approximate) modules."""
    n = z.shape[0]
    if n <= max_block_size:
        return np.ones(n, dtype=np.int64)
    k = max(2, int(min(n / 20, 100 * n / max_block_size)))
    rng = np.random.default_rng(seed)
    centres = z[rng.choice(n, size=k, replace=False)]
    for _ in range(10):
        r = z @ centres.T
        near = np.argmax(r if signed else np.abs(r), axis=1)
        sign = np.ones(n) if signed else np.sign(r[np.arange(n), near])
        for c in range(k):
            members = near == c
            if members.any():
                m = (z[members] * sign[members, None]).sum(axis=0)
                norm = np.linalg.norm(m)
                if norm > 0:
                    centres[c] = m / norm
    pieces = []                            # (members, centre) of at most max_block_size genes
    for c in range(k):
        members = np.flatnonzero(near == c)
        for s in range(0, len(members), max_block_size):
            pieces.append((members[s:s + max_block_size], centres[c]))
    pieces.sort(key=lambda p: len(p[0]), reverse=True)
    # blocks: the largest piece left starts one, then the pieces nearest its centre join
    # while they fit (the nearest clusters share a block, as WGCNA's pre-clustering merges them)
    block = np.zeros(n, dtype=np.int64)
    left = list(range(len(pieces)))
    b = 0
    while left:
        b += 1
        first = left.pop(0)
        members, centre = pieces[first]
        size, total = len(members), centre * len(members)
        block[members] = b
        while True:
            fits = [p for p in left if size + len(pieces[p][0]) <= max_block_size]
            if not fits:
                break
            r = np.array([pieces[p][1] @ total for p in fits])
            best = fits[int(np.argmax(r if signed else np.abs(r)))]
            left.remove(best)
            members, centre = pieces[best]
            block[members] = b
            size += len(members)
            total = total + centre * len(members) * (1 if signed or centre @ total >= 0 else -1)
    order = np.argsort(-np.bincount(block)[1:], kind="stable")  # renumber by size
    renumber = np.empty(len(order), dtype=np.int64)
    renumber[order] = np.arange(1, len(order) + 1)
    return renumber[block - 1]
