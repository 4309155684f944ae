"""The two front doors measured: the NetworkX backend against plain NetworkX, and
curnet.csgraph against scipy.sparse.csgraph.

    python -m bench.frontdoors                       # CPU -> bench/results/frontdoors_cpu.json
    python -m bench.frontdoors --backend cuda --data-dir .data   # the GPU rows (every source)

NetworkX must see the backend's entry points: `pip install -e .`, or without installing
`python setup.py -q egg_info --egg-base /tmp/cn-site` and `PYTHONPATH=python:/tmp/cn-site`.

Rows (one JSON object each):
- `convert`: NetworkX graph -> the backend's graph, on its own line (weighted and not);
- `all_pairs_shortest_path_length` and `all_pairs_dijkstra_path_length` on the STRING sample
  and scNET (NetworkX graphs with gene names as nodes, weight 1 - score + 1e-6), end to end
  including building every dict, for cuRnet through `backend="curnet"` and for plain NetworkX.
  Each runs over the first `sources` of the generator; `all_sources_s` extrapolates to every
  node (linear in sources), exact when every source ran (`sources == n`). The conversion is
  done once before (NetworkX caches it on the graph) and reported on its own row;
- `csgraph.shortest_path` vs SciPy's on scNET and R-MAT 18 (undirected, weights uniform in
  (0, 1]), from the same sampled `indices`, weighted and `unweighted=True`, results compared.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"


def networkx_graph(name: str):
    """A dataset as NetworkX would hold it: gene names as nodes, distance weights. Nodes are
    added in a seeded random order, so the first k sources of an all-pairs generator (what a
    partial run times) are a random sample, the same one for cuRnet and NetworkX."""
    import networkx as nx
    from curnet import datasets
    e = datasets.load_edges(name)
    names = e["names"].tolist()
    G = nx.DiGraph() if e["directed"] else nx.Graph()
    G.add_nodes_from(np.random.default_rng(0).permutation(np.array(names, dtype=object)).tolist())
    w = (1.0 - e["score"] + datasets.DISTANCE_EPS).tolist()
    G.add_weighted_edges_from(zip([names[i] for i in e["src"].tolist()],
                                  [names[i] for i in e["dst"].tolist()], w))
    return G


def consume(pairs, k: int) -> tuple[float, int]:
    """Seconds to take the first k (source, dict) pairs of an all-pairs generator; entries seen."""
    entries = 0
    t = time.perf_counter()
    for i, (_, d) in enumerate(pairs, 1):
        entries += len(d)
        if i == k:
            break
    return time.perf_counter() - t, entries


def row(**kw) -> dict:
    print(json.dumps(kw), flush=True)
    return kw


def bench_networkx(name: str, args) -> list:
    import networkx as nx
    import curnet.nx as backend
    from curnet.nx.algorithms import engine_backend
    nx.config.warnings_to_ignore.add("cache")
    G = networkx_graph(name)
    n, m = G.number_of_nodes(), G.number_of_edges()
    rows = []
    for weighted in (False, True):
        t = time.perf_counter()
        backend.convert_from_nx(G, edge_attrs={"weight": 1} if weighted else None)
        rows.append(row(network=name, n=n, m=m, case="convert", impl="curnet",
                        weighted=weighted, seconds=time.perf_counter() - t,
                        note="NetworkX graph -> backend graph (Python adjacency walk); "
                             "done once per graph and weight attribute, cached on the graph"))
    for func in ("all_pairs_shortest_path_length", "all_pairs_dijkstra_path_length"):
        f = getattr(nx, func)
        f(G, backend="curnet")                           # converts and caches the graph
        one = nx.single_source_dijkstra_path_length if "dijkstra" in func else nx.single_source_shortest_path_length
        one(G, next(iter(G)), backend="curnet")          # warms the engine (GPU: kernels)
        for impl, k in (("curnet", args.curnet_sources or n), ("networkx", args.nx_sources)):
            k = min(k, n)
            pairs = f(G, backend="curnet") if impl == "curnet" else f(G, backend="networkx")
            secs, entries = consume(pairs, k)
            rows.append(row(network=name, n=n, m=m, case=func, impl=impl,
                            backend=engine_backend() if impl == "curnet" else "networkx",
                            sources=k, seconds=secs, per_source_s=secs / k,
                            all_sources_s=secs / k * n, dict_entries=entries,
                            note="end to end, every dict built; conversion excluded (cached, own row)"
                                 + ("" if k == n else f"; first {k} sources, extrapolated to all {n}")))
    return rows


def bench_csgraph(name: str, args) -> list:
    import scipy.sparse as sp
    from scipy.sparse import csgraph as scipy_csgraph
    from curnet import csgraph, datasets, generators
    if name.startswith("rmat"):
        g = generators.rmat(int(name[4:]), 16, seed=1, directed=False)
        src, dst = g.edge_sources(), g.indices
        keep = src < dst                                  # each undirected edge once
        w = 1.0 - np.random.default_rng(1).random(int(keep.sum()))
        n = len(g)
        a = sp.csr_array((w, (src[keep], dst[keep])), shape=(n, n))
    else:
        e = datasets.load_edges(name)
        n = len(e["names"])
        a = sp.csr_array((1.0 - e["score"] + datasets.DISTANCE_EPS, (e["src"], e["dst"])), shape=(n, n))
    a.sum_duplicates()
    idx = np.random.default_rng(2).choice(n, min(args.csgraph_sources, n), replace=False)
    rows = []
    for unweighted in (False, True):
        timings, results = {}, {}
        for impl, f in (("curnet", lambda: csgraph.shortest_path(a, directed=False, indices=idx,
                                                                 unweighted=unweighted, backend=args.backend)),
                        ("scipy", lambda: scipy_csgraph.shortest_path(a, directed=False, indices=idx,
                                                                      unweighted=unweighted))):
            if impl == "curnet":
                csgraph.shortest_path(a, directed=False, indices=idx[:2], unweighted=unweighted,
                                      backend=args.backend)           # warm-up (GPU: kernels)
            t = time.perf_counter()
            results[impl] = f()
            timings[impl] = time.perf_counter() - t
        same = bool(np.allclose(results["curnet"], results["scipy"], rtol=1e-9))
        for impl in ("curnet", "scipy"):
            rows.append(row(network=name, n=n, m=int(a.nnz), case="csgraph.shortest_path",
                            impl=impl, backend=args.backend if impl == "curnet" else "scipy",
                            unweighted=unweighted, sources=len(idx), seconds=timings[impl],
                            same_result=same,
                            note="directed=False, indices = sampled sources; includes reading the "
                                 "matrix (SciPy's validation) and building the engine's graph"))
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.frontdoors", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="cpu", help="engine backend for cuRnet (cpu, cuda, ...)")
    p.add_argument("--out", help="JSON file (default bench/results/frontdoors_<backend>.json)")
    p.add_argument("--networks", default="string_sample,scnet", help="NetworkX rows' datasets")
    p.add_argument("--csgraph-networks", default="scnet,rmat18", help="csgraph rows' graphs")
    p.add_argument("--curnet-sources", type=int, default=0,
                   help="sources of each all-pairs generator cuRnet runs (0: every node)")
    p.add_argument("--nx-sources", type=int, default=40,
                   help="sources plain NetworkX runs (then extrapolated to every node)")
    p.add_argument("--csgraph-sources", type=int, default=64, help="indices for shortest_path")
    p.add_argument("--data-dir", help="folder of cached networks (sets CURNET_DATA; `python -m "
                                      "bench fetch --data-dir DIR` fills it, for an offline GPU machine)")
    args = p.parse_args(argv)
    if args.data_dir:
        os.environ["CURNET_DATA"] = str(Path(args.data_dir).resolve())
    os.environ["CURNET_NX_BACKEND"] = args.backend
    import networkx as nx
    import curnet
    if hasattr(nx.config.backends, "curnet"):
        nx.config.backends.curnet.backend = args.backend
    else:
        sys.exit("the NetworkX backend is not registered: pip install -e . (or see docs/networkx.md)")
    rows = []
    for name in filter(None, args.networks.split(",")):
        rows += bench_networkx(name, args)
    for name in filter(None, args.csgraph_networks.split(",")):
        rows += bench_csgraph(name, args)
    out = Path(args.out) if args.out else RESULTS / f"frontdoors_{args.backend.split(':')[0]}.json"
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "machine": platform.node(), "cpu_count": os.cpu_count(), "argv": sys.argv[1:],
            "networkx": nx.__version__, "curnet_info": curnet.info()}
    out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1, default=str) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
