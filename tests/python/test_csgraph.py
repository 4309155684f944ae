"""curnet.csgraph against scipy.sparse.csgraph on random graphs (hypothesis) and a real network.
(CuPy input on the GPU: tests/python/test_frontdoors_gpu.py.)"""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from scipy.sparse import csgraph as scipy_csgraph

from curnet import csgraph

NULL = -9999


@st.composite
def matrices(draw, *, negative=False, max_n=16):
    """(csgraph, directed): SciPy sparse (with explicit zeros and duplicates-free) or dense."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, 3 * n))
    rows = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=np.int64)
    cols = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=np.int64)
    w = np.array(draw(st.lists(st.integers(0, 12), min_size=m, max_size=m)), dtype=float) / 4
    directed = draw(st.booleans())
    if negative and directed:
        pot = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), dtype=float)
        w = w + pot[rows] - pot[cols] if m else w                # no negative cycle
    a = sp.coo_array((w, (rows, cols)), shape=(n, n)).tocsr()   # duplicates summed, as SciPy reads COO
    kind = draw(st.sampled_from(["csr", "csc", "lil", "dense", "matrix"]))
    if kind == "dense":
        a = a.toarray()                        # zeros now mean "no edge"
    elif kind == "matrix":
        a = sp.csr_matrix(a)
    else:
        a = a.asformat(kind)
    return a, directed


def check_predecessors(graph, directed, dist, pred, indices, unweighted=False):
    """Every predecessor is an arc u -> v (either way if undirected) with dist[u] + w == dist[v]."""
    arcs = sp.csr_array(graph) if sp.issparse(graph) else scipy_csgraph.csgraph_from_dense(graph)
    if unweighted:
        arcs = sp.csr_array((np.ones(arcs.nnz), arcs.indices, arcs.indptr), shape=arcs.shape)
    dense = scipy_csgraph.csgraph_to_dense(arcs, null_value=np.inf)
    if not directed:
        dense = np.minimum(dense, dense.T)
    for row, s in enumerate(indices):
        for v in range(dist.shape[1]):
            p = pred[row, v]
            if v == s or not np.isfinite(dist[row, v]):
                assert p == NULL
            else:
                assert p != NULL
                assert dist[row, p] + dense[p, v] == pytest.approx(dist[row, v])


@given(matrices(), st.sampled_from(["auto", "D", "BF", "J", "FW"]), st.booleans())
def test_shortest_path_matches_scipy(case, method, unweighted):
    a, directed = case
    want = scipy_csgraph.shortest_path(a, method=method, directed=directed, unweighted=unweighted)
    got = csgraph.shortest_path(a, method=method, directed=directed, unweighted=unweighted)
    np.testing.assert_allclose(got, want)
    assert got.dtype == np.float64 and got.shape == want.shape
    indices = [0, len(want) - 1, 0]
    dist, pred = csgraph.dijkstra(a, directed=directed, indices=indices, return_predecessors=True,
                                  unweighted=unweighted)
    np.testing.assert_allclose(dist, want[indices])
    assert pred.dtype == np.int32
    check_predecessors(a, directed, dist, pred, indices, unweighted)


@given(matrices(negative=True))
def test_negative_weights_and_cycles_match_scipy(case):
    a, directed = case
    for f, sf in [(csgraph.bellman_ford, scipy_csgraph.bellman_ford), (csgraph.johnson, scipy_csgraph.johnson)]:
        try:
            want = sf(a, directed=directed)
        except scipy_csgraph.NegativeCycleError:
            with pytest.raises(scipy_csgraph.NegativeCycleError):
                f(a, directed=directed)
            continue
        np.testing.assert_allclose(f(a, directed=directed), want)


@given(matrices(), st.floats(0, 3), st.integers(1, 4))
def test_dijkstra_limit_and_min_only(case, limit, k):
    a, directed = case
    n = a.shape[0]
    idx = np.arange(min(k, n))
    np.testing.assert_allclose(csgraph.dijkstra(a, directed=directed, indices=idx, limit=limit),
                               scipy_csgraph.dijkstra(a, directed=directed, indices=idx, limit=limit))
    d, pred, src = csgraph.dijkstra(a, directed=directed, indices=idx, min_only=True, return_predecessors=True)
    want = scipy_csgraph.dijkstra(a, directed=directed, indices=idx, min_only=True)
    np.testing.assert_allclose(d, want)
    for v in range(n):                                     # each vertex's chain ends at its source
        if np.isinf(d[v]):
            assert src[v] == NULL and pred[v] == NULL
            continue
        assert src[v] in idx
        u = v
        while pred[u] != NULL:
            u = pred[u]
        assert u == src[v]


@given(matrices(), st.booleans())
def test_traversal_and_components_match_scipy(case, strong):
    a, directed = case
    order, pred = csgraph.breadth_first_order(a, 0, directed=directed)
    want_order, want_pred = scipy_csgraph.breadth_first_order(a, 0, directed=directed)
    np.testing.assert_array_equal(order, want_order)        # FIFO order and first parent: exact
    np.testing.assert_array_equal(pred, want_pred)
    tree = csgraph.breadth_first_tree(a, 0, directed=directed)
    want_tree = scipy_csgraph.breadth_first_tree(a, 0, directed=directed)
    np.testing.assert_allclose(tree.toarray(), want_tree.toarray())
    assert type(tree) is type(want_tree)
    connection = "strong" if strong else "weak"
    count, labels = csgraph.connected_components(a, directed=directed, connection=connection)
    want_count, want_labels = scipy_csgraph.connected_components(a, directed=directed, connection=connection)
    assert count == want_count
    pairs = set(zip(labels.tolist(), want_labels.tolist()))      # the same partition
    assert len(pairs) == count
    assert labels.dtype == np.int32


def test_errors_and_shapes_as_scipy():
    g = np.array([[0, 1, 0], [0, 0, 2], [3, 0, 0]], dtype=float)
    with pytest.raises(ValueError, match="unrecognized method"):
        csgraph.shortest_path(g, method="X")
    with pytest.raises(ValueError, match="indices out of range"):
        csgraph.dijkstra(g, indices=[3])
    with pytest.raises(ValueError, match="Cannot specify indices"):
        csgraph.shortest_path(g, method="FW", indices=[0])
    with pytest.raises(ValueError, match="limit must be >= 0"):
        csgraph.dijkstra(g, limit=-1)
    with pytest.raises(ValueError, match="connection must be"):
        csgraph.connected_components(g, connection="both")
    assert csgraph.dijkstra(g, indices=1).shape == (3,)
    assert csgraph.dijkstra(g, indices=[[0, 1], [2, 0]]).shape == (2, 2, 3)
    neg = g.copy()
    neg[2, 0] = -4                                          # cycle 0 -> 1 -> 2 -> 0 of weight -1
    for f in (csgraph.bellman_ford, csgraph.johnson, csgraph.dijkstra):
        with pytest.raises(scipy_csgraph.NegativeCycleError):
            f(neg)
    # undirected negative edge: a negative cycle for Johnson even from a vertex that never reaches it
    lonely = np.zeros((3, 3))
    lonely[1, 2] = -1
    with pytest.raises(scipy_csgraph.NegativeCycleError):
        csgraph.johnson(lonely, directed=False, indices=[0])
    np.testing.assert_array_equal(csgraph.bellman_ford(lonely, directed=False, indices=[0]), [[0, np.inf, np.inf]])


@pytest.mark.network
def test_scnet_against_scipy():
    from curnet import datasets
    e = datasets.load_edges("scnet")
    n = len(e["names"])
    a = sp.csr_array((1.0 - e["score"], (e["src"], e["dst"])), shape=(n, n))
    idx = np.random.default_rng(1).choice(n, 16, replace=False)
    np.testing.assert_allclose(csgraph.shortest_path(a, directed=False, indices=idx),
                               scipy_csgraph.shortest_path(a, directed=False, indices=idx))
    np.testing.assert_array_equal(csgraph.shortest_path(a, directed=False, indices=idx, unweighted=True),
                                  scipy_csgraph.shortest_path(a, directed=False, indices=idx, unweighted=True))
    assert csgraph.connected_components(a, directed=False)[0] == scipy_csgraph.connected_components(a, directed=False)[0]
