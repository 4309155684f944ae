"""The input of co-expression: an expression matrix as the engine holds it (genes x samples,
float64, NaN missing), the checks on it, and whether it looks transposed."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


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
