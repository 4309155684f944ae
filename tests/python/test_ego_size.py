"""Ego sizes (curnet.ego_size, R's cuRnet_ego_size) against python-igraph's neighborhood_size
on graphs with self-loops and parallel edges, over several words of sources; and the work
they take: order 0 and 1 count arcs (no traversal), higher orders stop the traversal at the
order's level."""
import numpy as np
import pytest

import curnet
from curnet.algorithms.bfs import bfs_blocks
from curnet.algorithms.sinks import MatrixSink
from curnet.work import count_work

ig = pytest.importorskip("igraph")


def loopy_graph(n, m, directed, seed):
    """A random graph with self-loops and parallel edges added, and the same as igraph's."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    loops = rng.integers(0, n, 10)
    src, dst = np.r_[src, loops, src[:20]], np.r_[dst, loops, dst[:20]]   # loops, parallels
    g = curnet.Graph.from_edges(src, dst, directed=directed, num_vertices=n)
    G = ig.Graph(n=n, edges=np.c_[src, dst].tolist(), directed=directed)
    return g, G


@pytest.mark.parametrize("directed", [False, True])
def test_ego_size_matches_igraph_with_loops_and_parallel_edges(directed):
    g, G = loopy_graph(300, 500, directed, seed=3)      # 300 sources: five words of bits
    for mode in ("all", "out", "in"):
        for order in range(4):
            for mindist in range(order + 1):
                got = curnet.ego_size(g, order=order, mode=mode, mindist=mindist, backend="cpu")
                assert got.tolist() == G.neighborhood_size(order=order, mode=mode, mindist=mindist), \
                    (mode, order, mindist)
    picked = [299, 4, 4, 17]
    for order in (1, 2):
        assert curnet.ego_size(g, picked, order=order, mode="out", backend="cpu").tolist() == \
            G.neighborhood_size(picked, order=order, mode="out")


def test_ego_size_on_names_and_an_empty_graph():
    g = curnet.Graph.from_edges(["a", "b", "b"], ["b", "b", "c"], directed=True)
    assert curnet.ego_size(g, ["c", "a"], order=1, mode="in", backend="cpu").tolist() == [2, 1]
    assert curnet.ego_size(g, order=1, mode="all", mindist=1, backend="cpu").tolist() == [1, 2, 1]
    empty = curnet.Graph.from_edges([], [], num_vertices=0)
    assert curnet.ego_size(empty, order=1, backend="cpu").tolist() == []
    assert curnet.ego_size(empty, order=2, backend="cpu").tolist() == []
    with pytest.raises(ValueError, match="unknown backend|backend"):
        curnet.ego_size(g, order=1, backend="nonsense")


def test_orders_0_and_1_count_arcs_without_a_traversal():
    g, _ = loopy_graph(2000, 6000, False, seed=5)
    with count_work() as work:
        curnet.ego_size(g, order=1, backend="cpu")
        curnet.ego_size(g, order=0, backend="cpu")
    assert work["bfs joint levels"] == 0 and work["bfs one-source runs"] == 0


def test_higher_orders_stop_at_their_level():
    """On a path of 400 vertices a full traversal takes hundreds of levels a batch; order 2
    takes two (a batch of sources a level, not a vertex)."""
    n = 400
    g = curnet.Graph.from_edges(np.arange(n - 1), np.arange(1, n), directed=False)
    with count_work() as work:
        got = curnet.ego_size(g, order=2, backend="cpu")
    assert got.tolist() == [3] + [4] + [5] * (n - 4) + [4, 3]
    assert 0 < work["bfs joint levels"] < 20     # two levels a batch of sources
    assert work["bfs one-source runs"] == 0


def test_a_stopped_traversal_writes_the_levels_it_reached():
    """bfs_blocks(max_depth=d): depths up to d as the full traversal's, the rest unreachable."""
    g, _ = loopy_graph(150, 200, True, seed=9)
    sources = np.arange(0, 150, 2)
    full = curnet.bfs(g, sources, backend="cpu")
    for d in (1, 2, 3):
        out = np.empty((len(sources), len(g)), np.int32)
        bfs_blocks(g, sources, MatrixSink(out), backend="cpu", max_depth=d)
        assert np.array_equal(out, np.where(full <= d, full, -1)), d
