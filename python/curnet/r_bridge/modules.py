"""R's adapters for WGCNA's module detection: cuRnet_hclust (curnet.analyses.linkage) and
cuRnet_blockwiseModules (curnet.coexpression.modules). Flat arrays in; results back as a Held
(its arrays into vectors R allocates), or into R's own matrix (1 - TOM)."""
from __future__ import annotations

import numpy as np

from .handoff import Held, plain, r_array
from .session import run_on


def hclust_for_r(address, n, condensed, method, backend="auto") -> Held:
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
    return _tree(tree)


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


def modules_block_into(run, b, address) -> Held:
    """Block b's (0-based) 1 - TOM into R's n x n matrix, and its dendrogram."""
    n = len(run.block_members[int(b)])
    tree = run.block_tree(int(b), out=r_array(address, (n, n), "double"))
    return _tree(tree)


def modules_block_labels(run, b, labels) -> None:
    """Block b's labels from R's cutreeHybrid."""
    run.set_block_labels(int(b), np.asarray(labels.to_numpy(zero_copy_only=False)))


def modules_finish(run) -> Held:
    """The run's result (MEs by columns; numeric labels as numbers, colours as strings)."""
    r = run.finish()
    return Held({"colors": r["colors"], "unmergedColors": r["unmergedColors"],
                 "MEs": r["MEs"].ravel(order="F"), "ME_names": r["ME_names"],
                 "goodSamples": np.asarray(r["goodSamples"]), "goodGenes": np.asarray(r["goodGenes"]),
                 "blockGenes": r["blockGenes"],
                 "blocks": np.asarray(r["blocks"], np.float64)})


def _tree(tree) -> Held:
    """A dendrogram's merge (by columns), height and order, as R's hclust holds them."""
    return Held({"merge": tree.merge.ravel(order="F").astype(np.int32), "height": tree.height,
                 "order": tree.order.astype(np.int32)})
