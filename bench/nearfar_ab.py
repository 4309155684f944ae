"""Near-far A/B: one tree's one-source SSSP on R-MAT 22 and batches on R-MAT 20 and 16 (weights
(0, 1]), the one-source BFS engine (`bfs_one`) and public call (`curnet.bfs`) on the same
R-MAT 22 from the peers' runner's 16 sources, and SCC (whose pivot searches run `bfs_one`;
the route the public call takes, and the driver over the primitives) on R-MAT 22, 14, 16 and
18 directed and, where the dataset is at hand (CURNET_DATA), the mouse liver network.
Run once per tree in the same device call, or once for several tunings of one tree, each
argument after the output file a tuning (`name=value`, several joined by commas; `-`: the
defaults), every graph built once and timed under each tuning in turn:
`python3 bench/nearfar_ab.py . out.json nf_graph_after=1000000000 -`. `--only=` names the
parts (bfs, sssp, scc, batches; phases, only when named: the one-launch loop's clock stamps on
the SSSP sources, gpu_accounts.near_far_phases)."""
import functools
import json
import os
import sys
import time

tree, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, tree + "/python")
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # this checkout's bench
import numpy as np  # noqa: E402
import cupy as cp  # noqa: E402
import curnet  # noqa: E402
from curnet import datasets, generators  # noqa: E402
from curnet.graph import Graph  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.algorithms.scc import component_labels, scc_by_reachability  # noqa: E402
from curnet.algorithms.sssp import solve_batch  # noqa: E402
from bench.gpu_accounts import bfs_levels, near_far_phases  # noqa: E402  (the loop kernels' clock stamps)

be = get_backend("cuda")
dev = be.members[0] if hasattr(be, "members") else be
args = sys.argv[3:]
parts = {"bfs", "sssp", "scc", "batches"}      # and "phases" (near_far_phases) when named
if args and args[0].startswith("--only="):
    parts = set(args.pop(0)[len("--only="):].split(","))
tunings = args or ["-"]
defaults = {}


def tuned(tuning):
    """Set `tuning` on the backend, the others back to their defaults."""
    for name, value in defaults.items():
        setattr(dev.tuning, name, value)
    for setting in ([] if tuning == "-" else tuning.split(",")):
        name, value = setting.split("=")
        defaults.setdefault(name, getattr(dev.tuning, name))
        setattr(dev.tuning, name, type(defaults[name])(value))


def timed(fn, reps=5):
    fn()
    cp.cuda.runtime.deviceSynchronize()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        cp.cuda.runtime.deviceSynchronize()
        ts.append((time.perf_counter() - t) * 1e3)
    return float(np.median(ts))


def each_tuning(key, measure, *args):
    """doc[tuning][key] = measure(*args) under each tuning in turn."""
    for tuning in tunings:
        tuned(tuning)
        doc.setdefault(tuning, {})[key] = measure(*args)
    tuned("-")
    print(json.dumps(doc), flush=True)


doc: dict = {"tree": tree, "nf_delta_factor": dev.tuning.nf_delta_factor}
t = time.perf_counter()


@functools.cache
def rmat22_edges():
    """(src, dst, n) of R-MAT 22, made at the first call."""
    return generators.rmat_edges(22, seed=2)


def built(name, build):
    """build(), or its CSR from NEARFAR_CACHE/<name>.npz (set it to share graphs between the
    runs of several trees in one device call: building R-MAT 22 takes ~60 s on the host)."""
    path = os.path.join(os.environ["NEARFAR_CACHE"], name + ".npz") if os.environ.get("NEARFAR_CACHE") else None
    if path and os.path.exists(path):
        z = np.load(path)
        return Graph(z["indptr"], z["indices"], z["weights"] if "weights" in z.files else None,
                     directed=bool(z["directed"]), num_edges=int(z["num_edges"]))
    gb = build()
    if path:
        np.savez(path, indptr=gb.indptr, indices=gb.indices, directed=gb.directed, num_edges=gb.num_edges,
                 **({} if gb.weights is None else {"weights": gb.weights}))
    return gb


def rmat22(directed):
    src, dst, n = rmat22_edges()
    w = None if directed else (1.0 - np.random.default_rng(3).random(len(src))).astype(np.float32)
    return Graph.from_edges(src, dst, w, directed=directed, num_vertices=n)


g = built("rmat22", lambda: rmat22(False))
bfs_ids = np.random.default_rng(4).choice(np.flatnonzero(np.diff(g.indptr) > 0), 64, replace=False)[:16]
ids = bfs_ids[:8]
hg = dev.device_graph(g)
if "sssp" in parts:
    first = time.perf_counter()
    solve_batch(dev, hg, np.array([ids[0]], np.int32), False)
    cp.cuda.runtime.deviceSynchronize()
    doc["R-MAT 22 first call ms (rows sorted there)"] = round((time.perf_counter() - first) * 1e3, 2)
doc["R-MAT 22 build s"] = round(time.perf_counter() - t, 1)


def by_source(call, sources):
    """call(s) timed from each source: the medians by source and their median."""
    one = {int(s): round(timed(lambda s=s: call(int(s))), 3) for s in sources}
    return {"ms by source": one, "median ms": float(np.median(list(one.values())))}


def one_source(hg):
    return by_source(lambda s: solve_batch(dev, hg, np.array([s], np.int32), False), ids)


def batches(hg, by_size, reps):
    return {k: round(timed(lambda s=s: solve_batch(dev, hg, s, False), reps=reps), 3) for k, s in by_size.items()}


def one_source_bfs(hg):
    return by_source(lambda s: dev.bfs_one(hg, s), bfs_ids)


def one_source_bfs_public(g):
    return by_source(lambda s: curnet.bfs(g, [s], backend="cuda"), bfs_ids)


if "bfs" in parts:
    first = time.perf_counter()
    dev.bfs_one(hg, int(bfs_ids[0]))
    cp.cuda.runtime.deviceSynchronize()
    doc["R-MAT 22 first one-source BFS ms"] = round((time.perf_counter() - first) * 1e3, 2)
    each_tuning("R-MAT 22 one-source BFS", one_source_bfs, hg)
    each_tuning("R-MAT 22 one-source BFS levels (8 sources)", lambda hg: bfs_levels(dev, hg, bfs_ids[:8], 3), hg)
    each_tuning("R-MAT 22 one-source BFS, public call", one_source_bfs_public, g)
if "sssp" in parts:
    each_tuning("R-MAT 22 one source", one_source, hg)
if "phases" in parts:      # the one-launch loop's clock stamps, phase by phase
    each_tuning("R-MAT 22 one source, phases", lambda hg: near_far_phases(dev, hg, ids), hg)
del hg, g


def scc_ms(hd):
    """The route the public call takes, and the driver over the primitives."""
    return {"route ms": round(timed(lambda: component_labels(dev, hd), reps=9), 3),
            "driver ms": round(timed(lambda: scc_by_reachability(dev, hd), reps=9), 3)}


directed = []
if "scc" in parts:
    directed.append(("R-MAT 22 directed", lambda: built("rmat22_directed", lambda: rmat22(True))))
    directed.append(("mouse liver", lambda: datasets.load("mouseliver")))
    directed += [(f"R-MAT {k} directed", lambda k=k: generators.rmat(k, seed=2, directed=True)) for k in (14, 16, 18)]
for name, build in directed:
    try:
        gd = build()
    except Exception as e:  # noqa: BLE001  (the dataset may be out of reach: no network here)
        doc[f"SCC {name}"] = f"not run: {e}"[:300]
        continue
    gd.csc()
    hd = dev.device_graph(gd)
    each_tuning(f"SCC {name} ms", scc_ms, hd)
    del hd, gd
rng = np.random.default_rng(5)
# R-MAT 16: few iterations a search
for scale, sizes, reps in ((20, (1, 32, 256, 1024), 3), (16, (1, 32), 9)) if "batches" in parts else ():
    g = generators.rmat(scale, seed=2, weighted=True)
    hg = dev.device_graph(g)
    has = np.flatnonzero(np.diff(g.indptr) > 0)
    by_size = {k: rng.choice(has, k, replace=False).astype(np.int32) for k in sizes}
    each_tuning(f"R-MAT {scale} batch ms by sources", batches, hg, by_size, reps)
    del hg, g
json.dump(doc, open(out, "w"), indent=1)
