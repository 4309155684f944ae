"""What folding more structure saves exact betweenness (issue 51), on PCSF's STRING and R-MAT:

    python -m bench.betweenness_twins --rmat-scales 14,16,20            # counts (host only)
    python -m bench.betweenness_twins --rmat-scales 14 --time 14 --backend cpu   # and timed

For each graph: the columns an exact run traverses with the leaf fold and with the twin fold on
top (algorithms/betweenness/twins.py), the twin classes (apart, adjacent) and the host time to
find them; and, for the candidates that fold no source into another's column, how many vertices
they would cover: vertices of two neighbours in the graph less its leaves (degree-2 chains:
their paths split between two neighbours) and side vertices (neighbours a clique, up to 6:
their paths leave by the nearest of several); and what splitting at articulation points
(Puzzle's and BADIOS' decomposition) would leave: the 2-core (leaves folded again and again)
and, where python-igraph imports, the largest biconnected component and the share of the
traversals' work (columns x edges) the decomposition would save. --time SCALE times the exact run with the twin
fold and without it (the same run with fold_twin_sources passing the columns through),
alternating, and checks that the two sums agree.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import curnet
from curnet import generators
from curnet.algorithms.betweenness import driver
from curnet.algorithms.betweenness.graph_reductions import (SEVERAL_NEIGHBOURS, fold_leaf_sources, hanging_leaves,
                                                            leaf_anchors, with_arcs_only)
from curnet.algorithms.betweenness.twins import fold_twin_sources, twin_classes

from .networks import load_string, string_file
from .timing import once


def counts(name: str, g) -> None:
    g, _ = with_arcs_only(g)
    n = len(g)
    every = np.arange(n, dtype=np.int32)
    columns, fold = fold_leaf_sources(g, every, None)
    started = time.perf_counter()
    classes = twin_classes(g)
    found = time.perf_counter() - started
    folded, _, _ = fold_twin_sources(g, columns, fold, None)
    rep = classes.representative
    members = rep != np.arange(n)
    print(f"{name}: {n:,} vertices with arcs, {g.num_arcs:,} arcs")
    print(f"  columns: {n:,} without folds, {len(columns):,} with the leaf fold, {len(folded):,} with twins too "
          f"({len(columns) - len(folded):,} fewer, {100 * (len(columns) - len(folded)) / len(columns):.2f}%)")
    print(f"  twins folded: {int((members & classes.apart).sum()):,} apart, {int((members & ~classes.apart).sum()):,}"
          f" adjacent; classes found in {found:.2f} s on the host")
    chains, sides = unfolded_candidates(g)
    print(f"  not folded (no column stands for theirs): {chains:,} degree-2 vertices, {sides:,} side vertices",
          flush=True)
    articulation_points(g, len(columns))


def simple_edges(g) -> np.ndarray:
    """(m, 2) the undirected graph's edges u < v, once a pair (parallel arcs and self-loops
    left out), for the 2-core and the biconnected components."""
    n = len(g)
    rows = g.edge_sources().astype(np.int64)
    one_way = rows < g.indices
    pairs = np.unique(rows[one_way] * n + g.indices[one_way])
    return np.c_[pairs // n, pairs % n]


def two_core(n: int, edges: np.ndarray) -> np.ndarray:
    """Whether each vertex is in the 2-core of the simple graph `edges` (its leaves peeled
    until none is left)."""
    alive = np.ones(n, bool)
    while True:
        live = alive[edges[:, 0]] & alive[edges[:, 1]]
        degree = np.bincount(edges[live].ravel(), minlength=n)
        peel = alive & (degree <= 1)
        if not peel.any():
            return alive
        alive &= ~peel


def articulation_points(g, leaf_columns: int) -> None:
    n = len(g)
    edges = simple_edges(g)
    core = two_core(n, edges)
    print(f"  articulation points: the 2-core holds {int(core.sum()):,} vertices (an iterated leaf fold's "
          f"columns: {leaf_columns - int(core.sum()):,} fewer than the leaf fold's)")
    try:
        import igraph
    except ImportError:
        print("  (python-igraph not installed: no biconnected components)", flush=True)
        return
    started = time.perf_counter()
    blocks = igraph.Graph(n=n, edges=edges).biconnected_components()
    found = time.perf_counter() - started
    sizes = np.array([len(b) for b in blocks])
    largest = int(sizes.argmax())
    member = np.zeros(n, bool)
    member[np.asarray(blocks[largest])] = True
    block_edges = int((member[edges[:, 0]] & member[edges[:, 1]]).sum())
    # the traversals' work, columns x edges: now the leaf-folded graph's; split, each block's
    # own (a small block's edges at most all its pairs)
    degree = np.bincount(edges.ravel(), minlength=n)
    leaf_edges = int(((degree[edges[:, 0]] > 1) & (degree[edges[:, 1]] > 1)).sum())
    small = np.delete(sizes, largest)
    split = int(sizes[largest]) * block_edges + int((small * small * (small - 1) // 2).sum())
    print(f"  the largest biconnected component: {int(sizes[largest]):,} vertices, {block_edges:,} of {len(edges):,} "
          f"edges ({len(blocks):,} components, found in {found:.1f} s by python-igraph); split at articulation "
          f"points the traversals' work would be at most {100 * (1 - split / (leaf_columns * leaf_edges)):.2f}% less",
          flush=True)


def unfolded_candidates(g) -> tuple[int, int]:
    """(vertices with two neighbours in g less its hanging leaves, vertices of 2 to 6 such
    neighbours that form a clique), among those the leaf fold traverses."""
    n = len(g)
    rows = g.edge_sources().astype(np.int64)
    kept = ~hanging_leaves(g)
    arc = kept[rows] & kept[g.indices] & (g.indices != rows)
    pairs = np.unique(rows[arc] * n + g.indices[arc])
    tail, head = pairs // n, pairs % n
    degree = np.bincount(tail, minlength=n)
    traversed = leaf_anchors(g) == SEVERAL_NEIGHBOURS
    start = np.searchsorted(tail, np.arange(n))
    sides = 0
    for d in range(2, 7):
        vs = np.flatnonzero(traversed & (degree == d))
        near = head[start[vs][:, None] + np.arange(d)]
        clique = np.ones(len(vs), bool)
        for i in range(d):
            for j in range(i + 1, d):
                key = near[:, i] * n + near[:, j]
                at = np.minimum(np.searchsorted(pairs, key), len(pairs) - 1)
                clique &= pairs[at] == key
        sides += int(clique.sum())
    return int((traversed & (degree == 2)).sum()), sides


def timed_exact(scale: int, backend: str, reps: int) -> None:
    g = generators.rmat(scale, seed=0)
    folding = driver.fold_twin_sources

    def passing(g, columns, fold, weight):
        return columns, fold, None

    runs = {"twins folded": [], "no twin fold": []}
    sums = {}
    curnet.betweenness(g, backend=backend)               # the graph's caches and a warm run
    for _ in range(reps):
        for label, fn in (("no twin fold", passing), ("twins folded", folding)):
            driver.fold_twin_sources = fn
            try:
                sums[label], t = once(lambda: curnet.betweenness(g, backend=backend))
            finally:
                driver.fold_twin_sources = folding
            runs[label].append(t)
    a, b = sums.values()
    same = np.allclose(a, b, rtol=1e-9, atol=1e-9)
    for label, ts in runs.items():
        print(f"R-MAT {scale} exact on {backend}, {label}: " + ", ".join(f"{t:.2f}" for t in ts) +
              f" s (best {min(ts):.2f})")
    print(f"  the two sums {'agree' if same else 'DIFFER'} (rtol 1e-9)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rmat-scales", default="14,16,20")
    ap.add_argument("--no-string", action="store_true")
    ap.add_argument("--time", default="", help="comma-separated R-MAT scales to time exact runs of")
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--reps", type=int, default=2)
    args = ap.parse_args(argv)
    if not args.no_string:
        counts("PCSF's STRING", load_string(string_file())[1])
    for scale in (int(s) for s in args.rmat_scales.split(",") if s):
        counts(f"R-MAT {scale} (seed 0)", generators.rmat(scale, seed=0))
    for scale in (int(s) for s in args.time.split(",") if s):
        timed_exact(scale, args.backend, args.reps)


if __name__ == "__main__":
    main()
