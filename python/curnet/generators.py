"""Graph generators: Graph500 R-MAT for scale, small structured graphs for tests."""
from __future__ import annotations

import numpy as np

from .graph import Graph

RMAT_ABCD = (0.57, 0.19, 0.19, 0.05)


def rmat_edges(scale: int, edge_factor: int = 16, *, seed: int = 0, abcd=RMAT_ABCD, xp=np):
    """Graph500 R-MAT edge list (src, dst) on 2**scale vertices, ids permuted, seeded. `xp` is
    the array module that draws (CuPy's generator on a GPU: scale 22's 67M edges in a second
    instead of a minute; the same distribution, another instance); the edges come back on the
    host as int32."""
    if not 1 <= scale <= 30:
        raise ValueError(f"scale must be between 1 and 30, got {scale}")
    a, b, c, _ = abcd
    n, m = 1 << scale, edge_factor << scale
    rng = xp.random.default_rng(seed)
    src = xp.zeros(m, np.int64)
    dst = xp.zeros(m, np.int64)
    ab, c_norm, a_norm = a + b, c / (1 - (a + b)), a / (a + b)
    for bit in range(scale):
        ii = rng.random(m) > ab                      # lower half of the matrix
        jj = rng.random(m) > xp.where(ii, c_norm, a_norm)
        src |= ii.astype(np.int64) << bit
        dst |= jj.astype(np.int64) << bit
    # CuPy's Generator has no permutation: a random key's order is one
    perm = rng.permutation(n) if xp is np else xp.argsort(rng.random(n))
    src, dst = perm[src], perm[dst]
    if xp is not np:
        src, dst = src.get(), dst.get()
    return src.astype(np.int32), dst.astype(np.int32), n


def rmat(scale: int, edge_factor: int = 16, *, seed: int = 0, directed: bool = False,
         weighted: bool = False, dtype=np.float32) -> Graph:
    """A Graph500 R-MAT graph; weights, if asked, uniform in (0, 1], seeded."""
    src, dst, n = rmat_edges(scale, edge_factor, seed=seed)
    w = None
    if weighted:
        w = (1.0 - np.random.default_rng(seed + 1).random(len(src))).astype(dtype)
    return Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=dtype)


def path(n: int, *, directed: bool = True, weighted: bool = False) -> Graph:
    """0 -> 1 -> ... -> n-1."""
    src = np.arange(n - 1, dtype=np.int32)
    w = np.ones(n - 1, np.float32) if weighted else None
    return Graph.from_edges(src, src + 1, w, directed=directed, num_vertices=n)


def cycle(n: int, *, directed: bool = True) -> Graph:
    src = np.arange(n, dtype=np.int32)
    return Graph.from_edges(src, (src + 1) % n, directed=directed, num_vertices=n)


def star(leaves: int, *, directed: bool = False) -> Graph:
    """Vertex 0 joined to each of `leaves` leaves."""
    dst = np.arange(1, leaves + 1, dtype=np.int32)
    return Graph.from_edges(np.zeros(leaves, np.int32), dst, directed=directed, num_vertices=leaves + 1)


def grid(rows: int, cols: int, *, directed: bool = False) -> Graph:
    """A rows x cols lattice, vertex r * cols + c."""
    v = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
    src = np.concatenate([v[:, :-1].ravel(), v[:-1, :].ravel()])
    dst = np.concatenate([v[:, 1:].ravel(), v[1:, :].ravel()])
    return Graph.from_edges(src, dst, directed=directed, num_vertices=rows * cols)
