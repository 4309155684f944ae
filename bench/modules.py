"""WGCNA's module detection, timed: curnet.hclust (average linkage) on the GPU and the CPU
against fastcluster's and SciPy's linkage, and blockwise_modules end to end, on planted
modules of N genes x 100 samples.

    python -m bench.modules --stage hclust --genes 5000 10000 20000 40000 --backend cuda --out H.json
    python -m bench.modules --stage modules --genes 5000 10000 20000 40000 --backend cuda --out M.json
    python -m bench.modules --plot PNG REPORT.json:LABEL ...

Stage hclust, each size: 1 - TOM of the planted data (curnet's, float64, on the backend), then
  the GPU kernel of the clustering alone on a copy, synchronised; curnet.hclust whole
  (checks, kernel, R's encoding; twice, the first apart); fastcluster's and SciPy's
  linkage on the host, one thread, up to --fastcluster-max-genes / --scipy-max-genes, their
  trees compared (merges equal, heights to 1e-10).
Stage modules: first a run of --first-call-genes genes (the kernels' compiles, the solver's
  start: the first call), then each size: blockwise_modules' steps in one block, each timed
  and printed as it ends: the start (checks, good genes, the device's copies), the block's
  TOM, 1 - TOM and tree with 1 - TOM copied to the host for the cut, the Dynamic Tree Cut
  (the dynamicTreeCut port), the kME checks, and the merging (finish); their sum is the end
  to end time; peak bytes of CuPy's memory pool."""
from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

from .timing import once


def planted(genes: int, samples: int = 100, modules: int = 20, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hubs = rng.normal(size=(modules, samples))
    which = rng.integers(0, modules, genes)
    strength = rng.uniform(0.4, 1.2, genes) * np.where(rng.random(genes) < 0.3, -1, 1)
    strength[rng.random(genes) < 0.3] = 0
    return hubs[which] * strength[:, None] + rng.normal(size=(genes, samples))


def say(*parts) -> None:
    print(*parts, flush=True)


def bench_hclust(n: int, backend: str, args) -> dict:
    from scipy.spatial.distance import squareform
    from curnet.analyses.linkage import hclust
    from curnet.backends import get_backend
    from curnet.coexpression import modules as wm
    row: dict = {"genes": n, "samples": 100, "backend": backend}
    x = planted(n)
    be = get_backend(backend).members[0]
    gpu = be.xp is not np
    sync = be.xp.cuda.Device().synchronize if gpu else (lambda: None)

    def tom():
        d = wm.block_dissimilarity(x, "pearson", "unsigned", 6, "signed", "min", 1.0, backend)
        sync()                                   # the launches are asynchronous
        return d
    diss, row["tom_s"] = once(tom)
    if gpu:
        from curnet.backends.cuda.hclust import nn_chain
        hclust(be.xp.asarray(np.ones((64, 64)) - np.eye(64)), backend=backend)      # compiled
        work = diss.copy()
        sync()

        def kernel_alone():
            out = nn_chain(work, "average")
            sync()
            return out
        _, row["kernel_s"] = once(kernel_alone)
        say(n, "kernel", round(row["kernel_s"], 3))
        # curnet.hclust whole (checks, kernel, R's encoding), twice: the first call of a
        # process compiles the checks' CuPy kernels
        for key in ("hclust_curnet_first_s", "hclust_curnet_s"):
            work = diss.copy()
            tree, row[key] = once(lambda: hclust(work, backend=backend, overwrite=True))
            del work
    else:
        tree, row["hclust_curnet_s"] = once(lambda: hclust(diss, backend=backend))
    say(n, "curnet.hclust", round(row["hclust_curnet_s"], 3))
    if n <= max(args.fastcluster_max_genes, args.scipy_max_genes):
        host = diss if not gpu else diss.get()
        del diss
        condensed = squareform(host.T, checks=False)      # the lower triangle, as R's as.dist
        del host
        comparators = []
        try:
            import fastcluster
            if n <= args.fastcluster_max_genes:
                comparators.append(("fastcluster", fastcluster.linkage))
        except ImportError:
            row["fastcluster_missing"] = True
        if n <= args.scipy_max_genes:
            from scipy.cluster.hierarchy import linkage
            comparators.append(("scipy", linkage))
        for name, linkage in comparators:
            z, row[f"hclust_{name}_s"] = once(lambda: linkage(condensed, "average"))
            row[f"heights_match_{name}"] = bool(np.allclose(tree.height, z[:, 2], rtol=1e-10, atol=0))
            row[f"merges_match_{name}"] = bool((tree.scipy_linkage()[:, :2] == np.sort(z[:, :2], axis=1)).all())
            say(n, name, round(row[f"hclust_{name}_s"], 3))
    return row


def bench_modules(n: int, backend: str, first_call: bool = False) -> dict:
    from curnet.backends import get_backend
    from curnet.coexpression import modules as wm
    from curnet.analyses.tree_cut import cutree_hybrid
    row: dict = {"genes": n, "samples": 100, "backend": backend, "first_call": first_call}
    x = planted(n)
    be = get_backend(backend).members[0]
    gpu = be.xp is not np
    if gpu:
        pool = be.xp.get_default_memory_pool()
        pool.free_all_blocks()
    peak = 0

    def step(name, fn):
        nonlocal peak
        value, row[f"{name}_s"] = once(fn)
        if gpu:
            peak = max(peak, int(pool.total_bytes()))
        say(n, name, round(row[f"{name}_s"], 3))
        return value
    run = step("start", lambda: wm.ModuleDetection(x, backend=backend, max_block_size=n))
    tree = step("block_tree", lambda: run.block_tree(0))
    labels = step("tree_cut", lambda: cutree_hybrid(tree, run.dissimilarity, min_cluster_size=run.min_module_size))
    step("labels", lambda: run.set_block_labels(0, labels))
    result = step("finish", run.finish)
    row["total_s"] = sum(row[f"{k}_s"] for k in ("start", "block_tree", "tree_cut", "labels", "finish"))
    row["modules_found"] = len(set(result["colors"].tolist()) - {"grey"})
    if gpu:
        row["gpu_pool_peak_bytes"] = peak
    say(n, "total", round(row["total_s"], 3), "modules", row["modules_found"], "peak GB", round(peak / 1e9, 2))
    return row


#: the timed quantities a report's rows may hold, as the plot names them (the clustering: dashed)
SERIES = (("modules_wgcna_s", "WGCNA::blockwiseModules"),
          ("modules_curnet_s", "cuRnet_blockwiseModules"),
          ("total_s", "blockwise_modules end to end"),
          ("modules_block_tree_s", "TOM + tree + 1 - TOM to host"),
          ("tree_cut_r_s", "dynamicTreeCut::cutreeHybrid"),
          ("cutreeHybrid_s", "its dynamicTreeCut::cutreeHybrid"),
          ("hclust_fastcluster_s", "fastcluster average linkage"),
          ("hclust_scipy_s", "SciPy average linkage"),
          ("hclust_curnet_s", "curnet.hclust average"),
          ("hclust_condensed_host_s", "curnet.hclust of a host dist (R's route)"),
          ("hclust_device_square_s", "curnet.hclust of 1 - TOM on the device"),
          ("kernel_s", "hclust's chain kernel alone"))


def plot(png: str, reports: list) -> None:
    """Time against genes (log-log) from reports given as PATH:LABEL[:KEY,KEY...] (LABEL names
    the machine and engine); each series a quantity of SERIES the report's rows hold (only the
    KEYs when given; first calls left out)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(11, 5.5))
    genes: set = set()
    for spec in reports:
        path, label, *keys = spec.split(":")
        with open(path) as f:
            rows = [r for r in json.load(f)["rows"] if not r.get("first_call")]
        for key, name in SERIES:
            if keys and key not in keys[0].split(","):
                continue
            pts = sorted((r["genes"], r[key]) for r in rows if r.get(key))
            if pts:
                genes.update(g for g, _ in pts)
                ax.plot(*zip(*pts), marker="o", linestyle="--" if key.startswith(("hclust", "kernel")) else "-",
                        label=f"{name} ({label})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ticks = sorted(genes)
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{g:,}" for g in ticks], rotation=45)
    ax.minorticks_off()
    ax.set_xlabel("genes (100 samples)")
    ax.set_ylabel("seconds")
    ax.set_title("WGCNA's modules and their average-linkage clustering")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stage", choices=("hclust", "modules"), default="hclust")
    p.add_argument("--genes", type=int, nargs="+", default=[1000, 2000])
    p.add_argument("--backend", default="cpu")
    p.add_argument("--fastcluster-max-genes", type=int, default=20000)
    p.add_argument("--scipy-max-genes", type=int, default=10000)
    p.add_argument("--first-call-genes", type=int, default=1000)
    p.add_argument("--out")
    p.add_argument("--plot", nargs="+", metavar="PNG REPORT.json:LABEL",
                   help="only draw time against genes from reports (see plot())")
    args = p.parse_args(argv)
    if args.plot:
        plot(args.plot[0], args.plot[1:])
        return 0
    from curnet.backends import get_backend
    report = {"stage": args.stage, "machine": platform.node(), "cpu": platform.processor() or platform.machine(),
              "backend": get_backend(args.backend).describe(),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": []}

    def save():
        if args.out:
            with open(args.out, "w") as f:
                json.dump(report, f, indent=1)
    if args.stage == "modules" and args.first_call_genes:
        report["rows"].append(bench_modules(args.first_call_genes, args.backend, first_call=True))
        save()
    for n in args.genes:
        row = bench_hclust(n, args.backend, args) if args.stage == "hclust" else bench_modules(n, args.backend)
        report["rows"].append(row)
        save()                                    # a size at a time: a stopped run keeps its rows
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
