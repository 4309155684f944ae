"""Network propagation, cuRnet beside python-igraph in one run (docs/propagation.md).

    PYTHONPATH=python python bench/propagation.py --backend cuda --out results.json
    PYTHONPATH=python python bench/propagation.py --backend cpu --quick

On a STRING-size network (PCSF's STRING interactome when its TSV is given with --string, else
an R-MAT graph of about its size): one personalized PageRank (cuRnet and igraph's PRPACK, the
largest difference between them), 10,000 seed sets at once, a 1,000-draw degree-matched null of
a 200-gene set, the dense regularized-Laplacian kernel; then PageRank on R-MAT (scale
--rmat-scale, directed) in edges per second per iteration. Each time is the best of --repeat
warm calls, after one call that builds the graph's device copy and compiles CuPy's kernels
(timed apart: "first"). Results are written to --out after every measurement."""
from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from scipy import sparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import curnet  # noqa: E402
from curnet.propagation.operators import open_device, walk  # noqa: E402
from curnet.propagation.solvers import WalkSolver  # noqa: E402


def timed(fn, repeat, sync):
    first_t0 = time.perf_counter()
    out = fn()
    sync()
    first = time.perf_counter() - first_t0
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return out, first, best


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


def rmat_on_device(scale, edge_factor, seed, xp):
    """Graph500 R-MAT edges drawn with the device's generator (CuPy's on a GPU: the host's
    generator would take minutes at scale 22), as curnet.generators.rmat_edges draws them."""
    a, b, c = 0.57, 0.19, 0.19
    n, m = 1 << scale, edge_factor << scale
    rng = xp.random.default_rng(seed) if hasattr(xp.random, "default_rng") else xp.random.RandomState(seed)
    src = xp.zeros(m, xp.int64)
    dst = xp.zeros(m, xp.int64)
    ab, c_norm, a_norm = a + b, c / (1 - (a + b)), a / (a + b)
    for bit in range(scale):
        ii = rng.random(m) > ab
        jj = rng.random(m) > xp.where(ii, c_norm, a_norm)
        src |= ii.astype(xp.int64) << bit
        dst |= jj.astype(xp.int64) << bit
    perm = xp.asarray(np.random.default_rng(seed).permutation(n))
    to_host = (lambda x: x.get()) if xp is not np else (lambda x: x)
    return to_host(perm[src]).astype(np.int32), to_host(perm[dst]).astype(np.int32), n


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
    ap.add_argument("--skip", default="", help="comma-separated: kernel, rmat, sets")
    args = ap.parse_args(argv)
    if args.quick:
        args.string_scale, args.rmat_scale, args.sets, args.null, args.repeat = 10, 12, 200, 100, 1

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
    solver = WalkSolver(dev, w, 0.15, redistribute=True, tol=1e-10)
    ours, first, best = timed(lambda: curnet.pagerank(g, pers, backend=args.backend), args.repeat, sync)
    curnet.pagerank(g, pers, backend=args.backend)
    with dev.scope():
        solver.solve(dev.to_device(np.asfortranarray((pers / pers.sum())[:, None])))
    row = dict(net, what="one personalized PageRank", tool="cuRnet", first_s=first, seconds=best,
               iterations=solver.iterations)
    if not args.no_igraph:
        try:
            h = igraph_graph(g)
            want, _, ig_best = timed(lambda: h.personalized_pagerank(reset=pers.tolist()), args.repeat, lambda: None)
            row["max_abs_diff_vs_igraph"] = float(np.abs(ours - np.array(want)).max())
            record(**dict(net, what="one personalized PageRank", tool="python-igraph (PRPACK, CPU)",
                          seconds=ig_best))
            row["speedup_vs_igraph"] = ig_best / best
        except ImportError:
            row["igraph"] = "python-igraph not installed"
    record(**row)

    seeds = rng.choice(n, 200, replace=False)
    _, first, best = timed(lambda: curnet.propagation_null(g, seeds, n=args.null, backend=args.backend),
                           args.repeat, sync)
    record(**dict(net, what=f"{args.null:,}-draw degree-matched null, 200-gene set (RWR)", tool="cuRnet",
                  first_s=first, seconds=best))

    if "kernel" not in args.skip:
        _, first, best = timed(lambda: curnet.diffusion_kernel(g, "regularized_laplacian", backend=args.backend),
                               1, sync)
        record(**dict(net, what="dense regularized Laplacian kernel", tool="cuRnet", first_s=first, seconds=best))

    # -- R-MAT PageRank, edges per second per iteration --------------------------------------
    if "rmat" not in args.skip:
        src, dst, nr = rmat_on_device(args.rmat_scale, 16, 2, dev.xp)
        big = curnet.Graph.from_edges(src, dst, directed=True, num_vertices=nr)
        del src, dst
        t0 = time.perf_counter()
        wb = walk(big, dev)
        sync()
        build = time.perf_counter() - t0
        sb = WalkSolver(dev, wb, 0.15, redistribute=True, tol=1e-10)
        start = np.full((nr, 1), 1.0 / nr)

        def run_big():
            with dev.scope():
                return sb.solve(dev.to_device(start))
        _, first, best = timed(run_big, args.repeat, sync)
        record(network=f"R-MAT {args.rmat_scale} (directed)", vertices=nr, edges=big.num_edges,
               what="PageRank (tol 1e-10)", tool="cuRnet", build_s=build, first_s=first, seconds=best,
               iterations=sb.iterations, edges_per_s_per_iteration=big.num_arcs * sb.iterations / best)

    # -- many seed sets at once (last: the longest) --------------------------------------------
    if "sets" not in args.skip:
        many = sparse.csc_matrix((np.ones(args.sets * 20), (rng.integers(0, n, args.sets * 20),
                                                            np.repeat(np.arange(args.sets), 20))),
                                 shape=(n, args.sets))
        _, first, best = timed(lambda: curnet.pagerank(g, many, backend=args.backend), 1, sync)
        record(**dict(net, what=f"{args.sets:,} personalized PageRanks (20 seeds each)", tool="cuRnet",
                      first_s=first, seconds=best, per_set_ms=1e3 * best / args.sets))
    return results


if __name__ == "__main__":
    main()
