"""Agglomerative hierarchical clustering of a dissimilarity matrix (`curnet.hclust`), with
R's `hclust` encoding of the result, for WGCNA's module detection on 1 - TOM.

Routes. CPU: the `fastcluster` package's `linkage` when it is installed (the C++ code of R's
fastcluster::hclust, which WGCNA calls: the same tree, ties included), else SciPy's `linkage`
(compiled too, as fast; its chain breaks ties otherwise). GPU: the nearest-neighbour chain of
kernels/hclust.cu over a square float64 matrix on the device (a CuPy matrix, 1 - TOM made
there, is used where it lies; a condensed vector travels as it is and is expanded there by
one kernel), with fastcluster's rules. `nn_chain_twin` is the kernel's
NumPy twin, step for step.

R's encoding (`stats::hclust`, `fastcluster::hclust`): merge row s joins two clusters, a
negative number -j for observation j, a positive one for the cluster made at row s' < s; in
a row, observations come before clusters, lower numbers first. Rows are sorted by height
(stably, so merges at equal heights keep the order the algorithm made them). `order` lists
the observations as the dendrogram draws them: each merge's first cluster to the left.

Ties. The nearest-neighbour chain takes, among equally near clusters, the previous element of
the chain, else the lowest index; it merges into the higher index, starts at the lowest live
cluster and starts again there when a merge leaves one cluster on the chain; average linkage
updates d = s1 d1 + s2 d2 with s = size / (size1 + size2). These are fastcluster's rules, so
at exact ties the merges are fastcluster's (hence WGCNA's). SciPy's chain keeps a lone
cluster and weighs (n1 d1 + n2 d2) / (n1 + n2); `stats::hclust` (a nearest-neighbour list)
may choose another of the tied pairs. At exact ties their trees, and for average and complete
linkage their later heights, may differ; single linkage's heights cannot.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..backends import get_backend

METHODS = ("average", "complete", "single")


@dataclass
class Dendrogram:
    """A hierarchical clustering in R's `hclust` encoding: `merge` ((n - 1) x 2, negative
    observations, positive earlier rows, 1-based), `height`, `order` (1-based), `labels`
    (or None) and `method`."""
    merge: np.ndarray
    height: np.ndarray
    order: np.ndarray
    labels: list | None
    method: str

    @property
    def size(self) -> int:
        return len(self.order)

    def cutree(self, k: int) -> np.ndarray:
        """R's `cutree(tree, k)`: groups 1..k after the first n - k merges, numbered by their
        first observation."""
        n = self.size
        if not 1 <= k <= n:
            raise ValueError(f"k must be between 1 and {n}, got {k}")
        group = np.arange(n)
        members = {j: [j] for j in range(n)}
        made: dict = {}
        for s in range(n - k):
            parts = [members.pop(group[-m - 1]) if m < 0 else members.pop(made[m]) for m in self.merge[s]]
            joined = parts[0] + parts[1]
            key = min(joined)
            for j in joined:
                group[j] = key
            members[key] = joined
            made[s + 1] = key
        _, first = np.unique(group, return_index=True)
        number = np.empty(n, dtype=np.int64)
        number[group[np.sort(first)]] = np.arange(1, len(first) + 1)
        return number[group]

    def scipy_linkage(self) -> np.ndarray:
        """The same tree as SciPy's linkage matrix Z (0-based nodes, sizes)."""
        n = self.size
        z = np.empty((n - 1, 4))
        node = np.where(self.merge < 0, -self.merge - 1, self.merge + n - 1)
        z[:, :2] = node
        z[:, 2] = self.height
        sizes = np.ones(2 * n - 1)
        for s in range(n - 1):
            sizes[n + s] = sizes[node[s, 0]] + sizes[node[s, 1]]
        z[:, 3] = sizes[n:]
        return z


def hclust(d, method: str = "average", *, backend: str = "auto", labels=None,
           overwrite: bool = False) -> Dendrogram:
    """Hierarchical clustering of dissimilarities `d` (condensed, as SciPy's `pdist`, or a
    square matrix, symmetric to 1e-10 relative, whose lower triangle is read as R's
    `as.dist` reads it; NumPy or CuPy) by average, complete or single linkage, equal to
    R's `hclust` (see the module's notes on ties). `overwrite`: a square float64 CuPy matrix
    may be used as the GPU's work space (it is destroyed) instead of copied."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    on_device = type(d).__module__.startswith("cupy")
    be = get_backend(backend if backend != "auto" or not on_device else "cuda").members[0]
    chain, expand = be.hclust_chain(), be.hclust_square()
    if chain is not None and expand is not None:   # the device's kernels, on a matrix there
        xp = be.xp
        with be.device_scope():
            # a host vector or matrix is copied by its move to the device; a condensed vector
            # travels as it is (half the square's bytes) and is expanded there
            d = xp.asarray(d)
            if d.ndim == 1:
                square = expand(d, _condensed_size(d.shape[0]))
            else:
                square = _square(xp, d, copy=on_device and not overwrite)
            n, exact = _check(xp, square)
            _labels = _check_labels(labels, n)
            if not exact:
                _lower_to_upper(xp, square)
            a, b, h = chain(square, method)
            merge, height, order = r_encoding(xp.asnumpy(a), xp.asnumpy(b), xp.asnumpy(h), n)
    else:
        from scipy.spatial.distance import squareform
        d = np.asarray(d.get() if on_device else d, dtype=np.float64)
        if d.ndim == 1:                                  # condensed: straight to the linkage
            n = _condensed_size(d.shape[0])
            if n < 2:
                raise ValueError(f"clustering needs at least 2 objects, got {n}")
            if not np.isfinite(d).all():
                raise ValueError("the dissimilarities must be finite: no NA, NaN or infinite values")
            condensed = d
        else:
            square = _square(np, d, copy=False)
            n, exact = _check(np, square)
            condensed = squareform(square if exact else square.T, checks=False)   # the lower triangle
        _labels = _check_labels(labels, n)
        merge, height, order = _host_route(condensed, n, method)
    return Dendrogram(merge, height, order, _labels, method)


def _square(xp, d, copy: bool):
    """A square matrix `d` as a float64 matrix of `xp`, C-ordered."""
    if d.ndim != 2 or d.shape[0] != d.shape[1]:
        raise ValueError(f"the dissimilarity must be a square matrix or a condensed vector, got shape {d.shape}")
    if copy or d.dtype != np.float64:
        return xp.array(d, dtype=np.float64, order="C", copy=True)
    return xp.ascontiguousarray(d)                        # the kernel reads rows


def _condensed_size(m: int) -> int:
    """n of a condensed dissimilarity of m = n(n - 1)/2 entries."""
    n = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
    if n * (n - 1) // 2 != m:
        raise ValueError(f"a condensed dissimilarity has n(n - 1)/2 entries; {m} is no such number")
    return n


def _check(xp, square) -> tuple:
    n = square.shape[0]
    if n < 2:
        raise ValueError(f"clustering needs at least 2 objects, got {n}")
    if not bool(xp.isfinite(square).all()):
        finite = xp.isfinite(square)
        finite[xp.arange(n), xp.arange(n)] = True           # the diagonal is never read
        if not bool(finite.all()):
            raise ValueError("the dissimilarities must be finite: no NA, NaN or infinite values")
    # symmetric to rounding (a TOM's two triangles are sums taken in different orders); the
    # lower triangle is what counts, as in R's as.dist(matrix)
    tile = 1024                                            # square tiles: cache-friendly
    exact = True
    for i in range(0, n, tile):
        for j in range(i, n, tile):
            upper, lower = square[i:i + tile, j:j + tile], square[j:j + tile, i:i + tile].T
            if bool((upper == lower).all()):
                continue
            exact = False
            scale = max(1.0, float(xp.abs(lower).max()))
            if float(xp.abs(upper - lower).max()) > 1e-10 * scale:
                raise ValueError("the dissimilarity matrix must be symmetric")
    return n, exact


def _lower_to_upper(xp, square) -> None:
    """The lower triangle copied over the upper one, in place, a tile at a time."""
    n, tile = square.shape[0], 1024
    for i in range(0, n, tile):
        block = square[i:i + tile, i:i + tile]
        lower = xp.tril(block, -1)
        block[...] = lower + lower.T + xp.diag(xp.diag(block))
        for j in range(i + tile, n, tile):
            square[i:i + tile, j:j + tile] = square[j:j + tile, i:i + tile].T


def _check_labels(labels, n):
    if labels is None:
        return None
    labels = [str(x) for x in labels]
    if len(labels) != n:
        raise ValueError(f"{len(labels)} labels for {n} objects")
    return labels


def _host_route(condensed: np.ndarray, n: int, method: str):
    """fastcluster's linkage (SciPy's without it) of a condensed dissimilarity, in R's encoding."""
    try:
        from fastcluster import linkage
    except ImportError:
        from scipy.cluster.hierarchy import linkage
    z = linkage(condensed, method=method)
    node = np.sort(z[:, :2].astype(np.int64), axis=1)
    return _from_nodes(node, z[:, 2].copy(), n)


def r_encoding(a: np.ndarray, b: np.ndarray, h: np.ndarray, n: int):
    """R's (merge, height, order) from the merges as the chain made them: clusters by index
    (a cluster keeps the higher index of the two it joins), in the order made."""
    steps = np.argsort(h, kind="stable")
    h = h[steps].astype(np.float64)
    # union-find over indices; node_of[r] is the node (0..n-1 observations, n + s the row s)
    # the root r stands for. Python lists: a loop over NumPy scalars is several times slower.
    parent = list(range(n))
    node_of = list(range(n))

    def find(x):
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    pairs = []
    for s, (x, y) in enumerate(zip(a[steps].tolist(), b[steps].tolist())):
        ra, rb = find(x), find(y)
        u, v = node_of[ra], node_of[rb]
        pairs.append((u, v) if u < v else (v, u))
        parent[ra] = rb
        node_of[rb] = n + s
    nodes = np.array(pairs, dtype=np.int64).reshape(n - 1, 2)
    return _from_nodes(nodes, h, n)


def _from_nodes(nodes: np.ndarray, h: np.ndarray, n: int):
    """R's merge (nodes sorted in each row: observations first) and order."""
    merge = np.where(nodes < n, -(nodes + 1), nodes - n + 1).astype(np.int64)
    rows = merge.tolist()
    order = []
    stack = [n - 1]
    while stack:                       # depth first, each merge's first cluster to the left
        m = stack.pop()
        if m <= 0:
            order.append(-m)
        else:
            stack.append(rows[m - 1][1])
            stack.append(rows[m - 1][0])
    return merge, h, np.array(order, dtype=np.int64)


def nn_chain_twin(d, method: str = "average"):
    """The NumPy twin of kernels/hclust.cu: the nearest-neighbour chain over a square
    dissimilarity, each step as the kernel takes it. The merges (a, b, height) as made."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    D = np.array(d, dtype=np.float64)
    n = D.shape[0]
    size = np.ones(n)
    live = np.ones(n, dtype=bool)
    chain: list = []
    out_a: list = []
    out_b: list = []
    out_h: list = []
    while len(out_h) < n - 1:
        if not chain:
            chain.append(int(np.flatnonzero(live)[0]))
        x = chain[-1]
        prev = chain[-2] if len(chain) >= 2 else -1
        row = np.where(live, D[x], np.inf)
        row[x] = np.inf
        y = int(np.argmin(row))                 # the lowest index at the minimum
        m = row[y]
        if prev >= 0 and D[x, prev] <= m:
            y, m = prev, D[x, prev]
        if y != prev:
            chain.append(y)
            continue
        a, b = min(x, y), max(x, y)
        na, nb = size[a], size[b]
        others = live.copy()
        others[[a, b]] = False
        if method == "average":
            new = na / (na + nb) * D[a, others] + nb / (na + nb) * D[b, others]
        elif method == "complete":
            new = np.maximum(D[a, others], D[b, others])
        else:
            new = np.minimum(D[a, others], D[b, others])
        D[b, others] = new
        D[others, b] = new
        out_a.append(a)
        out_b.append(b)
        out_h.append(m)
        live[a] = False
        size[a], size[b] = 0, na + nb
        del chain[-2:]
        if len(chain) == 1:                     # fastcluster starts again from the lowest
            chain.clear()
    return np.array(out_a, np.int64), np.array(out_b, np.int64), np.array(out_h)
