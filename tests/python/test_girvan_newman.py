"""Girvan–Newman communities (curnet.analyses.communities, algorithms/girvan_newman.py) against
python-igraph's community_edge_betweenness (merges, modularity, membership), against a plain
loop that rescores the whole remaining graph after each removal (removal order and values,
weighted and directed too), against exact (rational) Girvan–Newman on small graphs with many
true ties, against python-igraph's pick step by step on a near tie (not a tie), and the BFS
edge dependency's twin against the gathered one.
Weighted results against R igraph (weights as lengths): tests/testthat/test-cluster-edge-betweenness.R."""
from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import curnet
from curnet.algorithms.betweenness.sweeps import shortest_path_dag
from curnet.backends.cpu import brandes as twins
from curnet.backends import cuda_available, get_backend
from curnet.algorithms import girvan_newman as gn_loop
from curnet.algorithms.girvan_newman import tie_tolerance
from curnet.analyses.communities import edge_betweenness_removals, girvan_newman
from curnet.work import count_work

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))     # the repository: bench/
from bench import girvan_newman as gnb  # noqa: E402
from bench.girvan_newman import exact_edge_betweenness  # noqa: E402

try:
    import igraph as ig
except ImportError:        # the GPU machine has no python-igraph: the tests that need it skip
    ig = None
needs_igraph = pytest.mark.skipif(ig is None, reason="needs python-igraph")


def curnet_graph(G: ig.Graph, weights=None):
    e = np.array(G.get_edgelist(), np.int64).reshape(-1, 2)
    return curnet.Graph.from_edges(e[:, 0], e[:, 1], weights, directed=G.is_directed(),
                                   num_vertices=G.vcount(), dtype=np.float64)


def igraph_cases():
    """Undirected: python-igraph 1.0's directed merges differ from R igraph 1.3's (whose removal
    order cuRnet's matches: the R test). Unweighted: python-igraph 1.0 divides betweenness by
    weights (Newman's strengths), R igraph 1.3 takes weights as lengths."""
    if ig is None:
        return
    yield "zachary", ig.Graph.Famous("Zachary")
    rng = np.random.default_rng(25)
    for case in range(3):
        e = rng.integers(0, 30, (52, 2))       # two more vertices than ids used; loops, parallels
        yield f"random-{case}", ig.Graph(n=32, edges=e.tolist(), directed=False)


@needs_igraph
@pytest.mark.parametrize("name,G", list(igraph_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_matches_python_igraph(name, G):
    got = girvan_newman(curnet_graph(G), backend="cpu")
    merges, qs = ig.GraphBase.community_edge_betweenness(G, True, None)
    np.testing.assert_array_equal(got.merges, np.array(merges, np.int64).reshape(-1, 2))
    np.testing.assert_allclose(got.modularity, qs, rtol=1e-9, atol=1e-12)
    want = G.community_edge_betweenness().as_clustering().membership
    assert same_partition(got.membership, want)
    assert len(got.removed) == G.ecount() and sorted(got.removed.tolist()) == list(range(G.ecount()))


def same_partition(a, b) -> bool:
    """Equal up to the clusters' numbers."""
    a, b = np.asarray(a), np.asarray(b)
    pairs = np.unique(np.c_[a, b], axis=0)
    return len(pairs) == len(np.unique(a)) == len(np.unique(b))


def full_rescore_removals(g, directed, weighted):
    """The definition: after each removal, the edge betweenness of the whole remaining graph."""
    src, dst, w = g.edges()
    alive = np.ones(g.num_edges, bool)
    removed, values = [], []
    for _ in range(g.num_edges):
        ids = np.flatnonzero(alive)
        sub = curnet.Graph.from_edges(src[ids], dst[ids], w[ids] if weighted else None, directed=g.directed,
                                      num_vertices=len(g), dtype=g.weight_dtype)
        eb = curnet.edge_betweenness(sub, directed=directed, weighted=weighted, backend="cpu")
        top = eb.max()
        i = int(np.flatnonzero(eb >= top - tie_tolerance(len(g)) * abs(top))[0])
        removed.append(ids[i])
        values.append(eb[i])
        alive[ids[i]] = False
    return np.array(removed), np.array(values)


@pytest.mark.parametrize("directed_graph,directed_paths", [(False, True), (True, True), (True, False)])
@pytest.mark.parametrize("weighted", [False, True])
def test_component_rescoring_is_whole_graph_rescoring(directed_graph, directed_paths, weighted):
    rng = np.random.default_rng(3)
    n, m = 24, 40
    w = rng.random(m) + 0.5 if weighted else None       # no ties among lengths
    g = curnet.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), w, directed=directed_graph,
                                num_vertices=n + 2, dtype=np.float64)
    removed, values = edge_betweenness_removals(g, directed=directed_paths, weighted=weighted, backend="cpu")
    want_removed, want_values = full_rescore_removals(g, directed_paths, weighted)
    np.testing.assert_array_equal(removed, want_removed)
    np.testing.assert_allclose(values, want_values, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("route", ["compiled, sums only", "compiled, threads", "NumPy twins"])  # rows kept, one
# thread: the test above
@pytest.mark.parametrize("directed_graph,directed_paths", [(False, True), (True, False)])
@pytest.mark.parametrize("weighted", [False, True])
def test_every_cpu_route_is_whole_graph_rescoring(route, directed_graph, directed_paths, weighted, monkeypatch):
    """The CPU's rescore routes (compiled: each source's sums kept and only the sources whose
    DAG held the removed edge rerun, or the component's sums rerun whole; the searches over
    the CPU's threads, which only large components take; the NumPy twins, the route without
    Numba) against the whole graph rescored after each removal, on integer
    lengths (many equal distances) with loops and parallel edges."""
    from curnet.backends.cpu import compiled_brandes
    if route != "NumPy twins" and not compiled_brandes.available():
        pytest.skip("Numba is not installed")
    if route == "compiled, sums only":
        monkeypatch.setattr(gn_loop, "ROWS_BYTES", 0)
    if route == "compiled, threads":
        monkeypatch.setattr(compiled_brandes, "PARALLEL_SCANS", 0)
    if route == "NumPy twins":
        monkeypatch.setattr(compiled_brandes, "available", lambda: False)
    rng = np.random.default_rng(12)
    n, m = 20, 36
    w = rng.integers(1, 4, m).astype(np.float64) if weighted else None
    g = curnet.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), w, directed=directed_graph,
                                num_vertices=n + 1, dtype=np.float64)
    with count_work() as work:
        removed, values = edge_betweenness_removals(g, directed=directed_paths, weighted=weighted, backend="cpu")
    want_removed, want_values = full_rescore_removals(g, directed_paths, weighted)
    np.testing.assert_array_equal(removed, want_removed)
    np.testing.assert_allclose(values, want_values, rtol=1e-9, atol=1e-12)
    assert work["girvan-newman component rescores"] >= 1


def exact_removals(n, edges, lengths=None):
    """Girvan–Newman in exact arithmetic, ties to the lowest edge id: (order, each value)."""
    alive = np.ones(len(edges), bool)
    removed, values = [], []
    for _ in range(len(edges)):
        eb = exact_edge_betweenness(n, edges, alive, lengths)
        top = max(eb.values())
        pick = min(e for e, x in eb.items() if x == top)
        removed.append(pick)
        values.append(top)
        alive[pick] = False
    return removed, values


def grid_3x5():
    """The 3 x 5 grid, its 22 edges in a shuffled order (rows of 5, vertices row by row)."""
    edges = [(0, 5), (12, 13), (2, 3), (1, 2), (10, 11), (1, 6), (6, 7), (0, 1), (7, 12), (9, 14), (5, 6),
             (3, 4), (8, 9), (8, 13), (13, 14), (11, 12), (6, 11), (4, 9), (5, 10), (2, 7), (3, 8), (7, 8)]
    return 15, edges


def exact_cases():
    yield "grid-3x5", *grid_3x5()
    rng = np.random.default_rng(8)
    for case in range(2):
        yield f"random-{case}", 14, [tuple(e) for e in rng.integers(0, 13, (24, 2)).tolist()]   # loops, parallels
    if ig is not None:
        G = ig.Graph.Lattice([4, 4], circular=True)                 # the 4 x 4 torus: all edges tie
        yield "torus-4x4", G.vcount(), G.get_edgelist()


@pytest.mark.parametrize("name,n,edges", list(exact_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_removals_are_exact_girvan_newman(name, n, edges):
    """Each removal is of a largest exact value, the lowest edge id among equal ones (the same
    on every backend), and its betweenness that value. igraph compares its floating-point sums
    exactly, so on a true tie it takes whichever edge its rounding makes larger: on the 3 x 5
    grid its sums are 22.2 for edge 21 and 22.199999999999996 for edge 6, both 111/5 exactly: R
    igraph 1.3.5 removes edge 21 first (python-igraph 1.0's merges are the same) and ends with
    another membership (modularity 0.3585 against cuRnet's 0.3461, both Girvan–Newman's)."""
    e = np.array(edges, np.int64)
    g = curnet.Graph.from_edges(e[:, 0], e[:, 1], directed=False, num_vertices=n)
    removed, values = edge_betweenness_removals(g, backend="cpu")
    want_removed, want_values = exact_removals(n, edges)
    assert removed.tolist() == want_removed
    np.testing.assert_allclose(values, np.array(want_values, float), rtol=1e-12)
    if name == "grid-3x5":
        first = exact_edge_betweenness(n, edges, np.ones(len(edges), bool))
        assert first[6] == first[21] == Fraction(111, 5) == max(first.values()) and removed[0] == 6


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weighted_removals_are_exact_girvan_newman(seed):
    """Lengths as edge weights, each a multiple of 1/8 so that every path's sum is exact in
    floating point and equal sums are the exact ties: each removal is of a largest exact value
    (Dijkstra's path counts in rational arithmetic), the lowest edge id among equal ones."""
    rng = np.random.default_rng(seed)
    n, m = 14, 28
    e = rng.integers(0, n, (m, 2))
    lengths = rng.integers(1, 6, m) / 8
    g = curnet.Graph.from_edges(e[:, 0], e[:, 1], lengths, directed=False, num_vertices=n, dtype=np.float64)
    removed, values = edge_betweenness_removals(g, weighted=True, backend="cpu")
    want_removed, want_values = exact_removals(n, e, lengths)
    assert removed.tolist() == want_removed
    np.testing.assert_allclose(values, np.array(want_values, float), rtol=1e-12)


def near_tie_graph():
    """Two components, edge ids in this order. A double star: centres joined by edge 0, their 42
    and 86 leaves, so edge 0's betweenness is 43 * 87 = 3741. Then vertex s with 61 leaves,
    joined to a1 (edge e1) and, by the last edge e2, to a2; a1 and a2 both joined to x; x to t
    through 12 stages of 4 parallel two-edge paths (4^12 shortest paths); one more path a2 ... t
    of 24 inner vertices (as long as a2-x-...-t); a1 with 24 leaves. Every pair of s (and of its
    leaves) splits evenly between e1 and e2 but (s, t), which has one path more through e2, so
    e2 - e1 = 62 / (2 * 4^12 + 1) exactly: e1 = 3741.00000057, e2 = 3741.00000241, both within
    1e-9 (relative) of each other and of edge 0's 3741, yet e2 alone is the largest."""
    edges = [(0, 1)] + [(0, 2 + i) for i in range(42)] + [(1, 44 + i) for i in range(86)]
    n = 130

    def new():
        nonlocal n
        n += 1
        return n - 1
    s, a1, a2, x = new(), new(), new(), new()
    e1 = len(edges)
    edges += [(s, a1), (a1, x), (a2, x)]
    v = x
    for _ in range(12):
        w, mids = new(), [new() for _ in range(4)]
        edges += [(v, m) for m in mids] + [(m, w) for m in mids]
        v = w
    last = a2
    for _ in range(24):
        p = new()
        edges.append((last, p))
        last = p
    edges.append((last, v))
    edges += [(a1, new()) for _ in range(24)] + [(s, new()) for _ in range(61)]
    edges.append((s, a2))
    return n, edges, e1, len(edges) - 1


@needs_igraph
def test_near_tie_is_not_a_tie():
    """Scores 6e-10 apart (relative) are not a tie: the larger edge goes first, as in igraph
    (a relative tolerance of 1e-9 would take edge 0, the lowest id of the three). Checked
    against python-igraph's own pick, the first largest of its edge betweenness, step by step
    up to the first step where its values leave the choice to rounding (a true tie)."""
    n, edges, e1, e2 = near_tie_graph()
    G = ig.Graph(n=n, edges=edges)
    eb = np.array(G.edge_betweenness())
    assert eb[0] == 3741 and int(np.argmax(eb)) == e2
    np.testing.assert_allclose(eb[e2] - eb[e1], 62 / (2 * 4 ** 12 + 1), rtol=1e-6)
    assert (eb[e2] - eb[[0, e1]]).max() < 1e-9 * eb[e2]
    e = np.array(edges, np.int64)
    removed, _ = edge_betweenness_removals(curnet.Graph.from_edges(e[:, 0], e[:, 1], directed=False,
                                                                   num_vertices=n), backend="cpu")
    alive = np.ones(len(edges), bool)
    checked = 0
    for pick in removed:
        ids = np.flatnonzero(alive)
        eb = np.array(ig.Graph(n=n, edges=e[ids].tolist()).edge_betweenness())
        order = np.argsort(-eb, kind="stable")
        if eb[order[1]] > eb[order[0]] * (1 - 1e-12):
            break                                  # a tie up to rounding: igraph's rounding decides
        assert pick == ids[order[0]], checked
        alive[pick] = False
        checked += 1
    assert removed[0] == e2 and checked >= 4


@pytest.mark.parametrize("both_ways", [False, True])
def test_live_adjacency_is_the_masked_one(both_ways):
    """The compiled rescore's adjacency with removed edges dropped: each row's live arcs are
    the full row's arcs of edges not removed, in the same order (the searches' sums depend on
    it), on graphs with loops and parallel edges."""
    from curnet.backends.cpu import compiled_brandes
    if not compiled_brandes.available():
        pytest.skip("Numba is not installed")
    rng = np.random.default_rng(31)
    n, m = 15, 60
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    full_ptr, _, full_nbr, full_edge = compiled_brandes.adjacency(n, src, dst, both_ways)
    arcs = compiled_brandes.adjacency(n, src, dst, both_ways)
    alive = np.ones(m, bool)
    for e in rng.permutation(m):
        compiled_brandes.drop(arcs, e, src[e], dst[e])
        alive[e] = False
        ptr, end, nbr, edge = arcs
        for v in range(n):
            keep = alive[full_edge[full_ptr[v]:full_ptr[v + 1]]]
            np.testing.assert_array_equal(edge[ptr[v]:end[v]], full_edge[full_ptr[v]:full_ptr[v + 1]][keep])
            np.testing.assert_array_equal(nbr[ptr[v]:end[v]], full_nbr[full_ptr[v]:full_ptr[v + 1]][keep])
    assert (arcs[1] == arcs[0][:-1]).all()


@pytest.mark.parametrize("weighted", [False, True])
def test_compiled_rescore_reruns_only_sources_through_the_edge(weighted):
    """After a removal the compiled rescore searches again only from the sources whose
    shortest-path DAG held the edge: on two cliques joined by one path, removing the path's
    edges reruns fewer searches than every source of each rescored component would."""
    from curnet.backends.cpu import compiled_brandes
    if not compiled_brandes.available():
        pytest.skip("Numba is not installed")
    ring = [(i, j) for i in range(6) for j in range(i + 1, 6)]
    edges = ring + [(i + 6, j + 6) for i, j in ring] + [(5, 12), (12, 6)]
    src, dst = np.array(edges).T
    w = np.linspace(1.0, 2.0, len(edges)) if weighted else None
    g = curnet.Graph.from_edges(src, dst, w, directed=False, num_vertices=13, dtype=np.float64)
    with count_work() as work:
        removed, _ = edge_betweenness_removals(g, weighted=weighted, backend="cpu")
    assert set(removed[:2].tolist()) == {len(edges) - 2, len(edges) - 1}    # the bridges first
    # every source of each rescored component (one that has edges left), each step
    alive = np.ones(len(edges), bool)
    everyone = 13
    for e in removed:
        alive[e] = False
        adj = sp.csr_matrix((np.ones(alive.sum()), (src[alive], dst[alive])), shape=(13, 13))
        _, label = csgraph.connected_components(adj, directed=False)
        held = np.isin(label, [label[src[e]], label[dst[e]]])
        everyone += int(held.sum()) if held[src[alive]].any() else 0
    assert 13 < work["girvan-newman searches"] < everyone    # the first scoring searches all 13
    want, _ = full_rescore_removals(g, False, weighted)
    np.testing.assert_array_equal(removed, want)


def test_each_step_rescores_one_component():
    """Two triangles joined by a path, beside a path of three edges and an isolated vertex: the
    first scoring rescores each component with edges once, then each removal rescores the one
    component that lost the edge (when edges are left in it), never the untouched ones."""
    src = [0, 1, 2, 2, 3, 4, 5, 4, 7, 8, 9]
    dst = [1, 2, 0, 3, 4, 5, 6, 6, 8, 9, 7]
    g = curnet.Graph.from_edges(src, dst, directed=False, num_vertices=11)
    with count_work() as work:
        removed, _ = edge_betweenness_removals(g, backend="cpu")
    alive = np.ones(g.num_edges, bool)
    want = 2                                               # {0..6} and {7, 8, 9}
    for e in removed:
        alive[e] = False
        adj = sp.csr_matrix((np.ones(alive.sum()), (np.array(src)[alive], np.array(dst)[alive])), shape=(11, 11))
        _, label = csgraph.connected_components(adj, directed=False)
        # the component that held the edge: both ends' components, now maybe two
        held = {label[src[e]], label[dst[e]]}
        want += int(any(label[src[i]] in held for i in np.flatnonzero(alive)))
    assert removed[0] == 3                                 # the path's 2-3 edge carries most
    assert work["girvan-newman component rescores"] == want


def test_bad_input_refused():
    g = curnet.Graph.from_edges([0, 1], [1, 2], [1.0, -1.0], directed=True)
    with pytest.raises(ValueError, match="positive weights"):
        edge_betweenness_removals(g, backend="cpu")
    with pytest.raises(TypeError, match="curnet.Graph"):
        edge_betweenness_removals("not a graph", backend="cpu")


def test_empty_and_edgeless_graphs():
    g = curnet.Graph.from_edges([], [], directed=False, num_vertices=3)
    got = girvan_newman(g, backend="cpu")
    assert len(got.removed) == 0 and got.merges.shape == (0, 2)
    assert got.membership.tolist() == [0, 1, 2]


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_edge_dependency_twin_matches_a_loop(directed, weighted):
    """The CPU backend's edge dependency (row dot products over the batch's sources) against
    a plain loop over every (arc, source) pair with the DAG rule written out, on one batch of a
    random graph (integer weights: many ties); weighted, the DagArcs its level sweeps take
    (found with the levels) hold the loop's DAG pairs, grouped by the head's and the tail's level."""
    rng = np.random.default_rng(11)
    g = curnet.Graph.from_edges(rng.integers(0, 60, 200), rng.integers(0, 60, 200),
                                rng.integers(1, 4, 200).astype(np.float64) if weighted else None,
                                directed=directed, num_vertices=60)
    cpu = get_backend("cpu")
    hg = cpu.device_graph(g)
    ids = rng.choice(60, 37, replace=False).astype(np.int32)
    level, dist, index = shortest_path_dag(cpu, hg, ids, weighted, None)    # weighted: the DagArcs
    weight = rng.integers(0, 2, 60).astype(np.float64)
    n, kb = level.shape
    sigma, share = np.zeros((n, kb)), np.zeros((n, kb))
    sigma[ids, np.arange(kb)] = 1
    deepest = int(level.max())
    for at in range(1, deepest + 1):
        twins.sigma_level(hg, level, dist, sigma, at, index)
    counts = sigma.copy()
    for at in range(deepest, 0, -1):
        twins.delta_level(hg, level, dist, sigma, share, weight, at, index)
    got = np.zeros(g.num_arcs)
    twins.edge_dependency(hg, level, dist, counts, share, got)
    want = np.zeros(g.num_arcs)
    pairs = []                                    # the DAG's (tail entry, head entry) pairs
    tails = np.repeat(np.arange(n), np.diff(g.indptr))
    for p, (u, v) in enumerate(zip(tails, g.indices)):
        for j in range(kb):
            if level[u, j] < 0 or level[v, j] <= level[u, j]:
                continue
            if weighted:
                reach = float(dist[u, j]) + float(g.weights[p])
                if not twins.on_path(np, reach, float(dist[v, j])):
                    continue
            elif level[v, j] != level[u, j] + 1:
                continue
            want[p] += counts[u, j] * share[v, j]
            pairs.append((u * kb + j, v * kb + j))
    assert want.any()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    if weighted:     # the DagArcs the CPU's weighted sweeps take: the same pairs, cut by level
        flat = level.ravel()
        for (t, h), starts, end in ((index.by_head, index.head_starts, 1), (index.by_tail, index.tail_starts, 0)):
            assert sorted(zip(t.tolist(), h.tolist())) == sorted(pairs)
            owner = (t, h)[end]
            for at in range(deepest + 1):
                assert (flat[owner[starts[at]:starts[at + 1]]] == at).all()
            assert starts[deepest + 1] == len(pairs)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_gpu_removals_match_cpu(directed, weighted):
    """The CUDA backend's loop (kernels/betweenness.cu a component a step) against the CPU's."""
    rng = np.random.default_rng(5)
    n, m = 80, 200
    w = rng.random(m) + 0.5 if weighted else None
    g = curnet.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), w, directed=directed,
                                num_vertices=n, dtype=np.float64)
    removed_c, values_c = edge_betweenness_removals(g, backend="cpu")
    removed_d, values_d = edge_betweenness_removals(g, backend="cuda")
    np.testing.assert_allclose(values_d, values_c, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(removed_d, removed_c)


@needs_igraph
def test_bench_script_checks_against_igraph(tmp_path):
    """`python -m bench girvan-newman`'s row on a small ball of a random graph (no R)."""
    import argparse
    rng = np.random.default_rng(1)
    G = ig.Graph(n=200, edges=rng.integers(0, 200, (500, 2)).tolist()).simplify()
    G.es["cost"] = rng.integers(1, 5, G.ecount()).astype(float).tolist()
    args = argparse.Namespace(backend="cpu", r_igraph=False, igraph_max_vertices=0, weighted=False, numpy_twins=True,
                              repeat=2)
    row = gnb.bench(G, 40, args)
    assert row["vertices"] == 40 and row["connected"]
    assert len(row["curnet_times"]) == 2 and row["curnet_s"] == min(row["curnet_times"])
    assert row["same_membership_as_python_igraph"]
    assert row["numpy_twins_same_removals"] or not row["compiled_rescore"]
    args.weighted = True                               # the costs as lengths; python-igraph not run
    row = gnb.bench(G, 40, args)
    assert row["weighted"] and "python_igraph_s" not in row
    assert row["numpy_twins_same_removals"] or not row["compiled_rescore"]
