"""A user's first call, in a fresh process: where the engine's start goes (each import and the
CUDA context, in ms), and the first call's wall time from Python and from R, on the CPU and
on a GPU; on a GPU with an empty kernel cache ("never ran cuRnet") and after `curnet
warm-up` ("ran before"), with the kernels each first call compiled.

    PYTHONPATH=python python bench/first_call.py [--backend cpu|cuda] [--repeat 3] [--r] [--out FILE]

Every row is a new process (python3 -c, or Rscript for R), so nothing is cached in memory;
the disk caches (the OS's page cache, Python's .pyc files, the kernel cache) are what a
machine that has run cuRnet before keeps. The timed code is the one a user types; R's rows
time `Rscript` from its start (R itself included) as igraph's row does. Results:
docs/first-call.md.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(os.path.dirname(HERE), "python")

# Each import of a start, in the order a first call takes them, timed in one fresh process.
START = r"""
import json, sys, time
rows = []
def step(label, code):
    t = time.perf_counter(); exec(code, globals()); rows.append((label, (time.perf_counter() - t) * 1e3))
step("import numpy", "import numpy")
step("import curnet (the package: NumPy and the graph)", "import curnet")
step("import curnet.bridge (R's entry: drivers, backends' resolution, pyarrow)", "import curnet.bridge")
step("import scipy.sparse.csgraph (the CPU backend's routes)", "import scipy.sparse.csgraph")
if sys.argv[1] == "cuda":
    step("import cupy", "import cupy")
    step("CUDA context (first allocation on the GPU)", "cupy.zeros(1); cupy.cuda.Device().synchronize()")
    step("the CUDA backend (get_backend('cuda'))", "curnet.backends.get_backend('cuda')")
for optional in ("dask.distributed", "networkx"):   # where installed (the GPU machine has no Dask)
    try:
        step(f"(not loaded by a first call) import {optional}", f"import {optional}")
    except ImportError:
        pass
print(json.dumps(rows))
"""

# The first calls, as a user types them; each prints its own seconds and the kernels it compiled.
PYTHON_CALL = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import curnet
backend, what = sys.argv[1], sys.argv[2]
count = files = None
if backend == "cuda":
    from curnet.backends import get_backend, kernel_cache
    get_backend("cuda")
    files = kernel_cache.cached_kernels()
    from curnet.backends.cuda.launch import counting_compiles
    counting = counting_compiles()
    tally = counting.__enter__()
if what == "bfs":        # a 2,000-vertex ring (CPU) or a 20,000-vertex graph (GPU)
    n = 2000 if backend == "cpu" else 20000
    rng = np.random.default_rng(0)
    src = np.arange(n) if backend == "cpu" else rng.integers(0, n, 5 * n)
    dst = (src + 1) % n if backend == "cpu" else rng.integers(0, n, 5 * n)
    g = curnet.Graph.from_edges(src, dst, directed=False, num_vertices=n)
    curnet.bfs(g, [0], backend=backend)
elif what == "betweenness":   # a PPI-sized graph: 7,729 vertices, 24,280 edges, weighted
    rng = np.random.default_rng(1)
    n, m = 7729, 24280
    g = curnet.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), 0.1 + rng.random(m),
                                directed=False, num_vertices=n, dtype=np.float64)
    curnet.betweenness(g, weighted=True, backend=backend)
if backend == "cuda":
    import cupy
    cupy.cuda.Device().synchronize()
    counting.__exit__(None, None, None)
    count, files = tally.count, kernel_cache.cached_kernels() - files
print(json.dumps({"seconds": time.perf_counter() - t0, "compiled": count, "cache_files_written": files}))
"""


def fresh(cmd, env=None, check=True) -> tuple[float, str]:
    """Run `cmd` in a new process: its wall seconds and stdout (its CPU seconds, user + system,
    in FRESH_CPU: on a shared machine they move less than the wall time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    took = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    FRESH_CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}... failed:\n{out.stderr[-3000:]}")
    return took, out.stdout


FRESH_CPU = [0.0]


def environment(cache: str | None) -> dict:
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if cache is not None:
        env["CURNET_KERNEL_CACHE"] = cache
    return env


def start_table(backend: str, env) -> list:
    _, out = fresh([sys.executable, "-c", START, backend], env)
    return json.loads(out.strip().splitlines()[-1])


def python_row(backend, what, env, repeat) -> dict:
    runs = []
    for _ in range(repeat):
        wall, out = fresh([sys.executable, "-c", PYTHON_CALL, backend, what], env)
        runs.append({"wall": wall, "cpu": FRESH_CPU[0], **json.loads(out.strip().splitlines()[-1])})
    return {"wall_median": statistics.median(r["wall"] for r in runs),
            "cpu_median": statistics.median(r["cpu"] for r in runs), "runs": runs}


def r_row(script_args, env, repeat) -> dict:
    runs = []
    for _ in range(repeat):
        wall, out = fresh(["Rscript", os.path.join(HERE, "first_call.R"), *script_args], env)
        runs.append({"wall": wall, "cpu": FRESH_CPU[0], "said": out.strip().splitlines()[-1:]})
    return {"wall_median": statistics.median(r["wall"] for r in runs),
            "cpu_median": statistics.median(r["cpu"] for r in runs), "runs": runs}


class Rows(dict):
    """The results, each row also printed as it comes (a run cut short keeps what it had)."""

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        print(f"row {key}: {json.dumps(value)}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--r", action="store_true", help="also R's rows (Rscript, cuRnet installed)")
    p.add_argument("--igraph", action="store_true", help="also R igraph's row (the same question)")
    p.add_argument("--out", help="write the rows as JSON here too")
    args = p.parse_args()
    rows = Rows(backend=args.backend, when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                cores=os.cpu_count())
    if args.backend == "cpu":
        env = environment(None)
        rows["start_ms"] = start_table("cpu", env)
        rows["python bfs ring 2000"] = python_row("cpu", "bfs", env, args.repeat)
        if args.r:
            rows["R bfs ring 2000"] = r_row(["cpu", "bfs"], env, args.repeat)
        if args.igraph:
            rows["R igraph distances ring 2000"] = r_row(["igraph", "bfs"], env, args.repeat)
    else:
        never = tempfile.mkdtemp(prefix="curnet-never-")
        warmed = tempfile.mkdtemp(prefix="curnet-warmed-")
        try:
            env_never, env_warm = environment(never), environment(warmed)
            # never ran cuRnet: an empty kernel cache for each first call
            for what in ("bfs", "betweenness"):
                shutil.rmtree(never, ignore_errors=True)
                rows[f"python {what}, never ran (empty kernel cache)"] = python_row("cuda", what, env_never, 1)
            t = time.perf_counter()
            _, out = fresh([sys.executable, "-m", "curnet.cli", "warm-up"], env_warm, check=False)
            rows["curnet warm-up"] = {"wall": time.perf_counter() - t, "report": json.loads(out)}
            rows["start_ms"] = start_table("cuda", env_warm)
            for what in ("bfs", "betweenness"):
                rows[f"python {what}, ran before (warmed cache)"] = python_row("cuda", what, env_warm, args.repeat)
                if args.r:
                    rows[f"R {what}, ran before (warmed cache)"] = r_row(["cuda", what], env_warm, args.repeat)
            if args.igraph:
                rows["R igraph betweenness 7.7k"] = r_row(["igraph", "betweenness"], env_warm, 1)
        finally:
            shutil.rmtree(never, ignore_errors=True)
            shutil.rmtree(warmed, ignore_errors=True)
    text = json.dumps(rows, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
