"""Leiden and Louvain: cuRnet (each backend asked for) beside python-igraph, in one run.

    PYTHONPATH=python python3 bench/communities.py --graphs string_sample,scnet \
        --backends cpu --igraph --out bench/results/communities_cpu.json

A graph is a dataset name (curnet.datasets), `rmatNN` (curnet.generators.rmat, undirected),
or NAME=PATH of an .npz with arrays src and dst (a copy for a machine without network).
Each timed call is a warm one: a first call (compiling the GPU's kernels) is timed apart as
`first_s`. Times are medians over --repeats; qualities are each call's modularity.
"""
from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

import curnet
from curnet import datasets, generators


def load(spec: str):
    if "=" in spec:
        name, path = spec.split("=", 1)
        with np.load(path) as z:
            src, dst = z["src"], z["dst"]
        return name, curnet.Graph.from_edges(src, dst, directed=False, num_vertices=int(max(src.max(), dst.max())) + 1)
    if spec.startswith("rmat"):
        return spec, generators.rmat(int(spec[4:]), directed=False)
    return spec, datasets.load(spec, weights=None, directed=False)


def timed(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times)), out


def sync(backend):
    if backend.startswith("cuda"):
        import cupy
        cupy.cuda.Device().synchronize()


def curnet_rows(name, g, backend, repeats, sweep):
    rows = []
    t = time.perf_counter()
    curnet.leiden(g, seed=0, backend=backend)
    sync(backend)
    first = time.perf_counter() - t
    calls = {"leiden_2": lambda s: curnet.leiden(g, seed=s, backend=backend),
             "leiden_stable": lambda s: curnet.leiden(g, seed=s, n_iterations=-1, backend=backend),
             "louvain": lambda s: curnet.louvain(g, seed=s, backend=backend)}
    for call, fn in calls.items():
        counter = iter(range(1000))
        secs, p = timed(lambda: fn(next(counter)), repeats)
        rows.append({"graph": name, "tool": f"curnet-{backend}", "call": call, "seconds": secs,
                     "first_s": first if call == "leiden_2" else None, "quality": p.quality,
                     "communities": p.n_communities})
    if sweep:
        res, seeds = np.linspace(0.2, 2.0, sweep[0]), list(range(sweep[1]))
        secs, s = timed(lambda: curnet.leiden(g, resolutions=res, seeds=seeds, backend=backend), 1)
        rows.append({"graph": name, "tool": f"curnet-{backend}", "call": f"sweep_{sweep[0]}x{sweep[1]}",
                     "seconds": secs, "quality": float(np.median(s.quality)), "communities": None})
    return rows


def igraph_rows(name, g, repeats):
    import igraph as ig
    src, dst, _ = g.edges()
    G = ig.Graph(n=len(g), edges=np.c_[src, dst].tolist())
    calls = {"leiden_2": lambda: G.community_leiden(objective_function="modularity", n_iterations=2),
             "leiden_stable": lambda: G.community_leiden(objective_function="modularity", n_iterations=-1),
             "louvain": lambda: G.community_multilevel()}
    rows = []
    for call, fn in calls.items():
        secs, r = timed(fn, repeats)
        rows.append({"graph": name, "tool": f"igraph-{ig.__version__}", "call": call, "seconds": secs,
                     "quality": G.modularity(r.membership), "communities": len(r)})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graphs", default="string_sample")
    ap.add_argument("--backends", default="cpu")
    ap.add_argument("--igraph", action="store_true", help="time python-igraph beside")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sweep", default="", help="RESxSEEDS, e.g. 10x10: one batched call")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    sweep = tuple(int(x) for x in a.sweep.split("x")) if a.sweep else None
    rows = []
    for spec in a.graphs.split(","):
        name, g = load(spec)
        print(f"# {name}: {len(g):,} vertices, {g.num_edges:,} edges", flush=True)
        for backend in a.backends.split(","):
            rows += curnet_rows(name, g, backend, a.repeats, sweep)
            print(*(json.dumps(r) for r in rows[-4:]), sep="\n", flush=True)
        if a.igraph:
            rows += igraph_rows(name, g, a.repeats)
            print(*(json.dumps(r) for r in rows[-3:]), sep="\n", flush=True)
        for r in rows:
            if r["graph"] == name and not r["call"].startswith("sweep") and r.get("seconds"):
                r["edges_per_s"] = g.num_edges / r["seconds"]
    meta = {"machine": platform.node(), "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "info": curnet.info()}
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"meta": meta, "rows": rows}, f, indent=1, default=str)
    return rows


if __name__ == "__main__":
    main()
