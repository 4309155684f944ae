"""Leiden and Louvain: cuRnet (each backend asked for) beside python-igraph, in one run.

    PYTHONPATH=python python -m bench communities --graphs string_sample,scnet \
        --backends cpu --igraph --out bench/results/communities_cpu.json

A graph is a dataset name (curnet.datasets), `rmatNN` (curnet.generators.rmat, undirected),
`string_pcsf` (PCSF's STRING interactome, shared/pcsf/string_pcsf.tsv.gz, simplified),
or NAME=PATH of an .npz with arrays src and dst, and n, the vertex count (a copy for a
machine without network: `--save-npz` writes one).
Each timed call is a warm one, the graph already on the device: a first call (compiling the
GPU's kernels, sending the graph) is timed apart as `first_s`. Times are medians over
--repeats (`best_s` the fastest); `quality` is the last call's modularity, `quality_median`
the median over the calls (a new seed each). --phases adds, for one warm Leiden run (and
Louvain's, --phase-calls) a backend, the time in each phase (local moving, refinement,
aggregation; the rest is host work and the final split), the device synchronised around
each phase.
"""
from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

import curnet
from curnet import datasets, generators

from . import networks
from .timing import drain, timed


def rmat_on_gpu(scale: int, edge_factor: int = 16, seed: int = 0):
    """generators.rmat's graph with its edges drawn on the GPU (scale 22 in a second)."""
    import cupy as cp
    src, dst, n = generators.rmat_edges(scale, edge_factor, seed=seed, xp=cp)
    return curnet.Graph.from_edges(src, dst, directed=False, num_vertices=n)


def load(spec: str, on_gpu: bool = False):
    if "=" in spec:
        name, path = spec.split("=", 1)
        with np.load(path) as z:
            src, dst = z["src"], z["dst"]
            n = int(z["n"]) if "n" in z else int(max(src.max(), dst.max())) + 1
        return name, curnet.Graph.from_edges(src, dst, directed=False, num_vertices=n)
    if spec.startswith("rmat"):
        scale = int(spec[4:])
        return spec, rmat_on_gpu(scale) if on_gpu else generators.rmat(scale, directed=False)
    if spec == "string_pcsf":
        return spec, string_pcsf()
    return spec, datasets.load(spec, weights=None, directed=False)


def string_pcsf():
    """PCSF's STRING as its construct_interactome builds it: undirected, one edge a pair, no
    self-loops (15,405 vertices, 175,821 edges); unweighted here."""
    import pandas as pd
    t = pd.read_csv(networks.string_file(), sep="\t")
    names, ids = np.unique(np.r_[t["from"].astype(str), t["to"].astype(str)], return_inverse=True)
    m = len(t)
    a, b = np.minimum(ids[:m], ids[m:]), np.maximum(ids[:m], ids[m:])
    pairs = np.unique(np.c_[a, b][a != b], axis=0)
    return curnet.Graph.from_edges(pairs[:, 0], pairs[:, 1], directed=False, num_vertices=len(names),
                                   names=names)


CALLS = ("leiden_2", "leiden_stable", "louvain")


def curnet_rows(name, g, backend, repeats, sweep, calls=CALLS):
    rows = []
    t = time.perf_counter()
    curnet.leiden(g, seed=0, backend=backend)
    drain(backend)
    first = time.perf_counter() - t
    run = {"leiden_2": lambda s: curnet.leiden(g, seed=s, backend=backend),
           "leiden_stable": lambda s: curnet.leiden(g, seed=s, n_iterations=-1, backend=backend),
           "louvain": lambda s: curnet.louvain(g, seed=s, backend=backend)}
    for call in calls:
        counter = iter(range(1, 1000))
        qualities = []
        p, t = timed(lambda: qualities.append(run[call](next(counter))) or qualities[-1], repeat=repeats)
        rows.append({"graph": name, "tool": f"curnet-{backend}", "call": call, "seconds": t.median,
                     "best_s": t.best, "first_s": first if call == "leiden_2" else None, "quality": p.quality,
                     "quality_median": float(np.median([x.quality for x in qualities])),
                     "communities": p.n_communities})
    if sweep:
        res, seeds = np.linspace(0.2, 2.0, sweep[0]), list(range(sweep[1]))
        s, t = timed(lambda: curnet.leiden(g, resolutions=res, seeds=seeds, backend=backend), repeat=1)
        rows.append({"graph": name, "tool": f"curnet-{backend}", "call": f"sweep_{sweep[0]}x{sweep[1]}",
                     "seconds": t.median, "quality": float(np.median(s.quality[np.isclose(s.resolution, 1.0)]))
                     if np.isclose(s.resolution, 1.0).any() else float(np.median(s.quality)),
                     "communities": None, "runs": len(s.quality)})
    return rows


def phase_rows(name, g, backend, algorithm="leiden"):
    """One Leiden run (2 iterations) or Louvain run with the time of each phase, the device
    synchronised around each: local moving (the driver's move_nodes, with the sums it starts
    from), refinement (refine), aggregation (the device's aggregate), renumbering (renumber),
    the quality (runs.quality) and the final split (the device's pieces); `other_s` is the
    rest (the host's steps between). `steps` lists each timed call: [phase, vertices of its
    level, seconds]; the device's counts of rounds and buckets (local moving) and rounds
    (refinement) are summed over the run, and `move_stats_by_level` keeps local moving's by
    level. Warm: main runs it after curnet_rows' calls."""
    from curnet.analyses.community_detection import local_moving as lm
    from curnet.analyses.community_detection import runs
    from curnet.backends import get_backend
    spent = {"local_moving": 0.0, "refinement": 0.0, "aggregation": 0.0, "renumber": 0.0, "quality": 0.0,
             "pieces": 0.0}
    calls = {k: 0 for k in spent}
    steps: list = []
    moves = type(get_backend(backend).members[0].partition_primitives())
    # (owner, attribute, phase): what is wrapped, restored after the run
    wrapped = [(lm, "move_nodes", "local_moving"), (lm, "refine", "refinement"), (moves, "aggregate", "aggregation"),
               (lm, "renumber", "renumber"), (runs, "renumber", "renumber"), (runs, "quality", "quality"),
               (moves, "pieces", "pieces")]
    originals = [getattr(owner, attr) for owner, attr, _ in wrapped]
    stats = {"local_moving": [], "refine_moves": []}
    counted = {k: getattr(moves, k) for k in stats}

    def count(method, fn):
        def counted_call(self, *args, **kw):
            out = fn(self, *args, **kw)
            stats[method].append(out[-1])          # the stats come last
            return out
        return counted_call

    def wrap(phase, fn):
        def timed_phase(*args, **kw):
            drain(backend)
            t = time.perf_counter()
            out = fn(*args, **kw)
            drain(backend)
            dt = time.perf_counter() - t
            spent[phase] += dt
            calls[phase] += 1
            level = args[1]                        # the level (or the labels) each wrapped call takes second
            steps.append([phase, int(getattr(level, "n", None) or len(level)), dt])
            return out
        return timed_phase
    for (owner, attr, phase), fn in zip(wrapped, originals):
        setattr(owner, attr, wrap(phase, fn))
    for k, f in counted.items():
        setattr(moves, k, count(k, f))
    try:
        drain(backend)
        t = time.perf_counter()
        p = getattr(curnet, algorithm)(g, seed=2, backend=backend)
        drain(backend)
        total = time.perf_counter() - t
    finally:
        for (owner, attr, _), fn in zip(wrapped, originals):
            setattr(owner, attr, fn)
        for k, f in counted.items():
            setattr(moves, k, f)
    as_lists = {k: [np.asarray(x.get() if hasattr(x, "get") else x).tolist() for x in v] for k, v in stats.items()}
    call = "leiden_2_phases" if algorithm == "leiden" else f"{algorithm}_phases"
    row = {"graph": name, "tool": f"curnet-{backend}", "call": call, "seconds": total,
           "quality": p.quality, "communities": p.n_communities}
    row.update({f"{k}_s": v for k, v in spent.items()})
    row.update({f"{k}_calls": v for k, v in calls.items()})
    row["other_s"] = total - sum(spent.values())
    if as_lists["local_moving"]:
        sums = np.sum(as_lists["local_moving"], axis=0).tolist()
        row["move_rounds"], row["move_buckets"], row["move_buckets_kept"] = sums
        row["move_stats_by_level"] = as_lists["local_moving"]
    if as_lists["refine_moves"]:
        row["refine_rounds"] = int(np.sum(as_lists["refine_moves"]))
    row["steps"] = steps
    return [row]


def igraph_rows(name, g, repeats, calls=CALLS):
    import igraph as ig
    src, dst, _ = g.edges()
    G = ig.Graph(n=len(g), edges=np.c_[src, dst])
    run = {"leiden_2": lambda: G.community_leiden(objective_function="modularity", n_iterations=2),
           "leiden_stable": lambda: G.community_leiden(objective_function="modularity", n_iterations=-1),
           "louvain": lambda: G.community_multilevel()}
    rows = []
    for call in calls:
        found = []
        r, t = timed(lambda: found.append(run[call]()) or found[-1], repeat=repeats)
        rows.append({"graph": name, "tool": f"igraph-{ig.__version__}", "call": call, "seconds": t.median,
                     "best_s": t.best, "quality": G.modularity(r.membership),
                     "quality_median": float(np.median([G.modularity(x.membership) for x in found])),
                     "communities": len(r)})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graphs", default="string_sample")
    ap.add_argument("--backends", default="cpu")
    ap.add_argument("--calls", default=",".join(CALLS), help="of " + ", ".join(CALLS))
    ap.add_argument("--igraph", action="store_true", help="time python-igraph beside")
    ap.add_argument("--igraph-calls", default=None, help="igraph's calls (default: --calls)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--igraph-repeats", type=int, default=None, help="igraph's repeats (default: --repeats)")
    ap.add_argument("--sweep", default="", help="RESxSEEDS, e.g. 10x10: one batched call")
    ap.add_argument("--phases", action="store_true", help="time each phase of one Leiden run")
    ap.add_argument("--phase-calls", default="leiden", help="the runs --phases times: leiden, louvain")
    ap.add_argument("--save-npz", default=None, help="write the (one) graph's edges here as NAME=PATH reads them")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    sweep = tuple(int(x) for x in a.sweep.split("x")) if a.sweep else None
    calls = [c for c in a.calls.split(",") if c]
    rows = []
    meta = {"machine": platform.node(), "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "info": curnet.info(),
            "argv": argv}

    def save():
        if a.out:
            with open(a.out, "w") as f:
                json.dump({"meta": meta, "rows": rows}, f, indent=1, default=str)
    for spec in a.graphs.split(","):
        t = time.perf_counter()
        name, g = load(spec, on_gpu="cuda" in a.backends)
        meta.setdefault("load_s", {})[name] = time.perf_counter() - t
        print(f"# {name}: {len(g):,} vertices, {g.num_edges:,} edges", flush=True)
        if a.save_npz:
            src, dst, _ = g.edges()
            np.savez(a.save_npz, src=src, dst=dst, n=len(g))
            continue
        for backend in a.backends.split(","):
            got = curnet_rows(name, g, backend, a.repeats, sweep, calls)
            if a.phases:
                for algorithm in a.phase_calls.split(","):
                    got += phase_rows(name, g, backend, algorithm)
            rows += got
            print(*(json.dumps(r) for r in got), sep="\n", flush=True)
            save()
        if a.igraph:
            igraph_calls = [c for c in (a.igraph_calls or a.calls).split(",") if c]
            got = igraph_rows(name, g, a.igraph_repeats or a.repeats, igraph_calls)
            rows += got
            print(*(json.dumps(r) for r in got), sep="\n", flush=True)
        for r in rows:
            if r["graph"] == name and (r["call"] in CALLS or r["call"].endswith("_phases")) and r.get("seconds"):
                r["edges_per_s"] = g.num_edges / r["seconds"]
        save()
    return rows


if __name__ == "__main__":
    main()
