"""The distance measures (curnet.analyses.measures) against python-igraph and NetworkX, on random
graphs and a real network; the reductions' memory bound. The CUDA backend against the CPU:
test_measures_gpu.py."""
import tracemalloc

import networkx as nx
import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

import curnet

import oracles
from strategies import graphs

ig = pytest.importorskip("igraph")


def positive(g):
    """The same graph with every weight raised by 0.25: igraph refuses no zero weight, but
    harmonic centrality divides by path lengths, and zero-length paths make that moot."""
    if not g.weighted:
        return g
    src, dst, w = oracles.edge_arrays(g)
    if not g.directed:
        keep = src <= dst                     # each stored pair of arcs once (loops twice: harmless)
        src, dst, w = src[keep], dst[keep], w[keep]
    return curnet.Graph.from_edges(src, dst, w + 0.25, directed=g.directed, num_vertices=len(g),
                                   dtype=np.float64)


def to_igraph(g):
    """g as an igraph Graph (each undirected edge once) and its weights (None if unweighted)."""
    src, dst, w = oracles.edge_arrays(g)
    if not g.directed:
        keep = src < dst
        src, dst, w = src[keep], dst[keep], w[keep]
    G = ig.Graph(n=len(g), edges=np.c_[src, dst].tolist(), directed=g.directed)
    return G, (w.tolist() if g.weighted else None)


def to_networkx(g):
    G = nx.DiGraph() if g.directed else nx.Graph()
    G.add_nodes_from(range(len(g)))
    for (u, v), w in oracles.cheapest_arcs(g).items():
        G.add_edge(u, v, weight=w)
    return G


def same(got, expected):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(expected, float), rtol=1e-9,
                               atol=1e-12, equal_nan=True)


modes = st.sampled_from(["out", "in", "all"])
cutoffs = st.one_of(st.none(), st.sampled_from([-1, 0, 1, 2, 2.5, 4]))


@given(graphs(max_vertices=16), modes, cutoffs, st.booleans())
def test_closeness_and_harmonic_match_igraph(g, mode, cutoff, normalized):
    g = positive(g)
    G, w = to_igraph(g)
    same(curnet.closeness(g, mode=mode, cutoff=cutoff, normalized=normalized, backend="cpu"),
         G.closeness(mode=mode, cutoff=cutoff, weights=w, normalized=normalized))
    same(curnet.harmonic_centrality(g, mode=mode, cutoff=cutoff, normalized=normalized, backend="cpu"),
         G.harmonic_centrality(mode=mode, cutoff=cutoff, weights=w, normalized=normalized))
    same(curnet.closeness(g, mode=mode, cutoff=cutoff, weighted=False, backend="cpu"),
         G.closeness(mode=mode, cutoff=cutoff))


@given(graphs(max_vertices=16), modes)
def test_eccentricity_and_radius_match_igraph(g, mode):
    g = positive(g)
    G, w = to_igraph(g)
    same(curnet.eccentricity(g, mode=mode, backend="cpu"), G.eccentricity(mode=mode, weights=w))
    same(curnet.radius(g, mode=mode, backend="cpu"), G.radius(mode=mode, weights=w))
    some = np.arange(len(g))[::2]
    same(curnet.eccentricity(g, some, mode=mode, weighted=False, backend="cpu"),
         G.eccentricity(some.tolist(), mode=mode))


@given(graphs(max_vertices=16), st.booleans(), st.booleans())
def test_diameter_and_mean_distance_match_igraph(g, directed, unconnected):
    g = positive(g)
    G, w = to_igraph(g)
    u, v, d = curnet.farthest_points(g, directed=directed, unconnected=unconnected, backend="cpu")
    eu, ev, ed = G.farthest_points(directed=directed, unconn=unconnected, weights=w)
    same(d, ed)
    same(curnet.diameter(g, directed=directed, unconnected=unconnected, backend="cpu"),
         G.diameter(directed=directed, unconn=unconnected, weights=w))
    if eu is None:
        assert (u, v) == (None, None)
    else:   # the pair may differ from igraph's among ties, but must be at distance d
        dist = G.distances(source=[u], target=[v], weights=w,
                           mode="out" if directed else "all")[0][0]
        same(dist, d)
    same(curnet.mean_distance(g, directed=directed, unconnected=unconnected, backend="cpu"),
         G.average_path_length(directed=directed, unconn=unconnected, weights=w))


@given(graphs(max_vertices=18, weighted=False), st.booleans())
def test_distance_table_matches_igraph(g, directed):
    G, _ = to_igraph(g)
    hist = G.path_length_hist(directed=directed)
    counts, unconnected = curnet.distance_table(g, directed=directed, backend="cpu")
    assert counts.tolist() == [c for _, _, c in hist.bins()]
    assert unconnected == hist.unconnected


@given(graphs(max_vertices=18), modes, st.integers(0, 4), st.integers(0, 3))
def test_ego_size_matches_igraph(g, mode, order, mindist):
    assume(mindist <= order)
    G, _ = to_igraph(g)
    got = curnet.ego_size(g, order=order, mode=mode, mindist=mindist, backend="cpu")
    assert got.tolist() == G.neighborhood_size(order=order, mode=mode, mindist=mindist)


@given(graphs(max_vertices=14))
def test_against_networkx(g):
    """Independent definitions: closeness on the reached vertices (igraph's, i.e. networkx's
    without the Wasserman-Faust factor), harmonic, eccentricity per component."""
    g = positive(g)
    G = to_networkx(g)
    weight = "weight" if g.weighted else None
    n = len(g)
    lengths = dict(nx.all_pairs_dijkstra_path_length(G, weight=weight)) if weight else \
        dict(nx.all_pairs_shortest_path_length(G))
    reached = [{t: d for t, d in lengths[s].items() if t != s} for s in range(n)]
    closeness = [len(r) / sum(r.values()) if r else np.nan for r in reached]
    same(curnet.closeness(g, mode="out", backend="cpu"), closeness)
    harmonic = nx.harmonic_centrality(G.reverse() if g.directed else G, distance=weight)
    same(curnet.harmonic_centrality(g, mode="out", normalized=False, backend="cpu"),
         [harmonic[v] for v in range(n)])
    same(curnet.eccentricity(g, mode="out", backend="cpu"),
         [max(lengths[s].values()) for s in range(n)])


def test_blocks_reduced_in_column_chunks(monkeypatch):
    """A block larger than CHUNK_ENTRIES is reduced a few columns at a time: same answers."""
    from curnet.algorithms import reductions
    g = _random_graph(300, 500, seed=4)
    G, _ = to_igraph(g)
    monkeypatch.setattr(reductions, "CHUNK_ENTRIES", 7 * 300 + 5)     # 7 columns a chunk
    same(curnet.closeness(g, backend="cpu"), G.closeness())
    same(curnet.eccentricity(g, backend="cpu"), G.eccentricity())
    same(curnet.harmonic_centrality(g, cutoff=3, backend="cpu"), G.harmonic_centrality(cutoff=3))
    counts, unconnected = curnet.distance_table(g, backend="cpu")
    hist = G.path_length_hist()
    assert counts.tolist() == [c for _, _, c in hist.bins()] and unconnected == hist.unconnected


def test_small_cases_and_bad_input():
    path = curnet.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, num_vertices=6)
    assert curnet.mean_distance(path, unconnected=False, backend="cpu") == np.inf
    assert curnet.mean_distance(path, details=True, backend="cpu") == (1.25, 22)
    assert curnet.farthest_points(path, unconnected=False, backend="cpu")[:2] == (None, None)
    empty = curnet.Graph.from_edges([], [], num_vertices=0)
    assert curnet.closeness(empty).shape == (0,)
    assert np.isnan(curnet.radius(empty)) and np.isnan(curnet.diameter(empty))
    assert curnet.distance_table(empty)[0].tolist() == []
    with pytest.raises(ValueError, match="mode must be"):
        curnet.closeness(path, mode="both")
    with pytest.raises(ValueError, match="out of range"):
        curnet.eccentricity(path, [7])
    with pytest.raises(ValueError, match="mindist <= order"):
        curnet.ego_size(path, order=1, mindist=2)
    with pytest.raises(ValueError, match="no weights"):
        curnet.closeness(path, weighted=True)


def test_names_and_vertices():
    g = curnet.Graph.from_edges(["a", "b", "c"], ["b", "c", "d"])
    same(curnet.eccentricity(g, ["c", "a"], backend="cpu"), [1, 3])
    same(curnet.eccentricity(g, ["a"], mode="in", backend="cpu"), [0])
    same(curnet.closeness(g, ["d"], mode="in", normalized=False, backend="cpu"), [1 / 6])


@pytest.mark.slow
def test_all_sources_never_hold_the_matrix():
    """All-vertex closeness and distance table on a graph whose k x n depth matrix (1.6 GB of
    int32) is far larger than the peak of NumPy allocations allowed here (a quarter of it):
    the sinks keep O(batch x n) on the device (here the host) and O(n) of results."""
    n = 20_000
    g = _random_graph(n, 2 * n)
    matrix_bytes = n * n * 4
    tracemalloc.start()
    try:
        closeness = curnet.closeness(g, normalized=False, backend="cpu")
        counts, unconnected = curnet.distance_table(g, backend="cpu")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < matrix_bytes / 4, f"peak {peak / 2**20:.0f} MiB"
    sample = np.arange(0, n, 1999)
    depths = oracles.bfs_depths(g, sample)
    total = np.where(depths > 0, depths, 0).sum(axis=1)
    same(closeness[sample], np.where(total > 0, 1 / np.maximum(total, 1), np.nan))
    assert counts.sum() + unconnected == n * (n - 1) // 2


def _random_graph(n, m, seed=1):
    rng = np.random.default_rng(seed)
    return curnet.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), directed=False,
                                   num_vertices=n)


@pytest.mark.network
def test_scnet_against_igraph():
    from curnet import datasets
    g = datasets.load("scnet", weights="distance", dtype=np.float64)
    G, w = to_igraph(g)
    vs = np.random.default_rng(5).choice(len(g), 60, replace=False)
    same(curnet.closeness(g, vs, backend="cpu"), G.closeness(vs.tolist(), weights=w))
    same(curnet.closeness(g, vs, weighted=False, cutoff=2, backend="cpu"),
         G.closeness(vs.tolist(), cutoff=2))
    same(curnet.harmonic_centrality(g, vs, backend="cpu"), G.harmonic_centrality(vs.tolist(), weights=w))
    same(curnet.eccentricity(g, vs, weighted=False, backend="cpu"), G.eccentricity(vs.tolist()))
    assert curnet.ego_size(g, vs, order=2, backend="cpu").tolist() == \
        G.neighborhood_size(vs.tolist(), order=2)


@pytest.mark.network
@pytest.mark.slow
def test_mouseliver_whole_graph_measures_against_igraph():
    """All-pairs measures over the whole real network (25,796 vertices, every source)."""
    from curnet import datasets
    g = datasets.load("mouseliver", weights=None)
    G, _ = to_igraph(g)
    counts, unconnected = curnet.distance_table(g, backend="cpu")
    hist = G.path_length_hist(directed=True)
    assert counts.tolist() == [c for _, _, c in hist.bins()] and unconnected == hist.unconnected
    same(curnet.diameter(g, backend="cpu"), G.diameter())
    same(curnet.mean_distance(g, backend="cpu"), G.average_path_length())


@pytest.mark.parametrize("directed", [True, False])
def test_negative_weights_are_refused_as_igraph_refuses_them(directed):
    """igraph: "Weight vector must be positive" (closeness) / "non-negative" (distances).
    `directed=False` ignores directions, where the negative edge would be a negative cycle."""
    g = curnet.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, -1.0, 1.0], directed=True)
    calls = [lambda: curnet.analyses.measures.closeness(g, backend="cpu"), lambda: curnet.analyses.measures.closeness(g, mode="out", backend="cpu"),
             lambda: curnet.analyses.measures.harmonic_centrality(g, backend="cpu"), lambda: curnet.analyses.measures.eccentricity(g, backend="cpu"),
             lambda: curnet.analyses.measures.radius(g, backend="cpu"), lambda: curnet.analyses.measures.diameter(g, directed=directed, backend="cpu"),
             lambda: curnet.analyses.measures.farthest_points(g, directed=directed, backend="cpu"),
             lambda: curnet.analyses.measures.mean_distance(g, directed=directed, backend="cpu")]
    for call in calls:
        with pytest.raises(ValueError, match="non-negative weights.*smallest weight here is -1"):
            call()
    assert curnet.analyses.measures.mean_distance(g, weighted=False, directed=directed, backend="cpu") > 0
