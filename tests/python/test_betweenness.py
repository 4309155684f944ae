"""Betweenness (curnet.betweenness / edge_betweenness) against python-igraph and NetworkX on
random graphs: directed and undirected, integer weights with many ties, cutoffs, normalized,
multi-edges, self-loops, isolated vertices, several components; source/target subsets;
sampled sources. The CUDA kernels against these NumPy twins: test_betweenness_gpu.py."""
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import curnet
from curnet.backends import brandes as shared
from curnet.work import count_work

ig = pytest.importorskip("igraph")


@st.composite
def edge_lists(draw, max_vertices=12, max_edges=30):
    """(n, src, dst, integer weights 1..3, directed): repeats (multi-edges), loops and
    vertices without edges all occur."""
    n = draw(st.integers(1, max_vertices))
    m = draw(st.integers(0, max_edges))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = draw(st.lists(st.integers(1, 3), min_size=m, max_size=m))
    return n, np.array(src, np.int64), np.array(dst, np.int64), np.array(w, float), draw(st.booleans())


def build(case):
    n, src, dst, w, directed = case
    g = curnet.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=np.float64)
    G = ig.Graph(n=n, edges=list(zip(src.tolist(), dst.tolist())), directed=directed)
    return g, G, w.tolist()


def simple_nx(case):
    """The case as a NetworkX (Di)Graph: its first copy of each repeated edge only."""
    n, src, dst, w, directed = case
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if not G.has_edge(u, v):
            G.add_edge(u, v, weight=x)
    return G


def same(got, expected):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(expected, float), rtol=1e-9, atol=1e-9)


cutoffs = st.one_of(st.none(), st.sampled_from([-1, 0, 1, 2, 2.5, 4]))


@settings(max_examples=60, deadline=None)
@given(edge_lists(), st.booleans(), cutoffs, st.booleans(), st.booleans())
def test_vertex_and_edge_betweenness_match_igraph(case, weighted, cutoff, directed_paths, normalized):
    g, G, w = build(case)
    weights = w if weighted else None
    got = curnet.betweenness(g, directed=directed_paths, weighted=weighted, cutoff=cutoff, backend="cpu")
    same(got, G.betweenness(directed=directed_paths, weights=weights, cutoff=cutoff))
    got_e = curnet.edge_betweenness(g, directed=directed_paths, weighted=weighted, cutoff=cutoff, backend="cpu")
    same(got_e, G.edge_betweenness(directed=directed_paths, weights=weights, cutoff=cutoff))
    if normalized and cutoff is None:
        n = len(g)
        expected = np.asarray(G.betweenness(directed=directed_paths, weights=weights), float)
        if n > 2:     # igraph: (n-1)(n-2) pairs, halved for undirected paths (its sums are halved too)
            expected = expected / ((n - 1) * (n - 2) / (1 if g.directed and directed_paths else 2))
        same(curnet.betweenness(g, directed=directed_paths, weighted=weighted, normalized=True,
                                backend="cpu"), expected)


@settings(max_examples=40, deadline=None)
@given(edge_lists(), st.booleans(), st.data())
def test_subsets_match_igraph(case, weighted, data):
    g, G, w = build(case)
    n = len(g)
    sources = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    targets = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    weights = w if weighted else None
    same(curnet.betweenness(g, weighted=weighted, sources=sources, targets=targets, backend="cpu"),
         G.betweenness(weights=weights, sources=sources, targets=targets))
    same(curnet.edge_betweenness(g, weighted=weighted, sources=sources, targets=targets, backend="cpu"),
         G.edge_betweenness(weights=weights, sources=sources, targets=targets))


@settings(max_examples=40, deadline=None)
@given(edge_lists(), st.booleans(), st.booleans(), st.booleans())
def test_simple_graphs_match_networkx(case, weighted, normalized, endpoints):
    G = simple_nx(case)
    n, directed = case[0], case[4]
    u, v = (np.array(x, np.int64) for x in zip(*G.edges())) if G.number_of_edges() else ([], [])
    w = [G.edges[e]["weight"] for e in G.edges()]
    g = curnet.Graph.from_edges(u, v, w, directed=directed, num_vertices=n, dtype=np.float64)
    weight = "weight" if weighted else None
    expected = nx.betweenness_centrality(G, normalized=normalized, weight=weight, endpoints=endpoints)
    got = curnet.betweenness(g, weighted=weighted, normalized=normalized, endpoints=endpoints, backend="cpu")
    same(got, [expected[i] for i in range(n)])
    expected_e = nx.edge_betweenness_centrality(G, normalized=normalized, weight=weight)
    got_e = curnet.edge_betweenness(g, weighted=weighted, normalized=normalized, backend="cpu")
    same(got_e, [expected_e[e] for e in G.edges()])


@settings(max_examples=30, deadline=None)
@given(edge_lists(), st.booleans(), st.booleans(), st.data())
def test_subset_matches_networkx(case, weighted, normalized, data):
    G = simple_nx(case)
    n, directed = case[0], case[4]
    u, v = (np.array(x, np.int64) for x in zip(*G.edges())) if G.number_of_edges() else ([], [])
    w = [G.edges[e]["weight"] for e in G.edges()]
    g = curnet.Graph.from_edges(u, v, w, directed=directed, num_vertices=n, dtype=np.float64)
    sources = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    targets = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    expected = nx.betweenness_centrality_subset(G, sources, targets, normalized=normalized,
                                                weight="weight" if weighted else None)
    got = curnet.betweenness(g, weighted=weighted, normalized=normalized, sources=sources,
                             targets=targets, backend="cpu")
    same(got, [expected[i] for i in range(n)])


@settings(max_examples=30, deadline=None)
@given(edge_lists(), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1))
def test_sampled_sources_reproducible_and_exact_at_n(case, normalized, endpoints, seed):
    g, _, _ = build(case)
    n = len(g)
    k = max(1, n // 2)
    one = curnet.betweenness(g, k=k, seed=seed, normalized=normalized, endpoints=endpoints, backend="cpu")
    two = curnet.betweenness(g, k=k, seed=seed, normalized=normalized, endpoints=endpoints, backend="cpu")
    np.testing.assert_array_equal(one, two)
    same(curnet.betweenness(g, k=n, seed=seed, normalized=normalized, endpoints=endpoints, backend="cpu"),
         curnet.betweenness(g, normalized=normalized, endpoints=endpoints, backend="cpu"))
    same(curnet.edge_betweenness(g, k=n, seed=seed, normalized=normalized, backend="cpu"),
         curnet.edge_betweenness(g, normalized=normalized, backend="cpu"))


@settings(max_examples=30, deadline=None)
@given(edge_lists(max_vertices=10), st.booleans(), st.data())
def test_sampled_sources_scale_as_networkx(case, endpoints, data):
    """NetworkX's k: its estimate from the same sampled sources (picked here, given to both)."""
    G = simple_nx(case)
    n, directed = case[0], case[4]
    u, v = (np.array(x, np.int64) for x in zip(*G.edges())) if G.number_of_edges() else ([], [])
    g = curnet.Graph.from_edges(u, v, directed=directed, num_vertices=n)
    k = data.draw(st.integers(1, n))
    import random
    seed = data.draw(st.integers(0, 1000))
    expected = nx.betweenness_centrality(G, k=k, seed=random.Random(seed), endpoints=endpoints)
    chosen = random.Random(seed).sample(list(G.nodes()), k)
    gen = _FixedChoice(chosen)
    got = curnet.betweenness(g, k=k, seed=gen, normalized=True, endpoints=endpoints, backend="cpu")
    same(got, [expected[i] for i in range(n)])


class _FixedChoice(np.random.Generator):
    """A NumPy Generator whose `choice` returns given ids (the sources NetworkX sampled)."""

    def __init__(self, ids):
        super().__init__(np.random.PCG64(0))
        self.ids = np.asarray(ids)

    def choice(self, n, k, replace=False):
        assert len(self.ids) == k and not replace
        return self.ids


def test_ties_with_integer_weights_count_every_shortest_path():
    # 0 -> 3 by three paths of length 2: 0-1-3 (1+1), 0-2-3 (1+1) and the parallel pair 0=2
    g = curnet.Graph.from_edges([0, 0, 1, 2, 0], [1, 2, 3, 3, 2], [1, 1, 1, 1, 1],
                                directed=True, dtype=np.float64)
    same(curnet.betweenness(g, backend="cpu"), [0.0, 1 / 3, 2 / 3, 0.0])
    same(curnet.edge_betweenness(g, backend="cpu"), [4 / 3, 5 / 6, 4 / 3, 5 / 3, 5 / 6])


def test_float32_ties_within_float32_rounding():
    # 0.1 + 0.2 and 0.3 tie in exact arithmetic, not in float32 sums: both paths count
    g32 = curnet.Graph.from_edges([0, 1, 0], [1, 2, 2], [0.1, 0.2, 0.3], directed=True)
    assert curnet.betweenness(g32, backend="cpu").tolist() == [0.0, 0.5, 0.0]
    # float64 weights: igraph's epsilon (1e-10) finds the tie too
    g64 = curnet.Graph.from_edges([0, 1, 0], [1, 2, 2], [0.1, 0.2, 0.3], directed=True, dtype=np.float64)
    G = ig.Graph(n=3, edges=[(0, 1), (1, 2), (0, 2)], directed=True)
    same(curnet.betweenness(g64, backend="cpu"), G.betweenness(weights=[0.1, 0.2, 0.3]))
    assert shared.on_path(np, np.float64(0.1) + np.float64(0.2), np.float64(0.3))


def test_work_bound_levels_per_batch():
    """The sweeps cost a pass a level, not a pass a source: a 12-vertex path has 11 levels."""
    g = curnet.Graph.from_edges(np.arange(11), np.arange(1, 12), directed=False)
    with count_work() as w:
        curnet.betweenness(g, backend="cpu")
    assert w["bfs joint levels"] <= 12


def test_bad_input_is_refused_clearly():
    g = curnet.Graph.from_edges([0, 1], [1, 2], [1.0, 0.0], directed=True)
    with pytest.raises(ValueError, match="positive weights"):
        curnet.betweenness(g, backend="cpu")
    assert curnet.betweenness(g, weighted=False, backend="cpu").tolist() == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="k must be"):
        curnet.betweenness(g, weighted=False, k=4, backend="cpu")
    with pytest.raises(ValueError, match="either k"):
        curnet.betweenness(g, weighted=False, k=2, sources=[0], backend="cpu")
    with pytest.raises(ValueError, match="edge ids"):
        curnet.edge_betweenness(g, [2], weighted=False, backend="cpu")


def test_names_select_vertices():
    g = curnet.Graph.from_edges(["a", "b", "c"], ["b", "c", "d"], directed=False)
    assert curnet.betweenness(g, ["b", "d"], backend="cpu").tolist() == [2.0, 0.0]
    assert curnet.betweenness(g, sources=["a"], targets=["d"], backend="cpu").tolist() == [0, 0.5, 0.5, 0]


@settings(max_examples=30, deadline=None)
@given(edge_lists(), st.booleans(), st.booleans(), st.booleans(), st.data())
def test_networkx_backend_functions_match_networkx(case, multi, weighted, normalized, data):
    """The NetworkX backend's functions on the graph NetworkX converts (multigraphs too: each
    neighbour once, as NetworkX counts paths), against NetworkX."""
    import random

    from curnet.nx import betweenness as A
    from curnet.nx.graph import from_networkx
    n, src, dst, w, directed = case
    G = {(False, False): nx.Graph, (True, False): nx.DiGraph, (False, True): nx.MultiGraph,
         (True, True): nx.MultiDiGraph}[directed, multi]()
    G.add_nodes_from((i, "x") for i in range(n))
    G.add_weighted_edges_from(((u, "x"), (v, "x"), x) for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()))
    weight = "weight" if weighted else None
    cg = from_networkx(G, weight)
    k = data.draw(st.one_of(st.none(), st.integers(1, n)))
    seed = data.draw(st.integers(0, 100))
    expected = nx.betweenness_centrality(G, k=k, normalized=normalized, weight=weight, seed=random.Random(seed))
    got = A.betweenness_centrality(cg, k=k, normalized=normalized, weight=weight, seed=random.Random(seed))
    assert got.keys() == expected.keys()
    same(list(got.values()), list(expected.values()))
    nodes = list(G)
    sources = data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=n))
    targets = data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=n))
    expected = nx.betweenness_centrality_subset(G, sources, targets, normalized=normalized, weight=weight)
    got = A.betweenness_centrality_subset(cg, sources, targets, normalized=normalized, weight=weight)
    same(list(got.values()), list(expected.values()))
    if not multi:
        expected = nx.edge_betweenness_centrality(G, k=k, normalized=normalized, weight=weight,
                                                  seed=random.Random(seed))
        got = A.edge_betweenness_centrality(cg, k=k, normalized=normalized, weight=weight,
                                            seed=random.Random(seed))
        assert got.keys() == expected.keys()
        same(list(got.values()), [expected[e] for e in got])


def test_graph_arrays_left_untouched():
    """The SciPy route's arc-count matrices copy the CSR (summing duplicates sorts rows in place)."""
    g = curnet.Graph.from_edges([0, 0, 2, 1], [0, 1, 1, 2], directed=False, num_vertices=3)
    before = g.indices.copy()
    curnet.edge_betweenness(g, backend="cpu")
    np.testing.assert_array_equal(g.indices, before)


@given(st.lists(st.integers(0, 700), min_size=0, max_size=40), st.integers(1, 300))
@settings(max_examples=60, deadline=None)
def test_arc_pieces_cover_each_list_once(degrees, size):
    """The GPU sweeps' pieces: every arc of every row in exactly one piece of its own row, at
    most `size` arcs a piece, the pieces in row order."""
    ptr = np.r_[0, np.cumsum(degrees)].astype(np.int64)
    row, start = shared.arc_pieces(ptr, size)
    end = np.minimum(start + size, ptr[row.astype(np.int64) + 1])
    assert (end > start).all() and (np.diff(row) >= 0).all()
    covered = np.zeros(ptr[-1], np.int64)
    for r, a, b in zip(row.tolist(), start.tolist(), end.tolist()):
        assert ptr[r] <= a < b <= ptr[r + 1]
        covered[a:b] += 1
    assert (covered == 1).all()
    assert len(row) == sum(-(-d // size) for d in degrees)


def test_sources_reordered_near_each_other_same_sums():
    """Many sources are put in breadth-first order (a permutation, repeats kept); the sums do
    not change."""
    from curnet.algorithms.betweenness.driver import brandes_sums
    from curnet.algorithms.betweenness.source_order import near_sources_together
    rng = np.random.default_rng(3)
    g = curnet.Graph.from_edges(rng.integers(0, 300, 900), rng.integers(0, 300, 900), directed=True,
                                num_vertices=300)
    ids = np.r_[np.arange(300), np.arange(0, 300, 7)].astype(np.int32)     # repeats count twice
    moved = near_sources_together(g, ids)
    assert not np.array_equal(moved, ids) and np.array_equal(np.sort(moved), np.sort(ids))
    few = ids[:63]
    assert np.array_equal(near_sources_together(g, few), few)        # under two warps: left alone
    ours, _ = brandes_sums(g, ids, weighted=False, backend="cpu")
    # chunks of 16 sources are not reordered: their sums add up to the same totals
    chunks = sum(brandes_sums(g, ids[i:i + 16], weighted=False, backend="cpu")[0] for i in range(0, len(ids), 16))
    np.testing.assert_allclose(ours, chunks, rtol=1e-12)


def assert_search_order(rank, g, src, dst):
    """rank is a breadth-first order of g (arcs src -> dst taken both ways) from its busiest
    vertex: a permutation; the busiest vertex first; its component before the others; each
    reached vertex one level below some neighbour ranked before it (its parent), and the
    levels in rank order never going back up."""
    n = len(g)
    assert np.array_equal(np.sort(rank), np.arange(n))
    busiest = int(np.argmax(np.diff(g.indptr))) if n else 0
    if n == 0:
        return
    assert rank[busiest] == 0
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    comp = nx.node_connected_component(G, busiest)
    assert set(np.flatnonzero(rank < len(comp)).tolist()) == comp
    depth = nx.single_source_shortest_path_length(G, busiest)
    by_rank = sorted(comp, key=lambda v: rank[v])
    assert [depth[v] for v in by_rank] == sorted(depth[v] for v in by_rank)
    for v in comp - {busiest}:
        assert any(rank[u] < rank[v] and depth[u] == depth[v] - 1 for u in G[v])


@settings(max_examples=60, deadline=None)
@given(edge_lists(max_vertices=40, max_edges=90))
def test_breadth_first_rank_is_scipys_order(case):
    """The batch order's ranks (algorithms.order.bfs_order from the busiest vertex, arcs taken
    both ways, each vertex's out-neighbours by id then its in-neighbours by id) are a
    breadth-first order of the graph, exactly SciPy's breadth_first_order (arcs taken both
    ways), then the vertices it does not reach in id order."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    from curnet.algorithms.betweenness.source_order import breadth_first_rank, busiest_vertex
    n, src, dst, _, directed = case
    g = curnet.Graph.from_edges(src, dst, directed=directed, num_vertices=n)
    rank = breadth_first_rank(g)
    assert_search_order(rank, g, src, dst)
    if n:
        adjacency = csr_matrix((np.ones(g.num_arcs, np.int8), g.indices, g.indptr), shape=(n, n))
        order = breadth_first_order(adjacency, busiest_vertex(g), directed=not directed, return_predecessors=False)
        assert np.array_equal(np.argsort(rank), np.r_[order, np.setdiff1d(np.arange(n), order)])


@pytest.mark.parametrize("directed", [True, False])
def test_breadth_first_rank_is_a_search_order(directed):
    """The batch order's ranks (SciPy's search on the host) are a breadth-first order."""
    from curnet.algorithms.betweenness.source_order import breadth_first_rank
    rng = np.random.default_rng(4)
    src, dst = rng.integers(0, 150, 200), rng.integers(0, 150, 200)
    g = curnet.Graph.from_edges(src, dst, directed=directed, num_vertices=160)     # 150..159 isolated
    assert_search_order(breadth_first_rank(g), g, src, dst)


def test_sources_without_out_arcs_are_skipped():
    """A source that reaches nothing adds nothing, so it costs no traversal: in a directed
    star (the centre's arcs out to 200 leaves, one leaf on to a last vertex) only the centre
    and that leaf are sources that run; the sums agree with NetworkX (endpoints too)."""
    src = np.r_[np.zeros(200, np.int64), 1]
    dst = np.r_[np.arange(1, 201), 201]
    g = curnet.Graph.from_edges(src, dst, directed=True)
    G = nx.DiGraph()
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    for endpoints in (False, True):
        with count_work() as w:
            ours = curnet.betweenness(g, endpoints=endpoints, backend="cpu")
        theirs = nx.betweenness_centrality(G, normalized=False, endpoints=endpoints)
        np.testing.assert_allclose(ours, [theirs[v] for v in range(202)])
        assert w["bfs joint levels"] <= 3 and w["bfs one-source runs"] == 0   # one batch of 2


def test_bfs_levels_narrowed_below_127_only():
    """The BFS level block is int8 when its deepest level is below 127, else int32; either way
    a path's betweenness is NetworkX's."""
    from curnet.algorithms.betweenness.sweeps import shortest_path_dag
    from curnet.backends import get_backend
    cpu = get_backend("cpu")
    for length, dtype in ((100, np.int8), (200, np.int32)):
        g = curnet.Graph.from_edges(np.arange(length - 1), np.arange(1, length), directed=False)
        level = shortest_path_dag(cpu, cpu.device_graph(g), np.array([0, length // 2], np.int32), False, None).level
        assert level.dtype == dtype and level.max() == length - 1
        theirs = nx.betweenness_centrality(nx.path_graph(length), normalized=False)
        np.testing.assert_allclose(curnet.betweenness(g, backend="cpu"), [theirs[v] for v in range(length)])


def test_every_kernel_the_cuda_backend_names_is_compiled():
    """The names BrandesSweeps launches (kernel + dtype suffix, `_l8` for int8 levels) are the
    extern "C" kernels betweenness.cu's macros make (read from nvcc's preprocessor output, launch
    bounds or not)."""
    import os
    import re
    import shutil
    import subprocess
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if nvcc is None:
        pytest.skip("nvcc not found")
    kernels = os.path.join(os.path.dirname(curnet.__file__), "backends", "kernels")
    res = subprocess.run([nvcc, "-E", "-std=c++17", "-include", os.path.join(kernels, "common.cuh"),
                          os.path.join(kernels, "betweenness.cu")], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    made = set(re.findall(r'extern "C" (?:__global__|__attribute__\(\(global\)\)) void '
                          r'(?:__attribute__\(\(launch_bounds\([\d, ]+\)\)\) )?(\w+)\(', res.stdout))
    wanted = {f"bc_{k}_{d}" for k in ("dag_in_arcs", "dag_release") for d in ("f32", "f64")}
    wanted |= {f"bc_{k}_{d}" for k in ("sigma_level", "delta_level", "edge_dependency")
               for d in ("f32", "f64", "bfs", "bfs_l8")}
    wanted |= {"bc_sigma_level_bfs_l8_x2", "bc_sigma_level_free_bfs_l8_x2"}
    wanted |= {"bc_finish_level", "bc_finish_level_l8", "bc_push_level_bfs_l8", "bc_sigma_level_free_bfs_l8",
               "bc_narrow_level_l8", "bc_level_index_l8", "bc_level_tasks"}
    assert wanted <= made, wanted - made


@pytest.mark.parametrize("directed", [True, False])
def test_isolated_vertices_leave_the_blocks(directed):
    """with_arcs_only: the graph less its isolated vertices (kept with the graph; arcs in the
    same order, weights too; a vertex with in-arcs only stays). The sums run on it equal
    igraph's on the whole graph (0 at the isolated vertices), and, for every option that
    changes the driver's path (endpoints, a cutoff, subsets, edges), the sums over every row."""
    from curnet.algorithms.betweenness.graph_reductions import with_arcs_only
    rng = np.random.default_rng(12)
    n = 90
    src, dst = rng.integers(0, 30, 120) * 3, rng.integers(0, 30, 120) * 3 + 1    # 2 mod 3 isolated; 1 mod 3 heads
    w = rng.integers(1, 4, 120).astype(np.float64)
    g = curnet.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n)
    h, kept = with_arcs_only(g)
    assert with_arcs_only(g)[0] is h
    touched = np.zeros(n, bool)
    touched[src] = touched[dst] = True
    np.testing.assert_array_equal(kept, np.flatnonzero(touched))
    np.testing.assert_array_equal(kept[h.indices], g.indices)
    np.testing.assert_array_equal(kept[h.edge_sources()], g.edge_sources())
    np.testing.assert_array_equal(h.weights, g.weights)
    assert with_arcs_only(h)[1] is None
    G = ig.Graph(n=n, edges=list(zip(src.tolist(), dst.tolist())), directed=directed)
    for weighted in (False, True):
        ours = curnet.betweenness(g, weighted=weighted, backend="cpu")
        np.testing.assert_allclose(ours, G.betweenness(weights=w.tolist() if weighted else None),
                                   rtol=1e-9, atol=1e-9)
        assert not ours[~touched].any()
    whole = curnet.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n)
    whole._device["betweenness: without isolated vertices"] = (whole, None)     # every row in the blocks
    for kwargs in ({"endpoints": True}, {"cutoff": 2}, {"weighted": True, "cutoff": 3},
                   {"sources": list(range(0, n, 2)), "targets": list(range(1, n, 3))}):
        np.testing.assert_allclose(curnet.betweenness(g, backend="cpu", **kwargs),
                                   curnet.betweenness(whole, backend="cpu", **kwargs), rtol=1e-12, atol=1e-12)
    for weighted in (False, True):
        np.testing.assert_allclose(curnet.edge_betweenness(g, weighted=weighted, backend="cpu"),
                                   curnet.edge_betweenness(whole, weighted=weighted, backend="cpu"), rtol=1e-12)


def test_the_device_chooses_each_levels_direction():
    """The driver asks the device from which end each BFS level is swept (bc_pushes, with the
    batch's index, which it only hands back): once a level on the way out (from the level
    above), once on the way back (from the level below); a path's dependencies follow."""
    from curnet.algorithms.betweenness.sweeps import dependencies, shortest_path_dag
    from curnet.backends.cpu import CPUBackend

    class Asked(CPUBackend):
        def __init__(self):
            super().__init__()
            self.asked = []

        def bc_pushes(self, index, at, other):
            self.asked.append((at, other))
            return False

    be = Asked()
    g = curnet.Graph.from_edges(np.arange(5), np.arange(1, 6), directed=False)
    hg = be.device_graph(g)
    ids = np.array([0], np.int32)
    dag = shortest_path_dag(be, hg, ids, False, None)
    vertex, _ = dependencies(be, hg, ids, dag, np.ones(6), False, False)
    assert be.asked == [(at, at - 1) for at in range(1, 6)] + [(at, at + 1) for at in range(5, 0, -1)]
    np.testing.assert_allclose(vertex, [0, 4, 3, 2, 1, 0])     # v lies on the paths from 0 to v + 1 .. 5
