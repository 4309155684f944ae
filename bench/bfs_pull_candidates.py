"""How many vertices the one-source BFS's bottom-up levels look at, with and without candidate
lists: the loop kernel's direction rule (kernels/bfs.cu bfs_one_loop, Beamer's alpha and beta)
replayed on the host over SciPy's depths, each bottom-up level counted as all n vertices (the
kernel before the lists) and as its candidates (the vertices with in-arcs, then those the last
bottom-up level left unvisited). A model of the work, not a timing; undirected R-MAT.

    python -m bench.bfs_pull_candidates --scale 20 --sources 8
"""
from __future__ import annotations

import argparse

import numpy as np
from scipy.sparse import csgraph, csr_matrix

from curnet import generators


def bottom_up_levels(deg: np.ndarray, depth: np.ndarray, source: int, m: int, alpha: int, beta: int) -> list:
    """(level, n, candidates) for each bottom-up level of a search from `source`."""
    n = len(deg)
    with_in = deg > 0
    top, unexplored, level, rows, cand = True, m, 0, [], None
    frontier = np.array([source])
    while len(frontier):
        qarcs = int(deg[frontier].sum())
        if not top and len(frontier) * beta < n:
            top = True
        if top and qarcs * alpha > unexplored:
            top = False
        level += 1
        if top:
            unexplored -= qarcs
        else:
            rows.append((level, n, int(with_in.sum()) if cand is None else int(cand.sum())))
            cand = with_in & ((depth > level) | (depth < 0))
        frontier = np.flatnonzero(depth == level)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.bfs_pull_candidates", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--sources", type=int, default=8)
    ap.add_argument("--alpha", type=int, default=56, help="CudaTuning.bfs_one_alpha")
    ap.add_argument("--beta", type=int, default=24, help="CudaTuning.bfs_one_beta")
    args = ap.parse_args(argv)
    g = generators.rmat(args.scale, seed=2, directed=False)
    n, m = len(g), len(g.indices)
    deg = np.diff(g.indptr)
    a = csr_matrix((np.ones(m, np.int8), g.indices, g.indptr), shape=(n, n))
    every = lists = 0
    for s in np.random.default_rng(4).choice(np.flatnonzero(deg > 0), args.sources, replace=False):
        d = csgraph.shortest_path(a, unweighted=True, indices=int(s))
        rows = bottom_up_levels(deg, np.where(np.isinf(d), -1, d).astype(np.int64), int(s), m, args.alpha, args.beta)
        every += sum(r[1] for r in rows)
        lists += sum(r[2] for r in rows)
        print(f"source {int(s)}: (level, n, candidates) {rows}")
    print(f"R-MAT {args.scale}: bottom-up levels look at {lists / every:.2f} of the vertices they did")


if __name__ == "__main__":
    main()
