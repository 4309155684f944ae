"""Where curnet.pcsf / curnet.pcsf_rand calls spend their time, call by call, on PCSF's STRING:
each call's split (Forest.seconds: setup, paths, host) and counted work (Forest.work: the
shortest-path route, near-far iterations, runs per call), in a fixed order of terminal sets,
then pcsf_rand against runs_per_call.

    python -m bench pcsf-calls --backend cuda --sizes 58,100,20,20,100,500,1000 \
        --rand-runs 100 --runs-per-call 0,1,4,9,16,25

--sizes: one pcsf call per entry, in that order (a repeated size repeats the same terminals,
so a first-time cost shows as a slow first call); --runs-per-call 0 is the default choice.
Terminals: seeded random genes, prizes U(0.1, 3) (the thesis's DLBCL study shape). Prints one
line a call; --json FILE (default $OUT/pcsf_calls.json when OUT is set) keeps them as rows.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

import curnet
from curnet.graph import Graph

from . import rows as results
from .networks import string_file
from .timing import once



def string_network() -> Graph:
    """STRING as construct_interactome builds it: undirected, self-loops dropped, the costs of
    a repeated pair summed; vertices in order of first appearance."""
    import pandas as pd
    t = pd.read_csv(string_file(), sep="\t")
    a, b = t["from"].astype(str).to_numpy(), t["to"].astype(str).to_numpy()
    names, ids = np.unique(np.r_[a, b], return_inverse=True)
    u, v = ids[:len(t)], ids[len(t):]
    keep = u != v
    lo, hi = np.minimum(u, v)[keep], np.maximum(u, v)[keep]
    key, inverse = np.unique(lo.astype(np.int64) * len(names) + hi, return_inverse=True)
    cost = np.bincount(inverse, weights=t["cost"].to_numpy(float)[keep])
    return Graph.from_edges(key // len(names), key % len(names), cost, directed=False,
                            num_vertices=len(names), names=names, dtype=np.float64)


def terminals(g: Graph, k: int):
    rng = np.random.default_rng(k)
    genes = rng.choice(len(g), k, replace=False)
    return g.names[genes].tolist(), np.round(rng.uniform(0.1, 3, k), 6)


def show(rows, label, whole, result):
    rows.append({"row": label, "seconds": whole, "split": dict(result.seconds), "work": dict(result.work)})
    split = ", ".join(f"{k} {v:.3f}" for k, v in result.seconds.items())
    work = ", ".join(f"{k} {v:g}" for k, v in result.work.items()) or "no work counted"
    print(f"{label:34s} {whole:7.3f} s  [{split}]  {work}", flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench pcsf-calls", description=__doc__.split("\n")[0])
    p.add_argument("--backend", default="auto")
    p.add_argument("--sizes", default="58,100,20,20,100,500,1000")
    p.add_argument("--rand-runs", type=int, default=20)
    p.add_argument("--rand-terminals", type=int, default=100)
    p.add_argument("--runs-per-call", default="0")
    p.add_argument("--json", default=results.default_out("pcsf_calls.json"))
    a = p.parse_args(argv)
    rows: list = []
    g = string_network()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, backend {a.backend}; "
          f"{g!r}", flush=True)
    warm = terminals(g, 50)
    curnet.pcsf(g, warm, backend=a.backend)                 # engine and kernels started
    for k in (int(s) for s in a.sizes.split(",")):
        prizes = terminals(g, k)
        f, t = once(lambda: curnet.pcsf(g, prizes, backend=a.backend))
        show(rows, f"pcsf, {k} terminals", t, f)
    prizes = terminals(g, a.rand_terminals)
    for c in (int(s) for s in a.runs_per_call.split(",")):
        u, t = once(lambda: curnet.pcsf_rand(g, prizes, n=a.rand_runs, r=0.1, seed=1, backend=a.backend,
                                             runs_per_call=c or None))
        show(rows, f"pcsf_rand n={a.rand_runs}, runs/call {c or 'default'}", t, u)
    results.write(a.json, rows, backend=a.backend)


if __name__ == "__main__":
    main()
