"""The GPU level sweeps' work on PCSF's STRING, counted on the host (no GPU needed): for one
batch of sources, per BFS level, the warp-iterations of a sweep (a warp = one vertex for 32
adjacent sources, walking the vertex's arcs at each level any of its lanes puts it on),
against the count with no idle lane, and the longest list one thread walks, with and
without arc pieces (backends.brandes.ARC_PIECE), for sources in id order and in the
breadth-first order of algorithms.brandes.near_sources_together. docs/gpu-notes.md (issue 25)
quotes its output.

    python scripts/betweenness_counts.py [--sources 4096]
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from betweenness_bench import load_string, string_file  # noqa: E402

import curnet  # noqa: E402
from curnet.algorithms.brandes import near_sources_together  # noqa: E402
from curnet.backends.brandes import ARC_PIECE  # noqa: E402


def sweep_counts(level, deg):
    """(warp-iterations, with no idle lane, longest list a warp walks) over levels 1.. of one
    sweep; level (n, kb), kb a multiple of 32."""
    n, kb = level.shape
    lanes = level.reshape(n, kb // 32, 32)
    total = ideal = 0
    longest = 0
    for at in range(1, int(level.max()) + 1):
        active = (lanes == at).any(axis=2)
        total += int((active * deg[:, None]).sum())
        ideal += int(((level == at).sum(axis=1) * deg).sum()) // 32
        if active.any():
            longest = max(longest, int(deg[active.any(axis=1)].max()))
    return total, ideal, longest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--string-file", default=string_file())
    ap.add_argument("--sources", type=int, default=4096)
    args = ap.parse_args()
    _, g = load_string(args.string_file)
    n = len(g)
    deg = np.diff(g.indptr)
    print(f"STRING: {n:,} vertices, {g.num_arcs:,} arcs; largest lists {np.sort(deg)[-3:].tolist()}; "
          f"pieces of {ARC_PIECE}: {int(((deg + ARC_PIECE - 1) // ARC_PIECE).sum()):,}")
    kb = args.sources // 32 * 32
    every = np.arange(n, dtype=np.int32)
    for order, ids in (("id order", every), ("bfs order", near_sources_together(g, every))):
        mid = n // 2 - kb // 2
        batch = ids[mid:mid + kb]
        level = curnet.bfs(g, batch, backend="cpu").T.copy()        # (n, kb), -1 unreached
        total, ideal, longest = sweep_counts(level, deg)
        print(f"  {order}: {kb} sources, {int(level.max())} levels; a sweep {total / 1e6:.0f} M "
              f"warp-iterations, {ideal / 1e6:.0f} M with no idle lane ({total / max(ideal, 1):.2f}x); "
              f"longest walk {longest} arcs, {min(longest, ARC_PIECE)} with pieces", flush=True)


if __name__ == "__main__":
    main()
