"""The co-expression network: gene pairs past a threshold, or each gene's top partners, chosen
a tile at a time where the tile was computed (the dense matrix is never held), as an edge
table with Fisher p-values (`coexpression_edges`) or a `Graph` (`coexpression`)."""
from __future__ import annotations

import numpy as np

from .correlations import Correlations
from .expression import as_expression, check_unique_names


def fisher_pvalues(r: np.ndarray, n) -> np.ndarray:
    """Two-sided p-values of correlations by Fisher's z (WGCNA's corPvalueFisher):
    z = atanh(r) sqrt(n - 3); NaN where n <= 3."""
    from scipy.special import ndtr
    r = np.asarray(r, dtype=np.float64)
    n = np.broadcast_to(np.asarray(n, dtype=np.float64), r.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.arctanh(np.clip(r, -1, 1)) * np.sqrt(n - 3)
        p = 2 * ndtr(-np.abs(z))
    return np.where(n > 3, p, np.nan)


def coexpression_edges(expr, method: str = "pearson", *, threshold=None, top_k=None,
                       signed: bool = False, pvalues: bool = False, axis: int = 0, names=None,
                       max_p_outliers: float = 1.0, backend: str = "auto", dtype=np.float64,
                       tile=None, stats: dict | None = None) -> dict:
    """The co-expression network as an edge table: gene pairs with |r| >= threshold (r >=
    threshold with signed=True), or each gene's top_k partners by |r| (by r when signed; a
    pair is kept when either gene picked the other), each pair once (source < target, 0-based
    ids, sorted). Returns {"source", "target", "r", ["p"], "names", "undefined"}; `stats`
    (a dict) receives the tile count and the device's peak memory where known."""
    if (threshold is None) == (top_k is None):
        raise ValueError("give exactly one of threshold (|r| >= t) or top_k (each gene's k best partners)")
    if threshold is not None and not (0 <= float(threshold) <= 1 or (signed and -1 <= float(threshold) <= 1)):
        raise ValueError(f"threshold must lie in [0, 1] (signed: [-1, 1]), got {threshold}")
    if top_k is not None and int(top_k) < 1:
        raise ValueError(f"top_k must be a positive number of partners, got {top_k}")
    c = Correlations(expr, method, axis=axis, names=names, max_p_outliers=max_p_outliers,
                     backend=backend, dtype=dtype, tile=tile)
    check_unique_names(c.expr.names)
    with c.device.device_scope():
        if threshold is not None:
            i, j, r = _threshold_pairs(c, float(threshold), bool(signed))
        else:
            i, j, r = _top_k_pairs(c, int(top_k), bool(signed))
        if stats is not None:
            stats["tiles"] = len(c.blocks()) ** 2
            peak = c.device.pool_bytes()           # where the device keeps a pool: the run's peak
            if peak is not None:
                stats["device_peak_bytes"] = peak
    order = np.lexsort((j, i))
    i, j, r = i[order], j[order], r[order]
    result = {"source": i, "target": j, "r": r, "names": c.expr.names,
              "undefined": np.flatnonzero(c.undefined)}
    if pvalues:
        result["p"] = fisher_pvalues(r, c.pair_counts(i, j))
    return result


def _threshold_pairs(c: Correlations, t: float, signed: bool):
    xp = c.xp
    parts = []
    for rows in c.blocks():
        for cols in c.blocks():
            if cols[1] <= rows[0]:
                continue                              # each pair once: the upper triangle
            r = c.tile_of(rows, cols)
            score = r if signed else xp.abs(r)
            keep = score >= t                         # NaN never passes
            if cols[0] < rows[1]:                     # a diagonal tile: pairs i < j only
                gi = xp.arange(rows[0], rows[1])[:, None]
                gj = xp.arange(cols[0], cols[1])[None, :]
                keep &= gj > gi
            a, b = xp.nonzero(keep)
            parts.append((c.to_host(a + rows[0]), c.to_host(b + cols[0]), c.to_host(r[a, b])))
    return _concat(parts)


def _top_k_pairs(c: Correlations, k: int, signed: bool):
    xp = c.xp
    n = c.genes
    k = min(k, n - 1)
    parts: list = []
    if k < 1:
        return _concat(parts)
    for rows in c.blocks():
        best_v = xp.full((rows[1] - rows[0], 0), -xp.inf, dtype=c.dtype)
        best_j = xp.zeros((rows[1] - rows[0], 0), dtype=xp.int64)
        for cols in c.blocks():
            r = c.tile_of(rows, cols)
            score = r if signed else xp.abs(r)
            score = xp.where(xp.isnan(score), -xp.inf, score)
            lo, hi = max(rows[0], cols[0]), min(rows[1], cols[1])
            if lo < hi:                                # not a gene's own partner
                d = xp.arange(lo, hi)
                score[d - rows[0], d - cols[0]] = -xp.inf
            cand_v = xp.concatenate([best_v, score], axis=1)
            cand_j = xp.concatenate([best_j, xp.broadcast_to(xp.arange(cols[0], cols[1]),
                                                             score.shape)], axis=1)
            # the k best, ties to the lower gene id (stable sort over ids in order)
            order = c.device.stable_argsort(-cand_v, axis=1)[:, :k]
            best_v = xp.take_along_axis(cand_v, order, axis=1)
            best_j = xp.take_along_axis(cand_j, order, axis=1)
        ok = xp.isfinite(best_v)
        a, slot = xp.nonzero(ok)
        parts.append((c.to_host(a + rows[0]), c.to_host(best_j[a, slot]), None))
    i, j, _ = _concat(parts)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    pairs = np.unique(lo.astype(np.int64) * n + hi)
    i, j = pairs // n, pairs % n
    # the correlations of the chosen pairs, a row block at a time
    r = np.empty(len(i))
    with c.device.device_scope():
        for rows in c.blocks():
            sel = np.flatnonzero((i >= rows[0]) & (i < rows[1]))
            if len(sel):
                full = c.tile_of(rows, (0, n))
                r[sel] = c.to_host(full[xp.asarray(i[sel] - rows[0]), xp.asarray(j[sel])])
    return i, j, r


def _concat(parts):
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    i = np.concatenate([p[0] for p in parts]).astype(np.int64)
    j = np.concatenate([p[1] for p in parts]).astype(np.int64)
    r = None if parts[0][2] is None else np.concatenate([p[2] for p in parts]).astype(np.float64)
    return i, j, r


EDGE_WEIGHTS = ("abs", "r", "distance", None)


def coexpression(expr, method: str = "pearson", *, threshold=None, top_k=None, signed=False,
                 weight="abs", **options):
    """The co-expression network as an undirected `Graph` over every gene (genes without a
    partner are isolated vertices), named by gene when names are known. Its weights:
    "abs" |r| (default), "r" the correlation (signed networks only: weights cannot be
    negative), "distance" 1 - |r| (short paths through strong correlations), None hops.
    The edge table with r and p-values is `coexpression_edges()`."""
    from ..graph import Graph
    if weight not in EDGE_WEIGHTS:
        raise ValueError(f"weight must be one of 'abs', 'r', 'distance' or None, got {weight!r}")
    e = coexpression_edges(expr, method, threshold=threshold, top_k=top_k, signed=signed, **options)
    r = e["r"]
    if weight == "r" and (r < 0).any():
        raise ValueError("weight='r' needs non-negative correlations (signed=True with threshold >= 0); "
                         "use weight='abs' or 'distance'")
    w = {"abs": np.abs(r), "r": r, "distance": 1.0 - np.abs(r), None: None}[weight]
    n = len(e["names"]) if e["names"] is not None else as_expression(expr, options.get("axis", 0)).genes
    return Graph.from_edges(e["source"], e["target"], w, directed=False, num_vertices=n,
                            names=e["names"], dtype=np.float64)
