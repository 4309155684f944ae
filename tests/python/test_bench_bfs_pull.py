"""bench.bfs_pull_candidates: the model of the bottom-up levels' work, on a graph counted by hand."""
import numpy as np

from bench.bfs_pull_candidates import bottom_up_levels


def test_a_star_from_a_leaf_every_level_bottom_up():
    # a star (centre 0, leaves 1-5) and two isolated vertices; from leaf 1 with every level
    # bottom-up: the 6 vertices with arcs, then the 4 other leaves, then none
    deg = np.array([5, 1, 1, 1, 1, 1, 0, 0])
    depth = np.array([1, 0, 2, 2, 2, 2, -1, -1])
    assert bottom_up_levels(deg, depth, 1, m=10, alpha=10**6, beta=10**6) == [(1, 8, 6), (2, 8, 4), (3, 8, 0)]


def test_top_down_levels_are_not_counted():
    deg = np.array([5, 1, 1, 1, 1, 1, 0, 0])
    depth = np.array([1, 0, 2, 2, 2, 2, -1, -1])
    assert bottom_up_levels(deg, depth, 1, m=10, alpha=1, beta=1) == []
