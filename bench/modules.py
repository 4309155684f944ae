"""WGCNA's module detection, timed: curnet.hclust (average linkage) on the GPU and the CPU
against SciPy's linkage and the fastcluster package, and blockwise_modules' steps, on planted
modules of N genes x 100 samples, side by side in one run.

    python -m bench.modules --genes 2000 5000 --out bench/results/modules_cpu.json
    python -m bench.modules --genes 2000 5000 10000 20000 40000 --backend cuda --out ...

Each size: 1 - TOM of the planted data (curnet's TOM, float64), then
  hclust:    curnet.hclust on the backend (the first GPU call apart: the kernel's compile),
             SciPy's linkage and fastcluster's (where installed) on the host, one thread;
             the merges compared (heights to 1e-10, merges equal);
  modules:   blockwise_modules' steps on the backend: the block's TOM, 1 - TOM and tree
             (block_tree, the dissimilarity copied to the host for the cut), the Dynamic
             Tree Cut (the dynamicTreeCut port; skipped where it is not installed), and the
             eigengenes, kME checks and merging (finish); peak GPU memory.
Comparators slower than --max-comparator seconds at a size, or past --comparator-max-genes,
are not run."""
from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np


def planted(genes: int, samples: int = 100, modules: int = 20, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hubs = rng.normal(size=(modules, samples))
    which = rng.integers(0, modules, genes)
    strength = rng.uniform(0.4, 1.2, genes) * np.where(rng.random(genes) < 0.3, -1, 1)
    strength[rng.random(genes) < 0.3] = 0
    return hubs[which] * strength[:, None] + rng.normal(size=(genes, samples))


def timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t0


def bench_size(n: int, backend: str, args, slow: set) -> dict:
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform
    from curnet.linkage import hclust
    from curnet import wgcna_modules as wm
    row: dict = {"genes": n, "samples": 100, "backend": backend}
    x = planted(n)
    be = wm.get_backend(backend).members[0]
    gpu = be.xp is not np
    def tom():
        d = wm.block_dissimilarity(x, "pearson", "unsigned", 6, "signed", "min", 1.0, backend)
        if gpu:
            be.xp.cuda.Device().synchronize()          # the launches are asynchronous
        return d
    diss, row["tom_s"] = timed(tom)
    host = diss if not gpu else diss.get()
    # hclust on the backend (a device matrix clustered where it lies)
    if gpu:
        import cupy as cp
        _, row["hclust_first_call_s"] = timed(lambda: hclust(cp.asarray(host[:64, :64]), backend=backend))
        work = cp.asarray(host)
        tree, row["hclust_curnet_s"] = timed(lambda: hclust(work, backend=backend, overwrite=True))
        del work
    else:
        tree, row["hclust_curnet_s"] = timed(lambda: hclust(host, backend=backend))
    condensed = squareform(host.T, checks=False)
    compare = n <= args.comparator_max_genes
    if compare and "scipy" not in slow:
        z, row["hclust_scipy_s"] = timed(lambda: linkage(condensed, "average"))
        row["heights_match_scipy"] = bool(np.allclose(tree.height, z[:, 2], rtol=1e-10, atol=0))
        row["merges_match_scipy"] = bool((tree.scipy_linkage()[:, :2] == np.sort(z[:, :2], axis=1)).all())
        if row["hclust_scipy_s"] > args.max_comparator:
            slow.add("scipy")
    try:
        import fastcluster
        if compare and "fastcluster" not in slow:
            z, row["hclust_fastcluster_s"] = timed(lambda: fastcluster.linkage(condensed, "average"))
            row["merges_match_fastcluster"] = bool((tree.scipy_linkage()[:, :2] == z[:, :2]).all())
            row["heights_match_fastcluster"] = bool(np.allclose(tree.height, z[:, 2], rtol=1e-10, atol=0))
            if row["hclust_fastcluster_s"] > args.max_comparator:
                slow.add("fastcluster")
    except ImportError:
        row["hclust_fastcluster_s"] = None
    del diss, condensed
    # blockwise_modules, step by step (one block)
    if gpu:
        be.xp.get_default_memory_pool().free_all_blocks()
    t_all = time.perf_counter()
    run, row["modules_start_s"] = timed(lambda: wm.ModuleDetection(x, backend=backend, max_block_size=n))
    tree, row["modules_block_tree_s"] = timed(lambda: run.block_tree(0))
    if gpu:
        row["gpu_pool_peak_bytes"] = int(be.xp.get_default_memory_pool().total_bytes())
    try:
        from curnet.tree_cut import cutree_hybrid
        labels, row["modules_tree_cut_s"] = timed(lambda: cutree_hybrid(tree, run.dissimilarity,
                                                                        min_cluster_size=run.min_module_size))
    except ImportError as e:
        row["modules_tree_cut_s"] = None
        row["tree_cut_missing"] = str(e).split(";")[0]
        # for the remaining steps' time only: the tree cut at the height leaving 20 clusters
        labels = tree.cutree(20)
        labels[np.isin(labels, np.flatnonzero(np.bincount(labels) < 30))] = 0
    _, row["modules_labels_s"] = timed(lambda: run.set_block_labels(0, labels))
    result, row["modules_finish_s"] = timed(run.finish)
    row["modules_total_s"] = time.perf_counter() - t_all
    row["modules_found"] = len(set(result["colors"].tolist()) - {"grey"})
    return row


def plot(report_path: str, png: str) -> None:
    """Time against genes (log-log) of a report's rows: hclust on the backend and SciPy's,
    and the block's TOM, tree and host copy."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with open(report_path) as f:
        report = json.load(f)
    rows = report["rows"]
    fig, ax = plt.subplots(figsize=(6, 4))
    for key, label in (("hclust_curnet_s", f"curnet.hclust ({rows[0]['backend']})"),
                       ("hclust_scipy_s", "SciPy linkage (host, 1 core)"),
                       ("hclust_fastcluster_s", "fastcluster (host, 1 core)"),
                       ("modules_block_tree_s", "TOM + 1 - TOM + hclust + copy to host")):
        pts = [(r["genes"], r[key]) for r in rows if r.get(key)]
        if pts:
            ax.plot(*zip(*pts), marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    genes = [r["genes"] for r in rows]
    ax.set_xticks(genes)
    ax.set_xticklabels([f"{g:,}" for g in genes])
    ax.minorticks_off()
    ax.set_xlabel("genes (100 samples)")
    ax.set_ylabel("seconds")
    ax.set_title("Average-linkage clustering of 1 - TOM")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--genes", type=int, nargs="+", default=[1000, 2000])
    p.add_argument("--backend", default="cpu")
    p.add_argument("--max-comparator", type=float, default=60.0)
    p.add_argument("--comparator-max-genes", type=int, default=20000,
                   help="run the host comparators up to this many genes")
    p.add_argument("--out")
    p.add_argument("--plot", nargs=2, metavar=("REPORT.json", "OUT.png"),
                   help="only draw time against genes from a report")
    args = p.parse_args(argv)
    if args.plot:
        plot(*args.plot)
        return 0
    from curnet.backends import get_backend
    rows, slow = [], set()
    for n in args.genes:
        row = bench_size(n, args.backend, args, slow)
        print(json.dumps(row), flush=True)
        rows.append(row)
    report = {"machine": platform.node(), "cpu": platform.processor() or platform.machine(),
              "backend": get_backend(args.backend).describe(),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
