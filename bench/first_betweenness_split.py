"""Where a fresh process's first weighted betweenness spends its time, step by step, against a
second call in the same process and a first call on a second graph of the same shape.

    PYTHONPATH=python python bench/first_betweenness_split.py OUT.json [--backend cuda|cpu]
        [--n 7729] [--m 24280] [--profile]

The graph is bench/first_call_steps.R's `ppi` one: n vertices, m edges between uniformly drawn
ends (repeats and self-loops kept, as R's sample.int draws them), weights 0.1 + U(0, 1) in
float64 (R's precision), undirected; the call is R's cuRnet_betweenness's (weighted, directed
= TRUE on an undirected graph, no cutoff). Everything is measured from outside the package:

- the imports (NumPy, curnet, the betweenness analysis; CuPy and the CUDA context apart);
- every call into CuPy's compiler module (`cupy.cuda.compiler`): those that compile (a cache
  miss) counted and timed apart from those that load a kernel from the disk cache;
- each kernel of kernels/*.cu at its first use (`launch.kernel`: a module's first kernel
  loads the module);
- the driver's steps (the functions driver.py and sweeps.py call, the backend's betweenness
  methods), each timed with the device synchronised before and after;
- the shared libraries the process mapped during each step (cuBLAS, cuSPARSE, ...), and
  CuPy's memory pool.

`--profile` runs the first call under cProfile (its top functions in the JSON): slower, so
its times are not the plain run's.
"""
from __future__ import annotations

import argparse
import cProfile
import functools
import io
import json
import os
import pstats
import sys
import threading
import time
import traceback

T0 = time.perf_counter()
# The imports a first call was seen to pay for (cupyx's own package imports cupyx.linalg, which
# imports SciPy's sparse matrices; the leaf fold's components SciPy's csgraph; a product cuBLAS).
WATCHED = ("cupyx.linalg", "cupyx.scipy.special", "scipy.sparse", "scipy.sparse.csgraph",
           "cupy_backends.cuda.libs.cublas", "cupy.cuda.cub")


def mapped_libraries() -> set:
    """The shared libraries this process has mapped (Linux's /proc/self/maps)."""
    try:
        with open("/proc/self/maps") as f:
            return {line.split()[-1].rsplit("/", 1)[-1] for line in f if ".so" in line}
    except OSError:
        return set()


def modules_by_package(names) -> dict:
    """How many of the module `names` each top-level package has, most first."""
    counts: dict = {}
    for name in names:
        top = name.split(".")[0]
        counts[top] = counts.get(top, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


class FirstImports:
    """An import hook that records where each watched module is first imported: the stack
    of the import (the frames outside importlib), and the step that was running. It finds
    nothing itself, so every import goes on as it would."""

    def __init__(self, names):
        self.names = set(names)
        self.step = "start"
        self.seen: dict = {}

    def find_spec(self, name, path=None, target=None):
        if name in self.names and name not in self.seen:
            frames = [f for f in traceback.extract_stack()[:-1] if "importlib" not in f.filename
                      and not f.filename.startswith("<frozen")]
            self.seen[name] = {"step": self.step,
                               "stack": [f"{f.filename.split('site-packages/')[-1]}:{f.lineno} {f.name}"
                                         for f in frames[-14:]]}
        return None


class Split:
    """Times by name (inclusive, summed over calls), compiler calls, first kernel uses."""

    def __init__(self, sync):
        self.sync = sync
        self.steps: dict = {}
        self.compiler: dict = {}
        self.kernels: list = []
        self.lock = threading.Lock()
        self.depth = threading.local()

    def reset(self):
        self.steps, self.compiler, self.kernels = {}, {}, []

    def wrap_step(self, owner, name, label=None):
        """owner.name timed with the device synchronised around it."""
        original = getattr(owner, name)
        label = label or name

        @functools.wraps(original)
        def timed(*args, **kwargs):
            self.sync()
            t = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.sync()
                self._add(self.steps, label, time.perf_counter() - t)
        setattr(owner, name, timed)

    def wrap_compiler(self, compiler):
        """Every function of cupy.cuda.compiler with "compile" in its name: outermost calls
        timed by name (a compile passes through several of them)."""
        for name in dir(compiler):
            fn = getattr(compiler, name)
            if "compile" not in name or not callable(fn) or isinstance(fn, type):
                continue

            def make(fn, name):
                @functools.wraps(fn)
                def timed(*args, **kwargs):
                    depth = getattr(self.depth, "n", 0)
                    self.depth.n = depth + 1
                    t = time.perf_counter()
                    try:
                        return fn(*args, **kwargs)
                    finally:
                        self.depth.n = depth
                        self._add(self.compiler, name, time.perf_counter() - t,
                                  "outermost" if depth == 0 else "nested")
                return timed
            setattr(compiler, name, make(fn, name))

    def wrap_kernel_lookup(self, launch):
        """launch.kernel: the time of each (module, kernel, cooperative)'s first lookup (a
        module's first kernel loads, or compiles, the module)."""
        original = launch.kernel
        seen = set()

        @functools.wraps(original)
        def first_use(module, name, cooperative=False):
            key = (module, name, cooperative)
            if key in seen:
                return original(module, name, cooperative)
            t = time.perf_counter()
            fn = original(module, name, cooperative)
            seen.add(key)
            self.kernels.append({"module": module, "kernel": name, "cooperative": cooperative,
                                 "s": round(time.perf_counter() - t, 5)})
            return fn
        launch.kernel = first_use

    def _add(self, table, name, seconds, kind="calls"):
        with self.lock:
            row = table.setdefault(name, {"s": 0.0, "calls": 0})
            row["calls"] += 1
            row["s"] += seconds
            if kind != "calls":
                row[kind] = row.get(kind, 0) + 1
                if kind == "outermost":
                    row["outermost_s"] = row.get("outermost_s", 0.0) + seconds

    def table(self):
        return {"steps": {k: {"s": round(v["s"], 4), "calls": v["calls"]} for k, v in self.steps.items()},
                "compiler": {k: {kk: (round(vv, 4) if isinstance(vv, float) else vv) for kk, vv in v.items()}
                             for k, v in self.compiler.items()},
                "kernels_first_used": self.kernels}


def ppi_like(n: int, m: int, seed: int):
    import numpy as np
    from curnet.graph import Graph
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = 0.1 + rng.random(m)
    return Graph.from_edges(src, dst, w, directed=False, num_vertices=n, dtype=np.float64)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="the JSON written")
    ap.add_argument("--backend", default="cuda")
    ap.add_argument("--n", type=int, default=7729)
    ap.add_argument("--m", type=int, default=24280)
    ap.add_argument("--profile", action="store_true", help="the first call under cProfile")
    ap.add_argument("--watch", nargs="*", default=list(WATCHED),
                    help="modules whose first import is traced (where, in which step)")
    ap.add_argument("--preload", choices=("cublas",), action="append", default=[],
                    help="start a library before the first call, timed as a start step (what the "
                         "call would save without it)")
    args = ap.parse_args(argv)
    gpu = args.backend != "cpu"
    report: dict = {"backend": args.backend, "n": args.n, "m": args.m, "profile": args.profile,
                    "preload": args.preload,
                    "start": {}}
    libs = mapped_libraries()
    modules = set(sys.modules)
    first_imports = FirstImports(args.watch)
    sys.meta_path.insert(0, first_imports)

    def mark(label, t):
        nonlocal libs, modules
        took = time.perf_counter() - t
        now, now_modules = mapped_libraries(), set(sys.modules)
        report["start"][label] = {"s": round(took, 4), "libraries_mapped": sorted(now - libs),
                                  "modules_imported": modules_by_package(now_modules - modules)}
        libs, modules = now, now_modules
        first_imports.step = f"after {label}"
        return time.perf_counter()

    t = time.perf_counter()
    import numpy as np  # noqa: F401
    t = mark("import numpy", t)
    import curnet  # noqa: F401  (timed: the package alone)
    t = mark("import curnet", t)
    from curnet.analyses.betweenness_centrality import betweenness
    from curnet.backends import get_backend
    t = mark("import the betweenness analysis", t)
    sync = (lambda: None)
    if gpu:
        from curnet.backends import kernel_cache
        report["kernel_cache"] = kernel_cache.use()
        report["cached_kernel_files_before"] = kernel_cache.cached_kernels()
        import cupy as cp
        t = mark("import cupy", t)
        from cupy._core import _accelerator
        # cuTENSOR among CuPy's accelerators makes its elementwise and reduction routines
        # import cupyx (and with it SciPy's sparse matrices) at their first use
        report["cupy"] = {"version": cp.__version__, "CUPY_ACCELERATORS": os.environ.get("CUPY_ACCELERATORS"),
                          "elementwise_accelerators": list(_accelerator.get_elementwise_accelerators()),
                          "reduction_accelerators": list(_accelerator.get_reduction_accelerators()),
                          "routine_accelerators": list(_accelerator.get_routine_accelerators())}
        cp.zeros(1)
        cp.cuda.Device().synchronize()
        t = mark("the CUDA context (first allocation)", t)
        sync = cp.cuda.Device().synchronize
    split = Split(sync)
    if gpu:
        from cupy.cuda import compiler
        from curnet.backends.cuda import backend as cuda_backend
        from curnet.backends.cuda import launch
        split.wrap_compiler(compiler)
        split.wrap_kernel_lookup(launch)
        backend_class = cuda_backend.CUDABackend
    if "cublas" in args.preload and gpu:
        cp.cuda.device.get_cublas_handle()
        t = mark("preloaded: cuBLAS's handle", t)
        (cp.ones((64, 2)) @ cp.ones(2)).sum()
        sync()
        t = mark("preloaded: a first float64 matrix-vector product", t)
    be = get_backend(args.backend)
    t = mark(f"get_backend({args.backend!r})", t)
    if not gpu:
        backend_class = type(be)
    from curnet.algorithms.betweenness import driver, sweeps
    for name in ("with_arcs_only", "fold_leaf_sources", "without_leaves", "leaf_target_weights",
                 "components", "near_sources_together", "shortest_path_dag", "dependencies"):
        split.wrap_step(driver, name, f"driver.{name}")
    split.wrap_step(sweeps, "solve_batch", "sweeps.solve_batch (in shortest_path_dag)")
    for name in ("device_graph", "bc_batch_size", "bc_levels", "bc_sigma_level", "bc_delta_level"):
        if hasattr(backend_class, name):
            split.wrap_step(backend_class, name, f"backend.{name}")

    g = ppi_like(args.n, args.m, 1)
    t = mark("the graph (host)", t)

    calls = []
    for label, graph in (("first call", g), ("second call, same graph", g),
                         ("first call on a second graph", ppi_like(args.n, args.m, 2))):
        split.reset()
        before, modules_before = mapped_libraries(), set(sys.modules)
        first_imports.step = label
        pool = cp.get_default_memory_pool() if gpu else None
        pool_before = pool.total_bytes() if pool is not None else 0
        profiler = cProfile.Profile() if args.profile and label == "first call" else None
        sync()
        t = time.perf_counter()
        if profiler:
            profiler.enable()
        values = betweenness(graph, weighted=True, directed=True, cutoff=-1.0, backend=args.backend)
        sync()
        if profiler:
            profiler.disable()
        row = {"call": label, "s": round(time.perf_counter() - t, 4), "sum": float(values.sum()),
               "libraries_mapped": sorted(mapped_libraries() - before),
               "modules_imported": modules_by_package(set(sys.modules) - modules_before), **split.table()}
        if pool is not None:
            row["pool_grew_bytes"] = int(pool.total_bytes() - pool_before)
        if profiler:
            s = io.StringIO()
            stats = pstats.Stats(profiler, stream=s)
            stats.sort_stats("cumulative").print_stats(45)
            row["profile_cumulative"] = s.getvalue().splitlines()
            s = io.StringIO()
            stats = pstats.Stats(profiler, stream=s)
            stats.sort_stats("tottime").print_stats(30)
            row["profile_tottime"] = s.getvalue().splitlines()
        calls.append(row)
    report["calls"] = calls
    report["first_imports"] = first_imports.seen
    report["process_s"] = round(time.perf_counter() - T0, 4)
    if gpu:
        report["cached_kernel_files_after"] = kernel_cache.cached_kernels()
    print_table(report)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    return report


def print_table(report):
    print(f"# first weighted betweenness, {report['backend']}, {report['n']} vertices, {report['m']} edges")
    for label, row in report["start"].items():
        extra = f"  (+{', '.join(row['libraries_mapped'])})" if row["libraries_mapped"] else ""
        print(f"{label:<48} {1000 * row['s']:9.1f} ms{extra[:140]}")
    for call in report["calls"]:
        print(f"\n## {call['call']}: {1000 * call['s']:.1f} ms" +
              (f", pool grew {call['pool_grew_bytes'] / 2**20:.1f} MiB" if "pool_grew_bytes" in call else ""))
        if call["modules_imported"]:
            print("   modules imported, by package:",
                  ", ".join(f"{k} {v}" for k, v in call["modules_imported"].items()))
        for name, v in sorted(call["steps"].items(), key=lambda kv: -kv[1]["s"]):
            print(f"   {name:<52} {1000 * v['s']:9.1f} ms  x{v['calls']}")
        for name, v in call["compiler"].items():
            print(f"   cupy.cuda.compiler.{name:<33} {1000 * v['s']:9.1f} ms  x{v['calls']}"
                  f" (outermost {v.get('outermost', 0)}: {1000 * v.get('outermost_s', 0.0):.1f} ms)")
        if call["kernels_first_used"]:
            slow = sorted(call["kernels_first_used"], key=lambda k: -k["s"])
            total = sum(k["s"] for k in slow)
            print(f"   kernels of kernels/*.cu first used: {len(slow)}, {1000 * total:.1f} ms; slowest: " +
                  ", ".join(f"{k['module']}.{k['kernel']}{'*' if k['cooperative'] else ''} "
                            f"{1000 * k['s']:.1f}" for k in slow[:6]))
        if "profile_cumulative" in call:
            print("\n".join(call["profile_cumulative"][:70]))
    for name, seen in report["first_imports"].items():
        print(f"\nfirst import of {name} ({seen['step']}):")
        print("\n".join("   " + frame for frame in seen["stack"]))
    print(f"\nthe whole process: {1000 * report['process_s']:.0f} ms after the interpreter's start")


if __name__ == "__main__":
    main()
