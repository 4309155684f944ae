"""Where network propagation's time goes (docs/propagation.md#measured): the parts of the
benchmark's walk rows measured apart, in bench/propagation.py's result format.

    PYTHONPATH=python python -m bench.propagation_profile --backend cuda \
        --string .data/propagation/string_pcsf.tsv.gz --out profile.json
    PYTHONPATH=python python -m bench.propagation_profile --backend cpu --quick
    (--only host,null: just those parts; all by default: steps, null, host, kernel, sets)

- steps: the stopping test's steps against the fewest a perfect test would take (the first step
  whose true L1 error, against the walk run to 1e-15, is within tol of the start's norm), on
  the host's twin of the kernel (any backend).
- null: a 1,000-draw degree-matched null split into its parts as propagation_null runs them:
  the draws, the start block (the seed set's own column first), the propagation of the draws
  and the set, the reduction to three sums a vertex, and the copy back (the device drained
  between parts).
- host: one personalized PageRank split into the parts curnet.pagerank runs (the input's
  checks, its scaling, the device, the walk's lookup, the solver, the block's width, the start
  on the device, the solve, the copy back), beside the whole call; on a GPU the solve's kernel
  is timed by CUDA events, so the solve's host side is the rest.

On a GPU also, from CUDA events around each launch of kernels/propagation.cu's walk_loop:

- per step: one vector (PageRank) run for fixed step counts (tol below reach), the kernel's time
  fitted as fixed + steps x per step; with the launch's blocks forced lower, with the long rows
  walked whole (no pieces), and the walk_loop of --baseline (another version's source, the same
  arguments) beside the working tree's. On a graph of 64 vertices, the same fit is a step's floor:
  the grid barrier and a step's bookkeeping at each number of blocks.
- sets: 10,000 seed sets split into the walk's two launches (the bulk, then the columns left
  when a quarter still runs), with LEAVE_SHARE and the pieces varied.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import warnings
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from scipy import sparse

import curnet
from curnet.analyses.network_proximity import reference_sets
from curnet.propagation.inputs import Columns, as_columns
from curnet.propagation.nulls import draw_block, vertex_bins
from curnet.propagation.operators import open_device, walk
from curnet.propagation.solvers import WalkSolver, block_width

from .propagation import string_graph

STEP_COUNTS = (1, 2, 4, 8, 16, 32, 64)


def fit_steps(steps, seconds) -> tuple[float, float]:
    """(fixed seconds, seconds a step): the least-squares line through (steps, seconds)."""
    slope, fixed = np.polyfit(np.asarray(steps, float), np.asarray(seconds, float), 1)
    return float(fixed), float(slope)


def stopping_steps(g, pers, tol=1e-10, restart=0.15):
    """The steps the stopping test takes for one personalized PageRank, and the first step whose
    true error meets tol (the fewest any stopping test could take with this iteration)."""
    dev = open_device("cpu")
    w = walk(g, dev)
    s = (pers / pers.sum())[:, None]
    solver = WalkSolver(dev, w, restart, redistribute=True, tol=tol)
    solver.solve(s)
    exact = WalkSolver(dev, w, restart, redistribute=True, tol=1e-15).solve(s)
    x, errors, bounds = s, [], []
    for _ in range(solver.iterations + 5):
        (x, _, _), bound = WalkSolver.step(solver, (x, s, np.abs(s).sum(axis=0)))
        errors.append(float(np.abs(x - exact).sum()))
        bounds.append(float(bound[0]))
    first_true = next((i + 1 for i, e in enumerate(errors) if e <= tol), None)
    ratios = [errors[i + 1] / errors[i] for i in range(len(errors) - 1) if errors[i] > 0]
    out = {"iterations": solver.iterations, "steps_true_error_within_tol": first_true,
           "error_ratio_a_step": float(np.median(ratios[-20:])) if ratios else None,
           "true_error_at_stop": errors[solver.iterations - 1], "bound_at_stop": bounds[solver.iterations - 1]}
    if not g.directed and len(w.dangling) == 0:
        out["chebyshev_steps_true_error_within_tol"] = chebyshev_steps(w.w, s, exact, 1 - restart, tol)
    return out


def chebyshev_steps(wt, s, exact, damp, tol, most=1000):
    """Steps of Chebyshev semi-iteration on x = damp W x + (1 - damp) s until the true L1 error
    meets tol: W of an undirected graph without dangling vertices is similar to a symmetric
    matrix of spectrum in [-1, 1], so damp W's lies in [-damp, damp] (the power iteration's
    alternative with the same product a step)."""
    def step(x):
        return damp * (wt @ x) + (1 - damp) * s
    before, x, omega = s, step(s), 1.0
    for k in range(1, most):
        if np.abs(x - exact).sum() <= tol:
            return k
        omega = 1 / (1 - damp ** 2 / 2) if k == 1 else 1 / (1 - damp ** 2 * omega / 4)
        before, x = x, omega * (step(x) - before) + before
    return None


def null_parts(g, dev, seeds, n, sync) -> dict:
    """propagation_null's body (RWR, degree-matched bins of 100) timed part by part."""
    parts = {}

    def clock(name, fn):
        sync()
        t0 = time.perf_counter()
        out = fn()
        sync()
        parts[name] = parts.get(name, 0.0) + time.perf_counter() - t0
        return out

    nv = len(g)
    members = np.sort(seeds)
    t0 = time.perf_counter()
    bins = clock("bins_s", lambda: vertex_bins(g, 100))
    draws = clock("draws_s", lambda: reference_sets(members, bins, n, np.random.default_rng(0)))
    weight = 1.0 / len(members)
    solver = clock("solver_s", lambda: WalkSolver(dev, walk(g, dev), 0.3, redistribute=False))
    with dev.scope():
        xp = dev.xp
        width = block_width(dev, nv, n + 1)
        sums = [xp.zeros(nv) for _ in range(3)]
        obs = None
        for lo in range(0, n, width):
            hi = min(n, lo + width)
            sets = draws[lo:hi] if obs is not None else np.vstack([members[None, :], draws[lo:hi]])
            block = clock("block_s", lambda: draw_block(dev, sets, nv, weight, solver.order))
            x = clock("propagate_s", lambda: solver.solve(block))
            if obs is None:                    # the seed set's own walk: the first column
                obs, x = x[:, :1].copy(), x[:, 1:]

            def reduce():
                diff = x - obs
                for acc, part in zip(sums, (diff.sum(axis=1), (diff * diff).sum(axis=1), (diff >= 0).sum(axis=1))):
                    acc += part
            clock("reduce_s", reduce)
        clock("to_host_s", lambda: [dev.to_host(a) for a in sums + [obs]])
    sync()
    parts["total_s"] = time.perf_counter() - t0
    parts["iterations"] = solver.iterations
    return parts



def host_parts(g, backend: str, pers, sync, repeat: int) -> dict:
    """curnet.pagerank(g, personalization=pers)'s body timed part by part, each the best of
    `repeat` (the device drained around each part), and the whole call beside; on a GPU the
    solve's kernel by CUDA events, and the free-memory query block_width no longer makes for
    one vector (`mem_info_s`)."""
    best: dict = {}

    def clock(name, fn):
        sync()
        t0 = time.perf_counter()
        out = fn()
        sync()
        best[name] = min(best.get(name, np.inf), time.perf_counter() - t0)
        return out

    n = len(g)
    for _ in range(repeat):
        cols = clock("checks_s", lambda: as_columns(pers, n, "personalization", nonnegative=True))
        cols = clock("scale_s", lambda: Columns(cols.values / cols.l1, cols.vector))
        dev = clock("device_s", lambda: open_device(backend))
        w = clock("walk_lookup_s", lambda: walk(g, dev))
        solver = clock("solver_init_s", lambda: WalkSolver(dev, w, 0.15, redistribute=True))
        clock("block_width_s", lambda: block_width(dev, n, 1))
        out = np.empty((n, 1))
        with dev.scope():
            block = clock("to_device_s", lambda: cols.on_device(dev, 0, 1, solver.order))
            if dev.on_gpu:
                launches = Launches()
                with launches.used():
                    x = clock("solve_s", lambda: solver.solve(block))
                best["kernel_s"] = min(best.get("kernel_s", np.inf), sum(r["seconds"] for r in launches.runs))
                clock("to_host_s", lambda: dev.backend.members[0].copy_to_host(dev.xp.ascontiguousarray(x), out))
                clock("mem_info_s", lambda: dev.xp.cuda.Device().mem_info)
            else:
                clock("solve_s", lambda: solver.solve(block))
        clock("call_s", lambda: curnet.pagerank(g, pers, backend=backend))
    best["iterations"] = solver.iterations
    parts = [k for k in best if k.endswith("_s") and k not in ("call_s", "kernel_s", "mem_info_s")]
    best["parts_sum_s"] = sum(best[k] for k in parts)
    if "kernel_s" in best:
        best["solve_host_s"] = best["solve_s"] - best["kernel_s"]
        best["call_less_kernel_s"] = best["call_s"] - best["kernel_s"]
    return best

# -- GPU: walk_loop's launches timed by CUDA events ------------------------------------------
class Launches:
    """Replaces backends/cuda/propagation's launch_cooperative while in use: each walk_loop
    launch runs `fn` (the working tree's kernel, or another taking the same arguments) on the
    blocks the launch asks for, or on `blocks` (at most the GPU holds at once: the loop's grid
    strides fit any grid), and is timed by CUDA events; `runs` holds (k, blocks, first step,
    steps done, seconds) a launch."""

    def __init__(self, fn=None, blocks=None):
        self.fn, self.blocks, self.runs = fn, blocks, []

    @contextmanager
    def used(self):
        import cupy as cp
        from curnet.backends.cuda import propagation as prop
        from curnet.backends.cuda.launch import kernel
        fn = self.fn or kernel("propagation", "walk_loop", cooperative=True)

        def launch(module, name, blocks, args, threads=256, shape=""):
            b = self.blocks or blocks
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            fn((b,), (threads,), args)
            end.record()
            end.synchronize()
            # args: k at 23, step0 at 35, steps taken (a device int) at 13
            self.runs.append({"k": int(args[23]), "blocks": b, "step0": int(args[35]),
                              "steps_done": int(args[13].get()[0]),
                              "seconds": cp.cuda.get_elapsed_time(start, end) / 1e3})
        saved = prop.launch_cooperative
        prop.launch_cooperative = launch
        try:
            yield self
        finally:
            prop.launch_cooperative = saved


def baseline_kernel(path: str):
    """walk_loop from the CUDA source file `path` (common.cuh and another version of
    kernels/propagation.cu in one file, e.g. `git show REV:...` of each): the same arguments."""
    import cupy as cp
    mod = cp.RawModule(code=Path(path).read_text(), options=("-std=c++17",), enable_cooperative_groups=True)
    return mod.get_function("walk_loop")


def fixed_steps(w, block, restart, redistribute, counts, launches: Launches, cuts=None, repeat=3) -> dict:
    """The kernel's seconds at each fixed step count (best of `repeat`), fitted: fixed + per step."""
    from curnet.backends.cuda.propagation import walk_loop
    seconds = []
    for steps in counts:
        best = np.inf
        for _ in range(repeat + 1):            # the first: the launch's compile and allocations
            launches.runs.clear()
            with launches.used():
                walk_loop(w.ptr, w.w.indices, w.w.data, w.is_dangling, block, restart, redistribute=redistribute,
                          ord2=False, tol=1e-300, max_iter=steps, cuts=cuts if cuts is not None else w.long_rows)
            best = min(best, sum(r["seconds"] for r in launches.runs))
        seconds.append(best)
    fixed, per = fit_steps(counts, seconds)
    return {"step_counts": list(counts), "kernel_s_at_each": seconds, "fixed_us": 1e6 * fixed,
            "per_step_us": 1e6 * per, "blocks": launches.runs[-1]["blocks"]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--string", default=None, help="PCSF's string_pcsf.tsv(.gz); else an R-MAT stand-in")
    ap.add_argument("--sets", type=int, default=10_000)
    ap.add_argument("--null", type=int, default=1000)
    ap.add_argument("--baseline", default=None,
                    help="a CUDA file (common.cuh + another propagation.cu) whose walk_loop is timed beside")
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--only", default="steps,null,host,kernel,sets",
                    help="the parts to run, comma-separated (steps, null, host, kernel, sets)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    only = set(args.only.split(","))

    dev = open_device(args.backend)
    sync = (lambda: dev.xp.cuda.Device().synchronize()) if dev.on_gpu else (lambda: None)
    info = {"backend": dev.key, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "host": platform.node(), "cpu_count": os.cpu_count(), "numpy": np.__version__,
            "command": "python -m bench.propagation_profile " + " ".join(sys.argv[1:] if argv is None else argv)}
    if dev.on_gpu:
        props = dev.xp.cuda.runtime.getDeviceProperties(0)
        info["gpu"] = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        info["cupy"] = dev.xp.__version__
    results: dict = {"info": info, "rows": []}
    if args.string and Path(args.string).exists():
        g, _, _ = string_graph(args.string)
        name = "STRING (PCSF)"
    else:
        scale = 10 if args.quick else 14
        g = curnet.generators.rmat(scale, 16, seed=1, dtype=np.float64)
        name = f"R-MAT {scale} (STRING-size stand-in)"
    if args.quick:
        args.sets, args.null = 200, 100
    n = len(g)
    net = {"network": name, "vertices": n, "edges": g.num_edges, "tool": "cuRnet"}

    def record(**row):
        results["rows"].append(dict(net, **row))
        print(json.dumps(results["rows"][-1]), flush=True)
        if args.out:
            Path(args.out).write_text(json.dumps(results, indent=1))

    def section(label, fn):
        """One part of the profile (if --only names it); a failure is recorded and the others
        still run."""
        if label.split(",")[0].split(" ")[0] not in only:
            return
        try:
            fn()
        except Exception as e:  # noqa: BLE001  (the profile goes on: each part is its own)
            record(what=f"profile: {label}", error=f"{type(e).__name__}: {e}")

    rng = np.random.default_rng(0)
    pers = np.zeros(n)
    pers[rng.choice(n, 50, replace=False)] = 1.0

    def steps():
        st = stopping_steps(g, pers)
        record(what="profile: steps of one personalized PageRank (tol 1e-10)", **st,
               note=f"the stopping test takes {st['iterations']} steps; the true error is within tol "
                    f"after {st['steps_true_error_within_tol']}")
    section("steps", steps)

    def null():
        seeds = rng.choice(n, 200, replace=False)
        parts = null_parts(g, dev, seeds, args.null, sync)
        parts = null_parts(g, dev, seeds, args.null, sync)          # warm
        record(what=f"profile: {args.null:,}-draw degree-matched null, 200-gene set (RWR), by part",
               seconds=parts["total_s"], **parts,
               note=", ".join(f"{k[:-2]} {1e3 * v:.1f} ms" for k, v in parts.items() if k.endswith("_s")))
    section("null", null)

    def host():
        parts = host_parts(g, args.backend, pers, sync, 5 if args.quick else 30)
        record(what="profile: one personalized PageRank (tol 1e-10), the call by part", seconds=parts["call_s"],
               **parts, note=", ".join(f"{k[:-2]} {1e6 * v:.0f} us" for k, v in parts.items() if k.endswith("_s")))
    section("host", host)
    if not dev.on_gpu or not only & {"kernel", "sets"}:
        return results

    w = walk(g, dev)
    with dev.scope():
        one = dev.xp.asarray((pers / pers.sum())[:, None])
    WalkSolver(dev, w, 0.15, redistribute=True).solve(one)             # compiles; cuts W's long rows
    counts = STEP_COUNTS[:4] if args.quick else STEP_COUNTS
    from curnet.backends.cuda import propagation as prop
    from curnet.backends.cuda.launch import resident
    from curnet.backends.cuda.propagation import long_rows
    whole = long_rows(w.ptr, n, piece_arcs=1 << 30)
    most = resident("propagation", "walk_loop")
    base = baseline_kernel(args.baseline) if args.baseline else None
    # (label, kernel, blocks, cuts, the launch's settings changed)
    variants: list = [("working tree", None, None, None, {})]
    if base is not None:
        variants.append((f"kernel of {Path(args.baseline).name}", base, None, None, {}))
    variants += [("long rows walked whole", None, None, whole, {}),
                 ("pieces of 64 arcs", None, None, long_rows(w.ptr, n, piece_arcs=64), {})]
    variants += [(f"{b} blocks", None, b, None, {}) for b in (66, 132, 264) if b < most]
    for z_log, tasks in ((3, 1), (4, 1), (5, 1), (5, 4)):
        variants.append((f"rows over {1 << z_log} lanes, {tasks} task(s) a warp asked", None, None, None,
                         {"TASKS_A_WARP": tasks, "lane_shape": lambda k, mean, z=z_log: (0, z)}))

    def per_step(label, fn, blocks, cuts, settings):
        def run():
            saved = {name: getattr(prop, name) for name in settings}
            for name, value in settings.items():
                setattr(prop, name, value)
            try:
                fit = fixed_steps(w, one, 0.15, True, counts, Launches(fn, blocks), cuts)
            finally:
                for name, value in saved.items():
                    setattr(prop, name, value)
            record(what=f"profile: one personalized PageRank, per step, {label}", kernel_s=fit["kernel_s_at_each"][-1],
                   **fit, note=f"{fit['per_step_us']:.1f} us a step + {fit['fixed_us']:.0f} us, {fit['blocks']} blocks")
        section(f"kernel, per step, {label}", run)
    for variant in variants:
        per_step(*variant)

    # a step's floor: the same kernel on a 64-vertex ring, at each number of blocks
    ring = curnet.Graph.from_edges(np.arange(64), (np.arange(64) + 1) % 64, directed=False, dtype=np.float64)
    wr = walk(ring, dev)
    with dev.scope():
        s_ring = dev.xp.zeros((64, 1))
        s_ring[0, 0] = 1.0
    for b in sorted({1, 8, 33, 132, most // 2, most}):
        def floor(b=b):
            from curnet.backends.cuda.propagation import long_rows as cut
            fit = fixed_steps(wr, s_ring, 0.15, True, counts, Launches(None, b), cut(wr.ptr, 64))
            record(network="ring of 64 vertices", vertices=64, edges=64,
                   what=f"profile: a step's floor (barrier and bookkeeping), {fit['blocks']} blocks",
                   kernel_s=fit["kernel_s_at_each"][-1], **fit,
                   note=f"{fit['per_step_us']:.2f} us a step + {fit['fixed_us']:.0f} us")
        section(f"kernel, floor {b}", floor)

    # 10,000 sets: the two launches apart
    many = sparse.csc_matrix((np.ones(args.sets * 20), (rng.integers(0, n, args.sets * 20),
                                                        np.repeat(np.arange(args.sets), 20))), shape=(n, args.sets))
    scaled = sparse.csc_matrix(many @ sparse.diags(1.0 / np.asarray(many.sum(axis=0)).ravel()))
    with dev.scope():
        block = Columns(scaled, False).on_device(dev, 0, args.sets, "C")
    sets_variants = [("as built", None, None, None)]
    if base is not None:
        sets_variants.append((f"kernel of {Path(args.baseline).name}", base, None, None))
    sets_variants += [("LEAVE_SHARE 0.1", None, 0.1, None), ("LEAVE_SHARE 0.5", None, 0.5, None),
                      ("long rows walked whole", None, None, whole)]
    for label, fn, share, cuts in sets_variants:
        def sets(label=label, fn=fn, share=share, cuts=cuts):
            saved = prop.LEAVE_SHARE
            if share is not None:
                prop.LEAVE_SHARE = share
            try:
                launches = Launches(fn)
                with launches.used(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    solver = WalkSolver(dev, w, 0.15, redistribute=True)
                    if cuts is not None:
                        w.long_rows, kept = cuts, w.long_rows
                    try:
                        solver.solve(block)                    # warm
                        launches.runs.clear()
                        sync()
                        t0 = time.perf_counter()
                        solver.solve(block)
                        sync()
                        total = time.perf_counter() - t0
                    finally:
                        if cuts is not None:
                            w.long_rows = kept
            finally:
                prop.LEAVE_SHARE = saved
            runs = launches.runs
            record(what=f"profile: {args.sets:,} personalized PageRanks (20 seeds each), by launch, {label}",
                   kernel_s=total, launches=runs, iterations=solver.iterations,
                   note="; ".join(f"launch {i + 1}: {r['k']:,} columns, steps {r['step0']}-{r['steps_done']}, "
                                  f"{1e3 * r['seconds']:.1f} ms" for i, r in enumerate(runs))
                        + f"; the solve {1e3 * total:.1f} ms")
        section(f"sets, {label}", sets)
    return results


if __name__ == "__main__":
    main()
