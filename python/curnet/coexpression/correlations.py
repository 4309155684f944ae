"""Correlations as matrix products: each gene's profile *prepared* on the host (centred and
scaled so that the correlation of two genes is the dot product of their prepared rows), then
tiles of gene pairs multiplied on the backend's device (`Correlations`), and the dense n x n
correlation matrix (`cor`). Definitions: the package's docstring."""
from __future__ import annotations

import warnings

import numpy as np

from ..backends import get_backend
from .. import errors
from ..memory import check_fits
from .expression import _some, as_expression

METHODS = ("pearson", "spearman", "bicor")


class CoexpressionWarning(UserWarning):
    """Genes whose correlations are undefined (constant, or too few values)."""


# -- preparation: correlation as a dot product -------------------------------------------
def _rank_rows(x: np.ndarray) -> np.ndarray:
    """Average ranks of each row's present values (NaN stay NaN), as R's rank()."""
    from scipy.stats import rankdata
    out = np.full_like(x, np.nan)
    full = ~np.isnan(x).any(axis=1)
    if full.any():
        out[full] = rankdata(x[full], axis=1)
    for i in np.flatnonzero(~full):
        ok = ~np.isnan(x[i])
        out[i, ok] = rankdata(x[i, ok])
    return out


def _prepare_pearson(x: np.ndarray):
    """Rows centred on their mean and scaled to unit length (NaN -> 0); the rows whose
    variance is zero (or that have no values) are undefined."""
    present = ~np.isnan(x)
    count = present.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nansum(x, axis=1) / count
        c = np.where(present, x - mean[:, None], 0.0)
        norm = np.sqrt(np.einsum("ij,ij->i", c, c))
        undefined = ~(norm > 0)
        z = np.where(undefined[:, None], 0.0, c / np.where(undefined, 1.0, norm)[:, None])
    return z, undefined


def _prepare_bicor(x: np.ndarray, max_p_outliers: float):
    """WGCNA's biweight midcorrelation rows (see the module's docstring)."""
    present = ~np.isnan(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)    # all-NaN rows: undefined below
        med = np.nanmedian(x, axis=1)
        dev = x - med[:, None]
        mad = np.nanmedian(np.abs(dev), axis=1)
    z = np.zeros_like(x)
    undefined = np.isnan(med)
    robust = ~undefined & (mad > 0)
    if robust.any():
        d = dev[robust]
        u = d / (9.0 * mad[robust])[:, None]
        if max_p_outliers < 1:
            # at most this share of each side beyond |u| = 1: WGCNA rescales so that the
            # quantiles land at u = -0.5 and 0.5 when they lie beyond (RefUX = 0.5)
            low = np.minimum(np.nanquantile(u, max_p_outliers, axis=1), -0.5)
            high = np.maximum(np.nanquantile(u, 1 - max_p_outliers, axis=1), 0.5)
            u = np.where(u < 0, u * 0.5 / np.abs(low)[:, None], u * 0.5 / high[:, None])
        w = 1.0 - np.minimum(np.abs(u), 1.0) ** 2
        r = np.where(present[robust], d * w * w, 0.0)
        norm = np.sqrt(np.einsum("ij,ij->i", r, r))
        bad = ~(norm > 0)
        r[~bad] /= norm[~bad, None]
        r[bad] = 0.0
        z[robust] = r
        undefined[np.flatnonzero(robust)[bad]] = True
    fallback = ~undefined & ~robust              # zero MAD: Pearson for this gene
    if fallback.any():
        z[fallback], und = _prepare_pearson(x[fallback])
        undefined[np.flatnonzero(fallback)[und]] = True
    return z, undefined


def prepare(x: np.ndarray, method: str, max_p_outliers: float = 1.0):
    """(z, undefined): rows of z whose dot products are the correlations of `x`'s rows
    (genes x samples, NaN missing); `undefined` marks genes whose correlations are NA."""
    if method == "pearson":
        return _prepare_pearson(x)
    if method == "spearman":
        return _prepare_pearson(_rank_rows(x))
    if method == "bicor":
        return _prepare_bicor(x, max_p_outliers)
    raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")


def _check_options(method, max_p_outliers):
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    if not 0 <= max_p_outliers <= 1:
        raise ValueError(f"max_p_outliers must be between 0 and 1, got {max_p_outliers}")


class Correlations:
    """An expression matrix prepared for one correlation method: tiles of its gene x gene
    correlation matrix on a backend, with the pairs that involve missing values computed
    pairwise (WGCNA's use = "pairwise.complete.obs") and undefined genes NA."""

    def __init__(self, expr, method="pearson", *, axis=0, names=None, max_p_outliers=1.0,
                 backend="auto", dtype=np.float64, tile=None, warn=True):
        _check_options(method, max_p_outliers)
        self.expr = as_expression(expr, axis, names)
        self.method = method
        self.max_p_outliers = float(max_p_outliers)
        self.backend = get_backend(backend)
        self.device = self.backend.members[0]
        self.xp = self.device.xp
        self.dtype = np.dtype(dtype)
        if self.dtype not in (np.float32, np.float64):
            raise TypeError(f"dtype must be float32 or float64, got {self.dtype}")
        x = self.expr.values
        self.z, self.undefined = prepare(x, method, self.max_p_outliers)
        self.missing = np.flatnonzero(np.isnan(x).any(axis=1) & ~self.undefined)
        if warn and self.undefined.any():
            errors.warn(
                f"{int(self.undefined.sum())} gene(s) have undefined correlations (constant, or "
                f"fewer than two values): {_some(self.gene_labels(np.flatnonzero(self.undefined)))}; "
                "their correlations are NA and they have no edges", CoexpressionWarning)
        self.fixed = self._pairwise_rows() if len(self.missing) else None
        side = int(tile) if tile else self.device.pair_tile
        self.tile = max(1, min(side, self.genes))
        self._z_dev = None

    @property
    def genes(self) -> int:
        return self.expr.genes

    def gene_labels(self, ids):
        names = self.expr.names
        return [str(names[i]) if names is not None else f"gene {int(i) + 1}" for i in ids]

    # -- pairs with missing values ------------------------------------------------------
    def _pairwise_rows(self) -> np.ndarray:
        """The full correlation rows of the genes with missing values, each pair on the
        samples both genes have (len(missing) x n, float64). Genes sharing one pattern of
        missing samples are prepared together against all complete genes; each pair of two
        genes with missing values is prepared on its own (a host loop: meant for data with
        a few hundred such genes, not thousands; impute those)."""
        x = self.expr.values
        n = self.genes
        rows = len(self.missing)
        check_fits(rows * n * 8, f"the pairwise correlations of {rows:,} genes with missing values",
                   "too many genes have missing values for pairwise computation: impute them "
                   "(e.g. impute::impute.knn) or drop those genes")
        out = np.full((rows, n), np.nan)
        clean = np.flatnonzero(~np.isnan(x).any(axis=1))
        present = ~np.isnan(x)
        patterns: dict = {}
        for r, i in enumerate(self.missing):
            patterns.setdefault(present[i].tobytes(), []).append(r)
        for key, members in patterns.items():
            ok = np.frombuffer(key, dtype=bool)
            genes = self.missing[members]
            # the genes without missing values, prepared on these samples only
            zc, uc = prepare(x[np.ix_(clean, ok)], self.method, self.max_p_outliers)
            zm, um = prepare(x[np.ix_(genes, ok)], self.method, self.max_p_outliers)
            block = zm @ zc.T
            block[um] = np.nan
            block[:, uc] = np.nan
            out[np.ix_(members, clean)] = block
        for a, i in enumerate(self.missing):          # pairs of two genes with missing values
            for b in range(a, rows):
                j = self.missing[b]
                ok = present[i] & present[j]
                z, und = prepare(x[[i, j]][:, ok], self.method, self.max_p_outliers)
                value = np.nan if und.any() else float(z[0] @ z[1])
                if i == j:
                    value = np.nan if und.any() else 1.0
                out[a, j] = out[b, i] = value
        out[:, self.undefined] = np.nan
        return out

    def pair_counts(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Samples each pair (i, j) has in common (the n of its p-value)."""
        present = ~np.isnan(self.expr.values)
        counts = np.full(len(i), self.expr.samples, dtype=np.int64)
        has_missing = np.zeros(self.genes, dtype=bool)
        has_missing[self.missing] = True
        sel = np.flatnonzero(has_missing[i] | has_missing[j])
        if len(sel):
            counts[sel] = (present[i[sel]] & present[j[sel]]).sum(axis=1)
        return counts

    # -- tiles ----------------------------------------------------------------------------
    def device_z(self):
        if self._z_dev is None:
            self._z_dev = self.xp.asarray(self.z.astype(self.dtype, copy=False))
        return self._z_dev

    def blocks(self):
        """(start, stop) ranges of genes, one a tile side."""
        n, t = self.genes, self.tile
        return [(a, min(a + t, n)) for a in range(0, n, t)]

    def tile_of(self, rows, cols):
        """The correlations of genes rows[0]:rows[1] with cols[0]:cols[1], on the device."""
        xp = self.xp
        z = self.device_z()
        r = z[rows[0]:rows[1]] @ z[cols[0]:cols[1]].T
        xp.clip(r, -1.0, 1.0, out=r)
        # a gene's correlation with itself is 1 exactly (rounding gives 1 +- 1e-16)
        lo, hi = max(rows[0], cols[0]), min(rows[1], cols[1])
        if lo < hi:
            d = xp.arange(lo, hi)
            r[d - rows[0], d - cols[0]] = 1.0
        if self.undefined.any():
            und = np.flatnonzero(self.undefined)
            in_rows = und[(und >= rows[0]) & (und < rows[1])]
            in_cols = und[(und >= cols[0]) & (und < cols[1])]
            if len(in_rows):
                r[xp.asarray(in_rows - rows[0])] = xp.nan
            if len(in_cols):
                r[:, xp.asarray(in_cols - cols[0])] = xp.nan
        if self.fixed is not None:
            m = self.missing
            sel = np.flatnonzero((m >= rows[0]) & (m < rows[1]))
            if len(sel):
                r[xp.asarray(m[sel] - rows[0])] = xp.asarray(
                    self.fixed[sel, cols[0]:cols[1]].astype(self.dtype))
            sel = np.flatnonzero((m >= cols[0]) & (m < cols[1]))
            if len(sel):
                r[:, xp.asarray(m[sel] - cols[0])] = xp.asarray(
                    self.fixed[sel, rows[0]:rows[1]].T.astype(self.dtype))
        return r

    def to_host(self, a) -> np.ndarray:
        return self.device.to_host(a)


# -- the dense correlation matrix ------------------------------------------------------
def _dense_out(n: int, out, what: str) -> np.ndarray:
    if out is None:
        check_fits(n * n * 8, f"{what} of {n:,} genes ({n:,} x {n:,} doubles)",
                   "ask for the network instead (coexpression(): pairs past a threshold or each "
                   "gene's top partners), which never holds the dense matrix")
        return np.empty((n, n))
    if out.shape != (n, n):
        raise ValueError(f"out has shape {out.shape}, expected {(n, n)}")
    return out


#: what to do when a device's product cannot fit
DEVICE_HINT = "use dtype=float32, fewer genes, or (on a GPU) backend='cpu'"


def _dense(c: Correlations, transform, out, what: str) -> np.ndarray:
    """transform(tile) over every tile, into a dense n x n host matrix."""
    out = _dense_out(c.genes, out, what)
    with c.device.device_scope():
        for rows in c.blocks():
            for cols in c.blocks():
                out[rows[0]:rows[1], cols[0]:cols[1]] = c.to_host(transform(c.tile_of(rows, cols)))
    return out


def cor(expr, method: str = "pearson", *, axis: int = 0, max_p_outliers: float = 1.0,
        backend: str = "auto", dtype=np.float64, out=None, tile=None) -> np.ndarray:
    """The gene x gene correlation matrix (n x n, float64, NaN where undefined): WGCNA's
    cor(use = "p") / bicor(use = "p") / stats::cor(method = "spearman", use = "p")."""
    c = Correlations(expr, method, axis=axis, max_p_outliers=max_p_outliers, backend=backend,
                     dtype=dtype, tile=tile)
    return _dense(c, lambda r: r, out, "the correlation matrix")
