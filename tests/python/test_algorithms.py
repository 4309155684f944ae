"""BFS, SSSP and SCC on the CPU backend against SciPy, networkx and igraph."""
import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import curnet
from curnet.algorithms.scc import canonical_labels, scc_by_reachability
from curnet.backends import get_backend
from curnet.generators import grid, path, rmat, star

import oracles
from strategies import graphs, graphs_and_sources


# --- BFS ------------------------------------------------------------------
@given(graphs_and_sources())
def test_bfs_matches_scipy(gs):
    g, sources = gs
    np.testing.assert_array_equal(curnet.bfs(g, sources, backend="cpu"), oracles.bfs_depths(g, sources))


@given(graphs_and_sources())
def test_bfs_one_source_at_a_time_route_matches_joint(gs):
    g, sources = gs
    be = get_backend("cpu")
    hg = be.device_graph(g)
    one_by_one = np.stack([be.bfs_one(hg, s) for s in sources])
    np.testing.assert_array_equal(one_by_one, curnet.bfs(g, sources, backend="cpu"))


def test_bfs_matches_networkx_on_a_grid():
    g = grid(7, 9)
    depths = curnet.bfs(g, [0, 31, 62], backend="cpu")
    G = nx.grid_2d_graph(7, 9)
    for row, s in zip(depths, [0, 31, 62]):
        lengths = nx.single_source_shortest_path_length(G, divmod(s, 9))
        expected = [lengths[divmod(v, 9)] for v in range(63)]
        np.testing.assert_array_equal(row, expected)


def test_bfs_many_batches_on_rmat():
    g = rmat(12, seed=3)
    sources = np.random.default_rng(0).choice(len(g), 1100, replace=True)   # > 2 batches, repeats
    depths = curnet.bfs(g, sources, backend="cpu")
    assert depths.shape == (1100, len(g)) and depths.dtype == np.int32
    np.testing.assert_array_equal(depths[::37], oracles.bfs_depths(g, sources[::37]))


def test_blocks_entry_points_hand_every_batch_to_the_sink():
    """bfs_blocks / sssp_blocks: every source row once, in batches, equal to the SciPy oracle."""
    from curnet.algorithms.bfs import bfs_blocks
    from curnet.algorithms.sssp import sssp_blocks
    from curnet.algorithms.sinks import CollectSink
    g = rmat(9, 6, seed=3, weighted=True)
    sources = np.random.default_rng(1).choice(len(g), 700, replace=True)   # > 1 batch (512 on the CPU)
    sink = CollectSink()
    bfs_blocks(g, sources, sink, backend="cpu", unreachable=-7)
    assert len(sink.blocks) > 1
    depths = np.hstack(sink.ordered()).T
    expected = oracles.bfs_depths(g, sources)
    np.testing.assert_array_equal(depths, np.where(expected < 0, -7, expected))
    sink = CollectSink()
    sssp_blocks(g, sources, sink, backend="cpu", with_pred=True)
    assert len(sink.blocks) > 1
    dist = np.hstack([d for d, _ in sink.ordered()]).T
    pred = np.hstack([p for _, p in sink.ordered()]).T
    np.testing.assert_allclose(dist, oracles.sp_distances(g, sources), rtol=1e-5)
    oracles.check_predecessors(g, sources[::25], dist[::25], pred[::25])


def test_bfs_long_path_switches_to_one_source_traversal():
    g = path(5000)
    depths = curnet.bfs(g, [0, 4000], backend="cpu")
    np.testing.assert_array_equal(depths[0], np.arange(5000))
    np.testing.assert_array_equal(depths[1], np.r_[np.full(4000, -1), np.arange(1000)])


def test_bfs_writes_into_callers_buffer_with_its_unreachable_value():
    g = curnet.Graph.from_edges([0, 1], [1, 2], num_vertices=4)
    out = np.zeros((2, 4), dtype=np.float64, order="F")
    res = curnet.bfs(g, [0, 3], backend="cpu", out=out, unreachable=np.inf)
    assert res is out
    np.testing.assert_array_equal(out, [[0, 1, 2, np.inf], [np.inf, np.inf, np.inf, 0]])
    na = np.iinfo(np.int32).min
    out_i = np.zeros((2, 4), dtype=np.int32)          # C order works too
    curnet.bfs(g, [0, 3], backend="cpu", out=out_i, unreachable=na)
    np.testing.assert_array_equal(out_i, [[0, 1, 2, na], [na, na, na, 0]])


def test_bfs_matches_igraph():
    ig = pytest.importorskip("igraph")
    g = rmat(9, edge_factor=4, seed=5, directed=True)
    G = ig.Graph(n=len(g), edges=list(zip(g.edge_sources().tolist(), g.indices.tolist())), directed=True)
    sources = [0, 5, 77, 300]
    expected = np.array(G.distances(source=sources, mode="out"), dtype=float)
    got = curnet.bfs(g, sources, backend="cpu").astype(float)
    got[got < 0] = np.inf
    np.testing.assert_array_equal(got, expected)


# --- SSSP -----------------------------------------------------------------
@given(graphs_and_sources(weighted=True))
def test_sssp_matches_scipy_with_valid_predecessors(gs):
    g, sources = gs
    dist, pred = curnet.sssp(g, sources, backend="cpu")
    np.testing.assert_allclose(dist, oracles.sp_distances(g, sources), rtol=1e-6)
    oracles.check_predecessors(g, sources[::25], dist[::25], pred[::25])


@given(graphs_and_sources(weighted=True, directed=True, negative=True))
def test_sssp_negative_weights_without_negative_cycles(gs):
    g, sources = gs
    dist, pred = curnet.sssp(g, sources, backend="cpu")
    np.testing.assert_allclose(dist, oracles.sp_distances(g, sources), rtol=1e-6, atol=1e-9)
    oracles.check_predecessors(g, sources[::25], dist[::25], pred[::25])
    np.testing.assert_allclose(curnet.sssp_dists(g, sources, backend="cpu"), dist)


@given(graphs_and_sources(weighted=True))
def test_bellman_ford_driver_agrees_with_dijkstra(gs):
    from curnet.algorithms.sssp import bellman_ford
    g, sources = gs
    be = get_backend("cpu")
    dist, pred = bellman_ford(be, be.device_graph(g), sources, True)
    np.testing.assert_allclose(dist, oracles.sp_distances(g, sources), rtol=1e-6)
    oracles.check_predecessors(g, sources[::25], dist[::25], pred[::25])


def test_sssp_unweighted_equals_bfs():
    g = rmat(10, edge_factor=4, seed=1)
    dist, pred = curnet.sssp(g, [1, 2, 3], backend="cpu")
    depths = curnet.bfs(g, [1, 2, 3], backend="cpu").astype(float)
    depths[depths < 0] = np.inf
    np.testing.assert_array_equal(dist, depths)


def test_sssp_uses_the_cheapest_parallel_edge_and_ignores_self_loops():
    g = curnet.Graph.from_edges([0, 0, 1, 1], [1, 1, 1, 2], [5.0, 2.0, 0.5, 1.0])
    dist, pred = curnet.sssp(g, [0], backend="cpu")
    np.testing.assert_allclose(dist, [[0, 2, 3]])
    np.testing.assert_array_equal(pred, [[-1, 0, 1]])


def test_sssp_matches_networkx_and_igraph_on_weighted_rmat():
    ig = pytest.importorskip("igraph")
    g = rmat(8, edge_factor=4, seed=9, directed=True, weighted=True, dtype=np.float64)
    src, dst, w = oracles.edge_arrays(g)
    G = nx.DiGraph()
    G.add_nodes_from(range(len(g)))
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if not G.has_edge(u, v) or G[u][v]["weight"] > x:
            G.add_edge(u, v, weight=x)
    I = ig.Graph(n=len(g), edges=list(zip(src.tolist(), dst.tolist())), directed=True)
    I.es["weight"] = w.tolist()
    sources = [0, 10, 100]
    dist, _ = curnet.sssp(g, sources, backend="cpu")
    np.testing.assert_allclose(dist, np.array(I.distances(source=sources, weights="weight", mode="out")))
    for row, s in zip(dist, sources):
        lengths = nx.single_source_dijkstra_path_length(G, s)
        expected = [lengths.get(v, np.inf) for v in range(len(g))]
        np.testing.assert_allclose(row, expected)


def test_negative_cycle_is_reported_with_the_source():
    names = ["a", "b", "c", "d"]
    g = curnet.Graph.from_edges(["a", "b", "c", "d"], ["b", "c", "b", "a"], [1.0, -2.0, 1.0, 1.0], names=names)
    with pytest.raises(curnet.NegativeCycleError, match="'d'") as e:
        curnet.sssp(g, ["d"], backend="cpu")
    assert e.value.source == 3
    assert isinstance(e.value, ValueError)
    dist, _ = curnet.sssp(g, ["c"], backend="cpu") if False else (None, None)  # c reaches the cycle too
    with pytest.raises(curnet.NegativeCycleError):
        curnet.sssp_dists(g, ["c"], backend="cpu")


def test_no_negative_cycle_when_unreachable():
    g = curnet.Graph.from_edges([0, 1, 2], [1, 2, 1], [1.0, -3.0, 1.0], num_vertices=4)
    d = curnet.sssp_dists(g, [3], backend="cpu")
    np.testing.assert_array_equal(d, [[np.inf, np.inf, np.inf, 0]])


def test_negative_self_loop_is_a_negative_cycle():
    g = curnet.Graph.from_edges([0, 1], [1, 1], [1.0, -0.5])
    with pytest.raises(curnet.NegativeCycleError, match="source 0"):
        curnet.sssp(g, [0], backend="cpu")


# --- SCC ------------------------------------------------------------------
@given(graphs(max_vertices=40))
def test_scc_matches_scipy_and_is_canonical(g):
    labels = curnet.scc(g, backend="cpu")
    assert oracles.same_partition(labels, oracles.scc_partition(g))
    # canonical: component ids appear in increasing order of their first vertex
    _, first = np.unique(labels, return_index=True)
    np.testing.assert_array_equal(labels[np.sort(first)], np.arange(len(first)))


@given(graphs(max_vertices=40))
def test_reachability_scc_driver_agrees(g):
    be = get_backend("cpu")
    labels = canonical_labels(scc_by_reachability(be, be.device_graph(g)))
    np.testing.assert_array_equal(labels, curnet.scc(g, backend="cpu"))


def test_scc_matches_networkx_on_rmat():
    g = rmat(11, edge_factor=3, seed=2, directed=True)
    G = nx.DiGraph()
    G.add_nodes_from(range(len(g)))
    G.add_edges_from(zip(g.edge_sources().tolist(), g.indices.tolist()))
    expected = np.empty(len(g), int)
    for c, comp in enumerate(nx.strongly_connected_components(G)):
        expected[list(comp)] = c
    labels = curnet.scc(g, backend="cpu")
    assert oracles.same_partition(labels, expected)
    be = get_backend("cpu")
    np.testing.assert_array_equal(canonical_labels(scc_by_reachability(be, be.device_graph(g))), labels)


@st.composite
def scc_shaped_graphs(draw):
    """Graphs built from what SCC routes must get right: cycles, chains (between cycles or
    not), isolated vertices, self-loops and parallel arcs, next to each other or apart."""
    n = draw(st.integers(1, 60))
    vertex = st.integers(0, n - 1)
    arcs = []
    for _ in range(draw(st.integers(0, 6))):
        ring = draw(st.lists(vertex, min_size=1, max_size=8))
        arcs += zip(ring, ring[1:] + ring[:1])
    for _ in range(draw(st.integers(0, 6))):
        chain = draw(st.lists(vertex, min_size=2, max_size=10))
        arcs += zip(chain, chain[1:])
    arcs += [(v, v) for v in draw(st.lists(vertex, max_size=4))]
    if arcs:
        arcs += draw(st.lists(st.sampled_from(arcs), max_size=len(arcs)))
        arcs = draw(st.permutations(arcs))
    src, dst = (np.array(x, np.int64) for x in (zip(*arcs) if arcs else ([], [])))
    return curnet.Graph.from_edges(src, dst, directed=draw(st.booleans() | st.just(True)), num_vertices=n)


@given(scc_shaped_graphs())
def test_scc_view_holds_each_arc_once_in_degree_order(g):
    """SciPy's Pearce loops forever on a row that names a vertex twice: the CPU route's matrix
    holds each (tail, head) pair once, its vertices renumbered by degree, each row sorted."""
    hg = get_backend("cpu").device_graph(g)
    matrix, order = hg.scc_matrix()
    n = len(g)
    np.testing.assert_array_equal(np.sort(order), np.arange(n))
    tails = np.repeat(np.arange(n), np.diff(matrix.indptr))
    pairs = list(zip(order[tails].tolist(), order[matrix.indices].tolist()))
    assert len(pairs) == len(set(pairs))
    assert set(pairs) == set(zip(g.edge_sources().tolist(), g.indices.tolist()))
    assert all((np.diff(matrix.indices[a:b]) > 0).all() for a, b in zip(matrix.indptr[:-1], matrix.indptr[1:]))
    degree = (g.in_degree() + g.out_degree())[order]
    assert (np.diff(degree) <= 0).all()


@given(scc_shaped_graphs())
def test_scc_plain_view_breaks_every_repeat(g):
    """The first call's matrix: the reversed arcs in the graph's ids, where no row names a
    vertex other than itself twice in a row (SciPy's Pearce loops forever on that); the
    repeats became self-loops, which change no component."""
    hg = get_backend("cpu").device_graph(g)
    matrix = hg.scc_plain_matrix()
    n = len(g)
    rows = np.repeat(np.arange(n), np.diff(matrix.indptr))
    heads = matrix.indices
    same = (heads[1:] == heads[:-1]) & (rows[1:] == rows[:-1])
    assert (heads[1:][same] == rows[1:][same]).all()
    arcs = set(zip(heads.tolist(), rows.tolist()))
    given_arcs = set(zip(g.edge_sources().tolist(), g.indices.tolist()))
    if not g.directed:
        given_arcs |= {(v, u) for u, v in given_arcs}
    assert given_arcs <= arcs and all(u == v for u, v in arcs - given_arcs)


@given(scc_shaped_graphs())
def test_scc_first_call_plain_then_degree_ordered(g):
    """The first call runs on the plain view, the second builds the degree-ordered one and
    keeps it; every call gives the same labels."""
    hg = get_backend("cpu").device_graph(g)
    first = curnet.scc(g, backend="cpu")
    assert hg._scc is None
    assert np.array_equal(curnet.scc(g, backend="cpu"), first) and hg._scc is not None
    assert np.array_equal(curnet.scc(g, backend="cpu"), first)


def test_scc_parallel_arcs_side_by_side():
    """Rows that name a head three times, and self-loops beside them: the first call ends and
    is right."""
    g = curnet.Graph.from_edges([0, 0, 0, 1, 1, 2, 2, 3, 3], [1, 1, 1, 0, 0, 2, 3, 2, 2], num_vertices=4)
    assert curnet.scc(g, backend="cpu").tolist() == [0, 0, 1, 1]


@given(scc_shaped_graphs())
def test_scc_labels_equal_scipys_and_igraphs(g):
    labels = curnet.scc(g, backend="cpu")
    assert labels.dtype == np.int32
    np.testing.assert_array_equal(labels, oracles.canonical(oracles.scc_partition(g)))
    np.testing.assert_array_equal(labels, oracles.canonical(oracles.igraph_scc_partition(g)))


def test_scc_labels_equal_scipys_and_igraphs_on_rmat():
    for directed in (True, False):
        g = rmat(13, seed=4, directed=directed)
        labels = curnet.scc(g, backend="cpu")
        np.testing.assert_array_equal(labels, oracles.canonical(oracles.scc_partition(g)))
        np.testing.assert_array_equal(labels, oracles.canonical(oracles.igraph_scc_partition(g)))


@given(st.lists(st.integers(0, 12) | st.integers(-3, 2**40), max_size=40))
def test_canonical_labels_numbers_components_by_first_vertex(labels):
    got = canonical_labels(np.array(labels, np.int64))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, oracles.canonical(labels))


def test_scc_of_undirected_graph_is_its_connected_components():
    g = curnet.Graph.from_edges([0, 2, 3], [1, 3, 4], directed=False, num_vertices=6)
    np.testing.assert_array_equal(curnet.scc(g, backend="cpu"), [0, 0, 1, 1, 1, 2])


def test_scc_canonical_numbering():
    g = curnet.Graph.from_edges([3, 4, 1, 0], [4, 3, 0, 1], num_vertices=5)
    np.testing.assert_array_equal(curnet.scc(g, backend="cpu"), [0, 0, 1, 2, 2])


def test_star_with_huge_degree():
    g = star(200_000)
    d = curnet.bfs(g, [0, 1], backend="cpu")
    assert (d[0, 1:] == 1).all() and d[1, 0] == 1 and (d[1, 2:] == 2).all()


def test_bfs_one_writes_into_out():
    """bfs_one's `out` (the one-source public call's route: its (n, 1) block's column): the
    depths written there, every entry, and the same array returned."""
    g = rmat(9, seed=4, directed=True)
    be = get_backend("cpu")
    hg = be.device_graph(g)
    for s, backward in ((0, False), (3, True)):
        block = np.full((len(g), 1), 7, np.int32)
        column = block[:, 0]
        assert be.bfs_one(hg, s, backward, out=column) is column
        np.testing.assert_array_equal(block[:, 0], be.bfs_one(hg, s, backward))
        assert (block[:, 0] == -1).any() and (block[:, 0] != 7).all()


@given(graphs_and_sources(directed=True))
def test_bfs_one_backward_is_bfs_on_the_reversed_graph(gs):
    """SCC's pivot searches: one-source BFS against the arcs equals BFS on the reversed graph."""
    g, sources = gs
    be = get_backend("cpu")
    hg = be.device_graph(g)
    src, dst = g.edge_sources(), g.indices
    reversed_g = curnet.Graph.from_edges(dst, src, directed=True, num_vertices=len(g))
    for s in np.unique(sources)[:5].tolist():
        np.testing.assert_array_equal(be.bfs_one(hg, s, backward=True), oracles.bfs_depths(reversed_g, [s])[0])
        np.testing.assert_array_equal(be.bfs_one(hg, s), oracles.bfs_depths(g, [s])[0])



def test_host_routes_of_the_cuda_backend_are_the_cpu_backends():
    """What the CUDA backend asks of the host for a long-diameter graph (`HostRoutes`: the
    graph's host copy, one-source BFS, whole-batch shortest paths with negative weights, the
    bit padding) shares the CPU backend's graph copy and gives its answers."""
    from curnet.backends.host_routes import HostRoutes
    host, be = HostRoutes(), get_backend("cpu")
    n = 300
    src = np.arange(n - 1)
    g = curnet.Graph.from_edges(src, src + 1, weights=np.where(src % 3 == 0, -1.0, 2.0),
                                directed=True, num_vertices=n)
    hg = host.device_graph(g)
    assert hg is be.device_graph(g)
    ids = np.array([0, 5, 299])
    np.testing.assert_array_equal(host.bfs_one(hg, 5), np.r_[np.full(5, -1), np.arange(n - 5)])
    np.testing.assert_array_equal(host.bfs_one(hg, 5, backward=True), np.r_[5 - np.arange(6), np.full(n - 6, -1)])
    dist, pred = host.shortest_paths_host(hg, ids, True)
    want_dist, want_pred = be.shortest_paths_host(hg, ids, True)
    np.testing.assert_array_equal(dist, want_dist)
    np.testing.assert_array_equal(pred, want_pred)
    step = np.r_[0.0, np.cumsum(np.where(src % 3 == 0, -1.0, 2.0))]
    np.testing.assert_allclose(dist[1, 5:], step[5:] - step[5])
    assert np.isinf(dist[1, :5]).all() and dist[2, 299] == 0 and np.isinf(dist[2, :299]).all()
    for k in (1, 64, 100):
        np.testing.assert_array_equal(host.padding_bits(k), be.padding_bits(k))


@pytest.mark.parametrize("k,directed", [(64, False), (700, True)])
def test_bfs_levels_split_over_threads(monkeypatch, k, directed):
    """A batch's pull levels and depth write cut into vertex ranges over the threads it may
    use (all of them for a lone batch, a share when batches run side by side): same depths."""
    import curnet.backends.cpu.bfs as cpu_bfs
    from curnet import backends
    from curnet.backends.cpu import CPUBackend
    monkeypatch.setattr(cpu_bfs, "SPLIT_ARCS", 64)
    be = CPUBackend(workers=3)
    monkeypatch.setitem(backends._instances, "cpu", be)
    splits = []
    real = be.over_ranges
    monkeypatch.setattr(be, "over_ranges", lambda fn, ranges: splits.append(len(ranges)) or real(fn, ranges))
    g = rmat(12, seed=5, directed=directed)
    sources = np.random.default_rng(k).integers(0, len(g), k)
    np.testing.assert_array_equal(curnet.bfs(g, sources, backend="cpu"), oracles.bfs_depths(g, sources))
    assert max(splits) == (3 if k <= 512 else 1)      # two batches on three threads: one each
