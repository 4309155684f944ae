"""The benchmarks' one result format: a JSON object under bench/results (or --json/--out),
holding where and when it was measured and a list of rows, one object a measurement.

    {"when": "2026-12-02T05:00:00+00:00", "commit": "d7eca8f", "machine": "...", "host": "...",
     "cpus": 2, "curnet": "2.0.0", ...what the analysis adds..., "rows": [{"row": ..., ...}, ...]}

A row names its work ("row") and carries its times (seconds, or the suite's median_s, or
median_ms where the times are milliseconds) and its check against the comparator. The
Python analyses write through `write`, so the provenance fields are the same in every file;
the suite (`python -m bench`, runner.py) writes the same fields under "environment".
betweenness-profile prints its account (a profiler's log), and the R sides (r_pcsf.R,
r_several_gpus.R) write JSON from R with the date and machine.
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"


def git_commit() -> str:
    """The checkout's commit, "+dirty" when tracked files changed; CURNET_COMMIT overrides (a
    GPU machine's copy of the tree may carry an older .git)."""
    if os.environ.get("CURNET_COMMIT"):
        return os.environ["CURNET_COMMIT"]
    try:
        c = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO, capture_output=True,
                           text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return (c + ("+dirty" if dirty else "")) if c else "unknown"
    except Exception:
        return "unknown"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def provenance() -> dict:
    """Where and when: the fields every results file starts with."""
    try:
        import curnet
        version = curnet.__version__
    except ImportError:
        version = None
    return {"when": now(), "commit": git_commit(), "machine": f"{cpu_model()}, {os.cpu_count()} cores",
            "host": platform.node(), "cpus": os.cpu_count(), "curnet": version}


def default_out(name: str) -> str | None:
    """A script's default --json: $OUT/NAME when OUT is set (the GPU machine's folder that
    comes back), else none (print only)."""
    return os.path.join(os.environ["OUT"], name) if os.environ.get("OUT") else None


def _plain(o):
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


def write(path, rows: list, quiet: bool = False, **meta) -> dict:
    """Write rows with the provenance and the analysis' own fields (`meta`, which may
    override a provenance field the analysis knows better); returns the document. A run that
    saves after every row (a long run keeps what finished) passes quiet."""
    doc = {**provenance(), **meta, "rows": rows}
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, default=_plain)
        if not quiet:
            print(f"wrote {path}", flush=True)
    return doc
