"""A weighted batch's Brandes DAG in compiled code (compiled_brandes.dag_entry_pairs and
dag_levels) against the NumPy twins it replaces for large batches (cpu/brandes.py
`_dag_entry_pairs` and `dag_levels`): the same pairs, levels and level groups in the same
order, on random graphs with ties, float32 rounding and unreached entries; and weighted
betweenness with the compiled route forced, against python-igraph."""
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("numba")

import curnet  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.backends.brandes import tie_epsilon  # noqa: E402
from curnet.backends.cpu import brandes as cpu_brandes  # noqa: E402
from curnet.backends.cpu import compiled_brandes  # noqa: E402
from curnet.work import count_work  # noqa: E402

ig = pytest.importorskip("igraph")


@st.composite
def weighted_cases(draw, max_vertices=30):
    """(n, src, dst, positive weights with many ties (quarters 1..12), directed)."""
    n = draw(st.integers(1, max_vertices))
    m = draw(st.integers(0, 4 * n))
    src = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    dst = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    w = np.array(draw(st.lists(st.integers(1, 12), min_size=m, max_size=m)), float) / 4
    return n, src, dst, w, draw(st.booleans())


def dag_threshold(threshold):
    return mock.patch.object(cpu_brandes, "COMPILED_DAG_MIN_ENTRIES", threshold)


def batch(case, dtype, k, seed):
    """The case's host graph and the (n, k) distance block of k random sources (inf unreached)."""
    n, src, dst, w, directed = case
    g = curnet.Graph.from_edges(src, dst, w.astype(dtype), directed=directed, num_vertices=n, dtype=dtype)
    ids = np.random.default_rng(seed).integers(0, n, k)
    return get_backend("cpu").device_graph(g), np.ascontiguousarray(curnet.sssp_dists(g, ids, backend="cpu").T)


@settings(max_examples=80, deadline=None)
@given(weighted_cases(), st.sampled_from([np.float32, np.float64]), st.integers(1, 70), st.integers(0, 2**31))
def test_the_pairs_are_the_numpy_twins(case, dtype, k, seed):
    hg, dist = batch(case, dtype, k, seed)
    want = cpu_brandes._dag_entry_pairs(hg, np.where(np.isfinite(dist), 0, -1).astype(np.int32), dist)
    got = compiled_brandes.dag_entry_pairs(hg.out_ptr, hg.out_idx, hg.out_w, dist, tie_epsilon(dist.dtype))
    assert got[0].dtype == got[1].dtype == np.int64
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


@settings(max_examples=80, deadline=None)
@given(weighted_cases(), st.sampled_from([np.float32, np.float64]), st.integers(1, 70), st.integers(0, 2**31))
def test_the_levels_and_groups_are_the_numpy_twins(case, dtype, k, seed):
    hg, dist = batch(case, dtype, k, seed)
    with count_work() as numpy_work, dag_threshold(1 << 62):
        want_level, want = cpu_brandes.dag_levels(hg, dist)
    with count_work() as compiled_work, dag_threshold(0):
        got_level, got = cpu_brandes.dag_levels(hg, dist)
    np.testing.assert_array_equal(got_level, want_level)
    for a, b in zip(got, want):
        if isinstance(b, tuple):
            np.testing.assert_array_equal(a[0], b[0])
            np.testing.assert_array_equal(a[1], b[1])
        else:
            np.testing.assert_array_equal(a, b)
    assert compiled_work["betweenness level rounds"] == numpy_work["betweenness level rounds"]


def test_float32_sums_tie_within_float32_rounding():
    """0.1 + 0.2 and 0.3 tie only within float32's epsilon: both arcs into 2 are on the DAG."""
    g = curnet.Graph.from_edges([0, 1, 0], [1, 2, 2], [0.1, 0.2, 0.3], directed=True)
    hg = get_backend("cpu").device_graph(g)
    dist = np.ascontiguousarray(curnet.sssp_dists(g, [0], backend="cpu").T)
    tails, heads = compiled_brandes.dag_entry_pairs(hg.out_ptr, hg.out_idx, hg.out_w, dist, tie_epsilon(dist.dtype))
    assert sorted(zip(tails.tolist(), heads.tolist())) == [(0, 1), (0, 2), (1, 2)]


@settings(max_examples=40, deadline=None)
@given(weighted_cases(max_vertices=14))
def test_weighted_betweenness_through_the_compiled_pairs_matches_igraph(case):
    n, src, dst, w, directed = case
    g = curnet.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=np.float64)
    G = ig.Graph(n=n, edges=list(zip(src.tolist(), dst.tolist())), directed=directed)
    calls = []
    real = compiled_brandes.dag_entry_pairs
    with dag_threshold(0), mock.patch.object(compiled_brandes, "dag_entry_pairs",
                                             lambda *a: calls.append(1) or real(*a)):
        got = curnet.betweenness(g, weighted=True, backend="cpu")
        got_e = curnet.edge_betweenness(g, weighted=True, backend="cpu")
    assert calls or g.num_arcs == 0 or len(g) == 0
    np.testing.assert_allclose(got, G.betweenness(weights=w.tolist()), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(got_e, G.edge_betweenness(weights=w.tolist()), rtol=1e-9, atol=1e-9)
