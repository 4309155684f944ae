"""Where the GPU time goes, for the rows that are set beside the peers (docs/peers.md).

On the graphs and sources of the peers benchmark (../shared/peers/tools/bench_peers.py):
  - many-source BFS, R-MAT 20 undirected, 1,024 sources of the giant component (seed 0):
    each level of the joint traversal: wall time, kernel time by kernel, the frontier, and
    the bytes the level must at least move (the arc list once, the seen/frontier/next bit
    rows once each) against the H100's 3.35 TB/s;
  - one-source BFS and near-far SSSP, R-MAT 22 undirected (weights 1 - U[0,1), seed 3),
    sources of the GPU check, gpu_check.py (seed 4): levels or iterations, host synchronisations, kernel time
    against wall time;
  - SCC, R-MAT 22 directed and the mouse liver network: trimming, the giant component's
    forward and backward searches, the colouring rounds, each with its sweeps (or BFS
    levels) and kernel time.
Kernel time comes from CUDA events around every launch (they add a few microseconds a
launch, so the wall times here are a little above the benchmark's); wall time minus kernel
time is the host's share: launches, synchronisations and Python between them.

    python -m bench gpu-accounts [--only many,one,scc] [--json OUT.json]

The JSON (bench/rows.py's format): a row a part (many-source BFS, one source, SCC), its
account under "account".
"""
from __future__ import annotations

import argparse
import collections
import importlib
import json
import time

import numpy as np
import cupy as cp

from curnet import generators
from curnet.algorithms.bfs import traverse
from curnet.algorithms.scc import scc_by_reachability
from curnet.algorithms.sssp import solve_batch
from curnet.backends import get_backend
from curnet.graph import Graph

from . import rows as results
from .timing import cuda_sync, timed

PEAK_BYTES_PER_S = 3.35e12          # H100 SXM HBM3
launch_module = importlib.import_module("curnet.backends.cuda.launch")   # the module, not its launch()


class KernelClock:
    """CUDA events around every kernel launched through backends/cuda/launch.py's `kernel`."""

    def __init__(self):
        self.records = []
        self._real = launch_module.kernel

    def __enter__(self):
        real = self._real

        def timed_kernel(module, name, cooperative=False):
            k = real(module, name, cooperative)

            def call(grid, block, args, **kw):
                start, end = cp.cuda.Event(), cp.cuda.Event()
                start.record()
                k(grid, block, args, **kw)
                end.record()
                self.records.append((name, start, end))
            call.kernel = k.kernel            # the occupancy query of launch_resident reads it
            return call
        launch_module.kernel = timed_kernel
        return self

    def __exit__(self, *exc):
        launch_module.kernel = self._real

    def mark(self) -> int:
        return len(self.records)

    def by_kernel(self, a=0, b=None) -> dict:
        """{kernel: [launches, ms]} over records a..b (synchronizes)."""
        cp.cuda.runtime.deviceSynchronize()
        out = collections.defaultdict(lambda: [0, 0.0])
        for name, s, e in self.records[a:b]:
            out[name][0] += 1
            out[name][1] += cp.cuda.get_elapsed_time(s, e)
        return {k: [v[0], round(v[1], 4)] for k, v in sorted(out.items(), key=lambda kv: -kv[1][1])}


def wall(fn):
    """(fn's result, its wall ms), the device drained before and after."""
    result, t = timed(fn, sync=cuda_sync)
    return result, t.median * 1e3


def giant_sources(g, k, seed):
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components
    n = len(g)
    a = csr_matrix((np.ones(len(g.indices), np.int8), g.indices, g.indptr), shape=(n, n))
    _, lab = connected_components(a, directed=True, connection="weak")
    cand = np.flatnonzero((lab == np.bincount(lab).argmax()) & (np.diff(g.indptr) > 0))
    return np.random.default_rng(seed).choice(cand, k, replace=False).astype(np.int32)


def many_source_bfs(be, scale, k):
    src, dst, n = generators.rmat_edges(scale, seed=1)
    g = Graph.from_edges(src, dst, directed=False, num_vertices=n)
    ids = giant_sources(g, k, 0)
    hg = be.device_graph(g)
    depth = cp.empty((n, k), np.int32)
    traverse(be, hg, ids, depth, -1)                       # warm-up (kernels compiled)
    _, plain_ms = wall(lambda: traverse(be, hg, ids, depth, -1))
    levels = []
    strat = be.bfs_strategy
    real_level = strat.bits_level
    with KernelClock() as clock:
        def level(hg_, st, depth_, lv):
            active = int(cp.count_nonzero(st["amask"]))      # vertices with a frontier bit
            pushed = strat.counters.get("push_levels", 0)
            a = clock.mark()
            cp.cuda.runtime.deviceSynchronize()
            t = time.perf_counter()
            more = real_level(hg_, st, depth_, lv)
            cp.cuda.runtime.deviceSynchronize()
            ms = 1000 * (time.perf_counter() - t)
            W = st["seen"].shape[1]
            direction = "push" if strat.counters.get("push_levels", 0) > pushed else "pull"
            floor = (hg.in_src.nbytes + hg.in_dst.nbytes if direction == "pull" else 0) + 3 * n * W * 8
            kern = clock.by_kernel(a)
            levels.append({"level": lv, "direction": direction, "frontier_vertices": active, "wall_ms": round(ms, 4),
                           "kernel_ms": round(sum(v[1] for v in kern.values()), 4), "kernels": kern,
                           "floor_bytes": floor, "floor_GBps": round(floor / ms / 1e6, 1)})
            return more
        strat.bits_level = level
        try:
            _, clocked_ms = wall(lambda: traverse(be, hg, ids, depth, -1))
        finally:
            strat.bits_level = real_level
        total_kernels = clock.by_kernel()
    # the same sources as batches of fewer sources (fewer frontier words a vertex: rows that
    # stay in L2), one after another, each into its own (n, group) block
    by_group = {}
    for group in (128, 256, 512):
        blocks = [cp.empty((n, group), np.int32) for _ in range(k // group)]

        def run(blocks=blocks, group=group):
            for i, b in enumerate(blocks):
                traverse(be, hg, ids[i * group:(i + 1) * group], b, -1)
        run()
        by_group[group] = round(min(wall(run)[1] for _ in range(3)), 3)
        blocks = None
    deg = cp.asarray(np.diff(g.indptr).astype(np.int64))
    arcs = int(((depth >= 0).sum(axis=1) * deg).sum())      # arcs of the reached vertices, over sources
    return {"work": f"BFS, {k:,} sources, R-MAT {scale} undirected", "n": n, "arcs": len(g.indices),
            "engine_ms": round(plain_ms, 3), "gteps": round(arcs / plain_ms / 1e6, 1),
            "clocked_ms": round(clocked_ms, 3), "ms by sources a batch": {k: round(plain_ms, 3), **by_group},
            "levels": levels, "kernels": total_kernels,
            "peak_GBps": PEAK_BYTES_PER_S / 1e9}


def one_source(be, scale, n_sources):
    src, dst, n = generators.rmat_edges(scale, seed=2)
    w = (1.0 - np.random.default_rng(3).random(len(src))).astype(np.float32)
    g = Graph.from_edges(src, dst, w, directed=False, num_vertices=n)
    hg = be.device_graph(g)
    ids = np.random.default_rng(4).choice(np.flatnonzero(np.diff(g.indptr) > 0), 64, replace=False)[:n_sources]
    out = {}
    for what, run in (("bfs_one", lambda s: be.bfs_one(hg, int(s))),
                      ("sssp distances", lambda s: solve_batch(be, hg, np.array([s], np.int32), False)),
                      ("sssp distances + predecessors", lambda s: solve_batch(be, hg, np.array([s], np.int32), True))):
        run(ids[0])                                          # warm-up
        rows = []
        for s in ids.tolist():
            before = dict(be.stats)
            _, plain = wall(lambda: run(s))
            with KernelClock() as clock:
                _, clocked = wall(lambda: run(s))
                kern = clock.by_kernel()
            iters = be.stats.get("nf_iters", 0) - before.get("nf_iters", 0)
            rows.append({"source": int(s), "wall_ms": round(plain, 4), "clocked_ms": round(clocked, 4),
                         "kernel_ms": round(sum(v[1] for v in kern.values()), 4),
                         "launches": sum(v[0] for v in kern.values()), "nf_iters_two_runs": iters, "kernels": kern})
        med = sorted(rows, key=lambda r: r["wall_ms"])[len(rows) // 2]
        out[what] = {"median_wall_ms": med["wall_ms"], "median_source": med, "all": [
            {k: r[k] for k in ("source", "wall_ms", "kernel_ms", "launches")} for r in rows]}
    # near-far's bucket width: Delta = nf_delta_factor x 32 x mean weight / mean out-degree
    default = be.tuning.nf_delta_factor
    out["sssp distances by nf_delta_factor"] = sweep = {}
    for factor in (0.125, 0.25, 0.5, 1, 2, 4, 8, 16):
        be.tuning.nf_delta_factor = factor
        one = lambda s: solve_batch(be, hg, np.array([s], np.int32), False)  # noqa: E731
        one(ids[0])
        before = be.stats.get("nf_iters", 0)
        times = [wall(lambda: one(s))[1] for s in ids.tolist()]
        sweep[factor] = {"median_ms": round(float(np.median(times)), 4),
                         "iterations a source": (be.stats.get("nf_iters", 0) - before) / len(ids)}
    be.tuning.nf_delta_factor = default
    return {"work": f"one source, R-MAT {scale} undirected, weights in (0, 1]", "n": n, "arcs": len(g.indices),
            "nf_sync_every": be.tuning.nf_sync_every, **out}


def scc_calls(be, hg, clock=None) -> tuple[list, float]:
    """One run of scc_by_reachability with each of its primitive calls timed: ([{primitive
    (trim, bfs_one, propagate_max), call (its label), wall_ms (the device synchronised around
    it), and with `clock` (a KernelClock) its kernels' sweeps and kernel_ms}], the run's wall ms)."""
    calls = []
    real = {"trim": be.trim, "propagate_max": be.propagate_max, "bfs_one": be.bfs_one}
    labels = {"trim": "trim", "propagate_max": "propagate_max", "bfs_one": "pivot BFS"}

    def instrumented(primitive, fn):
        def call(*a, **kw):
            m = clock.mark() if clock is not None else 0
            cp.cuda.runtime.deviceSynchronize()
            t = time.perf_counter()
            r = fn(*a, **kw)
            cp.cuda.runtime.deviceSynchronize()
            row = {"primitive": primitive, "wall_ms": round(1000 * (time.perf_counter() - t), 4)}
            backward = kw.get("backward") or (primitive == "bfs_one" and len(a) > 2 and a[2])
            row["call"] = labels[primitive] + (" backward" if backward else "")
            if clock is not None:
                kern = clock.by_kernel(m)
                row["sweeps"] = sum(v[0] for k, v in kern.items()
                                    if k.startswith(("propagate_light", "bfs_top", "bfs_bottom", "trim_step")))
                row["kernel_ms"] = round(sum(v[1] for v in kern.values()), 4)
            calls.append(row)
            return r
        return call

    for name, fn in real.items():
        setattr(be, name, instrumented(name, fn))
    try:
        _, ms = wall(lambda: scc_by_reachability(be, hg))
    finally:
        for name in real:
            delattr(be, name)
    return calls, ms


def scc_phases(be, scale=None, dataset=None):
    if dataset:
        from curnet import datasets
        g = datasets.load(dataset)
        n = len(g)
    else:
        src, dst, n = generators.rmat_edges(scale, seed=2)
        g = Graph.from_edges(src, dst, directed=True, num_vertices=n)
    g.csc()
    hg = be.device_graph(g)
    scc_by_reachability(be, hg)                              # warm-up
    _, plain = wall(lambda: scc_by_reachability(be, hg))
    with KernelClock() as clock:
        calls, clocked = scc_calls(be, hg, clock)
        kern = clock.by_kernel()
    phases = collections.OrderedDict()
    for c in calls:
        p = phases.setdefault(c["call"], {"calls": 0, "sweeps": 0, "wall_ms": 0.0, "kernel_ms": 0.0})
        p["calls"] += 1
        p["sweeps"] += c["sweeps"]
        p["wall_ms"] = round(p["wall_ms"] + c["wall_ms"], 4)
        p["kernel_ms"] = round(p["kernel_ms"] + c["kernel_ms"], 4)
    return {"work": f"SCC, {dataset or f'R-MAT {scale}'} directed", "n": n, "arcs": len(g.indices), "engine_ms": round(plain, 3),
            "clocked_ms": round(clocked, 3), "phases": phases, "calls": calls, "kernels": kern}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench gpu-accounts", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", default=results.default_out("gpu_accounts.json"))
    ap.add_argument("--many-scale", type=int, default=20)
    ap.add_argument("--many-sources", type=int, default=1024)
    ap.add_argument("--one-scale", type=int, default=22)
    ap.add_argument("--one-sources", type=int, default=8)
    ap.add_argument("--scc-datasets", nargs="*", default=["mouseliver"], help="curnet.datasets names, SCC phases too")
    ap.add_argument("--only", default="many,one,scc", help="comma-separated parts: many, one, scc")
    args = ap.parse_args(argv)
    parts = args.only.split(",")
    be = get_backend("cuda")
    doc = {"device": be.describe(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if "many" in parts:
        doc["many_source_bfs"] = m = many_source_bfs(be, args.many_scale, args.many_sources)
        print(f"\n{m['work']}: engine {m['engine_ms']:.2f} ms ({m['gteps']:,.0f} GTEPS), with events {m['clocked_ms']:.2f} ms")
        print("ms by sources a batch:", json.dumps(m["ms by sources a batch"]))
        print(f"{'level':>5} {'dir':>4} {'frontier':>10} {'wall ms':>8} {'kernel ms':>9} {'floor MB':>9} {'GB/s':>7}  top kernel")
        for lv in m["levels"]:
            top = next(iter(lv["kernels"].items()), ("-", [0, 0]))
            print(f"{lv['level']:>5} {lv['direction']:>4} {lv['frontier_vertices']:>10,} {lv['wall_ms']:>8.3f} "
                  f"{lv['kernel_ms']:>9.3f} {lv['floor_bytes'] / 1e6:>9.1f} {lv['floor_GBps']:>7.0f}  {top[0]} {top[1][1]:.3f} ms")
    if "one" in parts:
        report_one_source(doc, one_source(be, args.one_scale, args.one_sources))
    if "scc" in parts:
        report_scc(doc, [scc_phases(be, args.one_scale)] + [scc_phases(be, dataset=d) for d in args.scc_datasets])
    parts = [{"row": k, "account": v} for k, v in doc.items() if k not in ("device", "date")]
    results.write(args.json, parts, device=doc["device"], date=doc["date"])


def report_one_source(doc, o):
    doc["one_source"] = o
    for what in ("bfs_one", "sssp distances", "sssp distances + predecessors"):
        r = o[what]["median_source"]
        print(f"\n{o['work']}, {what}: median {o[what]['median_wall_ms']:.2f} ms; its source: kernels "
              f"{r['kernel_ms']:.2f} ms in {r['launches']} launches (with events {r['clocked_ms']:.2f} ms)")
        for k, (c, ms) in list(r["kernels"].items())[:5]:
            print(f"    {k:<24} {c:>6} launches {ms:>8.3f} ms")
    print("sssp distances by nf_delta_factor:", json.dumps(o["sssp distances by nf_delta_factor"]))


def report_scc(doc, phases):
    doc["scc"] = phases
    for s in doc["scc"]:
        print(f"\n{s['work']}: engine {s['engine_ms']:.2f} ms, with events {s['clocked_ms']:.2f} ms "
              "(sweeps: label sweeps, or BFS levels)")
        for name, p in s["phases"].items():
            print(f"    {name:<26} {p['calls']:>4} calls {p['sweeps']:>5} sweeps {p['wall_ms']:>8.3f} ms wall "
                  f"{p['kernel_ms']:>8.3f} ms kernels")


if __name__ == "__main__":
    main()
