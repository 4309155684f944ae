"""Running the matrix: build each graph, time every layer and comparator, check every result."""
from __future__ import annotations

import datetime as _dt
import gc
import json
import os
import platform
import sys
import time
import zlib
from pathlib import Path

import numpy as np

from . import comparators as C
from .rows import cpu_model, git_commit
from .timing import Times, once, summary, timed
from .matrix import NETWORKX, PY_IGRAPH, R_IGRAPH, SCIPY, Case

REPO = Path(__file__).resolve().parent.parent
SLOW_S = 4.0        # a comparator run slower than this is timed once (said in the record)


class CheckFailed(AssertionError):
    pass


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- environment ------------------------------------------------------------------------
def gpu_info() -> dict:
    try:
        import cupy
        n = cupy.cuda.runtime.getDeviceCount()
        props = cupy.cuda.runtime.getDeviceProperties(0)
        name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        return {"gpu": name, "gpus": n, "gpu_memory_gib": round(props["totalGlobalMem"] / 2**30, 1),
                "cupy": cupy.__version__, "cuda_runtime": cupy.cuda.runtime.runtimeGetVersion()}
    except Exception as e:
        return {"gpu": None, "gpu_problem": f"{type(e).__name__}: {e}"[:200]}


def environment(with_r: bool) -> dict:
    import curnet
    env = {
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git_commit(),
        "host": platform.node(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
        "os": platform.platform(),
        "curnet": curnet.info(),
    }
    env.update(gpu_info())
    for mod in ("scipy", "igraph", "networkx", "numpy"):
        try:
            env[mod] = __import__(mod).__version__
        except Exception:
            env[mod] = None
    if with_r:
        env.update(C.r_versions())
    return env


# -- graphs and sources ------------------------------------------------------------------
def build_graph(case: Case):
    """The case's graph, weighted (SSSP needs weights; BFS and SCC ignore them)."""
    import curnet
    from curnet import datasets, generators
    p = case.params
    t = time.perf_counter()
    if case.kind == "dataset":
        scored = datasets.info(p["name"]).scored
        g = datasets.load(p["name"], weights="distance" if scored else "random", seed=1)
        how = "1 - score + 1e-6" if scored else "uniform (0, 1], seed 1"
    elif case.kind == "rmat":
        g = generators.rmat(p["scale"], p.get("edge_factor", 16), seed=p.get("seed", 1),
                            directed=p["directed"], weighted=p["weighted"])
        how = "uniform (0, 1], seeded" if p["weighted"] else "none"
    elif case.kind == "grid":
        gg = generators.grid(p["rows"], p["cols"])
        src, dst = gg.edge_sources(), gg.indices
        keep = src < dst
        w = (1.0 - np.random.default_rng(1).random(int(keep.sum()))).astype(np.float32)
        g = curnet.Graph.from_edges(src[keep], dst[keep], w, directed=False, num_vertices=len(gg))
        how = "uniform (0, 1], seed 1"
    else:
        raise ValueError(case.kind)
    return g, time.perf_counter() - t, how


def sample_sources(g, k: int, key: str) -> np.ndarray:
    """Seeded random sample of k vertices with out-degree >= 1 (PERFORMANCE.md)."""
    from curnet.sources import sample_sources as sample
    return np.sort(sample(g, k, seed=zlib.crc32(key.encode())))


def traversed_arcs(g, depths: np.ndarray) -> np.ndarray:
    """Per source: arcs out of the vertices it reaches (TEPS count, PERFORMANCE.md)."""
    deg = g.out_degree().astype(np.float64)
    out = np.empty(depths.shape[0], np.float64)
    step = max(1, (1 << 26) // max(1, depths.shape[1]))
    for i in range(0, depths.shape[0], step):
        out[i:i + step] = (depths[i:i + step] >= 0) @ deg
    return out


# -- checking ----------------------------------------------------------------------------
class Reference:
    """A comparator's result for all of a task's sources, or for some rows of them."""

    def __init__(self, tool: str, result, rows=None):
        self.tool, self.result, self.rows = tool, result, rows   # rows: indices into sources

    def describe(self) -> str:
        which = "all rows" if self.rows is None else f"{len(self.rows)} sampled rows"
        return f"{self.tool} ({which})"


def _rows(a, rows):
    return a if rows is None else a[rows]


class ArcWeights:
    """Cheapest weight of the arc u -> v, for checking predecessors."""

    def __init__(self, g):
        src = g.edge_sources().astype(np.int64)
        key = src * len(g) + g.indices
        order = np.lexsort((g.weights, key))
        self.key = key[order]
        self.w = g.weights[order].astype(np.float64)

    def __call__(self, u, v, n):
        q = u.astype(np.int64) * n + v
        i = np.searchsorted(self.key, q)
        i = np.minimum(i, len(self.key) - 1)
        ok = self.key[i] == q
        return np.where(ok, self.w[i], np.nan)


def check(algorithm, result, ref: Reference, g, sources, arcw=None) -> str:
    """Raise CheckFailed unless `result` (cuRnet's) agrees with the reference."""
    if algorithm == "bfs":
        got, want = _rows(result, ref.rows), ref.result
        if got.shape != want.shape or not np.array_equal(got, want):
            bad = np.argwhere(got != want)[:3].tolist() if got.shape == want.shape else got.shape
            raise CheckFailed(f"BFS depths differ from {ref.tool}: first differences at {bad}")
    elif algorithm in ("sssp", "sssp_dists"):
        dist = result[0] if algorithm == "sssp" else result
        want = ref.result[0] if isinstance(ref.result, tuple) else ref.result
        got = _rows(np.asarray(dist), ref.rows).astype(np.float64)
        if got.shape != want.shape:
            raise CheckFailed(f"distance matrix shape {got.shape}, {ref.tool} gives {want.shape}")
        if not np.array_equal(np.isinf(got), np.isinf(want)):
            raise CheckFailed(f"reachability differs from {ref.tool}")
        fin = np.isfinite(want)
        if not np.allclose(got[fin], want[fin], rtol=2e-5, atol=1e-5):
            i = np.argmax(np.abs(got[fin] - want[fin]))
            raise CheckFailed(f"distances differ from {ref.tool}: {got[fin][i]} vs {want[fin][i]}")
        if algorithm == "sssp":
            check_predecessors(result, g, sources, ref.rows, arcw)
    elif algorithm == "scc":
        got, want = np.asarray(result), np.asarray(ref.result)
        pairs = np.unique(np.stack([got, want]), axis=1).shape[1]
        if not (pairs == len(np.unique(got)) == len(np.unique(want))):
            raise CheckFailed(f"SCC partition differs from {ref.tool}: {len(np.unique(got))} vs "
                              f"{len(np.unique(want))} components")
    return "ok vs " + ref.describe()


def check_predecessors(result, g, sources, rows, arcw, max_rows=64):
    dist, pred = result
    n = len(g)
    idx = np.arange(len(sources)) if rows is None else np.asarray(rows)
    idx = idx[:: max(1, len(idx) // max_rows)]
    for r in idx:
        d, p = np.asarray(dist[r], np.float64), np.asarray(pred[r])
        s = sources[r]
        if p[s] not in (-1, s):
            raise CheckFailed(f"predecessor of source {s} is {p[s]}")
        v = np.flatnonzero((p >= 0) & (np.arange(n) != s))
        if not np.array_equal(np.isfinite(d), (p >= 0) | (np.arange(n) == s)):
            raise CheckFailed(f"row {r}: predecessors do not match reachability")
        w = arcw(p[v], v, n)
        if np.isnan(w).any():
            raise CheckFailed(f"row {r}: a predecessor is not joined to its vertex by an arc")
        if not np.allclose(d[p[v]] + w, d[v], rtol=2e-5, atol=1e-5):
            raise CheckFailed(f"row {r}: dist[pred[v]] + w(pred[v], v) != dist[v]")


# -- timing -------------------------------------------------------------------------------
def time_repeated(fn, runs: int, sync=lambda: None):
    """Warm-up, then `runs` timed calls (one result alive at a time); returns (times, the
    warm-up's result)."""
    first = fn()
    _, times = timed(fn, runs, sync=sync, keep=False, collect=True)
    return list(times), first


def time_comparator(comp, algorithm, sources, single: bool, max_runs: int):
    """Times a comparator; slow ones run once (their first run, noted)."""
    if single:
        comp.call(algorithm, sources[:1])            # warm-up
        raws, times = [], Times()
        for s in sources:
            raw, t = timed(lambda: comp.call(algorithm, [s]))
            raws.append(raw)
            times += t
        res = [comp.convert(algorithm, r) for r in raws]
        if algorithm == "sssp":
            d = np.vstack([r[0] for r in res])
            p = None if res[0][1] is None else np.vstack([r[1] for r in res])
            return times, (d, p), "each source alone"
        return times, np.vstack(res), "each source alone"
    raw, first = once(lambda: comp.call(algorithm, sources))
    if first > SLOW_S:
        return [first], comp.convert(algorithm, raw), "slow: 1 run, no separate warm-up"
    runs = 2 if first > SLOW_S / 4 else max_runs
    del raw
    raw, times = timed(lambda: comp.call(algorithm, sources), runs, keep=False, collect=True)
    return list(times), comp.convert(algorithm, raw), f"{runs} runs after a warm-up"


# -- cuRnet calls by layer ------------------------------------------------------------------
def curnet_call(algorithm, g, sources, backend):
    import curnet
    if algorithm == "bfs":
        return lambda: curnet.bfs(g, sources, backend=backend)
    if algorithm == "sssp":
        return lambda: curnet.sssp(g, sources, backend=backend)
    if algorithm == "sssp_dists":
        return lambda: curnet.sssp_dists(g, sources, backend=backend)
    if algorithm == "scc":
        return lambda: curnet.scc(g, backend=backend)
    raise ValueError(algorithm)


def engine_call(algorithm, g, sources, backend):
    """The engine layer: graph on the device, result left there (the drivers minus the copy).

    Runs the drivers' own batched loops (`bfs_blocks`, `sssp_blocks`) into a sink that keeps
    each batch's device arrays where they are; returns a function giving those blocks, and a
    function bringing them to cuRnet's host form.
    """
    from curnet.algorithms.bfs import bfs_blocks
    from curnet.algorithms.sinks import CollectSink
    from curnet.algorithms.sssp import sssp_blocks
    from curnet.backends import get_backend
    be = get_backend(backend)
    ids = None if sources is None else np.asarray(sources, np.int32)
    for member in be.members:             # the graph on the device(s) before any timing
        with member.device_scope():
            member.device_graph(g)
    to_host = be.members[0].to_host       # a device's copy to the host (any of its GPUs' blocks)

    if algorithm == "bfs":
        def run():
            sink = CollectSink()
            bfs_blocks(g, ids, sink, backend=backend, progress=False)
            return sink.ordered()

        def host(blocks):
            return np.ascontiguousarray(np.hstack([to_host(b) for b in blocks]).T)
        return run, host
    if algorithm in ("sssp", "sssp_dists"):
        with_pred = algorithm == "sssp"

        def run():
            sink = CollectSink()
            sssp_blocks(g, ids, sink, backend=backend, with_pred=with_pred, progress=False)
            return sink.ordered()

        def host(blocks):                 # each block is (dist, pred or None), (n, kb)
            d = np.vstack([to_host(x[0]).T for x in blocks])
            if not with_pred:
                return d
            return d, np.vstack([to_host(x[1]).T for x in blocks])
        return run, host
    if algorithm == "scc":
        from curnet.algorithms.common import primary
        from curnet.algorithms.scc import canonical_labels, component_labels
        dev = primary(be)
        hg = dev.device_graph(g)

        def run():
            with dev.device_scope():
                return component_labels(dev, hg)
        return run, lambda labels: canonical_labels(dev.to_host(labels))
    raise ValueError(algorithm)


def device_sync(backend):
    if backend != "cuda":
        return lambda: None
    import cupy
    return lambda: cupy.cuda.Device().synchronize()


# -- one case -----------------------------------------------------------------------------
class Runner:
    def __init__(self, *, backends, repeats=5, comparator_runs=3, with_r=True, r_e2e=True,
                 r_e2e_tasks=None, r_e2e_runs=5, workdir: Path, reference_rows=4, quiet=False):
        self.backends = backends
        self.repeats = max(5, repeats)
        self.comparator_runs = comparator_runs
        self.with_r = with_r and C.rscript() is not None
        self.r_e2e = r_e2e
        self.r_e2e_tasks = r_e2e_tasks or {}
        self.r_e2e_runs = r_e2e_runs
        self.workdir = workdir
        self.reference_rows = reference_rows
        self._config = dict(backends=backends, repeats=repeats, comparator_runs=comparator_runs,
                            with_r=with_r, r_e2e=r_e2e, r_e2e_tasks=r_e2e_tasks, r_e2e_runs=r_e2e_runs,
                            workdir=workdir,
                            reference_rows=reference_rows)
        self.records: list[dict] = []
        self.failures: list[str] = []
        self.notes: list[str] = []

    def config(self) -> dict:
        return dict(self._config)

    def add(self, rec):
        self.records.append(rec)
        if rec.get("check", "").startswith("FAILED"):
            self.failures.append(f"{rec['case']} {rec['algorithm']} {rec['sources']} "
                                 f"{rec['tool']} {rec.get('layer')}: {rec['check']}")
        med = rec.get("median_s")
        extra = f"  {rec['gteps']:.3f} GTEPS" if rec.get("gteps") else ""
        log(f"  {rec['algorithm']:<10} {rec['sources']:>9} {rec['tool']:<14} {rec.get('layer') or '':<16}"
            f" {'' if med is None else f'{med * 1e3:10.2f} ms'}{extra}  {rec.get('check', '')}"
            f"{'  ' + rec['note'] if rec.get('note') else ''}")

    def run_case(self, case: Case):
        try:
            g, build_s, weights = build_graph(case)
        except Exception as e:
            msg = f"{case.key}: skipped, graph unavailable ({type(e).__name__}: {e})"
            self.notes.append(msg)
            log("  " + msg)
            return
        base = {"case": case.key, "label": case.title(), "n": len(g), "edges": g.num_edges,
                "arcs": g.num_arcs, "directed": g.directed}
        log(f"{case.title()}: {len(g):,} vertices, {g.num_edges:,} edges, "
            f"{'directed' if g.directed else 'undirected'} (built in {build_s:.2f} s; weights {weights})")
        self.records.append(dict(base, algorithm="graph build", sources="", k=0, tool="cuRnet",
                                 layer="host build", **summary([build_s]), note=f"weights: {weights}"))
        wd = self.workdir / case.key
        # sources per task
        plans = []
        for i, task in enumerate(case.tasks):
            src = None
            if task.algorithm != "scc":
                src = sample_sources(g, task.sources.k(len(g)), f"{case.key}/{task.sources.label}")
            plans.append((f"t{i}", task, src))

        r_results = self._r_igraph(case, g, plans, wd)
        r_e2e = self._r_curnet(case, g, plans, wd)
        pyc = {}
        arcw = ArcWeights(g) if any(t.algorithm == "sssp" for _, t, _ in plans) and g.weighted else None

        for tid, task, src in plans:
            alg = task.algorithm
            rec0 = dict(base, algorithm=alg, sources=task.sources.label if task.sources else "",
                        k=0 if src is None else len(src))
            ref = None
            # python comparators, scipy first (the usual reference)
            order = [c for c in (SCIPY, PY_IGRAPH, NETWORKX) if c in task.comparators]
            for cname in order:
                try:
                    if cname not in pyc:
                        pyc[cname] = C.PYTHON_COMPARATORS[cname](g)
                    comp = pyc[cname]
                except C.Unavailable as e:
                    self.add(dict(rec0, tool=cname, layer="comparator", note=f"skipped: {e}"))
                    continue
                if not comp.supports(alg, g):
                    continue
                times, res, note = time_comparator(comp, alg, src, task.sources.single if task.sources else False,
                                                   self.comparator_runs)
                rec = dict(rec0, tool=cname, layer="comparator", version=comp.version,
                           **summary(times), note=note)
                if ref is None:
                    ref = Reference(cname, res)
                    rec["check"] = "reference"
                else:
                    rec["check"] = self._cross_check(alg, res, ref, g, src)
                self.add(rec)
                del res
            if tid in r_results:
                rr = r_results[tid]
                rec = dict(rec0, tool=R_IGRAPH, layer="comparator", version=r_results["_version"],
                           **summary(rr["times"]), note=rr["note"])
                if ref is not None:
                    rec["check"] = self._checksum_check(alg, rr["checksum"], ref)
                self.add(rec)
            if ref is None:
                ref = self._sample_reference(alg, g, src)
            self._curnet(task, g, src, ref, rec0, arcw)
            if tid in r_e2e:
                for variant, rr in r_e2e[tid].items():
                    rec = dict(rec0, tool="cuRnet", backend=r_e2e["_backend"], layer="R end-to-end",
                               variant=variant, **summary(rr["times"]), note=rr["note"],
                               result_bytes=rr.get("bytes"), split=rr.get("split"),
                               device=rr.get("device"))
                    rec["check"] = self._checksum_check(alg, rr["checksum"], ref) if ref.rows is None \
                        else "checksum not comparable (sampled reference)"
                    self.add(rec)
            gc.collect()
        if r_e2e.get("_build"):
            self.add(dict(base, algorithm="graph build", sources="", k=0, tool="cuRnet",
                          backend=r_e2e["_backend"], layer="R end-to-end",
                          **summary(r_e2e["_build"]), note="cuRnet_graph(data frame)"))
        if r_results.get("_build") is not None:
            self.add(dict(base, algorithm="graph build", sources="", k=0, tool=R_IGRAPH,
                          layer="comparator", **summary([r_results["_build"]]),
                          note="make_empty_graph + add_edges"))

    # -- the pieces -------------------------------------------------------------------------
    def _cross_check(self, alg, res, ref, g, src):
        try:
            if alg == "sssp" and (res[1] is None):
                res = res[0]
                alg = "sssp_dists"
            return check(alg, res, ref, g, src).replace("ok vs", "agrees with")
        except CheckFailed as e:
            return f"disagrees: {e}"    # a comparator's disagreement is reported, not fatal

    def _checksum_check(self, alg, got, ref):
        want = C.checksum(alg, ref.result)
        got = [float(x) for x in got]
        if alg == "scc" or alg == "bfs":
            ok = np.allclose(got, want, rtol=0, atol=0.5)
        else:
            ok = got[1] == want[1] and np.isclose(got[0], want[0], rtol=1e-5)
        return f"checksum agrees with {ref.tool}" if ok else f"checksum differs from {ref.tool}: {got} vs {want}"

    def _sample_reference(self, alg, g, src):
        """scipy on a few rows (the whole result for SCC), untimed."""
        comp = C.Scipy(g)
        if alg == "scc":
            return Reference(SCIPY, comp.convert(alg, comp.call(alg, None)))
        k = len(src)
        rows = np.unique(np.linspace(0, k - 1, min(k, self.reference_rows)).astype(int))
        return Reference(SCIPY, comp.convert(alg, comp.call(alg, src[rows])), rows)

    def _curnet(self, task, g, src, ref, rec0, arcw):
        alg = task.algorithm
        single = task.sources.single if task.sources else False
        for backend in self.backends:
            layers = ["engine", "engine+transfer"]
            if backend == "cpu" and not os.environ.get("CURNET_BENCH_CPU_ENGINE_LAYER"):
                layers = ["engine+transfer"]    # the same thing on the CPU (set the variable to test)
            for layer in layers:
                rec = dict(rec0, tool="cuRnet", backend=backend, layer=layer)
                sync = device_sync(backend)
                try:
                    if layer == "engine":
                        run_fn, to_host = engine_call(alg, g, src, backend)
                    else:
                        to_host = None
                    if single:
                        times, parts = [], []
                        call = (lambda s: engine_call(alg, g, np.array([s], np.int32), backend)[0]) \
                            if layer == "engine" else (lambda s: curnet_call(alg, g, np.array([s], np.int32), backend))
                        fns = [call(s) for s in src]
                        fns[0]()
                        for f in fns:
                            r, t = timed(f, sync=sync)
                            times += t
                            parts.append(to_host(r) if to_host else r)
                        result = (np.vstack([p[0] for p in parts]), np.vstack([p[1] for p in parts])) \
                            if alg == "sssp" else np.vstack(parts)
                        note = "each source alone"
                    else:
                        fn = run_fn if layer == "engine" else curnet_call(alg, g, src, backend)
                        times, first = time_repeated(fn, self.repeats, sync)
                        result = to_host(first) if to_host else first
                        note = f"{self.repeats} runs after a warm-up"
                        if backend == "cuda" and layer == "engine+transfer":
                            note += "; pageable host result"
                except Exception as e:
                    rec.update(note=f"unavailable: {type(e).__name__}: {e}"[:300])
                    self.add(rec)
                    continue
                rec.update(summary(times), note=note)
                try:
                    rec["check"] = check(alg, result, ref, g, src, arcw)
                except CheckFailed as e:
                    rec["check"] = f"FAILED: {e}"
                if alg == "bfs":
                    arcs = traversed_arcs(g, result)
                    rec["traversed_arcs"] = float(arcs.sum())
                    if single:
                        rec["gteps"] = float(np.median(arcs / np.asarray(times)) / 1e9)
                    else:
                        rec["gteps"] = float(arcs.sum() / rec["median_s"] / 1e9)
                rec["result_bytes"] = int(sum(np.asarray(x).nbytes for x in
                                              (result if isinstance(result, tuple) else (result,))))
                self.add(rec)
                del result

    def _r_igraph(self, case, g, plans, wd) -> dict:
        tasks = [dict(id=tid, algorithm=t.algorithm, sources=[] if src is None else src,
                      single=bool(t.sources and t.sources.single), max_runs=self.comparator_runs,
                      slow_s=SLOW_S)
                 for tid, t, src in plans if R_IGRAPH in t.comparators]
        if not tasks:
            return {}
        if not self.with_r:
            self.notes.append(f"{case.key}: R igraph skipped (--no-r, or Rscript not found)")
            return {}
        try:
            out = C.run_r("r_igraph.R", g, tasks, workdir=wd)
        except Exception as e:
            self.notes.append(f"{case.key}: R igraph failed: {e}")
            log(f"  R igraph failed: {e}")
            return {}
        res = dict(out["tasks"])
        res["_version"] = out.get("igraph")
        res["_build"] = out.get("build_s")
        return res

    def _r_curnet(self, case, g, plans, wd) -> dict:
        wanted = self.r_e2e_tasks.get(case.key, {})
        if not (self.r_e2e and wanted and self.with_r):
            return {}
        tasks = []
        for tid, t, src in plans:
            label = f"{t.algorithm}/{t.sources.label if t.sources else ''}"
            for variant in wanted.get(label, ()):
                tasks.append(dict(id=f"{tid}:{variant}", variant=variant,
                                  sources=[] if src is None else src, max_runs=self.r_e2e_runs))
        if not tasks:
            return {}
        backend = self.backends[0]
        env = {"CURNET_PYTHON": sys.executable, "CURNET_BENCH_REPO": str(REPO),
               "PYTHONPATH": os.pathsep.join([str(REPO / "python"), os.environ.get("PYTHONPATH", "")])}
        if backend == "cpu":
            env["CURNET_DISABLE_CUDA"] = "1"
        try:
            out = C.run_r("r_curnet.R", g, tasks, workdir=wd, extra_env=env)
        except Exception as e:
            msg = f"{case.key}: R end-to-end layer skipped ({str(e)[:400]})"
            if "there is no package called" in str(e):
                msg = f"{case.key}: R end-to-end layer skipped: the cuRnet R package is not installed"
            self.notes.append(msg)
            log("  " + msg)
            return {}
        res: dict = {"_backend": out.get("backend") or backend, "_build": out.get("build_s")}
        for key, v in out["tasks"].items():
            tid, variant = key.split(":")
            res.setdefault(tid, {})[variant] = v
        return res


def _case_worker(case, config, out_path):
    """Child process: run one case, write its records (isolates hangs, crashes and memory)."""
    os.setpgrp()            # its own process group: a timeout ends it and its Rscript together
    runner = Runner(**config)
    try:
        runner.run_case(case)
    except Exception as e:  # a crash in the harness or the engine: keep the case's records
        import traceback
        traceback.print_exc()
        runner.failures.append(f"{case.key}: crashed: {type(e).__name__}: {e}")
    Path(out_path).write_text(json.dumps({"records": runner.records, "notes": runner.notes,
                                          "failures": runner.failures}, default=_json_default))


def _kill_group(proc):
    import signal
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.join()


def run_plan(cases, *, out_json: Path, mode: str, runner: Runner, env: dict,
             case_timeout: float = 1200, merge: bool = False) -> dict:
    """Each case runs in a fresh (spawned) process with a time limit: a hang fails its case."""
    import multiprocessing as mp
    ctx = mp.get_context("spawn")
    t0 = time.perf_counter()
    for case in cases:
        out_path = runner.workdir / f"{case.key}.records.json"
        proc = ctx.Process(target=_case_worker, args=(case, runner.config(), str(out_path)))
        t = time.perf_counter()
        proc.start()
        timed_out = False
        try:
            proc.join(case_timeout)
            timed_out = proc.is_alive()
        finally:
            if proc.is_alive():
                _kill_group(proc)
        if timed_out:
            runner.failures.append(f"{case.key}: still running after {case_timeout:.0f} s, the hang guard "
                                   "(--case-timeout): hung, or a machine far slower than any expected")
            log(f"  {case.key}: timed out after {case_timeout:.0f} s")
        if out_path.exists():
            part = json.loads(out_path.read_text())
            runner.records += part["records"]
            runner.notes += part["notes"]
            runner.failures += part["failures"]
        elif proc.exitcode not in (0, None) and not any(case.key in f for f in runner.failures):
            runner.failures.append(f"{case.key}: the case's process died (exit {proc.exitcode})")
        log(f"  ({case.key}: {time.perf_counter() - t:.1f} s)")
    wall = time.perf_counter() - t0
    if merge and out_json.exists():
        # a partial run (--only): keep the other cases' results from the previous file
        old = json.loads(out_json.read_text())
        ran = {c.key for c in cases}
        keep = lambda s: not any(s.startswith(k + ":") or s.startswith(k + " ") for k in ran)
        runner.records = [r for r in old["records"] if r["case"] not in ran] + runner.records
        runner.notes = [n for n in old.get("notes", []) if keep(n)] + runner.notes
        runner.failures = [f for f in old.get("failures", []) if keep(f)] + runner.failures
        wall += old.get("wall_s", 0)
        env = dict(env, merged_from=old["environment"].get("date"))
    doc = {"mode": mode, "environment": env, "wall_s": wall,
           "notes": runner.notes, "failures": runner.failures, "records": runner.records,
           "method": {"repeats": runner.repeats, "comparator_runs": runner.comparator_runs,
                      "slow_comparator_s": SLOW_S, "case_timeout_s": case_timeout,
                      "teps": "arcs out of the vertices each source reaches (both directions of "
                              "an undirected edge, duplicates counted), summed over sources, / "
                              "median time; one-source rows: median over sources of arcs/time"}}
    out_json.parent.mkdir(parents=True, exist_ok=True)
    out_json.write_text(json.dumps(doc, indent=1, default=_json_default))
    return doc


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)
