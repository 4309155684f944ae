"""`curnet warm-up` (and `cuRnet_install()`): every GPU kernel compiled once, into cuRnet's
kernel cache (backends/kernel_cache.py), and the CPU's compiled routes into Numba's cache, so
that no user call compiles (docs/first-call.md).

Two kinds of kernels run on a GPU: cuRnet's own modules (kernels/*.cu, compiled whole), and
the elementwise and reduction kernels CuPy generates for the drivers' array code, one for each
operation, dtype and number of dimensions. Only running the code makes CuPy generate the
second kind, so the warm-up runs each analysis once on small graphs, in both precisions
(Python's float32 and R's float64) and on both kinds of routes (short and long diameter,
negative weights). Compiling needs no `nvcc`: CuPy compiles with NVRTC, a library its wheel
depends on.

The CPU backend's compiled routes (Numba, backends/cpu/compiled*.py: strong components and the
many-source BFS's pull levels on large graphs, Girvan-Newman's searches, Leiden and Louvain)
are compiled first, on every machine, into Numba's own on-disk cache (cache=True:
`__pycache__` beside each file where it can be written, else `~/.cache/numba`;
`NUMBA_CACHE_DIR` when set). Without Numba that step is
skipped (those calls take their NumPy/SciPy routes, which compile nothing).
"""
from __future__ import annotations

import contextlib
import importlib
import pkgutil
import time
from typing import Any

import numpy as np

from ..backends import cuda_status, kernel_cache
from ..generators import rmat_edges
from ..graph import Graph


def _graphs(scale: int = 12, path_length: int = 3000) -> dict:
    """Small graphs whose calls take each GPU route: R-MAT (short diameter) with weights in both
    precisions, a path longer than CudaTuning.long_levels (the long-diameter routes), a DAG
    with negative weights."""
    rng = np.random.default_rng(0)
    src, dst, n = rmat_edges(scale, 8, seed=0)
    w = 1.0 - rng.random(len(src))
    graphs = {}
    for dtype in (np.float32, np.float64):
        tag = np.dtype(dtype).name
        graphs[f"rmat {tag}"] = Graph.from_edges(src, dst, w.astype(dtype), directed=True, num_vertices=n,
                                                 dtype=dtype)
        graphs[f"rmat undirected {tag}"] = Graph.from_edges(src, dst, w.astype(dtype), directed=False,
                                                            num_vertices=n, dtype=dtype)
        line = np.arange(path_length - 1, dtype=np.int32)
        graphs[f"path {tag}"] = Graph.from_edges(line, line + 1, np.ones(path_length - 1, dtype), directed=False,
                                                 num_vertices=path_length, dtype=dtype)
        lo, hi = np.minimum(src, dst), np.maximum(src, dst)
        keep = lo != hi
        negative = np.where(rng.random(int(keep.sum())) < 0.1, -0.1, 1.0).astype(dtype)
        graphs[f"dag negative {tag}"] = Graph.from_edges(lo[keep], hi[keep], negative, directed=True,
                                                         num_vertices=n, dtype=dtype)
    return graphs


def _traversals(graphs, backend):
    from ..algorithms.bfs import bfs
    from ..algorithms.scc import scc
    from ..algorithms.sssp import sssp, sssp_dists
    for name, g in graphs.items():
        for k in ((1, 8) if name.startswith("path") else (1, 64, 300)):
            sources = np.arange(min(k, len(g)))
            bfs(g, sources, backend=backend)
            sssp(g, sources, backend=backend)
            sssp_dists(g, sources, backend=backend)
        scc(g, backend=backend)


def _centralities(graphs, backend):
    from ..analyses import betweenness_centrality as bc
    from ..analyses import measures
    for name, g in graphs.items():
        if name.startswith("dag"):
            continue
        if name.startswith("path"):     # the long-diameter routes: a few sources are enough
            bc.betweenness(g, sources=np.arange(8), backend=backend)
            measures.eccentricity(g, np.arange(8), backend=backend)
            continue
        for weighted in (False, True):
            bc.betweenness(g, weighted=weighted, backend=backend)
            bc.betweenness(g, weighted=weighted, sources=np.arange(min(300, len(g))), backend=backend)
            bc.edge_betweenness(g, weighted=weighted, backend=backend)
            measures.closeness(g, weighted=weighted, backend=backend)
            measures.harmonic_centrality(g, weighted=weighted, backend=backend)
            measures.eccentricity(g, np.arange(64), weighted=weighted, backend=backend)
            measures.mean_distance(g, weighted=weighted, backend=backend)
        measures.ego_size(g, order=2, backend=backend)
        measures.distance_table(g, backend=backend)


def _communities_and_forests(graphs, backend):
    from ..analyses.communities import girvan_newman
    from ..analyses.steiner_forest import pcsf
    from ..analyses.paths import shortest_paths
    for dtype in (np.float32, np.float64):
        g = graphs[f"rmat undirected {np.dtype(dtype).name}"]
        shortest_paths(g, [0, 1, 2], backend=backend, predecessors=True)
        small = Graph.from_edges(*_ring_of_cliques(), directed=False, dtype=dtype)
        girvan_newman(small, backend=backend)
        girvan_newman(small, weighted=True, backend=backend)
    rng = np.random.default_rng(1)
    src, dst, n = _ppi_like(rng)
    names = np.array([f"g{i}" for i in range(n)])
    ppi = Graph.from_edges(names[src], names[dst], 0.1 + rng.random(len(src)), directed=False,
                           dtype=np.float64)
    pcsf(ppi, {f"g{i}": 1.0 + i % 5 for i in range(0, n, 7)}, backend=backend)
    from ..analyses.community_detection.partitions import leiden, louvain
    for dtype in (np.float32, np.float64):
        g = graphs[f"rmat undirected {np.dtype(dtype).name}"]
        for weighted in (False, True):
            leiden(g, weighted=weighted, seed=1, backend=backend)
            leiden(g, objective="CPM", resolution=0.05, weighted=weighted, seed=1, backend=backend)
            louvain(g, weighted=weighted, seed=1, backend=backend)


def _propagation(graphs, backend):
    from .. import propagation
    for name, g in graphs.items():
        if not name.startswith("rmat"):
            continue
        scores = np.zeros(len(g))
        scores[:20] = 1.0
        for weighted in (False, True):
            propagation.pagerank(g, weighted=weighted, backend=backend)
            propagation.pagerank(g, np.stack([scores, scores[::-1]], axis=1), weighted=weighted, backend=backend)
            propagation.rwr(g, [0, 1, 2], weighted=weighted, backend=backend)
            for method in ("raw", "ml", "z"):
                propagation.diffuse(g, scores, method=method, weighted=weighted, n_perm=20,
                                    backend=backend)


def _ring_of_cliques():
    """Ten 6-cliques in a ring, weighted: Girvan-Newman's textbook case."""
    src, dst = [], []
    for c in range(10):
        base = 6 * c
        for i in range(6):
            for j in range(i + 1, 6):
                src.append(base + i)
                dst.append(base + j)
        src.append(base)
        dst.append((base + 6) % 60)
    return np.array(src), np.array(dst), np.linspace(0.5, 2.0, len(src))


def _ppi_like(rng):
    """A simple undirected R-MAT graph (no self-loops, each pair once), as PCSF takes."""
    src, dst, n = rmat_edges(10, 4, seed=2)
    pairs = np.unique(np.stack([np.minimum(src, dst), np.maximum(src, dst)], axis=1), axis=0)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    return pairs[:, 0], pairs[:, 1], n


def _coexpression(backend):
    from .. import coexpression as cx
    from ..analyses.linkage import hclust
    rng = np.random.default_rng(3)     # 40 samples x 300 genes driven by 4 factors, as modules
    expr = rng.normal(size=(40, 4)) @ rng.normal(size=(4, 300)) + rng.normal(size=(40, 300))
    for dtype in (np.float32, np.float64):
        for method in cx.METHODS:
            cx.coexpression_edges(expr, method, threshold=0.3, backend=backend, dtype=dtype)
            cx.coexpression_edges(expr, method, top_k=5, backend=backend, dtype=dtype)
        cx.adjacency(expr, backend=backend, dtype=dtype)
        cx.adjacency(expr, "signed", backend=backend, dtype=dtype)
        cx.tom_similarity_from_expr(expr, backend=backend, dtype=dtype)
        cx.pick_soft_threshold(expr, backend=backend, dtype=dtype)
    d = np.abs(np.random.default_rng(4).normal(size=(50, 50)))
    d = d + d.T
    np.fill_diagonal(d, 0)
    for method in ("average", "complete", "single"):
        hclust(d, method, backend=backend)


def _kernel_modules(graphs, backend):
    """cuRnet's own modules, whole: kernels a short call would not reach are compiled too."""
    import os
    from ..backends.cuda.launch import KERNEL_DIR, compiled_module
    failed = []
    for file in sorted(os.listdir(KERNEL_DIR)):
        if file.endswith(".cu"):
            try:    # each module on its own: one that does not compile leaves the others compiled
                for cooperative in (False, True):
                    compiled_module(file[:-3], cooperative).compile()
            except Exception as e:
                failed.append(f"{file}: {str(e).strip().splitlines()[0]}")
    if failed:
        raise RuntimeError("kernel modules that did not compile: " + "; ".join(failed))


def numba_routines() -> dict:
    """Every Numba routine of the engine (the graph's counting sort, compiled_sort.py, and the
    CPU backend's modules backends/cpu/compiled*.py), by "module.name": each a dispatcher,
    whose `.stats` counts its loads from the cache (hits) and its compiles (misses)."""
    from numba.core.registry import CPUDispatcher
    from ..backends import cpu
    names = ["curnet.compiled_sort"] + [f"{cpu.__name__}.{info.name}" for info in pkgutil.iter_modules(cpu.__path__)
                                        if info.name.startswith("compiled")]
    routines = {}
    for full_name in names:
        module = importlib.import_module(full_name)
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                routines[f"{full_name.rpartition('.')[2]}.{name}"] = value
    return routines


@contextlib.contextmanager
def _small_graphs_take_the_compiled_routes(parallel: bool):
    """The size thresholds lowered, so that the warm-up's small graphs take the routes large
    graphs take: the compiled counting sort that builds a graph (from
    graph.COMPILED_SORT_MIN_ARCS arcs), the compiled SCC (from scc.COMPILED_MIN_ARCS arcs), the
    many-source BFS's compiled pull (from bfs.COMPILED_PULL_MIN_ARCS arcs), the compiled
    Dijkstra (from sssp.COMPILED_DIJKSTRA_MIN_WORK), the weighted sweeps' compiled DAG arcs
    (from brandes.COMPILED_DAG_MIN_ENTRIES), the propagations' compiled iterations (from
    propagation.COMPILED_MIN_WORK and _MIN_COLUMNS) and, with `parallel`, Girvan-Newman's searches over
    the threads (from compiled_brandes.PARALLEL_SCANS scans)."""
    from .. import graph
    from ..backends.cpu import bfs, brandes, compiled_brandes, propagation, scc, sssp
    saved = (graph.COMPILED_SORT_MIN_ARCS, scc.COMPILED_MIN_ARCS, bfs.COMPILED_PULL_MIN_ARCS,
             sssp.COMPILED_DIJKSTRA_MIN_WORK, brandes.COMPILED_DAG_MIN_ENTRIES, propagation.COMPILED_MIN_WORK,
             propagation.COMPILED_MIN_COLUMNS, compiled_brandes.PARALLEL_SCANS)
    graph.COMPILED_SORT_MIN_ARCS = scc.COMPILED_MIN_ARCS = bfs.COMPILED_PULL_MIN_ARCS = 0
    sssp.COMPILED_DIJKSTRA_MIN_WORK = brandes.COMPILED_DAG_MIN_ENTRIES = propagation.COMPILED_MIN_WORK = 0
    propagation.COMPILED_MIN_COLUMNS = 0
    if parallel:
        compiled_brandes.PARALLEL_SCANS = 0
    try:
        yield
    finally:
        (graph.COMPILED_SORT_MIN_ARCS, scc.COMPILED_MIN_ARCS, bfs.COMPILED_PULL_MIN_ARCS,
         sssp.COMPILED_DIJKSTRA_MIN_WORK, brandes.COMPILED_DAG_MIN_ENTRIES, propagation.COMPILED_MIN_WORK,
         propagation.COMPILED_MIN_COLUMNS, compiled_brandes.PARALLEL_SCANS) = saved


def _cpu_calls(graphs) -> None:
    """The calls that reach every compiled CPU routine: the many-source BFS's pull (once: its
    bit arrays are the same whatever the weights' precision), and in both precisions (Python's
    float32, R's float64) Dijkstra (with and without predecessors), weighted betweenness's DAG
    arcs, the random walk (PageRank; the symmetric walk with restart) and the regularized
    Laplacian's conjugate gradients (diffuse), SCC, Girvan-Newman (hops
    and lengths; its searches on one thread and over the threads), Leiden (modularity and CPM)
    and Louvain. SCC's graphs: R-MAT (one large component, peeled) and many triangles (left to
    Tarjan's search once pivots stop finding large components)."""
    from ..algorithms.bfs import bfs
    from ..algorithms.scc import scc
    from ..algorithms.sssp import sssp, sssp_dists
    from ..analyses.betweenness_centrality import betweenness
    from ..analyses.communities import girvan_newman
    from ..analyses.community_detection.partitions import leiden, louvain
    from ..propagation.scores import diffuse
    from ..propagation.walks import pagerank, rwr
    corner = np.arange(300 * 3)                 # 300 directed triangles: components too small to peel
    triangles = (corner, corner - corner % 3 + (corner + 1) % 3)
    with _small_graphs_take_the_compiled_routes(parallel=False):
        bfs(graphs["rmat undirected float32"], np.arange(64), backend="cpu")
    for dtype in (np.float32, np.float64):
        tag = np.dtype(dtype).name
        cliques = Graph.from_edges(*_ring_of_cliques(), directed=False, dtype=dtype)
        with _small_graphs_take_the_compiled_routes(parallel=False):
            sssp(graphs[f"rmat {tag}"], np.arange(4), backend="cpu")
            sssp_dists(graphs[f"rmat {tag}"], np.arange(4), backend="cpu")
            betweenness(graphs[f"rmat {tag}"], weighted=True, sources=np.arange(4), backend="cpu")
            pagerank(graphs[f"rmat {tag}"], np.ones((len(graphs[f"rmat {tag}"]), 2)), backend="cpu")
            rwr(graphs[f"rmat undirected {tag}"], [[0], [1]], normalize="symmetric", backend="cpu")
            diffuse(graphs[f"rmat undirected {tag}"], np.ones((len(graphs[f"rmat undirected {tag}"]), 2)),
                    backend="cpu")
        for parallel in (False, True):
            with _small_graphs_take_the_compiled_routes(parallel):
                scc(graphs[f"rmat {tag}"], backend="cpu")
                scc(Graph.from_edges(*triangles, directed=True, dtype=dtype), backend="cpu")
                for weighted in (False, True):
                    girvan_newman(cliques, weighted=weighted, backend="cpu")
        g = graphs[f"rmat undirected {tag}"]
        for weighted in (False, True):
            leiden(g, weighted=weighted, seed=1, backend="cpu")
            leiden(g, objective="CPM", resolution=0.05, weighted=weighted, seed=1, backend="cpu")
            louvain(g, weighted=weighted, seed=1, backend="cpu")


def warm_up_cpu(graphs=None, say=print) -> dict:
    """Compile every Numba routine of the CPU backend into Numba's on-disk cache, by running
    the calls that reach them (_cpu_calls). Returns the Numba version, the cache folders, the
    routines compiled now and loaded from the cache, the seconds, and the routines no call
    reached; {"numba": None, ...} where Numba is not installed."""
    try:
        import numba
    except ImportError as e:    # absent, or present but unable to load (e.g. a NumPy too new)
        say(f"curnet warm-up: Numba is not installed or does not load ({e}): no compiled CPU routes "
            "to compile (the CPU backend takes its NumPy/SciPy routes)")
        return {"numba": None, "compiled": 0, "loaded": 0}
    routines = numba_routines()
    t = time.perf_counter()
    _cpu_calls(graphs if graphs is not None else _graphs())
    stats = {name: d.stats for name, d in routines.items()}
    report = {"numba": numba.__version__, "seconds": round(time.perf_counter() - t, 3),
              "cache": sorted({s.cache_path for s in stats.values()}), "routines": len(routines),
              "compiled": sum(sum(s.cache_misses.values()) for s in stats.values()),
              "loaded": sum(sum(s.cache_hits.values()) for s in stats.values()),
              # a routine only other routines call is compiled into them, and has no signature
              # of its own where they were loaded from the cache; one inlined (inline="always")
              # never has one
              "not reached": sorted(name for name, d in routines.items()
                                    if not d.signatures and d.targetoptions.get("inline") != "always")}
    say(f"curnet warm-up: CPU routes (Numba {numba.__version__}): {report['compiled']} compiled, "
        f"{report['loaded']} loaded from the cache, {report['seconds']:.1f} s; cache: "
        + ", ".join(report["cache"]))
    return report


#: The warm-up's steps, in order: (name, what it runs).
STEPS = (
    ("kernel modules", _kernel_modules),
    ("traversals", _traversals),
    ("centralities", _centralities),
    ("communities and forests", _communities_and_forests),
    ("propagation", _propagation),
    ("co-expression", lambda graphs, backend: _coexpression(backend)),
)


def warm_up(backend: str = "cuda", steps=None, say=print) -> dict:
    """Compile the CPU backend's Numba routines into Numba's cache (warm_up_cpu), then, unless
    `backend` is "cpu", every kernel cuRnet runs on `backend`'s GPU(s) into the kernel cache.
    `steps`: names from STEPS (all by default). Returns what was done: the CPU's report
    ("cpu"), the kernel cache folder, kernels compiled (and the seconds spent compiling them),
    each step's seconds, failures."""
    folder = kernel_cache.use()
    # "failed" last: cuRnet_install's warning shows the last lines the command printed
    report: dict[str, Any] = {"cache": folder, "gpu": False, "reason": None, "cpu": None, "compiled": 0,
                              "compile_seconds": 0.0, "steps": {}, "failed": {}}
    try:
        report["cpu"] = warm_up_cpu(say=say)
    except Exception as e:  # reported; the GPU's kernels still compile
        report["failed"]["CPU compiled routes"] = f"{type(e).__name__}: {e}"
        say(f"curnet warm-up: the CPU's compiled routes failed: {report['failed']['CPU compiled routes']}")
    if backend == "cpu":
        return report
    problem = cuda_status()
    report["gpu"] = problem is None
    if problem is not None:
        report["reason"] = problem
        say(f"curnet warm-up: no usable GPU ({problem}): no GPU kernels to compile")
        return report
    from ..backends.cuda.launch import counting_compiles
    chosen = [s for s in STEPS if steps is None or s[0] in steps]
    unknown = set(steps or ()) - {s[0] for s in STEPS}
    if unknown:
        raise ValueError(f"no warm-up step {sorted(unknown)}; the steps: {[s[0] for s in STEPS]}")
    say(f"curnet warm-up: compiling into {folder} ({kernel_cache.cached_kernels(folder)} kernels there)")
    graphs = _graphs()
    with counting_compiles() as tally:
        for name, run in chosen:
            t = time.perf_counter()
            done = tally.count
            try:
                run(graphs, backend)
            except Exception as e:  # one step's failure is reported; the others still compile
                report["failed"][name] = f"{type(e).__name__}: {e}"
            report["steps"][name] = round(time.perf_counter() - t, 3)
            say(f"  {name}: {tally.count - done} kernels compiled, {report['steps'][name]:.1f} s"
                + (f" (failed: {report['failed'][name]})" if name in report["failed"] else ""))
    report["compiled"], report["compile_seconds"] = tally.count, round(tally.seconds, 3)
    say(f"curnet warm-up: {tally.count} kernels compiled in {tally.seconds:.1f} s; "
        f"{kernel_cache.cached_kernels(folder)} kernels in {folder}")
    return report
