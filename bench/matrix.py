"""The declared benchmark matrix: which graphs, algorithms, source counts, comparators.

Three plans share one shape:

* ``smoke``: tiny generated graphs, every algorithm and comparator, seconds (CI);
* ``cpu``:   the real networks and R-MAT SCALE 16-20 on the CPU backend, with
  R igraph, python-igraph, scipy and networkx (small graphs) side by side;
* ``gpu``:   the real networks and R-MAT up to SCALE 22 on the CUDA backend,
  engine and engine + transfer layers, run offline from a prepared data folder.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ALGORITHMS = ("bfs", "sssp", "sssp_dists", "scc")
FRACTIONS = (0.005, 0.05, 0.20)          # the cuRnet paper's range, PERFORMANCE.md


@dataclass(frozen=True)
class Sources:
    """How many sources: a fraction of the vertices, a count, or `count` one-source calls."""
    label: str
    fraction: float | None = None
    count: int | None = None
    single: bool = False        # time each source alone (median over them)

    def k(self, n: int) -> int:
        if self.fraction is not None:
            return max(1, round(self.fraction * n))
        return min(self.count, n)


def frac(f: float) -> Sources:
    return Sources(f"{f * 100:g}%", fraction=f)


def count(c: int) -> Sources:
    return Sources(str(c), count=c)


def single(c: int) -> Sources:
    return Sources(f"1 (x{c})", count=c, single=True)


@dataclass
class Task:
    algorithm: str
    sources: Sources | None            # None for SCC
    comparators: tuple = ()            # timed side by side
    note: str = ""


@dataclass
class Case:
    """One graph and the tasks run on it."""
    key: str                           # e.g. "scnet", "rmat18", "rmat18-dir"
    kind: str                          # "dataset" | "rmat" | "grid" | "dataset-tiny"
    params: dict
    tasks: list = field(default_factory=list)
    label: str = ""

    def title(self) -> str:
        return self.label or self.key


# comparator names
R_IGRAPH, PY_IGRAPH, SCIPY, NETWORKX = "R igraph", "python-igraph", "scipy", "networkx"
ALL_COMPARATORS = (R_IGRAPH, PY_IGRAPH, SCIPY, NETWORKX)
FAST = (R_IGRAPH, PY_IGRAPH, SCIPY)


def _traversals(fractions, comparators, *, sssp_fractions=None, nx_first=False, dists=True):
    """BFS / SSSP / SSSP-distances tasks over the given source fractions."""
    tasks = []
    sssp_fractions = fractions if sssp_fractions is None else sssp_fractions
    for i, f in enumerate(fractions):
        extra = (NETWORKX,) if nx_first and i == 0 else ()
        tasks.append(Task("bfs", frac(f), comparators + extra))
    for i, f in enumerate(sssp_fractions):
        extra = (NETWORKX,) if nx_first and i == 0 else ()
        tasks.append(Task("sssp", frac(f), comparators + extra))
        if dists:
            tasks.append(Task("sssp_dists", frac(f), comparators))
    return tasks


def smoke_plan() -> list[Case]:
    small = (0.02, 0.2)
    return [
        Case("rmat8", "rmat", dict(scale=8, directed=False, weighted=True),
             _traversals(small, ALL_COMPARATORS)
             + [Task("bfs", single(4), (SCIPY,))], label="R-MAT SCALE 8"),
        Case("rmat8-dir", "rmat", dict(scale=8, directed=True, weighted=False),
             [Task("scc", None, ALL_COMPARATORS)], label="R-MAT SCALE 8, directed"),
        Case("grid30", "grid", dict(rows=30, cols=30),
             [Task("bfs", frac(0.05), (SCIPY, PY_IGRAPH)),
              Task("sssp", frac(0.05), (SCIPY,))], label="30x30 grid (long diameter)"),
    ]


def cpu_plan() -> list[Case]:
    """Sized for a 2-core machine: about 15 minutes with every comparator."""
    pct = FRACTIONS
    cases = [
        Case("string_sample", "dataset", dict(name="string_sample"),
             _traversals(pct, FAST, sssp_fractions=pct[:2], nx_first=True), label="STRING sample"),
        Case("scnet", "dataset", dict(name="scnet"),
             _traversals(pct, FAST, sssp_fractions=pct[:2]), label="scNET human"),
        Case("mouseliver", "dataset", dict(name="mouseliver"),
             [Task("bfs", frac(0.05), FAST),
              Task("sssp_dists", frac(0.05), FAST),
              Task("scc", None, ALL_COMPARATORS)], label="mouse liver (directed)"),
        Case("hpo", "dataset", dict(name="hpo"),
             [Task("bfs", frac(0.05), FAST), Task("scc", None, ALL_COMPARATORS)],
             label="HPO is_a DAG"),
        Case("hpo_genes", "dataset", dict(name="hpo_genes"),
             [Task("bfs", frac(0.005), FAST), Task("bfs", frac(0.05), FAST),
              Task("sssp_dists", frac(0.005), FAST)], label="HPO gene-phenotype"),
        Case("metis_4elt", "dataset", dict(name="metis_4elt"),
             [Task("bfs", frac(0.005), FAST + (NETWORKX,)), Task("bfs", frac(0.05), FAST),
              Task("sssp", frac(0.005), FAST), Task("sssp_dists", frac(0.05), FAST)],
             label="METIS 4elt mesh"),
        Case("metis_copter2", "dataset", dict(name="metis_copter2"),
             [Task("bfs", frac(0.005), FAST), Task("sssp_dists", frac(0.005), FAST)],
             label="METIS copter2 mesh"),
    ]
    for scale in (16, 18, 20):
        comps = FAST if scale < 20 else (R_IGRAPH, SCIPY)     # python-igraph's build is slow at 20
        tasks = [Task("bfs", single(8), comps), Task("bfs", count(64), comps),
                 Task("sssp_dists", single(4), comps)]
        if scale < 20:
            tasks.append(Task("sssp", count(16), (SCIPY, PY_IGRAPH)))
        cases.append(Case(f"rmat{scale}", "rmat", dict(scale=scale, directed=False, weighted=True),
                          tasks, label=f"R-MAT SCALE {scale}"))
        cases.append(Case(f"rmat{scale}-dir", "rmat", dict(scale=scale, directed=True, weighted=False),
                          [Task("scc", None, comps)], label=f"R-MAT SCALE {scale}, directed"))
    return cases


def gpu_plan(max_scale: int = 22) -> list[Case]:
    """The GPU half: real networks (all fractions) and R-MAT to `max_scale`.

    Comparators here only check results (scipy on a sample of rows): the
    side-by-side CPU comparisons live in the CPU half, same graphs and seeds.
    """
    cases = []
    real = ["string_sample", "scnet", "mouseliver", "hpo", "hpo_genes", "metis_4elt",
            "metis_copter2"]
    for name in real:
        tasks = [Task("bfs", frac(f), ()) for f in FRACTIONS]
        tasks += [Task("sssp", frac(f), ()) for f in FRACTIONS]
        tasks += [Task("sssp_dists", frac(f), ()) for f in FRACTIONS]
        if name in ("mouseliver", "hpo"):
            tasks.append(Task("scc", None, ()))
        cases.append(Case(name, "dataset", dict(name=name), tasks, label=name))
    for scale in range(18, max_scale + 1, 2):
        tasks = [Task("bfs", single(64), ()), Task("bfs", count(64), ()),
                 Task("sssp_dists", single(16), ()), Task("sssp", count(64), ())]
        if scale <= 20:      # 1,024 sources x 4M vertices would be 16 GB of host result per run
            tasks.insert(2, Task("bfs", count(1024), ()))
        cases.append(Case(f"rmat{scale}", "rmat", dict(scale=scale, directed=False, weighted=True),
                          tasks, label=f"R-MAT SCALE {scale}"))
        cases.append(Case(f"rmat{scale}-dir", "rmat", dict(scale=scale, directed=True, weighted=False),
                          [Task("scc", None, ())], label=f"R-MAT SCALE {scale}, directed"))
    return cases


PLANS = {"smoke": smoke_plan, "cpu": cpu_plan, "gpu": gpu_plan}


# End to end from R (the cuRnet R package), per case: "algorithm/sources" -> variants; a
# "_single" variant runs on the graph built in single precision (bench/r_curnet.R).
R_E2E = {
    "smoke": {"rmat8": {"bfs/20%": ("bfs_integer",), "sssp/20%": ("sssp_index", "sssp_names_single"),
                        "sssp_dists/20%": ("sssp_dists_single",)},
              "rmat8-dir": {"scc/": ("scc",)}},
    "cpu": {"scnet": {"bfs/20%": ("bfs_integer", "bfs_numeric"), "sssp/5%": ("sssp_index",)},
            "string_sample": {"bfs/20%": ("bfs_integer",)}},
    "gpu": {"scnet": {"bfs/0.5%": ("bfs_integer",), "bfs/20%": ("bfs_integer", "bfs_numeric"),
                      "sssp/5%": ("sssp_index", "sssp_names", "sssp_index_single", "sssp_names_single"),
                      "sssp_dists/5%": ("sssp_dists", "sssp_dists_single")},
            "string_sample": {"bfs/20%": ("bfs_integer",)}},
}
# timed runs of the R end-to-end layer (after a warm-up); the CPU half has less time
R_E2E_RUNS = {"smoke": 5, "cpu": 3, "gpu": 5}
