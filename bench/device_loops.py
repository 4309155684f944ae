"""The device loops (CudaTuning.device_loops) against the launch-a-level route, in one run on one
GPU, every answer compared: the one-source BFS of R-MAT 22 undirected (the peers' graph:
rmat_edges(22, seed=2), 16 sources of gpu_accounts' seed), and SCC (engine: the route the public
call takes, component_labels, labels on the device) of R-MAT 22 / 20 directed and the mouse liver
network. With --peers DIR (a copy of ../shared/peers), ECL-SCC runs on the same SCC graphs
(its own timer, median after its first run) and its partitions are compared.

    python -m bench device-loops [--peers .peers] [--only scc] [--scale 20] [--json OUT.json]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time

import numpy as np
import cupy as cp

from curnet import datasets, generators
from curnet.algorithms.scc import canonical_labels, component_labels
from curnet.backends import get_backend
from curnet.graph import Graph

from . import gpu_accounts      # its timed SCC run and a one-source BFS's account
from . import rows as results
from .timing import cuda_sync, timed


def median_ms(fn, reps: int) -> float:
    """fn's median time in ms over `reps` calls after a warm-up (kernels compiled, memory pooled)."""
    return timed(fn, reps, 1, cuda_sync, keep=False)[1].median * 1e3


def both_routes(be, fn, reps: int) -> tuple[dict, object]:
    """fn's median time with the device loops off and on (on: on blocks fitted to the graph,
    and on every resident block), and its answer (equal every way)."""
    out, answers = {}, []
    for name, on, fit in (("a launch a level", False, True), ("device loops, every resident block", True, False),
                          ("device loops", True, True)):
        be.tuning.device_loops, be.tuning.loop_blocks_fit = on, fit
        out[name] = median_ms(fn, reps)
        answers.append(cp.asnumpy(fn()))
    be.tuning.device_loops = be.tuning.loop_blocks_fit = True
    if not all(np.array_equal(answers[0], x) for x in answers[1:]):
        raise AssertionError("the two routes disagree")
    return out, answers[1]


def scc_account(be, hd, reps: int) -> dict:
    """SCC's phases with the device loops: each primitive's calls in a run (trimming, the
    pivot's two searches, the colouring's propagations), their wall time summed over the run
    (the device synchronised around each call; gpu_accounts.scc_calls), medians over `reps`
    runs; `other` is the driver's own array work between them."""
    primitives = ("trim", "bfs_one", "propagate_max")
    runs = []
    for _ in range(reps):
        calls, total = gpu_accounts.scc_calls(be, hd)
        run = {p: [sum(c["wall_ms"] for c in calls if c["primitive"] == p),
                   sum(c["primitive"] == p for c in calls)] for p in primitives}
        run["total"] = [total, 1]
        runs.append(run)
    out = {k: {"ms": round(float(np.median([r[k][0] for r in runs])), 4), "calls": runs[-1][k][1]}
           for k in primitives + ("total",)}
    out["other"] = {"ms": round(out["total"]["ms"] - sum(out[k]["ms"] for k in primitives), 4)}
    return out


def ecl_scc(peers: str, g: Graph, work: str, reps: int) -> dict:
    import peerfmt                                   # the peers' own format writers (main puts them on the path)
    bin_dir = os.path.join(work, "bin")
    if not os.path.isdir(bin_dir):
        tarfile.open(os.path.join(peers, "bin.tar.xz")).extractall(bin_dir)
    exe = next(os.path.join(r, f) for r, _, fs in os.walk(bin_dir) for f in fs if f == "ecl-scc-harness")
    os.chmod(exe, 0o755)
    path, labels = peerfmt.write_egr(g, os.path.join(work, "g.egr")), os.path.join(work, "labels.bin")
    p = subprocess.run([exe, path, labels], capture_output=True, text=True, timeout=240,
                       env=dict(os.environ, ECL_REPS=str(reps + 1)))
    times = [float(x) * 1e3 for x in re.findall(r"compute time: ([\d.eE+-]+) s", p.stdout)]
    return {"ms": float(np.median(times[1:])), "reps_ms": times,
            "labels": canonical_labels(np.fromfile(labels, np.int32))}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench device-loops", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers", help="a copy of ../shared/peers: ECL-SCC beside the SCC rows")
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--sources", type=int, default=16)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--json")
    ap.add_argument("--only", default="bfs,scc", help="bfs, scc or both (comma-separated)")
    a = ap.parse_args(argv)
    if a.peers:
        sys.path.insert(0, os.path.join(a.peers, "tools"))
    be = get_backend("cuda")
    doc = {"device": be.describe(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": []}
    print(f"{doc['device']}, {doc['date']}")

    def report(work, times, extra=""):
        row = {"work": work, **{k: round(v, 4) if isinstance(v, float) else v for k, v in times.items()}}
        doc["rows"].append(row)
        off, on = times["a launch a level"], times["device loops"]
        print(f"{work:<52} a launch a level {off:8.3f} ms   device loops {on:8.3f} ms   {off / on:5.2f}x{extra}",
              flush=True)
        return row

    if "bfs" in a.only:
        one_source_bfs(a, be, report)
    if "scc" in a.only:
        scc_rows(a, be, report)
    results.write(a.json, doc["rows"], device=doc["device"], date=doc["date"])


def one_source_bfs(a, be, report):
    src, dst, n = generators.rmat_edges(a.scale, seed=2)
    g = Graph.from_edges(src, dst, directed=False, num_vertices=n)
    hg = be.device_graph(g)
    ids = np.random.default_rng(4).choice(np.flatnonzero(np.diff(g.indptr) > 0), 64, replace=False)[:a.sources]
    per_source: dict = {}
    for s in ids.tolist():
        times, _ = both_routes(be, lambda: be.bfs_one(hg, int(s)), a.reps)
        for k, v in times.items():
            per_source.setdefault(k, []).append(v)
    row = report(f"one-source BFS, R-MAT {a.scale} undirected ({a.sources} sources, median)",
                 {k: float(np.median(v)) for k, v in per_source.items()})
    row["account"] = gpu_accounts.bfs_account(be, hg, ids, a.reps)
    print("  where a search's time goes:", json.dumps(row["account"]), flush=True)
    row["by bfs_one_warp_list"] = {}
    default = be.tuning.bfs_one_warp_list
    for warp_list in (0, 32, 64, 256):
        be.tuning.bfs_one_warp_list = warp_list
        row["by bfs_one_warp_list"][warp_list] = round(float(np.median(
            [median_ms(lambda: be.bfs_one(hg, int(s)), a.reps) for s in ids.tolist()])), 4)
    be.tuning.bfs_one_warp_list = default
    print("  by bfs_one_warp_list (ms):", json.dumps(row["by bfs_one_warp_list"]), flush=True)


def scc_rows(a, be, report):
    """SCC by the route the public call takes (with the device loops: one launch on graphs of
    at most scc_one_launch_arcs arcs, else the driver's loops) against a launch a level."""
    graphs = []
    for scale in sorted({a.scale, 20}, reverse=True):
        s_, d_, n_ = generators.rmat_edges(scale, seed=2)
        graphs.append((f"SCC, R-MAT {scale} directed", Graph.from_edges(s_, d_, directed=True, num_vertices=n_)))
    graphs.append(("SCC, mouse liver network", datasets.load("mouseliver")))
    work = tempfile.mkdtemp()
    for name, gd in graphs:
        gd.csc()
        hd = be.device_graph(gd)
        times, labels = both_routes(be, lambda: component_labels(be, hd), a.reps)
        times["phases"] = scc_account(be, hd, a.reps)
        labels = canonical_labels(labels)
        extra = ""
        if a.peers:
            ecl = ecl_scc(a.peers, gd, work, a.reps)
            equal = bool(np.array_equal(ecl["labels"], labels))
            times_ecl = {"ECL-SCC ms": round(ecl["ms"], 4), "ECL-SCC partitions equal": equal}
            extra = f"   ECL-SCC {ecl['ms']:.3f} ms ({ecl['ms'] / times['device loops']:.2f}x, equal: {equal})"
        row = report(f"{name} ({len(gd):,} vertices, {gd.num_arcs:,} arcs)", times, extra)
        if a.peers:
            row.update(times_ecl)


if __name__ == "__main__":
    main()
