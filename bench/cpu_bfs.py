"""The CPU backend's many-source BFS: its pull levels compiled (backends/cpu/compiled_bfs.py,
each head's walk stopping once its words are full) beside the NumPy pull they replace, on the
same graph, sources and process, the two alternated; every answer checked against the other.

    python -m bench cpu-bfs                          # R-MAT 18 and 20, 64 and 1,024 sources
    python -m bench cpu-bfs --scales 16 --sources 64 --reps 3
    python -m bench cpu-bfs --dataset scnet --sources 3820   # the demo's network and batch

Graphs: generators.rmat(scale, seed=1) (undirected, as the peers' CPU BFS rows), or a
curnet.datasets network; sources drawn (seed 0) from the vertices with arcs. Rows: the public
call `curnet.bfs(g, sources, backend="cpu")` under each route, host-clock medians (min-max) of
--reps calls after one untimed call (Numba's import and cached code load there).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform

import numpy as np

import curnet
from curnet import datasets, generators
from curnet.backends import get_backend
from curnet.backends.cpu import bfs as cpu_bfs

from . import rows as results
from .timing import Times, timed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench cpu-bfs", description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="*", default=[18, 20])
    ap.add_argument("--dataset", default=None, help="a curnet.datasets network instead of R-MAT")
    ap.add_argument("--sources", type=int, nargs="*", default=[64, 1024])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", default=results.default_out("cpu_bfs.json"), help="the rows as JSON (bench/rows.py)")
    a = ap.parse_args(argv)
    be = get_backend("cpu")
    from curnet.backends.cpu import compiled_bfs
    if not compiled_bfs.available():
        raise SystemExit("Numba does not import here: the compiled pull cannot run")
    print(f"{be.describe()}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC", flush=True)
    rows: list = []
    graphs = [(a.dataset, datasets.load(a.dataset))] if a.dataset else \
        [(f"R-MAT {s} (seed 1)", generators.rmat(s, seed=1)) for s in a.scales]
    default = cpu_bfs.COMPILED_PULL_MIN_ARCS
    for name, g in graphs:
        with_arcs = np.flatnonzero(np.diff(g.indptr) > 0)
        for k in a.sources:
            ids = np.random.default_rng(0).choice(with_arcs, min(k, len(with_arcs)), replace=False)
            times: dict = {"compiled pull": Times(), "NumPy pull": Times()}
            answers = {}
            for route in list(times) * (a.reps + 1):      # alternated; the first round untimed
                cpu_bfs.COMPILED_PULL_MIN_ARCS = 0 if route == "compiled pull" else 1 << 62
                got, t = timed(lambda: curnet.bfs(g, ids, backend="cpu"))
                if route in answers:
                    times[route].extend(t)
                else:
                    answers[route] = got
            cpu_bfs.COMPILED_PULL_MIN_ARCS = default
            assert np.array_equal(answers["compiled pull"], answers["NumPy pull"])
            c, p = times["compiled pull"], times["NumPy pull"]
            print(f"{name}, {g.num_arcs:,} arcs, {len(ids)} sources: compiled pull {c.median:.3f} s "
                  f"({c.best:.3f}-{c.worst:.3f}), NumPy pull {p.median:.3f} s ({p.best:.3f}-{p.worst:.3f}), "
                  f"{p.median / c.median:.2f}x; depths equal", flush=True)
            rows.append({"graph": name, "arcs": g.num_arcs, "sources": len(ids), "compiled_pull_s": list(c),
                         "numpy_pull_s": list(p), "speedup": p.median / c.median})
            results.write(a.json, rows, quiet=True)
    return 0
