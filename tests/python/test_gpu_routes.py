"""CI (no GPU needed): the shortest-path route a GPU batch takes (backends/gpu_routes.py,
what CUDABackend.sssp_method asks): near-far for non-negative weights in both precisions,
Bellman-Ford for negative weights and for float32 predecessors over zero weights."""
from __future__ import annotations

import numpy as np
import pytest

from curnet.backends.gpu_routes import near_far_suits
from curnet.graph import Graph


def suits(g, kb=4, with_pred=True, max_sources=4096):
    return near_far_suits(g.weight_dtype, g.min_weight, len(g), len(g.indices), kb, with_pred, max_sources)


def graph(weights, dtype):
    return Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], weights, num_vertices=4, dtype=dtype)


@pytest.mark.parametrize("with_pred", [True, False])
def test_float64_non_negative_takes_near_far(with_pred):
    assert suits(graph([0.5, 1.0, 2.0, 0.25], np.float64), with_pred=with_pred)
    assert suits(graph([0.0, 1.0, 0.0, 0.25], np.float64), with_pred=with_pred)   # zero weights too


def test_float64_from_r_takes_near_far():
    """The graphs R hands over (r_bridge.graphs.graph_from_arrow, double precision by default)."""
    pa = pytest.importorskip("pyarrow")
    from curnet.r_bridge import graphs
    rng = np.random.default_rng(3)
    s, d = pa.array(rng.integers(0, 50, 400).astype(np.int32)), pa.array(rng.integers(0, 50, 400).astype(np.int32))
    g = graphs.graph_from_arrow(s, d, pa.array(rng.uniform(0.1, 1.0, 400)), False, 50)
    assert g.weight_dtype == np.float64 and suits(g, kb=10)


def test_float32_rules_unchanged():
    assert suits(graph([0.5, 1.0, 2.0, 0.25], np.float32), with_pred=True)
    zero = graph([0.0, 1.0, 2.0, 0.25], np.float32)
    assert suits(zero, with_pred=False) and not suits(zero, with_pred=True)
    assert suits(Graph.from_edges([0, 1], [1, 2]), with_pred=True)     # unweighted: hop counts


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_negative_weights_and_limits_take_bellman_ford(dtype):
    neg = graph([0.5, -1.0, 2.0, 0.25], dtype)
    assert not suits(neg, with_pred=True) and not suits(neg, with_pred=False)
    ok = graph([0.5, 1.0, 2.0, 0.25], dtype)
    assert not suits(ok, kb=5, max_sources=4)                               # too many sources
    assert not near_far_suits(dtype, 1.0, 4, 0, 1, False, 4096)             # no arcs
    assert not near_far_suits(dtype, 1.0, 2**20, 10, 2**11, False, 4096)    # entries past 2^31
    assert near_far_suits(dtype, 1.0, 2**20, 10, 2**11 - 1, False, 4096)
