"""WGCNA's module detection (`blockwiseModules`): TOM on the device, average-linkage
clustering of 1 - TOM on the device, the Dynamic Tree Cut, module eigengenes, kME checks and
the merging of close modules, step for step as WGCNA 1.72 takes them.

The steps, and the module of each:
1. `blocks.good_samples_genes`: genes with too many missing values or zero variance, and
   samples with too many missing genes, are left out (grey, NA eigengenes).
2. `blocks.form_blocks`: one block of every good gene when it fits (`max_block_size`, by
   default as many genes as the device's memory holds: three n x n float64 matrices);
   beyond that, blocks of genes clustered by correlation.
3. `dissimilarity.block_dissimilarity`: each block's adjacency and TOM on the device
   (co-expression's tiles), 1 - TOM in place, `curnet.analyses.linkage.hclust` there; the
   dissimilarity comes to the host for the cut (`curnet.analyses.tree_cut`, or R's dynamicTreeCut).
4. `membership`: each block's modules' eigengenes (the first right singular vector of the
   module's scaled expression, signed to agree with its average); genes with kME <
   `min_kme_to_stay` out, modules with fewer than `min_core_kme_size` genes of kME >
   `min_core_kme` dropped; after the last block, genes whose kME is better elsewhere by
   Fisher p-value ratio < `reassign_threshold` moved.
5. `merging.merge_close_modules` (eigengene dissimilarity below `merge_cut_height`),
   modules renumbered by size; `colors` names them as WGCNA does.
`detection` runs the steps: `ModuleDetection` (a run's state, step by step) and
`blockwise_modules` (all of them), also importable from `curnet.coexpression`.

Missing values: WGCNA imputes them (impute.knn) for the eigengenes; this package does not
impute, and refuses expression with missing values left after step 1.
"""
from __future__ import annotations

from .blocks import BLOCK_MATRICES, form_blocks, good_samples_genes, largest_block
from .colors import GREY, STANDARD_COLORS, labels2colors
from .detection import ModuleDetection, blockwise_modules
from .dissimilarity import block_dissimilarity
from .membership import correlation_with, cor_pvalue_fisher, eigengene, eigengenes, module_eigengenes, scale_rows
from .merging import merge_close_modules

__all__ = ["BLOCK_MATRICES", "GREY", "ModuleDetection", "STANDARD_COLORS", "block_dissimilarity",
           "blockwise_modules", "cor_pvalue_fisher", "correlation_with", "eigengene", "eigengenes",
           "form_blocks", "good_samples_genes", "labels2colors", "largest_block", "merge_close_modules",
           "module_eigengenes", "scale_rows"]
