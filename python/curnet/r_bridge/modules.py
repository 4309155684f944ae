"""R's adapters for WGCNA's module detection: cuRnet_hclust (curnet.analyses.linkage) and
cuRnet_blockwiseModules (curnet.coexpression.modules). Flat arrays in, plain lists out."""
from __future__ import annotations

import numpy as np

from .handoff import plain, r_array
from .session import run_on


def hclust_for_r(address, n, condensed, method, backend="auto") -> dict:
    """R's double dist (condensed, its lower triangle by columns: SciPy's order) or n x n
    matrix, read over R's memory at `address` (data_address: no export, no pass over the
    values; hclust checks they are finite), clustered; merge by columns, height, order, all
    as R has them."""
    from ..analyses.linkage import hclust
    n = int(n)
    d = r_array(address, (n * (n - 1) // 2,) if condensed else (n * n,), "double")
    d.flags.writeable = False                   # R's own vector: read, never written
    if not condensed:
        d = d.reshape(n, n).T                   # R's matrix (its lower triangle is read)
    tree = hclust(d, method, backend=run_on(backend, "hclust"))
    return plain({"merge": tree.merge.ravel(order="F"), "height": tree.height, "order": tree.order})


def modules_start(values, nrow, ncol, backend="auto", blocks=None, color_seq=None, **options):
    """R's datExpr (samples x genes, column-major) checked, its good genes and blocks found: the
    run, which R holds and hands back to each step below. R cuts each block's tree with
    dynamicTreeCut::cutreeHybrid between modules_block_into() and modules_block_labels()."""
    from .coexpression import expression_from_r
    from ..coexpression.modules import STANDARD_COLORS, ModuleDetection
    x = expression_from_r(values, nrow, ncol, False)             # genes x samples
    if blocks is not None:
        blocks = np.asarray(blocks.to_numpy(zero_copy_only=False), dtype=np.float64)
    if options.get("max_block_size") is not None:
        options["max_block_size"] = int(options["max_block_size"])
    return ModuleDetection(x, backend=run_on(backend, "blockwiseModules"), blocks=blocks,
                           color_seq=tuple(color_seq) if color_seq else STANDARD_COLORS, **options)


def modules_layout(run) -> dict:
    """The run's blocks: their sizes, and the minimum module size it settled on."""
    return plain({"blocks": len(run.block_members), "sizes": [len(m) for m in run.block_members],
                  "min_module_size": float(run.min_module_size)})


def modules_block_into(run, b, address) -> dict:
    """Block b's (0-based) 1 - TOM into R's n x n matrix, and its dendrogram."""
    n = len(run.block_members[int(b)])
    tree = run.block_tree(int(b), out=r_array(address, (n, n), "double"))
    return plain({"merge": tree.merge.ravel(order="F"), "height": tree.height, "order": tree.order})


def modules_block_labels(run, b, labels) -> None:
    """Block b's labels from R's cutreeHybrid."""
    run.set_block_labels(int(b), np.asarray(labels.to_numpy(zero_copy_only=False)))


def modules_finish(run) -> dict:
    """The run's result in plain lists (MEs by columns)."""
    r = run.finish()
    colors = r["colors"]
    return plain({"colors": colors.astype(np.float64) if colors.dtype.kind == "i" else colors.tolist(),
                  "unmergedColors": (r["unmergedColors"].astype(np.float64) if r["unmergedColors"].dtype.kind == "i"
                                     else r["unmergedColors"].tolist()),
                  "MEs": r["MEs"].ravel(order="F"), "ME_names": r["ME_names"],
                  "goodSamples": r["goodSamples"], "goodGenes": r["goodGenes"],
                  "blockGenes": [g.astype(np.float64) for g in r["blockGenes"]], "blocks": r["blocks"]})
