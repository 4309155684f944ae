"""GPU benchmarks of PERFORMANCE.md's engine rows, with CPU-backend timings where cheap.

Layers: "engine" = graph on the device, result left on the device; "+transfer" = the
public call (`bfs`, `sssp`, `scc`) returning host arrays (pageable NumPy memory).
Times are medians (min-max) of --reps runs after a warm-up, synchronising the device
before reading the host clock. TEPS: arcs of the traversed component (both directions
of an undirected edge) summed over the sources, over the batch's time.

Writes JSON to --json (default $OUT/gpu_bench.json if OUT is set) and prints a table last.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

import cupy as cp  # noqa: E402
from curnet import generators  # noqa: E402
from curnet.algorithms import bfs, scc, sssp  # noqa: E402
from curnet.algorithms.bfs import traverse  # noqa: E402
from curnet.algorithms.scc import scc_by_reachability  # noqa: E402
from curnet.algorithms.sssp import bellman_ford  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.graph import Graph  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..")
SCNET = os.path.join(ROOT, ".data", "H_sapiens.net")
rows = []


def sync():
    cp.cuda.Device().synchronize()


def timeit(fn, reps, warm=1):
    for _ in range(warm):
        fn()
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)), float(min(ts)), float(max(ts))


def row(name, layer, t, target=None, extra=""):
    med, lo, hi = t
    rows.append({"row": name, "layer": layer, "median_ms": med * 1e3, "min_ms": lo * 1e3,
                 "max_ms": hi * 1e3, "target": target, "note": extra})
    print(f"  {name:34s} {layer:16s} {med * 1e3:10.3f} ms  ({lo * 1e3:.3f}-{hi * 1e3:.3f}) {extra}", flush=True)


def pick_sources(g, k, seed=0):
    deg = np.diff(g.indptr)
    return np.random.default_rng(seed).choice(np.flatnonzero(deg > 0), k, replace=False).astype(np.int32)


def traversed_arcs(g, depth_dev):
    """Sum over sources of the out-arcs of the vertices each reached; depth (n, k) on device."""
    deg = cp.asarray(np.diff(g.indptr).astype(np.float64))
    return float(((depth_dev >= 0).astype(np.float64).T @ deg).sum())


def bench_many_bfs(be, scale, k, reps, cpu_reps):
    print(f"R-MAT SCALE {scale}, many-source BFS, {k} sources", flush=True)
    t0 = time.perf_counter()
    g = generators.rmat(scale, seed=1)
    print(f"  built in {time.perf_counter() - t0:.1f} s: {g}", flush=True)
    hg = be.device_graph(g)
    ids = pick_sources(g, k)
    depth = cp.empty((len(g), k), np.int32)

    def engine():                       # output_block's unfilled block: the traversal writes all
        traverse(be, hg, ids, depth, -1)
    t = timeit(engine, reps)
    arcs = traversed_arcs(g, depth)
    row(f"BFS R-MAT{scale} x{k} sources", "engine", t, "≥2000 GTEPS",
        f"{arcs / t[0] / 1e9:,.0f} GTEPS aggregate")
    t = timeit(lambda: bfs(g, ids, backend="cuda"), reps)
    row(f"BFS R-MAT{scale} x{k} sources", "engine+transfer", t, None, f"{arcs / t[0] / 1e9:,.0f} GTEPS")
    if cpu_reps:
        t = timeit(lambda: bfs(g, ids, backend="cpu"), cpu_reps, warm=0)
        row(f"BFS R-MAT{scale} x{k} sources", "cpu backend", t, None, f"{arcs / t[0] / 1e9:,.1f} GTEPS")
    del depth
    g._device.clear()
    cp.get_default_memory_pool().free_all_blocks()


def bench_scale22(be, scale, reps, cpu_reps):
    print(f"R-MAT SCALE {scale}: one-source BFS / SSSP, SCC (directed)", flush=True)
    t0 = time.perf_counter()
    src, dst, n = generators.rmat_edges(scale, seed=2)
    w = (1.0 - np.random.default_rng(3).random(len(src))).astype(np.float32)
    g = Graph.from_edges(src, dst, w, directed=False, num_vertices=n)
    print(f"  built in {time.perf_counter() - t0:.1f} s: {g}", flush=True)
    hg = be.device_graph(g)
    ids = pick_sources(g, 64, seed=4)
    ts = []
    for s in ids.tolist():            # median over 64 sources, one run each after a warm-up
        be.bfs_one(hg, s)
        sync()
        t = time.perf_counter()
        d = be.bfs_one(hg, s)
        sync()
        ts.append(time.perf_counter() - t)
    arcs = traversed_arcs(g, d[:, None])
    tt = (float(np.median(ts)), min(ts), max(ts))
    row(f"BFS R-MAT{scale} 1 source", "engine", tt, "≤1.5 ms", f"{arcs / tt[0] / 1e9:.1f} GTEPS, 64 sources")
    t = timeit(lambda: bfs(g, ids[:1], backend="cuda"), reps)
    row(f"BFS R-MAT{scale} 1 source", "engine+transfer", t)
    if cpu_reps:
        t = timeit(lambda: bfs(g, ids[:1], backend="cpu"), cpu_reps, warm=0)
        row(f"BFS R-MAT{scale} 1 source", "cpu backend", t)
    ts = []
    be.stats.update(rounds=0, arcs=0)
    for s in ids[:8].tolist():
        bellman_ford(be, hg, np.array([s], np.int32), True)
        sync()
        t = time.perf_counter()
        bellman_ford(be, hg, np.array([s], np.int32), True)
        sync()
        ts.append(time.perf_counter() - t)
    row(f"SSSP R-MAT{scale} 1 source", "engine", (float(np.median(ts)), min(ts), max(ts)), "≤25 ms",
        f"8 sources, dist+pred; {be.stats['rounds'] / 16:.0f} rounds, "
        f"{be.stats['arcs'] / 16 / hg.m:.2f} x arcs relaxed per source")
    t = timeit(lambda: sssp(g, ids[:1], backend="cuda"), reps)
    row(f"SSSP R-MAT{scale} 1 source", "engine+transfer", t)
    if cpu_reps:
        t = timeit(lambda: sssp(g, ids[:1], backend="cpu"), cpu_reps, warm=0)
        row(f"SSSP R-MAT{scale} 1 source", "cpu backend", t)
    g._device.clear()
    del g, hg
    cp.get_default_memory_pool().free_all_blocks()
    t0 = time.perf_counter()
    gd = Graph.from_edges(src, dst, directed=True, num_vertices=n)
    gd.csc()
    print(f"  directed built in {time.perf_counter() - t0:.1f} s: {gd}", flush=True)
    hd = be.device_graph(gd)
    t = timeit(lambda: scc_by_reachability(be, hd), reps)
    row(f"SCC R-MAT{scale} directed", "engine", t, "≤40 ms")
    t = timeit(lambda: scc(gd, backend="cuda"), reps)
    row(f"SCC R-MAT{scale} directed", "engine+transfer", t)
    if cpu_reps:
        t = timeit(lambda: scc(gd, backend="cpu"), cpu_reps, warm=0)
        row(f"SCC R-MAT{scale} directed", "cpu backend", t)
    gd._device.clear()
    cp.get_default_memory_pool().free_all_blocks()


def load_scnet():
    import pyarrow.csv as pv
    t = pv.read_csv(SCNET, read_options=pv.ReadOptions(column_names=["a", "b", "s", "z"]),
                    parse_options=pv.ParseOptions(delimiter="\t"))
    w = (1.0 - t["s"].to_numpy() + 1e-6).astype(np.float32)
    return Graph.from_edges(t["a"].to_numpy().astype(str), t["b"].to_numpy().astype(str), w, directed=False)


def bench_scnet(be, reps, cpu_reps):
    if not os.path.exists(SCNET):
        print("scNET: .data/H_sapiens.net missing, skipped")
        return
    g = load_scnet()
    print(f"scNET human: {g}", flush=True)
    hg = be.device_graph(g)
    n = len(g)
    ids = pick_sources(g, round(0.2 * n), seed=5)
    depth = cp.empty((n, len(ids)), np.int32)

    def engine():
        traverse(be, hg, ids, depth, -1)
    t = timeit(engine, reps)
    arcs = traversed_arcs(g, depth)
    row(f"BFS scNET 20% ({len(ids)})", "engine", t, None, f"{arcs / t[0] / 1e9:,.0f} GTEPS")
    t = timeit(lambda: bfs(g, ids, backend="cuda"), reps)
    row(f"BFS scNET 20% ({len(ids)})", "engine+transfer", t, None, "int32 (k, n), pageable")
    if cpu_reps:
        t = timeit(lambda: bfs(g, ids, backend="cpu"), cpu_reps, warm=0)
        row(f"BFS scNET 20% ({len(ids)})", "cpu backend", t)
    ids5 = ids[: round(0.05 * n)]
    t = timeit(lambda: bellman_ford(be, hg, ids5, True), reps)
    row(f"SSSP scNET 5% ({len(ids5)})", "engine", t, None, "dist+pred")
    t = timeit(lambda: bellman_ford(be, hg, ids5, False), reps)
    row(f"SSSP scNET 5% ({len(ids5)})", "engine dists", t, None, "dist only")
    t = timeit(lambda: sssp(g, ids5, backend="cuda"), reps)
    row(f"SSSP scNET 5% ({len(ids5)})", "engine+transfer", t, None, "dist f32 + pred i32")
    if cpu_reps:
        t = timeit(lambda: sssp(g, ids5, backend="cpu"), cpu_reps, warm=0)
        row(f"SSSP scNET 5% ({len(ids5)})", "cpu backend", t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cpu-reps", type=int, default=1)
    ap.add_argument("--many-scale", type=int, default=20)
    ap.add_argument("--one-scale", type=int, default=22)
    ap.add_argument("--only", default="many,one,scnet")
    ap.add_argument("--json", default=os.path.join(os.environ["OUT"], "gpu_bench.json") if os.environ.get("OUT") else None)
    a = ap.parse_args()
    be = get_backend("cuda")
    info = be.info()
    print(info, flush=True)
    only = a.only.split(",")
    if "scnet" in only:
        bench_scnet(be, a.reps, a.cpu_reps)
    if "many" in only:
        bench_many_bfs(be, a.many_scale, 1024, a.reps, 0)
    if "one" in only:
        bench_scale22(be, a.one_scale, a.reps, a.cpu_reps)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"date": stamp, "info": info, "host": platform.node(), "rows": rows}, f, indent=1)
    print(f"\n== cuRnet GPU benchmarks: {info['device']}, CuPy {info['cupy']}, {stamp} ==")
    print(f"{'row':34s} {'layer':16s} {'median ms':>10s} {'target':>12s}  note")
    for r in rows:
        print(f"{r['row']:34s} {r['layer']:16s} {r['median_ms']:10.3f} {r['target'] or '':>12s}  {r['note']}")


if __name__ == "__main__":
    main()
