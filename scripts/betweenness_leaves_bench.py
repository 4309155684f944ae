"""Leaf sources folded (algorithms/brandes.py, LeafFold): exact betweenness of PCSF's STRING
with the sources traversed counted, and for R-MAT the traversals counted without running.

    python scripts/betweenness_leaves_bench.py --backend cpu --save after.npy
    python scripts/betweenness_leaves_bench.py --backend cpu --compare after.npy   # e.g. under an older tree
    python scripts/betweenness_leaves_bench.py --rmat-scale 20                     # counts only

Prints one line a row (machine and date first). "sources traversed" is the engine's count
where it keeps one, else the sources with an arc (what the driver traversed before folding).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from betweenness_bench import load_string, string_file  # noqa: E402

import curnet  # noqa: E402
from curnet.algorithms.brandes import fold_leaf_sources, leaf_anchors  # noqa: E402
from curnet.work import count_work  # noqa: E402


def bench_string(args):
    G, g = load_string(args.string_file)
    print(f"STRING: {g}; {int((leaf_anchors(g) >= 0).sum()):,} leaves", flush=True)
    with_arcs = int((np.diff(g.indptr) > 0).sum())
    for weighted in (False, True)[:1 + args.weighted]:
        with count_work() as work:
            t, cpu = time.perf_counter(), time.process_time()
            ours = curnet.betweenness(g, weighted=weighted, backend=args.backend)
            t, cpu = time.perf_counter() - t, time.process_time() - cpu
        traversed = work.get("betweenness sources traversed", with_arcs)
        what = "weighted (cost)" if weighted else "hops"
        line = (f"STRING exact, {what}, {args.backend}: {traversed:,} sources traversed, "
                f"{work.get('betweenness leaf sources folded', 0):,} folded, {t:.1f} s "
                f"({cpu:.1f} s of CPU time)")
        path = args.save or args.compare
        if path:
            path = path.replace(".npy", f"_{what.split()[0]}.npy")
        if args.save:
            np.save(path, ours)
        if args.igraph:
            t = time.perf_counter()
            theirs = np.array(G.betweenness(weights=G.es["cost"] if weighted else None), float)
            t = time.perf_counter() - t
            line += (f"; python-igraph {t:.1f} s, largest difference "
                     f"{np.abs(ours - theirs).max() / max(np.abs(theirs).max(), 1.0):.1e} (relative to the largest)")
        if args.compare:
            theirs = np.load(path)
            scale = max(np.abs(theirs).max(), 1.0)
            line += f"; largest difference from {path}: {np.abs(ours - theirs).max() / scale:.1e} (relative to the largest)"
        print(line, flush=True)


def count_rmat(args):
    g = curnet.generators.rmat(args.rmat_scale, seed=0)
    ids = np.arange(len(g), dtype=np.int32)
    with count_work() as work:
        columns, _ = fold_leaf_sources(g, ids, np.ones(len(g)))
    print(f"R-MAT {args.rmat_scale} (seed 0, undirected): {len(g):,} vertices; sources traversed "
          f"before {int((np.diff(g.indptr) > 0).sum()):,} (those with an arc), after {len(columns):,} "
          f"({work['betweenness leaf sources folded']:,} leaf sources folded)", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="cpu")
    p.add_argument("--string-file", default=string_file())
    p.add_argument("--weighted", action="store_true", help="also the weighted (cost) run")
    p.add_argument("--save", help="save the betweenness vectors (.npy, suffixed by hops/weighted)")
    p.add_argument("--compare", help="compare with vectors saved by --save")
    p.add_argument("--igraph", action="store_true", help="check against python-igraph (timed too)")
    p.add_argument("--rmat-scale", type=int, help="count R-MAT's traversals only (no run)")
    args = p.parse_args()
    print(f"{platform.node()} ({os.cpu_count()} cores), {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
          flush=True)
    if args.rmat_scale:
        count_rmat(args)
    else:
        bench_string(args)


if __name__ == "__main__":
    main()
