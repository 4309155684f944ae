"""bench/gpu_accounts.py's issue-51 parts on the CPU backend: the parts that need no GPU run
(`--backend cpu`), the GPU-only ones are skipped with their reason, the call counts of the
split public calls and of SCC's round trips are those of the code paths, and the wrappers are
gone afterwards (counts and structure only: no time is asserted)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench import gpu_accounts  # noqa: E402

from curnet import generators  # noqa: E402
from curnet.algorithms import bfs as bfs_mod, scc as scc_mod  # noqa: E402
from curnet.algorithms.betweenness import sweeps  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.graph import Graph  # noqa: E402


@pytest.fixture(scope="module")
def account(tmp_path_factory):
    out = tmp_path_factory.mktemp("accounts") / "floors.json"
    gpu_accounts.main(["--backend", "cpu", "--only", "floors", "--one-scale", "10", "--brandes-scale", "10",
                       "--floor-sources", "2", "--floor-reps", "1", "--deep-dataset", "",
                       "--json", str(out)])
    doc = json.loads(out.read_text())
    return {r["row"]: r["account"] for r in doc["rows"]}["floors"]


def test_gpu_only_parts_are_skipped_with_their_reason(account):
    assert account["costs"] == {"skipped": "needs the CUDA backend"}
    assert account["iterations"] == {"skipped": "needs the CUDA backend"}
    assert account["widths"] == {"skipped": "needs the CUDA backend"}


def test_the_public_calls_split_counts_each_step_of_one_source(account):
    bfs = account["public"]["bfs"]["its split (device drained around each part)"]
    assert bfs["engine (bfs_one)"]["calls"] == 1          # one source: the backend's own BFS
    assert bfs["traverse: engine, into the block's column"]["calls"] == 1
    assert bfs["copy to host (finish_block)"]["calls"] == 1
    assert bfs["host result allocated (result_buffer)"]["calls"] == 1
    assert bfs["sources checked (resolve_sources)"]["calls"] == 2   # bfs() and bfs_blocks()
    sssp = account["public"]["sssp distances"]["its split (device drained around each part)"]
    assert sssp["engine (solve_batch)"]["calls"] == 1
    assert sssp["copy to host (copy_to_host)"]["calls"] == 1
    assert len(account["public"]["bfs"]["by source"]) == 2


def test_scc_round_trips_are_the_driver_calls_that_read_the_host(account):
    r = account["rounds"]
    split = r["split (device drained around each part)"]
    # the graph of the run (R-MAT 10 directed, the part's own seed) counted independently
    src, dst, n = generators.rmat_edges(10, seed=2)
    g = Graph.from_edges(src, dst, directed=True, num_vertices=n)
    g.csc()
    be = get_backend("cpu")
    hg = be.device_graph(g)
    calls = {"trim": 0, "bfs_one": 0, "propagate_max": 0, "any": 0}
    for name in calls:
        real = getattr(be, name)

        def counted(*a, _name=name, _real=real, **kw):
            calls[_name] += 1
            return _real(*a, **kw)
        setattr(be, name, counted)
    try:
        scc_mod.scc_by_reachability(be, hg)
    finally:
        for name in calls:
            delattr(be, name)
    assert split["trim"]["calls"] == calls["trim"]
    assert split["pivot search (bfs_one)"]["calls"] == calls["bfs_one"] == 2
    assert split["propagate_max"]["calls"] == calls["propagate_max"]
    assert r["host round trips a run"] == sum(calls.values()) + 1          # + the pivot's argmax read
    pivot_lines = [x for x in r["lines (median ms, device drained each line)"] if x["source"].startswith("pivot =")]
    assert len(pivot_lines) == 1 and pivot_lines[0]["runs"] == 1


def test_the_betweenness_batch_splits_its_sources(account):
    b = account["brandes"]
    assert 0 < b["batch"] and b["columns"] > 0
    batch = b["batches"][0]
    assert batch["sources"] == min(b["batch"], b["columns"])
    split = batch["split (device drained around each part)"]
    assert split["joint BFS (traverse)"]["calls"] == 1
    assert split["sigma and delta sweeps (dependencies)"]["calls"] == 1


def test_the_wrappers_are_gone_afterwards(account):
    be = get_backend("cpu").members[0]
    for name in ("bfs_one", "trim", "any", "output_block", "finish_block", "device_graph"):
        assert name not in vars(be)
    assert bfs_mod.traverse.__module__ == "curnet.algorithms.bfs"
    assert sweeps.dependencies.__module__ == "curnet.algorithms.betweenness.sweeps"


def test_the_line_clock_counts_each_line_run():
    def three_times():
        total = 0
        for i in range(3):
            total += i
        return total
    with gpu_accounts.LineClock([three_times], None) as clock:
        assert three_times() == 3
    runs = {line - three_times.__code__.co_firstlineno: v[0] for (_, line), v in clock.lines.items()}
    assert runs[1] == 1            # total = 0
    assert runs[3] == 3            # the loop's body
    assert runs[4] == 1            # return
    assert np.all([v[1] >= 0 for v in clock.lines.values()])
