"""The Dynamic Tree Cut's cost on the host, Python's dynamicTreeCut port against R's
dynamicTreeCut::cutreeHybrid, on the same dendrogram and dissimilarity (WGCNA's arguments as
blockwiseModules passes them), N genes: the tree cut runs on the CPU in both front doors.

    python -m bench.modules_tree_cut 5000 20000 --out bench/results/modules_tree_cut_cpu.json

The dissimilarity is 1 - |cor|^6 of bench.modules.planted's genes (the adjacency, not the
TOM: building the TOM on the host would take most of the run; the tree cut's work depends on
the dendrogram's size and shape, not on how the dissimilarity was made); fastcluster's
average-linkage tree. R reads the matrix and tree from files and reports whether its labels
equal the port's."""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import tempfile
import time

import numpy as np

R_CUT = """
n <- {n}L
d <- matrix(readBin("{d}", "double", n * n), n, n)
m <- as.matrix(read.table("{m}"))
tree <- structure(list(merge = m[-n, 1:2], height = m[-n, 3], order = m[, 4], labels = NULL,
                       method = "average"), class = "hclust")
storage.mode(tree$merge) <- "integer"
tree$order <- as.integer(tree$order)
tree_cut <- function() dynamicTreeCut::cutreeHybrid(tree, distM = d, cutHeight = 0.995, minClusterSize = 20,
  deepSplit = 2, pamStage = TRUE, pamRespectsDendro = TRUE, useMedoids = FALSE, maxPamDist = 0.995,
  respectSmallClusters = TRUE, verbose = 0)$labels
t <- system.time(lab <- tree_cut())[["elapsed"]]          # the first call loads the package
warm <- system.time(tree_cut())[["elapsed"]]
py <- scan("{labels}", quiet = TRUE)
cat(t, identical(as.numeric(lab), py), warm, "\\n")
"""


def bench(n: int, folder: str) -> dict:
    from bench.modules import planted
    from curnet.analyses.linkage import hclust
    from curnet.analyses.tree_cut import cutree_hybrid
    x = planted(n)
    z = x - x.mean(1, keepdims=True)
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    d = z @ z.T
    np.abs(d, out=d)
    d **= 6
    np.subtract(1, d, out=d)
    np.fill_diagonal(d, 0)
    t = time.perf_counter()
    tree = hclust(d, backend="cpu")
    row = {"genes": n, "samples": 100, "hclust_fastcluster_s": time.perf_counter() - t}
    paths = {k: os.path.join(folder, f"{k}{n}") for k in ("d", "m", "labels")}
    d.tofile(paths["d"])
    np.savetxt(paths["m"], np.column_stack([np.vstack([tree.merge, [0, 0]]), np.append(tree.height, 0),
                                            tree.order]), fmt="%.17g")
    t = time.perf_counter()
    labels = cutree_hybrid(tree, d, min_cluster_size=20)
    row["tree_cut_python_s"] = time.perf_counter() - t
    t = time.perf_counter()
    cutree_hybrid(tree, d, min_cluster_size=20)
    row["tree_cut_python_warm_s"] = time.perf_counter() - t     # the first call imports the port
    row["modules"] = int(labels.max())
    np.savetxt(paths["labels"], labels, fmt="%d")
    del d
    out = subprocess.run(["Rscript", "-e", R_CUT.format(n=n, **paths)], capture_output=True, text=True,
                         check=True).stdout.split()
    row["tree_cut_r_s"], row["same_labels"], row["tree_cut_r_warm_s"] = float(out[0]), out[1] == "TRUE", float(out[2])
    for p in paths.values():
        os.remove(p)
    print(json.dumps(row), flush=True)
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("genes", type=int, nargs="+")
    p.add_argument("--out")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        rows = [bench(n, folder) for n in args.genes]
    report = {"stage": "tree_cut", "machine": platform.node(), "cpus": os.cpu_count(),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
