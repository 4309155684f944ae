"""Girvan–Newman's divisive communities (igraph's cluster_edge_betweenness): remove the edge of
highest edge betweenness, recompute, repeat until no edge is left. The engine gives the removal
order and each removed edge's betweenness; the dendrogram and modularity follow from them
(R: cuRnet_cluster_edge_betweenness replays them as igraph does)."""
from __future__ import annotations

import numpy as np

from .betweenness_centrality import edge_betweenness
from .graph import Graph
from .measures import _uses_weights
from .progress import Progress

# Edge betweenness values this close (relative) are a tie, broken by the lowest edge id as
# igraph's first maximum: sums of the same fractions in another order differ in the last bits.
# (igraph compares its own sums exactly, so on exact ties its pick follows its rounding.)
TIE = 1e-9


def edge_betweenness_removals(g: Graph, *, directed=True, weighted=None, backend="auto", progress=None):
    """(removed edge ids in removal order, each one's edge betweenness when it was removed).

    Each step recomputes the edge betweenness of the component the last removed edge was in
    (the others' values do not change) and removes the first edge of the largest value."""
    use_weights = _uses_weights(g, weighted)
    src, dst, w = g.edges()
    m, n = g.num_edges, len(g)
    alive = np.ones(m, bool)
    scores = np.zeros(m)
    stale = np.ones(n, bool)                  # vertices whose component's scores are out of date
    removed, values = np.empty(m, np.int64), np.empty(m)
    bar = Progress(progress, m, "edge removals")
    for step in range(m):
        ids = np.flatnonzero(alive)
        if stale.any():
            sub = Graph.from_edges(src[ids], dst[ids], w[ids] if use_weights else None, directed=g.directed,
                                   num_vertices=n, dtype=g.weight_dtype)
            sources = np.flatnonzero(stale)
            part = edge_betweenness(sub, directed=directed, weighted=use_weights,
                                    sources=sources, backend=backend)
            touched = stale[src[ids]] | stale[dst[ids]]
            scores[ids[touched]] = part[touched]   # only the component's sources reach them
        live = scores[ids]
        top = live.max()
        pick = ids[int(np.flatnonzero(live >= top - TIE * abs(top))[0])]
        removed[step], values[step] = pick, scores[pick]
        alive[pick] = False
        stale[:] = False
        stale[_component(src[alive], dst[alive], n, int(src[pick]), int(dst[pick]))] = True
        bar.update(1)
    return removed, values


def _component(src, dst, n, a, b):
    """The vertices weakly connected to a or b."""
    import scipy.sparse as sp
    from scipy.sparse import csgraph
    adj = sp.csr_matrix((np.ones(len(src), np.int8), (src, dst)), shape=(n, n))
    _, label = csgraph.connected_components(adj, directed=True, connection="weak")
    return np.flatnonzero((label == label[a]) | (label == label[b]))
