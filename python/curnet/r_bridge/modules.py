"""R's adapters for WGCNA's module detection: cuRnet_hclust (curnet.linkage) and
cuRnet_blockwiseModules (curnet.wgcna_modules). Flat arrays in, plain lists out."""
from __future__ import annotations

import numpy as np

from ..bridge import _backend, plain


def hclust_for_r(values, n, condensed, method, backend="auto") -> dict:
    """R's dist (condensed, its lower triangle by columns: SciPy's order) or n x n matrix
    clustered; merge by columns, height, order, all as R has them."""
    from ..linkage import hclust
    d = values.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    n = int(n)
    if not condensed:
        d = d.reshape(n, n).T                   # R's matrix (its lower triangle is read)
    tree = hclust(d, method, backend=_backend(backend, "hclust"))
    return plain({"merge": tree.merge.ravel(order="F"), "height": tree.height, "order": tree.order})
