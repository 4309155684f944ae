"""Network propagation, cuRnet beside python-igraph in one run (docs/propagation.md).

    PYTHONPATH=python python -m bench propagation --backend cuda --out results.json
    PYTHONPATH=python python -m bench propagation --backend cpu --quick

On a STRING-size network (PCSF's STRING interactome when its TSV is given with --string, else
an R-MAT graph of about its size): one personalized PageRank (cuRnet and igraph's PRPACK, the
largest difference between them), 10,000 seed sets at once, a 1,000-draw degree-matched null of
a 200-gene set, the dense regularized-Laplacian kernel; then PageRank on R-MAT (scale
--rmat-scale, directed) in edges per second per iteration. Each time is the best of --repeat
warm calls, after one call that builds the graph's device copy and compiles the kernels
(timed apart: "first"). Results are written to --out after every measurement. --rows picks
rows (one, null, kernel, rmat, sets, diffuse), so that each can run as a command of its own.
`diffuse`: diffuStats' z-scores and Monte Carlo scores (--null permutations) with the
regularized Laplacian kernel over a background of 2,000 vertices (at most half the graph), 5%
of them positive; on the
CPU also through the step route (SciPy's SpMM: the compiled iterations' thresholds raised), one
call each.

On a GPU each walk row also times its parts: the solver alone on a block already on the device
(`kernel_s`: the fused kernel, one launch and one wait), the step-by-step route it replaced
(`step_route_s`: cuSPARSE's SpMM and CuPy's elementwise kernels a step, the stopping test on
the host every step), and the bytes a step must move (`step_bytes`: W's arrays once for each
group of 32 columns, x read twice and the start read and the result written once; the
gathers of x's rows, which L2 serves in part, apart as `gather_bytes`)."""
from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import time
import warnings
from pathlib import Path
from unittest import mock

import numpy as np
from scipy import sparse

import curnet
from curnet.analyses.network_proximity import reference_sets
from curnet.backends.cpu import propagation as cpu_propagation
from curnet.propagation.nulls import draw_block, vertex_bins
from curnet.propagation.operators import open_device, walk
from curnet.propagation.solvers import WalkSolver

from .timing import first_and_best, once


def string_graph(path):
    with gzip.open(path, "rt") if str(path).endswith(".gz") else open(path) as f:
        next(f)
        rows = [line.rstrip("\n").split("\t")[:2] for line in f if line.strip()]
    src = [r[0] for r in rows]
    dst = [r[1] for r in rows]
    return curnet.Graph.from_edges(src, dst, directed=False, dtype=np.float64), src, dst


def igraph_graph(g):
    import igraph as ig
    src, dst, _ = g.edges()
    return ig.Graph(n=len(g), edges=np.column_stack([src, dst]).tolist(), directed=g.directed)


def step_bytes(w, k):
    """(bytes a fused step moves at least, bytes of its gathers of x's rows) for k columns."""
    n, nnz = w.n, w.w.nnz
    groups = -(-k // 32)
    return groups * nnz * 12 + 4 * n * k * 8, nnz * k * 8


def walk_parts(dev, w, restart, redistribute, block, repeat, sync):
    """The fused solver alone on a device block, and the step-by-step route, timed warm."""
    parts = {}
    for fused, key in ((True, "kernel_s"), (False, "step_route_s")):
        solver = WalkSolver(dev, w, restart, redistribute=redistribute, fused=fused)

        def run():
            with dev.scope():
                return solver.solve(dev.contiguous(block) if not fused else block)
        _, first, best = first_and_best(run, repeat, sync)
        parts[key] = best
        parts[key.replace("_s", "_first_s")] = first
        parts["iterations" if fused else "step_route_iterations"] = solver.iterations
    # the fixed part of a fused call (allocations, the launch, the prologue, the wait): one step
    one = WalkSolver(dev, w, restart, redistribute=redistribute, max_iter=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, _, parts["one_step_s"] = first_and_best(lambda: one.solve(block), repeat, sync)
    k = block.shape[1]
    moved, gathered = step_bytes(w, k)
    parts["per_step_us"] = 1e6 * parts["kernel_s"] / max(parts["iterations"], 1)
    parts["per_further_step_us"] = (1e6 * (parts["kernel_s"] - parts["one_step_s"])
                                    / max(parts["iterations"] - 1, 1))
    parts["step_bytes"] = moved
    parts["gather_bytes"] = gathered
    parts["step_bytes_at_4_8_TBps_us"] = 1e6 * moved / 4.8e12
    return parts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--string", default=None, help="PCSF's string_pcsf.tsv(.gz)")
    ap.add_argument("--string-scale", type=int, default=14, help="R-MAT stand-in when --string is absent")
    ap.add_argument("--rmat-scale", type=int, default=22)
    ap.add_argument("--sets", type=int, default=10_000)
    ap.add_argument("--null", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--no-igraph", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--rows", default="one,null,kernel,rmat,sets",
                    help="of: one,null,kernel,rmat,sets,diffuse")
    args = ap.parse_args(argv)
    if args.quick:
        args.string_scale, args.rmat_scale, args.sets, args.null, args.repeat = 10, 12, 200, 100, 1
    rows = set(args.rows.split(","))

    dev = open_device(args.backend)
    sync = (lambda: dev.xp.cuda.Device().synchronize()) if dev.on_gpu else (lambda: None)
    info = {"backend": dev.key, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "host": platform.node(), "cpu_count": os.cpu_count(), "numpy": np.__version__}
    if dev.on_gpu:
        props = dev.xp.cuda.runtime.getDeviceProperties(0)
        info["gpu"] = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        info["cupy"] = dev.xp.__version__
    results = {"info": info, "rows": []}

    def record(**row):
        results["rows"].append(row)
        print(json.dumps(row), flush=True)
        if args.out:
            Path(args.out).write_text(json.dumps(results, indent=1))

    # -- a STRING-size network -------------------------------------------------------------
    if args.string and Path(args.string).exists():
        g, _, _ = string_graph(args.string)
        name = "STRING (PCSF)"
    else:
        g = curnet.generators.rmat(args.string_scale, 16, seed=1, dtype=np.float64)
        name = f"R-MAT {args.string_scale} (STRING-size stand-in)"
    n = len(g)
    net = {"network": name, "vertices": n, "edges": g.num_edges}
    rng = np.random.default_rng(0)
    pers = np.zeros(n)
    pers[rng.choice(n, 50, replace=False)] = 1.0
    w = walk(g, dev)

    if "one" in rows:
        ours, first, best = first_and_best(lambda: curnet.pagerank(g, pers, backend=args.backend), args.repeat, sync)
        row = dict(net, what="one personalized PageRank", tool="cuRnet", first_s=first, seconds=best)
        if dev.on_gpu:
            with dev.scope():
                block = dev.xp.asarray((pers / pers.sum())[:, None])
            row.update(walk_parts(dev, w, 0.15, True, block, args.repeat, sync))
        if not args.no_igraph:
            try:
                h = igraph_graph(g)
                want, _, ig_best = first_and_best(lambda: h.personalized_pagerank(reset=pers.tolist()), args.repeat,
                                         lambda: None)
                row["max_abs_diff_vs_igraph"] = float(np.abs(ours - np.array(want)).max())
                record(**dict(net, what="one personalized PageRank", tool="python-igraph (PRPACK, CPU)",
                              seconds=ig_best))
                row["speedup_vs_igraph"] = ig_best / best
            except ImportError:
                row["igraph"] = "python-igraph not installed"
        record(**row)

    if "null" in rows:
        seeds = rng.choice(n, 200, replace=False)
        _, first, best = first_and_best(lambda: curnet.propagation_null(g, seeds, n=args.null, backend=args.backend),
                               args.repeat, sync)
        row = dict(net, what=f"{args.null:,}-draw degree-matched null, 200-gene set (RWR)", tool="cuRnet",
                   first_s=first, seconds=best)
        bins = vertex_bins(g, 100)
        draws, _, row["draws_s"] = first_and_best(lambda: reference_sets(np.sort(seeds), bins, args.null,
                                                              np.random.default_rng(0)), args.repeat, lambda: None)
        if dev.on_gpu:
            with dev.scope():
                block = draw_block(dev, draws, n, 1.0 / len(seeds), "C")
            row.update(walk_parts(dev, w, 0.3, False, block, args.repeat, sync))
        record(**row)

    if "kernel" in rows:
        _, first, best = first_and_best(
            lambda: curnet.diffusion_kernel(g, "regularized_laplacian", backend=args.backend), 1, sync)
        record(**dict(net, what="dense regularized Laplacian kernel", tool="cuRnet", first_s=first, seconds=best))
        if dev.on_gpu and n < 20_000:
            big = curnet.generators.rmat(15, 8, seed=3, dtype=np.float64)
            keep = np.arange(20_000)
            src, dst, _ = big.edges()
            inside = (src < 20_000) & (dst < 20_000)
            g20 = curnet.Graph.from_edges(src[inside], dst[inside], directed=False, num_vertices=len(keep),
                                          dtype=np.float64)
            _, first, best = first_and_best(lambda: curnet.diffusion_kernel(g20, "regularized_laplacian",
                                                                   backend=args.backend), 1, sync)
            record(network="R-MAT 15 cut to 20,000 vertices", vertices=len(g20), edges=g20.num_edges,
                   what="dense regularized Laplacian kernel", tool="cuRnet", first_s=first, seconds=best)

    if "diffuse" in rows:
        nb = min(2000, n // 2)
        background = np.sort(rng.choice(n, nb, replace=False))
        y = np.zeros(n)
        y[background[rng.choice(nb, nb // 20, replace=False)]] = 1.0
        for method, extra in (("z", {}), ("mc", {"n_perm": args.null})):
            def call():
                return curnet.diffuse(g, y, method=method, background=background, backend=args.backend, **extra)
            _, first, best = first_and_best(call, 1, sync)
            what = (f"diffuStats {method!r} scores, regularized Laplacian kernel, background of {nb:,} vertices"
                    + (f", {args.null:,} permutations" if extra else ""))
            row = dict(net, what=what, tool="cuRnet", first_s=first, seconds=best)
            if not dev.on_gpu:
                with mock.patch.object(cpu_propagation, "COMPILED_MIN_COLUMNS", 1 << 62):
                    _, row["step_route_s"] = once(call, sync=sync)
            record(**row)

    # -- R-MAT PageRank, edges per second per iteration --------------------------------------
    if "rmat" in rows:
        src, dst, nr = curnet.generators.rmat_edges(args.rmat_scale, 16, seed=2, xp=dev.xp)
        big = curnet.Graph.from_edges(src, dst, directed=True, num_vertices=nr)
        del src, dst
        t0 = time.perf_counter()
        wb = walk(big, dev)
        sync()
        build = time.perf_counter() - t0
        row = dict(network=f"R-MAT {args.rmat_scale} (directed)", vertices=nr, edges=big.num_edges,
                   what="PageRank (tol 1e-10)", tool="cuRnet", build_s=build)
        with dev.scope():
            start = dev.xp.asarray(np.full((nr, 1), 1.0 / nr))
        if dev.on_gpu:
            row.update(walk_parts(dev, wb, 0.15, True, start, args.repeat, sync))
            row["edges_per_s_per_iteration"] = big.num_arcs * row["iterations"] / row["kernel_s"]
            row["step_route_edges_per_s_per_iteration"] = (big.num_arcs * row["step_route_iterations"]
                                                           / row["step_route_s"])
        else:
            sb = WalkSolver(dev, wb, 0.15, redistribute=True, tol=1e-10)
            _, first, best = first_and_best(lambda: sb.solve(start), args.repeat, sync)
            row.update(first_s=first, seconds=best, iterations=sb.iterations,
                       edges_per_s_per_iteration=big.num_arcs * sb.iterations / best)
        record(**row)

    # -- many seed sets at once (last: the longest) --------------------------------------------
    if "sets" in rows:
        many = sparse.csc_matrix((np.ones(args.sets * 20), (rng.integers(0, n, args.sets * 20),
                                                            np.repeat(np.arange(args.sets), 20))),
                                 shape=(n, args.sets))
        _, first, best = first_and_best(lambda: curnet.pagerank(g, many, backend=args.backend), 1, sync)
        row = dict(net, what=f"{args.sets:,} personalized PageRanks (20 seeds each)", tool="cuRnet",
                   first_s=first, seconds=best, per_set_ms=1e3 * best / args.sets)
        # the solver alone on the block pagerank() makes: on a GPU the fused kernel, on the CPU
        # the step route (SciPy's SpMM), which the compiled walk replaced there
        from curnet.propagation.inputs import Columns
        solver = WalkSolver(dev, w, 0.15, redistribute=True, fused=True if dev.on_gpu else False)
        scaled = many @ sparse.diags(1.0 / np.asarray(many.sum(axis=0)).ravel())
        with dev.scope():
            block = Columns(sparse.csc_matrix(scaled), False).on_device(dev, 0, args.sets, "C")

            def run():
                with dev.scope():
                    return solver.solve(block)
            _, kfirst, kbest = first_and_best(run, 1, sync)
        if dev.on_gpu:
            moved, gathered = step_bytes(w, args.sets)
            row.update(kernel_s=kbest, kernel_first_s=kfirst, iterations=solver.iterations,
                       per_step_us=1e6 * kbest / solver.iterations, step_bytes=moved, gather_bytes=gathered,
                       step_bytes_at_4_8_TBps_us=1e6 * moved / 4.8e12)
        else:
            row.update(step_route_s=kbest, step_route_iterations=solver.iterations)
        record(**row)
    return results


if __name__ == "__main__":
    main()
