"""Issue 6 on the CPU: bad input gives a clear error, shapes that break naive code finish
quickly and correctly, interrupts and threads leave the graph usable, results are deterministic.

"Quickly" is asserted as work, never as seconds: the engine counts its levels, rounds and
scans (curnet.count_work), and each test bounds the counts that prove the route is linear
(a busy machine slows every run down; a quadratic route multiplies the counts). The bounds
also stop a run as soon as they are passed, so a quadratic variant fails at once.

test_errors.py holds the first part of the bad-input catalogue; the cases here are the rest.
"""
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import curnet
import curnet.graph
from curnet.backends import get_backend
from curnet.backends.cpu import CPUBackend
from curnet.generators import path, rmat, star
from curnet.io import GraphFormatError, from_arrow, read_graph
from curnet.work import count_work

import oracles

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))     # the repository: bench/
from bench.cpu_scc import chain_of_two_cycles  # noqa: E402

G = curnet.Graph.from_edges(["a", "b"], ["b", "c"], [1.0, 2.0])
IDS = curnet.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
EMPTY = curnet.Graph.from_edges([], [])
INF = np.inf


# -- bad input: each case names its problem ------------------------------------------
CATALOGUE = {
    # empty graph: it builds (0 vertices), but no source can be in it
    "empty graph, bfs": (lambda: curnet.bfs(EMPTY, [0], backend="cpu"), ValueError, "no vertices"),
    "empty graph, sssp": (lambda: curnet.sssp(EMPTY, [0], backend="cpu"), ValueError, "no vertices"),
    "empty graph, by name": (lambda: curnet.bfs(EMPTY, ["a"], backend="cpu"), ValueError, "no vertex names"),
    # sources not in the graph
    "many unknown names": (lambda: curnet.bfs(G, list("uvwxyzq")), ValueError, "and 2 more"),
    "source id beyond int64 range of graph": (lambda: curnet.bfs(IDS, [2**40]), ValueError, "out of range"),
    "numpy source out of range": (lambda: curnet.sssp(IDS, np.array([3])), ValueError, "ids 0..2"),
    # NA / NaN / infinite ids
    "NaN source": (lambda: curnet.bfs(IDS, [np.nan]), ValueError, "missing"),
    "pandas NA source": (lambda: curnet.bfs(IDS, pd.array([0, None], dtype="Int64")), ValueError, "missing"),
    "infinite source": (lambda: curnet.bfs(IDS, [INF]), TypeError, "integer"),
    "infinite src id": (lambda: curnet.Graph.from_edges([0, INF], [1, 2]), TypeError, "floating"),
    "NaN dst id": (lambda: curnet.Graph.from_edges([0, 1], [1, np.nan]), ValueError, "dst has missing"),
    "pandas NA src id": (lambda: curnet.Graph.from_edges(pd.array([0, None], dtype="Int64"), [1, 2]),
                         ValueError, "missing"),
    "arrow null src id": (lambda: curnet.Graph.from_edges(pa.array([0, None]), [1, 2]), ValueError, "missing"),
    "polars null dst id": (lambda: curnet.Graph.from_edges([0, 1], __import__("polars").Series([1, None])),
                           ValueError, "missing"),
    # NA / NaN / infinite weights
    "pandas NA weight": (lambda: curnet.Graph.from_edges([0, 1], [1, 2], pd.array([1.0, None], dtype="Float64")),
                         ValueError, "edge 1 has weight nan"),
    "arrow null weight": (lambda: curnet.Graph.from_edges([0, 1], [1, 2], pa.array([1.0, None])),
                          ValueError, "missing"),
    "-inf weight": (lambda: curnet.Graph.from_edges([0, 1], [1, 2], [1.0, -INF]), ValueError, "finite"),
    "weight beyond float32": (lambda: curnet.Graph.from_edges([0], [1], [1e300]), ValueError, "float32 range"),
    # weights given as strings (or other non-numbers)
    "string weights, pandas": (lambda: curnet.Graph.from_edges([0], [1], pd.Series(["1.5"])), TypeError, "numeric"),
    "string weights, arrow": (lambda: curnet.Graph.from_edges([0], [1], pa.array(["1.5"])), TypeError, "numeric"),
    "bool weights": (lambda: curnet.Graph.from_edges([0], [1], [True]), TypeError, "numeric"),
    "complex weights": (lambda: curnet.Graph.from_edges([0], [1], [1 + 2j]), TypeError, "numeric"),
    # negative weights on an undirected graph (names the edge)
    "negative undirected, edge named": (lambda: curnet.Graph.from_edges([0, 1], [1, 2], [1.0, -2.0], directed=False),
                                        ValueError, "2nd edge (index 1)"),
    # mode "all" on a directed graph with a negative edge: said in terms of the mode
    "negative edge under mode all": (lambda: curnet.Graph.from_edges([0, 1], [1, 2], [1.0, -2.0]).oriented("all"),
        ValueError, "mode 'all' ignores edge directions"),
    # mismatched column lengths
    "names, src/dst lengths": (lambda: curnet.Graph.from_edges(["a", "b"], ["c"]), ValueError, "2 vs 1"),
    "names, weights length": (lambda: curnet.Graph.from_edges(["a", "b"], ["c", "d"], [1.0]), ValueError, "length 1"),
    "arrow, src/dst lengths": (lambda: curnet.Graph.from_edges(pa.array([0, 1, 2]), pa.array([1])), ValueError, "length"),
    # float ids
    "float dst ids": (lambda: curnet.Graph.from_edges([0, 1], np.array([1.0, 2.0])), TypeError, "floating"),
    "float source array": (lambda: curnet.bfs(IDS, np.array([0.0, 1.0])), TypeError, "integer"),
    # ids and vertex counts beyond int32
    "dst id 2^31": (lambda: curnet.Graph.from_edges([0], [2**31]), ValueError, "int32"),
    "uint64 id": (lambda: curnet.Graph.from_edges(np.array([2**63], np.uint64), [0]), ValueError, "int32"),
    "num_vertices beyond int32": (lambda: curnet.Graph.from_edges([0], [1], num_vertices=2**31 + 5), ValueError, "int32"),
    "negative num_vertices": (lambda: curnet.Graph.from_edges([], [], num_vertices=-1), ValueError, "outside"),
    # fewer than two columns
    "from_arrow, one column": (lambda: from_arrow(pa.table({"a": [0, 1]})), ValueError, "dst column index 1"),
    "from_arrow, no columns": (lambda: from_arrow(pa.table({})), ValueError, "src column index 0"),
    "from_arrow, pandas one column": (lambda: from_arrow(pd.DataFrame({"a": [0, 1]})), ValueError, "there are 1 columns"),
    "from_arrow, polars one column": (lambda: from_arrow(__import__("polars").DataFrame({"a": [0, 1]})),
                                      ValueError, "there are 1 columns"),
}


@pytest.mark.parametrize("case", list(CATALOGUE), ids=list(CATALOGUE))
def test_bad_input_catalogue(case):
    call, exc, words = CATALOGUE[case]
    with pytest.raises(exc) as e:
        call()
    assert words.lower() in str(e.value).lower(), str(e.value)


def test_empty_graph_is_a_graph():
    assert (len(EMPTY), EMPTY.num_edges) == (0, 0)
    assert curnet.scc(EMPTY, backend="cpu").shape == (0,)
    g = curnet.Graph.from_edges([], [], num_vertices=3)      # isolated vertices only
    assert curnet.bfs(g, [1], backend="cpu").tolist() == [[-1, 0, -1]]
    assert curnet.scc(g, backend="cpu").tolist() == [0, 1, 2]


@pytest.mark.parametrize("name", ["one.tsv", "one.csv", "one.parquet"])
def test_one_column_file_is_refused_naming_the_file(tmp_path, name):
    p = tmp_path / name
    if name.endswith(".parquet"):
        pq.write_table(pa.table({"a": [0, 1, 2]}), str(p))
    else:
        p.write_text("0\n1\n2\n")
    with pytest.raises(GraphFormatError) as e:
        read_graph(p)
    assert name in str(e.value) and "dst column" in str(e.value)


def test_file_naming_a_huge_vertex_is_refused_before_allocating(tmp_path, monkeypatch):
    # a one-line file naming vertex 2^31 - 2 asks for 2^31 - 1 vertices: 32 GiB of offsets
    monkeypatch.setattr("curnet.memory.available_host_memory", lambda: 2**30)
    p = tmp_path / "huge.txt"
    p.write_text(f"0 {2**31 - 2}\n")
    with pytest.raises(curnet.OutputTooLargeError, match=r"2,147,483,647 vertices needs 32\.00 GiB"):
        read_graph(p, "snap", ids="index")
    with pytest.raises(curnet.OutputTooLargeError, match="GiB"):
        curnet.Graph.from_edges([0], [2**31 - 2])


def test_matrix_market_header_beyond_int32_is_refused(tmp_path):
    p = tmp_path / "big.mtx"
    p.write_text("%%MatrixMarket matrix coordinate pattern general\n3000000000 3000000000 0\n")
    with pytest.raises(ValueError, match="int32") as e:
        read_graph(p)
    assert "big.mtx" in str(e.value)


# -- results larger than host memory: refused before allocating, saying how much ----------
def test_results_larger_than_host_memory_are_refused_with_the_size():
    g = curnet.Graph.from_edges([], [], num_vertices=1_000_000)
    sources = np.zeros(10_000_000, np.int64)      # 10^7 x 10^6 int32 depths: 37,252.90 GiB
    with count_work() as work, pytest.raises(curnet.OutputTooLargeError, match=r"needs 37252\.90 GiB") as e:
        curnet.bfs(g, sources, backend="cpu")
    assert "depth matrix" in str(e.value) and isinstance(e.value, MemoryError)
    with pytest.raises(curnet.OutputTooLargeError, match="distance matrix needs 37252.90 GiB"):
        curnet.sssp(g, sources, backend="cpu")
    assert not work                                # refused before any traversal


def test_predecessor_matrix_counts_too(monkeypatch):
    # room for the distances alone, not for distances and predecessors
    g = path(1000, weighted=True)
    free = 100 * 1000 * 4 + 10
    calls = []

    def memory():
        calls.append(1)
        return free if len(calls) == 1 else 10
    monkeypatch.setattr("curnet.memory.available_host_memory", memory)
    with pytest.raises(curnet.OutputTooLargeError, match="predecessor matrix"):
        curnet.sssp(g, np.arange(100), backend="cpu")


# -- repeated sources: allowed, rows repeat (also across batches) ---------------------------
def test_repeated_sources_repeat_rows_across_batches():
    g = rmat(8, edge_factor=4, seed=4, directed=True, weighted=True, dtype=np.float64)
    sources = np.tile([3, 3, 17], 200)                   # 600 rows: > one BFS batch of 512
    d = curnet.bfs(g, sources, backend="cpu")
    assert d.shape == (600, len(g)) and (d == np.tile(d[:3], (200, 1))).all()
    dist, pred = curnet.sssp(g, sources[:130], backend="cpu")   # > two SSSP batches of 64
    assert (dist == np.tile(dist[:3], (44, 1))[:130]).all() and (pred == np.tile(pred[:3], (44, 1))[:130]).all()
    np.testing.assert_allclose(dist[:3], oracles.sp_distances(g, [3, 3, 17]), rtol=1e-9)


# -- negative cycles: the source is named, nothing loops -------------------------------------
def test_negative_cycle_far_away_is_found_quickly_naming_a_source_that_reaches_it():
    n = 3000                                        # a long path, then a 3-cycle of weight -1
    src = np.r_[np.arange(n - 1), n, n + 1, n + 2]
    dst = np.r_[np.arange(1, n), n + 1, n + 2, n]
    w = np.r_[np.ones(n - 1), 1.0, 1.0, -3.0]
    src, dst, w = np.r_[src, n - 1], np.r_[dst, n], np.r_[w, 0.5]       # path end -> cycle
    g = curnet.Graph.from_edges(src, dst, w, num_vertices=n + 4)      # n + 3 is isolated
    sources = np.r_[np.arange(n - 100, n - 30), [0]]        # 71 sources, two batches: all reach it
    be = get_backend("cpu")
    # found by the per-source worklist after max_bf_rounds frontier rounds, not by n rounds
    with count_work(bounds={"sssp rounds": 2 * be.max_bf_rounds}) as work:
        with pytest.raises(curnet.NegativeCycleError) as e:
            curnet.sssp(g, sources, backend="cpu")
        assert e.value.source in set(sources.tolist())
        assert f"source {e.value.source}" in str(e.value)
        with pytest.raises(curnet.NegativeCycleError):
            curnet.sssp_dists(g, [0], backend="cpu")
    # the worklist stops at the first source whose path repeats a vertex: about 2n scans
    assert 0 < work["worklist scans"] <= 4 * (n + 4), work
    # a source that cannot reach the cycle still gets its distances
    d = curnet.sssp_dists(g, [n + 3], backend="cpu")
    assert np.isinf(d[0, :-1]).all() and d[0, -1] == 0


# -- shapes that break naive code ------------------------------------------------------------
def test_isolated_vertices_self_loops_and_duplicate_edges():
    # 0 -> 1 twice (5, 2), self-loops on 1 (0.5) and 3 (-1 would be a cycle: use +1), 2 and 4 isolated
    g = curnet.Graph.from_edges([0, 0, 1, 1, 3, 3], [1, 1, 1, 5, 3, 5], [5.0, 2.0, 0.5, 1.0, 1.0, 4.0],
                                num_vertices=6)
    assert curnet.bfs(g, [0, 2], backend="cpu").tolist() == [[0, 1, -1, -1, -1, 2], [-1, -1, 0, -1, -1, -1]]
    dist, pred = curnet.sssp(g, [0, 3], backend="cpu")
    np.testing.assert_array_equal(dist, [[0, 2, INF, INF, INF, 3], [INF, INF, INF, 0, INF, 4]])
    np.testing.assert_array_equal(pred, [[-1, 0, -1, -1, -1, 1], [-1, -1, -1, -1, -1, 3]])
    np.testing.assert_array_equal(curnet.scc(g, backend="cpu"), [0, 1, 2, 3, 4, 5])
    u = curnet.Graph.from_edges([0, 0, 1], [1, 1, 1], directed=False, num_vertices=4)
    assert curnet.bfs(u, [1], backend="cpu").tolist() == [[1, 0, -1, -1]]
    np.testing.assert_array_equal(curnet.scc(u, backend="cpu"), [0, 0, 1, 2])


def test_star_with_two_million_leaves():
    g = star(2_000_000)
    with count_work(bounds={"bfs joint levels": 3, "sssp rounds": 0}) as work:
        d = curnet.bfs(g, [0, 1, 2_000_000], backend="cpu")
        assert (d[0, 1:] == 1).all() and d[1, 0] == 1 and d[1, 1] == 0 and (d[1, 2:] == 2).all()
        assert d[2, -1] == 0 and (d[2, 1:-1] == 2).all()
        dist, pred = curnet.sssp(g, [5], backend="cpu")
        assert dist[0, 0] == 1 and dist[0, 5] == 0 and (np.delete(dist[0], [0, 5]) == 2).all()
        assert pred[0, 0] == 5 and (np.delete(pred[0], [0, 5]) == 0).all()
        assert (curnet.scc(g, backend="cpu") == 0).all()
    # three levels reach every leaf; Dijkstra and SciPy's SCC are single linear calls
    assert work == {"bfs joint levels": 3, "dijkstra sources": 1, "scc whole-graph runs": 1}, work


# Bounds that prove the long-path routes are linear. A joint BFS runs at most max_joint_levels
# levels, then one SciPy BFS a source; a frontier Bellman-Ford batch runs at most max_bf_rounds
# rounds, then the per-source worklist, whose scans grow with n. A quadratic route runs ~n
# levels or rounds (each O(n)), and passes these bounds within the first few hundred.
def long_path_bounds(be, n, sources):
    return {"bfs joint levels": be.max_joint_levels, "bfs one-source runs": sources,
            "sssp rounds": be.max_bf_rounds * sources, "sssp per-source runs": sources,
            "worklist scans": 3 * n * sources}


@pytest.mark.parametrize("directed", [True, False])
def test_path_of_a_million_vertices(directed):
    n = 1_000_000
    g = path(n, directed=directed)
    with count_work(bounds=long_path_bounds(get_backend("cpu"), n, 2)) as work:
        d = curnet.bfs(g, [0, n // 2], backend="cpu")   # joint levels, then per-source SciPy BFS
    assert work["bfs one-source runs"] == 2, work
    expect_half = np.abs(np.arange(n) - n // 2) if not directed else np.r_[np.full(n // 2, -1), np.arange(n - n // 2)]
    np.testing.assert_array_equal(d[0], np.arange(n))
    np.testing.assert_array_equal(d[1], expect_half)
    gw = path(n, directed=directed, weighted=True)
    with count_work(bounds={"sssp rounds": 0}) as work:
        dist, pred = curnet.sssp(gw, [0, n - 1], backend="cpu")       # SciPy Dijkstra
    assert work == {"dijkstra sources": 2}, work
    np.testing.assert_array_equal(dist[0], np.arange(n))
    np.testing.assert_array_equal(pred[0], np.arange(-1, n - 1))
    if directed:
        assert np.isinf(dist[1, :-1]).all() and dist[1, -1] == 0
    else:
        np.testing.assert_array_equal(dist[1], np.arange(n)[::-1])


def test_path_with_negative_weights_is_correct():
    n = 3000                                  # Bellman-Ford rounds grow with the hop diameter
    w = np.ones(n - 1)
    w[::7] = -0.5
    g = curnet.Graph.from_edges(np.arange(n - 1), np.arange(1, n), w, num_vertices=n)
    with count_work(bounds=long_path_bounds(get_backend("cpu"), n, 2)) as work:
        dist, pred = curnet.sssp(g, [0, 10], backend="cpu")
    assert work["sssp per-source runs"] == 2, work
    np.testing.assert_allclose(dist[0], np.r_[0, np.cumsum(w)])
    np.testing.assert_array_equal(pred[1, 11:], np.arange(10, n - 1))


@pytest.mark.parametrize("permuted", [False, True])
def test_path_with_negative_weights_of_200k_vertices_finishes_quickly(permuted):
    # past max_bf_rounds frontier rounds the batch goes to a per-source worklist: O(n) on a path,
    # whatever the order of the vertex ids (SciPy's Bellman-Ford is O(n^2) on a permuted one)
    n = 200_000
    w = np.ones(n - 1)
    w[5] = -0.5
    v = np.random.default_rng(5).permutation(n) if permuted else np.arange(n)
    g = curnet.Graph.from_edges(v[:-1], v[1:], w, num_vertices=n)
    with count_work(bounds=long_path_bounds(get_backend("cpu"), n, 1)) as work:
        dist, pred = curnet.sssp(g, [v[0]], backend="cpu")
    assert work["sssp per-source runs"] == 1 and work["worklist scans"] >= n - 1, work
    np.testing.assert_array_equal(dist[0, v], np.r_[0, np.cumsum(w)])
    np.testing.assert_array_equal(pred[0, v], np.r_[-1, v[:-1]])


def test_negative_cycle_at_the_end_of_a_200k_path_is_found_quickly():
    n = 200_000      # a path 0 .. n+2, and n+2 -> n closing the cycle n -> n+1 -> n+2
    src, dst = np.r_[np.arange(n + 2), n + 2], np.r_[np.arange(1, n + 3), n]
    w = np.r_[np.ones(n - 1), -0.5, 1.0, 1.0, -2.5]
    g = curnet.Graph.from_edges(src, dst, w, num_vertices=n + 3)
    # the worklist walks the path once, then the cycle until a path repeats n vertices
    with count_work(bounds=long_path_bounds(get_backend("cpu"), n, 1)) as work:
        with pytest.raises(curnet.NegativeCycleError) as e:
            curnet.sssp_dists(g, [0], backend="cpu")
    assert e.value.source == 0 and "source 0" in str(e.value)
    assert work["sssp per-source runs"] == 1 and work["worklist scans"] >= n, work


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_route_agrees_with_scipy_and_the_frontier_rounds(monkeypatch, dtype):
    """The per-source worklist (`sp_long`), forced from the first round, against SciPy's
    Bellman-Ford and Johnson, and exactly equal to the frontier rounds in the weight dtype."""
    from scipy.sparse import csgraph
    be = get_backend("cpu")
    long_calls = []
    monkeypatch.setattr(be, "sp_long", lambda *a: long_calls.append(1) or CPUBackend.sp_long(be, *a))
    rng = np.random.default_rng(17)
    for trial in range(6):
        n = int(rng.integers(5, 40))
        m = 3 * n
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)     # parallel arcs and self-loops too
        pot = rng.integers(0, 8, n).astype(np.float64)    # potentials: negative arcs, no negative cycle
        w = rng.uniform(0.1, 3.0, m) + pot[src] - pot[dst]
        g = curnet.Graph.from_edges(src, dst, w, num_vertices=n, dtype=dtype)
        assert g.weights.min() < 0
        sources = np.r_[rng.integers(0, n, 4), 0]
        frontier, _ = curnet.sssp(g, sources, backend="cpu")
        with monkeypatch.context() as mp:
            mp.setattr(be, "max_bf_rounds", 0)
            calls = len(long_calls)
            dist, pred = curnet.sssp(g, sources, backend="cpu")
            assert len(long_calls) > calls
        np.testing.assert_array_equal(dist, frontier)
        matrix = oracles.scipy_matrix(g)
        tol = dict(rtol=1e-5, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
        for method in (csgraph.bellman_ford, csgraph.johnson):
            np.testing.assert_allclose(dist, method(matrix, directed=True, indices=sources), **tol)
        oracles.check_predecessors(g, sources, dist, pred, **tol)
        # each vertex's predecessor chain ends at -1
        assert not be.pred_has_cycle(pred).any(), f"a cycle of predecessors (trial {trial})"


def test_a_million_tiny_sccs_and_one_giant():
    pairs = 500_000                                   # 2-cycles 2i <-> 2i+1, chained as a DAG
    src, dst, n = chain_of_two_cycles(pairs, ring=200_000)
    g = curnet.Graph.from_edges(src, dst, num_vertices=n)
    with count_work() as work:
        labels = curnet.scc(g, backend="cpu")
    assert work == {"scc whole-graph runs": 1}, work     # SciPy's linear-time Pearce, once
    np.testing.assert_array_equal(labels[: 2 * pairs], np.repeat(np.arange(pairs), 2))
    assert (labels[2 * pairs:] == pairs).all()


def test_64_bit_offsets_give_the_same_answers(monkeypatch):
    """Past 2^31 - 1 arcs the offsets are int64 (graph.offset_dtype): run everything with the
    threshold lowered, instead of allocating 16 GiB."""
    rng = np.random.default_rng(7)
    src, dst = rng.integers(0, 30, 120), rng.integers(0, 30, 120)
    w = rng.integers(1, 9, 120).astype(np.float64)
    small = curnet.Graph.from_edges(src, dst, w, num_vertices=30, dtype=np.float64)
    monkeypatch.setattr(curnet.graph, "INT32_MAX", 100)
    wide = curnet.Graph.from_edges(src, dst, w, num_vertices=30, dtype=np.float64)
    assert small.indptr.dtype == np.int32 and wide.indptr.dtype == np.int64
    assert wide.csc()[0].dtype == np.int64
    np.testing.assert_array_equal(small.indptr, wide.indptr)
    sources = np.arange(30)
    np.testing.assert_array_equal(curnet.bfs(wide, sources, backend="cpu"), oracles.bfs_depths(small, sources))
    dist, pred = curnet.sssp(wide, sources, backend="cpu")
    np.testing.assert_allclose(dist, oracles.sp_distances(small, sources))
    oracles.check_predecessors(small, sources, dist, pred)
    from curnet.algorithms.scc import canonical_labels, scc_by_reachability
    from curnet.algorithms.sssp import bellman_ford
    be = get_backend("cpu")
    bf_dist, _ = bellman_ford(be, be.device_graph(wide), sources, True)
    np.testing.assert_allclose(bf_dist, dist)
    labels = curnet.scc(wide, backend="cpu")
    assert oracles.same_partition(labels, oracles.scc_partition(small))
    np.testing.assert_array_equal(canonical_labels(scc_by_reachability(be, be.device_graph(wide))), labels)


# -- faults: an interrupt between batches, threads sharing a graph ---------------------------
def _interrupt_after(batches):
    seen = []

    def progress(done, total):
        seen.append(done)
        if len(seen) == batches:
            raise KeyboardInterrupt
    return progress


def _child_processes() -> set:
    """Pids of this process's children (from /proc): the engine must start none. Compared
    before and after, since earlier tests may leave long-lived helpers (multiprocessing's
    resource tracker, say)."""
    me, children = str(os.getpid()), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != "Z":
                children.add(int(entry))
    return children


@pytest.mark.parametrize("kind", ["bfs", "dijkstra", "bellman-ford"])
def test_interrupt_between_batches_leaves_the_graph_usable(kind):
    weighted = kind != "bfs"
    g = rmat(9, edge_factor=4, seed=11, directed=True, weighted=weighted, dtype=np.float64)
    if kind == "bellman-ford":    # one negative arc out of a vertex with no in-arcs: no cycle
        top = int(np.argmin(g.in_degree()))
        g = curnet.Graph.from_edges(np.r_[g.edge_sources(), top], np.r_[g.indices, 0],
                                    np.r_[g.weights, -0.25], num_vertices=len(g), dtype=np.float64)
    sources = np.arange(1100 if kind == "bfs" else 200) % len(g)
    run = (lambda **kw: curnet.bfs(g, sources, backend="cpu", **kw)) if kind == "bfs" else \
        (lambda **kw: curnet.sssp(g, sources, backend="cpu", **kw))
    before = _child_processes()
    with pytest.raises(KeyboardInterrupt):
        run(progress=_interrupt_after(1))
    assert _child_processes() <= before
    again = run()
    if kind == "bfs":
        np.testing.assert_array_equal(again[::50], oracles.bfs_depths(g, sources[::50]))
    else:
        np.testing.assert_allclose(again[0][::25], oracles.sp_distances(g, sources[::25]), atol=1e-9)
        oracles.check_predecessors(g, sources[::25], again[0][::25], again[1][::25])
    np.testing.assert_array_equal(curnet.scc(g, backend="cpu"), curnet.scc(g, backend="cpu"))


def test_a_graph_shared_by_threads_for_read_only_queries():
    def fresh():          # a new graph each time, so the lazy caches (CSC, backend copy) race
        return rmat(9, edge_factor=4, seed=12, directed=True, weighted=True, dtype=np.float64)
    ref_g = fresh()
    sources = np.arange(0, 512, 5)
    expect_bfs = oracles.bfs_depths(ref_g, sources)
    expect_sp = oracles.sp_distances(ref_g, sources)
    expect_scc = curnet.scc(ref_g, backend="cpu")
    for _ in range(2):
        g = fresh()
        barrier = threading.Barrier(4)

        def query(i):
            barrier.wait()
            if i % 4 == 0:
                np.testing.assert_array_equal(curnet.bfs(g, sources, backend="cpu"), expect_bfs)
            elif i % 4 == 1:
                dist, _ = curnet.sssp(g, sources, backend="cpu")
                np.testing.assert_allclose(dist, expect_sp)
            elif i % 4 == 2:
                np.testing.assert_array_equal(curnet.scc(g, backend="cpu"), expect_scc)
            else:
                np.testing.assert_allclose(curnet.sssp_dists(g, sources[::-1], backend="cpu"), expect_sp[::-1])
            return i
        with ThreadPoolExecutor(4) as pool:
            assert sorted(pool.map(query, range(4))) == [0, 1, 2, 3]


# -- determinism ---------------------------------------------------------------------------
def _everything(g, sources):
    d = curnet.bfs(g, sources, backend="cpu")
    dist, pred = curnet.sssp(g, sources, backend="cpu")
    return d, dist, pred, curnet.scc(g, backend="cpu")


@pytest.mark.parametrize("negative", [False, True])
def test_same_input_same_output_and_one_thread_equals_many(monkeypatch, negative):
    g = rmat(9, edge_factor=6, seed=13, directed=True, weighted=True, dtype=np.float64)
    if negative:   # potentials keep every cycle non-negative; many ties make predecessors a choice
        pot = np.random.default_rng(1).integers(0, 5, len(g)).astype(np.float64)
        w = np.round(g.weights * 4) + pot[g.edge_sources()] - pot[g.indices]
        g = curnet.Graph.from_edges(g.edge_sources(), g.indices, w, num_vertices=len(g), dtype=np.float64)
    sources = np.r_[np.arange(0, len(g), 3), [0, 0]]       # several batches, repeats
    first = _everything(g, sources)
    for a, b in zip(first, _everything(g, sources)):
        np.testing.assert_array_equal(a, b)
    monkeypatch.setenv("CURNET_THREADS", "1")
    one = CPUBackend()
    assert one.workers == 1
    monkeypatch.setitem(__import__("curnet.backends", fromlist=["_instances"])._instances, "cpu", one)
    for a, b in zip(first, _everything(g, sources)):
        np.testing.assert_array_equal(a, b)
