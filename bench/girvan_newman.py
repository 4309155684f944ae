"""Girvan–Newman (igraph's cluster_edge_betweenness) on STRING sub-networks: cuRnet against
python-igraph (and R igraph with --r-igraph), every result checked in the same run.

    python -m bench girvan-newman --backend cpu --vertices 500,1000
    python -m bench girvan-newman --backend cuda --vertices 500,1000,2000 --r-igraph
    python -m bench girvan-newman --vertices 739 --weighted --r-igraph --numpy-twins
    python -m bench girvan-newman --vertices 739 --r-igraph --repeat 3

The sub-network of N vertices: PCSF's STRING (../shared/pcsf/string_pcsf.tsv.gz, simplified as
PCSF's construct_interactome), the first N vertices of a breadth-first search from its
highest-degree vertex (ties: the lowest id; neighbours in id order), induced, unweighted
(connected by construction). Checks: the membership of highest modularity equal (up to cluster
numbers) to python-igraph's, the merges and modularity too; with --r-igraph, R igraph's removal
order and each removal's betweenness (exact ties aside: igraph breaks them by its rounding);
with --exact too, the first step where the orders differ and both edges' betweenness there in
rational arithmetic (a true tie, or not; pure Python: minutes at 2,000 vertices), and each
earlier step whose value differs from R's, exactly (weighted: R igraph 1.3.5 miscounts some).

Prints one line a row with the machine and date; writes JSON to --json (default
$OUT/girvan_newman.json when OUT is set; bench/rows.py's format).
"""
from __future__ import annotations

import argparse
import heapq
import os
import platform
import subprocess
import tempfile
from contextlib import contextmanager
from fractions import Fraction

import numpy as np

import curnet
from curnet.algorithms.girvan_newman import tie_tolerance
from curnet import girvan_newman
from curnet.backends.cpu import compiled_brandes
from curnet.graph import Graph

from . import rows as results
from .comparators import r_igraph_on_edges
from .networks import load_string, string_file
from .timing import once, timed

R_SCRIPT = r"""w <- WEIGHTS
times <- numeric(0)
for (i in seq_len(REPEAT)) {
  t <- proc.time()[["elapsed"]]
  c <- cluster_edge_betweenness(g, weights = w)
  times <- c(times, proc.time()[["elapsed"]] - t)
}
con <- file(a[4], "wb")
writeBin(c(as.double(c$removed.edges - 1), c$edge.betweenness, as.double(c$membership - 1)), con)
close(con)
cat(paste(times, collapse = ","), as.character(packageVersion("igraph")), "\n")
"""


def sub_network(G, size: int):
    """The first `size` vertices of a BFS from the highest-degree vertex, induced."""
    hub = int(np.argmax(G.degree()))
    return G.induced_subgraph(sorted(G.bfs(hub)[0][:size]))


def exact_edge_betweenness(n: int, edges, alive, lengths=None) -> dict:
    """Edge betweenness in rational arithmetic (undirected; `lengths` by edge, each float taken
    exactly, or None for hops; parallel edges are separate paths, self-loops on none): {edge
    id: Fraction} for the edges where `alive`. Two paths tie only where their lengths' exact
    sums are equal."""
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i in np.flatnonzero(alive):
        a, b = (int(x) for x in edges[i])
        if a != b:
            adj[a].append((b, int(i)))
            adj[b].append((a, int(i)))
    length = [Fraction(1)] * len(edges) if lengths is None else [Fraction(x) for x in np.asarray(lengths).tolist()]
    eb = {int(i): Fraction(0) for i in np.flatnonzero(alive)}
    for s in range(n):
        dist: list = [None] * n
        sigma = [0] * n
        parents: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        dist[s], sigma[s] = Fraction(0), 1
        heap, order, done = [(Fraction(0), s)], [], [False] * n
        while heap:                                   # Dijkstra (a BFS for hops), exactly
            d, v = heapq.heappop(heap)
            if done[v]:
                continue
            done[v] = True
            order.append(v)
            for w, e in adj[v]:
                alt = d + length[e]
                if dist[w] is None or alt < dist[w]:
                    dist[w], sigma[w], parents[w] = alt, sigma[v], [(v, e)]
                    heapq.heappush(heap, (alt, w))
                elif alt == dist[w]:
                    sigma[w] += sigma[v]
                    parents[w].append((v, e))
        delta = [Fraction(0)] * n
        for w in reversed(order):
            for v, e in parents[w]:
                share = Fraction(sigma[v], sigma[w]) * (1 + delta[w])
                delta[v] += share
                eb[e] += share
    return {e: x / 2 for e, x in eb.items()}


def same_partition(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return len(np.unique(np.c_[a, b], axis=0)) == len(np.unique(a)) == len(np.unique(b))


def r_igraph(e: np.ndarray, n: int, weights=None, repeat: int = 1):
    """R igraph's (seconds of each of `repeat` calls, version, removed, betweenness, membership)
    or None without R; `weights` (by edge) are lengths, as cuRnet's."""
    with tempfile.TemporaryDirectory() as tmp:
        code = R_SCRIPT.replace("REPEAT", str(int(repeat)))
        if weights is None:
            code = code.replace("WEIGHTS", "NA")
        else:
            path = os.path.join(tmp, "weights.bin")
            np.ascontiguousarray(weights, np.float64).tofile(path)
            code = code.replace("WEIGHTS", f'readBin("{path}", "double", {len(weights)})')
        try:
            got, printed = r_igraph_on_edges(code, e, n)
        except (OSError, subprocess.CalledProcessError) as err:
            print(f"  R igraph not run: {err}", flush=True)
            return None
    m = len(e)
    seconds, version = printed[-2:]
    times = [float(x) for x in seconds.split(",")]
    return times, version, got[:m].astype(np.int64), got[m:2 * m], got[2 * m:].astype(np.int64)


def bench(G, size: int, args) -> dict:
    import igraph as ig
    sub = sub_network(G, size)
    e = np.array(sub.get_edgelist(), np.int64)
    weights = np.array(sub.es["cost"], np.float64) if args.weighted else None
    g = Graph.from_edges(e[:, 0], e[:, 1], weights, directed=False, num_vertices=sub.vcount(),
                         dtype=np.float64)
    name = (f"STRING BFS ball, {sub.vcount():,} vertices, {sub.ecount():,} edges"
            + (", weighted (costs as lengths)" if args.weighted else ""))
    row = {"row": name, "vertices": sub.vcount(), "edges": sub.ecount(), "connected": sub.is_connected(),
           "weighted": bool(args.weighted), "backend": args.backend,
           "compiled_rescore": args.backend == "cpu" and compiled_brandes.available()}
    print(name, flush=True)
    if row["compiled_rescore"]:         # Numba compiles at the first call (then from its cache)
        tiny = Graph.from_edges([0, 1, 2], [1, 2, 0], None if weights is None else [1.0, 2.0, 1.5],
                                directed=False, dtype=np.float64)
        _, row["curnet_first_call_s"] = once(lambda: girvan_newman(tiny, weighted=args.weighted, backend="cpu"))
        print(f"  cuRnet's first call (compiles, or loads the compiled cache): {row['curnet_first_call_s']:.3f} s",
              flush=True)
    with _load_beside(row, "curnet"):
        ours, times = timed(lambda: girvan_newman(g, weighted=args.weighted, backend=args.backend),
                            repeat=args.repeat)
    row["curnet_s"], row["curnet_times"] = round(times.best, 3), [round(x, 3) for x in times]
    print(f"  cuRnet {args.backend}{' (compiled rescore)' if row['compiled_rescore'] else ''}: "
          f"{row['curnet_s']} s (best of {args.repeat}; load average {row['curnet_load']})", flush=True)
    if args.numpy_twins and row["compiled_rescore"]:
        with _numpy_twins():
            twins, t = once(lambda: girvan_newman(g, weighted=args.weighted, backend=args.backend))
        row["curnet_numpy_twins_s"] = round(t, 3)
        row["numpy_twins_same_removals"] = bool(np.array_equal(twins.removed, ours.removed))
        print(f"  cuRnet {args.backend}, NumPy twins: {row['curnet_numpy_twins_s']} s; removal order "
              f"{'the same' if row['numpy_twins_same_removals'] else 'DIFFERS'}", flush=True)
    if args.weighted:
        print("  python-igraph not run (weighted: python-igraph 1.0 divides by weights, R takes lengths)",
              flush=True)
    elif args.igraph_max_vertices and size > args.igraph_max_vertices:
        print("  python-igraph not run (--igraph-max-vertices)", flush=True)
    else:
        theirs, t = once(sub.community_edge_betweenness)
        row["python_igraph_s"] = round(t, 3)
        merges, qs = ig.GraphBase.community_edge_betweenness(sub, True, None)
        row["python_igraph"] = ig.__version__
        row["same_membership_as_python_igraph"] = same_partition(ours.membership, theirs.as_clustering().membership)
        row["same_merges_as_python_igraph"] = bool(np.array_equal(ours.merges, np.array(merges).reshape(-1, 2)))
        row["same_modularity_as_python_igraph"] = bool(np.allclose(ours.modularity, qs, rtol=1e-9, atol=1e-12))
        row["speedup_vs_python_igraph"] = round(row["python_igraph_s"] / row["curnet_s"], 2)
        print(f"  python-igraph {ig.__version__}: {row['python_igraph_s']} s; membership "
              f"{'equal' if row['same_membership_as_python_igraph'] else 'DIFFERS'}, merges "
              f"{'equal' if row['same_merges_as_python_igraph'] else 'differ'}; cuRnet "
              f"{row['speedup_vs_python_igraph']}x", flush=True)
    if args.r_igraph:
        with _load_beside(row, "r_igraph"):
            r = r_igraph(e, sub.vcount(), weights, args.repeat)
        if r is not None:
            times, version, removed, values, membership = r
            seconds = min(times)
            row["r_igraph_times"] = times
            differ = np.flatnonzero(removed != ours.removed)
            if len(differ):
                # the graphs agree up to the first difference: there both picks must score the
                # same (a tie each broke its own way), or cuRnet's betweenness is wrong
                i = int(differ[0])
                row["first_difference_step"] = i
                row["first_difference_is_a_tie"] = bool(np.isclose(
                    values[i], ours.edge_betweenness[i], rtol=tie_tolerance(sub.vcount()), atol=0))
                print(f"  first removal differing from R igraph's: step {i}, cuRnet edge {ours.removed[i]} "
                      f"({ours.edge_betweenness[i]!r}), R edge {removed[i]} ({values[i]!r})", flush=True)
                if args.exact:
                    alive = np.ones(len(e), bool)
                    alive[ours.removed[:i]] = False
                    exact = exact_edge_betweenness(sub.vcount(), e, alive, weights)
                    ab = [exact[int(ours.removed[i])], exact[int(removed[i])]]
                    row["first_difference_exact"] = [str(x) for x in ab]
                    row["first_difference_is_an_exact_tie"] = bool(ab[0] == ab[1] == max(exact.values()))
                    row["first_difference_curnet_pick_is_the_exact_largest"] = bool(ab[0] == max(exact.values()))
                    print(f"  exactly: {ab[0]} and {ab[1]}, the largest {max(exact.values())}", flush=True)
                    # before it both removed the same edges: where the values differ, which is exact
                    off = np.abs(values[:i] - ours.edge_betweenness[:i]) > 1e-9 * ours.edge_betweenness[:i]
                    row["values_differing_before_it"] = []
                    for k in np.flatnonzero(off).tolist():
                        alive = np.ones(len(e), bool)
                        alive[ours.removed[:k]] = False
                        at = exact_edge_betweenness(sub.vcount(), e, alive, weights)[int(ours.removed[k])]
                        row["values_differing_before_it"].append(
                            {"step": k, "curnet": float(ours.edge_betweenness[k]), "r_igraph": float(values[k]),
                             "exact": str(at)})
                        print(f"  step {k}, the same edge {ours.removed[k]}: cuRnet {ours.edge_betweenness[k]!r}, "
                              f"R {values[k]!r}, exactly {at}", flush=True)
            row.update(r_igraph_s=seconds, r_igraph=version,
                       same_membership_as_r_igraph=same_partition(ours.membership, membership),
                       removed_steps_differing_from_r_igraph=int((removed != ours.removed).sum()),
                       same_betweenness_at_each_removal_as_r_igraph=bool(
                           np.allclose(values, ours.edge_betweenness, rtol=1e-9)),
                       speedup_vs_r_igraph=round(seconds / row["curnet_s"], 2))
            print(f"  R igraph {version}: {seconds} s (best of {args.repeat}; load average "
                  f"{row['r_igraph_load']}); membership "
                  f"{'equal' if row['same_membership_as_r_igraph'] else 'DIFFERS'}, removal order differs at "
                  f"{row['removed_steps_differing_from_r_igraph']} steps; cuRnet {row['speedup_vs_r_igraph']}x",
                  flush=True)
    return row


@contextmanager
def _load_beside(row: dict, tool: str):
    """The 1-minute load average before and after a tool's runs, in row[tool + "_load"] (the
    machine is shared: the load says what else ran beside)."""
    before = os.getloadavg()[0]
    try:
        yield
    finally:
        row[f"{tool}_load"] = [round(before, 2), round(os.getloadavg()[0], 2)]


@contextmanager
def _numpy_twins():
    """The CPU's rescore as without Numba (the level-synchronous NumPy twins)."""
    saved = compiled_brandes.available
    compiled_brandes.available = lambda: False
    try:
        yield
    finally:
        compiled_brandes.available = saved


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench girvan-newman", description=__doc__.split("\n")[0])
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--vertices", default="500,1000,2000", help="comma-separated sub-network sizes")
    ap.add_argument("--string-file", default=string_file())
    ap.add_argument("--r-igraph", action="store_true", help="time R igraph beside (optional)")
    ap.add_argument("--exact", action="store_true",
                    help="with --r-igraph: the first differing removal's two edges in rational arithmetic, "
                         "and each earlier removal whose value differs from R's")
    ap.add_argument("--weighted", action="store_true",
                    help="STRING's costs as edge lengths (R igraph's weights; python-igraph not run)")
    ap.add_argument("--numpy-twins", action="store_true",
                    help="on the CPU also time the NumPy twins' rescore (the route without Numba)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="time cuRnet and R igraph this many times each, keeping the best (a shared machine)")
    ap.add_argument("--igraph-max-vertices", type=int, default=0,
                    help="skip python-igraph above this many vertices (0: never)")
    ap.add_argument("--json", default=results.default_out("girvan_newman.json"))
    args = ap.parse_args(argv)
    when = results.now()
    be = curnet.backends.get_backend(args.backend)
    machine = f"{platform.node()} ({os.cpu_count()} CPUs, {platform.processor() or platform.machine()})"
    print(f"{when} on {machine}, backend {be.describe()}", flush=True)
    G, _ = load_string(args.string_file)
    rows = []
    for size in map(int, args.vertices.split(",")):
        rows.append(bench(G, size, args))
        # after each size: a long run keeps what finished
        results.write(args.json, rows, when=when, machine=machine, backend=be.describe(),
                      sub_network="STRING BFS ball from the highest-degree vertex, induced, "
                      + ("STRING's costs as lengths" if args.weighted else "unweighted"))


if __name__ == "__main__":
    main()
