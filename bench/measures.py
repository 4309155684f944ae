"""Benchmarks of the distance measures (curnet.analyses.measures), each checked in the same run.

    python -m bench measures --backend cpu --igraph --r-igraph     # the CPU rows
    python -m bench measures --backend cuda --rmat-scale 20        # the GPU rows

Rows:
  * all-vertex closeness on scNET (hops; 19,100 sources), cuRnet beside python-igraph and
    R igraph when asked (--igraph, --r-igraph), each result compared with cuRnet's;
  * weighted closeness on scNET for --weighted-sample vertices (igraph's Dijkstra is slow);
  * all-vertex closeness and distance_table on an R-MAT graph (every vertex a source, GPU),
    with GTEPS (the arcs of each source's component, summed over the sources, per second)
    and the process's peak host memory; closeness checked against the CPU backend on a
    sample of sources, the histogram by its pair count.

scNET comes from curnet.datasets' cache, or from .data/H_sapiens.net (copy it along to a
machine without network). Writes JSON to --json (default $OUT/measures.json if OUT is set;
bench/rows.py's format) and prints one line a row.
"""
from __future__ import annotations

import argparse
import resource

import numpy as np

import curnet
from curnet import generators

from . import rows as results
from .comparators import r_igraph_vertex_values
from .networks import load_scnet
from .timing import once

rows: list = []


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def row(name, tool, seconds, check, **extra):
    rows.append({"row": name, "tool": tool, "seconds": seconds, "check": check,
                 "peak_rss_mib": peak_rss_mib(), **extra})
    more = " ".join(f"{k}={v}" for k, v in extra.items())
    print(f"  {name:44s} {tool:22s} {seconds:9.2f} s  {check}  {more}", flush=True)


def cpu_check(g, ours, vertices, args, **kw) -> str:
    """A GPU result compared with the CPU backend on a sample of its vertices."""
    if args.backend == "cpu":
        return "unchecked (add --igraph)"
    pick = np.random.default_rng(11).choice(len(vertices), min(args.check_sources, len(vertices)),
                                            replace=False)
    cpu = curnet.closeness(g, vertices[pick], backend="cpu", **kw)
    return agree(ours[pick], cpu) + f" with cpu on {len(pick)} vertices"


def undirected_edges(g):
    """Each undirected edge once: (src, dst, weights or None)."""
    src, dst = g.edge_sources(), g.indices
    keep = src < dst
    return src[keep], dst[keep], (g.weights[keep] if g.weighted else None)


def agree(a, b) -> str:
    ok = np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-9, equal_nan=True)
    return "agrees" if ok else "DIFFERS"


def python_igraph_closeness(g, vertices, weighted):
    import igraph as ig
    src, dst, w = undirected_edges(g)
    G = ig.Graph(n=len(g), edges=np.c_[src, dst].tolist(), directed=False)
    return once(lambda: np.array(G.closeness(vertices.tolist(), weights=w.tolist() if weighted else None,
                                              normalized=False), float))


def r_igraph_closeness(g):
    """All-vertex closeness (hops) in R igraph, timed inside R (graph building excluded)."""
    return r_igraph_vertex_values(g, 'closeness(g, mode = "all", weights = NA)')


def bench_scnet(args):
    g = load_scnet(weighted=False)
    print(f"scNET: {g}", flush=True)
    everyone = np.arange(len(g))
    name = f"closeness, all {len(g):,} vertices, scNET hops"
    ours, t = once(lambda: curnet.closeness(g, normalized=False, backend=args.backend))
    reference = None
    if args.igraph:
        theirs, t_ig = python_igraph_closeness(g, everyone, weighted=False)
        reference = theirs
        row(name, "python-igraph", t_ig, "reference")
    if args.r_igraph:
        theirs, t_r = r_igraph_closeness(g)
        row(name, "R igraph", t_r, agree(theirs, ours) + " with cuRnet")
        reference = theirs if reference is None else reference
    row(name, f"cuRnet {args.backend}", t,
        agree(ours, reference) + " with igraph" if reference is not None
        else cpu_check(g, ours, everyone, args, normalized=False))

    gw = load_scnet(weighted=True)
    sample = np.random.default_rng(3).choice(len(gw), args.weighted_sample, replace=False)
    name = f"closeness, {len(sample):,} vertices, scNET weighted"
    ours, t = once(lambda: curnet.closeness(gw, sample, normalized=False, backend=args.backend))
    if args.igraph:
        theirs, t_ig = python_igraph_closeness(gw, sample, weighted=True)
        row(name, "python-igraph", t_ig, "reference")
        check = agree(ours, theirs) + " with python-igraph"
    else:
        check = cpu_check(gw, ours, sample, args, normalized=False)
    row(name, f"cuRnet {args.backend}", t, check)


def component_arcs(g) -> int:
    """Arcs of each source's (weak) component, summed over all sources: the traversed arcs
    of an all-sources run on an undirected graph."""
    import scipy.sparse as sp
    from scipy.sparse import csgraph
    n = len(g)
    a = sp.csr_matrix((np.ones(g.num_arcs, np.int8), g.indices, g.indptr), shape=(n, n))
    _, label = csgraph.connected_components(a, directed=True, connection="weak")
    size = np.bincount(label, minlength=label.max() + 1).astype(np.int64)
    arcs = np.bincount(label[g.edge_sources()], minlength=len(size)).astype(np.int64)
    return int((size * arcs).sum())


def bench_rmat(args):
    g = generators.rmat(args.rmat_scale, seed=0)
    n = len(g)
    arcs = component_arcs(g)
    print(f"R-MAT {args.rmat_scale}: {g}; {arcs:,} arcs traversed by an all-sources run", flush=True)
    sample = np.random.default_rng(7).choice(n, args.check_sources, replace=False)
    cpu_closeness = curnet.closeness(g, sample, backend="cpu")

    closeness, t = once(lambda: curnet.closeness(g, backend=args.backend))
    row(f"closeness, all {n:,} vertices, R-MAT {args.rmat_scale}", f"cuRnet {args.backend}", t,
        agree(closeness[sample], cpu_closeness) + f" with cpu on {len(sample)} sources",
        gteps=round(arcs / t / 1e9, 1))

    (counts, unconnected), t = once(lambda: curnet.distance_table(g, backend=args.backend))
    pairs_ok = int(counts.sum()) + unconnected == n * (n - 1) // 2
    row(f"distance_table, R-MAT {args.rmat_scale}", f"cuRnet {args.backend}", t,
        "pair count agrees" if pairs_ok else "PAIR COUNT DIFFERS", gteps=round(arcs / t / 1e9, 1),
        longest=len(counts))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench measures", description=__doc__.split("\n")[0])
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--only", default="scnet,rmat", help="comma-separated: scnet, rmat")
    ap.add_argument("--igraph", action="store_true", help="time python-igraph beside (CPU machine)")
    ap.add_argument("--r-igraph", action="store_true", help="time R igraph beside (needs Rscript, igraph)")
    ap.add_argument("--weighted-sample", type=int, default=1000)
    ap.add_argument("--rmat-scale", type=int, default=20)
    ap.add_argument("--check-sources", type=int, default=64)
    ap.add_argument("--json", default=results.default_out("measures.json"))
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    if "scnet" in only:
        bench_scnet(args)
    if "rmat" in only:
        bench_rmat(args)
    results.write(args.json, rows, backend=args.backend)


if __name__ == "__main__":
    main()
