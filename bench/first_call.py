"""A user's first call, in a fresh process: where the engine's start goes (each import and the
CUDA context, in ms), and the first call's wall and CPU time from Python and from R, on the CPU
and on a GPU; on a GPU with an empty kernel cache ("never ran cuRnet") and with the cache a
first run (or `curnet warm-up`) filled ("ran before"), with the kernels each first call
compiled and the seconds spent compiling them.

    python -m bench first-call --backend cuda [--budget 150] [--out rows.jsonl] [--betweenness] [--floors]
    python -m bench first-call --backend cpu --rows [--budget 150] [--out rows.jsonl]
    python -m bench first-call [--backend cpu] [--repeat 3] [--r] [--igraph] [--floors] [--out FILE]
    python -m bench first-call --row NAME --backend cuda --cache DIR --out rows.jsonl

The first form (a GPU; the second, the same rows on the CPU) runs the rows of PLAN, each in a
process of its own under its own time limit, within --budget seconds in all, so that one slow
row cannot take the others' time: a first BFS from Python on a machine that never ran cuRnet
(an empty kernel cache: CURNET_KERNEL_CACHE and CUPY_CACHE_DIR a new empty folder), the
engine's start import by import, the same BFS on that machine afterwards (the kernels the first
run compiled are there), R's (library(cuRnet), the graph and the first cuRnet_bfs, a fresh
Rscript each), R's first call step by step (bench/first_call_steps.R: library(cuRnet),
reticulate's start, the engine's import, CuPy and the CUDA context, the graph, the BFS, in ms),
igraph's answer to the same question, and last `curnet warm-up` on a new empty cache (its own
wall time). R's rows run where Rscript and cuRnet are installed. Each row is appended to --out
as a JSON line as it ends; one line a row is printed at the end.

The third form is the CPU account of docs/first-call.md (the runs of its rows interleaved);
`--floors` adds what a bare R and a bare Python cost on the same machine in the same run (R
alone, R loading Matrix, R loading reticulate, reticulate's probe of the Python, Python with
NumPy), so that a row can be read against what no package can remove. The last runs one row
into a JSON-lines file (what the first form runs).

Every timed run is a new process (python -c, or Rscript for R), so nothing is cached in memory;
the disk caches (the OS's page cache, Python's .pyc files, the kernel cache) are what a machine
that has run cuRnet before keeps. The timed code is the one a user types; R's rows time
`Rscript` from its start (R itself included) as igraph's row does. Repeats of several rows are
interleaved (one run of each, then again), so a shared machine's load falls on all alike.
Results: docs/first-call.md.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
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
step("import curnet.r_bridge.session (R's entry: the drivers, the backends' resolution)",
     "import curnet.r_bridge.session")
step("import curnet.r_bridge.graphs, .traversals (R's graph and BFS adapters)",
     "import curnet.r_bridge.graphs, curnet.r_bridge.traversals")
if sys.argv[1] == "cuda":
    step("import cupy", "import cupy")
    step("CUDA context (first allocation on the GPU)", "cupy.zeros(1); cupy.cuda.Device().synchronize()")
    step("the CUDA backend (get_backend('cuda'))", "curnet.backends.get_backend('cuda')")
else:
    step("import scipy.sparse.csgraph (the CPU's one-source BFS)", "import scipy.sparse.csgraph")
# where installed (the GPU machine has no Dask); on a GPU, SciPy and pyarrow are not loaded either
for optional in ("scipy.sparse.csgraph", "pyarrow", "dask.distributed", "networkx"):
    if optional in sys.modules:
        continue
    try:
        step(f"(not loaded by a first call) import {optional}", f"import {optional}")
    except ImportError:
        pass
print(json.dumps(rows))
"""

# The first calls, as a user types them; each prints its own seconds, the kernels it compiled
# and the seconds spent compiling them.
PYTHON_CALL = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import curnet
backend, what = sys.argv[1], sys.argv[2]
count = seconds = None
if backend == "cuda":
    from curnet.backends import get_backend
    get_backend("cuda")
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
    count, seconds = tally.count, tally.seconds
print(json.dumps({"seconds": time.perf_counter() - t0, "compiled": count, "compile_seconds": seconds}))
"""

# What a bare R and a bare Python cost here (--floors): no package can make a row cheaper.
R_FLOORS = {
    "R alone (Rscript -e 0)": "0",
    "R loads Matrix (reticulate's import)": "invisible(loadNamespace('Matrix'))",
    "R loads reticulate (Matrix with it)": "invisible(loadNamespace('reticulate'))",
    "R starts Python through reticulate (its probe, then NumPy)": "invisible(reticulate::py_config())",
}


def fresh(cmd, env=None, check=True) -> tuple[float, float, str]:
    """Run `cmd` in a new process: its wall seconds, its CPU seconds (user + system, children
    included: on a shared machine they move less than the wall time) and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    took = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}... failed:\n{out.stderr[-3000:]}")
    return took, cpu, out.stdout


def environment(cache: str | None) -> dict:
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.setdefault("RETICULATE_PYTHON", sys.executable)
    if cache is not None:      # CuPy's own setting too, for any CuPy code outside the engine's
        env["CURNET_KERNEL_CACHE"] = env["CUPY_CACHE_DIR"] = cache
    return env


def start_table(backend: str, env) -> list:
    _, _, out = fresh([sys.executable, "-c", START, backend], env)
    return json.loads(out.strip().splitlines()[-1])


def cached_kernels(cache: str | None) -> int | None:
    if cache is None:
        return None
    return sum(1 for f in os.listdir(cache) if f.endswith(".cubin")) if os.path.isdir(cache) else 0


def python_cmd(backend, what):
    return [sys.executable, "-c", PYTHON_CALL, backend, what]


def r_cmd(*script_args):
    return ["Rscript", os.path.join(HERE, "first_call.R"), *script_args]


STEP_LINE = re.compile(r"^(.*?)\s+wall\s+(-?\d+) ms\s+cpu\s+(-?\d+) ms$")


def r_steps(backend: str, env, repeat: int) -> dict:
    """R's first BFS step by step (bench/first_call_steps.R), `repeat` fresh Rscripts: each
    step's wall and CPU ms, and the process's own wall and CPU (R's start and exit are the
    difference)."""
    shape = "ring" if backend == "cpu" else "random"
    runs = []
    for _ in range(repeat):
        wall, cpu, out = fresh(["Rscript", os.path.join(HERE, "first_call_steps.R"), backend, shape], env)
        steps = [[m.group(1), int(m.group(2)), int(m.group(3))]
                 for m in map(STEP_LINE.match, out.splitlines()) if m]
        runs.append({"wall": wall, "cpu": cpu, "steps": steps})
    return {"steps_runs": runs}


def run_once(cmd, env, cache) -> dict:
    """One fresh run of `cmd`: wall, CPU, what it said (Python's JSON line; R's seconds and, when
    counted, its compiles), and the kernel files it added to the cache folder."""
    files = cached_kernels(cache)
    wall, cpu, out = fresh(cmd, env)
    run = {"wall": wall, "cpu": cpu}
    lines = out.strip().splitlines()
    if cmd[0] == sys.executable and lines and lines[-1].startswith("{"):
        run.update(json.loads(lines[-1]))
    for line in lines:
        if cmd[0] == "Rscript" and line.startswith("in R: "):              # "in R: 1.234 s"
            run["seconds"] = float(line.split()[2])
        if cmd[0] == "Rscript" and line.startswith("compiled: "):          # "compiled: 8 kernels in 1.2 s"
            words = line.split()
            run["compiled"], run["compile_seconds"] = int(words[1]), float(words[4])
    if files is not None:
        run["cache_files_written"] = cached_kernels(cache) - files
    return run


def summary(runs) -> dict:
    return {"wall_median": statistics.median(r["wall"] for r in runs),
            "cpu_median": statistics.median(r["cpu"] for r in runs), "runs": runs}


def interleaved(cmds: dict, env, repeat, cache=None, within=None) -> dict:
    """Each command `repeat` times, one run of each in turn; a summary a command. `within`
    (seconds): no further round starts that the slowest round so far says would end after it."""
    runs = {label: [] for label in cmds}
    t0, slowest = time.perf_counter(), 0.0
    for _ in range(repeat):
        if within is not None and slowest and time.perf_counter() - t0 + slowest > within:
            break
        t = time.perf_counter()
        for label, cmd in cmds.items():
            runs[label].append(run_once(cmd, env, cache))
        slowest = max(slowest, time.perf_counter() - t)
    return {label: summary(r) for label, r in runs.items()}


def floor_cmds() -> dict:
    cmds = {label: ["Rscript", "-e", code] for label, code in R_FLOORS.items()}
    _, _, config = fresh(["Rscript", "-e", "cat(system.file('config', 'config.py', package = 'reticulate'))"])
    if config.strip():
        cmds["reticulate's probe alone (its config.py in a Python: imports NumPy)"] = [sys.executable,
                                                                                      config.strip()]
    cmds["Python alone (python -c 'import numpy')"] = [sys.executable, "-c", "import numpy"]
    return cmds


class Rows(dict):
    """The results, each row also printed as it comes (a run cut short keeps what it had)."""

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        print(f"row {key}: {json.dumps(value)}", flush=True)


#: --row NAME: the rows the first form runs one at a time (each a command and the
#: languages' arguments; the graph: the 2,000-vertex ring on the CPU, else 20,000 vertices).
def row_cmds(name: str, backend: str) -> dict:
    shape = "ring" if backend == "cpu" else "random"
    # Each row built only when asked for: the floors run Rscript to find reticulate's probe, which
    # a Python row must not need (on the GPU machine R is set up while Python's rows run).
    return {
        "python-bfs": lambda: {"python bfs": python_cmd(backend, "bfs")},
        "python-betweenness": lambda: {"python betweenness": python_cmd(backend, "betweenness")},
        "r-bfs": lambda: {"R bfs": r_cmd(backend, "bfs", shape)},
        "r-betweenness": lambda: {"R betweenness": r_cmd(backend, "betweenness")},
        "igraph-bfs": lambda: {"R igraph distances": r_cmd("igraph", "bfs", shape)},
        "igraph-betweenness": lambda: {"R igraph betweenness": r_cmd("igraph", "betweenness")},
        "floors": floor_cmds,
    }[name]()


ROWS = ("start", "warm-up", "python-bfs", "python-betweenness", "r-bfs", "r-betweenness", "r-steps", "igraph-bfs",
        "igraph-betweenness", "floors")


def one_row(args) -> dict:
    """--row: one row, appended as a JSON line to --out."""
    env = environment(args.cache)
    if args.cache and args.empty_cache:
        shutil.rmtree(args.cache, ignore_errors=True)
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
    if args.row == "start":
        result = {"start_ms": start_table(args.backend, env)}
    elif args.row == "r-steps":
        result = r_steps(args.backend, env, args.repeat)
    elif args.row == "warm-up":
        # cut at --within, keeping what it said (each step's line) and the kernels it had written
        t = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-m", "curnet.cli", "warm-up", "--backend", args.backend],
                                  capture_output=True, text=True, env=env, timeout=args.within)
            out, said, cut = done.stdout, done.stderr, False
        except subprocess.TimeoutExpired as e:
            out, cut = "", True
            said = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        result = {"wall": time.perf_counter() - t, "kernels_in_cache": cached_kernels(args.cache)}
        try:
            result["report"] = json.loads(out)
        except ValueError:
            result["output"] = said[-2000:]
        if cut:
            result["cut_at"] = args.within
    else:
        if args.count_compiles:
            env["CURNET_BENCH_COMPILES"] = "1"
        result = interleaved(row_cmds(args.row, args.backend), env, args.repeat, args.cache, args.within)
    return {"row": args.label or args.row, "backend": args.backend, "cache": args.cache,
            "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), **result}


#: The rows of a whole run (the first form), in order: (row, label, kernel cache, repeats, time
#: limit in seconds). The cache: "never", a new empty folder the first row fills, which the rows
#: of a machine that ran cuRnet before then read; "new", a new empty folder of its own; None, none.
#: R's rows (r-*, igraph-*) run where Rscript has cuRnet (igraph's where it has igraph). The
#: warm-up comes last, given what is left of the budget (at least its floor, WARM_UP_FLOOR).
PLAN = (
    ("python-bfs", "python bfs, never ran (empty kernel cache)", "never", 1, 60),
    ("start", "start, ran before", "never", 1, 30),
    ("python-bfs", "python bfs, ran before", "never", 3, 45),
    ("r-bfs", "R bfs, ran before", "never", 3, 60),
    ("r-steps", "R bfs step by step, ran before", "never", 2, 60),
    ("igraph-bfs", "R igraph distances, same graph", None, 1, 30),
    ("warm-up", "curnet warm-up, never ran (empty kernel cache)", "new", 1, 200),
)
BETWEENNESS_PLAN = (
    ("python-betweenness", "python betweenness, never ran (empty kernel cache)", "new", 1, 90),
    ("python-betweenness", "python betweenness, ran before", "never", 2, 45),
    ("r-betweenness", "R betweenness, ran before", "never", 2, 60),
)
FLOORS_PLAN = (("floors", "floors: bare R and Python here", None, 1, 40),)
WARM_UP_FLOOR = 60


def r_has(package: str) -> bool:
    """Whether Rscript runs here and has `package`."""
    if shutil.which("Rscript") is None:
        return False
    out = subprocess.run(["Rscript", "-e", f"cat(requireNamespace('{package}', quietly = TRUE))"],
                         capture_output=True, text=True)
    return out.stdout.strip().endswith("TRUE")


def run_limited(cmd, limit: float, env=None) -> tuple[int | None, str]:
    """`cmd` in a session of its own, killed with all it started (Rscript, Python) after `limit`
    seconds: (its exit status, None when cut; its output's tail)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, env=env)
    try:
        out, _ = proc.communicate(timeout=limit)
        return proc.returncode, out[-3000:]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, (out or "")[-3000:]


def plan_run(args) -> None:
    """The first form: PLAN's rows, each `first_call.py --row` under its own limit, into --out."""
    t0 = time.perf_counter()
    out = args.out or os.path.join(tempfile.mkdtemp(prefix="first-call-"), "first_call_rows.jsonl")
    caches = tempfile.mkdtemp(prefix="curnet-first-call-")
    never = os.path.join(caches, "never")
    plan = PLAN[:-1] + (BETWEENNESS_PLAN if args.betweenness else ()) + (FLOORS_PLAN if args.floors else ()) + PLAN[-1:]
    # the engine's .pyc files, as pip writes them at install: no row pays Python's compiling
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", PYTHON_DIR], capture_output=True)
    has = {"cuRnet": r_has("cuRnet")}
    has["igraph"] = has["cuRnet"] and r_has("igraph")
    print(f"first-call rows: backend {args.backend}, {os.cpu_count()} cores, budget {args.budget:.0f} s, "
          f"R: {'cuRnet' if has['cuRnet'] else 'no cuRnet (R rows skipped)'}; rows -> {out}", flush=True)
    try:
        for i, (row, label, cache, repeat, limit) in enumerate(plan):
            needs = "igraph" if row.startswith("igraph") else "cuRnet"
            if row.startswith(("r-", "igraph-", "floors")) and not has[needs]:
                continue
            left = args.budget - (time.perf_counter() - t0)
            if row != "warm-up" and "warm-up" in (r[0] for r in plan[i + 1:]):
                left -= WARM_UP_FLOOR                     # the warm-up's share kept for it
            limit = min(limit, left)
            if limit < 3:
                print(f"skipped (budget spent): {label}", flush=True)
                continue
            cmd = [sys.executable, os.path.abspath(__file__), "--row", row, "--backend", args.backend,
                   "--repeat", str(repeat), "--label", label, "--out", out, "--within", str(max(limit - 2, 1))]
            if cache == "never":
                cmd += ["--cache", never] + (["--empty-cache"] if not os.path.isdir(never) else [])
            elif cache == "new":
                cmd += ["--cache", os.path.join(caches, f"new-{i}"), "--empty-cache"]
            t = time.perf_counter()
            status, said = run_limited(cmd, limit)
            took = time.perf_counter() - t
            if status != 0:
                why = f"cut at its limit of {limit:.0f} s" if status is None else f"failed (exit {status})"
                with open(out, "a") as f:
                    f.write(json.dumps({"row": label, "backend": args.backend, "failed": why,
                                        "output": said[-1500:]}) + "\n")
            print(f"[{time.perf_counter() - t0:.0f} s] {label}: {took:.1f} s"
                  + ("" if status == 0 else f", {why}"), flush=True)
    finally:
        shutil.rmtree(caches, ignore_errors=True)
    print("\n".join(summary_lines(out)), flush=True)


def summary_lines(path: str) -> list:
    """One line a row of a JSON-lines file of --row results (what the first form prints)."""
    lines = []
    for text in open(path):
        row = json.loads(text)
        head = f"{row['row']} [{row['backend']}]"
        if "failed" in row:
            last = (row.get("output") or "").strip().splitlines()[-1:]
            lines.append(f"{head}: {row['failed']}" + (f": {last[0][:300]}" if last else ""))
            continue
        if "steps_runs" in row:      # R's steps: each step's ms, run by run; R's start and exit apart
            runs = row["steps_runs"]
            for k, (label, _, _) in enumerate(runs[0]["steps"]):
                lines.append(f"{head} {label}: " + ", ".join(
                    f"{r['steps'][k][1]} ms (cpu {r['steps'][k][2]})" for r in runs if len(r["steps"]) > k))
            lines.append(f"{head} R's start and exit (the process less its steps): " + ", ".join(
                f"{1000 * r['wall'] - sum(s[1] for s in r['steps']):.0f} ms" for r in runs))
            lines.append(f"{head} the whole Rscript: " + ", ".join(
                f"wall {r['wall']:.2f} s, cpu {r['cpu']:.2f} s" for r in runs))
            continue
        if "start_ms" in row:
            lines.append(head + ": " + "; ".join(f"{label} {ms:.0f} ms" for label, ms in row["start_ms"]))
            continue
        if "cut_at" in row:    # the warm-up, cut: the kernels it wrote, its last line
            last = (row.get("output") or "").strip().splitlines()[-1:] or ["(nothing said)"]
            lines.append(f"{head}: cut at {row['cut_at']:.0f} s with {row['kernels_in_cache']} kernels in the "
                         f"cache; its last line: {last[0]}")
            continue
        if "wall" in row:      # the warm-up
            report = row.get("report", {})
            steps = "".join(f"; {k} {v:.1f} s" for k, v in report.get("steps", {}).items())
            lines.append(f"{head}: wall {row['wall']:.1f} s, {report.get('compiled')} kernels compiled in "
                         f"{report.get('compile_seconds')} s, {row['kernels_in_cache']} in the cache{steps}; "
                         f"failed: {report.get('failed') or 'none'}")
            continue
        for label, result in row.items():
            if not isinstance(result, dict) or "runs" not in result:
                continue
            runs = result["runs"]
            extra = ""
            if any(r.get("compiled") is not None for r in runs):
                extra += ", compiled " + "/".join(str(r.get("compiled")) for r in runs) + " kernels in " + "/".join(
                    f"{r.get('compile_seconds') or 0:.2f}" for r in runs) + " s"
            if runs and "cache_files_written" in runs[0]:
                extra += ", cache files written " + "/".join(str(r["cache_files_written"]) for r in runs)
            lines.append(f"{head} {label}: wall {result['wall_median']:.3f} s, cpu {result['cpu_median']:.3f} s "
                         f"(median of {len(runs)}: " + ", ".join(f"{r['wall']:.2f}" for r in runs) + f"){extra}")
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--r", action="store_true", help="also R's rows (Rscript, cuRnet installed)")
    p.add_argument("--igraph", action="store_true", help="also R igraph's row (the same question)")
    p.add_argument("--floors", action="store_true", help="also bare R's and bare Python's costs (CPU)")
    p.add_argument("--out", help="write the rows as JSON here too (with --row: append a JSON line)")
    p.add_argument("--row", choices=ROWS, help="run this one row only")
    p.add_argument("--cache", help="--row: the kernel cache folder (CURNET_KERNEL_CACHE)")
    p.add_argument("--empty-cache", action="store_true", help="--row: empty the cache folder first")
    p.add_argument("--count-compiles", action="store_true",
                   help="--row: R's runs count their compiles too (starts the engine before the call)")
    p.add_argument("--label", help="--row: the row's name in the output")
    p.add_argument("--within", type=float, help="--row: start no repeat that would end after these seconds")
    p.add_argument("--summarize", metavar="ROWS", help="print one line a row of a --row JSON-lines file")
    p.add_argument("--rows", action="store_true", help="on the CPU: the rows of PLAN (a GPU's default)")
    p.add_argument("--budget", type=float, default=150, help="PLAN's rows: seconds in all")
    p.add_argument("--betweenness", action="store_true", help="PLAN's rows: betweenness's rows too")
    args = p.parse_args(argv)
    if args.summarize:
        print("\n".join(summary_lines(args.summarize)))
        return
    if args.row:
        row = one_row(args)
        print(json.dumps(row), flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(row) + "\n")
        return
    if args.backend == "cuda" or args.rows:
        plan_run(args)
        return
    rows = Rows(backend=args.backend, when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                cores=os.cpu_count())
    env = environment(None)
    rows["start_ms"] = start_table("cpu", env)
    cmds = {"python bfs ring 2000": python_cmd("cpu", "bfs")}
    if args.r:
        cmds["R bfs ring 2000"] = r_cmd("cpu", "bfs", "ring")
    if args.igraph:
        cmds["R igraph distances ring 2000"] = r_cmd("igraph", "bfs", "ring")
    if args.floors:
        cmds.update(floor_cmds())
    for label, result in interleaved(cmds, env, args.repeat).items():
        rows[label] = result
    text = json.dumps(rows, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
