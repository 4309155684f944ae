"""Building a graph from its edge columns (`Graph.from_edges`, and a directed graph's in-arcs,
`Graph.csc`): the arcs sorted by NumPy's stable argsort against the compiled counting sort
(compiled_sort.py, taken from graph.COMPILED_SORT_MIN_ARCS arcs where Numba
imports), beside python-igraph building the same graph, every route's CSR checked equal.

    python -m bench graph-build                       # R-MAT 18 and 20, medians of 3
    python -m bench graph-build --scales 16,18 --reps 5 --json bench/results/x.json

Rows, seconds (median, min, max), each scale undirected (weighted) and directed: from_edges by
each route, a directed graph's csc() by each route, igraph's Graph(n, edges) (undirected,
edges as a NumPy array), and the first compiled build in a fresh process (Numba's import and
its cached code loaded; the timed calls after it are warm).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys

import numpy as np

from curnet import graph as graph_module
from curnet.generators import rmat_edges
from curnet.graph import Graph

from . import rows as results
from .timing import timed

NEVER = 1 << 62


def build(src, dst, w, n, directed, sort_min):
    graph_module.COMPILED_SORT_MIN_ARCS = sort_min
    return Graph.from_edges(src, dst, w, directed=directed, num_vertices=n)


def in_arcs(g, sort_min):
    graph_module.COMPILED_SORT_MIN_ARCS = sort_min
    g._csc = None
    return g.csc()


def first_compiled_build(scale: int) -> float:
    """Seconds of one compiled from_edges in a fresh process (Numba imported there)."""
    code = ("import time, numpy as np; from curnet.generators import rmat_edges; "
            "from curnet import graph as gm; s, d, n = rmat_edges(%d, seed=2); gm.COMPILED_SORT_MIN_ARCS = 0; "
            "t = time.perf_counter(); gm.Graph.from_edges(s, d, directed=False, num_vertices=n); "
            "print(time.perf_counter() - t)") % scale
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench graph-build", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="18,20")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", default=results.default_out("graph_build.json"))
    a = ap.parse_args(argv)
    from curnet import compiled_sort
    if not compiled_sort.available():
        sys.exit("graph-build: Numba does not import here: there is no compiled route to time")
    try:
        import igraph
    except ImportError:
        igraph = None
    rows = []

    def row(what, scale, arcs, times):
        med, lo, hi = times.stats()
        rows.append({"row": what, "scale": scale, "arcs": arcs, "median s": med, "min s": lo, "max s": hi})
        print(f"R-MAT {scale:>2} {what:<44} {med:8.3f} s ({lo:.3f}-{hi:.3f})", flush=True)

    for scale in (int(s) for s in a.scales.split(",")):
        src, dst, n = rmat_edges(scale, seed=2)
        w = (1.0 - np.random.default_rng(3).random(len(src))).astype(np.float32)
        rows.append({"row": "first compiled build, fresh process", "scale": scale,
                     "median s": first_compiled_build(scale)})
        print(f"R-MAT {scale:>2} first compiled build, fresh process {rows[-1]['median s']:8.3f} s", flush=True)
        for directed in (False, True):
            kind = "directed" if directed else "undirected, weighted"
            weights = None if directed else w
            built = {}
            for route, sort_min in (("argsort", NEVER), ("compiled", 0)):
                built[route], t = timed(lambda: build(src, dst, weights, n, directed, sort_min), repeat=a.reps)
                row(f"from_edges, {kind}, {route}", scale, len(built[route].indices), t)
            for field in ("indptr", "indices", "weights", "arc_edges"):
                x, y = getattr(built["argsort"], field), getattr(built["compiled"], field)
                assert (x is None and y is None) or np.array_equal(x, y), f"{field} differs"
            if directed:
                csc = {}
                for route, sort_min in (("argsort", NEVER), ("compiled", 0)):
                    csc[route], t = timed(lambda: in_arcs(built["argsort"], sort_min), repeat=a.reps)
                    row(f"csc (in-arcs), {route}", scale, len(src), t)
                assert all(np.array_equal(x, y) for x, y in zip(csc["argsort"][:2], csc["compiled"][:2]))
            elif igraph is not None:
                edges = np.column_stack([src, dst])
                _, t = timed(lambda: igraph.Graph(n=n, edges=edges, directed=False), repeat=a.reps)
                row("python-igraph Graph(n, edges), undirected", scale, 2 * len(src), t)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    results.write(a.json, rows)


if __name__ == "__main__":
    main()
