"""Gene co-expression networks: correlations of an expression matrix, and WGCNA's network
quantities (adjacency, soft-threshold fit, connectivity, topological overlap).

Every correlation here is a matrix product. Each gene's profile is first *prepared* on the
host (centred and scaled so that the correlation of two genes is the dot product of their
prepared rows: Pearson; ranks, then Pearson for Spearman; WGCNA's biweight weights for
bicor). The products then run on the backend's array module (NumPy on the CPU, CuPy on a
GPU) a tile of gene pairs at a time, and each tile is reduced where it was computed (pairs
past a threshold, each gene's top partners, connectivity for every power), so a job of
40,000 genes never holds the dense n x n matrix on the host unless a dense result is asked
for.

Definitions follow WGCNA 1.72 (Langfelder & Horvath), checked against it in the tests:

* bicor: median and median absolute deviation (MAD, without the 1.4826 factor), weights
  (1 - u^2)^2 for u = (x - med) / (9 MAD), |u| < 1; `max_p_outliers` < 1 rescales u so that
  at most that share of each side counts as outliers; a gene with zero MAD falls back to
  Pearson (WGCNA's pearsonFallback = "individual").
* missing values: use = "pairwise.complete.obs": a pair involving a gene with missing
  values is computed again on the samples both genes have (medians and MADs included).
* a gene whose correlation is undefined (constant, or too few values) gets NA
  correlations, and a warning names it.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .backends import get_backend
from .memory import check_fits

METHODS = ("pearson", "spearman", "bicor")
NETWORK_TYPES = ("unsigned", "signed", "signed hybrid")
TOM_TYPES = ("unsigned", "signed")
TOM_DENOMS = ("min", "mean")
#: WGCNA's default soft-threshold powers
DEFAULT_POWERS = tuple(range(1, 11)) + tuple(range(12, 21, 2))
#: gene pairs a tile holds at most, by device (its side is the square root)
TILE_PAIRS = {"cpu": 2048 * 2048, "cuda": 8192 * 8192}


class CoexpressionWarning(UserWarning):
    """Genes whose correlations are undefined (constant, or too few values)."""


# -- input -------------------------------------------------------------------------------
@dataclass
class Expression:
    """An expression matrix as the engine holds it: genes x samples, float64, NaN missing."""
    values: np.ndarray
    names: np.ndarray | None

    @property
    def genes(self) -> int:
        return self.values.shape[0]

    @property
    def samples(self) -> int:
        return self.values.shape[1]


def as_expression(expr, axis: int = 0, names=None, min_samples: int = 3) -> Expression:
    """`expr` (NumPy array, list of lists, pandas DataFrame, or an Expression) as genes x
    samples: axis=0 when genes are rows (genes x samples), axis=1 when genes are columns
    (samples x genes, WGCNA's datExpr). A DataFrame's gene axis labels are the gene names
    unless `names` is given."""
    if isinstance(expr, Expression):
        return expr
    if axis not in (0, 1):
        raise ValueError(f"axis must be 0 (genes are rows) or 1 (genes are columns), got {axis!r}")
    labels = None
    if hasattr(expr, "to_numpy") and hasattr(expr, "columns"):      # a pandas DataFrame
        labels = expr.index if axis == 0 else expr.columns
        expr = expr.to_numpy()
    x = np.asarray(expr)
    if x.dtype == object or x.dtype.kind in "USbc" or x.dtype == bool:
        raise TypeError(f"the expression matrix must be numeric, got dtype {x.dtype}")
    if x.ndim != 2:
        raise ValueError(f"the expression matrix must be 2-D (genes x samples), got {x.ndim} dimension(s)")
    x = np.ascontiguousarray(x.T if axis == 1 else x, dtype=np.float64)
    if np.isinf(x).any():
        raise ValueError("the expression matrix holds infinite values: remove or replace them")
    if x.shape[1] < min_samples:
        raise ValueError(f"the expression matrix has {x.shape[1]} sample(s); correlations need at "
                         f"least {min_samples} (is the matrix transposed? axis=0: genes are rows, "
                         "axis=1: genes are columns)")
    if names is None and labels is not None:
        names = [str(v) for v in labels]
    if names is not None:
        names = np.asarray(names).astype(str)
        if len(names) != x.shape[0]:
            raise ValueError(f"{len(names)} gene names for {x.shape[0]} genes")
    return Expression(x, names)


#: a matrix "looks transposed" when its sample axis is this many times longer than its gene
#: axis (expression data has far more genes than samples; a gene panel of 50 genes over 128
#: samples, ALL[top50, ], stays under it)
TRANSPOSED_RATIO = 5
#: ... and at least this long (a toy matrix of 3 genes x 24 samples is not a warning)
TRANSPOSED_MIN_SAMPLES = 100
#: names that say "gene" (Ensembl, RefSeq, Affymetrix probe ids) or "sample" (GEO, TCGA)
_GENE_ID = r"^(ENS[A-Z]*G[0-9]{6,}|N[MR]_[0-9]+|[0-9A-Za-z_-]+_(s_|x_|a_)?at)(\.[0-9]+)?$"
_SAMPLE_ID = r"^(GSM[0-9]+|TCGA-[0-9A-Z]{2}-[0-9A-Z]{4}.*|(sample|patient|subject)[ ._-]?[0-9]+)$"


def looks_transposed(genes: int, samples: int, gene_names=None, sample_names=None) -> str | None:
    """Why a matrix read with `genes` genes and `samples` samples looks transposed, or None:
    the sample axis is TRANSPOSED_RATIO times longer than the gene axis (and at least
    TRANSPOSED_MIN_SAMPLES long), or most sample names are gene ids (ENSG..., NM_..., probe
    ids ..._at), or most gene names are sample ids (GSM..., TCGA-..., sample1). The front
    doors (R, the CLI) word the warning in their own terms."""
    import re

    def share(names, pattern):
        if names is None or len(names) == 0:
            return 0.0
        names = [str(v) for v in names]
        return sum(re.match(pattern, v, re.IGNORECASE) is not None for v in names) / len(names)
    if share(sample_names, _GENE_ID) > 0.5:
        return f"its sample names look like gene ids ({_some(list(sample_names)[:3], 3)})"
    if share(gene_names, _SAMPLE_ID) > 0.5:
        return f"its gene names look like sample ids ({_some(list(gene_names)[:3], 3)})"
    if samples >= TRANSPOSED_MIN_SAMPLES and samples >= TRANSPOSED_RATIO * genes:
        return f"it has {samples:,} samples for {genes:,} genes"
    return None


def check_unique_names(names) -> None:
    """Vertices of a graph need distinct names."""
    if names is None:
        return
    uniq, counts = np.unique(names, return_counts=True)
    if (counts > 1).any():
        dup = uniq[counts > 1]
        raise ValueError(f"gene names must be unique to name the network's vertices; duplicated: "
                         f"{_some(dup)} (make them unique, e.g. R's make.unique(), or collapse the probes)")


def _some(items, n: int = 5) -> str:
    items = [str(x) for x in items]
    more = f" and {len(items) - n} more" if len(items) > n else ""
    return ", ".join(repr(x) for x in items[:n]) + more


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
            warnings.warn(
                f"{int(self.undefined.sum())} gene(s) have undefined correlations (constant, or "
                f"fewer than two values): {_some(self.gene_labels(np.flatnonzero(self.undefined)))}; "
                "their correlations are NA and they have no edges", CoexpressionWarning, stacklevel=3)
        self.fixed = self._pairwise_rows() if len(self.missing) else None
        n = self.genes
        side = int(tile) if tile else int(np.sqrt(TILE_PAIRS["cpu" if self.xp is np else "cuda"]))
        self.tile = max(1, min(side, n))
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
        return a if self.xp is np else self.xp.asnumpy(a)


# -- correlation matrix and graph --------------------------------------------------------
def _dense_out(n: int, out, what: str) -> np.ndarray:
    if out is None:
        check_fits(n * n * 8, f"{what} of {n:,} genes ({n:,} x {n:,} doubles)",
                   "ask for the network instead (coexpression(): pairs past a threshold or each "
                   "gene's top partners), which never holds the dense matrix")
        return np.empty((n, n))
    if out.shape != (n, n):
        raise ValueError(f"out has shape {out.shape}, expected {(n, n)}")
    return out


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
            if c.xp is not np:
                # the pool holds every block it has handed out: its total is the peak of the run
                stats["device_peak_bytes"] = int(c.xp.get_default_memory_pool().total_bytes())
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
            # (CuPy's argsort is always stable and takes no kind)
            order = (np.argsort(-cand_v, axis=1, kind="stable") if xp is np
                     else xp.argsort(-cand_v, axis=1))[:, :k]
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
    from .graph import Graph
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


# -- WGCNA's network quantities ------------------------------------------------------------
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


def check_device(be, nbytes: int, what: str) -> None:
    """Refuse, before allocating, what cannot fit in the GPU's free memory."""
    free = be.free_memory() if hasattr(be, "free_memory") else None
    if free is not None and nbytes > free:
        from .errors import OutputTooLargeError
        raise OutputTooLargeError(
            f"{what} needs about {nbytes / 2**30:.1f} GiB of GPU memory, {free / 2**30:.1f} GiB is "
            "free: use dtype=float32, backend='cpu', or fewer genes")


def _tom(a_host, n: int, tom_type, denom, backend, dtype, out, tile, adjacency_dev=None):
    if tom_type not in TOM_TYPES:
        raise ValueError(f"TOMType must be one of {', '.join(map(repr, TOM_TYPES))}, got {tom_type!r}")
    if denom not in TOM_DENOMS:
        raise ValueError(f"TOMDenom must be 'min' or 'mean', got {denom!r}")
    out = _dense_out(n, out, "the TOM")
    be = get_backend(backend).members[0]
    xp = be.xp
    side = int(tile) if tile else int(np.sqrt(TILE_PAIRS["cpu" if xp is np else "cuda"])) // 2
    with be.device_scope():
        held = 0 if adjacency_dev is None else n * n * np.dtype(dtype).itemsize
        check_device(be, n * n * np.dtype(dtype).itemsize - held + 3 * side * n * 8,
                     f"the TOM of {n:,} genes (the adjacency and its row blocks)")
        # a copy of the caller's matrix (its diagonal and NA are changed), or the device's own
        a = adjacency_dev if adjacency_dev is not None else xp.array(a_host, dtype=dtype)
        a[xp.isnan(a)] = 0.0
        idx = xp.arange(n)
        a[idx, idx] = 1.0
        conn = xp.abs(a).sum(axis=1)
        for start in range(0, n, max(1, side)):
            rows = (start, min(start + side, n))
            t = _tom_rows(a, conn, rows, tom_type, denom, xp)
            out[rows[0]:rows[1]] = t if xp is np else xp.asnumpy(t)
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
        check_device(c.device, 2 * n * n * c.dtype.itemsize, f"the TOM of {n:,} genes")
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


def blockwise_modules(expr, **options) -> dict:
    """WGCNA's blockwiseModules: co-expression modules, their eigengenes and dendrograms
    (curnet.wgcna_modules.blockwise_modules, where the steps and options are described)."""
    from .wgcna_modules import blockwise_modules as detect
    return detect(expr, **options)
