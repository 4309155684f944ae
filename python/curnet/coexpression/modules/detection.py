"""A blockwiseModules run (the package's docstring lists its steps): `ModuleDetection` holds
its state between the steps, so that a front door can cut each block's tree with its own
Dynamic Tree Cut (R: `dynamicTreeCut::cutreeHybrid`) between `block_tree` and
`set_block_labels`; `blockwise_modules` runs all steps with the Python tree cut
(`curnet.analyses.tree_cut`)."""
from __future__ import annotations

import numpy as np

from ...backends import get_backend
from ...analyses.linkage import Dendrogram, hclust
from ..correlations import prepare
from ..expression import as_expression
from ..tom import TOM_DENOMS, TOM_TYPES
from ..wgcna import NETWORK_TYPES
from .blocks import check_block_fits, form_blocks, good_samples_genes, largest_block
from .colors import GREY, STANDARD_COLORS, labels2colors
from .dissimilarity import block_dissimilarity
from .membership import eigengenes, factor_codes, kme_checks, kme_of, own_kme, reassign, scale_rows
from .merging import merge_close_modules


class ModuleDetection:
    """One blockwiseModules run, step by step: construct (checks, good genes, blocks), then for
    each block `block_tree(b)` and `set_block_labels(b, labels)`, then `finish()`."""

    def __init__(self, expr, *, power=6, network_type="unsigned", tom_type="signed", tom_denom="min",
                 cor_type="pearson", max_p_outliers=1.0, max_block_size=None, blocks=None,
                 min_module_size=None, min_core_kme=0.5, min_core_kme_size=None, min_kme_to_stay=0.3,
                 reassign_threshold=1e-6, merge_cut_height=0.15, numeric_labels=False,
                 color_seq=STANDARD_COLORS, random_seed=54321, axis=0, names=None, backend="auto"):
        if not 1 <= power <= 30:
            raise ValueError(f"power must be between 1 and 30 (as in WGCNA), got {power}")
        if network_type not in NETWORK_TYPES:
            raise ValueError(f"networkType must be one of {', '.join(map(repr, NETWORK_TYPES))}, "
                             f"got {network_type!r}")
        if tom_type not in TOM_TYPES:
            raise ValueError(f"TOMType must be one of {', '.join(map(repr, TOM_TYPES))}, got {tom_type!r}")
        if tom_denom not in TOM_DENOMS:
            raise ValueError(f"TOMDenom must be 'min' or 'mean', got {tom_denom!r}")
        if cor_type not in ("pearson", "bicor"):
            raise ValueError(f"corType must be 'pearson' or 'bicor', got {cor_type!r}")
        if not 0 <= max_p_outliers <= 1:
            raise ValueError(f"maxPOutliers must be between 0 and 1, got {max_p_outliers}")
        if not 0 <= merge_cut_height <= 1:
            raise ValueError(f"mergeCutHeight must be between 0 and 1, got {merge_cut_height}")
        e = as_expression(expr, axis, names, min_samples=1)
        self.x_all, self.gene_names = e.values, e.names
        genes, samples = self.x_all.shape
        if samples < 4:
            raise ValueError(f"too few samples: {samples} (WGCNA needs at least 4; is the matrix transposed? "
                             "datExpr is samples x genes)")
        self.good_genes, self.good_samples = good_samples_genes(self.x_all)
        self.x = self.x_all[np.ix_(self.good_genes, self.good_samples)]
        if np.isnan(self.x).any():
            raise ValueError("the expression matrix has missing values that WGCNA would impute (impute.knn) for "
                             "the eigengenes; impute them (or drop those genes or samples) first")
        self.options = dict(power=float(power), network_type=network_type, tom_type=tom_type,
                            tom_denom=tom_denom, cor_type=cor_type, max_p_outliers=float(max_p_outliers))
        self.backend = backend
        self.device = get_backend(backend).members[0]
        self.xp = self.device.xp
        # the good genes' scaled expression (eigengenes) and prepared rows (kME) on the device
        z, _ = prepare(self.x, cor_type, max_p_outliers)
        with self.device.device_scope():
            self.scaled = scale_rows(self.xp, self.xp.asarray(self.x))
            self.z = self.xp.asarray(z)
        self.min_module_size = min(20, genes / 2) if min_module_size is None else min_module_size
        self.min_core_kme = min_core_kme
        self.min_core_kme_size = self.min_module_size / 3 if min_core_kme_size is None else min_core_kme_size
        self.min_kme_to_stay = min_kme_to_stay
        self.reassign_threshold = reassign_threshold
        self.merge_cut_height = merge_cut_height
        self.numeric_labels = bool(numeric_labels)
        self.color_seq = tuple(color_seq)
        self.samples_all = samples
        if blocks is not None:
            blocks = np.asarray(blocks)
            if len(blocks) != genes:
                raise ValueError(f"blocks has {len(blocks)} entries for {genes} genes")
            good_blocks = blocks[self.good_genes]
        else:
            limit = largest_block(self.device) if max_block_size is None else int(max_block_size)
            if limit < 2:
                raise ValueError(f"maxBlockSize must be at least 2, got {limit}")
            z, _ = prepare(self.x, "pearson")
            good_blocks = form_blocks(z, limit, signed=network_type != "unsigned", seed=random_seed)
        self.block_levels = sorted(set(good_blocks.tolist()))
        self.blocks = np.full(genes, np.nan)
        self.blocks[self.good_genes] = good_blocks
        good_idx = np.flatnonzero(self.good_genes)
        self.block_members = [np.flatnonzero(good_blocks == b) for b in self.block_levels]   # in x
        self.block_genes = [good_idx[m] for m in self.block_members]                          # in all genes
        check_block_fits(self.device, max(len(m) for m in self.block_members))
        self.dendrograms: list = [None] * len(self.block_levels)
        self.dissimilarity = None            # the last block's 1 - TOM on the host, for its cut
        self.all_labels = np.zeros(genes, dtype=np.int64)
        self.all_mes: list = []              # eigengene columns, samples (good) x 1
        self.all_label_index: list = []
        self.max_used_label = 0

    @property
    def n_blocks(self) -> int:
        return len(self.block_levels)

    def block_tree(self, b: int, out=None) -> Dendrogram:
        """Block b's (0-based) TOM and average-linkage tree on the device; its 1 - TOM is
        written into `out` (an n x n host array, any order, for the tree cut) or kept in
        `self.dissimilarity` when `out` is None."""
        xb = self.x[self.block_members[b]]
        diss = block_dissimilarity(xb, backend=self.backend, **self.options)
        with self.device.device_scope():
            if out is not None:
                out[...] = self.device.to_host(diss)
                self.dissimilarity = None
            else:
                self.dissimilarity = self.device.to_host(diss)
            tree = hclust(diss, "average", backend=self.backend, overwrite=True)
        self.dendrograms[b] = tree
        return tree

    def set_block_labels(self, b: int, labels) -> None:
        """Block b's tree cut (0 unassigned): WGCNA's kME checks, then the block's modules kept."""
        labels = np.asarray(labels, dtype=np.int64).copy()
        members = self.block_members[b]
        if len(labels) != len(members):
            raise ValueError(f"{len(labels)} labels for a block of {len(members)} genes")
        self.dissimilarity = None
        if not (labels > 0).any():
            return
        labels[labels > 0] += self.max_used_label
        self.max_used_label = int(labels.max())
        assigned = np.flatnonzero(labels != 0)
        xp = self.xp
        with self.device.device_scope():
            rows = xp.asarray(members[assigned])
            index, codes = factor_codes(labels[assigned], exclude_grey=False, grey=0)
            mes = eigengenes(xp, self.scaled[rows], codes, len(index))
            own = own_kme(self.device, self.z[rows], mes, codes, self.options["cor_type"],
                          self.options["max_p_outliers"])
            mes = self.device.to_host(mes)
        if self.options["network_type"] == "unsigned":
            own = np.abs(own)
        low, dropped = kme_checks(own, codes, len(index), self.min_core_kme, self.min_core_kme_size,
                                  self.min_kme_to_stay, self.min_module_size)
        new = labels[assigned]
        new[low | dropped[codes]] = 0
        labels[assigned] = new
        keep = np.flatnonzero(~dropped)
        if not keep.size:
            return
        # the eigengenes as computed before the kME checks (WGCNA keeps them)
        self.all_mes += [mes[:, m] for m in keep]
        self.all_label_index += [index[m] for m in keep]
        good_idx = np.flatnonzero(self.good_genes)
        assigned = labels != 0
        self.all_labels[good_idx[members[assigned]]] = labels[assigned]

    def finish(self) -> dict:
        """Reassignment between modules, colours, merging of close modules: WGCNA's list."""
        good = self.all_labels[self.good_genes]
        if (good != 0).any():
            mes = np.column_stack(self.all_mes)
            prop = good[good != 0]
            ass_genes = np.flatnonzero(self.good_genes)[good != 0]
            with self.device.device_scope():
                kme = self.device.to_host(kme_of(self.device, self.z[self.xp.asarray(np.flatnonzero(good != 0))],
                                                 mes, self.options["cor_type"], self.options["max_p_outliers"]))
            if self.options["network_type"] == "unsigned":
                kme = np.abs(kme)
            self.all_labels[ass_genes] = reassign(prop, kme, self.all_label_index, self.samples_all,
                                                  self.reassign_threshold, self.min_module_size)
        all_labels = self.all_labels.copy()
        grey: int | str
        if self.numeric_labels:
            unmerged = all_labels.astype(object)
            grey, seq = 0, list(range(1, len(set(all_labels.tolist())) + 1))
        else:
            unmerged = labels2colors(all_labels, self.color_seq)
            grey = GREY
            n_new = len(set(unmerged[self.good_genes].tolist()))
            seq = list(labels2colors(np.arange(1, n_new + 1), self.color_seq))
        with self.device.device_scope():
            merged, names, mes = merge_close_modules(self.device, self.scaled, unmerged[self.good_genes],
                                                     self.merge_cut_height, self.options["cor_type"],
                                                     self.options["max_p_outliers"], grey, seq)
        colors = unmerged.copy()
        colors[self.good_genes] = merged
        me_all = np.full((self.samples_all, len(names)), np.nan)
        me_all[self.good_samples] = mes
        if self.numeric_labels:
            colors, unmerged = colors.astype(np.int64), unmerged.astype(np.int64)
        else:
            colors, unmerged = colors.astype(str), unmerged.astype(str)
        return {"colors": colors, "unmergedColors": unmerged,
                "MEs": me_all, "ME_names": [f"ME{v}" for v in names],
                "goodSamples": self.good_samples, "goodGenes": self.good_genes,
                "dendrograms": self.dendrograms, "blockGenes": [g + 1 for g in self.block_genes],
                "blocks": self.blocks, "MEsOK": True}


def blockwise_modules(expr, *, power=6, network_type="unsigned", tom_type="signed", tom_denom="min",
                      cor_type="pearson", max_p_outliers=1.0, max_block_size=None, blocks=None,
                      deep_split=2, detect_cut_height=0.995, min_module_size=None, pam_stage=True,
                      pam_respects_dendro=True, min_core_kme=0.5, min_core_kme_size=None,
                      min_kme_to_stay=0.3, reassign_threshold=1e-6, merge_cut_height=0.15,
                      numeric_labels=False, axis=0, names=None, backend="auto", tree_cut=None) -> dict:
    """WGCNA's blockwiseModules on an expression matrix (genes x samples, axis=0; WGCNA's
    samples x genes: axis=1), with WGCNA's defaults. Returns WGCNA's list: colors,
    unmergedColors, MEs (samples x modules, named by ME_names), goodSamples, goodGenes,
    dendrograms (curnet.analyses.linkage.Dendrogram), blockGenes (1-based), blocks, MEsOK.
    `tree_cut(tree, dissimilarity, **options) -> labels` cuts a block's tree; by default
    `curnet.analyses.tree_cut.cutree_hybrid`."""
    run = ModuleDetection(expr, power=power, network_type=network_type, tom_type=tom_type,
                          tom_denom=tom_denom, cor_type=cor_type, max_p_outliers=max_p_outliers,
                          max_block_size=max_block_size, blocks=blocks, min_module_size=min_module_size,
                          min_core_kme=min_core_kme, min_core_kme_size=min_core_kme_size,
                          min_kme_to_stay=min_kme_to_stay, reassign_threshold=reassign_threshold,
                          merge_cut_height=merge_cut_height, numeric_labels=numeric_labels, axis=axis,
                          names=names, backend=backend)
    if tree_cut is None:
        from ...analyses.tree_cut import cutree_hybrid as tree_cut
    for b in range(run.n_blocks):
        tree = run.block_tree(b)
        labels = tree_cut(tree, run.dissimilarity, cut_height=detect_cut_height,
                          min_cluster_size=run.min_module_size, deep_split=deep_split,
                          pam_stage=pam_stage, pam_respects_dendro=pam_respects_dendro)
        run.set_block_labels(b, labels)
    return run.finish()
