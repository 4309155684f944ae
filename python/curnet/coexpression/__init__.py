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

The package by job: `expression` (the input: `as_expression`, `looks_transposed`, name
checks), `correlations` (preparation and `Correlations`' tiles, `cor`), `edges` (the network:
`coexpression_edges`, `coexpression`, Fisher p-values), `wgcna` (adjacency, connectivity,
the scale-free fit, pickSoftThreshold), `tom` (topological overlap); and the subpackage
`modules`, WGCNA's module detection (`blockwise_modules`), built on them. The device, its
tile side and its free memory come from the backend contract (`backends/contract.py`); every
public name is importable from `curnet.coexpression` itself.
"""
from __future__ import annotations

from .correlations import METHODS, CoexpressionWarning, Correlations, cor, prepare
from .edges import EDGE_WEIGHTS, coexpression, coexpression_edges, fisher_pvalues
from .expression import (TRANSPOSED_MIN_SAMPLES, TRANSPOSED_RATIO, Expression, as_expression,
                         check_unique_names, looks_transposed)
from .modules.detection import blockwise_modules
from .tom import TOM_DENOMS, TOM_TYPES, tom_similarity, tom_similarity_from_expr
from .wgcna import (DEFAULT_POWERS, NETWORK_TYPES, adjacency, connectivity_by_power, intramodular_connectivity,
                    pick_soft_threshold, scale_free_fit, soft_connectivity)

__all__ = ["CoexpressionWarning", "Correlations", "DEFAULT_POWERS", "EDGE_WEIGHTS", "Expression", "METHODS",
           "NETWORK_TYPES", "TOM_DENOMS", "TOM_TYPES", "TRANSPOSED_MIN_SAMPLES", "TRANSPOSED_RATIO",
           "adjacency", "as_expression", "blockwise_modules", "check_unique_names", "coexpression",
           "coexpression_edges", "connectivity_by_power", "cor",
           "fisher_pvalues", "intramodular_connectivity", "looks_transposed", "pick_soft_threshold",
           "prepare", "scale_free_fit", "soft_connectivity", "tom_similarity", "tom_similarity_from_expr"]

