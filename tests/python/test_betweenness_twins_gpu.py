"""Twin sources folded into one column (algorithms/betweenness/twins.py) on backend "cuda":
the comparisons of test_betweenness_twins.py on seeded random graphs with many twins, against
NetworkX and against the same graph as directed arcs both ways (nothing folded there), and the
same columns traversed as on the CPU. Marked `gpu` (no Hypothesis: a GPU machine may lack it)."""
from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import curnet
from curnet.algorithms.betweenness.driver import brandes_sums
from curnet.backends import cuda_available
from curnet.work import count_work
from twin_graphs import as_graphs, simple, slow_twin_classes, twin_graph

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


def drawn(seed):
    rng = np.random.default_rng(seed)
    return rng, twin_graph(lambda lo, hi: int(rng.integers(lo, hi + 1)))


def same(got, expected):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(expected, float), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("seed", range(12))
def test_twins_on_the_gpu_match_networkx(seed):
    rng, case = drawn(seed)
    case = simple(case)
    g, G = as_graphs(case)
    n = len(g)
    for normalized in (False, True):
        with count_work() as on_gpu:
            got = curnet.betweenness(g, normalized=normalized, backend="cuda")
        expected = nx.betweenness_centrality(G, normalized=normalized)
        same(got, [expected[v] for v in range(n)])
        folded = sum(len(c) - 1 for c in slow_twin_classes(case))
        assert folded > 0 and on_gpu["betweenness twin columns folded"] == folded
    sources = rng.choice(n, int(rng.integers(1, n + 1)), replace=False).tolist()
    targets = rng.choice(n, int(rng.integers(1, n + 1)), replace=False).tolist()
    with count_work() as on_gpu:
        got = curnet.betweenness(g, sources=sources, targets=targets, backend="cuda")
    expected = nx.betweenness_centrality_subset(G, sources, targets)
    same(got, [expected[v] for v in range(n)])
    with count_work() as on_cpu:
        curnet.betweenness(g, sources=sources, targets=targets, backend="cpu")
    assert on_gpu["betweenness sources traversed"] == on_cpu["betweenness sources traversed"]


@pytest.mark.parametrize("seed", range(12))
def test_twins_on_the_gpu_with_repeats_and_target_weights(seed):
    """Parallel edges, repeated sources and target weights: the sums as on directed arcs."""
    rng, case = drawn(100 + seed)
    n, src, dst = case
    g, _ = as_graphs(case)
    arcs = curnet.Graph.from_edges(np.r_[src, dst], np.r_[dst, src], directed=True, num_vertices=n)
    ids = rng.integers(0, n, 2 * n).astype(np.int32)
    weight = rng.choice([0.0, 1.0, 2.5], n)
    ours, _ = brandes_sums(g, ids, weighted=False, target_weight=weight, backend="cuda")
    theirs, _ = brandes_sums(arcs, ids, weighted=False, target_weight=weight, backend="cpu")
    same(ours, theirs)
