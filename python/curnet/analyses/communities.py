"""Girvan–Newman's divisive communities (igraph's cluster_edge_betweenness): remove the edge of
highest edge betweenness, recompute, repeat until no edge is left. The engine gives the removal
order and each removed edge's betweenness (the loop: `algorithms/girvan_newman.py`); the
dendrogram and modularity follow from them, replayed as igraph replays them (`girvan_newman`;
R's cuRnet_cluster_edge_betweenness replays them in R)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms.girvan_newman import edge_removals
from ..graph import Graph
from ..options import uses_positive_weights


def edge_betweenness_removals(g: Graph, *, directed=True, weighted=None, backend="auto", progress=None):
    """(removed edge ids in removal order, each one's edge betweenness when it was removed).

    Each step recomputes the edge betweenness of the component the last removed edge was in
    (the others' values do not change) and removes the first edge of the largest value: values
    within rounding (`tie_tolerance`) of each other are a tie, broken by the lowest edge id.
    That is igraph's edge wherever the exact values decide; on a true tie igraph takes whichever
    tied edge its own rounding makes largest, so the order, and from there the dendrogram, may
    differ (see `girvan_newman`).
    `directed` False walks a directed graph's edges both ways (igraph's `directed`);
    `weighted` None uses the graph's weights if it has any (lengths: they must be positive)."""
    return _removals(g, directed, _uses_lengths(g, weighted), backend, progress)


def _uses_lengths(g: Graph, weighted) -> bool:
    """Whether Girvan–Newman reads g's weights: decided once a call, as lengths (positive) for
    the betweenness and, in `girvan_newman`, as similarities for the modularity alike."""
    if not isinstance(g, Graph):
        raise TypeError(f"g must be a curnet.Graph, got {type(g).__name__}")
    return uses_positive_weights(g, weighted, "edge betweenness")


def _removals(g: Graph, directed, use_weights: bool, backend, progress):
    return edge_removals(g, paths_directed=g.directed and bool(directed), weighted=use_weights,
                         backend=backend, progress=progress)


@dataclass
class GirvanNewman:
    """igraph's cluster_edge_betweenness result, 0-based: `removed` edge ids in removal order
    and their `edge_betweenness` when removed; `merges` (k, 2) cluster ids (the vertices are
    clusters 0..n-1, merge i makes cluster n + i), `bridges` the positions in `removed` of the
    edges whose removal split a cluster, `modularity` before each merge (k + 1 values: all
    vertices apart first), `membership` the division of highest modularity (the first such),
    clusters numbered by first appearance."""
    removed: np.ndarray
    edge_betweenness: np.ndarray
    merges: np.ndarray
    bridges: np.ndarray
    modularity: np.ndarray
    membership: np.ndarray


def girvan_newman(g: Graph, *, directed=True, weighted=None, backend="auto", progress=None) -> GirvanNewman:
    """Girvan–Newman communities, as igraph's ``cluster_edge_betweenness`` (R igraph 1.3:
    weights are lengths for the betweenness and similarities for the modularity).

    The removal order is igraph's wherever the exact edge betweenness values decide it. Where
    several edges share the largest value exactly (common in symmetric graphs), cuRnet removes
    the lowest edge id, igraph the one its own floating-point sums make largest (it compares them
    exactly): from there the orders can differ, and so can the merges, the membership, even its
    modularity (tests/python/test_girvan_newman.py: a 3 x 5 grid). Either way each removal is of
    a largest exact value.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 0, 3, 4, 3, 2], [1, 2, 2, 4, 5, 5, 3], directed=False)
    >>> curnet.girvan_newman(g, backend="cpu").membership.tolist()
    [0, 0, 0, 1, 1, 1]
    """
    use_weights = _uses_lengths(g, weighted)
    removed, values = _removals(g, directed, use_weights, backend, progress)
    weights = g.edges()[2] if use_weights else None
    merges, bridges, modularity, membership = replay_removals(g, removed, weights, g.directed and bool(directed))
    return GirvanNewman(removed, values, merges, bridges, modularity, membership)


def replay_removals(g: Graph, removed, weights=None, directed=True):
    """igraph's replay of a removal order (its community_eb_get_merges): backwards, each removed
    edge that joins two clusters is a merge into a new cluster n, n + 1, ...; the modularity
    after each merge (`weights` as similarities); the membership of the first division of
    highest modularity. Returns (merges, bridges, modularity, membership)."""
    n = len(g)
    src, dst, _ = g.edges()
    src, dst = src.astype(np.int64), dst.astype(np.int64)
    w = np.ones(g.num_edges) if weights is None else np.asarray(weights, np.float64)
    current = np.arange(n)
    best = current.copy()
    top = modularity(src, dst, w, current, directed)
    mods, merges, bridges = [top], [], []
    # igraph's row: the cluster of the edge's stored `from` end first, which is a directed
    # edge's tail and an undirected edge's larger vertex id
    first, second = (src, dst) if g.directed else (np.maximum(src, dst), np.minimum(src, dst))
    for i in range(len(removed) - 1, -1, -1):
        a, b = current[first[removed[i]]], current[second[removed[i]]]
        if a == b:
            continue
        merges.append((a, b))
        bridges.append(i)
        current[(current == a) | (current == b)] = n + len(merges) - 1
        q = modularity(src, dst, w, current, directed)
        mods.append(q)
        if q > top:
            top, best = q, current.copy()
    _, first = np.unique(best, return_index=True)
    rank = np.empty(len(first), np.int64)
    rank[np.argsort(first)] = np.arange(len(first))
    membership = rank[np.unique(best, return_inverse=True)[1]] if n else np.zeros(0, np.int64)
    return (np.array(merges, np.int64).reshape(-1, 2), np.array(bridges, np.int64), np.array(mods),
            membership)


def modularity(src, dst, w, membership, directed: bool) -> float:
    """igraph's modularity (resolution 1) of a division: the weight inside clusters less its
    expectation from the clusters' (out- and in-) strengths, over the total weight; NaN for a
    graph without weight."""
    total = w.sum()
    if total <= 0:
        return float("nan")
    cs, cd = membership[src], membership[dst]
    inside = w[cs == cd].sum()
    labels, at = np.unique(np.r_[cs, cd], return_inverse=True)
    k_out = np.bincount(at[:len(src)], weights=w, minlength=len(labels))
    k_in = np.bincount(at[len(src):], weights=w, minlength=len(labels))
    if directed:
        return float(inside / total - (k_out * k_in).sum() / total ** 2)
    k = k_out + k_in
    return float(inside / total - (k * k).sum() / (2 * total) ** 2)
