"""Benchmarks of curnet.coexpression, each result compared with WGCNA's in the same run.

    python -m bench coexpression --backend cpu --genes 5000 --wgcna      # 2-core rows
    python -m bench coexpression --backend cuda --genes 20000 --all --large 40000

Rows, for a synthetic matrix (--genes x --samples, genes in modules so that strong
correlations exist) and with --all for Bioconductor's ALL (12,625 probes x 128 samples,
exported by bench/r_coexpression.R through Rscript):
  * the correlation network |r| >= 0.8 (Pearson), tiled on the device;
  * pickSoftThreshold over powers 1..20 (all powers from one pass);
  * TOMsimilarityFromExpr with WGCNA's defaults (signed TOM of an unsigned network, power 6),
    the dense n x n result copied to the host;
  * with --large N: the tiled network of N genes, with the process's peak host memory and
    the GPU's peak pool memory (the dense matrix would need N^2 x 8 bytes).
With --wgcna, WGCNA 1.72 runs the same jobs (bench/r_coexpression.R, --threads threads)
and each result is compared: edge count and sum of |r|, the fit table (largest relative
difference), TOM rows 1..20 and its total. Each cuRnet time is the best of --repeat calls.
Writes JSON to --json (default $OUT/coexpression.json if OUT is set; bench/rows.py's format)
and prints one line a row.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from curnet import coexpression as ce
from curnet.backends import get_backend

from . import rows as results
from .timing import cuda_sync, timed

HERE = Path(__file__).resolve().parent


def synthetic(genes: int, samples: int, seed: int = 0, modules: int = 40) -> np.ndarray:
    """Genes x samples: each gene follows one of `modules` hidden profiles with a random
    loading, plus noise (so |r| >= 0.8 pairs exist, as in real co-expression data)."""
    rng = np.random.default_rng(seed)
    hidden = rng.normal(size=(modules, samples))
    loading = rng.uniform(0, 3, size=genes) * rng.choice([-1, 1], size=genes)
    return hidden[rng.integers(0, modules, genes)] * loading[:, None] + rng.normal(size=(genes, samples))


def write_for_r(dirpath: Path, x: np.ndarray) -> None:
    """x (genes x samples) as WGCNA's samples x genes, column-major doubles."""
    np.ascontiguousarray(x, dtype=np.float64).tofile(dirpath / "expr.bin")
    (dirpath / "expr.dim").write_text(f"{x.shape[1]}\n{x.shape[0]}\n")


def export_all(dirpath: Path) -> np.ndarray:
    subprocess.run(["Rscript", str(HERE / "r_coexpression.R"), "export-all", str(dirpath)], check=True)
    d = [int(v) for v in (dirpath / "expr.dim").read_text().split()]
    return np.fromfile(dirpath / "expr.bin").reshape(d[1], d[0])       # genes x samples


def best_of(be, fn, repeat: int):
    """(fn's result, its best time over `repeat` calls), the device drained around each."""
    out, t = timed(fn, repeat, sync=None if be.xp is np else cuda_sync)
    return out, t.best


def rel(a, b) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))


def save(args, be, rows, quiet=True) -> None:
    results.write(args.json, rows, quiet=quiet, backend=args.backend, device=be.describe(),
                  dtype="float32" if args.single else "float64")


def bench_dataset(name, x, args, be, rows):
    n, s = x.shape
    label = f"{name} ({n:,} genes x {s} samples)"
    dtype = np.float32 if args.single else np.float64
    wgcna = None
    if args.wgcna:
        with tempfile.TemporaryDirectory() as tmp:
            write_for_r(Path(tmp), x)
            env = dict(os.environ)
            env.pop("LD_LIBRARY_PATH", None)
            tom = not args.skip_tom and n <= args.tom_max_genes
            subprocess.run(["Rscript", str(HERE / "r_coexpression.R"), tmp, str(args.threads)]
                           + ([] if tom else ["notom"]), check=True, env=env)
            wgcna = json.loads((Path(tmp) / "wgcna.json").read_text())

    def row(job, seconds, check, tool=f"cuRnet {args.backend}"):
        r = {"row": f"{job}, {label}", "tool": tool, "seconds": seconds, "check": check}
        rows.append(r)
        print(f"{r['row']:70s} {tool:14s} {seconds:9.3f} s  {check}", flush=True)
        save(args, be, rows)

    e, t = best_of(be, lambda: ce.coexpression_edges(x, threshold=0.8, backend=args.backend, dtype=dtype),
                 args.repeat)
    m, total = len(e["r"]), float(np.abs(e["r"]).sum())
    check = f"{m:,} edges"
    if wgcna:
        w = wgcna["cor_graph"]
        check += (f"; WGCNA {int(w['edges']):,} edges, sum |r| rel. diff {rel(total, w['abs_sum']):.1e}")
        print(f"WGCNA {wgcna['wgcna']}, R's BLAS: {wgcna['blas']}", flush=True)
        row("correlation network |r| >= 0.8", w["seconds"], "reference", f"WGCNA ({wgcna['threads']} thr)")
    row("correlation network |r| >= 0.8", t, check)

    fit, t = best_of(be, lambda: ce.pick_soft_threshold(x, powers=range(1, 21), backend=args.backend,
                                                      dtype=dtype), args.repeat)
    check = f"power estimate {fit['powerEstimate']}"
    if wgcna:
        w = wgcna["pick_soft_threshold"]
        ours = np.column_stack(list(fit["fitIndices"].values()))
        theirs = np.column_stack([w["fit"][k] for k in w["fit"]])
        check += f"; fit table max rel. diff vs WGCNA {rel(ours, theirs):.1e}"
        row("pickSoftThreshold, powers 1..20", w["seconds"], "reference", f"WGCNA ({wgcna['threads']} thr)")
    row("pickSoftThreshold, powers 1..20", t, check)

    if not args.skip_tom and n <= args.tom_max_genes:
        tom, t = best_of(be, lambda: ce.tom_similarity_from_expr(x, backend=args.backend, dtype=dtype), 1)
        check = f"TOM {n:,} x {n:,} on the host"
        if wgcna:
            w = wgcna["tom"]
            theirs = np.asarray(w["rows"]).reshape(n, 20).T            # R's column-major rows 1..20
            check += (f"; rows 1-20 max abs diff {np.abs(tom[:20] - theirs).max():.1e}, "
                      f"total rel. diff {rel(tom.sum(), w['total']):.1e}")
            row("TOMsimilarityFromExpr (defaults)", w["seconds"], "reference", f"WGCNA ({wgcna['threads']} thr)")
        del tom
        row("TOMsimilarityFromExpr (defaults)", t, check)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench coexpression", description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--genes", type=int, default=20_000, help="synthetic genes (0: no synthetic rows)")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--all", action="store_true", help="also Bioconductor's ALL (needs R with ALL)")
    ap.add_argument("--large", type=int, default=0, help="also the tiled network of this many genes")
    ap.add_argument("--wgcna", action="store_true", help="run WGCNA beside (R with WGCNA)")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="WGCNA's threads")
    ap.add_argument("--single", action="store_true", help="float32 on the device")
    ap.add_argument("--skip-tom", action="store_true")
    ap.add_argument("--tom-max-genes", type=int, default=10**9,
                    help="the TOM only for data sets of at most this many genes (WGCNA's takes hours beyond)")
    ap.add_argument("--repeat", type=int, default=1, help="best of this many runs (network, fit)")
    ap.add_argument("--json", default=results.default_out("coexpression.json"))
    args = ap.parse_args(argv)
    be = get_backend(args.backend).members[0]
    rows = []
    # warm-up: CuPy compiles its kernels on first use
    ce.pick_soft_threshold(synthetic(300, args.samples, 9), backend=args.backend)
    ce.tom_similarity_from_expr(synthetic(300, args.samples, 9), backend=args.backend)
    if args.large:                       # first, so that the peak host memory is this job's
        x = synthetic(args.large, args.samples, 1)
        stats = {}
        if be.xp is not np:
            be.xp.get_default_memory_pool().free_all_blocks()
        e, t = best_of(be, lambda: ce.coexpression_edges(x, threshold=0.8, backend=args.backend,
                                                       stats=stats), 1)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        dense = args.large ** 2 * 8 / 2**30
        check = (f"{len(e['r']):,} edges, {stats['tiles']} tiles; peak host RSS {peak:,.0f} MiB"
                 + (f", GPU pool peak {stats['device_peak_bytes'] / 2**30:.2f} GiB"
                    if "device_peak_bytes" in stats else "")
                 + f" (dense matrix: {dense:.1f} GiB)")
        rows.append({"row": f"tiled correlation network |r| >= 0.8, {args.large:,} genes x {args.samples}",
                     "tool": f"cuRnet {args.backend}", "seconds": t, "check": check, "peak_rss_mib": peak})
        print(f"{rows[-1]['row']:70s} {'cuRnet':14s} {t:9.3f} s  {check}", flush=True)
        save(args, be, rows)
        del x, e
    if args.genes:
        bench_dataset("synthetic", synthetic(args.genes, args.samples), args, be, rows)
    if args.all:
        with tempfile.TemporaryDirectory() as tmp:
            x = export_all(Path(tmp))
        bench_dataset("ALL", x, args, be, rows)
    save(args, be, rows, quiet=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
