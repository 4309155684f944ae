"""Random undirected graphs with many twins (vertices with the same neighbours) for the twin
fold's tests (algorithms/betweenness/twins.py), drawn by an `integer(lo, hi)` function (a
Hypothesis draw or a NumPy generator: the GPU machine may lack Hypothesis), and the twin
classes found the slow way, from each vertex's neighbour list."""
from __future__ import annotations

from collections import defaultdict

import networkx as nx
import numpy as np

import curnet


def twin_graph(integer):
    """(n, src, dst): pieces side by side (complete bipartite graphs, cliques, stars of paths,
    copies of a vertex's neighbours, adjacent to it or not), a few edges between pieces, leaves,
    a K(2, 3) apart (so that `simple` of every case has twins), parallel edges and self-loops;
    isolated vertices at the end (`simple` leaves out the last two kinds)."""
    src, dst = [], []
    n = 0

    def edge(u, v):
        src.append(u)
        dst.append(v)

    for _ in range(integer(1, 4)):
        kind = integer(0, 2)
        if kind == 0:                                   # K(a, b): each side apart twins
            a, b = integer(1, 3), integer(2, 4)
            for i in range(a):
                for j in range(b):
                    edge(n + i, n + a + j)
            n += a + b
        elif kind == 1:                                 # a clique: adjacent twins
            k = integer(2, 5)
            for i in range(k):
                for j in range(i + 1, k):
                    edge(n + i, n + j)
            n += k
        else:                                           # a star of paths of 1 to 3 edges
            centre = n
            n += 1
            for _ in range(integer(1, 4)):
                previous = centre
                for _ in range(integer(1, 3)):
                    edge(previous, n)
                    previous = n
                    n += 1
    for _ in range(integer(0, 3)):                      # join pieces
        edge(integer(0, n - 1), integer(0, n - 1))
    for _ in range(integer(0, 3)):                      # copies of a vertex's neighbours
        v = integer(0, n - 1)
        others = [d for s, d in zip(src, dst) if s == v and d != v] + \
                 [s for s, d in zip(src, dst) if d == v and s != v]
        for x in others:
            edge(n, x)
        if integer(0, 1):
            edge(n, v)
        n += 1
    for _ in range(integer(0, 3)):                      # leaves
        edge(integer(0, n - 1), n)
        n += 1
    for i in range(2):                                  # K(2, 3) on its own: twins on both
        for j in range(3):                              # sides whatever was drawn above
            edge(n + i, n + 2 + j)
    n += 5
    for _ in range(integer(0, 2)):                      # a parallel edge, a self-loop
        at = integer(0, len(src) - 1)
        edge(src[at], dst[at])
    for _ in range(integer(0, 1)):
        v = integer(0, n - 1)
        edge(v, v)
    n += integer(0, 1)
    return n, np.array(src, np.int64), np.array(dst, np.int64)


def as_graphs(case):
    """(curnet Graph, NetworkX Graph with the same edges once each and no self-loops: the same
    graph where the case is `simple`)."""
    n, src, dst = case
    g = curnet.Graph.from_edges(src, dst, directed=False, num_vertices=n)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((u, v) for u, v in zip(src.tolist(), dst.tolist()) if u != v)
    return g, G


def simple(case):
    """The case with its parallel edges and self-loops left out (NetworkX's view of it)."""
    n, src, dst = case
    pairs = sorted({(min(u, v), max(u, v)) for u, v in zip(src.tolist(), dst.tolist()) if u != v})
    src, dst = (np.array(x, np.int64) for x in zip(*pairs)) if pairs else (np.zeros(0, np.int64),) * 2
    return n, src, dst


def slow_twin_classes(case):
    """The twin classes (lists of 2 or more ids) of the case's graph: vertices with two or more
    other neighbours whose neighbour lists (with repeats, without self-loops) are equal, or
    equal with each vertex added to its own."""
    n, src, dst = case
    near = defaultdict(list)
    for u, v in zip(src.tolist(), dst.tolist()):
        if u != v:
            near[u].append(v)
            near[v].append(u)
    apart, adjacent = defaultdict(list), defaultdict(list)
    for v in range(n):
        if len(set(near[v])) >= 2:
            apart[tuple(sorted(near[v]))].append(v)
            adjacent[tuple(sorted(near[v] + [v]))].append(v)
    return [c for c in list(apart.values()) + list(adjacent.values()) if len(c) > 1]
