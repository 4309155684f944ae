"""The CPU backend's compiled routes (Numba) at a first call, in fresh processes: each route's
first call on an empty Numba cache (a machine that never ran cuRnet: it compiles) and on the
cache `curnet warm-up --backend cpu` filled (it loads), against the same call again in the same
process; the warm-up's own time; and Numba's compile time of each routine (its
"numba:compile" events, a routine's time including the routines it compiles in turn).

    python -m bench.first_call_numba [--repeat 2] [--out FILE.json]

A route is a user's call that runs compiled code: SCC of a graph at the compiled route's size
(the threshold lowered: R-MAT 14, 131,072 arcs; "scc scipy": the same graph on SciPy's route,
which a graph of fewer than 2^23 arcs takes, for comparison), Girvan-Newman on 10 6-cliques in a ring (hops,
then lengths), Leiden and Louvain on R-MAT 12. Every run is a new Python with its own
NUMBA_CACHE_DIR: "cold" a new empty folder, "warm" the folder the warm-up filled. Each run
prints its seconds: `import numba` (the first compiled module's import), the first call
(compiling or loading its routines), the second call (neither), and Numba's counts of routines
compiled (cache misses) and loaded (cache hits). `uptime`'s load average is recorded beside
each run: the machine may be shared. Results: docs/first-call.md.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.environ.get("CURNET_BENCH_PYTHON") or os.path.join(os.path.dirname(HERE), "python")

ROUTE = r"""
import json, sys, time
from collections import defaultdict
t = time.perf_counter()
import numpy as np
import curnet
from curnet.generators import rmat_edges
start = time.perf_counter() - t
route = sys.argv[1]
if route.startswith("scc"):
    src, dst, n = rmat_edges(14, 8, seed=5)
    g = curnet.Graph.from_edges(src, dst, directed=True, num_vertices=n, dtype=np.float64)
    from curnet.backends.cpu import scc as cpu_scc
    if route == "scc":
        cpu_scc.COMPILED_MIN_ARCS = 0      # the route of a graph of 2^23 arcs and more
    call = lambda: curnet.scc(g, backend="cpu")
elif route.startswith("girvan-newman"):
    from curnet.cli.warm_up import _ring_of_cliques
    g = curnet.Graph.from_edges(*_ring_of_cliques(), directed=False, dtype=np.float64)
    call = lambda: curnet.girvan_newman(g, weighted=route.endswith("weighted"), backend="cpu")
else:
    src, dst, n = rmat_edges(12, 8, seed=0)
    g = curnet.Graph.from_edges(src, dst, directed=False, num_vertices=n, dtype=np.float64)
    algorithm = getattr(curnet, route)
    call = lambda: algorithm(g, seed=1, backend="cpu")
compiles = defaultdict(float)
if route == "scc scipy":                   # SciPy's route: no Numba
    import_numba, buffer = 0.0, []
    t = time.perf_counter()
    call()
    first = time.perf_counter() - t
else:
    t = time.perf_counter()
    import numba
    from numba.core import event
    import_numba = time.perf_counter() - t
    with event.install_recorder("numba:compile") as record:
        t = time.perf_counter()
        call()
        first = time.perf_counter() - t
    buffer = record.buffer
open_at = {}
for stamp, e in buffer:
    key = id(e.data["dispatcher"]), str(e.data["args"])
    if e.is_start:
        open_at[key] = stamp
    else:
        d, began = e.data["dispatcher"], open_at.pop(key)
        if d.py_func.__module__.startswith("curnet."):      # not Numba's own array functions
            compiles[f"{d.py_func.__module__.rsplit('.', 1)[1]}.{d.py_func.__name__}"] += stamp - began
t = time.perf_counter()
call()
second = time.perf_counter() - t
stats = []
if route != "scc scipy":
    from curnet.cli.warm_up import numba_routines
    stats = [d.stats for d in numba_routines().values()]
print(json.dumps({"start": start, "import_numba": import_numba, "first": first, "second": second,
                  "compiled": sum(sum(s.cache_misses.values()) for s in stats),
                  "loaded": sum(sum(s.cache_hits.values()) for s in stats),
                  "compile_seconds": dict(sorted(compiles.items(), key=lambda kv: -kv[1]))}))
"""

ROUTES = ("scc scipy", "scc", "girvan-newman", "girvan-newman weighted", "leiden", "louvain")


def load() -> list:
    return [float(x) for x in open("/proc/loadavg").read().split()[:3]]


def fresh(args, cache) -> tuple[float, float, str]:
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, NUMBA_CACHE_DIR=cache, CURNET_DISABLE_CUDA="1")
    before = os.times()
    t = time.perf_counter()
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    after = os.times()
    if out.returncode != 0:
        raise RuntimeError(f"{args[:2]} failed:\n{out.stderr[-3000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, out.stdout


def route_run(route, cache) -> dict:
    load_at = load()
    wall, cpu, out = fresh(["-c", ROUTE, route], cache)
    return {"load": load_at, "wall": wall, "cpu": cpu, **json.loads(out.strip().splitlines()[-1])}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=2, help="runs of each route, cold and warm")
    p.add_argument("--out", help="write the results as JSON here")
    args = p.parse_args(argv)
    import numba
    result = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": os.cpu_count(),
              "numba": numba.__version__, "python": sys.version.split()[0], "engine": PYTHON_DIR,
              "cold": {r: [] for r in ROUTES}, "warm": {r: [] for r in ROUTES}, "warm_up": []}
    folders = tempfile.mkdtemp(prefix="curnet-numba-")
    try:
        warm = os.path.join(folders, "warm")
        for _ in range(args.repeat):         # the warm-up on an empty cache, its own wall time
            shutil.rmtree(warm, ignore_errors=True)
            load_at = load()
            wall, cpu, out = fresh(["-m", "curnet.cli", "warm-up", "--backend", "cpu"], warm)
            report = json.loads(out)["cpu"]
            result["warm_up"].append({"load": load_at, "wall": wall, "cpu": cpu,
                                      **{k: report[k] for k in ("seconds", "routines", "compiled", "not reached")}})
            print(f"warm-up: wall {wall:.1f} s, cpu {cpu:.1f} s, {report['compiled']} compiled, load {load_at}",
                  flush=True)
        for i in range(args.repeat):         # interleaved: each route cold, then warm
            for route in ROUTES:
                cold = os.path.join(folders, f"cold-{i}-{route}")
                for kind, cache in (("cold", cold), ("warm", warm)):
                    run = route_run(route, cache)
                    result[kind][route].append(run)
                    print(f"{route} {kind}: first {run['first']:.3f} s, second {run['second']:.3f} s, "
                          f"import numba {run['import_numba']:.3f} s, {run['compiled']} compiled, "
                          f"{run['loaded']} loaded, load {run['load']}", flush=True)
    finally:
        shutil.rmtree(folders, ignore_errors=True)
    text = json.dumps(result, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
