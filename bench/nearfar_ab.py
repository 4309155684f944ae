"""Near-far A/B: one tree's one-source SSSP on R-MAT 22 and batches on R-MAT 20 (weights (0, 1]),
at the tree's default width. Run once per tree in the same device call."""
import json
import sys
import time

tree, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, tree + "/python")
import numpy as np  # noqa: E402
import cupy as cp  # noqa: E402
from curnet import generators  # noqa: E402
from curnet.graph import Graph  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.algorithms.sssp import solve_batch  # noqa: E402

be = get_backend("cuda")
dev = be.members[0] if hasattr(be, "members") else be


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


doc = {"tree": tree, "nf_delta_factor": dev.tuning.nf_delta_factor}
t = time.perf_counter()
src, dst, n = generators.rmat_edges(22, seed=2)
w = (1.0 - np.random.default_rng(3).random(len(src))).astype(np.float32)
g = Graph.from_edges(src, dst, w, directed=False, num_vertices=n)
ids = np.random.default_rng(4).choice(np.flatnonzero(np.diff(g.indptr) > 0), 64, replace=False)[:8]
hg = dev.device_graph(g)
first = time.perf_counter()
solve_batch(dev, hg, np.array([ids[0]], np.int32), False)
cp.cuda.runtime.deviceSynchronize()
doc["R-MAT 22 first call ms (rows sorted there)"] = round((time.perf_counter() - first) * 1e3, 2)
doc["R-MAT 22 build s"] = round(time.perf_counter() - t, 1)
one = {int(s): round(timed(lambda s=s: solve_batch(dev, hg, np.array([s], np.int32), False)), 3) for s in ids}
doc["R-MAT 22 one source ms"] = one
doc["R-MAT 22 one source median ms"] = float(np.median(list(one.values())))
print(json.dumps(doc), flush=True)
del hg, g
g = generators.rmat(20, seed=2, weighted=True)
hg = dev.device_graph(g)
rng = np.random.default_rng(5)
has = np.flatnonzero(np.diff(g.indptr) > 0)
b = {}
for k in (1, 32, 256, 1024):
    s = rng.choice(has, k, replace=False).astype(np.int32)
    b[k] = round(timed(lambda s=s: solve_batch(dev, hg, s, False), reps=3), 2)
doc["R-MAT 20 batch ms by sources"] = b
print(json.dumps(doc), flush=True)
json.dump(doc, open(out, "w"), indent=1)
