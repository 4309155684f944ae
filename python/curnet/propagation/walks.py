"""PageRank (igraph's PRPACK results) and the random walk with restart, for one vector or a
matrix of many (genes x sets), by power iteration: one SpMM a step for the whole block."""
from __future__ import annotations

from typing import cast

import numpy as np
from scipy import sparse

from .inputs import Columns, as_columns, indicator_columns, is_vertex_list, seed_sets
from .kernels import restart_of
from .operators import open_device, walk
from .solvers import WalkSolver, run_blocks


def pagerank(g, personalization=None, *, damping: float = 0.85, weighted=None, directed: bool = True,
             tol: float = 1e-10, max_iter: int = 10_000, backend: str = "auto", batch=None) -> np.ndarray:
    """PageRank, or personalized PageRank for each column of `personalization`.

    As igraph's `page_rank` (PRPACK) and NetworkX's `pagerank`: the walker follows an out-arc
    (chosen in proportion to its weight) with probability `damping`, else jumps to a vertex
    drawn from the personalization (uniform when None); a walker on a vertex without out-arcs
    (or whose out-arcs all weigh 0) jumps as if it had abandoned the walk. Each column is
    rescaled to sum to 1 and its result sums to 1. On a disconnected graph a component gets
    rank only through the jumps.

    Parameters
    ----------
    personalization : None, a non-negative vector of length n, or an (n, k) matrix (NumPy or
        SciPy sparse), one personalization a column. Returns the same shape: (n,) or (n, k).
    weighted : None uses the graph's weights when it has them; False ignores them; weights
        must be non-negative.
    directed : False ignores arc directions (igraph's `directed = FALSE`).
    tol : each column stops when its L1 error bound (damping / (1 - damping) times the L1
        change of its last step) is at most tol.
    batch : columns propagated together (default: as many as fit in memory).
    """
    if not 0 <= damping < 1:
        raise ValueError(f"damping must be in [0, 1), got {damping}")
    n = len(g)
    if n == 0:
        raise ValueError("the graph has no vertices")
    if personalization is None:
        cols = Columns(np.full((n, 1), 1.0 / n), vector=True)
    else:
        cols = as_columns(personalization, n, "personalization", nonnegative=True)
        sums = cast(np.ndarray, cols.l1)  # as_columns measured it; non-negative: the sums
        scaled = (cols.values @ sparse.diags(1.0 / sums) if sparse.issparse(cols.values)
                  else cols.values / sums)
        cols = Columns(scaled, cols.vector)
    dev = open_device(backend)
    w = walk(g, dev, weighted=weighted, directed=directed)
    solver = WalkSolver(dev, w, 1.0 - damping, redistribute=True, tol=tol, max_iter=max_iter)
    solver.what = "PageRank"
    return cols.shaped(run_blocks(dev, cols, solver, batch))


def rwr(g, seeds, *, restart: float | None = None, alpha: float | None = None, weighted=None,
        directed: bool = True, normalize: str = "walk", tol: float = 1e-10, max_iter: int = 10_000,
        backend: str = "auto", batch=None) -> np.ndarray:
    """Random walk with restart: x = r s + (1 - r) W x, that is x = r (I - (1 - r) W)^-1 s.

    W = A^T D^-1 (normalize="walk": W[i, j] the chance of stepping j -> i, a column per vertex
    summing to 1), or D^-1/2 A D^-1/2 (normalize="symmetric", HotNet2's and pyNBS's, undirected
    graphs only). Mass reaching a vertex with no out-arc leaks away (unlike PageRank, which
    sends it back to the seeds): the result is linear in s. A seed's component alone gets mass.

    Parameters
    ----------
    seeds : vertices (names or ids) of one seed set, each weighing 1 / its size; a list of such
        sets (result (n, k)); or the start vectors themselves: a float vector of length n or an
        (n, k) matrix (NumPy or SciPy sparse), used as given.
    restart : the restart probability r (default 0.3); or alpha = 1 - r, NetColoc's name.
    tol : each column stops when (1 - r) / r times its last change, relative to the norm of its
        start vector, is at most tol (L1; the 2-norm for the symmetric normalization).
    """
    r = restart_of(restart, alpha)
    n = len(g)
    if is_vertex_list(seeds):
        sets, many = seed_sets(g, seeds)
        cols = indicator_columns(n, sets, normalize=True, vector=not many)
    else:
        cols = as_columns(seeds, n, "seeds")
    dev = open_device(backend)
    w = walk(g, dev, weighted=weighted, directed=directed, normalize=normalize)
    solver = WalkSolver(dev, w, r, redistribute=False, tol=tol, max_iter=max_iter)
    return cols.shaped(run_blocks(dev, cols, solver, batch))
