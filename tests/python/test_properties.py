"""Randomised checking (issue 6): every algorithm against an oracle on random graphs,
directed or not, weighted or not, negative weights with and without negative cycles,
disconnected (the strategies draw isolated vertices and several components).

Four properties here, each run 150 times under the CI profile (600 graphs), on top of
test_algorithms.py's per-algorithm properties; the graphs come from strategies.py.
"""
import numpy as np
from hypothesis import event, given, strategies as st
from scipy.sparse import csgraph

import curnet

import oracles
from strategies import graphs, graphs_and_sources


def named(g):
    """The same graph with vertex names v0, v1, ... (arrays shared)."""
    names = np.array([f"v{i}" for i in range(len(g))])
    return curnet.Graph(g.indptr, g.indices, g.weights, directed=g.directed, names=names,
                        num_edges=g.num_edges)


def rebuilt(g, weights=None, perm=None):
    """g's arcs as a directed graph (an undirected edge is its two arcs), optionally with new
    weights and vertices renumbered by perm."""
    src, dst = g.edge_sources().astype(np.int64), g.indices.astype(np.int64)
    if perm is not None:
        src, dst = perm[src], perm[dst]
    w = g.weights if weights is None else weights
    return curnet.Graph.from_edges(src, dst, w, directed=True, num_vertices=len(g),
                                   dtype=np.float64 if w is None else w.dtype)


@given(graphs_and_sources(), st.booleans())
def test_every_algorithm_agrees_with_the_oracles_and_itself(gs, by_name):
    g, sources = gs
    if by_name:
        g = named(g)
        query = g.names[sources]
    else:
        query = sources
    depths = curnet.bfs(g, query, backend="cpu")
    np.testing.assert_array_equal(depths, oracles.bfs_depths(g, sources))
    dist, pred = curnet.sssp(g, query, backend="cpu")
    np.testing.assert_allclose(dist, oracles.sp_distances(g, sources), rtol=1e-6)
    oracles.check_predecessors(g, sources, dist, pred)
    np.testing.assert_array_equal(curnet.sssp_dists(g, query, backend="cpu"), dist)
    if not g.weighted:
        np.testing.assert_array_equal(np.where(depths < 0, np.inf, depths), dist)
    labels = curnet.scc(g, backend="cpu")
    assert oracles.same_partition(labels, oracles.scc_partition(g))
    # deterministic: the same call again gives the same depths, distances, predecessors, labels
    np.testing.assert_array_equal(curnet.bfs(g, query, backend="cpu"), depths)
    again = curnet.sssp(g, query, backend="cpu")
    np.testing.assert_array_equal(again[0], dist)
    np.testing.assert_array_equal(again[1], pred)
    np.testing.assert_array_equal(curnet.scc(g, backend="cpu"), labels)


@given(graphs(weighted=True, directed=True), st.integers(0, 12), st.data())
def test_negative_weights_with_or_without_negative_cycles(g, shift, data):
    """Weights lowered by shift/4: either distances match SciPy's, or NegativeCycleError
    names a source from which SciPy's Bellman-Ford also finds a negative cycle."""
    g = rebuilt(g, weights=g.weights - shift / 4)
    k = data.draw(st.integers(1, min(70, 3 * len(g))))
    sources = np.array(data.draw(st.lists(st.integers(0, len(g) - 1), min_size=k, max_size=k)))
    matrix = oracles.scipy_matrix(g)
    cyclic, expected = set(), {}
    for s in set(sources.tolist()):
        try:       # SciPy's rounds start from s alone: a cycle s does not reach is no error
            expected[s] = csgraph.bellman_ford(matrix, directed=True, indices=s)
        except csgraph.NegativeCycleError:
            cyclic.add(s)
    try:
        dist, pred = curnet.sssp(g, sources, backend="cpu")
    except curnet.NegativeCycleError as e:
        event("a negative cycle is reachable")
        assert e.source in cyclic, (e.source, cyclic)
        assert f"source {e.source}" in str(e)
        return
    assert not cyclic, f"sources {sorted(cyclic)} reach a negative cycle, but no error was raised"
    np.testing.assert_allclose(dist, [expected[s] for s in sources.tolist()], rtol=1e-6, atol=1e-9)
    oracles.check_predecessors(g, sources, dist, pred)


@given(graphs_and_sources(weighted=True, negative=True, dtype=np.float32))
def test_float32_weights(gs):
    g, sources = gs
    assert g.weights.dtype == np.float32
    dist, pred = curnet.sssp(g, sources, backend="cpu")
    assert dist.dtype == np.float32
    np.testing.assert_allclose(dist, oracles.sp_distances(g, sources), rtol=1e-5, atol=1e-4)
    oracles.check_predecessors(g, sources, dist, pred, rtol=1e-4, atol=1e-4)


@given(graphs_and_sources(negative=True), st.randoms(use_true_random=False))
def test_renumbering_the_vertices_renumbers_the_results(gs, rnd):
    g, sources = gs
    perm = np.array(rnd.sample(range(len(g)), len(g)))
    h = rebuilt(g, perm=perm)
    np.testing.assert_array_equal(curnet.bfs(h, perm[sources], backend="cpu")[:, perm],
                                  curnet.bfs(g, sources, backend="cpu"))
    dist_h, pred_h = curnet.sssp(h, perm[sources], backend="cpu")
    np.testing.assert_allclose(dist_h[:, perm], curnet.sssp_dists(g, sources, backend="cpu"), rtol=1e-6, atol=1e-9)
    oracles.check_predecessors(h, perm[sources], dist_h, pred_h)
    assert oracles.same_partition(curnet.scc(h, backend="cpu")[perm], curnet.scc(g, backend="cpu"))
