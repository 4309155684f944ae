"""Benchmarks of betweenness centrality (curnet.betweenness), every result checked in the same run.

    python -m bench betweenness --backend cpu --only string --string-sources 200   # small CPU check
    python -m bench betweenness --backend cuda --r-igraph                          # the GPU rows

Rows:
  * PCSF's STRING (../shared/pcsf/string_pcsf.tsv.gz, simplified as PCSF's
    construct_interactome: 15,405 vertices, 175,821 edges), exact betweenness, unweighted
    and weighted by `cost`, against python-igraph (and R igraph with --r-igraph, unweighted);
    --string-sources N runs N sources only (igraph's subset betweenness) for a quick run;
  * R-MAT (--rmat-scale, default 20), exact, all sources, GTEPS by the BFS rule (the arcs of
    each source's component, summed over the sources, per second), checked against the CPU
    backend on --check-sources sources; --sweep times it against the number of sources;
  * scNET, betweenness_centrality(G, k, seed) through NetworkX's dispatch (backend="curnet")
    against plain NetworkX with the same seed (the same sampled sources): --nx-k (1000);
  * Girvan-Newman (communities.edge_betweenness_removals) on a --gn-vertices STRING
    sub-network (the first vertices a BFS from the best-connected one reaches, induced),
    against R igraph's cluster_edge_betweenness: the same removal order asked.

Writes JSON to --json (default $OUT/betweenness.json if OUT is set; bench/rows.py's format);
prints one line a row.
"""
from __future__ import annotations

import argparse
import os
import platform

import numpy as np

import curnet
from curnet import generators
from curnet.graph import Graph

from . import rows as results
from .comparators import r_igraph_on_edges, r_igraph_vertex_values
from .measures import agree, component_arcs, row, rows, undirected_edges
from .networks import load_scnet, load_string, string_file
from .timing import once

def r_igraph_betweenness(g):
    """Exact unweighted betweenness in R igraph, timed inside R (graph building excluded)."""
    return r_igraph_vertex_values(g, "betweenness(g, weights = NA)")


def networkit_betweenness(g):
    """Exact unweighted betweenness in networkit (all threads), timed around run() only; its
    undirected scores count each pair from both ends, so they are halved to igraph's."""
    import networkit as nk
    src, dst, _ = undirected_edges(g)
    G = nk.Graph(len(g), weighted=False, directed=False)
    G.addEdges((src.astype(np.uint64), dst.astype(np.uint64)))
    nk.setNumberOfThreads(os.cpu_count() or 1)
    b = nk.centrality.Betweenness(G, normalized=False)
    _, t = once(b.run)
    return np.asarray(b.scores(), float) / 2, t


def bench_string(args):
    G, g = load_string(args.string_file)
    print(f"STRING: {g}", flush=True)
    sources = None
    if args.string_sources:
        sources = np.sort(np.random.default_rng(5).choice(len(g), args.string_sources, replace=False))
    runs = [(False, sources), (True, sources)]
    if args.weighted_sources:                    # igraph's weighted run is the slow one
        runs[1] = (True, np.sort(np.random.default_rng(6).choice(len(g), args.weighted_sources, replace=False)))
    if args.backend != "cpu":
        # The first calls compile the kernels (NVRTC, CuPy's elementwise ones) and copy the graph
        # to the device: the rows' own calls, timed apart, so the rows time the work. (A 64-source
        # warm-up left 20 kernel modules that the exact run loads: likely why its row took 1.71 s
        # on a fresh H100, 0.09 s once they were in CuPy's cache.)
        _, t = once(lambda: [curnet.betweenness(g, weighted=w, sources=s, backend=args.backend) for w, s in runs])
        row("betweenness, STRING, first calls (the rows' own, hops and weighted)", f"cuRnet {args.backend}", t,
            "warm-up: compiles kernels, not compared")
    for weighted, sources in runs:
        what = f"{len(sources):,} sources" if sources is not None else "exact"
        name = f"betweenness, STRING {what}, {'weighted (cost)' if weighted else 'hops'}"
        ours, t = once(lambda: curnet.betweenness(g, weighted=weighted, sources=sources, backend=args.backend))
        weights = G.es["cost"] if weighted else None
        kw = {} if sources is None else {"sources": sources.tolist()}
        theirs, t_ig = once(lambda: np.array(G.betweenness(weights=weights, **kw), float))
        row(name, "python-igraph", t_ig, "reference")
        row(name, f"cuRnet {args.backend}", t, agree(ours, theirs) + " with python-igraph",
            speedup=round(t_ig / t, 1))
        if args.r_igraph and not weighted and sources is None:
            theirs_r, t_r = r_igraph_betweenness(g)
            row(name, "R igraph", t_r, agree(theirs_r, ours) + " with cuRnet", speedup=round(t_r / t, 1))
        if args.networkit and not weighted and sources is None:
            theirs_nk, t_nk = networkit_betweenness(g)
            row(name, f"networkit ({os.cpu_count()} threads)", t_nk, agree(theirs_nk, ours) + " with cuRnet",
                speedup=round(t_nk / t, 1))


def bench_rmat(args):
    g = generators.rmat(args.rmat_scale, seed=0)
    n = len(g)
    arcs = component_arcs(g)
    print(f"R-MAT {args.rmat_scale}: {g}; {arcs:,} arcs traversed by an all-sources BFS", flush=True)
    sample = np.sort(np.random.default_rng(7).choice(n, args.check_sources, replace=False))
    cpu = curnet.betweenness(g, sources=sample, backend="cpu")
    ours = curnet.betweenness(g, sources=sample, backend=args.backend)
    print(f"  {len(sample)} sources on {args.backend} vs cpu: {agree(ours, cpu)}", flush=True)
    for k in [int(x) for x in args.sweep.split(",") if x]:
        ids = np.random.default_rng(k).choice(n, min(k, n), replace=False)
        _, t = once(lambda: curnet.betweenness(g, sources=ids, backend=args.backend))
        row(f"betweenness, R-MAT {args.rmat_scale}, {len(ids):,} sources", f"cuRnet {args.backend}", t,
            "timing only")
    if not args.rmat_exact:
        return
    _, t = once(lambda: curnet.betweenness(g, backend=args.backend))
    row(f"betweenness, R-MAT {args.rmat_scale}, exact (all {n:,} sources)", f"cuRnet {args.backend}", t,
        f"{len(sample)} sources agreed with cpu" if agree(ours, cpu) == "agrees" else "SAMPLE DIFFERS",
        gteps=round(arcs / t / 1e9, 2))


def bench_networkx(args):
    import networkx as nx
    g = load_scnet(weighted=False)
    src, dst, _ = undirected_edges(g)
    G = nx.Graph()
    G.add_nodes_from(range(len(g)))
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    print(f"scNET as NetworkX: {G}", flush=True)
    name = f"nx.betweenness_centrality, scNET, k={args.nx_k}"
    nx.config.backends.curnet.backend = args.backend
    ours, t = once(lambda: nx.betweenness_centrality(G, k=args.nx_k, seed=42, backend="curnet"))
    ref_k = min(args.nx_ref_k or args.nx_k, args.nx_k)
    if ref_k == args.nx_k:
        theirs, t_nx = once(lambda: nx.betweenness_centrality(G, k=args.nx_k, seed=42))
        row(name, "networkx", t_nx, "reference")
        agreed = agree([ours[v] for v in G], [theirs[v] for v in G])
    else:   # plain NetworkX at k=ref_k (checked equal there), its time scaled to k: one BFS a source
        small, _ = once(lambda: nx.betweenness_centrality(G, k=ref_k, seed=42, backend="curnet"))
        theirs, t_ref = once(lambda: nx.betweenness_centrality(G, k=ref_k, seed=42))
        t_nx = t_ref * args.nx_k / ref_k
        row(name, "networkx", t_nx, f"extrapolated from k={ref_k} ({t_ref:.2f} s) x {args.nx_k / ref_k:g}")
        agreed = agree([small[v] for v in G], [theirs[v] for v in G]) + f" at k={ref_k}"
    row(name, f"cuRnet {args.backend} (dispatch)", t, agreed + " with NetworkX", speedup=round(t_nx / t, 1))


R_GIRVAN_NEWMAN = r"""t <- proc.time()[["elapsed"]]
c <- cluster_edge_betweenness(g, weights = NA)
t <- proc.time()[["elapsed"]] - t
con <- file(a[4], "wb"); writeBin(c(as.double(c$removed.edges - 1), c$edge.betweenness), con); close(con)
cat(t, "\n")
"""


def bench_girvan_newman(args):
    """Girvan-Newman on a STRING sub-network, cuRnet beside R igraph's cluster_edge_betweenness
    (the same removal order asked of both)."""
    from curnet.analyses.communities import edge_betweenness_removals
    G, _ = load_string(args.string_file)
    hub = int(np.argmax(G.degree()))
    sub = G.induced_subgraph(G.bfs(hub)[0][:args.gn_vertices])
    e = np.array(sub.get_edgelist(), np.int32)
    gs = Graph.from_edges(e[:, 0], e[:, 1], directed=False, num_vertices=sub.vcount())
    name = f"Girvan-Newman, STRING {sub.vcount():,} vertices, {sub.ecount():,} edges"
    (removed, values), t = once(lambda: edge_betweenness_removals(gs, weighted=False, backend=args.backend))
    got, printed = r_igraph_on_edges(R_GIRVAN_NEWMAN, e, sub.vcount())
    theirs, their_values, t_r = got[:len(e)].astype(np.int64), got[len(e):], float(printed[-1])
    if np.array_equal(theirs, removed):
        check = "same removal order as R igraph"
    elif np.allclose(values, their_values, rtol=1e-9):
        # equal maxima: cuRnet takes the lowest edge id, igraph whichever its rounding favours
        check = f"same betweenness at every removal; order differs at {int((theirs != removed).sum())} tied steps"
    else:
        check = "REMOVALS DIFFER"
    row(name, "R igraph", t_r, "reference")
    row(name, f"cuRnet {args.backend}", t, check, speedup=round(t_r / t, 1))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench betweenness", description=__doc__.split("\n")[0])
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--only", default="string,rmat,networkx", help="comma-separated: string, rmat, networkx, gn")
    ap.add_argument("--string-file", default=string_file())
    ap.add_argument("--string-sources", type=int, default=0, help="0: exact (every vertex a source)")
    ap.add_argument("--weighted-sources", type=int, default=0,
                    help="the weighted STRING row from this many sources (0: as --string-sources)")
    ap.add_argument("--r-igraph", action="store_true", help="time R igraph beside (exact, hops)")
    ap.add_argument("--networkit", action="store_true", help="time networkit beside (exact, hops)")
    ap.add_argument("--rmat-scale", type=int, default=20)
    ap.add_argument("--rmat-exact", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--sweep", default="", help="comma-separated source counts to time on R-MAT")
    ap.add_argument("--check-sources", type=int, default=32)
    ap.add_argument("--nx-k", type=int, default=1000)
    ap.add_argument("--nx-ref-k", type=int, default=0,
                    help="time plain NetworkX at this k and scale to --nx-k (it takes ~0.5 s a source)")
    ap.add_argument("--gn-vertices", type=int, default=2000)
    ap.add_argument("--json", default=results.default_out("betweenness.json"))
    args = ap.parse_args(argv)
    when = results.now()
    print(f"{when} on {platform.node()} ({os.cpu_count()} CPUs), backend "
          f"{curnet.backends.get_backend(args.backend).describe()}", flush=True)
    only = set(args.only.split(","))
    if "string" in only:
        bench_string(args)
    if "rmat" in only:
        bench_rmat(args)
    if "networkx" in only:
        bench_networkx(args)
    if "gn" in only:
        bench_girvan_newman(args)
    results.write(args.json, rows, when=when, backend=args.backend)


if __name__ == "__main__":
    main()
