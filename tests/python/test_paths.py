"""Vertex and edge paths: each path checked for validity (it starts and ends where asked,
each edge joins its two vertices in the direction `mode` follows, its length is SciPy's
distance), unreached targets empty; trees checked the same way."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from scipy.sparse import csgraph

import curnet
from curnet import Graph
from curnet.backends import get_backend


def random_edges(seed, n, m, weighted):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    src[:3], dst[:3] = src[3], dst[3]             # parallel edges (and a self-loop below)
    dst[4] = src[4]
    w = rng.integers(1, 6, m).astype(float) if weighted else None
    return src, dst, w


def oracle(n, src, dst, w, directed, mode, weighted):
    """Distances along `mode` from scratch: SciPy on the cheapest of parallel edges."""
    s, d = (dst, src) if mode == "in" else (src, dst)
    ww = np.ones(len(s)) if (w is None or not weighted) else w
    if mode == "all" or not directed:
        s, d, ww = np.r_[s, d], np.r_[d, s], np.r_[ww, ww]
    best = {}
    for a, b, x in zip(s, d, ww):
        best[(a, b)] = min(x, best.get((a, b), np.inf))
    keys = np.array(list(best), dtype=np.int64).reshape(-1, 2)
    a = sp.csr_matrix((np.array(list(best.values())), (keys[:, 0], keys[:, 1])), shape=(n, n))
    return csgraph.shortest_path(a, directed=True, unweighted=not weighted)


def step_ok(src, dst, e, u, v, directed, mode):
    if mode == "all" or not directed:
        return {src[e], dst[e]} == {u, v} or (u == v == src[e] == dst[e])
    return (src[e], dst[e]) == ((v, u) if mode == "in" else (u, v))


def check_path(vp, ep, s, t, dist, src, dst, w, directed, mode, weighted):
    if not np.isfinite(dist):
        assert len(vp) == 0 and len(ep) == 0
        return
    assert vp[0] == s and vp[-1] == t and len(ep) == len(vp) - 1
    for u, v, e in zip(vp[:-1], vp[1:], ep):
        assert step_ok(src, dst, e, u, v, directed, mode), (u, v, e)
    length = len(ep) if not weighted else float(np.sum(w[ep])) if len(ep) else 0.0
    assert length == pytest.approx(dist)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("mode", ["out", "in", "all"])
def test_paths_every_source_every_target(directed, weighted, mode):
    n = 40
    src, dst, w = random_edges(["out", "in", "all"].index(mode) * 4 + 2 * directed + weighted, n, 90, weighted)
    g = Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=np.float64)
    sources = [0, 5, 5, 17, 39]
    p = curnet.shortest_paths(g, sources, mode=mode, backend="cpu")
    want = oracle(n, src, dst, w, directed, mode, weighted)
    assert len(p.vpath) == len(sources) and all(len(row) == n for row in p.vpath)
    for i, s in enumerate(sources):
        for t in range(n):
            check_path(p.vpath[i][t], p.epath[i][t], s, t, want[s, t], src, dst, w, directed, mode, weighted)


@given(seed=st.integers(0, 10_000), n=st.integers(1, 30), m=st.integers(5, 80),
       directed=st.booleans(), weighted=st.booleans(), mode=st.sampled_from(["out", "in", "all"]))
def test_pairs_and_trees_on_random_graphs(seed, n, m, directed, weighted, mode):
    src, dst, w = random_edges(seed, n, m, weighted)
    g = Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=np.float64)
    rng = np.random.default_rng(seed + 1)
    ps, pt = rng.integers(0, n, 12), rng.integers(0, n, 12)
    p = curnet.shortest_paths(g, ps, pt, pairs=True, mode=mode, predecessors=True,
                              inbound_edges=True, backend="cpu")
    want = oracle(n, src, dst, w, directed, mode, weighted)
    for k, (s, t) in enumerate(zip(ps, pt)):
        check_path(p.vpath[k], p.epath[k], s, t, want[s, t], src, dst, w, directed, mode, weighted)
        pred, inb = p.predecessors[k], p.inbound_edges[k]
        for v in range(n):            # the tree: each reached vertex's inbound edge attains it
            if v == s or not np.isfinite(want[s, v]):
                assert pred[v] == -1 and inb[v] == -1
                continue
            e, u = inb[v], pred[v]
            assert step_ok(src, dst, e, u, v, directed, mode)
            step = 1.0 if not weighted else w[e]
            assert want[s, u] + step == pytest.approx(want[s, v])


def test_hops_on_a_weighted_graph_and_names():
    g = Graph.from_edges(["a", "b", "a", "c"], ["b", "c", "c", "d"], [1, 1, 5, 1])
    p = curnet.shortest_paths(g, ["a"], ["d"], backend="cpu")
    assert g.names[p.vpath[0][0]].tolist() == ["a", "b", "c", "d"] and p.epath[0][0].tolist() == [0, 1, 3]
    h = curnet.shortest_paths(g, ["a"], ["d"], weighted=False, output="vpath", backend="cpu")
    assert g.names[h.vpath[0][0]].tolist() == ["a", "c", "d"] and h.epath is None
    back = curnet.shortest_paths(g, "d", "a", mode="in", output="epath", backend="cpu")
    assert back.vpath is None and back.epath[0][0].tolist() == [3, 1, 0]


def test_many_batches_and_bad_input(monkeypatch):
    monkeypatch.setattr(type(get_backend("cpu")), "bfs_batch_size", lambda self, n, k: 3)
    monkeypatch.setattr(type(get_backend("cpu")), "sssp_batch_size", lambda self, n, k, d: 2)
    g = curnet.generators.grid(6, 7)
    p = curnet.shortest_paths(g, np.arange(0, 42, 4), [41, 0], backend="cpu")
    for i, s in enumerate(range(0, 42, 4)):
        for j, t in enumerate([41, 0]):
            r, c, r2, c2 = s // 7, s % 7, t // 7, t % 7
            assert len(p.epath[i][j]) == abs(r - r2) + abs(c - c2)
    with pytest.raises(ValueError, match="pairs=True"):
        curnet.shortest_paths(g, [0, 1], [2], pairs=True, backend="cpu")
    with pytest.raises(ValueError, match="output"):
        curnet.shortest_paths(g, [0], output="both paths", backend="cpu")
    with pytest.raises(ValueError, match="mode"):
        curnet.shortest_paths(g, [0], mode="up", backend="cpu")


@pytest.mark.network
def test_real_network_paths_match_scipy_distances():
    from curnet import datasets
    try:
        g = datasets.load("mouseliver", weights=None)
    except Exception as e:          # the dataset is fetched from a package registry
        pytest.skip(f"mouse liver network not available offline: {e}")
    rng = np.random.default_rng(0)
    sources, targets = rng.choice(len(g), 20, replace=False), rng.choice(len(g), 50, replace=False)
    p = curnet.shortest_paths(g, sources, targets, weighted=False, backend="cpu")
    a = sp.csr_matrix((np.ones(g.num_arcs), g.indices, g.indptr), shape=(len(g), len(g)))
    want = csgraph.shortest_path(a, unweighted=True, indices=sources)
    src, dst, _ = g.edges()
    for i, s in enumerate(sources):
        for j, t in enumerate(targets):
            check_path(p.vpath[i][j], p.epath[i][j], s, t, want[i, t], src, dst, None,
                       g.directed, "out", False)


@pytest.mark.gpu
@pytest.mark.parametrize("weighted", [False, True])
def test_gpu_paths_are_valid_and_as_long_as_cpu(weighted):
    n = 3000
    src, dst, w = random_edges(11, n, 15000, weighted)
    g = Graph.from_edges(src, dst, w, directed=True, num_vertices=n, dtype=np.float32)
    sources = np.arange(0, n, 37)
    gp = curnet.shortest_paths(g, sources, np.arange(0, n, 11), predecessors=True, backend="cuda")
    cp_ = curnet.shortest_paths(g, sources, np.arange(0, n, 11), predecessors=True, backend="cpu")
    want = oracle(n, src, dst, w, True, "out", weighted)
    for i, s in enumerate(sources):
        for j, t in enumerate(range(0, n, 11)):
            assert len(gp.vpath[i][j]) == len(cp_.vpath[i][j]) or weighted
            check_path(gp.vpath[i][j], gp.epath[i][j], s, t, want[s, t], src, dst,
                       None if w is None else w.astype(np.float32).astype(float), True, "out", weighted)
    np.testing.assert_array_equal(gp.predecessors >= 0, cp_.predecessors >= 0)


@pytest.mark.gpu
def test_inbound_arc_twins_cupy_vs_numpy():
    """The two tree-to-arc steps on CuPy against their NumPy runs, on random blocks."""
    import cupy as cp
    from curnet.analyses.paths import _device_arrays, inbound_arcs_from_depths, inbound_arcs_from_preds
    n = 2000
    src, dst, w = random_edges(5, n, 12000, True)
    g = Graph.from_edges(src, dst, w, directed=True, num_vertices=n, dtype=np.float32)
    sources = np.arange(0, n, 50)
    depth = curnet.bfs(g, sources, backend="cpu").T.copy()          # (n, kb)
    cpu_be, gpu_be = get_backend("cpu"), get_backend("cuda")
    t, h, keys, best = _device_arrays(g, cpu_be)
    want = inbound_arcs_from_depths(np, t, h, depth)
    tg, hg, keys_g, best_g = _device_arrays(g, gpu_be)
    got = inbound_arcs_from_depths(cp, tg, hg, cp.asarray(depth)).get()
    np.testing.assert_array_equal(got, want)          # the smallest qualifying arc: deterministic
    _, pred = curnet.sssp(g, sources, backend="cpu")
    pred = pred.T.copy()
    np.testing.assert_array_equal(inbound_arcs_from_preds(cp, keys_g, best_g, n, cp.asarray(pred)).get(),
                                  inbound_arcs_from_preds(np, keys, best, n, pred))
