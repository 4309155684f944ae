"""Set proximity against NetworkX distances computed directly; the degree-preserving
reference sets (bins, no repeats, seeded) and their values recomputed with NetworkX."""
from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

import curnet
from curnet import Graph
from curnet.analyses.network_proximity import degree_bins, reference_sets


def nx_measures(G, T, S):
    """Guney et al.'s measures and Menche et al.'s separation from NetworkX distances."""
    def d(a, b):
        try:
            return nx.shortest_path_length(G, a, b)
        except nx.NetworkXNoPath:
            return math.inf
    closest = np.mean([min(d(s, t) for s in S) for t in T])
    shortest = np.mean([np.mean([d(s, t) for s in S]) for t in T])
    kernel = -np.mean([math.log(np.mean([math.exp(-(d(s, t) + 1)) for s in S])) for t in T])
    sums = [sum(d(u, s) for s in S) for u in S]
    c = S[int(np.argmin(sums))]
    centre = np.mean([d(c, t) for t in T])
    near = lambda X: np.mean([min([d(x, y) for y in X if y != x], default=math.inf) for x in X])
    d_ts = (sum(min(d(s, t) for s in S) for t in T) + sum(min(d(s, t) for t in T) for s in S)) / (len(S) + len(T))
    return {"closest": closest, "shortest": shortest, "kernel": kernel, "centre": centre,
            "separation": d_ts - (near(S) + near(T)) / 2}


def connected_random_graph(seed, n=60, p=0.08):
    G = nx.gnp_random_graph(n, p, seed=seed)
    G.add_edges_from((i, i + 1) for i in range(n - 1))        # connected: distances finite
    src, dst = np.array(list(G.edges())).T
    return G, Graph.from_edges(src, dst, directed=False, num_vertices=n)


@pytest.mark.parametrize("seed", range(4))
def test_observed_measures_match_networkx(seed):
    G, g = connected_random_graph(seed)
    rng = np.random.default_rng(seed)
    S = rng.choice(60, 8, replace=False).tolist()
    T = rng.choice(60, 5, replace=False).tolist()
    r = curnet.proximity(g, T, S, measures="all", n_random=0, backend="cpu")
    want = nx_measures(G, T, S)
    for m, v in want.items():
        assert r.distance[m] == pytest.approx(v, rel=1e-6), m
    assert math.isnan(r.z["closest"]) and r.n_set == 5 and r.n_module == 8


def test_directed_distances_run_from_the_module():
    g = Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)
    G = nx.DiGraph([(0, 1), (1, 2), (2, 3)])
    r = curnet.proximity(g, [3], [0, 1], measures=["closest", "shortest"], n_random=0, backend="cpu")
    assert r.distance["closest"] == nx.shortest_path_length(G, 1, 3) == 2
    assert r.distance["shortest"] == 2.5
    back = curnet.proximity(g, [0], [3], n_random=0, backend="cpu")
    assert back.distance["closest"] == math.inf


def test_degree_bins_follow_the_papers_rule():
    deg = np.array([1] * 5 + [2] * 3 + [3] * 4 + [7] * 1 + [9] * 2)
    b = degree_bins(deg, bin_size=4)
    # 1s fill a bin (5 >= 4); 2s and 3s make the next (7); 7 and 9 (3 < 4) join it
    assert b.tolist() == [0] * 5 + [1] * 3 + [1] * 4 + [1] + [1] * 2
    b = degree_bins(np.arange(10), bin_size=3)
    assert b.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]
    with pytest.raises(ValueError):
        degree_bins(deg, bin_size=0)


def test_reference_sets_keep_bins_and_never_repeat():
    rng = np.random.default_rng(1)
    deg = rng.integers(1, 30, 500)
    bins = degree_bins(deg, bin_size=40)
    members = rng.choice(500, 25, replace=False)
    refs = reference_sets(members, bins, 200, np.random.default_rng(7))
    assert refs.shape == (200, 25)
    assert (bins[refs] == bins[members][None]).all()
    assert all(len(set(row)) == 25 for row in refs.tolist())
    again = reference_sets(members, bins, 200, np.random.default_rng(7))
    np.testing.assert_array_equal(refs, again)
    assert len(np.unique(refs[:, 0])) > 5                  # really random


def test_reference_values_z_and_p_recomputed_with_networkx():
    G, g = connected_random_graph(3, n=80, p=0.05)
    S, T = [1, 5, 9, 30, 44, 60], [2, 71, 33]
    r = curnet.proximity(g, T, S, measures=["closest", "separation"], n_random=30, bin_size=10,
                         seed=5, backend="cpu")
    # the same draws: bins from the degrees, the module's sets first, then the set's
    bins = degree_bins(g.out_degree(), 10)
    rng = np.random.default_rng(5)
    ref_s = reference_sets(np.array(S), bins, 30, rng)
    ref_t = reference_sets(np.array(T), bins, 30, rng)
    for i in range(0, 30, 7):
        want = nx_measures(G, ref_t[i].tolist(), ref_s[i].tolist())
        assert r.reference["closest"][i] == pytest.approx(want["closest"])
        assert r.reference["separation"][i] == pytest.approx(want["separation"])
    ref = r.reference["closest"]
    assert r.z["closest"] == pytest.approx((r.distance["closest"] - ref.mean()) / ref.std())
    assert r.p_value["closest"] == pytest.approx((1 + (ref <= r.distance["closest"]).sum()) / 31)
    same = curnet.proximity(g, T, S, measures=["closest", "separation"], n_random=30, bin_size=10,
                            seed=5, backend="cpu")
    assert same.z == r.z


def test_many_sets_share_one_traversal_and_names():
    G, g = connected_random_graph(9)
    names = np.array([f"g{i}" for i in range(60)])
    src, dst = np.array(list(G.edges())).T
    gn = Graph.from_edges(names[src], names[dst], directed=False, names=names)
    sets = [["g1", "g2", "g3"], ["g10", "g40"], ["g59"]]
    out = curnet.proximity(gn, sets, ["g20", "g21", "g30"], n_random=50, bin_size=15, backend="cpu")
    assert len(out) == 3
    for s, r in zip(sets, out):
        single = curnet.proximity(gn, s, ["g20", "g21", "g30"], n_random=0, backend="cpu")
        assert r.distance["closest"] == single.distance["closest"]
        assert r.distance["closest"] == pytest.approx(
            nx_measures(G, [int(x[1:]) for x in s], [20, 21, 30])["closest"])
        assert np.isfinite(r.z["closest"]) and 0 < r.p_value["closest"] <= 1


def test_separation_of_a_single_vertex_is_nan():
    g = curnet.generators.path(6, directed=False)
    r = curnet.proximity(g, [0], [4, 5], measures=["closest", "separation"], n_random=0, backend="cpu")
    assert r.distance["closest"] == 4 and math.isnan(r.distance["separation"])


def test_bad_input():
    g = curnet.generators.path(5, directed=False)
    with pytest.raises(ValueError, match="measures"):
        curnet.proximity(g, [0], [1], measures=["nearest"], backend="cpu")
    with pytest.raises(ValueError, match="twice"):
        curnet.proximity(g, [0, 0], [1], backend="cpu")
    with pytest.raises(ValueError, match="n_random"):
        curnet.proximity(g, [0], [1], n_random=-1, backend="cpu")


@pytest.mark.network
def test_real_network_closest_matches_scipy():
    from curnet import datasets
    try:
        g = datasets.load("scnet", weights=None)
    except Exception as e:
        pytest.skip(f"scNET not available offline: {e}")
    import scipy.sparse as sp
    from scipy.sparse import csgraph
    rng = np.random.default_rng(2)
    S, T = rng.choice(len(g), 40, replace=False), rng.choice(len(g), 15, replace=False)
    r = curnet.proximity(g, T, S, measures=["closest", "shortest"], n_random=0, backend="cpu")
    a = sp.csr_matrix((np.ones(g.num_arcs), g.indices, g.indptr), shape=(len(g), len(g)))
    d = csgraph.shortest_path(a, unweighted=True, indices=S)[:, T]
    assert r.distance["closest"] == pytest.approx(d.min(axis=0).mean())
    assert r.distance["shortest"] == pytest.approx(d.mean())


@pytest.mark.gpu
def test_gpu_proximity_matches_cpu():
    g = curnet.generators.rmat(12, seed=4)
    rng = np.random.default_rng(0)
    sets = [rng.choice(len(g), 20, replace=False) for _ in range(3)]
    module = rng.choice(len(g), 60, replace=False)
    kw = dict(measures="all", n_random=200, bin_size=50, seed=1)
    for a, b in zip(curnet.proximity(g, sets, module, backend="cuda", **kw),
                    curnet.proximity(g, sets, module, backend="cpu", **kw)):
        for m in a.distance:
            np.testing.assert_allclose(a.distance[m], b.distance[m], rtol=1e-5)   # NaN == NaN here
            np.testing.assert_allclose(a.reference[m], b.reference[m], rtol=1e-5)


def test_a_dict_of_named_sets_and_no_numpy_warnings():
    """R's named list has a Python twin: a dict of sets gives a dict of results. Sets in
    different components give inf, without NumPy's divide-by-zero warning."""
    import warnings
    g = curnet.Graph.from_edges(["a", "b", "c", "x"], ["b", "c", "d", "y"], directed=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = curnet.proximity(g, {"near": ["a"], "far": ["x", "y"]}, ["c", "d"], measures="all",
                               n_random=5, bin_size=2, backend="cpu")
    assert list(got) == ["near", "far"]
    assert got["near"].distance["closest"] == 2.0
    assert got["far"].distance["kernel"] == np.inf and got["far"].distance["closest"] == np.inf
    one = curnet.proximity(g, ["a"], ["c", "d"], measures="all", n_random=5, bin_size=2, backend="cpu")
    assert got["near"].distance == pytest.approx(one.distance, nan_ok=True)
    assert got["near"].z == pytest.approx(one.z, nan_ok=True)
