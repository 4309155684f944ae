"""`curnet communities`: Leiden or Louvain communities of a network, written as a table
(vertex, community; with several resolutions or seeds: run, resolution, seed, vertex,
community) to TSV on stdout or --out FILE.tsv / FILE.parquet. The quality goes to stderr."""
from __future__ import annotations

import sys
import time

import numpy as np

from .inputs import add_input_options, add_run_options, read_input


def add_parser(sub) -> None:
    a = sub.add_parser("communities", help="Leiden or Louvain communities of an undirected network")
    add_input_options(a)
    a.add_argument("--method", choices=("leiden", "louvain"), default="leiden")
    a.add_argument("--objective", choices=("modularity", "cpm"), default="modularity",
                   help="Leiden's quality (default modularity; Louvain: modularity)")
    a.add_argument("--resolution", type=float, nargs="+", default=[1.0],
                   help="one or more resolutions (several: every one run, with every seed)")
    a.add_argument("--n-iterations", type=int, default=2,
                   help="Leiden's iterations (below 1: until an iteration no longer raises the quality)")
    a.add_argument("--beta", type=float, default=0.01, help="Leiden's refinement randomness (default 0.01)")
    add_run_options(a, seed="one or more seeds (default 0; several: every one run, at every resolution)",
                    seed_default=[0])


def run(args) -> None:
    from ..analyses.community_detection.partitions import leiden, louvain
    from ..io.outputs import check_path, to_table, write_table
    if args.out:
        check_path(args.out)
    g = read_input(args)
    if g.directed:
        raise ValueError("Leiden and Louvain work on undirected graphs only (as igraph's): add --undirected")
    names = g.names if g.names is not None else np.arange(len(g))
    t0 = time.perf_counter()
    kw = {"backend": args.backend, "resolutions": args.resolution, "seeds": args.seed}
    if args.method == "leiden":
        sweep = leiden(g, objective=args.objective, n_iterations=args.n_iterations, beta=args.beta, **kw)
    else:
        sweep = louvain(g, **kw)
    runs, n = sweep.memberships.shape
    for r in range(runs):
        print(f"{args.method} resolution {sweep.resolution[r]:g} seed {sweep.seed[r]}: "
              f"{int(sweep.memberships[r].max()) + 1 if n else 0} communities, quality {sweep.quality[r]:.6f}",
              file=sys.stderr)
    print(f"{runs} run(s) in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    if runs == 1:
        table = to_table({"vertex": names, "community": sweep.memberships[0]})
    else:
        table = to_table({"run": np.repeat(np.arange(runs), n), "resolution": np.repeat(sweep.resolution, n),
                          "seed": np.repeat(np.asarray(sweep.seed, np.int64), n), "vertex": np.tile(names, runs),
                          "community": sweep.memberships.ravel()})
    write_table(table, args.out)
