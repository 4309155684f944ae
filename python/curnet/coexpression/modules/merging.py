"""WGCNA's mergeCloseModules (blockwiseModules' step 5): modules whose eigengenes are close
merged, again until nothing merges, then renumbered by size; and the eigengenes' order
(orderMEs). The eigengenes are found on the device; the modules' own tree (a few dozen
eigengenes) is made on the host."""
from __future__ import annotations

import numpy as np

from ...analyses.linkage import hclust
from .membership import correlation_with, module_eigengenes


def _me_order(me: np.ndarray, names: list, grey_last: bool, grey) -> list:
    """WGCNA's orderMEs / .clustOrder: the eigengenes in the order of the average-linkage
    dendrogram of 1 - cor (grey last when asked)."""
    def order_of(cols):
        if len(cols) < 2:
            return list(cols)
        d = 1 - np.corrcoef(me[:, cols].T)
        tree = hclust(d, "average", backend="cpu")
        return [cols[i - 1] for i in tree.order]
    idx = list(range(len(names)))
    if grey_last and grey in names:
        g = names.index(grey)
        return order_of([i for i in idx if i != g]) + [g]
    return order_of(idx)


def _relabel(labels: np.ndarray, mapping: dict) -> np.ndarray:
    """labels with each value v replaced by mapping.get(v, v) (one pass over the values)."""
    values, inverse = np.unique(labels, return_inverse=True)
    return np.array([mapping.get(v, v) for v in values.tolist()], dtype=object)[inverse]


def merge_close_modules(device, scaled, labels: np.ndarray, cut_height: float, cor_type: str,
                        max_p_outliers: float, grey, color_seq):
    """WGCNA's mergeCloseModules(relabel = TRUE, iterate = TRUE) of the genes whose scaled
    expression is `scaled` (an array of `device`, where the eigengenes are found): modules
    whose eigengenes' dissimilarity 1 - cor is below cut_height (average linkage of the
    eigengenes, cut at that height) merged, again until nothing merges, then renumbered by
    size. (merged labels, eigengene names, eigengenes samples x modules on the host, grey
    last)."""
    xp = device.xp
    labels = np.asarray(labels, dtype=object)
    while True:
        names, me = module_eigengenes(xp, scaled, labels, exclude_grey=True, grey=grey)
        me = device.to_host(me)
        old = len(set(labels.tolist()))
        if len(names) < 2:
            merged = labels
            break
        order = _me_order(me, names, grey_last=False, grey=grey)
        names, me = [names[i] for i in order], me[:, order]
        diss = 1 - correlation_with(me.T, me.T, cor_type, max_p_outliers)
        tree = hclust(diss, "average", backend="cpu")
        branch = tree.cutree(len(names) - int((tree.height <= cut_height).sum()))
        # a branch's modules take the label of its first (in eigengene order)
        first = {b: names[int(np.flatnonzero(branch == b)[0])] for b in np.unique(branch).tolist()}
        merged = _relabel(labels, {v: first[b] for v, b in zip(names, branch.tolist())})
        new = len(set(merged.tolist()))
        if new < old:
            labels = merged
        else:
            break
    # relabel by size (ties: R's factor order), grey kept
    levels, sizes = np.unique(merged, return_counts=True)
    ranked = [levels[i] for i in np.argsort(-sizes, kind="stable")]
    out = _relabel(merged, dict(zip([v for v in ranked if v != grey], color_seq)))
    names, me = module_eigengenes(xp, scaled, out, exclude_grey=False, grey=grey)
    me = device.to_host(me)
    order = _me_order(me, names, grey_last=True, grey=grey)
    return out, [names[i] for i in order], me[:, order]
