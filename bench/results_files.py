"""The committed results files, read: where they are, their provenance (machine, date,
commit), one row of the README's table, and the records of the benchmark suite. Shared by
bench/summary.py (the README's table, docs/benchmarks.md), bench/sections.py (the newer
analyses' formats) and bench/report.py (the suite's report)."""
from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"


@dataclass
class Row:
    work: str
    comparator: str
    comparator_s: float
    curnet_s: float
    curnet_on: str          # "GPU" or "CPU"
    machine: str
    date: str
    commit: str
    source: str             # the results file, relative to the repository

    @property
    def speedup(self) -> float:
        return self.comparator_s / self.curnet_s


def load(name: str) -> dict:
    return json.loads((RESULTS / name).read_text())


# The commit that added each results file that does not record its own, kept beside the
# results (`python -m bench report` fills it from git), so a shallow clone, whose history
# starts at its one commit, reads the same table.
ADDED_IN = RESULTS / "added_in.json"


def added_in(name: str) -> str:
    """The commit that added a results file (for files that do not record their own)."""
    known = json.loads(ADDED_IN.read_text()) if ADDED_IN.exists() else {}
    if name not in known:
        try:
            out = subprocess.run(["git", "log", "--diff-filter=A", "--format=%h", "--abbrev=7", "--",
                                  f"bench/results/{name}"], cwd=REPO, capture_output=True, text=True,
                                 check=True).stdout.split()
        except (OSError, subprocess.CalledProcessError):
            out = []
        if not out:
            return "results file (not committed yet)"
        known[name] = out[-1]
        if WRITE_ADDED_IN:
            ADDED_IN.write_text(json.dumps(dict(sorted(known.items())), indent=1) + "\n")
    return f"results in {known[name]}"


WRITE_ADDED_IN = False      # set by summary.update_readme (the report), never by a test


def short_commit(text: str) -> str:
    """A results file's commit, shortened; a tree with uncommitted changes says so."""
    commit = text.split()[0]
    dirty = commit.endswith("+dirty")
    return commit.removesuffix("+dirty")[:7] + (" + uncommitted changes" if dirty else "")


GPU_OF_FILE = {"_h100": "NVIDIA H100 80GB HBM3", "_h200": "NVIDIA H200"}


def machine_of(name: str, doc: dict) -> str:
    """The machine of a file in the scripts' format: its own words, else the GPU its name
    records (the files are named for the machine) and its CPU count."""
    if doc.get("machine"):
        return doc["machine"].split(", shared")[0]
    gpu = next((g for tag, g in GPU_OF_FILE.items() if tag in name), None)
    cores = f"{doc['cpus']} cores" if doc.get("cpus") else ""
    return ", ".join(x for x in (gpu, cores) if x)


def day(text: str) -> str:
    return text[:10]


def fmt_s(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} µs"


def fmt_x(x: float) -> str:
    """A speed-up; under 1 it says that cuRnet is the slower."""
    if x >= 1:
        return f"{x:.0f}×" if x >= 10 else f"{x:.1f}×"
    return f"{x:.2f}× (slower)"


def find(doc, *, case, algorithm, sources=None, tool="cuRnet", layer=None, backend=None, variant=None):
    for r in records(doc):
        if (r["case"] == case and r["algorithm"] == algorithm and r.get("tool") == tool
                and (sources is None or r.get("sources") == sources)
                and (layer is None or r.get("layer") == layer)
                and (backend is None or r.get("backend") == backend)
                and (variant is None or r.get("variant") == variant)
                and r.get("median_s") is not None):
            return r
    return None


def records(*docs):
    """Every record of the given result documents (None for a half not run)."""
    for doc in docs:
        if doc is not None:
            yield from doc["records"]
