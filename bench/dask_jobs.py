"""Many-source jobs on a Dask cluster against the direct call (curnet.distributed).

--cpu: SSSP distances from 15% of scNET (SciPy's Dijkstra: one core a process), the direct
       call, then a LocalCluster of 1 and of 2 CPU worker processes; one run each (long jobs),
       wall time and CPU seconds.
--gpu: a LocalCUDACluster of one GPU (dask-cuda) against the direct call on the same GPU:
       BFS from 20% of scNET and BFS R-MAT 20 x 4,096 (target: overhead <= 10%). Medians of
       --reps runs after a warm-up (the graph reaches the worker once, in the warm-up). Then
       the in-process split of several GPUs, as two shares on GPU 0 (R-MAT job).

Every distributed result is checked equal to the direct call's. Writes JSON to --json
(default $OUT/dask.json if OUT is set; bench/rows.py's format) and prints a table last.

    python -m bench dask --cpu --fraction 0.15
    python -m bench dask --gpu --reps 5
"""
from __future__ import annotations

import argparse

import numpy as np

import curnet
from curnet import distributed, generators
from curnet.sources import sample_sources

from . import rows as results
from .networks import load_scnet
from .timing import timed



def row(name, layer, times, note="", target=None):
    ms = [1000 * t for t in times]
    return {"row": name, "layer": layer, "median_ms": float(np.median(ms)), "min_ms": min(ms),
            "max_ms": max(ms), "runs": len(ms), "target": target, "note": note}


def same(a, b) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


def cpu_seconds(dask_worker=None) -> float:
    """CPU time of this process so far (user + system); on a worker with client.run."""
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def load() -> str:
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def cpu_rows(fraction):
    """One run each: wall time, and CPU seconds (the caller's process for the direct call, the
    workers' for a cluster), which a busy shared machine stretches less than the wall time."""
    g = load_scnet(dtype=np.float32)
    sources = sample_sources(g, int(round(fraction * len(g))), seed=1)
    name = f"SSSP dists scNET {fraction:.0%} ({len(sources):,} sources)"
    print(f"{name}: {g}", flush=True)
    before, c0 = load(), cpu_seconds()
    want, t_direct = timed(lambda: curnet.sssp_dists(g, sources, backend="cpu", progress=False), 1, 0)
    used = cpu_seconds() - c0
    rows = [dict(row(name, "direct call (1 process)", t_direct, f"load average {before} -> {load()}"),
                 cpu_s=used)]
    print(f"  direct: {t_direct[0]:.1f} s, {used:.1f} CPU s", flush=True)
    one = None
    for workers in (1, 2):
        with distributed.local_cluster(workers) as cluster:
            engine = distributed.ClusterEngine(cluster)
            before, c0 = load(), sum(engine.client.run(cpu_seconds).values())
            got, t = timed(lambda: engine.sssp_dists(g, sources, backend="cpu", progress=False), 1, 0)
            used = sum(engine.client.run(cpu_seconds).values()) - c0
            engine.client.close()
        one = t[0] if workers == 1 else one
        note = f"results equal: {same(got, want)}; load average {before} -> {load()}"
        if workers == 2:
            note += f"; {one / t[0]:.2f}x one worker"
        rows.append(dict(row(name, f"LocalCluster {workers} worker(s)", t, note,
                             target="faster than 1 worker" if workers == 2 else None), cpu_s=used))
        print(f"  {workers} worker(s): {t[0]:.1f} s, {used:.1f} CPU s on the workers ({note})", flush=True)
    return rows


def gpu_rows(reps, rmat_scale, rmat_sources):
    jobs = []
    scnet = load_scnet(dtype=np.float32)
    jobs.append((f"BFS scNET 20% ({int(round(0.2 * len(scnet))):,} sources)", scnet,
                 sample_sources(scnet, int(round(0.2 * len(scnet))), seed=1), None))
    g = generators.rmat(rmat_scale, seed=1)
    jobs.append((f"BFS R-MAT {rmat_scale} x {rmat_sources:,}", g, sample_sources(g, rmat_sources, seed=1),
                 "overhead <= 10%"))
    rows = []
    import cupy
    from distributed import get_task_stream as distributed_task_stream
    with distributed.local_cluster(gpu=True, n_workers=1) as cluster:
        engine = distributed.ClusterEngine(cluster)
        for name, graph, sources, target in jobs:
            print(f"{name}: {graph}", flush=True)
            want, t_direct = timed(lambda: curnet.bfs(graph, sources, backend="cuda", progress=False), reps, 1)
            del want
            cupy.get_default_memory_pool().free_all_blocks()   # the worker shares this GPU
            rows.append(row(name, "direct call", t_direct))
            got, t = timed(lambda: engine.bfs(graph, sources, backend="cuda", progress=False), reps, 1)
            want = curnet.bfs(graph, sources, backend="cuda", progress=False)
            over = np.median(t) / np.median(t_direct) - 1
            with distributed_task_stream(engine.client) as stream:      # where the cluster's time goes
                engine.bfs(graph, sources, backend="cuda", progress=False)
            on_worker = sum(s["stop"] - s["start"] for task in stream.data for s in task["startstops"]
                            if s["action"] == "compute")
            rows.append(row(name, "LocalCUDACluster 1 GPU", t,
                            f"overhead {over:+.1%}; results equal: {same(got, want)}; rows through {engine.route}; "
                            f"the chunks' compute on the worker {on_worker * 1000:.0f} ms", target))
            print(f"  direct {np.median(t_direct) * 1000:.1f} ms, cluster {np.median(t) * 1000:.1f} ms "
                  f"({over:+.1%}, rows through {engine.route}; worker compute {on_worker * 1000:.0f} ms)", flush=True)
            del got
            # the direct call again, writing into a shared-memory matrix as the worker does:
            # the cost of shared-memory pages against the direct call's anonymous ones
            cupy.get_default_memory_pool().free_all_blocks()

            def into_shared():
                m = distributed.SharedMatrix((len(sources), len(graph)), np.int32, "dir")
                m.unlink()
                return curnet.bfs(graph, sources, backend="cuda", out=m.array, progress=False)
            got, t = timed(into_shared, reps, 1)
            rows.append(row(name, f"direct call into {distributed.SHARED_DIR} (no cluster)", t,
                            f"results equal: {same(got, want)}"))
            print(f"  direct into shared memory {np.median(t) * 1000:.1f} ms", flush=True)
            del got, want
        engine.client.close()
    rows += split_rows(reps, *jobs[1][:3])
    return rows


def split_rows(reps, name, g, sources):
    """The in-process split of several GPUs, run as two shares on GPU 0: each share's rows
    staged straight into the caller's matrix (stage_pitched), against the same split through
    a temporary host copy (the path it replaced) and against one share."""
    import cupy
    from curnet import backends
    from curnet.backends.cuda import MultiCUDABackend
    one = backends.get_backend("cuda")
    backends._instances["cuda:0,0"] = MultiCUDABackend([0, 0], one.tuning)
    out = np.empty((len(sources), len(g)), np.int32, order="F")
    out[:] = 0                                                  # pages touched once, before timing
    want = curnet.bfs(g, sources, backend="cuda", progress=False)
    rows = []
    try:
        for layer, backend, pitched in (("one share (cuda)", "cuda", True),
                                        ("2 shares on GPU 0, rows staged in place", "cuda:0,0", True),
                                        ("2 shares on GPU 0, temporary host copy", "cuda:0,0", False)):
            one.tuning.stage_pitched = pitched
            got, t = timed(lambda: curnet.bfs(g, sources, backend=backend, out=out, progress=False), reps, 1)
            rows.append(row(name, layer, t, f"into the caller's matrix; results equal: {same(got, want)}"))
            print(f"  {layer}: {np.median(t) * 1000:.1f} ms", flush=True)
            cupy.get_default_memory_pool().free_all_blocks()
    finally:
        one.tuning.stage_pitched = True
        del backends._instances["cuda:0,0"]
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench dask", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--cpu", action="store_true")
    mode.add_argument("--gpu", action="store_true")
    ap.add_argument("--fraction", type=float, default=0.15, help="--cpu: the share of scNET's vertices as sources")
    ap.add_argument("--reps", type=int, default=5, help="--gpu: timed runs after a warm-up")
    ap.add_argument("--rmat-scale", type=int, default=20)
    ap.add_argument("--rmat-sources", type=int, default=4096)
    ap.add_argument("--json", default=results.default_out("dask.json"))
    ap.add_argument("--note", default="")
    args = ap.parse_args(argv)
    rows = cpu_rows(args.fraction) if args.cpu else gpu_rows(args.reps, args.rmat_scale, args.rmat_sources)
    results.write(args.json, rows, info=curnet.info(), note=args.note,
                  versions={"dask": __import__("dask").__version__,
                            "distributed": __import__("distributed").__version__})
    print(f"\n{'row':<44}{'layer':<30}{'median':>12}  note")
    for r in rows:
        print(f"{r['row']:<44}{r['layer']:<30}{r['median_ms'] / 1000:>10.3f} s  {r['note']}")


if __name__ == "__main__":
    main()
