"""`curnet warm-up` (and `cuRnet_install(gpu = TRUE)`): every GPU kernel compiled once, into
cuRnet's kernel cache (backends/kernel_cache.py), so that no user call compiles.

Two kinds of kernels run on a GPU: cuRnet's own modules (kernels/*.cu, compiled whole), and
the elementwise and reduction kernels CuPy generates for the drivers' array code, one for each
operation, dtype and number of dimensions. Only running the code makes CuPy generate the
second kind, so the warm-up runs each analysis once on small graphs, in both precisions
(Python's float32 and R's float64) and on both kinds of routes (short and long diameter,
negative weights). Compiling needs no `nvcc`: CuPy compiles with NVRTC, a library its wheel
depends on. Without a GPU there is nothing to compile (the CPU engine has no kernels).
"""
from __future__ import annotations

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
    """Compile every kernel cuRnet runs on `backend`'s GPU(s) into the kernel cache. `steps`:
    names from STEPS (all by default). Returns what was done: the cache folder, kernels
    compiled (and the seconds spent compiling them), each step's seconds, failures."""
    folder = kernel_cache.use()
    problem = cuda_status()
    report: dict[str, Any] = {"cache": folder, "gpu": problem is None, "compiled": 0, "compile_seconds": 0.0,
              "steps": {}, "failed": {}}
    if problem is not None:
        report["reason"] = problem
        say(f"curnet warm-up: no usable GPU ({problem}): the CPU engine has no kernels to compile")
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
