"""Proximity benchmark: 100 drug-target-like sets of 10-50 genes against a 200-gene module
on scNET, 1,000 degree-matched reference pairs each (the issue's target: <= 10 s on an
H100; the CPU figure reported beside it).

    python -m bench proximity --backend cpu
    python -m bench proximity --backend cuda --json bench/results/proximity_h100.json

The sets are seeded random genes of scNET's largest component (the module a BFS ball
around a seeded gene, so it is connected like a disease module). Prints the time of the
whole call and of its traversal, and checks the closest distance of three sets against
SciPy's BFS computed here. --json FILE (default $OUT/proximity.json when OUT is set) writes
the row in bench/rows.py's format (bench/results/proximity.jsonl holds the earlier runs, a
JSON line each).
"""
from __future__ import annotations

import argparse
import json
import platform
import sys

import numpy as np

import curnet
from curnet import datasets
from curnet.analyses.network_proximity import pool_distances

from . import rows as results
from .timing import once


def largest_component(g):
    labels = curnet.scc(g, backend="cpu")
    big = np.flatnonzero(labels == np.bincount(labels).argmax())
    src, dst, _ = g.edges()
    keep = np.zeros(len(g), bool)
    keep[big] = True
    m = keep[src] & keep[dst]
    new = np.full(len(g), -1, np.int64)
    new[big] = np.arange(len(big))
    return curnet.Graph.from_edges(new[src[m]], new[dst[m]], directed=False, num_vertices=len(big),
                                   names=g.names[big])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench proximity", description=__doc__.splitlines()[0])
    p.add_argument("--backend", default="cpu")
    p.add_argument("--sets", type=int, default=100)
    p.add_argument("--module", type=int, default=200)
    p.add_argument("--n-random", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", default=results.default_out("proximity.json"))
    a = p.parse_args(argv)

    g = largest_component(datasets.load("scnet", weights=None))
    rng = np.random.default_rng(a.seed)
    depth = curnet.bfs(g, np.array([rng.integers(len(g))]), backend="cpu")[0]   # a position, not a name
    module = np.argsort(depth, kind="stable")[:a.module]          # a connected ball
    sets = [rng.choice(len(g), int(rng.integers(10, 51)), replace=False) for _ in range(a.sets)]

    curnet.proximity(g, sets[0][:5], module[:5], n_random=0, backend=a.backend)   # warm-up
    res, total = once(lambda: curnet.proximity(g, sets, module, n_random=a.n_random, seed=a.seed,
                                               backend=a.backend))

    # the traversal's share: the same pool of vertices, distances only
    from curnet.analyses.network_proximity import degree_bins
    bins = degree_bins(g.oriented("all").out_degree(), 100)
    touched = np.unique(np.concatenate([bins[module]] + [bins[s] for s in sets]))
    pool = np.flatnonzero(np.isin(bins, touched)).astype(np.int32)
    _, traversal = once(lambda: pool_distances(g, pool, False, a.backend))

    import scipy.sparse as sp
    from scipy.sparse import csgraph
    adj = sp.csr_matrix((np.ones(g.num_arcs), g.indices, g.indptr), shape=(len(g), len(g)))
    d = csgraph.shortest_path(adj, unweighted=True, indices=module)
    for i in (0, 1, a.sets - 1):
        want = d[:, sets[i]].min(axis=0).mean()
        assert abs(res[i].distance["closest"] - want) < 1e-9, (i, res[i].distance["closest"], want)

    z = np.array([r.z["closest"] for r in res])
    row = {"row": "proximity", "network": "scNET largest component", "vertices": len(g),
           "sets": a.sets, "module": a.module, "n_random": a.n_random, "pool": int(len(pool)),
           "backend": a.backend, "device": curnet.info().get("device", platform.processor()),
           "seconds": round(total, 3), "traversal_seconds": round(traversal, 3),
           "z_closest_mean": round(float(z.mean()), 3), "checked_against": "scipy BFS (3 sets)",
           "tool": f"cuRnet {a.backend}"}
    print(json.dumps(row))
    results.write(a.json, [row])
    return 0


if __name__ == "__main__":
    sys.exit(main())
