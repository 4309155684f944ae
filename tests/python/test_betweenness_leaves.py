"""Leaf sources folded into their neighbour's column (algorithms/betweenness/graph_reductions.py, LeafFold), and
leaf targets left out of the traversals (their weight carried by their anchor), on
undirected graphs: betweenness against python-igraph and NetworkX on random graphs with many
leaves (parallel edges and self-loops at the leaves, integer weights with ties, several
components, isolated vertices), source and target subsets, sampled sources; the traversals
saved counted, one a leaf source."""
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import curnet
from curnet.algorithms.betweenness.driver import brandes_sums
from curnet.algorithms.betweenness.graph_reductions import busiest_first, induced, leaf_anchors, without_leaves
from curnet.work import count_work

ig = pytest.importorskip("igraph")


@st.composite
def leafy_graphs(draw, max_core=10, max_leaves=12):
    """(n, src, dst, integer weights 1..3): a random core (loops and repeats too), leaves
    hung on core vertices or on other leaves (chains, lone edges), some leaves with parallel
    edges to their neighbour or a self-loop, vertices without edges at the end."""
    core = draw(st.integers(1, max_core))
    m = draw(st.integers(0, 2 * core))
    src = draw(st.lists(st.integers(0, core - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, core - 1), min_size=m, max_size=m))
    n = core
    for _ in range(draw(st.integers(0, max_leaves))):
        to = draw(st.integers(0, n - 1))
        src.append(n)
        dst.append(to)
        extra = draw(st.sampled_from(["", "", "parallel", "loop"]))
        if extra == "parallel":
            src.append(to)
            dst.append(n)
        elif extra == "loop":
            src.append(n)
            dst.append(n)
        n += 1
    n += draw(st.integers(0, 2))
    w = draw(st.lists(st.integers(1, 3), min_size=len(src), max_size=len(src)))
    return n, np.array(src, np.int64), np.array(dst, np.int64), np.array(w, float)


def build(case):
    n, src, dst, w = case
    g = curnet.Graph.from_edges(src, dst, w, directed=False, num_vertices=n, dtype=np.float64)
    G = ig.Graph(n=n, edges=list(zip(src.tolist(), dst.tolist())), directed=False)
    return g, G, w.tolist()


def same(got, expected):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(expected, float), rtol=1e-9, atol=1e-9)


def neighbours(G, v):
    return set(G.neighbors(v)) - {v}


def expected_work(G, sources):
    """(leaf sources folded, sources traversed), from igraph's neighbour lists: a source with
    one neighbour is folded (a lone edge's ends with it); the others that have a neighbour are
    traversed once each, and so is each neighbour of a folded leaf that is not a leaf itself."""
    leaf = {v for v in range(G.vcount()) if len(neighbours(G, v)) == 1}
    folded = sum(1 for s in sources if s in leaf)
    columns = {s for s in sources if s not in leaf and neighbours(G, s)}
    columns |= {u for s in sources if s in leaf for u in neighbours(G, s) if u not in leaf}
    return folded, len(columns)


@settings(max_examples=60, deadline=None)
@given(leafy_graphs(), st.booleans(), st.booleans())
def test_all_sources_match_igraph_with_fewer_traversals(case, weighted, normalized):
    g, G, w = build(case)
    n = len(g)
    with count_work() as work:
        got = curnet.betweenness(g, weighted=weighted, normalized=normalized, backend="cpu")
    expected = np.asarray(G.betweenness(weights=w if weighted else None), float)
    if normalized and n > 2:
        expected = expected / ((n - 1) * (n - 2) / 2)
    same(got, expected)
    folded, traversed = expected_work(G, range(n))
    assert work["betweenness leaf sources folded"] == folded
    # twins (test_betweenness_twins.py) save their own columns on top
    assert work["betweenness sources traversed"] + work["betweenness twin columns folded"] == traversed
    # every vertex with an edge was traversed before: the leaves are no longer
    assert traversed <= int((np.diff(g.indptr) > 0).sum()) - folded


@settings(max_examples=60, deadline=None)
@given(leafy_graphs(), st.booleans(), st.data())
def test_subsets_match_igraph(case, weighted, data):
    """Sources without their leaves' neighbours (those are traversed as anchors only), and
    target subsets (the anchor's own dependency counts the targets it reaches)."""
    g, G, w = build(case)
    n = len(g)
    sources = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    targets = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    with count_work() as work:
        got = curnet.betweenness(g, weighted=weighted, sources=sources, targets=targets, backend="cpu")
    same(got, G.betweenness(weights=w if weighted else None, sources=sources, targets=targets))
    assert (work["betweenness leaf sources folded"],
            work["betweenness sources traversed"] + work["betweenness twin columns folded"]) == expected_work(G, sources)


@settings(max_examples=40, deadline=None)
@given(leafy_graphs(), st.booleans(), st.data())
def test_repeated_sources_and_targets_as_on_directed_arcs(case, weighted, data):
    """Raw sums over sources with repeats (each counts again) and target weights equal those
    of the same graph given as directed arcs both ways, where nothing is folded."""
    n, src, dst, w = case
    g, _, _ = build(case)
    arcs = curnet.Graph.from_edges(np.r_[src, dst], np.r_[dst, src], np.r_[w, w], directed=True,
                                   num_vertices=n, dtype=np.float64)
    ids = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2 * n)), np.int32)
    target_weight = np.array(data.draw(st.lists(st.sampled_from([0.0, 1.0]), min_size=n, max_size=n)))
    with count_work() as work:
        ours, _ = brandes_sums(g, ids, weighted=weighted, target_weight=target_weight, backend="cpu")
    theirs, _ = brandes_sums(arcs, ids, weighted=weighted, target_weight=target_weight, backend="cpu")
    same(ours, theirs)
    assert work["betweenness sources traversed"] <= len(np.unique(ids))


@settings(max_examples=40, deadline=None)
@given(leafy_graphs(), st.booleans(), st.booleans(), st.data())
def test_simple_graphs_match_networkx(case, weighted, normalized, data):
    n, src, dst, w = case
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if not G.has_edge(u, v):
            G.add_edge(u, v, weight=x)
    u, v = (np.array(x, np.int64) for x in zip(*G.edges())) if G.number_of_edges() else ([], [])
    g = curnet.Graph.from_edges(u, v, [G.edges[e]["weight"] for e in G.edges()], directed=False,
                                num_vertices=n, dtype=np.float64)
    weight = "weight" if weighted else None
    expected = nx.betweenness_centrality(G, normalized=normalized, weight=weight)
    same(curnet.betweenness(g, weighted=weighted, normalized=normalized, backend="cpu"),
         [expected[i] for i in range(n)])
    sources = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    targets = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    expected = nx.betweenness_centrality_subset(G, sources, targets, normalized=normalized, weight=weight)
    same(curnet.betweenness(g, weighted=weighted, normalized=normalized, sources=sources,
                            targets=targets, backend="cpu"), [expected[i] for i in range(n)])


@settings(max_examples=30, deadline=None)
@given(leafy_graphs(), st.booleans(), st.integers(0, 2**32 - 1))
def test_sampled_sources_exact_at_n(case, normalized, seed):
    g, G, w = build(case)
    n = len(g)
    expected = np.asarray(G.betweenness(weights=w), float)
    if normalized and n > 2:
        expected = expected / ((n - 1) * (n - 2) / 2)
    same(curnet.betweenness(g, k=n, seed=seed, normalized=normalized, backend="cpu"), expected)
    half = curnet.betweenness(g, k=max(1, n // 2), seed=seed, backend="cpu")
    np.testing.assert_array_equal(half, curnet.betweenness(g, k=max(1, n // 2), seed=seed, backend="cpu"))


def test_star_traverses_its_centre_only():
    """Every leaf of a 50-leaf star is folded into the centre: one traversal, C(50, 2) pairs
    through the centre; a leaf alone as source needs the centre traversed, not itself."""
    g = curnet.Graph.from_edges(np.zeros(50, np.int64), np.arange(1, 51), directed=False)
    with count_work() as work:
        got = curnet.betweenness(g, backend="cpu")
    assert got.tolist() == [50 * 49 / 2] + [0.0] * 50
    assert work["betweenness sources traversed"] == 1 and work["betweenness leaf sources folded"] == 50
    assert work["betweenness rows"] == 1          # the leaves are no targets either: the centre alone
    assert work["bfs joint levels"] <= 3
    with count_work() as work:
        got = curnet.betweenness(g, sources=[7], backend="cpu")
    assert got.tolist() == [49 / 2] + [0.0] * 50         # 7's paths to the 49 other leaves, halved
    assert work["betweenness sources traversed"] == 1


def test_path_folds_its_two_ends():
    g = curnet.Graph.from_edges(np.arange(11), np.arange(1, 12), directed=False)
    with count_work() as work:
        got = curnet.betweenness(g, backend="cpu")
    theirs = nx.betweenness_centrality(nx.path_graph(12), normalized=False)
    same(got, [theirs[v] for v in range(12)])
    assert work["betweenness sources traversed"] == 10 and work["betweenness leaf sources folded"] == 2
    assert work["betweenness rows"] == 10


def test_not_folded_where_a_leaf_is_not_its_neighbours_twin():
    """Directed paths, a cutoff, endpoints and edge betweenness traverse every leaf source."""
    g = curnet.Graph.from_edges(np.zeros(6, np.int64), np.arange(1, 7), directed=False)
    d = curnet.Graph.from_edges(np.zeros(6, np.int64), np.arange(1, 7), directed=True)
    for run in (lambda: curnet.betweenness(g, cutoff=1, backend="cpu"),
                lambda: curnet.betweenness(g, endpoints=True, backend="cpu"),
                lambda: curnet.edge_betweenness(g, backend="cpu"),
                lambda: curnet.betweenness(d, backend="cpu")):
        with count_work() as work:
            run()
        assert work["betweenness leaf sources folded"] == 0 and work["betweenness rows"] == 7
    with count_work() as work:
        curnet.betweenness(d, directed=False, backend="cpu")     # directions ignored: folded
    assert work["betweenness leaf sources folded"] == 6


def test_leaf_anchors():
    # 0-1 with a parallel pair and a loop at 1: 1's anchor is 0; 2 has loops only; 3 nothing;
    # 0 has 1 and 4; 4's anchor is 0
    g = curnet.Graph.from_edges([0, 1, 1, 2, 2, 0], [1, 0, 1, 2, 2, 4], directed=False, num_vertices=5)
    assert leaf_anchors(g).tolist() == [-1, 0, -2, -2, 0]


@settings(max_examples=40, deadline=None)
@given(leafy_graphs(), st.booleans())
def test_traversed_graph_is_the_core_busiest_first(graph, weighted):
    """without_leaves: the graph less its leaves, vertex kept[i] its vertex i, kept in order of
    arcs to one another, most first (ties in id order); induced keeps each arc between kept
    vertices, with its weight, for any order of kept."""
    n, src, dst, w = graph
    g = curnet.Graph.from_edges(src, dst, w if weighted else None, directed=False, num_vertices=n)
    core, kept = without_leaves(g)
    assert sorted(kept.tolist()) == np.flatnonzero(leaf_anchors(g) < 0).tolist()
    inner = np.diff(core.indptr)
    assert all((a, -b) >= (c, -d) for a, b, c, d in zip(inner, kept, inner[1:], kept[1:]))
    assert busiest_first(g, np.sort(kept)).tolist() == kept.tolist()
    for order in (kept, np.random.default_rng(n).permutation(kept)):
        h, _ = induced(g, order)
        inside = np.isin(g.edge_sources(), order) & np.isin(g.indices, order)
        got = sorted(zip(order[h.edge_sources()].tolist(), order[h.indices].tolist(),
                         (h.weights if weighted else np.ones(h.num_arcs)).tolist()))
        want = sorted(zip(g.edge_sources()[inside].tolist(), g.indices[inside].tolist(),
                          (g.weights[inside] if weighted else np.ones(int(inside.sum()))).tolist()))
        assert got == want


@pytest.mark.parametrize("size", [5, 16, 64])
def test_chunks_in_chunk_order_fold_their_own_leaves(size):
    """Contiguous chunks of chunk_order (Dask's chunks, the two-process row) sum to the whole
    and traverse each column once, as the whole run does, but where a chunk's end cuts a
    neighbour's leaves apart (once at most a cut): each leaf sits right after its neighbour,
    and the sources that reach nothing (isolated vertices here) are left out. Chunks in id
    order traverse neighbours again for leaves another chunk holds."""
    from curnet import generators
    from curnet.algorithms.betweenness.graph_reductions import fold_leaf_sources
    from curnet.algorithms.betweenness.source_order import breadth_first_rank, chunk_order
    g = generators.rmat(9, edge_factor=2, seed=3)
    ids = np.arange(len(g), dtype=np.int32)
    ordered = chunk_order(g, ids, fold=True)
    assert np.array_equal(np.sort(ordered), ids[np.diff(g.indptr) > 0])
    with count_work() as work:
        whole, _ = brandes_sums(g, ids, weighted=False, backend="cpu")
    once = work["betweenness sources traversed"]

    def chunked(order):
        with count_work() as work:
            sums = sum(brandes_sums(g, order[a:a + size], weighted=False, backend="cpu")[0]
                       for a in range(0, len(order), size))
        return sums, work["betweenness sources traversed"]
    sums, traversed = chunked(ordered)
    np.testing.assert_allclose(sums, whole, rtol=1e-9)
    # the columns a chunk traverses keep its breadth-first order (its batches hold neighbours)
    rank = breadth_first_rank(g)
    for a in range(0, len(ordered), size):
        columns, _ = fold_leaf_sources(g, ordered[a:a + size], np.ones(len(g)))
        assert np.all(np.diff(rank[columns]) > 0)
    cuts = -(-len(ordered) // size) - 1
    assert once <= traversed <= once + cuts
    assert chunked(ids)[1] > once + cuts


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("directed", [False, True])
def test_components_are_scipy_s_weak_components(seed, directed):
    """The leaf fold's components (NumPy, no SciPy on betweenness's path) are SciPy's weak
    components, numbered as SciPy numbers them: many small pieces, isolated vertices, loops,
    parallel arcs, and a long path in shuffled ids (the hooks' slowest case)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components
    from curnet.algorithms.betweenness.graph_reductions import components
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    src, dst = rng.integers(0, n, (2, int(rng.integers(0, n)))).astype(np.int32)
    path = rng.permutation(n).astype(np.int32)
    src, dst = np.r_[src, path[:-1][: n // 3]], np.r_[dst, path[1:][: n // 3]]
    g = curnet.Graph.from_edges(src, dst, directed=directed, num_vertices=n)
    adj = csr_matrix((np.ones(g.num_arcs), g.indices, g.indptr), shape=(n, n))
    count, oracle = connected_components(adj, directed=True, connection="weak")
    got = components(g)
    assert got.dtype == oracle.dtype and np.array_equal(got, oracle)
    assert got.max() + 1 == count


@pytest.mark.parametrize("hub_id", ["largest", "smallest"])
def test_components_hook_a_hub_s_leaves_in_few_rounds(hub_id):
    """A star of 20,000 leaves: with the hub's id above every leaf's, hooking any one root a
    round took one leaf a round; hooking the smallest takes at most two rounds. A shuffled path
    of 20,000 vertices stays within twice log2(n) rounds. Labels equal SciPy's."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components
    from curnet.algorithms.common import hooked_labels
    k = 20_000
    hub = k if hub_id == "largest" else 0
    leaves = np.arange(k + 1, dtype=np.int32)
    leaves = leaves[leaves != hub]
    path = np.random.default_rng(1).permutation(k).astype(np.int32)
    for n, tails, heads, bound in [(k + 1, leaves, np.full(k, hub, np.int32), 2),
                                   (k, path[:-1], path[1:], 2 * int(np.log2(k)))]:
        both = np.r_[tails, heads], np.r_[heads, tails]
        labels, rounds = hooked_labels(n, *both)
        assert 1 <= rounds <= bound
        adj = csr_matrix((np.ones(len(both[0])), both), shape=(n, n))
        assert np.array_equal(labels, connected_components(adj, connection="weak")[1])
