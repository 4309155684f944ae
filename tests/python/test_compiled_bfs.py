"""The CPU backend's compiled pull (backends/cpu/compiled_bfs.py) against the NumPy pull it
replaces and against SciPy's BFS: the public call forced onto that route on random graphs and
on graphs whose hubs' words fill after a few in-arcs."""
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("numba")

import curnet  # noqa: E402
import oracles  # noqa: E402
from curnet import generators  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.backends.cpu import bfs as cpu_bfs  # noqa: E402
from curnet.backends.cpu import compiled_bfs  # noqa: E402
from curnet.graph import Graph  # noqa: E402
from strategies import graphs  # noqa: E402


@settings(deadline=None)
@given(graphs(max_vertices=60), st.integers(1, 140), st.integers(0, 2**31))
def test_compiled_pull_matches_scipy_on_random_graphs(g, k, seed):
    if len(g) == 0:
        return
    sources = np.random.default_rng(seed).integers(0, len(g), k)
    with mock.patch.object(cpu_bfs, "COMPILED_PULL_MIN_ARCS", 0):
        got = curnet.bfs(g, sources, backend="cpu")
    np.testing.assert_array_equal(got, oracles.bfs_depths(g, sources))


@pytest.mark.parametrize("k", [1, 64, 130, 1024])
def test_compiled_pull_level_by_level_equals_the_numpy_pull(k):
    """Each level's new bits, from the same frontier and seen bits, under both pulls: R-MAT
    (hubs whose words fill early) and a star plus a ring (one hub reached from everything)."""
    be = get_backend("cpu")
    n = 2000
    ring = np.arange(n)
    star = Graph.from_edges(np.r_[ring, ring], np.r_[np.zeros(n, np.int64), (ring + 1) % n], directed=True,
                            num_vertices=n)
    for g in (generators.rmat(12, seed=3), star):
        hg = be.device_graph(g)
        ids = np.random.default_rng(k).integers(0, len(g), k).astype(np.int32)
        seen, frontier, _ = cpu_bfs.bits_start(hg, ids)
        pulls = 0
        while True:
            active = frontier.any(axis=1)
            numpy_new = cpu_bfs.expand_bits(be, hg, frontier, seen)
            new = np.zeros_like(seen)
            compiled_bfs.pull_range(hg.in_ptr, hg.in_src, frontier, seen, active, new, 0, len(g))
            np.testing.assert_array_equal(new, numpy_new)
            pulls += 1
            if not new.any():
                break
            seen |= new
            frontier = new
        assert pulls >= 3


def test_the_public_call_takes_the_compiled_pull_from_the_threshold(monkeypatch):
    """From COMPILED_PULL_MIN_ARCS arcs the pull levels run compiled; below, the NumPy pull.
    Counted by wrapping the compiled routine, the depths equal either way."""
    g = generators.rmat(11, seed=2)
    sources = np.arange(0, 2000, 7)
    calls = []
    real = compiled_bfs.pull_range
    monkeypatch.setattr(compiled_bfs, "pull_range", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(cpu_bfs, "COMPILED_PULL_MIN_ARCS", g.num_arcs + 1)
    below = curnet.bfs(g, sources, backend="cpu")
    assert calls == []
    monkeypatch.setattr(cpu_bfs, "COMPILED_PULL_MIN_ARCS", g.num_arcs)
    at = curnet.bfs(g, sources, backend="cpu")
    assert len(calls) > 0
    np.testing.assert_array_equal(at, below)
    np.testing.assert_array_equal(at, oracles.bfs_depths(g, sources))
