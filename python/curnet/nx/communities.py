"""NetworkX's community functions on a CurnetGraph (`louvain_communities`,
`leiden_communities`, `modularity`) by curnet.leiden / curnet.louvain: the same signatures and
result shapes (lists of sets of nodes).

Declined, so NetworkX runs its own code: directed graphs (cuRnet follows igraph: undirected
only), multigraphs (the conversion keeps one of parallel edges, where modularity adds them) and
`max_level` (the levels are not cut short) by the backend's can_run, before any conversion;
negative weights here. `threshold` (Louvain's least gain a level) is not needed: levels go on
until one merges nothing. `louvain_partitions` is not offered: it yields every level's
partition, which cuRnet's parallel levels do not match. The partitions are cuRnet's (another
random order of moves than NetworkX's), of modularity on a par."""
from __future__ import annotations

import numpy as np
from networkx.algorithms.community.quality import NotAPartition

from ..graph import Graph
from .algorithms import engine_backend


def _engine_graph(G, weight) -> Graph:
    """G's edges once each as an undirected engine graph (a self-loop counted twice in the
    degree, as NetworkX's modularity counts it), kept on G."""
    if G.graph.directed:
        raise NotImplementedError("directed graphs: cuRnet's Leiden and Louvain are for undirected "
                                  "graphs (igraph's rule)")
    if G.multigraph:
        raise NotImplementedError("multigraphs: the conversion keeps one of parallel edges")
    key = ("communities", weight)
    cached = G.__networkx_cache__.get(key)
    if cached is not None:
        return cached
    g = G.read_as(weight)
    tails = g.edge_sources()
    once = tails <= g.indices
    w = None if g.weights is None else g.weights[once].astype(np.float64)
    if w is not None and len(w) and w.min() < 0:
        raise NotImplementedError("negative weights: modularity needs non-negative weights")
    out = Graph.from_edges(tails[once], g.indices[once], w, directed=False, num_vertices=len(g),
                           dtype=np.float64)
    G.__networkx_cache__[key] = out
    return out


def _seed(seed):
    """An int from the seed NetworkX's decorator made (a random.Random, or NumPy's), or None."""
    if seed is None or isinstance(seed, (int, np.integer)):
        return seed
    if hasattr(seed, "getrandbits"):
        return int(seed.getrandbits(62))
    return int(seed.integers(0, 2**62)) if hasattr(seed, "integers") else int(seed.randint(0, 2**31 - 1))


def _sets(G, membership) -> list:
    order = np.argsort(membership, kind="stable")
    cuts = np.cumsum(np.bincount(membership))[:-1]
    nodes = G.node_array
    return [set(nodes[part].tolist()) for part in np.split(order, cuts)] if len(order) else []


def louvain_communities(G, weight="weight", resolution=1, threshold=1e-07, max_level=None, seed=None):
    if max_level is not None:
        raise NotImplementedError("max_level: cuRnet's Louvain does not cut its levels short")
    from ..analyses.community_detection.partitions import louvain
    p = louvain(_engine_graph(G, weight), resolution=float(resolution), seed=_seed(seed),
                backend=engine_backend())
    return _sets(G, p.membership)


def leiden_communities(G, weight="weight", resolution=1, max_level=None, seed=None):
    if max_level is not None:
        raise NotImplementedError("max_level: cuRnet's Leiden does not cut its levels short")
    from ..analyses.community_detection.partitions import leiden
    p = leiden(_engine_graph(G, weight), resolution=float(resolution), objective="modularity",
               n_iterations=-1, seed=_seed(seed), backend=engine_backend())
    return _sets(G, p.membership)


def modularity(G, communities, weight="weight", resolution=1):
    communities = [c if isinstance(c, (set, frozenset)) else set(c) for c in communities]
    membership = np.full(len(G.nodes), -1, np.int64)
    for label, community in enumerate(communities):
        for node in community:
            i = G.index.get(node)
            if i is None or membership[i] >= 0:
                raise NotAPartition(G, communities)
            membership[i] = label
    if (membership < 0).any():
        raise NotAPartition(G, communities)
    from ..analyses.community_detection.partitions import modularity as quality
    return quality(_engine_graph(G, weight), membership, resolution=float(resolution),
                   backend=engine_backend())
