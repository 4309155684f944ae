"""WGCNA's topological overlap (TOM): row blocks of `A @ A` on the device, from an adjacency
matrix (`tom_similarity`) or from the expression, whose adjacency is built on the device and
never visits the host (`tom_similarity_from_expr`)."""
from __future__ import annotations

import numpy as np

from ..backends import get_backend
from ..memory import check_fits
from .correlations import DEVICE_HINT, Correlations, _dense_out
from .expression import _some
from .wgcna import NETWORK_TYPES, _adjacency_of

TOM_TYPES = ("unsigned", "signed")
TOM_DENOMS = ("min", "mean")


def _tom_rows(a, conn, rows, tom_type: str, denom: str, xp):
    """TOM of genes rows[0]:rows[1] against all, from the adjacency `a` (device, diagonal 1)
    and its connectivities `conn` (sum of |a| over each row, the diagonal's 1 included):
    WGCNA's (sum_u a_iu a_uj - a_ij) / (min(k_i, k_j) - |a_ij|), |.| of the numerator for
    the signed TOM; 0 where the denominator is 0; diagonal 1."""
    block = a[rows[0]:rows[1]]
    num = block @ a - block
    ci = conn[rows[0]:rows[1], None]
    den = xp.minimum(ci, conn[None, :]) if denom == "min" else (ci + conn[None, :]) / 2
    den = den - xp.abs(block)
    if tom_type == "signed":
        num = xp.abs(num)
    safe = xp.where(den == 0, 1.0, den)
    t = xp.where(den == 0, 0.0, num / safe)
    d = xp.arange(rows[0], rows[1])
    t[d - rows[0], d] = 1.0
    return t


def _tom(a_host, n: int, tom_type, denom, backend, dtype, out, tile, adjacency_dev=None):
    if tom_type not in TOM_TYPES:
        raise ValueError(f"TOMType must be one of {', '.join(map(repr, TOM_TYPES))}, got {tom_type!r}")
    if denom not in TOM_DENOMS:
        raise ValueError(f"TOMDenom must be 'min' or 'mean', got {denom!r}")
    out = _dense_out(n, out, "the TOM")
    be = get_backend(backend).members[0]
    xp = be.xp
    side = int(tile) if tile else be.pair_tile // 2
    with be.device_scope():
        held = 0 if adjacency_dev is None else n * n * np.dtype(dtype).itemsize
        check_fits(n * n * np.dtype(dtype).itemsize - held + 3 * side * n * 8,
                   f"the TOM of {n:,} genes (the adjacency and its row blocks)", DEVICE_HINT, device=be)
        # a copy of the caller's matrix (its diagonal and NA are changed), or the device's own
        a = adjacency_dev if adjacency_dev is not None else xp.array(a_host, dtype=dtype)
        a[xp.isnan(a)] = 0.0
        idx = xp.arange(n)
        a[idx, idx] = 1.0
        conn = xp.abs(a).sum(axis=1)
        for start in range(0, n, max(1, side)):
            rows = (start, min(start + side, n))
            t = _tom_rows(a, conn, rows, tom_type, denom, xp)
            out[rows[0]:rows[1]] = be.to_host(t)
    return out


def tom_similarity(adj, tom_type: str = "unsigned", tom_denom: str = "min", *,
                   backend: str = "auto", dtype=np.float64, out=None, tile=None) -> np.ndarray:
    """WGCNA's TOMsimilarity(): the topological overlap of an adjacency matrix (NA taken as
    0; values in [0, 1], or [-1, 1] for the signed TOM). The product runs on the device."""
    a = np.asarray(adj, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("the adjacency must be a square matrix")
    low = -1 if tom_type == "signed" else 0
    finite = a[~np.isnan(a)]
    if finite.size and (finite.min() < low or finite.max() > 1):
        raise ValueError(f"adjacency values must lie in [{low}, 1] for the {tom_type} TOM")
    if not np.allclose(a, a.T, equal_nan=True):
        raise ValueError("the adjacency must be symmetric")
    return _tom(a, a.shape[0], tom_type, tom_denom, backend, dtype, out, tile)


def tom_similarity_from_expr(expr, cor_type: str = "pearson", network_type: str = "unsigned",
                             power: float = 6, tom_type: str = "signed", tom_denom: str = "min",
                             *, max_p_outliers: float = 1.0, axis: int = 0, backend: str = "auto",
                             dtype=np.float64, out=None, tile=None) -> np.ndarray:
    """WGCNA's TOMsimilarityFromExpr() (its defaults: a signed TOM of an unsigned network,
    whose adjacency keeps the correlation's sign, sign(r) |r|^power). The adjacency is built
    on the device from the prepared expression and never visits the host."""
    if cor_type not in ("pearson", "bicor"):
        raise ValueError(f"corType must be 'pearson' or 'bicor', got {cor_type!r}")
    if network_type not in NETWORK_TYPES:
        raise ValueError(f"networkType must be one of {', '.join(map(repr, NETWORK_TYPES))}, "
                         f"got {network_type!r}")
    if not 1 <= power <= 30:
        raise ValueError("power must be between 1 and 30 (as in WGCNA)")
    c = Correlations(expr, cor_type, axis=axis, max_p_outliers=max_p_outliers, backend=backend,
                     dtype=dtype, tile=tile)
    xp = c.xp
    n = c.genes
    if c.undefined.any() or len(c.missing):
        # WGCNA stops on NA adjacencies (replaceMissingAdjacencies = FALSE)
        if c.undefined.any():
            raise ValueError(f"correlations are undefined for {_some(c.gene_labels(np.flatnonzero(c.undefined)))}: "
                             "remove constant genes before computing the TOM")
    out = _dense_out(n, out, "the TOM")      # refused before any work when it cannot fit
    with c.device.device_scope():
        check_fits(2 * n * n * c.dtype.itemsize, f"the TOM of {n:,} genes", DEVICE_HINT, device=c.device)
        a = xp.empty((n, n), dtype=c.dtype)
        for rows in c.blocks():
            for cols in c.blocks():
                r = c.tile_of(rows, cols)
                if network_type == "unsigned" and tom_type == "signed":
                    blk = xp.sign(r) * xp.abs(r) ** power
                else:
                    blk = _adjacency_of(r, network_type, power, xp)
                a[rows[0]:rows[1], cols[0]:cols[1]] = blk
        return _tom(None, n, tom_type, tom_denom, backend, c.dtype, out, tile, adjacency_dev=a)
