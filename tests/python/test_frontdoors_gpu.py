"""The two front doors on the GPU: curnet.csgraph with CuPy input (results stay CuPy arrays)
and the NetworkX backend with the engine on CUDA, against SciPy and NetworkX.

gpu-marked and without hypothesis (a GPU machine may lack it): seeded random graphs.
Run: python -m pytest tests/python/test_frontdoors_gpu.py -m gpu
"""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scipy_csgraph

from curnet import csgraph
from curnet.backends import cuda_available

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]

SEEDS = range(12)


def random_matrix(seed: int, *, negative: bool, directed: bool):
    """A random weighted graph as SciPy CSR (negative weights by potentials: no negative cycle)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    m = int(rng.integers(0, 4 * n))
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 40, m) / 4
    if negative and directed:
        pot = rng.integers(0, 8, n)
        w = w + pot[rows] - pot[cols]
    return sp.csr_array((w, (rows, cols)), shape=(n, n))


@pytest.mark.parametrize("seed", SEEDS)
def test_csgraph_cupy_input_on_the_gpu(seed):
    import cupy
    import cupyx.scipy.sparse as csp
    directed = bool(seed % 2)
    a = random_matrix(seed, negative=True, directed=directed)
    for device_input in (csp.csr_matrix(sp.csr_matrix(a)), cupy.asarray(a.toarray())):
        # the same graph SciPy reads: sparse (explicit zeros are edges) or dense (zeros are not);
        # scipy.sparse.issparse says False for a cupyx matrix, so ask cupyx
        host = a if csp.issparse(device_input) else a.toarray()
        idx = [0, a.shape[0] - 1]
        want = scipy_csgraph.bellman_ford(host, directed=directed, indices=idx)
        got, pred = csgraph.bellman_ford(device_input, directed=directed, indices=idx,
                                         return_predecessors=True, backend="cuda")
        assert isinstance(got, cupy.ndarray) and isinstance(pred, cupy.ndarray)
        np.testing.assert_allclose(got.get(), want)
        np.testing.assert_allclose(csgraph.shortest_path(device_input, directed=directed, unweighted=True,
                                                         backend="cuda").get(),
                                   scipy_csgraph.shortest_path(host, directed=directed, unweighted=True))
        if (a.data >= 0).all():
            d = csgraph.dijkstra(device_input, directed=directed, indices=idx, min_only=True, backend="cuda")
            np.testing.assert_allclose(d.get(), scipy_csgraph.dijkstra(host, directed=directed, indices=idx,
                                                                       min_only=True))
        order = csgraph.breadth_first_order(device_input, 0, directed=directed, return_predecessors=False)
        assert isinstance(order, cupy.ndarray)
        np.testing.assert_array_equal(order.get(), scipy_csgraph.breadth_first_order(host, 0, directed, False))
        count, labels = csgraph.connected_components(device_input, directed=directed, connection="strong",
                                                     backend="cuda")
        want_count, want_labels = scipy_csgraph.connected_components(host, directed=directed, connection="strong")
        assert isinstance(labels, cupy.ndarray) and count == want_count
        assert len(set(zip(labels.get().tolist(), want_labels.tolist()))) == count   # same partition


def test_csgraph_negative_cycle_on_the_gpu():
    import cupy
    g = np.array([[0, 1, 0], [0, 0, 2], [-4, 0, 0]], dtype=float)        # cycle of weight -1
    for f in (csgraph.bellman_ford, csgraph.johnson):
        with pytest.raises(scipy_csgraph.NegativeCycleError):
            f(cupy.asarray(g), backend="cuda")


@pytest.fixture
def nx_on_cuda(monkeypatch):
    nx = pytest.importorskip("networkx")
    from curnet.nx import algorithms
    monkeypatch.setattr(algorithms, "settings", lambda: nx.utils.Config(backend="cuda", min_nodes=0))
    return nx


@pytest.mark.parametrize("seed", SEEDS)
def test_networkx_functions_on_the_gpu(nx_on_cuda, seed):
    nx = nx_on_cuda
    from curnet.nx import algorithms as A
    from curnet.nx.graph import from_networkx
    directed = bool(seed % 2)
    a = random_matrix(seed, negative=True, directed=directed).tocoo()
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(f"v{i}" for i in range(a.shape[0]))
    G.add_weighted_edges_from((f"v{u}", f"v{v}", float(w)) for u, v, w in zip(a.row, a.col, a.data))
    cw, cu = from_networkx(G, "weight"), from_networkx(G)
    assert dict(A.all_pairs_shortest_path_length(cu)) == dict(nx.all_pairs_shortest_path_length(G))
    try:
        want = dict(nx.all_pairs_bellman_ford_path_length(G))
    except nx.NetworkXUnbounded:
        with pytest.raises(nx.NetworkXUnbounded):
            dict(A.all_pairs_bellman_ford_path_length(cw))
    else:
        got = dict(A.all_pairs_bellman_ford_path_length(cw))
        assert got.keys() == want.keys()
        for s in want:
            assert got[s] == pytest.approx(want[s])
    assert A.negative_edge_cycle(cw) == nx.negative_edge_cycle(G)
    assert A.closeness_centrality(cu) == pytest.approx(nx.closeness_centrality(G))
    if directed:
        assert sorted(map(sorted, A.strongly_connected_components(cu))) == \
            sorted(map(sorted, nx.strongly_connected_components(G)))
