"""How full a warp's lanes are in Brandes' level sweeps, counted on the host (no GPU): for 32
adjacent sources of R-MAT's exact run (its breadth-first chunk order, leaves folded), each
pair of consecutive BFS levels (a, a + 1): the arcs a warp walks from either end (every arc of
each vertex with a lane at that level: one warp iteration and one 32-byte sector of int8
levels each), the (arc, lane) pairs on the DAG (what the sweep computes), and the 32-byte
sectors of float64 values those lanes' loads or atomic adds touch (4 lanes a sector).

    python scripts/betweenness_lanes.py --scale 20 --at 0.25,0.5,0.75     # ~2 min, ~8 GB
    python scripts/betweenness_lanes.py --order bfs,hubs                  # the engine's order, and
        # the same sources sorted by their distances to the two busiest vertices first

Prints one line a level pair and the totals; docs/gpu-notes.md (issue 25) reads them.
(scripts/betweenness_counts.py counts a sweep's warp iterations on STRING, against idle lanes.)
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import curnet  # noqa: E402
from curnet import generators  # noqa: E402
from curnet.algorithms.brandes import chunk_order, leaf_anchors  # noqa: E402

CHUNK = 1 << 22          # arcs at a time (bounds the (arcs, 32) masks' memory)


def pair_counts(g, tail, level, a):
    """(walked from a, walked from a + 1, DAG lane-arcs, value sectors) for levels (a, a + 1)."""
    at_a, at_b = level == a, level == a + 1
    has_a, has_b = at_a.any(axis=1), at_b.any(axis=1)
    walked_a, walked_b = int(has_a[tail].sum()), int(has_b[tail].sum())
    dag = sectors = 0
    for lo in range(0, len(tail), CHUNK):
        u, v = tail[lo:lo + CHUNK], g.indices[lo:lo + CHUNK]
        keep = has_a[u] & has_b[v]
        lanes = at_a[u[keep]] & at_b[v[keep]]
        dag += int(lanes.sum())
        sectors += int(lanes.reshape(len(lanes), 8, 4).any(axis=2).sum())
    return walked_a, walked_b, dag, sectors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--at", default="0.5", help="where the 32 sources sit in the exact run's order (fractions)")
    ap.add_argument("--order", default="bfs", help="bfs (the engine's) and/or hubs, comma-separated")
    args = ap.parse_args()
    g = generators.rmat(args.scale, seed=0)
    n = len(g)
    order = chunk_order(g, np.arange(n, dtype=np.int32), fold=True)
    order = order[leaf_anchors(g)[order] < 0]            # the columns traversed (leaves folded)
    tail = g.edge_sources()
    print(f"R-MAT {args.scale}: {n:,} vertices, {g.num_arcs:,} arcs; {len(order):,} columns traversed", flush=True)
    orders = {"bfs": order}
    if "hubs" in args.order:
        hubs = curnet.bfs(g, np.argsort(np.diff(g.indptr))[-2:][::-1], backend="cpu").T   # (n, 2): busiest first
        orders["hubs"] = order[np.lexsort((np.arange(len(order)), hubs[order, 1], hubs[order, 0]))]
    for name, position in ((o, float(x)) for o in args.order.split(",") for x in args.at.split(",")):
        ranked = orders[name]
        position_label = f"{name} order, at {position}"
        first = int(len(ranked) * position)
        level = curnet.bfs(g, ranked[first:first + 32], backend="cpu").T      # (n, 32), -1 not reached
        total = np.zeros(4, np.int64)
        for a in range(int(level.max())):
            wa, wb, dag, sectors = pair_counts(g, tail, level, a)
            total += (min(wa, wb), max(wa, wb), dag, sectors)
            print(f"  {position_label}: levels {a}-{a + 1}: arcs walked from {a} {wa:,}, from {a + 1} {wb:,}; "
                  f"DAG lane-arcs {dag:,} ({dag / max(1, min(wa, wb)):.2f} a walked arc from the thinner end); "
                  f"value sectors {sectors:,} ({4 * sectors / max(1, dag):.2f}x the bytes the lanes need)", flush=True)
        walked, _, dag, sectors = total
        print(f"  {position_label}, one sweep, each pair walked from its thinner end: {walked:,} warp arc-iterations, "
              f"{dag:,} DAG lane-arcs ({dag / walked:.2f} a iteration of 32 lanes); level bytes "
              f"{32 * walked / 1e9:.2f} GB, value bytes {32 * sectors / 1e9:.2f} GB", flush=True)


if __name__ == "__main__":
    main()
