"""Many-source BFS on R-MAT (undirected) under three vertex numberings: as generated,
degree-descending and reverse Cuthill-McKee; the depths mapped back and checked equal.

    python -m bench.bfs_vertex_order --scale 20 --sources 128 --backend cpu
    python -m bench.bfs_vertex_order --scale 20 --sources 1024 --backend cuda

Issue 51's many-source BFS account (docs/gpu-notes.md, 2026-12-02) found the pull levels bound
by the latency of gathering neighbours' frontier words, and named locality (neighbours'
words sharing cache lines) as the change it points to: this times whether a numbering that
puts neighbours near each other helps. Sources: random vertices of the giant component (seed
0), the same vertices under every numbering. Prints one line a numbering: the engine's median
of --reps (after one warm call; the batch traversed into one preallocated depth matrix on the
backend, nothing copied to the host, as the GTEPS row of the peers' table is timed), in ms, and
GTEPS (arcs of the reached vertices).
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import reverse_cuthill_mckee

from curnet import generators
from curnet.algorithms.bfs import traverse
from curnet.backends import get_backend
from curnet.graph import Graph

from .gpu_accounts import giant_sources
from .timing import sync_for


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bfs_vertex_order", description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--sources", type=int, default=128)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args(argv)
    src, dst, n = generators.rmat_edges(a.scale, seed=1)
    g = Graph.from_edges(src, dst, directed=False, num_vertices=n)
    sources = giant_sources(g, a.sources, 0)
    adjacency = csr_matrix((np.ones(len(g.indices)), g.indices, g.indptr), shape=(n, n))
    degree = np.diff(g.indptr)
    orders = {"as generated": np.arange(n), "degree descending": np.argsort(-degree, kind="stable"),
              "reverse Cuthill-McKee": reverse_cuthill_mckee(adjacency, symmetric_mode=True)}
    be = get_backend(a.backend)
    sync = sync_for(a.backend) or (lambda: None)
    depth = be.xp.empty((n, a.sources), np.int32)
    first = None
    for name, order in orders.items():
        new_id = np.empty(n, np.int64)
        new_id[order] = np.arange(n)
        h = Graph.from_edges(new_id[src], new_id[dst], directed=False, num_vertices=n)
        s = new_id[sources].astype(np.int32)
        hg = be.device_graph(h)
        times = []
        for _ in range(a.reps + 1):                          # the first warms kernels
            depth.fill(-1)                                   # the CPU's traversal expects it set
            sync()
            t = time.perf_counter()
            traverse(be, hg, s, depth, -1)
            sync()
            times.append(time.perf_counter() - t)
        times = times[1:]
        back = be.to_host(depth)[new_id]
        if first is None:
            first = back
            arcs = int(((back >= 0) * degree[:, None]).sum())
        assert np.array_equal(back, first), name
        ms = 1e3 * float(np.median(times))
        print(f"R-MAT {a.scale}, {a.sources:,} sources, {a.backend}, {name}: {ms:.1f} ms "
              f"({', '.join(f'{1e3 * x:.0f}' for x in times)}), {arcs / ms / 1e6:.1f} GTEPS", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
