"""The CPU backend's compiled Dijkstra (backends/cpu/compiled_sssp.py) against SciPy's: the
public calls forced onto that route (the work threshold lowered) on random graphs in both
precisions and on graphs with ties, zero weights and weights lost to rounding; distances equal
to SciPy's, predecessors exact and acyclic. And the route itself: large batches take it on the
threads, small ones stay with SciPy."""
import contextlib
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from scipy.sparse import csgraph

pytest.importorskip("numba")

import curnet  # noqa: E402
import oracles  # noqa: E402
from curnet.backends.cpu import compiled_sssp  # noqa: E402
from curnet.backends.cpu import sssp as cpu_sssp  # noqa: E402
from oracles import check_predecessors, check_preds_exact, f64_graph  # noqa: E402
from strategies import graphs_and_sources  # noqa: E402


@contextlib.contextmanager
def compiled_calls():
    """Every batch through the compiled Dijkstra; the sources of each call it gets, listed."""
    calls: list = []
    real = compiled_sssp.dijkstra_rows
    with mock.patch.object(cpu_sssp, "COMPILED_DIJKSTRA_MIN_WORK", 0), \
            mock.patch.object(compiled_sssp, "dijkstra_rows", lambda *a: calls.append(len(a[3])) or real(*a)):
        yield calls


@pytest.fixture
def compiled_route():
    with compiled_calls() as calls:
        yield calls


@settings(deadline=None, max_examples=60)
@given(graphs_and_sources(weighted=True, dtype=np.float64))
def test_compiled_dijkstra_matches_scipy_float64(gs):
    g, sources = gs
    with compiled_calls() as calls:
        dist, pred = curnet.sssp(g, sources, backend="cpu")
        dists_only = curnet.sssp_dists(g, sources, backend="cpu")
    assert sum(calls) == 2 * len(sources)               # every source, both calls, compiled
    np.testing.assert_array_equal(dist, oracles.sp_distances(g, sources))
    np.testing.assert_array_equal(dists_only, dist)
    check_preds_exact(g, sources, dist, pred)


@settings(deadline=None, max_examples=40)
@given(graphs_and_sources(weighted=True, dtype=np.float32))
def test_compiled_dijkstra_matches_scipy_float32(gs):
    """Summed in float64 and stored in float32, as SciPy's (float64) distances cast."""
    g, sources = gs
    with compiled_calls():
        dist, pred = curnet.sssp(g, sources, backend="cpu")
    assert dist.dtype == np.float32
    np.testing.assert_array_equal(dist, oracles.sp_distances(g, sources).astype(np.float32))
    check_predecessors(g, sources, dist, pred)


@pytest.mark.parametrize("kind", ["real", "ties", "zeros", "tiny"])
@pytest.mark.parametrize("directed", [True, False])
def test_compiled_dijkstra_on_ties_zeros_and_rounding(kind, directed, compiled_route):
    for seed, (n, m, kb) in enumerate([(300, 2400, 70), (800, 1000, 5), (60, 900, 130)]):
        rng = np.random.default_rng(90 + seed)
        g = f64_graph(rng, n, m, directed=directed, kind=kind)
        ids = rng.integers(0, n, kb)
        dist, pred = curnet.sssp(g, ids, backend="cpu")
        np.testing.assert_array_equal(dist, csgraph.dijkstra(oracles.scipy_matrix(g), directed=True, indices=ids))
        check_preds_exact(g, ids, dist, pred)
    assert sum(compiled_route) == 70 + 5 + 130


def test_parallel_arcs_self_loops_and_unreached(compiled_route):
    """The cheapest of parallel arcs wins (SciPy needs them merged first); a self-loop changes
    nothing; an unreached vertex keeps inf and -1; the unweighted graph counts hops."""
    g = curnet.Graph.from_edges([0, 0, 1, 1, 2, 3], [1, 1, 2, 1, 0, 4], [5.0, 2.0, 1.0, 0.5, 1.0, 1.0],
                                directed=True, num_vertices=5, dtype=np.float64)
    dist, pred = curnet.sssp(g, [0, 2], backend="cpu")
    assert dist.tolist() == [[0.0, 2.0, 3.0, np.inf, np.inf], [1.0, 3.0, 0.0, np.inf, np.inf]]
    assert pred.tolist() == [[-1, 0, 1, -1, -1], [2, 0, -1, -1, -1]]
    hops = curnet.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False, num_vertices=4)
    d, p = curnet.sssp(hops, [3], backend="cpu")
    assert d.tolist() == [[3.0, 2.0, 1.0, 0.0]] and p.tolist() == [[1, 2, 3, -1]]
    assert sum(compiled_route) == 3


def test_the_route_follows_the_batch_work(monkeypatch):
    """At the threshold a batch runs compiled; below it SciPy's; the batches of one call run on
    the backend's threads (Dijkstra's batches no longer wait for one another)."""
    g = f64_graph(np.random.default_rng(3), 500, 4000, directed=True, kind="real")
    arcs, k = g.num_arcs, 130                          # batches of 64, 64 and 2 sources
    calls = []
    real = compiled_sssp.dijkstra_rows
    monkeypatch.setattr(compiled_sssp, "dijkstra_rows", lambda *a: calls.append(len(a[3])) or real(*a))
    monkeypatch.setattr(cpu_sssp, "COMPILED_DIJKSTRA_MIN_WORK", 64 * arcs)
    ids = np.arange(k) % len(g)
    with curnet.count_work() as work:
        dist, _ = curnet.sssp(g, ids, backend="cpu")
    assert sorted(calls) == [64, 64]                    # the 2-source batch stayed with SciPy
    assert work["dijkstra sources"] == k                # both routes count their sources
    np.testing.assert_array_equal(dist, oracles.sp_distances(g, ids))
    from curnet.backends import get_backend
    assert get_backend("cpu").sssp_parallel(dijkstra=True)
