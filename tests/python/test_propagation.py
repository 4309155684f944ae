"""curnet.pagerank / rwr / diffuse / diffusion_kernel / propagation_null on the CPU, against
python-igraph's PRPACK and NetworkX's pagerank, dense closed forms (np.linalg.solve,
scipy.linalg.expm) and diffuStats' published score definitions computed densely here."""
from __future__ import annotations

import warnings

import igraph as ig
import networkx as nx
import numpy as np
import pytest
import scipy.linalg as sl
from scipy import sparse

import curnet
from curnet.propagation import ConvergenceWarning

CPU = {"backend": "cpu"}


def random_graph(seed, n=30, m=80, *, directed=True, weighted=True, loops=False, isolated=0):
    """A seeded random multigraph on n vertices (the last `isolated` of them without edges)."""
    rng = np.random.default_rng(seed)
    e = rng.integers(0, n - isolated, (m, 2))
    if not loops:
        e = e[e[:, 0] != e[:, 1]]
    w = rng.uniform(0.1, 2.0, len(e)) if weighted else None
    g = curnet.Graph.from_edges(e[:, 0], e[:, 1], w, directed=directed, num_vertices=n, dtype=np.float64)
    return g, e, w


def dense_adjacency(n, e, w, directed):
    a = np.zeros((n, n))
    w = np.ones(len(e)) if w is None else w
    np.add.at(a, (e[:, 0], e[:, 1]), w)
    if not directed:
        np.add.at(a, (e[:, 1], e[:, 0]), w)
    return a


def igraph_of(n, e, w, directed):
    h = ig.Graph(n=n, edges=e.tolist(), directed=directed)
    if w is not None:
        h.es["weight"] = w.tolist()
    return h


# -- PageRank --------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
def test_pagerank_matches_igraph_prpack(seed, directed, weighted):
    # a third of the vertices without out-arcs on the directed graphs: dangling vertices
    g, e, w = random_graph(seed, directed=directed, weighted=weighted, loops=True, isolated=3)
    h = igraph_of(30, e, w, directed)
    wa = "weight" if weighted else None
    np.testing.assert_allclose(curnet.pagerank(g, **CPU), h.pagerank(weights=wa), rtol=0, atol=1e-10)
    rng = np.random.default_rng(seed + 10)
    p = rng.random((30, 4))
    p[:, 1][p[:, 1] < 0.8] = 0           # a sparse personalization
    p[:, 2] = 0
    p[5, 2] = 1.0                        # one seed
    got = curnet.pagerank(g, p, **CPU)
    assert got.shape == (30, 4)
    for j in range(4):
        want = h.personalized_pagerank(reset=p[:, j].tolist(), weights=wa)
        np.testing.assert_allclose(got[:, j], want, rtol=0, atol=1e-10)
    # damping, and directed=False on a directed graph (igraph's directed=FALSE)
    np.testing.assert_allclose(curnet.pagerank(g, p[:, 0], damping=0.6, directed=False, **CPU),
                               h.personalized_pagerank(reset=p[:, 0].tolist(), weights=wa,
                                                       damping=0.6, directed=False),
                               rtol=0, atol=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_pagerank_matches_networkx(seed):
    g, e, w = random_graph(seed, n=25, m=60, isolated=4)
    G = nx.DiGraph()
    G.add_nodes_from(range(25))
    for (a, b), x in zip(e.tolist(), w):
        if G.has_edge(a, b):
            G[a][b]["weight"] += x
        else:
            G.add_edge(a, b, weight=x)
    ref = nx.pagerank(G, tol=1e-15, max_iter=10_000)
    np.testing.assert_allclose(curnet.pagerank(g, **CPU), [ref[v] for v in range(25)], atol=1e-10)
    pers = {v: float(v % 3 == 0) for v in range(25)}
    ref = nx.pagerank(G, personalization=pers, tol=1e-15, max_iter=10_000)
    got = curnet.pagerank(g, np.array([pers[v] for v in range(25)]), **CPU)
    np.testing.assert_allclose(got, [ref[v] for v in range(25)], atol=1e-10)


def test_pagerank_sparse_input_and_batches_equal_one_at_a_time():
    g, e, w = random_graph(7, n=40, m=120)
    rng = np.random.default_rng(3)
    p = sparse.random(40, 9, density=0.2, random_state=4, format="csc")
    p = p + sparse.csc_matrix(([1.0] * 9, (rng.integers(0, 40, 9), np.arange(9))), shape=(40, 9))
    together = curnet.pagerank(g, p, **CPU)
    small_batches = curnet.pagerank(g, p, batch=2, **CPU)
    for j in range(9):
        alone = curnet.pagerank(g, p[:, j].toarray().ravel(), **CPU)
        np.testing.assert_allclose(together[:, j], alone, rtol=0, atol=1e-14)
        np.testing.assert_allclose(small_batches[:, j], alone, rtol=0, atol=1e-14)
    np.testing.assert_allclose(together.sum(axis=0), 1.0, atol=1e-12)


def test_pagerank_bad_input():
    g, e, w = random_graph(1)
    with pytest.raises(ValueError, match="all zeros"):
        curnet.pagerank(g, np.zeros(30), **CPU)
    with pytest.raises(ValueError, match="missing or non-finite"):
        curnet.pagerank(g, np.r_[np.nan, np.ones(29)], **CPU)
    with pytest.raises(ValueError, match="negative"):
        curnet.pagerank(g, np.r_[-1.0, np.ones(29)], **CPU)
    with pytest.raises(ValueError, match="29 rows"):
        curnet.pagerank(g, np.ones(29), **CPU)
    with pytest.raises(ValueError, match="damping"):
        curnet.pagerank(g, damping=1.0, **CPU)
    neg = curnet.Graph.from_edges([0, 1], [1, 2], [1.0, -2.0], directed=True)
    with pytest.raises(ValueError, match="negative edge weight"):
        curnet.pagerank(neg, **CPU)
    curnet.pagerank(neg, weighted=False, **CPU)          # hops only: fine
    with pytest.raises(ValueError, match="no weights"):
        curnet.pagerank(neg.without_weights(), weighted=True, **CPU)
    with pytest.warns(ConvergenceWarning, match="did not reach"):
        curnet.pagerank(g, max_iter=3, **CPU)


# -- random walk with restart -----------------------------------------------------------------

def walk_matrix(a):
    out = a.sum(axis=1)
    return (a / np.where(out > 0, out, 1)[:, None]).T        # W[i, j]: the chance of j -> i


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("directed", [True, False])
def test_rwr_matches_closed_form(seed, directed):
    n = 30
    g, e, w = random_graph(seed, n=n, directed=directed, isolated=2)
    a = dense_adjacency(n, e, w, directed)
    r = 0.3
    W = walk_matrix(a)
    s = np.zeros(n)
    s[[0, 4, 9]] = 1 / 3
    want = np.linalg.solve(np.eye(n) - (1 - r) * W, r * s)
    np.testing.assert_allclose(curnet.rwr(g, np.array([0, 4, 9]), **CPU), want, atol=1e-8)
    # a matrix of start vectors, restart given as NetColoc's alpha
    S = np.random.default_rng(seed).random((n, 5))
    want = np.linalg.solve(np.eye(n) - 0.5 * W, 0.5 * S)
    np.testing.assert_allclose(curnet.rwr(g, S, alpha=0.5, **CPU), want, atol=1e-8)
    if not directed:
        d = a.sum(axis=1)
        h = np.where(d > 0, 1 / np.sqrt(np.where(d > 0, d, 1)), 0)
        sym = h[:, None] * a * h[None, :]
        want = np.linalg.solve(np.eye(n) - 0.7 * sym, 0.3 * S)
        np.testing.assert_allclose(curnet.rwr(g, S, normalize="symmetric", **CPU), want, atol=1e-8)


def test_rwr_seed_names_sets_and_errors():
    g = curnet.Graph.from_edges(["a", "b", "c", "d"], ["b", "c", "a", "e"], directed=False)
    one = curnet.rwr(g, ["a", "c"], **CPU)
    assert one.shape == (5,)
    both = curnet.rwr(g, [["a", "c"], ["d"]], **CPU)
    assert both.shape == (5, 2)
    np.testing.assert_allclose(both[:, 0], one, atol=1e-15)
    # the second component ({d, e}) gets nothing from seeds in the first: disconnected graphs
    assert one[g.name_index()["d"]] == 0 and one[g.name_index()["e"]] == 0
    with pytest.raises(ValueError, match="not in the graph: 'zz'"):
        curnet.rwr(g, ["a", "zz"], **CPU)
    with pytest.raises(ValueError, match="restart"):
        curnet.rwr(g, ["a"], restart=0, **CPU)
    with pytest.raises(ValueError, match="not both"):
        curnet.rwr(g, ["a"], restart=0.2, alpha=0.8, **CPU)
    with pytest.raises(ValueError, match="undirected"):
        curnet.rwr(curnet.generators.path(5), np.ones(5), normalize="symmetric", **CPU)


# -- diffusion kernels and diffuStats' scores -------------------------------------------------

def laplacian(a, normalized):
    d = a.sum(axis=1)
    if not normalized:
        return np.diag(d) - a
    h = np.where(d > 0, 1 / np.sqrt(np.where(d > 0, d, 1)), 0)
    return np.diag((d > 0).astype(float)) - h[:, None] * a * h[None, :]


def dense_kernels(a, sigma2=1.0, add_diag=1.0, restart=0.3):
    n = len(a)
    return {"regularized_laplacian": np.linalg.inv(add_diag * np.eye(n) + sigma2 * laplacian(a, False)),
            "diffusion": sl.expm(-sigma2 / 2 * laplacian(a, True)),
            "pagerank": restart * np.linalg.inv(np.eye(n) - (1 - restart) * walk_matrix(a))}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [True, False])
def test_kernels_dense_and_products(seed, weighted):
    n = 28
    g, e, w = random_graph(seed, n=n, m=70, directed=False, weighted=weighted, isolated=2)
    a = dense_adjacency(n, e, w, False)
    y = (np.random.default_rng(seed).random((n, 3)) < 0.3).astype(float)
    y[0] = 1.0
    for kind, K in dense_kernels(a, sigma2=1.5, add_diag=0.5, restart=0.4).items():
        params = {"restart": 0.4} if kind == "pagerank" else {"sigma2": 1.5}
        if kind == "regularized_laplacian":
            params["add_diag"] = 0.5
        np.testing.assert_allclose(curnet.diffusion_kernel(g, kind, **params, **CPU), K, atol=1e-10)
        np.testing.assert_allclose(curnet.diffuse(g, y, kernel=kind, **params, **CPU), K @ y, atol=1e-8)
    # the other normalizations
    np.testing.assert_allclose(curnet.diffuse(g, y, kernel="diffusion", normalized=False, **CPU),
                               sl.expm(-laplacian(a, False) / 2) @ y, atol=1e-8)
    np.testing.assert_allclose(curnet.diffuse(g, y, normalized=True, **CPU),
                               np.linalg.inv(np.eye(n) + laplacian(a, True)) @ y, atol=1e-8)


def diffustats_scores(K, y, labelled, method, eps=1.0):
    """diffuStats' definitions (its diffuse / diffuse_raw), densely."""
    n = len(K)
    B = np.flatnonzero(labelled)
    yb = y[B]
    if method == "raw":
        return K[:, B] @ yb
    if method in ("ml", "gm"):
        full = np.zeros_like(y)
        full[B] = np.where(yb == 1, 1.0, -1.0)
        if method == "gm":
            n_pos = yb.sum(axis=0)
            full[~labelled] = (n_pos - (len(B) - n_pos)) / n
        return K @ full
    if method == "ber_s":
        return (K[:, B] @ yb) / (y + eps)
    if method == "z":
        nb = len(B)
        r1 = K[:, B].sum(axis=1)
        r2 = (K[:, B] ** 2).sum(axis=1)
        s1, s2 = yb.sum(axis=0), (yb ** 2).sum(axis=0)
        mean = np.outer(r1 / nb, s1)
        var = np.outer((nb * r2 - r1 ** 2) / ((nb - 1) * nb ** 2), nb * s2 - s1 ** 2)
        return (K[:, B] @ yb - mean) / np.sqrt(var)
    raise AssertionError(method)


@pytest.mark.parametrize("method", ["raw", "ml", "gm", "ber_s", "z"])
@pytest.mark.parametrize("kernel", ["regularized_laplacian", "diffusion", "pagerank"])
def test_diffustats_scores_match_definitions(method, kernel):
    n = 30
    g, e, w = random_graph(5, n=n, m=75, directed=False)
    K = dense_kernels(dense_adjacency(n, e, w, False))[kernel]
    rng = np.random.default_rng(1)
    y = (rng.random((n, 3)) < 0.3).astype(float)
    y[0, :] = 1.0
    labelled = np.ones(n, dtype=bool)
    labelled[20:] = False                       # vertices 20.. are unlabelled
    y[~labelled] = 0
    got = curnet.diffuse(g, y, method=method, kernel=kernel, background=np.arange(20), **CPU)
    np.testing.assert_allclose(got, diffustats_scores(K, y, labelled, method), atol=1e-8)
    vec = curnet.diffuse(g, y[:, 1], method=method, kernel=kernel, background=np.arange(20), **CPU)
    np.testing.assert_allclose(vec, got[:, 1], atol=1e-12)
    if method in ("raw", "z"):                  # quantitative inputs, whole background
        q = rng.random((n, 2))
        got = curnet.diffuse(g, q, method=method, kernel=kernel, **CPU)
        np.testing.assert_allclose(got, diffustats_scores(K, q, np.ones(n, bool), method), atol=1e-8)


def test_mc_and_ber_p_match_their_permutation_definition():
    n, n_perm = 24, 60
    g, e, w = random_graph(2, n=n, m=60, directed=False)
    K = dense_kernels(dense_adjacency(n, e, w, False))["regularized_laplacian"]
    y = np.zeros((n, 2))
    y[[1, 3, 5], 0] = 1
    y[[2, 7, 11, 13, 17], 1] = 1
    mc = curnet.diffuse(g, y, method="mc", n_perm=n_perm, seed=3, batch=7, **CPU)
    ber_p = curnet.diffuse(g, y, method="ber_p", n_perm=n_perm, seed=3, **CPU)
    # the draws: as scores._permutation_p makes them (NumPy's generator, shared by the columns)
    rng = np.random.default_rng(3)
    draws = np.stack([rng.choice(n, 5, replace=False) for _ in range(n_perm)])
    raw = K @ y
    for c in range(2):
        k = int(y[:, c].sum())
        nulls = np.stack([K[:, d[:k]].sum(axis=1) for d in draws], axis=1)
        p = ((nulls > raw[:, [c]]).sum(axis=1) + 1) / (n_perm + 1)
        np.testing.assert_allclose(mc[:, c], 1 - p, atol=1e-12)
        np.testing.assert_allclose(ber_p[:, c], -np.log10(p) * raw[:, c], atol=1e-8)
    assert (mc >= 0).all() and (mc < 1).all()      # p = (r + 1) / (n_perm + 1) is never 0


def test_diffuse_bad_input():
    g, e, w = random_graph(1, directed=False)
    y = np.zeros(30)
    y[3] = 1
    with pytest.raises(ValueError, match="method must be"):
        curnet.diffuse(g, y, method="nope", **CPU)
    with pytest.raises(ValueError, match="kernel must be"):
        curnet.diffuse(g, y, kernel="nope", **CPU)
    with pytest.raises(ValueError, match="binary"):
        curnet.diffuse(g, y * 2, method="ml", **CPU)
    with pytest.raises(ValueError, match="outside the background"):
        curnet.diffuse(g, y, background=[0, 1, 2], **CPU)
    with pytest.raises(ValueError, match="all zeros"):
        curnet.diffuse(g, np.zeros(30), **CPU)
    with pytest.raises(ValueError, match="add_diag must be positive"):
        curnet.diffuse(g, y, add_diag=0, **CPU)
    with pytest.raises(ValueError, match="restart/alpha apply"):
        curnet.diffuse(g, y, restart=0.5, **CPU)


# -- permutation nulls -------------------------------------------------------------------------

def test_null_is_reproducible_degree_matched_and_equals_a_direct_loop():
    n = 60
    g, e, w = random_graph(4, n=n, m=200, directed=False, weighted=False)
    seeds = np.array([1, 5, 8, 13, 21])
    res = curnet.propagation_null(g, seeds, n=80, bins=10, seed=7, batch=16, **CPU)
    again = curnet.propagation_null(g, seeds, n=80, bins=10, seed=7, **CPU)
    np.testing.assert_array_equal(res.draws, again.draws)
    np.testing.assert_allclose(res.z, again.z, rtol=1e-12, equal_nan=True)
    other = curnet.propagation_null(g, seeds, n=80, bins=10, seed=8, **CPU)
    assert not np.array_equal(other.draws, res.draws)
    # each draw keeps the seed set's count in every degree bin, and has no vertex twice
    from curnet.analyses.network_proximity import degree_bins
    bins = degree_bins(g.out_degree(), 10)
    want = np.bincount(bins[seeds], minlength=bins.max() + 1)
    for d in res.draws:
        assert len(set(d.tolist())) == len(seeds)
        np.testing.assert_array_equal(np.bincount(bins[d], minlength=bins.max() + 1), want)
    # z and p by a direct loop over the same draws, one propagation at a time
    obs = curnet.rwr(g, seeds, **CPU)
    nulls = np.stack([curnet.rwr(g, d, **CPU) for d in res.draws], axis=1)
    np.testing.assert_allclose(res.observed, obs, atol=1e-12)
    np.testing.assert_allclose(res.mean, nulls.mean(axis=1), atol=1e-12)
    np.testing.assert_allclose(res.sd, nulls.std(axis=1), atol=1e-10)
    sd = nulls.std(axis=1)
    z = np.where(sd > 0, (obs - nulls.mean(axis=1)) / np.where(sd > 0, sd, 1), np.nan)
    np.testing.assert_allclose(res.z, z, rtol=1e-6, atol=1e-8, equal_nan=True)
    np.testing.assert_allclose(res.p, ((nulls >= obs[:, None] - 1e-15).sum(axis=1) + 1) / 81, atol=1e-12)


def test_reference_sets_are_uniform_subsets_of_each_bin():
    """network_proximity.reference_sets: every set keeps each member's bin, holds no vertex twice, and each
    bin's picks are a uniform subset of it, by either route (drawn again on a repeat: bins 0
    and 2; a key a vertex, sorted: bin 1, whose 8 picks of 10 vertices would repeat too often).
    The counts of each subset are within 5 standard deviations of uniform."""
    from curnet.analyses.network_proximity import reference_sets
    bins = np.array([0] * 5 + [1] * 10 + [2] * 30 + [3] * 2)
    members = np.array([0, 1, *range(5, 13), 15, 16, 45])   # 2 of bin 0, 8 of bin 1, 2 of bin 2, 1 of bin 3
    n = 60_000
    d = reference_sets(members, bins, n, np.random.default_rng(3))
    assert d.shape == (n, len(members))
    np.testing.assert_array_equal(bins[d], np.broadcast_to(bins[members], d.shape))
    s = np.sort(d, axis=1)
    assert not (s[:, 1:] == s[:, :-1]).any()
    for cols, subsets in (([0, 1], 10), (list(range(2, 10)), 45), ([10, 11], 435), ([12], 2)):
        _, counts = np.unique(np.sort(d[:, cols], axis=1), axis=0, return_counts=True)
        assert len(counts) == subsets
        expect = n / subsets
        assert np.abs(counts - expect).max() < 5 * np.sqrt(expect)
    again = reference_sets(members, bins, 100, np.random.default_rng(3))
    np.testing.assert_array_equal(again, reference_sets(members, bins, 100, np.random.default_rng(3)))


def test_reference_sets_draw_each_bin_of_a_set_again_on_its_own():
    """Many bins drawn together, with replacement, a set's picks of one bin drawn again on a
    repeat there: two picks of 4 vertices in each of 6 bins repeat in a quarter of the draws of
    a bin, in most sets somewhere. Each bin's pair is a uniform subset (6) and two bins' pairs
    are independent (36 joint cells), within 5 standard deviations; a singleton bin's pick is
    uniform; no vertex twice."""
    from curnet.analyses.network_proximity import reference_sets
    bins = np.repeat(np.arange(7), 4)                        # bin 6: the singleton's
    members = np.array([b * 4 + i for b in range(6) for i in (0, 1)] + [24])[::-1]
    n = 36_000
    d = reference_sets(members, bins, n, np.random.default_rng(11))
    np.testing.assert_array_equal(bins[d], np.broadcast_to(bins[members], d.shape))
    s = np.sort(d, axis=1)
    assert not (s[:, 1:] == s[:, :-1]).any()
    pair = {b: np.sort(d[:, bins[members] == b], axis=1) @ np.array([4, 1]) for b in range(6)}
    for b in range(6):
        _, counts = np.unique(pair[b], return_counts=True)
        assert len(counts) == 6 and np.abs(counts - n / 6).max() < 5 * np.sqrt(n / 6)
    for a, b in ((0, 5), (2, 3)):
        _, counts = np.unique(pair[a] * 100 + pair[b], return_counts=True)
        assert len(counts) == 36 and np.abs(counts - n / 36).max() < 5 * np.sqrt(n / 36)
    _, counts = np.unique(d[:, 0], return_counts=True)
    assert len(counts) == 4 and np.abs(counts - n / 4).max() < 5 * np.sqrt(n / 4)


def test_null_uniform_draws_other_kernels_and_errors():
    g, e, w = random_graph(3, n=40, m=100, directed=False)
    res = curnet.propagation_null(g, [2, 3, 4], n=30, degree_matched=False, kernel="diffusion", seed=1, **CPU)
    assert res.draws.shape == (30, 3) and np.isfinite(res.p).all()
    K = dense_kernels(dense_adjacency(40, e, w, False))["diffusion"]
    nulls = np.stack([K[:, d].sum(axis=1) for d in res.draws], axis=1)
    np.testing.assert_allclose(res.mean, nulls.mean(axis=1), atol=1e-9)
    with pytest.raises(ValueError, match="one seed set"):
        curnet.propagation_null(g, [[1, 2], [3]], n=10, **CPU)
    with pytest.raises(ValueError, match="at least 2"):
        curnet.propagation_null(g, [1], n=1, **CPU)
    with pytest.raises(ValueError, match="bins must be"):
        curnet.propagation_null(g, [1], n=10, bins=np.zeros(3, int), **CPU)
    with pytest.raises(ValueError, match="batch must be at least 1"):
        curnet.propagation_null(g, [1], n=10, batch=-1, **CPU)


def test_no_convergence_warning_on_defaults():
    g, e, w = random_graph(9, n=50, m=150)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        curnet.pagerank(g, **CPU)
        curnet.rwr(g, [0, 1], **CPU)
