"""Twin sources folded into one column (algorithms/betweenness/twins.py) on the CPU backend:
betweenness against NetworkX on random graphs with many twins (complete bipartite pieces,
cliques, stars of paths, copied neighbourhoods, leaves), all sources and source/target subsets,
normalized or not; raw sums with repeated sources, target weights and parallel edges against
the same graph given as directed arcs both ways (nothing folded there); the paths that do not
fold (weights, a cutoff, endpoints, edges) still exact; the traversals saved counted."""
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import curnet
from curnet.algorithms.betweenness.driver import brandes_sums
from curnet.algorithms.betweenness import twins
from curnet.algorithms.betweenness.twins import twin_classes
from curnet.work import count_work
from twin_graphs import as_graphs, simple, slow_twin_classes, twin_graph


@st.composite
def twin_cases(draw, multi=True):
    """twin_graph's cases; without `multi`, simple (NetworkX's view of them)."""
    case = twin_graph(lambda lo, hi: draw(st.integers(lo, hi)))
    return case if multi else simple(case)


def same(got, expected):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(expected, float), rtol=1e-9, atol=1e-9)


def columns_folded(classes, sources) -> int:
    """The columns a twin class saves: one fewer than its members among the sources."""
    chosen = set(sources)
    return sum(max(len(chosen.intersection(c)) - 1, 0) for c in classes)


@settings(max_examples=40, deadline=None)
@given(twin_cases(), st.booleans())
def test_classes_are_the_vertices_with_the_same_neighbours(case, _):
    g, _ = as_graphs(case)
    rep = twin_classes(g).representative
    found = sorted(sorted(np.flatnonzero(rep == r).tolist()) for r in np.unique(rep) if (rep == r).sum() > 1)
    assert found == sorted(sorted(c) for c in slow_twin_classes(case))


@settings(max_examples=40, deadline=None)
@given(twin_cases())
def test_colliding_keys_find_no_false_class(case):
    """With every key sum equal (keys of 0 bits), vertices of the same degree and neighbour
    range share a group: the neighbour lists compared still keep every class found true."""
    g, _ = as_graphs(case)
    saved = twins.KEY_BITS
    twins.KEY_BITS = 0
    try:
        rep = twins._twin_classes(g).representative
    finally:
        twins.KEY_BITS = saved
    true = {v: frozenset(c) for c in slow_twin_classes(case) for v in c}
    for v in np.flatnonzero(rep != np.arange(len(g))):
        assert v in true and rep[v] in true[v]


@settings(max_examples=40, deadline=None)
@given(twin_cases(multi=False), st.booleans())
def test_all_sources_match_networkx_with_fewer_traversals(case, normalized):
    g, G = as_graphs(case)
    n = len(g)
    with count_work() as work:
        got = curnet.betweenness(g, normalized=normalized, backend="cpu")
    expected = nx.betweenness_centrality(G, normalized=normalized)
    same(got, [expected[v] for v in range(n)])
    folded = columns_folded(slow_twin_classes(case), range(n))
    assert folded > 0 and work["betweenness twin columns folded"] == folded


@settings(max_examples=40, deadline=None)
@given(twin_cases(multi=False), st.data())
def test_subsets_match_networkx(case, data):
    """Sources with some of a class's members only (or its representative not among them), and
    target subsets: an apart class's sources then differ by the targets among the twins. One
    class is among the sources whole, so something is folded."""
    g, G = as_graphs(case)
    n = len(g)
    whole = slow_twin_classes(case)[0]
    drawn = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    sources = drawn + [v for v in whole if v not in drawn]
    targets = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    with count_work() as work:
        got = curnet.betweenness(g, sources=sources, targets=targets, backend="cpu")
    expected = nx.betweenness_centrality_subset(G, sources, targets)
    same(got, [expected[v] for v in range(n)])
    folded = columns_folded(slow_twin_classes(case), sources)
    assert folded > 0 and work["betweenness twin columns folded"] == folded


@settings(max_examples=40, deadline=None)
@given(twin_cases(), st.data())
def test_repeated_sources_and_target_weights_as_on_directed_arcs(case, data):
    """Raw sums over sources with repeats (each counts again), target weights and parallel
    edges (twins with the same repeats of each neighbour) equal those of the same graph given
    as directed arcs both ways, where nothing is folded."""
    n, src, dst = case
    g, _ = as_graphs(case)
    arcs = curnet.Graph.from_edges(np.r_[src, dst], np.r_[dst, src], directed=True, num_vertices=n)
    ids = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2 * n)), np.int32)
    weight = np.array(data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.5]), min_size=n, max_size=n)))
    ours, _ = brandes_sums(g, ids, weighted=False, target_weight=weight, backend="cpu")
    theirs, _ = brandes_sums(arcs, ids, weighted=False, target_weight=weight, backend="cpu")
    same(ours, theirs)


@settings(max_examples=25, deadline=None)
@given(twin_cases(multi=False), st.data())
def test_paths_that_do_not_fold_stay_exact(case, data):
    """Equal weights, endpoints and edges against NetworkX, a cutoff against igraph: none of
    them folds twins."""
    ig = pytest.importorskip("igraph")
    g, G = as_graphs(case)
    n = len(g)
    _, u, v = case
    weighted = curnet.Graph.from_edges(u, v, np.full(len(u), 2.0), directed=False, num_vertices=n)
    nx.set_edge_attributes(G, 2.0, "weight")
    with count_work() as work:
        same(curnet.betweenness(weighted, backend="cpu"),
             [nx.betweenness_centrality(G, normalized=False, weight="weight")[v] for v in range(n)])
        same(curnet.betweenness(g, endpoints=True, backend="cpu"),
             [nx.betweenness_centrality(G, normalized=False, endpoints=True)[v] for v in range(n)])
        eb = nx.edge_betweenness_centrality(G, normalized=False)
        same(curnet.edge_betweenness(g, backend="cpu"),
             [eb[(a, b)] if (a, b) in eb else eb[(b, a)] for a, b in zip(u.tolist(), v.tolist())])
        cutoff = data.draw(st.integers(1, 3))
        H = ig.Graph(n=n, edges=list(zip(u.tolist(), v.tolist())))
        same(curnet.betweenness(g, cutoff=cutoff, backend="cpu"), H.betweenness(cutoff=cutoff))
    assert work["betweenness twin columns folded"] == 0
