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
    levels) and kernel time;
  - issue 51's floors (`--only floors`, within `--budget` seconds): a launch's and a host
    round trip's fixed cost (costs); SCC of a small deep graph, its host round trips counted
    and each driver line timed (rounds); the one-source BFS and SSSP public calls split into
    host allocation, engine, copy back and Python, beside the copy's own floors (public);
    near-far iteration by iteration: queue, arcs scanned, kernel time (iterations); one batch
    of exact betweenness split into its joint BFS and its sweeps, a source at a time (brandes).
    With `--backend cpu` the parts that need no GPU run on the CPU backend (tests).
Kernel time comes from CUDA events around every launch (they add a few microseconds a
launch, so the wall times here are a little above the benchmark's); wall time minus kernel
time is the host's share: launches, synchronisations and Python between them.

    python -m bench gpu-accounts [--only many,one,scc] [--json OUT.json]
    python -m bench gpu-accounts --only floors --budget 80 --json OUT.json

The JSON (bench/rows.py's format): a row a part (many-source BFS, one source, SCC), its
account under "account".
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import importlib
import json
import sys
import time

import numpy as np

try:                                   # the issue-51 parts below also run on the CPU backend (tests)
    import cupy as cp
except ImportError:                    # pragma: no cover - a machine without CuPy
    cp = None

from curnet import generators
from curnet.algorithms.bfs import traverse
from curnet.algorithms.scc import scc_by_reachability
from curnet.algorithms.sssp import solve_batch
from curnet.backends import get_backend
from curnet.graph import Graph
from curnet.work import count_work

from . import rows as results
from .timing import cuda_sync, timed

PEAK_BYTES_PER_S = 3.35e12          # H100 SXM HBM3


def launch_module():
    """backends/cuda/launch.py, the module (not its launch()): imported only on a GPU run."""
    return importlib.import_module("curnet.backends.cuda.launch")


class KernelClock:
    """CUDA events around every kernel launched through backends/cuda/launch.py's `kernel`;
    given the backend, its near-far launches kernel by kernel meanwhile (no CUDA graph replays,
    whose kernels no event would time)."""

    def __init__(self, be=None):
        self.records = []
        self._module = launch_module()
        self._real = self._module.kernel
        self._tuning = be.tuning if be is not None else None

    def __enter__(self):
        real = self._real
        if self._tuning is not None:
            self._one_by_one = kernel_by_kernel(self._tuning)
            self._one_by_one.__enter__()

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
        self._module.kernel = timed_kernel
        return self

    def __exit__(self, *exc):
        self._module.kernel = self._real
        if self._tuning is not None:
            self._one_by_one.__exit__(*exc)

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


@contextlib.contextmanager
def kernel_by_kernel(tuning):
    """Near-far's iterations launched kernel by kernel meanwhile (no CUDA graph replays and no
    one-launch loop, whose kernels no event would time); the tuning restored after."""
    saved = tuning.nf_graph_after, tuning.nf_loop_max_arcs
    tuning.nf_graph_after, tuning.nf_loop_max_arcs = 10**9, 0
    try:
        yield
    finally:
        tuning.nf_graph_after, tuning.nf_loop_max_arcs = saved


@contextlib.contextmanager
def widths_as_given(be):
    """nf_delta_factor as the bucket width itself (NearFar.delta's doubling and halving by
    the batch's arcs off) while a sweep sets it; the tuning restored after."""
    t = be.tuning
    saved = t.nf_delta_factor, t.nf_wide_max_arcs, t.nf_narrow_min_arcs
    t.nf_wide_max_arcs, t.nf_narrow_min_arcs = 0, 1 << 62
    try:
        yield
    finally:
        t.nf_delta_factor, t.nf_wide_max_arcs, t.nf_narrow_min_arcs = saved


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
            with KernelClock(be) as clock:
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
    out["sssp distances by nf_delta_factor"] = sweep = {}
    with widths_as_given(be):
        for factor in (0.125, 0.25, 0.5, 1, 2, 4, 8, 16):
            be.tuning.nf_delta_factor = factor
            one = lambda s: solve_batch(be, hg, np.array([s], np.int32), False)  # noqa: E731
            one(ids[0])
            before = be.stats.get("nf_iters", 0)
            times = [wall(lambda: one(s))[1] for s in ids.tolist()]
            sweep[factor] = {"median_ms": round(float(np.median(times)), 4),
                             "iterations a source": (be.stats.get("nf_iters", 0) - before) / len(ids)}
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



# ---- issue 51: what the unmet rows' accounts still lacked ------------------------------------
# Each part below measures one of them; every time is a median over repeats, the device
# drained around what is timed. `--only floors` runs them all within `--budget` seconds (each
# part is skipped, with its reason in the JSON, when the time left is under its estimate).


class Split:
    """Wall time of named calls inside a run: each wrapped callable is timed with the device
    drained before and after it (`sync`), inclusive of wrapped calls inside it; `top` holds
    those not inside another wrapped call, so the run's wall time less their sum is the
    Python between them. Wrappers are instance (or module) attributes, removed on exit."""

    def __init__(self, sync, wraps):
        self.sync, self.wraps = sync or (lambda: None), wraps   # wraps: [(owner, attribute, label)]
        self.ms: dict = collections.defaultdict(float)
        self.calls: dict = collections.defaultdict(int)
        self.top: set = set()
        self._depth = 0
        self._undo: list = []

    def __enter__(self):
        for owner, attr, label in self.wraps:
            real = getattr(owner, attr)
            own = attr in getattr(owner, "__dict__", {})
            self._undo.append((owner, attr, real if own else None))
            setattr(owner, attr, self._timed(real, label))
        return self

    def __exit__(self, *exc):
        for owner, attr, real in reversed(self._undo):
            if real is None:
                delattr(owner, attr)
            else:
                setattr(owner, attr, real)
        self._undo = []

    def _timed(self, fn, label):
        def call(*a, **kw):
            self.sync()
            if self._depth == 0:
                self.top.add(label)
            self._depth += 1
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.sync()
                self.ms[label] += 1000 * (time.perf_counter() - t)
                self.calls[label] += 1
                self._depth -= 1
        return call


def split_medians(runs: list, order: list) -> dict:
    """{label: {ms (median over runs), calls}} in `order`, then "Python between them" (the
    run's wall less its top-level parts) and the run's wall ("total")."""
    out = {}
    for label in order:
        got = [r["ms"].get(label, 0.0) for r in runs]
        out[label] = {"ms": round(float(np.median(got)), 4), "calls": runs[-1]["calls"].get(label, 0)}
    out["Python between them"] = {"ms": round(float(np.median([r["wall"] - sum(r["ms"][k] for k in r["top"])
                                                                 for r in runs])), 4)}
    out["total"] = {"ms": round(float(np.median([r["wall"] for r in runs])), 4)}
    return out


def split_runs(fn, sync, wraps, reps: int) -> list:
    """`reps` runs of fn under a Split: [{ms, calls, top, wall}] (one warm run first)."""
    runs = []
    for i in range(reps + 1):
        with Split(sync, wraps) as sp:
            (sync or (lambda: None))()
            t = time.perf_counter()
            fn()
            (sync or (lambda: None))()
            wall = 1000 * (time.perf_counter() - t)
        if i:
            runs.append({"ms": dict(sp.ms), "calls": dict(sp.calls), "top": set(sp.top), "wall": wall})
    return runs


def median_call_ms(fn, sync, reps: int) -> float:
    """fn's median wall ms over `reps` calls after one warm call."""
    return round(timed(fn, reps, 1, sync, keep=False)[1].median * 1e3, 4)


def fixed_costs(be) -> dict:
    """What a launch and a host round trip cost on this GPU, apart from any work: an empty
    kernel's host-side launch (Python and CuPy, no wait), its time on the device back to back
    (events around 200 launches, a 1-block grid and the grids the loops use), and a round trip
    (a 1-block launch, then its one word read by the host)."""
    mod = cp.RawModule(code='extern "C" __global__ void bench_empty(int* x, int write) '
                            '{ if (write && blockIdx.x == 0 && threadIdx.x == 0) x[0] += 1; }')
    k = mod.get_function("bench_empty")
    x = cp.zeros(1, np.int32)
    k((1,), (256,), (x, np.int32(0)))
    cp.cuda.runtime.deviceSynchronize()
    out: dict = {}
    launches = 2000
    t = time.perf_counter()
    for _ in range(launches):
        k((1,), (256,), (x, np.int32(0)))
    out["host us a launch (no wait)"] = round(1e6 * (time.perf_counter() - t) / launches, 3)
    cp.cuda.runtime.deviceSynchronize()
    for blocks in (1, be.max_blocks, 2 * be.max_blocks):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(200):
            k((blocks,), (256,), (x, np.int32(0)))
        end.record()
        end.synchronize()
        out[f"device us a launch, {blocks} blocks of 256 (back to back)"] = round(
            1e3 * cp.cuda.get_elapsed_time(start, end) / 200, 3)
    trips = []
    for _ in range(300):
        t = time.perf_counter()
        k((1,), (32,), (x, np.int32(1)))
        int(x[0])
        trips.append(time.perf_counter() - t)
    out["us a round trip (launch, then read one word)"] = round(1e6 * float(np.median(trips)), 3)
    syncs = []
    for _ in range(300):
        t = time.perf_counter()
        cp.cuda.runtime.deviceSynchronize()
        syncs.append(time.perf_counter() - t)
    out["us a synchronisation of an idle device"] = round(1e6 * float(np.median(syncs)), 3)
    return out


def copy_floors(be, n: int, reps: int) -> dict:
    """An n-entry int32 result (the one-source rows' output) from the device to the host: into
    a fresh pageable NumPy array each time (its pages fault in during the copy), into one reused
    array, and into pinned memory (the link's own rate; a public call's small result); and what
    pinning such a result afresh costs (CuPy's pinned pool emptied first)."""
    import cupyx
    from curnet.backends.cuda.transfers import get_into
    block = cp.arange(n, dtype=np.int32).reshape(n, 1)   # the public call's (n, 1) device block
    kept = np.zeros((1, n), np.int32, order="F")
    pinned_mem = cp.cuda.alloc_pinned_memory(block.nbytes)
    pinned = np.frombuffer(pinned_mem, np.int32, n)
    sync = cuda_sync
    out = {"bytes": int(block.nbytes)}
    def pinned_afresh():
        cp.get_default_pinned_memory_pool().free_all_blocks()
        cupyx.empty_pinned((1, n), np.int32, order="F")

    out["pinned (1, n) int32 allocated afresh (pool emptied), ms"] = median_call_ms(pinned_afresh, None, reps)
    for what, fn in (("fresh host array (the route before pinned results)",
                      lambda: get_into(block, np.empty((1, n), np.int32, order="F").T, be.tuning)),
                     ("one reused host array", lambda: get_into(block, kept.T, be.tuning)),
                     ("pinned host memory", lambda: block.ravel().get(out=pinned))):
        ms = median_call_ms(fn, sync, reps)
        out[what] = {"ms": ms, "GB/s": round(block.nbytes / ms / 1e6, 1)}
    return out


def public_calls(be, backend: str, g, ids, reps: int) -> dict:
    """The one-source rows' public calls (curnet.bfs and curnet.sssp_dists on one source,
    (1, n) host arrays back) split: the engine (bfs_one / solve_batch), the host result's
    allocation, the device block's, the sources' check, the graph's lookup, the copy back and
    the Python between them; with the public call again into a caller's reused `out` array,
    and the engine alone, medians over the sources. On the GPU the BFS engine's levels
    too (bfs_one_loop's clock stamps: the kernel's span and each level's)."""
    import curnet
    from curnet.algorithms import bfs as bfs_mod, sssp as sssp_mod
    sync = cuda_sync if backend.startswith("cuda") else None
    dev = be.members[0]
    hg = dev.device_graph(g)
    n = len(g)
    common = [(dev, "device_graph", "graph lookup (device_graph)")]
    rows = {
        "bfs": {"public": lambda s: curnet.bfs(g, [s], backend=backend),
                "into out": lambda s, out: curnet.bfs(g, [s], backend=backend, out=out),
                "engine": lambda s: dev.bfs_one(hg, int(s)), "dtype": np.int32,
                "wraps": [(bfs_mod, "resolve_sources", "sources checked (resolve_sources)"),
                          (bfs_mod, "result_buffer", "host result allocated (result_buffer)"),
                          (dev, "output_block", "device block allocated (output_block)"),
                          (bfs_mod, "traverse", "traverse: engine, into the block's column"),
                          (dev, "bfs_one", "engine (bfs_one)"),
                          (dev, "finish_block", "copy to host (finish_block)")] + common},
        "sssp distances": {
            "public": lambda s: curnet.sssp_dists(g, [s], backend=backend),
            "into out": lambda s, out: curnet.sssp_dists(g, [s], backend=backend, out=out),
            "engine": lambda s: sssp_mod.solve_batch(dev, hg, np.array([s], np.int32), False),
            "dtype": g.weight_dtype,
            "wraps": [(sssp_mod, "resolve_sources", "sources checked (resolve_sources)"),
                      (sssp_mod, "result_buffer", "host result allocated (result_buffer)"),
                      (dev, "sssp_method", "method chosen (sssp_method)"),
                      (dev, "sssp_batch_size", "batch size (sssp_batch_size)"),
                      (sssp_mod, "solve_batch", "engine (solve_batch)"),
                      (dev, "copy_to_host", "copy to host (copy_to_host)")] + common}}
    out: dict = {"n": n, "arcs": g.num_arcs, "sources": [int(s) for s in ids]}
    pinned_max = getattr(getattr(dev, "tuning", None), "pinned_result_max", 0)   # a GPU: pinned results
    for what, r in rows.items():
        engine, public, into, pageable, splits = [], [], [], [], []
        out_buf = np.zeros((1, n), r["dtype"], order="F")
        for s in ids.tolist():
            engine.append(median_call_ms(lambda: r["engine"](s), sync, reps))
            public.append(median_call_ms(lambda: r["public"](s), sync, reps))
            into.append(median_call_ms(lambda: r["into out"](s, out_buf), sync, reps))
            if pinned_max:
                dev.tuning.pinned_result_max = 0          # the route before pinned results
                pageable.append(median_call_ms(lambda: r["public"](s), sync, reps))
                dev.tuning.pinned_result_max = pinned_max
            splits.append(split_medians(split_runs(lambda: r["public"](s), sync, r["wraps"], reps),
                                        [w[2] for w in r["wraps"]]))
        if pinned_max:
            # warm, but with the pinned pool emptied: this call pins its result's memory afresh
            gc.collect()
            cp.get_default_pinned_memory_pool().free_all_blocks()
            t0 = time.perf_counter()
            r["public"](int(ids[0]))
            cuda_sync()
            fresh = round((time.perf_counter() - t0) * 1e3, 4)
        mid = int(np.argsort(public)[len(public) // 2])
        out[what] = {"engine median ms": round(float(np.median(engine)), 4),
                     "public median ms": round(float(np.median(public)), 4),
                     "public into a reused out, median ms": round(float(np.median(into)), 4),
                     **({"public into a new pageable result, median ms": round(float(np.median(pageable)), 4),
                         "public, first source, its result pinned afresh (pool emptied), ms": fresh}
                        if pinned_max else {}),
                     "median source": int(ids[mid]), "its split (device drained around each part)": splits[mid],
                     "by source": [{"source": int(s), "engine ms": e, "public ms": p, "into out ms": o}
                                   for s, e, p, o in zip(ids.tolist(), engine, public, into)]}
    if backend.startswith("cuda"):
        out["bfs"]["engine levels"] = bfs_levels(dev, hg, ids, reps)
    return out


def bfs_account(be, hg, ids, reps: int) -> dict:
    """Where a one-source BFS's time goes, medians over the sources: the wall time of the call,
    the loop kernel's own span and each level's (the kernel's clock stamps), the rest
    (allocation, launch, the wait and the result's read) being the host's share."""
    from curnet.backends.cuda.launch import resident    # CuPy's: this account runs on a GPU only
    long_levels = be.tuning.long_levels
    stamps = cp.zeros(long_levels + 1, np.uint64)
    walls, spans, levels = [], [], []
    for s in ids.tolist():
        for _ in range(reps):
            stamps.fill(0)
            depth, t = timed(lambda: be.bfs_strategy.bfs_one_loop(hg, int(s), stamps=stamps), sync=cuda_sync)
            walls.append(t.median * 1e3)
            st = cp.asnumpy(stamps)[:int(depth.max()) + 2].astype(np.int64)
            spans.append((st[-1] - st[0]) / 1e6)
            levels.append(np.diff(st) / 1e6)
    depth_counts = {len(x) for x in levels}
    per_level = ([round(float(np.median([x[i] for x in levels])), 4) for i in range(min(depth_counts))]
                 if levels else [])
    return {"wall ms": round(float(np.median(walls)), 4), "kernel levels ms": round(float(np.median(spans)), 4),
            "host ms": round(float(np.median(walls) - np.median(spans)), 4), "per level ms": per_level,
            "resident blocks": resident("bfs", "bfs_one_loop")}


def bfs_levels(be, hg, ids, reps: int) -> dict:
    """bfs_one_loop's clock stamps (bfs_account): the kernel's span, each level's,
    the host's share of the engine call, with the levels' directions (push, pull)."""
    before = dict(be.stats)
    acc = bfs_account(be, hg, ids, reps)
    calls = max(1, be.stats.get("bfs_one_loop_launches", 0) - before.get("bfs_one_loop_launches", 0))
    for key in ("bfs_one_levels", "bfs_one_push_levels", "bfs_one_pull_levels"):
        acc[key.replace("bfs_one_", "") + " a search"] = round(
            (be.stats.get(key, 0) - before.get(key, 0)) / calls, 2)
    return acc


def near_far_iterations(be, hg, source: int) -> dict:
    """One near-far search iteration by iteration (a run of its own, the host reading the
    queue counts before each relaxation, so its wall time is not the engine's): the entries
    queued (light, heavy), the arcs they read (light rows whole, heavy entries' ranges), whether it settles
    (relaxes the arcs landing past the threshold) or not, the threshold, and each kernel's
    device time (CUDA events); and the arcs offered a distance over the search (the device's
    count, `sssp near-far arc relaxations`). Then a least-squares line through the relaxation
    kernel's time against its arcs: ms = fixed + per_arc x arcs, which splits the search's
    kernel time into a part a persistent kernel could not save (the arcs) and one it might
    (the iterations' fixed part). Its kernels run one by one (kernel_by_kernel), so
    each is timed; the iteration's number, on the device, is counted here by its first kernel."""
    module = launch_module()
    real = module.kernel
    iters: dict = collections.defaultdict(lambda: {"kernels ms": {}})
    events = []
    stems = ("nf_heavy_ranges", "nf_heavy_scan", "nf_far_min", "nf_far_gather", "nf_relax")
    running, last = [-1], [""]

    def counting(mod, name, cooperative=False):
        k = real(mod, name, cooperative)

        def call(grid, block, args, **kw):
            stem = next((p for p in stems if name.startswith(p)), None)
            # an iteration begins with nf_heavy_ranges, or nf_heavy_scan where no ranges came before it
            running[0] += stem == "nf_heavy_ranges" or (stem == "nf_heavy_scan" and last[0] != "nf_heavy_ranges")
            last[0] = stem or ""
            it = running[0] if stem else -1
            if stem == "nf_relax":
                c = args[5].get()
                settle = bool(c[6 + (it & 1)])      # kernels/sssp.cu NF_MODE, NF_SETTLE
                slot = 8 if settle else it % 3
                light, heavy = int(c[slot]), int(c[3 + slot])
                n, ptr = int(args[7]), args[8]
                lq = (args[17] if settle else args[0])[:light] % n
                # light rows whole (their lanes stop at the threshold), heavy entries' ranges
                arcs = int((ptr[lq + 1] - ptr[lq]).sum()) if light else 0
                arcs += int(args[4][heavy - 1]) if heavy else 0
                iters[it].update({"light entries": light, "heavy entries": heavy, "arcs": arcs,
                                  "settle": settle, "threshold": float(args[6][it & 1])})
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            k(grid, block, args, **kw)
            end.record()
            events.append((it, name, start, end))
        call.kernel = k.kernel
        return call

    solve_batch(be, hg, np.array([source], np.int32), False)          # warm
    module.kernel = counting
    try:
        with kernel_by_kernel(be.tuning), count_work() as work:
            solve_batch(be, hg, np.array([source], np.int32), False)
    finally:
        module.kernel = real
    cp.cuda.runtime.deviceSynchronize()
    for it, name, s, e in events:
        ms = cp.cuda.get_elapsed_time(s, e)
        row = iters[it]["kernels ms"]
        row[name] = round(row.get(name, 0.0) + ms, 4)
    rows = [{"iteration": it, **iters[it], "kernel ms": round(sum(iters[it]["kernels ms"].values()), 4)}
            for it in sorted(iters) if it >= 0]
    relax = [(r["arcs"], next((v for k, v in r["kernels ms"].items() if k.startswith("nf_relax")), 0.0))
             for r in rows if "arcs" in r]
    arcs = np.array([a for a, _ in relax], np.float64)
    ms = np.array([t for _, t in relax], np.float64)
    fit = np.polyfit(arcs, ms, 1) if len(relax) > 2 and arcs.std() > 0 else [float("nan"), float("nan")]
    total_arcs = int(arcs.sum())
    return {"source": int(source), "iterations": len(rows), "launches": len(events),
            "arcs scanned": total_arcs, "arcs scanned / arcs": round(total_arcs / max(hg.m, 1), 3),
            "settle iterations": sum(bool(r.get("settle")) for r in rows),
            "arcs relaxed / arcs": round(work["sssp near-far arc relaxations"] / max(hg.m, 1), 3),
            "kernel ms": round(sum(r["kernel ms"] for r in rows), 4),
            "relax kernel ms": round(float(ms.sum()), 4),
            "relax fit: fixed ms an iteration": round(float(fit[1]), 5),
            "relax fit: ns an arc": round(float(fit[0]) * 1e6, 4),
            "relax ms at the fit's rate, each arc once": round(float(fit[0]) * hg.m, 4),
            "by iteration": rows}


def near_far_phases(be, hg, ids, reps: int = 3) -> dict:
    """One-source near-far searches in one launch (NearFar.run's stamps, kernels/sssp.cu
    nf_loop), medians over the sources: the wall time, the kernel's span, and its iterations
    split by phase (the heavy scan, the relaxation, the far phases where a bucket ends, the step
    to the next iteration), with the relaxation's time in iterations of few entries (at most
    `few`: what an iteration costs when it has almost nothing to do) and of the rest."""
    from curnet.backends.cuda.near_far import NF_STAMPS    # CuPy's: this account runs on a GPU only
    few = 256
    stamps = cp.zeros(NF_STAMPS * be.tuning.nf_max_iters, np.uint64)
    rows = []
    for s in ids.tolist():
        one = np.array([s], np.int32)
        be.nf_strategy.run(hg, one, False, stamps=stamps)                 # warm
        for _ in range(reps):
            stamps.fill(0)
            _, t = timed(lambda: be.nf_strategy.run(hg, one, False, stamps=stamps), sync=cuda_sync)
            st = cp.asnumpy(stamps).reshape(-1, NF_STAMPS).astype(np.int64)
            st = st[st[:, 0] != 0]
            begin, relax0, relax1, end, light, heavy, settles, bucket_end = st.T
            entries = light + heavy
            relax = (relax1 - relax0) / 1e3                                  # µs
            small = entries <= few
            rows.append({"source": int(s), "wall ms": t.median * 1e3, "span ms": (end[-1] - begin[0]) / 1e6,
                         "iterations": len(st), "settle iterations": int(settles.sum()),
                         "bucket ends": int(bucket_end.sum()),
                         "scan ms": float((relax0 - begin).sum()) / 1e6, "relax ms": float(relax.sum()) / 1e3,
                         "far ms": float((end - relax1).sum()) / 1e6,
                         "between iterations ms": float((begin[1:] - end[:-1]).sum()) / 1e6,
                         f"iterations of at most {few} entries": int(small.sum()),
                         "few-entry relax µs median": float(np.median(relax[small])) if small.any() else None,
                         "few-entry relax ms": float(relax[small].sum()) / 1e3,
                         "other relax µs median": float(np.median(relax[~small])) if (~small).any() else None,
                         "entries": int(entries.sum())})
    keys = [k for k in rows[0] if k != "source"]
    med = {k: round(float(np.median([r[k] for r in rows if r[k] is not None])), 4)
           if any(r[k] is not None for r in rows) else None for k in keys}
    return {"median": med, "by run": rows}


def redundancy_by_width(be, hg, source: int, factors=(0.0625, 0.125, 0.25, 0.5, 1.0, 2.0)) -> list:
    """near-far's redundant work against its iterations as the bucket width (nf_delta_factor)
    varies, on one source: a narrower bucket scans fewer arcs again but takes more iterations,
    each with a fixed cost; whether some width reaches the row's target is read off here."""
    rows = []
    with widths_as_given(be):
        for factor in factors:
            be.tuning.nf_delta_factor = factor
            it = near_far_iterations(be, hg, source)
            one = lambda: solve_batch(be, hg, np.array([source], np.int32), False)  # noqa: E731
            rows.append({"nf_delta_factor": factor, "wall ms": round(wall(one)[1], 4),
                         **{k: it[k] for k in ("iterations", "settle iterations", "launches",
                                               "arcs scanned / arcs", "arcs relaxed / arcs", "kernel ms",
                                               "relax kernel ms", "relax fit: fixed ms an iteration",
                                               "relax fit: ns an arc")}})
    return rows


def batches_by_width(be, scale: int, factors=(0.125, 0.25, 0.5, 1.0), sizes=(1, 32, 256, 1024)) -> dict:
    """Near-far's wall time a batch against its bucket width (nf_delta_factor) and the batch's
    sources, on R-MAT `scale`, weights in (0, 1]: whether a narrower width, faster for one
    source on R-MAT 22, also serves the batched runs (many-source distances, weighted
    betweenness). At most 1,024 sources: the public calls' batches keep k x n under 2^31
    (`batch_size`), which R-MAT 20 reaches at 2,048."""
    rng = np.random.default_rng(5)
    out: dict = {}
    with widths_as_given(be):
        for name, g in ((f"R-MAT {scale}", generators.rmat(scale, seed=2, weighted=True)),):
            hg = be.device_graph(g)
            has_arcs = np.flatnonzero(np.diff(g.indptr) > 0)
            rows = out[name] = {}
            for k in sizes:
                ids = rng.choice(has_arcs, k, replace=False).astype(np.int32)
                for factor in factors:
                    be.tuning.nf_delta_factor = factor
                    solve_batch(be, hg, ids, False)
                    rows.setdefault(f"{k} sources", {})[factor] = ms = round(
                        wall(lambda: solve_batch(be, hg, ids, False))[1], 3)
                    print(f"widths: {name}, {k} sources, nf_delta_factor {factor}: {ms} ms", flush=True)
    return {"ms a batch by sources, then nf_delta_factor": out}


class LineClock:
    """Each line of the given functions timed with the device drained at every line (so a
    line's time is its own work, host and device): {(function, line): [runs, ms]}, inclusive
    of the calls it makes. The drain and the tracer add a few microseconds a line; `empty`
    measures that on a function of empty statements."""

    def __init__(self, functions, sync):
        self.codes = {f.__code__: f.__qualname__ for f in functions}
        self.sync = sync or (lambda: None)
        self.lines: dict = collections.defaultdict(lambda: [0, 0.0])
        self._open: dict = {}                     # frame -> (line, its start)

    def __enter__(self):
        self._before = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._before)

    def _call(self, frame, event, arg):
        return self._line if frame.f_code in self.codes else None

    def _line(self, frame, event, arg):
        if event in ("line", "return"):
            self.sync()
            now = time.perf_counter()
            prev = self._open.pop(frame, None)
            if prev is not None:
                cell = self.lines[(self.codes[frame.f_code], prev[0])]
                cell[0] += 1
                cell[1] += 1000 * (now - prev[1])
            if event == "line":
                self._open[frame] = (frame.f_lineno, time.perf_counter())
        return self._line


def _empty_lines():
    a = 0
    a += 1
    a += 1
    a += 1
    return a


def scc_round_trips(be, backend: str, g, reps: int) -> dict:
    """SCC by reachability (the engine: labels left on the device) on a small deep graph: its
    host round trips counted (each primitive call ends in one host read, be.any is one, the
    pivot's argmax one), its primitives' times and each line of the driver (LineClock, device
    drained at every line), medians over `reps` runs; and the public call (curnet.scc:
    canonical labels to the host)."""
    import inspect
    import curnet
    from curnet.algorithms import scc as scc_mod
    sync = cuda_sync if backend.startswith("cuda") else None
    dev = be.members[0]
    hg = dev.device_graph(g)
    engine = median_call_ms(lambda: scc_by_reachability(dev, hg), sync, reps)
    public = median_call_ms(lambda: curnet.scc(g, backend=backend), sync, reps)
    wraps = [(dev, "trim", "trim"), (dev, "bfs_one", "pivot search (bfs_one)"),
             (dev, "propagate_max", "propagate_max"), (dev, "any", "any (host read)")]
    split = split_medians(split_runs(lambda: scc_by_reachability(dev, hg), sync, wraps, reps),
                          [w[2] for w in wraps])
    pivot_reads = 1 if split["pivot search (bfs_one)"]["calls"] else 0
    trips = sum(split[w[2]]["calls"] for w in wraps) + pivot_reads
    funcs = [scc_mod.scc_by_reachability, scc_mod._trim]
    source = {f.__qualname__: dict(zip(range(inspect.getsourcelines(f)[1], 10**6),
                                       (x.strip() for x in inspect.getsourcelines(f)[0]))) for f in funcs}
    runs = []
    for _ in range(reps):
        with LineClock(funcs, sync) as clock:
            scc_by_reachability(dev, hg)
        runs.append(dict(clock.lines))
    with LineClock([_empty_lines], sync) as empty:
        for _ in range(50):
            _empty_lines()
    per_line = sum(v[1] for v in empty.lines.values()) / max(1, sum(v[0] for v in empty.lines.values()))
    lines = []
    for key in runs[-1]:
        fn, line = key
        lines.append({"function": fn, "line": line, "source": source[fn].get(line, ""),
                      "runs": runs[-1][key][0],
                      "ms": round(float(np.median([r.get(key, [0, 0.0])[1] for r in runs])), 4)})
    lines.sort(key=lambda x: (x["function"] != "scc_by_reachability", x["line"]))
    return {"n": len(g), "arcs": g.num_arcs, "engine median ms": engine, "public median ms": public,
            "host round trips a run": trips, "split (device drained around each part)": split,
            "tracer's own ms a line": round(per_line, 5), "lines (median ms, device drained each line)": lines}


def brandes_batch(be, backend: str, scale: int, reps: int, positions=(0.5,)) -> dict:
    """Exact betweenness of R-MAT `scale` (generators.rmat(scale, seed=0), the exact row's
    graph) per source: a batch of the exact run's columns (leaves folded, the graph less its
    leaves, breadth-first order, as the driver; twins not folded) at each `position` of the
    run, split into its joint BFS (traverse: the many-source BFS's engine, an int32 block), the
    levels' narrowing to int8, the level index, and the sigma and delta sweeps
    (dependencies); microseconds a source against the BFS's, and the exact run projected
    from them (columns x us a source)."""
    from curnet.algorithms.betweenness import sweeps
    from curnet.algorithms.betweenness.graph_reductions import (fold_leaf_sources, renumbering, with_arcs_only,
                                                                without_leaves)
    from curnet.algorithms.betweenness.source_order import near_sources_together
    sync = cuda_sync if backend.startswith("cuda") else None
    dev = be.members[0]
    t = time.perf_counter()
    g, _ = with_arcs_only(generators.rmat(scale, seed=0))
    every = np.flatnonzero(np.diff(g.indptr) > 0).astype(np.int32)
    columns = fold_leaf_sources(g, every, None)[0]
    rows = renumbering(without_leaves(g)[1], len(g))
    core = without_leaves(g)[0]
    order = near_sources_together(core, rows[columns], dev)
    hg = dev.device_graph(core)
    kb = dev.bc_batch_size(len(core), len(order), False)
    out: dict = {"graph": f"R-MAT {scale} (seed 0) less isolated vertices and leaves", "n": len(core),
                 "arcs": core.num_arcs, "columns": len(order), "batch": kb,
                 "host preparation s": round(time.perf_counter() - t, 2), "batches": []}
    weight = dev.xp.ones(len(core))
    wraps = [(sweeps, "traverse", "joint BFS (traverse)"), (sweeps, "narrow", "levels to int8 (narrow)"),
             (dev, "bc_level_index", "level index (bc_level_index)")]
    for pos in positions:
        first = min(max(0, int(len(order) * pos) - kb // 2), max(0, len(order) - kb))
        ids = order[first:first + kb].astype(np.int32)

        def batch(ids=ids):
            dag = sweeps.shortest_path_dag(dev, hg, ids, False, None)
            sweeps.dependencies(dev, hg, ids, dag, weight, False, False)
        wraps_all = wraps + [(sweeps, "dependencies", "sigma and delta sweeps (dependencies)")]
        split = split_medians(split_runs(batch, sync, wraps_all, reps), [w[2] for w in wraps_all])
        whole = split["total"]["ms"]
        per = {k: round(1000 * v["ms"] / len(ids), 3) for k, v in split.items()}
        out["batches"].append({"position": pos, "sources": len(ids), "batch ms": whole,
                               "split (device drained around each part)": split, "us a source": per,
                               "exact run projected s": round(whole / 1000 * len(order) / len(ids), 2),
                               "its joint BFS alone projected s": round(
                                   split["joint BFS (traverse)"]["ms"] / 1000 * len(order) / len(ids), 2)})
    return out


FLOOR_PARTS = ("costs", "rounds", "public", "iterations", "brandes", "widths")
# a part's seconds at most on an H200, graph building included (it is skipped with less left);
# public and iterations share the one-source graph, R-MAT 22: ~30 s to build on the H200's host
# (peers_h200.log: 30.4 s)
PART_SECONDS = {"costs": 3, "rounds": 10, "public": 12, "iterations": 10, "brandes": 30, "widths": 60}
ONE_GRAPH_SECONDS = 35


def floors(args, be, doc, started, save) -> None:
    """The issue-51 parts asked for in args.only, in FLOOR_PARTS' order, each when the time
    left (args.budget) is at least its estimate; the document saved after each."""
    backend = args.backend
    gpu = backend.startswith("cuda")
    doc.setdefault("floors", {})
    one: dict = {}

    def one_graph():
        if "g" not in one:
            t = time.perf_counter()
            src, dst, n = generators.rmat_edges(args.one_scale, seed=2)
            w = (1.0 - np.random.default_rng(3).random(len(src))).astype(np.float32)
            one["g"] = g = Graph.from_edges(src, dst, w, directed=False, num_vertices=n)
            one["ids"] = np.random.default_rng(4).choice(np.flatnonzero(np.diff(g.indptr) > 0), 64,
                                                         replace=False)[:args.floor_sources]
            one["build s"] = round(time.perf_counter() - t, 2)
        return one["g"], one["ids"]

    for part in FLOOR_PARTS:
        if part not in args.parts:
            continue
        left = args.budget - (time.perf_counter() - started) if args.budget else float("inf")
        if not gpu and part in ("costs", "iterations", "widths"):
            doc["floors"][part] = {"skipped": "needs the CUDA backend"}
            continue
        need = PART_SECONDS[part] + (ONE_GRAPH_SECONDS if part in ("public", "iterations") and "g" not in one else 0)
        if left < need:
            doc["floors"][part] = {"skipped": f"{left:.0f} s left of the budget, the part needs ~{need} s"}
            continue
        t = time.perf_counter()
        try:                     # a part that fails leaves its error in the JSON; the others still run
            if part == "costs":
                got = fixed_costs(be)
            elif part == "rounds":
                from curnet import datasets
                if args.deep_dataset:
                    g = datasets.load(args.deep_dataset)
                else:
                    src, dst, n = generators.rmat_edges(args.one_scale, seed=2)
                    g = Graph.from_edges(src, dst, directed=True, num_vertices=n)
                g.csc()
                got = scc_round_trips(be, backend, g, args.floor_reps)
                got["graph"] = args.deep_dataset or f"R-MAT {args.one_scale} directed"
            elif part == "public":
                g, ids = one_graph()
                got = public_calls(be, backend, g, ids, args.floor_reps)
                got["graph built s"] = one["build s"]
                if gpu:
                    got["copy floors (n int32)"] = copy_floors(be, len(g), args.floor_reps)
            elif part == "iterations":
                g, ids = one_graph()
                dev = be.members[0]
                hg = dev.device_graph(g)
                got = near_far_iterations(dev, hg, int(ids[0]))
                got["by nf_delta_factor"] = redundancy_by_width(dev, hg, int(ids[0]))
            elif part == "brandes":
                got = brandes_batch(be, backend, args.brandes_scale, min(args.floor_reps, 3))
            else:
                got = batches_by_width(be.members[0], args.brandes_scale)
        except Exception as e:  # noqa: BLE001
            import traceback
            doc["floors"][part] = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-3000:]}
            print(f"{part}: FAILED {type(e).__name__}: {e}", flush=True)
            save()
            continue
        got["part s"] = round(time.perf_counter() - t, 2)
        doc["floors"][part] = got
        print(f"{part}: {json.dumps(summary_of(part, got))}", flush=True)
        save()


def summary_of(part: str, got: dict) -> dict:
    """The part's headline numbers (the whole part is in the JSON)."""
    if part == "public":
        return {w: {k: v for k, v in got[w].items() if k.endswith("median ms")} for w in ("bfs", "sssp distances")}
    if part == "iterations":
        return {k: v for k, v in got.items() if k != "by iteration"}
    if part == "rounds":
        return {k: got[k] for k in ("engine median ms", "public median ms", "host round trips a run")}
    if part == "brandes":
        return {"columns": got["columns"], "batch": got["batch"],
                "us a source": [b["us a source"] for b in got["batches"]],
                "projected s": [b["exact run projected s"] for b in got["batches"]]}
    return got

def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench gpu-accounts", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", default=results.default_out("gpu_accounts.json"))
    ap.add_argument("--backend", default="cuda", help="cuda; cpu runs the floors parts that need no GPU (tests)")
    ap.add_argument("--many-scale", type=int, default=20)
    ap.add_argument("--many-sources", type=int, default=1024)
    ap.add_argument("--one-scale", type=int, default=22)
    ap.add_argument("--one-sources", type=int, default=8)
    ap.add_argument("--scc-datasets", nargs="*", default=["mouseliver"], help="curnet.datasets names, SCC phases too")
    ap.add_argument("--only", default="many,one,scc",
                    help="comma-separated parts: many, one, scc; and issue 51's " + ", ".join(FLOOR_PARTS) +
                         " (floors: all five)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds for the floors parts: one is skipped when less is left than it needs")
    ap.add_argument("--floor-sources", type=int, default=4, help="sources of the public calls' split")
    ap.add_argument("--floor-reps", type=int, default=5, help="timed repeats in the floors parts")
    ap.add_argument("--deep-dataset", default="mouseliver", help="the small deep graph of the SCC round trips")
    ap.add_argument("--brandes-scale", type=int, default=20)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    parts = args.only.replace("floors", ",".join(FLOOR_PARTS)).split(",")
    args.parts = parts
    be = get_backend(args.backend)
    doc = {"device": be.describe(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}

    def save():
        rows = [{"row": k, "account": v} for k, v in doc.items() if k not in ("device", "date")]
        results.write(args.json, rows, quiet=True, device=doc["device"], date=doc["date"])
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
    if any(p in parts for p in FLOOR_PARTS):
        floors(args, be, doc, started, save)
    save()
    if args.json:
        print(f"wrote {args.json}")
    failed = [k for k, v in doc.get("floors", {}).items() if "error" in v]
    return 1 if failed else 0


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
    sys.exit(main())
