"""Where GPU betweenness spends its time: one batch's phases timed apart (device synchronised
around each), and whole runs, on PCSF's STRING (and R-MAT with --rmat-scale), each with the
level sweeps' arc pieces (backends.brandes.ARC_PIECE) and without (a thread walks a hub's
whole list, as before), and with the sources in id order and in breadth-first order
(algorithms/betweenness/source_order.py). Needs CuPy and a GPU; warms up first.

    python -m bench betweenness-profile                     # STRING, hops and weighted
    python -m bench betweenness-profile --rmat-scale 20     # R-MAT too (generation ~1.5 min)
    python -m bench betweenness-profile --phases            # an exact R-MAT 20 run, phase by phase

Prints one line a measurement (machine and date first); see docs/gpu-notes.md (issue 25).
"""
from __future__ import annotations

import argparse
import collections
import datetime
import itertools
import os
import platform
import time

import numpy as np
import cupy as cp

import curnet
from curnet import generators
from curnet.algorithms.betweenness import driver
from curnet.algorithms.betweenness.graph_reductions import (busiest_first, fold_leaf_sources, induced, renumbering,
                                                            with_arcs_only, without_leaves)
from curnet.algorithms.betweenness.source_order import breadth_first_rank, near_sources_together
from curnet.algorithms.betweenness.sweeps import Dag, dependencies, shortest_path_dag
from curnet.algorithms.sssp import solve_batch
from curnet.backends import get_backend
from curnet.backends.brandes import ARC_PIECE
from curnet.backends.cuda.brandes import LANE_SOURCES, NARROW_RATIO, TILE_SOURCES
from curnet.work import count_work

from .networks import load_string, string_file
from .timing import cuda_sync, timed

NO_SPLIT = 1 << 30


def clock(fn):
    """(fn's result, its wall ms), the device drained before and after."""
    out, t = timed(fn, sync=cuda_sync)
    return out, t.median * 1e3


def batch_phases(gpu, g, ids, weighted):
    """ms of each phase of one batch: traversal (SSSP and DAG levels apart when weighted),
    sigma+delta sweeps, arcs' dependencies."""
    hg = gpu.device_graph(g)
    out = {}
    if weighted:
        dist, out["sssp"] = clock(lambda: cp.ascontiguousarray(solve_batch(gpu, hg, ids, False)[0].T))
        (level, index), out["dag levels"] = clock(lambda: gpu.bc_levels(hg, dist))
        dag = Dag(level, dist, index)
    else:
        dag, out["bfs"] = clock(lambda: shortest_path_dag(gpu, hg, ids, False, None))   # and its index
    weight = cp.ones(hg.n)
    _, out["sigma+delta"] = clock(lambda: dependencies(gpu, hg, ids, dag, weight, False, False))
    _, out["sigma+delta+arcs"] = clock(lambda: dependencies(gpu, hg, ids, dag, weight, True, False))
    out["levels"] = int(dag.level.max())
    return out


def report(name, values):
    print(f"  {name:58s} " + "  ".join(f"{k} {v:8.1f} ms" if isinstance(v, float) else f"{k} {v}"
                                        for k, v in values.items()), flush=True)


def profile(gpu, g, label, weighted, sources):
    n = len(g)
    k = len(sources) if sources is not None else n
    kb = gpu.bc_batch_size(n, k, weighted)
    every = np.arange(n, dtype=np.int32) if sources is None else np.asarray(sources, np.int32)
    ordered = near_sources_together(g, every)
    what = "weighted" if weighted else "hops"
    for piece in (NO_SPLIT, ARC_PIECE):
        gpu.brandes.piece = piece
        tag = "no pieces" if piece == NO_SPLIT else f"pieces of {piece}"
        for order, ids in (("id order", every), ("bfs order", ordered)):
            mid = max(0, min(len(ids) - kb, len(ids) // 2 - kb // 2))
            report(f"{label} {what}, one batch of {kb}, {order}, {tag}", batch_phases(gpu, g, ids[mid:mid + kb], weighted))
        _, t = clock(lambda: curnet.betweenness(g, weighted=weighted, sources=sources, backend="cuda"))
        report(f"{label} {what}, whole run ({k:,} sources), {tag}", {"total": t})
    gpu.brandes.piece = ARC_PIECE


def sweep_account(gpu, g, label, kb, profile_sweeps=False, order="bfs", push=True, position=0.5, lists=True,
                  narrow=True, lanes=LANE_SOURCES, tiles=None, rows_in="id"):
    """One batch of kb sources on the graph the driver traverses (no isolated vertex; leaves
    folded as sources and left out as targets): the exact run's columns in breadth-first order,
    the batch at fraction `position` of it; or `order` "random": kb sources drawn at random, in
    id order, as a sampled run takes them. Level by level: the
    entries at the level, the warps of (piece, 32 sources) with a lane there and the arcs
    they walk against the arcs the level's entries need (lanes x arcs / 32: no idle lane), and
    each sigma and delta launch timed apart. `profile_sweeps`: the sweeps run between
    cupy.cuda.profiler start and stop (for ncu --profile-from-start off). `push`: each level
    swept from the cheaper end, as the driver does (else every level pulled). `lists`: each
    sweep visits the tasks its level's index lists, as the driver does (else every task).
    `narrow`: path counts copied as float32 for the next level's pull, level-free, where
    cuda.brandes.NARROW_RATIO says, as the driver does (else never). `lanes`: the pulls' sources
    a lane (cuda.brandes.LANE_SOURCES; 1 or 2). `tiles`: the sweeps' sources a tile
    (cuda.brandes.TILE_SOURCES), a dict as it, or its default. `rows_in`: the rows (vertices)
    of the blocks as the driver numbers them ("id"; busiest first, without_leaves), renumbered
    in breadth-first order ("bfs") or by degree, busiest first ("degree"), the same sources
    either way."""
    g, _ = with_arcs_only(g)          # as the driver: the blocks' rows are the vertices with an arc,
    every = np.flatnonzero(np.diff(g.indptr) > 0).astype(np.int32)
    columns = fold_leaf_sources(g, every, np.ones(len(g)))[0]
    rows = renumbering(without_leaves(g)[1], len(g))
    g = without_leaves(g)[0]          # and, with leaves folded, no leaf
    exact = near_sources_together(g, rows[columns])     # the columns an exact run traverses, in its order
    new_id = np.arange(len(g))
    if rows_in != "id":
        kept = np.argsort(breadth_first_rank(g)) if rows_in == "bfs" else busiest_first(g, np.arange(len(g)))
        g, new_id = induced(g, kept)[0], renumbering(kept, len(g))
    hg = gpu.device_graph(g)
    if order == "random":
        every = np.flatnonzero(np.diff(g.indptr) > 0).astype(np.int32)
        ids = np.sort(np.random.default_rng(kb).choice(every, min(kb, len(every)), replace=False))
    else:
        first = min(max(0, int(len(exact) * position) - kb // 2), max(0, len(exact) - kb))
        ids = new_id[exact[first:first + kb]].astype(np.int32)
    kb = len(ids)
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    level = shortest_path_dag(gpu, hg, ids, False, None).level
    cp.cuda.Device().synchronize()
    bfs_ms = (time.perf_counter() - t0) * 1e3     # with the batch's index (timed alone below)
    n = hg.n
    deg = cp.asarray(np.diff(g.indptr).astype(np.float64))
    pieces = cp.asarray(((np.diff(g.indptr) + ARC_PIECE - 1) // ARC_PIECE).astype(np.float64))
    groups = (kb + 31) // 32
    padded = cp.full((n, groups * 32), -1, level.dtype)
    padded[:, :kb] = level
    deepest = int(level.max())
    sigma = cp.zeros((n, kb), np.float64)
    sigma[cp.asarray(ids.astype(np.int64)), cp.arange(kb)] = 1.0
    share = cp.zeros((n, kb), np.float64)
    weight = cp.ones(n)
    ev = [cp.cuda.Event() for _ in range(2)]

    def event_ms(fn):
        ev[0].record()
        fn()
        ev[1].record()
        ev[1].synchronize()
        return cp.cuda.get_elapsed_time(ev[0], ev[1])

    made = []
    gpu.brandes.narrow_ratio = NARROW_RATIO if narrow else None
    gpu.brandes.lane_sources = lanes
    gpu.brandes.tile_sources = dict(TILE_SOURCES if tiles is None else tiles)
    index_ms = event_ms(lambda: made.append(gpu.bc_level_index(hg, level)))
    index = made[0]

    def pushed(at, other):      # the device's choice (BrandesSweeps.pushes, as the sweeps ask it)
        return push and gpu.brandes.pushes(index, at, other)

    if profile_sweeps:
        cp.cuda.profiler.start()
    times = {}
    for at in range(1, deepest + 1):
        times[("sigma", at)] = event_ms(lambda: gpu.bc_sigma_level(hg, level, None, sigma, at, push=pushed(at, at - 1),
                                                                index=index if lists else None))
    for at in range(deepest, 0, -1):
        times[("delta", at)] = event_ms(lambda: gpu.bc_delta_level(hg, level, None, sigma, share, weight, at,
                                                                push=pushed(at, at + 1),
                                                                index=index if lists else None))
    if profile_sweeps:
        cp.cuda.profiler.stop()
    how = ("push where cheaper" if push else "pull") + (", listed tasks" if lists else ", every task") \
        + f", {lanes} source{'s' if lanes > 1 else ''} a lane" \
        + ", tiles " + "/".join(f"{k} {v}" for k, v in gpu.brandes.tile_sources.items()) \
        + f", rows in {rows_in} order, push ratio {gpu.brandes.push_ratio:g}" \
        + (f", counts narrowed at levels {sorted(index.narrow.levels)}" if index is not None and index.narrow.levels
           else "")
    where = f"at {position:g} of the order" if order != "random" else "random"
    print(f"  {label}: one batch of {kb} sources ({where}, {how}), {deepest} levels, {n:,} vertices,"
          f" {len(g.indices):,} arcs; BFS levels and index {bfs_ms:.1f} ms, the index {index_ms:.1f} ms", flush=True)
    for at in range(1, deepest + 1):
        on = padded == at
        entries = int(on.sum())
        group_on = on.reshape(n, groups, 32).any(axis=2).sum(axis=1).astype(np.float64)
        warps = float((group_on * pieces).sum())
        walked = float((group_on * deg).sum())               # warp arc-iterations
        needed = float((on.sum(axis=1) * deg).sum()) / 32
        print(f"    level {at}: entries {entries:,}, warps {warps:,.0f}, warp arc-iterations {walked:,.0f}"
              f" (no idle lane: {needed:,.0f}, waste {walked / max(needed, 1):.2f}x),"
              f" sigma {times[('sigma', at)]:.2f} ms{' (push)' if pushed(at, at - 1) else ''},"
              f" delta {times[('delta', at)]:.2f} ms{' (push)' if pushed(at, at + 1) else ''}", flush=True)
    total = sum(times.values())
    print(f"    sweeps {total:.1f} ms = {total / kb * 1e3:.1f} us a source", flush=True)


def exact_phases(gpu, scale: int) -> None:
    """R-MAT `scale` exact betweenness as the driver runs it, each batch's phases timed with a
    device sync around them (a little slower than an untimed run): the traversal
    (shortest_path_dag), the level index, the sigma and delta sweeps, the rest of
    dependencies(), and what lies outside both (the host's share of the run)."""
    spent: dict = collections.defaultdict(float)
    calls: collections.Counter = collections.Counter()

    def phase(name, fn):
        def run(*a, **k):
            cp.cuda.Device().synchronize()
            t = time.perf_counter()
            out = fn(*a, **k)
            cp.cuda.Device().synchronize()
            spent[name] += time.perf_counter() - t
            calls[name] += 1
            return out
        return run

    saved = driver.shortest_path_dag, driver.dependencies         # as the driver calls them
    driver.shortest_path_dag = phase("traversal", driver.shortest_path_dag)
    driver.dependencies = phase("dependencies", driver.dependencies)
    for name in ("bc_level_index", "bc_sigma_level", "bc_delta_level"):
        setattr(gpu, name, phase(name, getattr(gpu, name)))
    try:
        g = generators.rmat(scale, seed=0)
        _, t = clock(lambda: curnet.betweenness(g, backend="cuda", sources=np.arange(4096, dtype=np.int32)))
        print(f"  warm-up {t / 1e3:.2f} s", flush=True)
        spent.clear()
        calls.clear()
        with count_work() as work:
            _, total = clock(lambda: curnet.betweenness(g, backend="cuda"))
    finally:
        driver.shortest_path_dag, driver.dependencies = saved
        for name in ("bc_level_index", "bc_sigma_level", "bc_delta_level"):
            delattr(gpu, name)
    total /= 1e3
    batches = calls["traversal"]
    print(f"  R-MAT {scale} exact, phases synchronised: {total:.2f} s, {work['betweenness sources traversed']:,}"
          f" sources traversed in {batches} batches, {work['betweenness rows']:,} rows")
    rows = dict(spent)
    rows["dependencies, the rest"] = spent["dependencies"] - sum(
        spent[k] for k in ("bc_level_index", "bc_sigma_level", "bc_delta_level"))
    rows["outside the two"] = total - spent["traversal"] - spent["dependencies"]
    for name, secs in rows.items():
        print(f"    {name:26s} {secs:8.2f} s  {secs / batches * 1e3:8.2f} ms a batch  ({calls.get(name, 0)} calls)",
              flush=True)


def use_kernel_file(module: str, path: str) -> None:
    """Compile kernels/<module>.cu from `path` instead from now on (an A/B in one process)."""
    from curnet.backends.cuda import launch
    original = launch.kernel_source

    def source(name):
        if name != module:
            return original(name)
        with open(os.path.join(launch.KERNEL_DIR, "common.cuh")) as f, open(path) as g:
            return f.read() + "\n" + g.read()
    launch.kernel_source = source
    for key in [k for k in launch._modules if k[0] == module]:
        del launch._modules[key]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench betweenness-profile", description=__doc__.split("\n")[0])
    ap.add_argument("--string-file", default=string_file())
    ap.add_argument("--weighted-sources", type=int, default=1000)
    ap.add_argument("--rmat-scale", type=int, default=0, help="0: no R-MAT rows")
    ap.add_argument("--rmat-sources", type=int, default=4096)
    ap.add_argument("--account", type=int, default=0, metavar="KB",
                    help="only the level-by-level account of one R-MAT batch of KB sources")
    ap.add_argument("--order", default="bfs", help="with --account: bfs and/or random (comma-separated)")
    ap.add_argument("--kernel-files", default="",
                    help="with --account: comma-separated variants of kernels/betweenness.cu, each timed")
    ap.add_argument("--at", default="0.5", help="with --account: where the breadth-first batches "
                    "sit in the exact run's order, fractions (comma-separated, e.g. 0,0.5,0.99)")
    ap.add_argument("--lists", default="on", help="with --account: on and/or off (comma-separated): "
                    "each sweep visits its level's listed tasks, or every task")
    ap.add_argument("--narrow", default="on", help="with --account: on and/or off (comma-separated): path "
                    "counts copied as float32 for a level-free next pull where the rule says, or never")
    ap.add_argument("--lanes", default=str(LANE_SOURCES), help="with --account: 1 and/or 2 (comma-separated): "
                    "the pulls' sources a lane")
    ap.add_argument("--tiles", default="", help="with --account: comma-separated sigma/delta/push sources a "
                    "tile of the sweeps' task lists (e.g. 0/0/0,256/64/0; default cuda.brandes.TILE_SOURCES)")
    ap.add_argument("--rows", default="id", help="with --account: id, bfs and/or degree (comma-separated): the "
                    "blocks' rows as the driver numbers them (busiest first: betweenness.graph_reductions.busiest_first), "
                    "renumbered in breadth-first order, or by degree again")
    ap.add_argument("--push-ratio", default="", help="with --account: comma-separated values of "
                    "the GPU's push ratio (BrandesSweeps.push_ratio) to try (default its own)")
    ap.add_argument("--pull-too", action="store_true", help="with --account: also every level pulled")
    ap.add_argument("--phases", action="store_true",
                    help="only an exact R-MAT run (--rmat-scale, 20 by default) with each batch's phases timed")
    ap.add_argument("--profile-sweeps", action="store_true",
                    help="with --account: profile only the sweeps (ncu --profile-from-start off)")
    args = ap.parse_args(argv)
    gpu = get_backend("cuda")
    when = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    print(f"{when} on {platform.node()}, {gpu.describe()}", flush=True)
    if args.phases:
        exact_phases(gpu, args.rmat_scale or 20)
        return
    if args.account:
        r = generators.rmat(args.rmat_scale or 20, seed=0)
        label = f"R-MAT {args.rmat_scale or 20}"
        print(f"  the driver's batch here: {gpu.bc_batch_size(len(r), len(r), False)} sources", flush=True)
        for source in args.kernel_files.split(",") if args.kernel_files else [None]:
            if source:              # an A/B of betweenness.cu's variants, one process
                print(f"  kernels of {source}", flush=True)
                use_kernel_file("betweenness", source)
            for lanes in args.lanes.split(","):        # compiles
                sweep_account(gpu, r, label, 64, lanes=int(lanes))
            for order in args.order.split(","):
                for push in (True, False) if args.pull_too else (True,):
                    for position in [float(x) for x in args.at.split(",")] if order == "bfs" else [0.5]:
                        for lists in args.lists.split(","):
                            for narrow in args.narrow.split(","):
                                for lanes in args.lanes.split(","):
                                    for tiles, rows_in, ratio in itertools.product(
                                            args.tiles.split(",") if args.tiles else [""], args.rows.split(","),
                                            args.push_ratio.split(",") if args.push_ratio else [""]):
                                        tile = dict(zip(TILE_SOURCES, map(int, tiles.split("/")))) if tiles else None
                                        saved, gpu.brandes.push_ratio = gpu.brandes.push_ratio, float(ratio or gpu.brandes.push_ratio)
                                        sweep_account(gpu, r, label, args.account, args.profile_sweeps, order, push,
                                                      position, lists == "on", narrow == "on", int(lanes), tile,
                                                      rows_in)
                                        gpu.brandes.push_ratio = saved
        return
    _, g = load_string(args.string_file)
    few = np.arange(64)
    _, t = clock(lambda: [curnet.betweenness(g, weighted=w, sources=few, backend="cuda") for w in (False, True)])
    report("warm-up (compiles, graph copy)", {"total": t})
    profile(gpu, g, "STRING", False, None)
    ws = np.sort(np.random.default_rng(6).choice(len(g), args.weighted_sources, replace=False))
    profile(gpu, g, "STRING", True, ws)
    if args.rmat_scale:
        r = generators.rmat(args.rmat_scale, seed=0)
        ids = np.random.default_rng(args.rmat_sources).choice(len(r), args.rmat_sources, replace=False)
        profile(gpu, r, f"R-MAT {args.rmat_scale}", False, ids)


if __name__ == "__main__":
    main()
