"""CI: `arrays.tight_predecessors`, the NumPy twin of the float64 near-far predecessor kernels
(kernels/sssp.cu nf_pred_*), on SciPy's Dijkstra distances: exact, acyclic predecessors on
graphs with ties, zero weights and weights lost to rounding (test_gpu.py compares the kernels
with it on the same graphs)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csgraph

import oracles
from curnet.backends.arrays import tight_predecessors
from oracles import check_preds_exact, f64_graph


def twin(g, ids, dist):
    return tight_predecessors(dist, ids, g.edge_sources(), g.indices, g.weights)


def smallest_tight_tails(g, ids, dist):
    """Brute force: per reached non-source vertex, the smallest tail of an arc attaining it."""
    out = np.full(dist.shape, -1, np.int32)
    tails, heads, w = g.edge_sources(), g.indices, g.weights
    for r, s in enumerate(ids):
        for u, v, x in zip(tails.tolist(), heads.tolist(), w.tolist()):
            if v != s and np.isfinite(dist[r, u]) and dist[r, u] + x == dist[r, v]:
                out[r, v] = u if out[r, v] < 0 else min(out[r, v], u)
    return out


@pytest.mark.parametrize("kind", ["real", "ties", "zeros", "tiny"])
@pytest.mark.parametrize("directed", [True, False])
def test_exact_and_acyclic_on_dijkstra_distances(kind, directed):
    for seed, (n, m, kb) in enumerate([(300, 2400, 3), (800, 1000, 2), (60, 900, 4)]):
        rng = np.random.default_rng(40 + seed)
        g = f64_graph(rng, n, m, directed=directed, kind=kind)
        ids = rng.integers(0, n, kb)
        dist = csgraph.dijkstra(oracles.scipy_matrix(g), directed=True, indices=ids)
        pred = twin(g, ids, dist)
        check_preds_exact(g, ids, dist, pred)
        if kind in ("real", "ties"):        # every tight arc lengthens: the smallest tight tail
            assert np.array_equal(pred, smallest_tight_tails(g, ids, dist))


def test_zero_weight_ties_are_adopted_along_chains():
    """0 -> 1 (w 1), 1 -> 2 (w 0), 2 -> 3 (w 0), 3 -> 2 (w 0), 4 -> 3 (w 0), 4 unreached:
    2 and 3 tie with 1 and are reached only by zero weights; 3 -> 2 and 2 -> 3 must not both
    become predecessors (a cycle), and 3 must not take the unreached 4."""
    from curnet.graph import Graph
    g = Graph.from_edges([0, 1, 2, 3, 4], [1, 2, 3, 2, 3], [1.0, 0.0, 0.0, 0.0, 0.0], num_vertices=5,
                         dtype=np.float64)
    dist = np.array([[0.0, 1.0, 1.0, 1.0, np.inf]])
    assert twin(g, [0], dist).tolist() == [[-1, 0, 1, 2, -1]]


def test_rounded_away_weight():
    """1 + 1e-20 == 1: vertex 2 ties with its tail 1 through a positive weight."""
    from curnet.graph import Graph
    g = Graph.from_edges([0, 1, 2], [1, 2, 1], [1.0, 1e-20, 1e-20], num_vertices=3, dtype=np.float64)
    dist = csgraph.dijkstra(oracles.scipy_matrix(g), directed=True, indices=[0])
    assert dist.tolist() == [[0.0, 1.0, 1.0]]
    assert twin(g, [0], dist).tolist() == [[-1, 0, 1]]


def test_not_shortest_distances_are_refused():
    from curnet.graph import Graph
    g = Graph.from_edges([0], [1], [1.0], num_vertices=2, dtype=np.float64)
    with pytest.raises(ValueError, match="attain their distance"):
        twin(g, [0], np.array([[0.0, 2.0]]))
