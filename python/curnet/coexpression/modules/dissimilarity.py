"""A block's dissimilarity, 1 - TOM, built on the backend's device as WGCNA's blockwiseModules
builds its TOM (step 3): the adjacency from co-expression's correlation tiles, TOM in row
blocks, then 1 - TOM in place, where the block's tree is clustered."""
from __future__ import annotations

import numpy as np

from ..correlations import Correlations
from ..tom import _tom_rows
from ..wgcna import _adjacency_of
from .blocks import check_block_fits


def block_dissimilarity(x: np.ndarray, cor_type: str, network_type: str, power: float, tom_type: str,
                        tom_denom: str, max_p_outliers: float, backend: str):
    """1 - TOM of a block's genes (x: genes x samples), an n x n array of the backend's
    device (NumPy on the CPU), 0 on the diagonal."""
    c = Correlations(x, cor_type, max_p_outliers=max_p_outliers, backend=backend, warn=False)
    xp, n = c.xp, c.genes
    with c.device.device_scope():
        check_block_fits(c.device, n)
        a = xp.empty((n, n), dtype=np.float64)
        for rows in c.blocks():
            for cols in c.blocks():
                r = c.tile_of(rows, cols)
                if network_type == "unsigned" and tom_type == "signed":
                    a[rows[0]:rows[1], cols[0]:cols[1]] = xp.sign(r) * xp.abs(r) ** power
                else:
                    a[rows[0]:rows[1], cols[0]:cols[1]] = _adjacency_of(r, network_type, power, xp)
        a[xp.isnan(a)] = 0.0
        idx = xp.arange(n)
        a[idx, idx] = 1.0
        conn = xp.abs(a).sum(axis=1)
        tom = xp.empty((n, n), dtype=np.float64)
        side = max(1, c.tile // 2)
        for start in range(0, n, side):
            rows = (start, min(start + side, n))
            tom[rows[0]:rows[1]] = _tom_rows(a, conn, rows, tom_type, tom_denom, xp)
        del a
        xp.subtract(1.0, tom, out=tom)          # in place: the block holds no fourth matrix
        tom[idx, idx] = 0.0
    return tom
