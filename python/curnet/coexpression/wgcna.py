"""WGCNA 1.72's network quantities from the correlation tiles: adjacency, the connectivity of
every soft power in one pass, the scale-free fit and pickSoftThreshold, soft and intramodular
connectivity."""
from __future__ import annotations

import numpy as np

from .correlations import Correlations, _dense

NETWORK_TYPES = ("unsigned", "signed", "signed hybrid")
#: WGCNA's default soft-threshold powers
DEFAULT_POWERS = tuple(range(1, 11)) + tuple(range(12, 21, 2))


def _adjacency_of(r, network_type: str, power: float, xp):
    """WGCNA's adjacency from correlations: |r|^p, ((1 + r) / 2)^p, or r^p for r > 0."""
    if network_type == "unsigned":
        a = xp.abs(r)
    elif network_type == "signed":
        a = (1 + r) / 2
    elif network_type == "signed hybrid":
        a = xp.where(r > 0, r, 0.0)
        a = xp.where(xp.isnan(r), xp.nan, a)
    else:
        raise ValueError(f"network type must be one of {', '.join(map(repr, NETWORK_TYPES))}, "
                         f"got {network_type!r}")
    return a ** power if power != 1 else a


def adjacency(expr, type: str = "unsigned", power: float = 6, method: str = "pearson", *,
              axis: int = 0, max_p_outliers: float = 1.0, backend: str = "auto", dtype=np.float64,
              out=None, tile=None) -> np.ndarray:
    """WGCNA's adjacency(): the n x n soft-thresholded correlation matrix (type "unsigned",
    "signed" or "signed hybrid"; method "pearson" is corFnc = "cor", "bicor" is bicor)."""
    if type not in NETWORK_TYPES:
        raise ValueError(f"type must be one of {', '.join(map(repr, NETWORK_TYPES))}, got {type!r}")
    c = Correlations(expr, method, axis=axis, max_p_outliers=max_p_outliers, backend=backend,
                     dtype=dtype, tile=tile)
    return _dense(c, lambda r: _adjacency_of(r, type, power, c.xp), out, "the adjacency matrix")


def connectivity_by_power(c: Correlations, powers, network_type: str = "unsigned") -> np.ndarray:
    """Each gene's connectivity sum_j a_ij - 1 (NA pairs skipped, a_ii = 1) for every power,
    from one pass over the tiles: genes x powers, float64."""
    xp = c.xp
    powers = np.asarray(powers, dtype=np.float64)
    if (np.diff(powers) < 0).any():
        raise ValueError("powers must be in ascending order")
    k = np.zeros((c.genes, len(powers)))
    for rows in c.blocks():
        acc = xp.zeros((rows[1] - rows[0], len(powers)), dtype=np.float64)
        for cols in c.blocks():
            a = _adjacency_of(c.tile_of(rows, cols), network_type, 1, xp)
            lo, hi = max(rows[0], cols[0]), min(rows[1], cols[1])
            if lo < hi:                               # WGCNA sets a_ii = 1 even for NA genes
                d = xp.arange(lo, hi)
                a[d - rows[0], d - cols[0]] = 1.0
            a = xp.where(xp.isnan(a), 0.0, a)
            # a^p for ascending powers as a running product of a^(step), as WGCNA does:
            # one multiply a power instead of one pow (exp and log) an entry
            steps = {}
            current = None
            for p, step in enumerate(np.diff(powers, prepend=0.0)):
                if step not in steps:
                    steps[step] = a if step == 1 else a * a if step == 2 else a ** step
                current = steps[step] if current is None else current * steps[step]
                acc[:, p] += current.sum(axis=1)
        k[rows[0]:rows[1]] = c.to_host(acc) - 1.0
    return k


def _r_seq(lo: float, hi: float, length: int) -> np.ndarray:
    """R's seq(lo, hi, length.out = length)."""
    if length == 1:
        return np.array([lo])
    by = (hi - lo) / (length - 1)
    s = lo + np.arange(length) * by
    s[-1] = hi
    return s


def _lm_r2(y: np.ndarray, cols: list, adjusted: bool = False):
    """R's lm(y ~ cols): R squared (adjusted if asked) and the coefficients."""
    X = np.column_stack([np.ones_like(y)] + cols)
    coef, _, rank, _ = np.linalg.lstsq(X, y, rcond=None)
    fitted = X @ coef
    ss_res = float(((y - fitted) ** 2).sum())
    ss_tot = float(((y - y.mean()) ** 2).sum())
    r2 = 1 - ss_res / ss_tot if ss_tot > 0 else np.nan
    if adjusted:
        df_int = 1
        r2 = 1 - (1 - r2) * ((len(y) - df_int) / (len(y) - rank))
    return r2, coef


def scale_free_fit(k, n_breaks: int = 10, remove_first: bool = False) -> dict:
    """WGCNA's scaleFreeFitIndex(): the fit of log10 p(k) against log10 k over n_breaks bins
    of the connectivity k (R's cut() and hist()), and of a truncated exponential."""
    k = np.asarray(k, dtype=np.float64)
    lo, hi = float(k.min()), float(k.max())
    nb = n_breaks + 1
    dx = hi - lo
    if dx == 0:
        raise ValueError("all connectivities are equal: the scale-free fit is undefined")
    breaks = _r_seq(lo, hi, nb)
    breaks[0], breaks[-1] = lo - dx / 1000, hi + dx / 1000
    bins = np.searchsorted(breaks, k, side="left") - 1   # cut(): (b_i, b_i+1]
    counts = np.bincount(bins, minlength=n_breaks)[:n_breaks].astype(np.float64)
    sums = np.bincount(bins, weights=k, minlength=n_breaks)[:n_breaks]
    mids = _r_seq(lo, hi, nb)
    mids = 0.5 * (mids[1:] + mids[:-1])
    with np.errstate(invalid="ignore"):
        dk = np.where(counts > 0, sums / np.where(counts > 0, counts, 1), mids)
    dk = np.where(dk == 0, mids, dk)
    p_dk = counts / len(k)
    log_dk = np.log10(dk)
    if remove_first:
        p_dk, log_dk = p_dk[1:], log_dk[1:]
    log_p = np.log10(p_dk + 1e-9)
    r2, coef = _lm_r2(log_p, [log_dk])
    adj_r2, _ = _lm_r2(log_p, [log_dk, 10 ** log_dk], adjusted=True)
    return {"Rsquared.SFT": r2, "slope.SFT": float(coef[1]), "truncatedExponentialAdjRsquared": adj_r2}


def pick_soft_threshold(expr, powers=DEFAULT_POWERS, network_type: str = "unsigned",
                        method: str = "pearson", *, rsquared_cut: float = 0.85,
                        remove_first: bool = False, n_breaks: int = 10,
                        more_network_concepts: bool = False, axis: int = 0,
                        max_p_outliers: float = 1.0, backend: str = "auto", dtype=np.float64,
                        tile=None) -> dict:
    """WGCNA's pickSoftThreshold(): {"powerEstimate": the lowest power whose fit R^2 exceeds
    rsquared_cut (None if none), "fitIndices": columns Power, SFT.R.sq, slope,
    truncated R.sq, mean(k), median(k), max(k) (+ Density, Centralization, Heterogeneity)}.
    The connectivities of all powers come from one pass over the correlation tiles."""
    if network_type not in NETWORK_TYPES:
        raise ValueError(f"network_type must be one of {', '.join(map(repr, NETWORK_TYPES))}, "
                         f"got {network_type!r}")
    powers = np.sort(np.asarray(powers, dtype=np.float64))
    c = Correlations(expr, method, axis=axis, max_p_outliers=max_p_outliers, backend=backend,
                     dtype=dtype, tile=tile)
    n = c.genes
    if n < 3:
        raise ValueError(f"the expression matrix has {n} gene(s); a network needs at least 3")
    with c.device.device_scope():
        k = connectivity_by_power(c, powers, network_type)
    table: dict[str, list] = {name: [] for name in ("Power", "SFT.R.sq", "slope", "truncated R.sq",
                                   "mean(k)", "median(k)", "max(k)")}
    if more_network_concepts:
        table.update({"Density": [], "Centralization": [], "Heterogeneity": []})
    for p, power in enumerate(powers):
        kp = k[:, p]
        fit = scale_free_fit(kp, n_breaks, remove_first)
        table["Power"].append(float(power))
        table["SFT.R.sq"].append(fit["Rsquared.SFT"])
        table["slope"].append(fit["slope.SFT"])
        table["truncated R.sq"].append(fit["truncatedExponentialAdjRsquared"])
        table["mean(k)"].append(float(kp.mean()))
        table["median(k)"].append(float(np.median(kp)))
        table["max(k)"].append(float(kp.max()))
        if more_network_concepts:
            table["Density"].append(float(kp.sum() / (n * (n - 1))))
            table["Centralization"].append(float(n * (kp.max() - kp.mean()) / ((n - 1) * (n - 2))))
            table["Heterogeneity"].append(float(np.sqrt(n * (kp ** 2).sum() / kp.sum() ** 2 - 1)))
    above = [p for p, r2 in zip(table["Power"], table["SFT.R.sq"]) if r2 > rsquared_cut]
    return {"powerEstimate": above[0] if above else None,
            "fitIndices": {key: np.asarray(v) for key, v in table.items()}}


def soft_connectivity(expr, type: str = "unsigned", power=None, method: str = "pearson", *,
                      min_samples=None, axis: int = 0, max_p_outliers: float = 1.0,
                      backend: str = "auto", dtype=np.float64, tile=None) -> np.ndarray:
    """WGCNA's softConnectivity(): each gene's sum of adjacencies to the others (power 6, or
    15 for "signed"); NA for genes with fewer than min_samples values (default max(4,
    samples / 3))."""
    if power is None:
        power = 15 if type == "signed" else 6
    c = Correlations(expr, method, axis=axis, max_p_outliers=max_p_outliers, backend=backend,
                     dtype=dtype, tile=tile)
    if min_samples is None:
        min_samples = max(4, c.expr.samples / 3)
    if c.genes < 4 or c.expr.samples < min_samples:
        raise ValueError(f"softConnectivity needs at least 4 genes and {min_samples} samples, got "
                         f"{c.genes} genes x {c.expr.samples} samples (genes as rows: axis=0)")
    with c.device.device_scope():
        k = connectivity_by_power(c, [power], type)[:, 0]
    valid = (~np.isnan(c.expr.values)).sum(axis=1)
    k[valid < min_samples] = np.nan
    return k


def intramodular_connectivity(adj, colors, scale_by_max: bool = False) -> dict:
    """WGCNA's intramodularConnectivity(): kTotal, kWithin, kOut, kDiff of each gene from an
    adjacency matrix and module labels (modules of fewer than 3 genes: kWithin 0)."""
    a = np.array(adj, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("adj must be a square matrix")
    colors = np.asarray(colors)
    if len(colors) != a.shape[0]:
        raise ValueError(f"{len(colors)} module labels for {a.shape[0]} genes")
    np.fill_diagonal(a, 0)
    a = np.where(np.isnan(a), 0.0, a)
    k_within = np.zeros(len(colors))
    for level in np.unique(colors):
        members = colors == level
        if members.sum() >= 3:
            kw = a[np.ix_(members, members)].sum(axis=0)
            k_within[members] = kw / kw.max() if scale_by_max else kw
    k_total = a.sum(axis=0)
    k_out = np.full(len(colors), np.nan) if scale_by_max else k_total - k_within
    return {"kTotal": k_total, "kWithin": k_within, "kOut": k_out, "kDiff": k_within - k_out}
