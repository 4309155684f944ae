"""What folding more structure saves exact betweenness (issue 51), on PCSF's STRING and R-MAT:

    python -m bench.betweenness_twins --rmat-scales 14,16,20            # counts (host only)
    python -m bench.betweenness_twins --rmat-scales 14 --time 14 --backend cpu   # and timed

For each graph: the columns an exact run traverses with the leaf fold and with the twin fold on
top (algorithms/betweenness/twins.py), the twin classes (apart, adjacent) and the host time to
find them; and, for the candidates that fold no source into another's column, how many vertices
they would cover: vertices of two neighbours in the graph less its leaves (degree-2 chains:
their paths split between two neighbours) and side vertices (neighbours a clique, up to 6:
their paths leave by the nearest of several). --time SCALE times the exact run with the twin
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
