"""Several GPUs of one host, measured in one call: the host-memory floor, then each job on one
GPU, on all GPUs in process (`cuda:all`) and through Dask (LocalCUDACluster, 1 worker and one
worker a GPU). Every result is compared with the one-GPU result of the same run.

    python -m bench several-gpus [--reps 3] [--quick] [--no-dask]

Rows (the two-GPU issue's table, and the four-GPU one on a machine with four):
  floor      the bytes of the BFS result written into fresh host memory by T threads (first
             touch included), with transparent huge pages and without, and into memory
             touched before (the copy bandwidth alone): what any route into host memory pays
  bfs        BFS R-MAT 20 x 4,096 sources into a host matrix the call allocates (16 GiB)
  sssp       SSSP distances R-MAT 18 x 2,048 (float32 weights)
  closeness  all-vertex closeness, R-MAT 18 and R-MAT 20 (reduced on the device: nothing gathered)
  betweenness  with --betweenness: exact betweenness of R-MAT 18, with
             --betweenness-sources K of R-MAT 20 from K sampled sources, and with
             --betweenness-exact-big exact betweenness of R-MAT 20 (nothing gathered; each
             route warmed up on 4,096 sources, timed once, no Dask 1-worker row); the
             Dask rows account each worker's tasks from Dask's task stream, and
             --dask-chunks 2,8,32 times them again with that many chunks
  R          with --with-r: bench/r_several_gpus.R, R end to end on scNET (cuRnet_bfs from 20%
             of the vertices, cuRnet_closeness of every vertex), backend "cuda" beside "cuda:all"
             (needs Rscript with cuRnet, RETICULATE_PYTHON, and scNET in CURNET_DATA)

Medians of --reps runs after a warm-up. JSON to --json (default $OUT/several_gpus.json;
bench/rows.py's format) and a table printed last.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import curnet
from curnet import generators
from curnet.algorithms import common
from curnet.sources import sample_sources

from . import rows as results
from .dask_jobs import cpu_seconds
from .timing import timed

ROOT = str(results.REPO)
HERE = os.path.dirname(os.path.abspath(__file__))


def set_thp(on: bool) -> None:
    """NumPy asks the kernel for transparent huge pages on large allocations (madvise) unless
    told not to; the floor is measured both ways."""
    from numpy._core import multiarray
    multiarray._set_madvise_hugepage(on)


def floor_rows(nbytes: int, threads_list, reps: int) -> list:
    """Fresh memory written by T threads, as a result matrix would be, and already-touched
    memory written again: GB/s and seconds for nbytes."""
    rows = []
    src = np.ones(64 << 20, np.uint8)                      # a 64 MiB source, reused (cache-cold dst)

    def fill(dst: np.ndarray, threads: int):
        parts = np.array_split(np.arange(0, len(dst), len(src)), threads)

        def work(starts):
            for s in starts:
                n = min(len(src), len(dst) - s)
                np.copyto(dst[s:s + n], src[:n])
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(work, parts))

    for thp in (True, False):
        set_thp(thp)
        for threads in threads_list:
            def fresh():
                dst = np.empty(nbytes, np.uint8)
                fill(dst, threads)
                return None
            _, t = timed(fresh, reps, 0)
            rows.append(dict(job="floor", route=f"fresh memory, {threads} threads, THP {'on' if thp else 'off'}",
                             times_s=t, gbps=nbytes / np.median(t) / 1e9))
            print(f"  floor fresh THP={thp} threads={threads}: {np.median(t):.3f} s", flush=True)
    set_thp(True)
    dst = np.empty(nbytes, np.uint8)
    fill(dst, max(threads_list))
    for threads in threads_list:
        _, t = timed(lambda: fill(dst, threads), reps, 0)
        rows.append(dict(job="floor", route=f"touched memory, {threads} threads", times_s=t,
                         gbps=nbytes / np.median(t) / 1e9))
        print(f"  floor touched threads={threads}: {np.median(t):.3f} s", flush=True)
    del dst
    return rows


def jobs(quick: bool, betweenness: bool) -> list:
    """(name, graph, sources, call(backend) -> result) of each row. The all-vertex reductions
    of the larger graph are timed once (--big-reps), without a warm-up (betweenness's
    excepted: job_reps): the smaller graph's rows have compiled the kernels, and each run
    takes tens of seconds."""
    scale_big, scale_small = (16, 14) if quick else (20, 18)
    k_bfs, k_sssp = (512, 256) if quick else (4096, 2048)
    big = generators.rmat(scale_big, seed=1)
    small = generators.rmat(scale_small, seed=1, weighted=True)
    out = [
        (f"BFS R-MAT {scale_big} x {k_bfs:,} into a host matrix", big, sample_sources(big, k_bfs, seed=1),
         lambda g, s, be: curnet.bfs(g, s, backend=be, progress=False)),
        (f"SSSP distances R-MAT {scale_small} x {k_sssp:,}", small, sample_sources(small, k_sssp, seed=1),
         lambda g, s, be: curnet.sssp_dists(g, s, backend=be, progress=False)),
    ]
    small_u = generators.rmat(scale_small, seed=1)
    for g, scale in ((small_u, scale_small), (big, scale_big)):
        out.append((f"closeness R-MAT {scale} (all vertices)", g, None,
                    lambda g, s, be: curnet.closeness(g, backend=be, progress=False)))
    if betweenness:       # R-MAT 20 exact takes minutes: timed by betweenness_bench
        out.append((f"betweenness R-MAT {scale_small} (exact)", small_u, None,
                    lambda g, s, be: curnet.betweenness(g, backend=be, progress=False)))
        if BETWEENNESS_SOURCES[0]:
            k = BETWEENNESS_SOURCES[0]
            out.append((f"betweenness R-MAT {scale_big} ({k:,} sources)", big, sample_sources(big, k, seed=1),
                        lambda g, s, be: curnet.betweenness(g, sources=s, backend=be, progress=False)))
        if BETWEENNESS_EXACT_BIG[0]:
            out.append((f"betweenness R-MAT {scale_big} (exact)", big, None,
                        lambda g, s, be: curnet.betweenness(g, sources=s, backend=be, progress=False)))
    return out


BETWEENNESS_SOURCES = [0]       # --betweenness-sources
BETWEENNESS_EXACT_BIG = [False]  # --betweenness-exact-big


BIG_REPS = [1]
BIG_VERTICES = 1 << 18      # a graph above this many vertices is "the larger graph" of the rows


def job_reps(name: str, g, reps: int) -> tuple:
    """(timed runs, warm-up runs) of a row. Betweenness warms up on every route: its first
    call on a graph prepares it on the host (the graph less its leaves, the source order:
    seconds on R-MAT 20, once a graph), which would otherwise fall on the one-GPU route alone.
    Exact betweenness of the larger graph (a minute a run on one GPU) is timed once after
    warm_up_sources' run instead."""
    big = len(g) > BIG_VERTICES and not name.startswith(("BFS", "SSSP"))
    if warm_up_sources(name, g) is not None:
        return 1, 0
    if name.startswith("betweenness"):
        return (BIG_REPS[0] if big else reps), 1
    return (BIG_REPS[0], 0) if big else (reps, 1)


def warm_up_sources(name: str, g):
    """The 4,096 sources a route of exact betweenness of the larger graph warms up with: they
    prepare what a whole run does once a graph (the graph less its leaves, the order, each
    GPU's copy and kernels, a Dask worker's own); None for every other row."""
    if name.startswith("betweenness") and name.endswith("(exact)") and len(g) > BIG_VERTICES:
        return np.arange(min(4096, len(g)), dtype=np.int32)
    return None


def equal(a, b) -> bool:
    if a.dtype.kind == "f":
        return bool(np.allclose(a, b, rtol=1e-9, atol=0, equal_nan=True))
    return bool(np.array_equal(a, b))


def in_process_rows(job_list, reps: int, gpus: int, one: str, every: str) -> tuple[list, dict]:
    rows, want = [], {}
    for name, g, sources, call in job_list:
        print(f"{name}: {g}", flush=True)
        base = None
        for be in (one,) + ((every,) if gpus > 1 else ()):
            common.PIECE_LOG = [] if be == every else None
            runs, warm = job_reps(name, g, reps)
            warm_ids = warm_up_sources(name, g)
            if warm_ids is not None:
                call(g, warm_ids, be)
            cpu = cpu_seconds()
            got, t = timed(lambda: call(g, sources, be), runs, warm)
            cpu = (cpu_seconds() - cpu) / (runs + warm)
            if be == one:
                want[name], base = got, np.median(t)
            # the process's CPU seconds a run (all threads): the host's share of the work
            row = dict(job=name, route=f"{be} ({1 if be == one else gpus} GPU)", times_s=t,
                       equal=equal(got, want[name]), speedup=base / np.median(t), host_cpu_s=cpu)
            if common.PIECE_LOG:
                row["pieces"] = piece_account(common.PIECE_LOG, t[-1])
                print(f"  pieces of the last run: {row['pieces']}", flush=True)
            common.PIECE_LOG = None
            rows.append(row)
            print(f"  {be}: {np.median(t):.3f} s ({row['speedup']:.2f}x, equal: {row['equal']}), "
                  f"host CPU {cpu:.2f} s a run", flush=True)
            del got
            free_device_memory()
        if name.startswith("BFS"):
            # the same into a matrix touched before the call: what first touch costs each route
            out = np.zeros((len(sources), len(g)), np.int32, order="F")
            for be in (one,) + ((every,) if gpus > 1 else ()):
                _, t = timed(lambda: curnet.bfs(g, sources, backend=be, out=out, progress=False), reps, 1)
                rows.append(dict(job=name, route=f"{be}, into a matrix touched before", times_s=t,
                                 equal=equal(out, want[name]), speedup=base / np.median(t)))
                print(f"  {be} into touched memory: {np.median(t):.3f} s", flush=True)
            del out
    return rows, want


# One process of the separate-processes row: one GPU (CUDA_VISIBLE_DEVICES), the graph built
# again, a warm-up (kernels compiled), then the raw betweenness sums over its sources, timed.
HALF_PROCESS = """
import sys, time, numpy as np
sys.path.insert(0, sys.argv[1])
from curnet import generators
from curnet.algorithms.betweenness.driver import brandes_sums
g = generators.rmat(int(sys.argv[2]), seed=1)
ids = np.load(sys.argv[3])
brandes_sums(g, ids[:64], weighted=False, backend="cuda")
t = time.perf_counter()
vertex, _ = brandes_sums(g, ids, weighted=False, backend="cuda")
print(time.perf_counter() - t)
np.save(sys.argv[4], vertex)
"""


def process_rows(gpus: int, scale: int, base: float) -> list:
    """Exact betweenness's sources in breadth-first order cut into one contiguous share a GPU,
    each share in a process of its own on one GPU, all at once: what the split costs without a
    shared interpreter (beside the in-process row, whose threads share one) and without Dask."""
    import subprocess
    import tempfile
    from curnet.algorithms.betweenness.driver import brandes_sums
    from curnet.algorithms.betweenness.source_order import chunk_order
    g = generators.rmat(scale, seed=1)
    ids = chunk_order(g, np.arange(len(g), dtype=np.int32), fold=True)
    work = tempfile.mkdtemp()
    procs = []
    for i, share in enumerate(np.array_split(ids, gpus)):
        np.save(os.path.join(work, f"ids{i}.npy"), share)
        procs.append(subprocess.Popen(
            [sys.executable, "-c", HALF_PROCESS, os.path.join(ROOT, "python"), str(scale),
             os.path.join(work, f"ids{i}.npy"), os.path.join(work, f"sums{i}.npy")],
            stdout=subprocess.PIPE, text=True, env=dict(os.environ, CUDA_VISIBLE_DEVICES=str(i))))
    start = time.perf_counter()
    seconds = [float(p.communicate()[0].split()[-1]) for p in procs]
    wall = time.perf_counter() - start
    total = sum(np.load(os.path.join(work, f"sums{i}.npy")) for i in range(gpus))
    whole, _ = brandes_sums(g, ids, weighted=False, backend="cuda")
    row = dict(job=f"betweenness R-MAT {scale} (exact)", route=f"{gpus} processes, one GPU and share each",
               times_s=[max(seconds)], each_s=seconds, wall_with_start_s=wall, equal=equal(total, whole),
               speedup=base / max(seconds))
    print(f"  {gpus} processes: each {', '.join(f'{x:.3f}' for x in seconds)} s (equal: {row['equal']})", flush=True)
    return [row]


def piece_account(log: list, wall: float) -> dict:
    """Each GPU's share of the last run from over_devices' piece log: pieces, sources, busy
    seconds (the sum of its pieces' times), and when it started and finished its last piece,
    counted from the run's first piece; against the run's wall time (the rest is the call's own
    work before and after the pieces)."""
    last_run = [(e[0], e[3], e[4], e[2]) for e in log if e[3] >= log[-1][4] - wall]   # (gpu, start, stop, sources)
    t0 = min(e[1] for e in last_run)
    out = {"wall_s": round(wall, 3), "first_piece_to_last_s": round(max(e[2] for e in last_run) - t0, 3)}
    for gpu, mine, account in spans_by_owner(last_run, t0):
        out[f"gpu{gpu}"] = {"pieces": len(mine), "sources": sum(e[3] for e in mine), **account}
    return out


def spans_by_owner(spans, t0: float) -> list:
    """(owner, its spans by start, account) for each owner of (owner, start, stop, ...) spans,
    in owner order; the account: busy seconds (the spans' lengths summed), and when its first
    span started and its last stopped, counted from t0."""
    out = []
    for who in sorted({s[0] for s in spans}):
        mine = sorted((s for s in spans if s[0] == who), key=lambda s: s[1])
        out.append((who, mine, {"busy_s": round(sum(s[2] - s[1] for s in mine), 3),
                                "start_s": round(mine[0][1] - t0, 3),
                                "end_s": round(max(s[2] for s in mine) - t0, 3)}))
    return out


def dask_rows(job_list, want: dict, reps: int, gpus: int) -> list:
    from curnet import distributed
    rows = []
    for workers in sorted({1, gpus}):
        with distributed.local_cluster(gpu=True, n_workers=workers) as cluster:
            engine = distributed.ClusterEngine(cluster)
            for name, g, sources, call in job_list:
                warm_ids = warm_up_sources(name, g)
                if workers == 1 and warm_ids is not None:
                    continue          # a minute on one worker: the in-process one-GPU row stands for it
                reduction = None
                if name.startswith("betweenness"):
                    reduction = distributed.betweenness()
                    fn = lambda: engine.reduce(g, sources, reduction, backend="cuda", progress=False)  # noqa: E731
                elif sources is None:
                    reduction = distributed.measure("closeness")
                    fn = lambda: engine.reduce(g, None, reduction, backend="cuda", progress=False)  # noqa: E731
                elif name.startswith("BFS"):
                    fn = lambda: engine.bfs(g, sources, backend="cuda", progress=False)  # noqa: E731
                    if workers == 1:      # the shared-memory route, for the record
                        got, t = timed(lambda: engine.bfs(g, sources, backend="cuda", progress=False,
                                                              shared_memory=True), reps, 1)
                        rows.append(dict(job=name, route="Dask 1 worker, shared memory route", times_s=t,
                                         equal=equal(got, want[name]), rows_through=engine.route))
                        print(f"  Dask 1, shared memory: {np.median(t):.3f} s", flush=True)
                        del got
                else:
                    fn = lambda: engine.sssp_dists(g, sources, backend="cuda", progress=False)  # noqa: E731
                if warm_ids is not None:
                    engine.reduce(g, warm_ids, reduction, backend="cuda", progress=False)
                got, t, tasks = timed_tasks(engine, fn, *job_reps(name, g, reps))
                one = [r for r in rows if r["job"] == name and r["route"] == "Dask 1 worker(s)"]
                direct = [r for r in RESULTS if r["job"] == name and r["route"].startswith("cuda (")]
                row = dict(job=name, route=f"Dask {workers} worker(s)", times_s=t, equal=equal(got, want[name]),
                           speedup=np.median(direct[0]["times_s"]) / np.median(t) if direct else None,
                           over_one_worker=(np.median(one[0]["times_s"]) / np.median(t)) if one else None,
                           rows_through=getattr(engine, "route", None), tasks=tasks)
                rows.append(row)
                print(f"  Dask {workers}: {np.median(t):.3f} s (equal: {row['equal']}); tasks of the last run: "
                      f"{tasks}", flush=True)
                del got
                if reduction is not None and workers > 1:
                    rows.extend(chunk_rows(engine, name, g, sources, reduction, want[name], workers))
            engine.client.close()
    return rows


DASK_CHUNKS: list = []      # --dask-chunks


def chunk_rows(engine, name, g, sources, reduction, want, workers: int) -> list:
    """A reduction's Dask row again with the sources cut into each of DASK_CHUNKS chunks (the
    engine's own choice is 4 a worker thread): load balance against each chunk's fixed costs."""
    direct = [r for r in RESULTS if r["job"] == name and r["route"].startswith("cuda (")]
    rows = []
    # the sources the chunks share: what the reduction's order keeps (betweenness leaves out
    # the sources that reach nothing)
    k = len(reduction.order(g, np.arange(len(g), dtype=np.int32) if sources is None else sources))
    for chunks in DASK_CHUNKS:
        size = -(-k // chunks)
        got, t, tasks = timed_tasks(engine, lambda: engine.reduce(g, sources, reduction, backend="cuda",
                                                                  progress=False, chunk_size=size), 1, 0)
        rows.append(dict(job=name, route=f"Dask {workers} worker(s), {chunks} chunks", times_s=t,
                         equal=equal(got, want), tasks=tasks,
                         speedup=np.median(direct[0]["times_s"]) / np.median(t) if direct else None))
        print(f"  Dask {workers}, {chunks} chunks: {np.median(t):.3f} s; tasks: {tasks}", flush=True)
    return rows


def timed_tasks(engine, fn, reps: int, warm: int):
    """timed(fn, reps, warm) and the account of the last run's tasks from Dask's task stream:
    per worker the tasks, their busy seconds (start to stop, summed) and when its first started
    and its last stopped, counted from the first task's start; against the call's wall time
    (the rest is the caller's own work and the scheduler's)."""
    from distributed import get_task_stream
    _, t = timed(fn, reps - 1, warm) if reps > 1 or warm else (None, [])
    with get_task_stream(client=engine.client) as stream:
        last, t_last = timed(fn, 1, 0)
    spans = [(rec["worker"], ss["start"], ss["stop"]) for rec in stream.data
             for ss in rec.get("startstops", ()) if ss.get("action") == "compute"]
    account: dict = {"wall_s": round(t_last[0], 3)}
    if spans:
        owners = spans_by_owner(spans, min(s[1] for s in spans))
        for i, (_, mine, busy) in enumerate(owners):
            account[f"worker{i}"] = {"tasks": len(mine), **busy, "each_s": [round(b - a, 3) for _, a, b in mine]}
    return last, list(t) + list(t_last), account


RESULTS: list = []


def free_device_memory() -> None:
    try:
        import cupy
        cupy.get_default_memory_pool().free_all_blocks()
    except ImportError:
        pass


def gpu_names() -> list:
    try:
        import cupy
        return [cupy.cuda.runtime.getDeviceProperties(i)["name"].decode()
                for i in range(cupy.cuda.runtime.getDeviceCount())]
    except ImportError:
        return []


def host_pages() -> dict:
    """The host's transparent huge page settings (private memory, and shared memory)."""
    out = {}
    for key in ("enabled", "shmem_enabled"):
        try:
            with open(f"/sys/kernel/mm/transparent_hugepage/{key}") as f:
                out[key] = f.read().strip()
        except OSError:
            out[key] = None
    return out


def r_rows(reps: int, one: str, every: str) -> list:
    """R's rows: bench/r_several_gpus.R in an R process of its own, its JSON read back."""
    import subprocess
    import tempfile
    out = os.path.join(tempfile.mkdtemp(), "r_several_gpus.json")
    p = subprocess.run(["Rscript", os.path.join(HERE, "r_several_gpus.R"), str(reps), out,
                        f"{one},{every}"], capture_output=True, text=True)
    print(p.stdout, p.stderr[-2000:] if p.returncode else "", flush=True)
    if p.returncode:
        raise RuntimeError(f"bench/r_several_gpus.R exited {p.returncode}")
    with open(out) as f:
        doc = json.load(f)
    rows = []
    for r in doc["rows"]:
        rows.append({"job": f"R: {r['work']}", "route": f"{one} (1 GPU)", "times_s": [r["one_gpu_s"]],
                     "speedup": 1.0, "equal": r["equal"]})
        rows.append({"job": f"R: {r['work']}", "route": f"{every} ({r['gpus']} GPU)", "times_s": [r["all_gpus_s"]],
                     "speedup": r["speedup"], "equal": r["equal"]})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench several-gpus", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="small graphs (a smoke run)")
    ap.add_argument("--big-reps", type=int, default=1, help="timed runs of the large all-vertex rows")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--dask-chunks", default="", help="comma-separated chunk counts: the reductions' "
                    "Dask rows again with the sources in that many chunks (e.g. 2,8,32)")
    ap.add_argument("--betweenness", action="store_true", help="also exact betweenness of R-MAT 18")
    ap.add_argument("--betweenness-sources", type=int, default=0, metavar="K",
                    help="with --betweenness: also betweenness of R-MAT 20 from K sampled sources")
    ap.add_argument("--betweenness-exact-big", action="store_true",
                    help="with --betweenness: also exact betweenness of R-MAT 20 (minutes)")
    ap.add_argument("--backends", default="cuda,cuda:all",
                    help="the one-GPU and the all-GPU backend names (cpu,cpu: a dry run of the script)")
    ap.add_argument("--no-floor", action="store_true")
    ap.add_argument("--with-r", action="store_true", help="also R's rows (bench/r_several_gpus.R)")
    ap.add_argument("--only", default="", help="run the jobs whose name contains this")
    ap.add_argument("--json", default=results.default_out("several_gpus.json"))
    args = ap.parse_args(argv)
    BIG_REPS[0] = args.big_reps
    BETWEENNESS_SOURCES[0] = args.betweenness_sources
    BETWEENNESS_EXACT_BIG[0] = args.betweenness_exact_big
    DASK_CHUNKS[:] = [int(x) for x in args.dask_chunks.split(",") if x]
    one, every = args.backends.split(",")
    devices = gpu_names()
    gpus = len(devices) if one.startswith("cuda") else 2
    job_list = [j for j in jobs(args.quick, args.betweenness) if args.only in j[0]]
    if not args.no_floor and job_list and job_list[0][2] is not None:
        name, g, sources, _ = job_list[0]
        nbytes = len(sources) * len(g) * 4
        print(f"floor: {nbytes / 2**30:.1f} GiB", flush=True)
        RESULTS.extend(floor_rows(nbytes, sorted({8, os.cpu_count() or 1}), min(args.reps, 2)))
    rows, want = in_process_rows(job_list, args.reps, gpus, one, every)
    RESULTS.extend(rows)
    ran_betweenness = "betweenness" in " ".join(j[0] for j in job_list)
    if args.betweenness and gpus > 1 and one.startswith("cuda") and ran_betweenness:
        base = next(np.median(r["times_s"]) for r in rows
                    if r["job"].startswith("betweenness") and r["route"].startswith(one))
        RESULTS.extend(process_rows(gpus, 14 if args.quick else 18, base))
    if not args.no_dask:
        RESULTS.extend(dask_rows(job_list, want, args.reps, gpus))
    if args.with_r:
        RESULTS.extend(r_rows(args.reps, one, every))
    meta = results.write(args.json, RESULTS, devices=devices or [one], reps=args.reps, host_pages=host_pages())
    print(f"\n{meta['when']}, {gpus} x {meta['devices'][0]}, {meta['cpus']} CPUs, commit {meta['commit']}")
    print(f"{'job':<44}{'route':<40}{'median':>10}  {'x 1 GPU':>8}  note")
    for r in RESULTS:
        sp = f"{r['speedup']:.2f}x" if r.get("speedup") else ""
        note = f"{r['gbps']:.1f} GB/s" if "gbps" in r else f"equal: {r['equal']}"
        if r.get("over_one_worker"):
            note += f"; {r['over_one_worker']:.2f}x 1 worker"
        print(f"{r['job']:<44}{r['route']:<40}{np.median(r['times_s']):>8.3f} s  {sp:>8}  {note}")


if __name__ == "__main__":
    main()
