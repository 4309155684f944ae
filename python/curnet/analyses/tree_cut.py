"""The Dynamic Tree Cut (Langfelder, Zhang & Horvath 2008) for `curnet.coexpression.modules`: the
hybrid method, `cutreeHybrid`, through the `dynamicTreeCut` package on PyPI (a port of R's
dynamicTreeCut). Checked against R's `dynamicTreeCut::cutreeHybrid` on the same dendrogram
and dissimilarity (tests/python/test_modules.py): the same labels."""
from __future__ import annotations

import contextlib
import io

import numpy as np

from .linkage import Dendrogram


def _square_block(index, matrix: np.ndarray) -> np.ndarray:
    """matrix[index, :][:, index], the port's dist_multi_index on a square matrix, without
    its copy of whole rows (|index| x n a call, thousands of calls on a large tree)."""
    return matrix[np.ix_(index, index)]


def _port_cutree_hybrid():
    """The port's cutreeHybrid with two of its helpers replaced by equal ones: its ordinal
    ranks made integers (the port indexes arrays with SciPy's rankdata(method="ordinal"),
    which SciPy 1.18 returns as floats: an IndexError, seen on the GPU machine), and its
    square-matrix blocks taken without copying whole rows."""
    import scipy.stats
    import dynamicTreeCut.dynamicTreeCut as port

    def rankdata(a, method="average", **options):
        ranks = scipy.stats.rankdata(a, method=method, **options)
        return ranks.astype(np.int64) if method == "ordinal" else ranks
    port.rankdata = rankdata
    port.dist_multi_index = _square_block       # we always pass the square matrix
    return port.cutreeHybrid


def cutree_hybrid(tree: Dendrogram, dissimilarity: np.ndarray, *, cut_height: float = 0.995,
                  min_cluster_size: float = 20, deep_split: int = 2, pam_stage: bool = True,
                  pam_respects_dendro: bool = True) -> np.ndarray:
    """Module labels (0 unassigned, 1 the largest module, ...) of a dendrogram of `n`
    genes and their n x n dissimilarity, as WGCNA's blockwiseModules asks
    cutreeDynamic(method = "hybrid") for them."""
    try:
        cutreeHybrid = _port_cutree_hybrid()
    except ImportError as e:
        raise ImportError("the Dynamic Tree Cut in Python needs the dynamicTreeCut package "
                          "(pip install dynamicTreeCut); from R, cuRnet uses R's dynamicTreeCut") from e
    if deep_split not in (0, 1, 2, 3, 4):
        raise ValueError(f"deepSplit must be 0, 1, 2, 3 or 4, got {deep_split!r}")
    with contextlib.redirect_stdout(io.StringIO()):       # the port prints its progress
        out = cutreeHybrid(tree.scipy_linkage(), np.asarray(dissimilarity), cutHeight=cut_height,
                           minClusterSize=min_cluster_size, deepSplit=deep_split, pamStage=pam_stage,
                           pamRespectsDendro=pam_respects_dendro, maxPamDist=cut_height, verbose=0)
    # the port answers a bare vector of zeros when no merge lies below the cut (R: $labels)
    return np.asarray(out["labels"] if isinstance(out, dict) else out, dtype=np.int64)
