"""GPU benchmarks of PERFORMANCE.md's engine rows, with CPU-backend timings where cheap.

Layers: "engine" = graph on the device, result left on the device (the drivers' own batched
entry points `bfs_blocks` / `sssp_blocks` into a sink that copies nothing); "+transfer" = the
public call (`bfs`, `sssp`, `scc`) returning host arrays (pageable NumPy memory). Knobs are
set on the backend's `tuning` (CudaTuning).
Times are medians (min-max) of --reps runs after a warm-up, synchronising the device
before reading the host clock. TEPS: arcs of the traversed component (both directions
of an undirected edge) summed over the sources, over the batch's time.

    python -m bench gpu-check [--only many,one] [--no-sweep] [--json FILE]
    python -m bench gpu-compare BEFORE.json AFTER.json     # two runs' engine rows (bench/compare.py)

Writes JSON to --json (default $OUT/gpu_check.json if OUT is set; bench/rows.py's format,
with "date" and "info", which bench/report.py reads) and prints a table last.
"""
from __future__ import annotations

import argparse
import datetime
import os
import sys
import time

import numpy as np

import cupy as cp
from curnet import generators
from curnet.algorithms.bfs import bfs
from curnet.algorithms.scc import scc
from curnet.algorithms.sssp import sssp, sssp_dists
from curnet.algorithms.bfs import bfs_blocks
from curnet.algorithms.scc import component_labels
from curnet.algorithms.sinks import DiscardSink
from curnet.algorithms.sssp import bellman_ford, solve_batch, sssp_blocks
from curnet.backends import get_backend
from curnet.graph import Graph

from . import networks
from . import rows as results
from .timing import Times, timed

SCNET = networks.SCNET_FILE       # the scNET rows run where the checkout carries it
rows = []


def sync():
    cp.cuda.Device().synchronize()


def row(name, layer, t, target=None, extra=""):
    med, lo, hi = t
    rows.append({"row": name, "layer": layer, "median_ms": med * 1e3, "min_ms": lo * 1e3,
                 "max_ms": hi * 1e3, "target": target, "note": extra})
    print(f"  {name:34s} {layer:16s} {med * 1e3:10.3f} ms  ({lo * 1e3:.3f}-{hi * 1e3:.3f}) {extra}", flush=True)


def pick_sources(g, k, seed=0):
    deg = np.diff(g.indptr)
    return np.random.default_rng(seed).choice(np.flatnonzero(deg > 0), k, replace=False).astype(np.int32)


class DeviceColumns(DiscardSink):
    """BFS batches into the columns of one preallocated device (n, k) matrix, not filled
    (each GPU traversal path writes every entry, as the drivers' output_block relies on);
    nothing is copied to the host."""

    def __init__(self, depth):
        self.depth = depth

    def block(self, be, first_row, batch_ids, shape, dtype, fill):
        return self.depth[:, first_row:first_row + len(batch_ids)]


def engine_bfs(g, ids, depth):
    bfs_blocks(g, ids, DeviceColumns(depth), backend="cuda", progress=False)


def engine_sssp(g, ids, with_pred):
    sssp_blocks(g, ids, DiscardSink(), backend="cuda", with_pred=with_pred, progress=False)


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
    t = timed(lambda: engine_bfs(g, ids, depth), reps, 1, sync, keep=False)[1].stats()
    arcs = traversed_arcs(g, depth)
    row(f"BFS R-MAT{scale} x{k} sources", "engine", t, "≥2000 GTEPS",
        f"{arcs / t[0] / 1e9:,.0f} GTEPS aggregate")
    eng = t[0]
    levels = []
    st = be.bits_start(hg, ids, depth, -1)
    sync()
    level = 0
    pushes = be.stats.get("push_levels", 0)
    while True:
        level += 1
        t0 = time.perf_counter()
        more = be.bits_level(hg, st, depth, level)
        sync()
        levels.append((time.perf_counter() - t0) * 1e3)
        if not more:
            break
    print("  per level (ms, last includes the depth flush): " + " ".join(f"{x:.2f}" for x in levels)
          + f"; push levels {be.stats.get('push_levels', 0) - pushes}", flush=True)
    t = timed(lambda: bfs(g, ids, backend="cuda"), reps, 1, sync, keep=False)[1].stats()
    gbs = len(g) * k * 4 / max(t[0] - eng, 1e-9) / 1e9
    row(f"BFS R-MAT{scale} x{k} sources", "engine+transfer", t, None,
        f"{arcs / t[0] / 1e9:,.0f} GTEPS; transfer {gbs:.1f} GB/s into fresh pageable")
    if cpu_reps:
        t = timed(lambda: bfs(g, ids, backend="cpu"), cpu_reps, 0, sync, keep=False)[1].stats()
        row(f"BFS R-MAT{scale} x{k} sources", "cpu backend", t, None, f"{arcs / t[0] / 1e9:,.1f} GTEPS")
    del depth
    g._device.clear()
    cp.get_default_memory_pool().free_all_blocks()


def per_source(run, ids):
    """(median, min, max) seconds of run(one-source id array), each source warmed once."""
    ts = Times()
    for s in ids.tolist():
        one = np.array([s], np.int32)
        ts += timed(lambda: run(one), 1, 1, sync, keep=False)[1]
    return ts.stats()


def check_scipy(g, ids, dist):
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra
    a = csr_matrix((g.weights.astype(np.float64), g.indices, g.indptr), shape=(len(g), len(g)))
    ref = dijkstra(a, indices=ids)
    ok = np.allclose(dist, ref, rtol=1e-5)
    print(f"  distances against scipy dijkstra ({len(ids)} sources): {'ok' if ok else 'MISMATCH'}", flush=True)
    if not ok:
        rows.append({"row": "CHECK", "layer": "scipy", "median_ms": 0, "min_ms": 0, "max_ms": 0,
                     "target": None, "note": "MISMATCH against scipy"})


def bench_scale22(be, scale, reps, cpu_reps, sweep=True):
    print(f"R-MAT SCALE {scale}: one-source BFS / SSSP, SCC (directed)", flush=True)
    t0 = time.perf_counter()
    src, dst, n = generators.rmat_edges(scale, seed=2)
    w = (1.0 - np.random.default_rng(3).random(len(src))).astype(np.float32)
    g = Graph.from_edges(src, dst, w, directed=False, num_vertices=n)
    print(f"  built in {time.perf_counter() - t0:.1f} s: {g}", flush=True)
    hg = be.device_graph(g)
    ids = pick_sources(g, 64, seed=4)
    ts = Times()
    for s in ids.tolist():            # median over 64 sources, one run each after a warm-up
        d, t = timed(lambda: be.bfs_one(hg, s), 1, 1, sync)
        ts += t
    arcs = traversed_arcs(g, d[:, None])
    tt = ts.stats()
    row(f"BFS R-MAT{scale} 1 source", "engine", tt, "≤1.5 ms", f"{arcs / tt[0] / 1e9:.1f} GTEPS, 64 sources")
    t = timed(lambda: bfs(g, ids[:1], backend="cuda"), reps, 1, sync, keep=False)[1].stats()
    row(f"BFS R-MAT{scale} 1 source", "engine+transfer", t)
    if cpu_reps:
        t = timed(lambda: bfs(g, ids[:1], backend="cpu"), cpu_reps, 0, sync, keep=False)[1].stats()
        row(f"BFS R-MAT{scale} 1 source", "cpu backend", t)
    tuning = be.tuning
    base_factor = tuning.nf_delta_factor
    for factor in ([base_factor] + [f for f in (0.25, 1.0, 2.0) if f != base_factor]
                   if sweep else [base_factor]):
        tuning.nf_delta_factor = factor
        be.stats["nf_iters"] = 0
        ts = per_source(lambda s: solve_batch(be, hg, s, True), ids[:8])
        layer = "engine" if factor == base_factor else f"engine d×{factor:g}"
        row(f"SSSP R-MAT{scale} 1 source", layer, ts, "≤25 ms" if factor == base_factor else None,
            f"8 sources, dist+pred, near-far delta {be.nf_strategy.delta(hg):.3g}, "
            f"{be.stats['nf_iters'] / 16:.0f} iterations")
    tuning.nf_delta_factor = base_factor
    be.stats.update(rounds=0, arcs=0)
    ts = per_source(lambda s: bellman_ford(be, hg, s, True), ids[:4])
    row(f"SSSP R-MAT{scale} 1 source", "engine BF", ts, None,
        f"Bellman-Ford, 4 sources; {be.stats['rounds'] / 8:.0f} rounds, "
        f"{be.stats['arcs'] / 8 / hg.m:.2f} x arcs relaxed per source")
    ts = []
    for s in ids[:4].tolist():
        d_nf = solve_batch(be, hg, np.array([s], np.int32), False)[0]
        d_bf = bellman_ford(be, hg, np.array([s], np.int32), False)[0]
        ts.append(bool(cp.array_equal(d_nf, d_bf)))
    print(f"  near-far == Bellman-Ford distances on 4 sources: {all(ts)}", flush=True)
    check_scipy(g, ids[:1], solve_batch(be, hg, ids[:1], False)[0].get())
    t = timed(lambda: sssp(g, ids[:1], backend="cuda"), reps, 1, sync, keep=False)[1].stats()
    row(f"SSSP R-MAT{scale} 1 source", "engine+transfer", t)
    if cpu_reps:
        t = timed(lambda: sssp(g, ids[:1], backend="cpu"), cpu_reps, 0, sync, keep=False)[1].stats()
        row(f"SSSP R-MAT{scale} 1 source", "cpu backend", t)
    g._device.clear()
    del g, hg
    cp.get_default_memory_pool().free_all_blocks()
    t0 = time.perf_counter()
    gd = Graph.from_edges(src, dst, directed=True, num_vertices=n)
    gd.csc()
    print(f"  directed built in {time.perf_counter() - t0:.1f} s: {gd}", flush=True)
    hd = be.device_graph(gd)
    t = timed(lambda: component_labels(be, hd), reps, 1, sync, keep=False)[1].stats()
    row(f"SCC R-MAT{scale} directed", "engine", t, "≤40 ms")
    t = timed(lambda: scc(gd, backend="cuda"), reps, 1, sync, keep=False)[1].stats()
    row(f"SCC R-MAT{scale} directed", "engine+transfer", t)
    if cpu_reps:
        t = timed(lambda: scc(gd, backend="cpu"), cpu_reps, 0, sync, keep=False)[1].stats()
        row(f"SCC R-MAT{scale} directed", "cpu backend", t)
    # directed R-MAT has many sinks and in-degree-1 heads: the edge classes with and without
    sinks = int(cp.count_nonzero(cp.diff(hd.out_ptr) == 0))
    dids = pick_sources(gd, 4, seed=9)
    for on in (True, False):
        tuning.edge_classes = on
        ts = per_source(lambda s: solve_batch(be, hd, s, True), dids)
        row(f"SSSP R-MAT{scale} directed 1 src", "engine" if on else "engine, no classes", ts, None,
            f"unit weights, near-far, 4 sources; {sinks:,} sinks")
    tuning.edge_classes = True
    gd._device.clear()
    cp.get_default_memory_pool().free_all_blocks()


def load_scnet():
    return networks.load_scnet(dtype=np.float32)


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
    t = timed(lambda: engine_bfs(g, ids, depth), reps, 1, sync, keep=False)[1].stats()
    arcs = traversed_arcs(g, depth)
    row(f"BFS scNET 20% ({len(ids)})", "engine", t, None, f"{arcs / t[0] / 1e9:,.0f} GTEPS")
    eng = t[0]
    t = timed(lambda: bfs(g, ids, backend="cuda"), reps, 1, sync, keep=False)[1].stats()
    gbs = n * len(ids) * 4 / max(t[0] - eng, 1e-9) / 1e9
    row(f"BFS scNET 20% ({len(ids)})", "engine+transfer", t, None,
        f"int32 (k, n) fresh pageable via pinned chunks: {gbs:.1f} GB/s")
    out = np.empty((len(ids), n), np.int32, order="F")
    bfs(g, ids, backend="cuda", out=out)
    t = timed(lambda: bfs(g, ids, backend="cuda", out=out), reps, 1, sync, keep=False)[1].stats()
    gbs = n * len(ids) * 4 / max(t[0] - eng, 1e-9) / 1e9
    row(f"BFS scNET 20% ({len(ids)})", "+transfer reused", t, None, f"into a reused buffer: {gbs:.1f} GB/s")
    if cpu_reps:
        t = timed(lambda: bfs(g, ids, backend="cpu"), cpu_reps, 0, sync, keep=False)[1].stats()
        row(f"BFS scNET 20% ({len(ids)})", "cpu backend", t)
    ids5 = ids[: round(0.05 * n)]
    t = timed(lambda: engine_sssp(g, ids5, True), reps, 1, sync, keep=False)[1].stats()
    row(f"SSSP scNET 5% ({len(ids5)})", "engine", t, None, "dist+pred, near-far, one batch")
    t = timed(lambda: engine_sssp(g, ids5, False), reps, 1, sync, keep=False)[1].stats()
    row(f"SSSP scNET 5% ({len(ids5)})", "engine dists", t, None, "dist only, near-far")
    t = timed(lambda: bellman_ford(be, hg, ids5, True), reps, 1, sync, keep=False)[1].stats()
    row(f"SSSP scNET 5% ({len(ids5)})", "engine BF", t, None, "dist+pred, Bellman-Ford (before)")
    same = bool(cp.array_equal(be.near_far(hg, ids5, False)[0], bellman_ford(be, hg, ids5, False)[0]))
    print(f"  scNET near-far == Bellman-Ford ({len(ids5)} sources): {same}", flush=True)
    check_scipy(g, ids5[:20], solve_batch(be, hg, ids5[:20], False)[0].get())
    t = timed(lambda: sssp(g, ids5, backend="cuda"), reps, 1, sync, keep=False)[1].stats()
    row(f"SSSP scNET 5% ({len(ids5)})", "engine+transfer", t, None, "dist f32 + pred i32")
    if cpu_reps:
        t = timed(lambda: sssp(g, ids5, backend="cpu"), cpu_reps, 0, sync, keep=False)[1].stats()
        row(f"SSSP scNET 5% ({len(ids5)})", "cpu backend", t)


def overlap_rows(be, name, call, limit, reps):
    """`call` (a public many-source call) in batches of `limit` sources: the batches' host
    copies one after another (before), then batch i's copy during batch i + 1 (after)."""
    tuning = be.tuning
    old = tuning.batch_limit, tuning.overlap_batches
    tuning.batch_limit = limit
    try:
        for overlap in (False, True):
            tuning.overlap_batches = overlap
            t = timed(call, reps, 1, sync, keep=False)[1].stats()
            row(name, "+transfer overlap" if overlap else "+transfer batched", t, None,
                f"batches of {limit}: " + ("copy of batch i during batch i+1" if overlap
                                           else "compute, copy, in turn (before)"))
    finally:
        tuning.batch_limit, tuning.overlap_batches = old


def bench_overlap(be, reps):
    """Cross-batch overlap of the host copies (issue 3, Memory): engine+transfer, before/after."""
    print("cross-batch overlap: batches forced by be.tuning.batch_limit", flush=True)
    tuning = be.tuning
    if os.path.exists(SCNET):
        g = load_scnet()
        n = len(g)
        ids = pick_sources(g, round(0.2 * n), seed=5)
        ids5 = ids[: round(0.05 * n)]
        tuning.overlap_batches = False
        tuning.batch_limit = 1024
        ref = bfs(g, ids, backend="cuda")
        tuning.overlap_batches = True
        same_bfs = bool(np.array_equal(ref, bfs(g, ids, backend="cuda")))
        tuning.batch_limit = 240
        d0, p0 = sssp(g, ids5, backend="cuda")
        tuning.overlap_batches = False
        d1, p1 = sssp(g, ids5, backend="cuda")
        d2, p2 = sssp(g, ids5, backend="cuda")
        tuning.batch_limit, tuning.overlap_batches = None, True
        same_d = bool(np.array_equal(d0, d1))
        print(f"  overlap == in turn: BFS depths {same_bfs}, SSSP distances {same_d}, predecessors "
              f"{bool(np.array_equal(p0, p1))} (two in-turn runs' predecessors equal: "
              f"{bool(np.array_equal(p1, p2))}; ties may pick either)", flush=True)
        if not (same_bfs and same_d):
            rows.append({"row": "CHECK", "layer": "overlap", "median_ms": 0, "min_ms": 0, "max_ms": 0,
                         "target": None, "note": "MISMATCH overlap vs in turn"})
        overlap_rows(be, f"BFS scNET 20% ({len(ids)})", lambda: bfs(g, ids, backend="cuda"), 1024, reps)
        overlap_rows(be, f"SSSP scNET 5% ({len(ids5)})", lambda: sssp(g, ids5, backend="cuda"), 240, reps)
        g._device.clear()
    g = generators.rmat(20, seed=1)
    ids = pick_sources(g, 4096)
    overlap_rows(be, "BFS R-MAT20 x4096 sources", lambda: bfs(g, ids, backend="cuda"), 1024, max(2, reps // 2))
    g._device.clear()
    cp.get_default_memory_pool().free_all_blocks()


def bench_overhead(be, reps):
    """Launch / synchronisation costs, and per-level / per-iteration costs on long graphs."""
    from curnet.backends.cuda import kernel
    print("overhead: launches, small graph, long paths", flush=True)
    z = cp.zeros(1, np.int32)
    u = cp.zeros(1, np.uint64)
    k = kernel("bfs", "seed_bits")

    def launches():
        for _ in range(1000):
            k((1,), (32,), (z, np.int32(0), np.int32(1), u))
    t = timed(launches, reps, 1, sync, keep=False)[1].stats()
    row("launch, back to back", "x1000", t, None, f"{t[0] * 1e3:.2f} us per launch")

    def launch_sync():
        for _ in range(200):
            k((1,), (32,), (z, np.int32(0), np.int32(1), u))
            sync()
    t = timed(launch_sync, reps, 1, sync, keep=False)[1].stats()
    row("launch + synchronize", "x200", t, None, f"{t[0] / 200 * 1e6:.2f} us each")
    g = generators.grid(30, 40)
    hg = be.device_graph(g)
    t = timed(lambda: be.bfs_one(hg, 0), reps, 1, sync, keep=False)[1].stats()
    row("BFS 1 source, grid 30x40", "engine", t, None, f"68 levels: {t[0] / 68 * 1e6:.1f} us a level")
    gp = generators.path(20000, weighted=True)
    hp = be.device_graph(gp)
    old = be.tuning.nf_max_iters
    be.tuning.nf_max_iters = 10**9
    be.stats["nf_iters"] = 0
    t = timed(lambda: be.near_far(hp, np.array([0], np.int32), False), 3, 1, sync, keep=False)[1].stats()
    iters = be.stats["nf_iters"] / 4
    row("SSSP near-far, path 20k", "engine", t, None, f"{iters:.0f} iterations: {t[0] / iters * 1e6:.1f} us each")
    be.tuning.nf_max_iters = old
    gp2 = generators.path(2000, weighted=True)
    hp2 = be.device_graph(gp2)
    t = timed(lambda: bellman_ford(be, hp2, np.array([0], np.int32), False), 3, 1, sync, keep=False)[1].stats()
    row("SSSP Bellman-Ford, path 2k", "engine", t, None, f"2000 rounds: {t[0] / 2000 * 1e6:.1f} us each")
    t = timed(lambda: be.bfs_one(hp2, 0), 3, 1, sync, keep=False)[1].stats()
    row("BFS 1 source, path 2k", "engine", t, None, f"2000 levels: {t[0] / 2000 * 1e6:.1f} us each")
    gl = generators.path(1_000_000, weighted=True)
    t0 = time.perf_counter()
    d = sssp(gl, [0], backend="cuda")[0]
    t1 = time.perf_counter()
    d2 = sssp(gl, [0], backend="cuda")[0]
    t2 = time.perf_counter()
    assert d[0, -1] == 999_999 and d2[0, -1] == 999_999
    row("SSSP path 1M, first call", "engine+transfer", (t1 - t0,) * 3, None,
        f"{be.tuning.nf_max_iters} near-far iterations, then host")
    row("SSSP path 1M, later call", "engine+transfer", (t2 - t1,) * 3, None, "host (SciPy) directly")


def bench_multi(reps, only=None):
    """PERFORMANCE.md's several-GPUs row: a many-source job on every GPU ("cuda:all") against
    one ("cuda"), the whole call into a preallocated host matrix (engine + transfer)."""
    ngpu = cp.cuda.runtime.getDeviceCount()
    if ngpu < 2:
        print(f"several GPUs: this machine has {ngpu}, skipped", flush=True)
        return
    jobs = [("BFS R-MAT18 x16384", lambda: generators.rmat(18, seed=18), 16384, "bfs"),
            ("BFS R-MAT20 x4096", lambda: generators.rmat(20, seed=20), 4096, "bfs"),
            ("SSSP R-MAT18 x2048 dists", lambda: generators.rmat(18, seed=18, weighted=True), 2048, "sssp_dists")]
    if os.path.exists(SCNET):
        jobs.append(("BFS scNET 20%", load_scnet, 0.2, "bfs"))
        jobs.append(("SSSP scNET 20% dists", load_scnet, 0.2, "sssp_dists"))
    for name, build, k, algo in jobs:
        if only and not any(name.startswith(o) for o in only):
            continue
        g = build()
        k = k if k >= 1 else round(k * len(g))
        ids = pick_sources(g, k, seed=7)
        fn = {"bfs": bfs, "sssp_dists": sssp_dists}[algo]
        out = np.empty((k, len(g)), np.int32 if algo == "bfs" else np.float32, order="F")
        times = {}
        for backend in ("cuda", "cuda:all"):
            fn(g, ids, backend=backend, out=out)           # warm: graphs on every GPU, kernels loaded
            ref = out.copy() if backend == "cuda" else ref
            times[backend] = timed(lambda: fn(g, ids, backend=backend, out=out), reps, 1, sync, keep=False)[1].stats()
        same = bool(np.array_equal(out, ref))
        row(name, "1 GPU +transfer", times["cuda"], None, f"{out.nbytes / 1e9:.1f} GB out")
        speedup = times["cuda"][0] / times["cuda:all"][0]
        row(name, f"{ngpu} GPUs +transfer", times["cuda:all"], "≥1.8× 1 GPU",
            f"{speedup:.2f}× one GPU; results equal: {same}")
        del out
        g._device.clear()
        for d in range(ngpu):
            with cp.cuda.Device(d):
                cp.get_default_memory_pool().free_all_blocks()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench gpu-check", description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cpu-reps", type=int, default=1)
    ap.add_argument("--many-scale", type=int, default=20)
    ap.add_argument("--one-scale", type=int, default=22)
    ap.add_argument("--only", default="overhead,many,one,scnet,overlap,multi")
    ap.add_argument("--no-sweep", action="store_true", help="skip the near-far delta sweep")
    ap.add_argument("--multi-jobs", help="several-GPU jobs to run: comma-separated name prefixes")
    ap.add_argument("--json", default=results.default_out("gpu_check.json"))
    a = ap.parse_args(argv)
    be = get_backend("cuda")
    info = be.info()
    print(info, flush=True)
    only = a.only.split(",")
    if "scnet" in only:
        bench_scnet(be, a.reps, a.cpu_reps)
    if "overlap" in only:
        bench_overlap(be, a.reps)
    if "overhead" in only:
        bench_overhead(be, a.reps)
    if "many" in only:
        bench_many_bfs(be, a.many_scale, 1024, a.reps, 0)
    if "one" in only:
        bench_scale22(be, a.one_scale, a.reps, a.cpu_reps, sweep=not a.no_sweep)
    if "multi" in only:
        bench_multi(a.reps, a.multi_jobs.split(",") if a.multi_jobs else None)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results.write(a.json, rows, date=stamp, info=info)
    print(f"\n== cuRnet GPU benchmarks: {info['device']}, CuPy {info['cupy']}, {stamp} ==")
    print(f"{'row':34s} {'layer':16s} {'median ms':>10s} {'target':>12s}  note")
    for r in rows:
        print(f"{r['row']:34s} {r['layer']:16s} {r['median_ms']:10.3f} {r['target'] or '':>12s}  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
