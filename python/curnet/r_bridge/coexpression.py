"""R's co-expression analyses (R/coexpression.R): cuRnet_coexpression's edges as a Held, and
WGCNA's dense n x n quantities (cor, adjacency, TOM) into the matrix R allocated."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .handoff import Held, plain, r_array, r_matrix
from .session import run_on


def expression_from_r(values, nrow, ncol, genes_in_rows) -> np.ndarray:
    """R's nrow x ncol expression matrix (an Arrow double array, column-major, NA as null) as
    the engine's genes x samples."""
    m = r_matrix(values, nrow, ncol)
    return np.ascontiguousarray(m if genes_in_rows else m.T)


def looks_transposed_for_r(genes, samples, gene_names=None, sample_names=None):
    """Why R's expression matrix, read as `genes` x `samples`, looks transposed (None if not);
    R words the warning (R's character vectors arrive as lists, or a str when of length 1)."""
    from ..coexpression import looks_transposed

    def as_list(x):
        return None if x is None else [x] if isinstance(x, str) else list(x)
    return looks_transposed(int(genes), int(samples), as_list(gene_names), as_list(sample_names))


def coexpression_edges_for_r(values, nrow, ncol, genes_in_rows, method, threshold, top_k, signed,
                             pvalues, max_p_outliers, backend="auto", names=None) -> Held:
    """cuRnet_coexpression's network: `from`, `to` (1-based gene indices), `r` and with
    `pvalues` `p`, one an edge; and the engine's warnings (`warnings`), which R raises."""
    from ..coexpression import CoexpressionWarning, coexpression_edges
    x = expression_from_r(values, nrow, ncol, genes_in_rows)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CoexpressionWarning)
        e = coexpression_edges(x, method, threshold=threshold, top_k=None if top_k is None else int(top_k),
                               signed=bool(signed), pvalues=bool(pvalues), names=names,
                               max_p_outliers=float(max_p_outliers),
                               backend=run_on(backend, "coexpression"))
    out: dict = {"from": (np.asarray(e["source"]) + 1).astype(np.int32),
                 "to": (np.asarray(e["target"]) + 1).astype(np.int32), "r": e["r"]}
    if pvalues:
        out["p"] = e["p"]
    out["warnings"] = [str(w.message) for w in caught]
    return Held(out)


def wgcna_dense_into(what, address, values, nrow, ncol, genes_in_rows, backend="auto", **options) -> None:
    """A dense n x n WGCNA quantity ("cor", "adjacency", "tom_from_expr") into R's matrix."""
    from .. import coexpression as ce
    fn: Any = {"cor": ce.cor, "adjacency": ce.adjacency, "tom_from_expr": ce.tom_similarity_from_expr}[what]
    x = expression_from_r(values, nrow, ncol, genes_in_rows)
    out = r_array(address, (x.shape[0], x.shape[0]), "double")    # R's n x n, checked first
    fn(x, backend=run_on(backend, what), out=out, **options)


def tom_into(address, values, n, backend="auto", **options) -> None:
    """TOMsimilarity of R's n x n adjacency into R's matrix."""
    from ..coexpression import tom_similarity
    out = r_array(address, (int(n), int(n)), "double")
    adj = values.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    if adj.size != out.size:
        raise ValueError(f"adjMat has {adj.size:,} values, not {int(n):,} x {int(n):,}")
    tom_similarity(adj.reshape(int(n), int(n)).T, backend=run_on(backend, "tom"), out=out, **options)


def pick_soft_threshold_for_r(values, nrow, ncol, genes_in_rows, backend="auto", **options) -> Held:
    """pickSoftThreshold: `powerEstimate`, the `fitIndices` table's columns (numbers) and
    their names in order (`columns`)."""
    from ..coexpression import pick_soft_threshold
    x = expression_from_r(values, nrow, ncol, genes_in_rows)
    if "powers" in options:
        options["powers"] = np.atleast_1d(np.asarray(options["powers"], dtype=np.float64))
    fit = pick_soft_threshold(x, backend=run_on(backend, "pickSoftThreshold"), **options)
    return Held({"powerEstimate": plain(fit["powerEstimate"]),
                 "fitIndices": {k: np.asarray(v, dtype=np.float64) for k, v in fit["fitIndices"].items()},
                 "columns": list(fit["fitIndices"])})
