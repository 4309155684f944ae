"""NetworkX's betweenness functions on a CurnetGraph (`betweenness_centrality`,
`edge_betweenness_centrality`, `betweenness_centrality_subset`), by the engine's batched
Brandes (curnet.betweenness): same signatures, results and scaling as NetworkX's.

The graph NetworkX hands over has each neighbour once (a multigraph's parallel edges as one,
at their smallest weight), which is how NetworkX counts paths. Sampled sources (`k`) are
drawn by NetworkX's own rule from the `seed` its decorator made, so a seed picks the same
sources as NetworkX. Declined (NotImplementedError, so NetworkX runs its own code): weights
that are not positive, and a multigraph's edge betweenness (NetworkX splits it over edge keys).
"""
from __future__ import annotations

import numpy as np

from ..analyses.betweenness_centrality import BetweennessJob
from .algorithms import engine_backend


def _job(G, weight, sources=None, targets=None, sampled=None) -> BetweennessJob:
    g = G.graph
    if weight is not None and g.weighted and g.num_edges and g.min_weight <= 0:
        raise NotImplementedError("betweenness with zero or negative weights: cuRnet needs "
                                  "positive weights")
    return BetweennessJob(g, True, weight is not None, None, sources, targets, sampled)


def _sample(G, k, seed):
    """NetworkX's sample: `seed.sample(list of nodes, k)` (the same sources for the same seed).

    `seed` is what NetworkX's decorator made of the user's seed: a random.Random (from None, an
    int or a random.Random), or a wrapper of a NumPy RandomState or Generator. The RandomState
    wrapper's sample returns a NumPy array (`rng.choice`), the others a list."""
    if k is None:
        return None
    chosen = seed.sample(list(G), k)       # ValueError for k > n or k < 0, as NetworkX
    if len(chosen) == 0:
        raise ZeroDivisionError("division by zero: k = 0 sampled sources")
    return np.array([G.index[v] for v in chosen], np.int32)


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    job = _job(G, weight, sampled=_sample(G, k, seed))
    raw, _ = job.sums(edges=False, endpoints=endpoints, backend=engine_backend())
    N = job.n if endpoints else job.n - 1
    return dict(zip(G.nodes, job.rescale(raw, N, normalized, sampled_apart=not endpoints).tolist()))


def betweenness_centrality_subset(G, sources, targets, normalized=False, weight=None):
    for s in sources:
        if s not in G:
            raise KeyError(s)                  # as NetworkX's search from a missing source
    source_ids = [G.index[s] for s in sources]
    target_ids = [G.index[t] for t in targets if t in G]
    if not source_ids or not target_ids:
        return dict.fromkeys(G.nodes, 0.0)
    job = _job(G, weight, source_ids, target_ids)
    raw, _ = job.sums(edges=False, backend=engine_backend())
    return dict(zip(G.nodes, job.rescale(raw, job.n - 1, normalized, sampled_apart=False).tolist()))


def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None):
    if G.is_multigraph():
        raise NotImplementedError("a multigraph's edge betweenness: NetworkX splits it over edge keys")
    job = _job(G, weight, sampled=_sample(G, k, seed))
    _, arc = job.sums(edges=True, backend=engine_backend())
    g = G.graph
    tails, heads = g.edge_sources(), g.indices
    if G.is_directed():
        keep, per_arc = np.ones(len(heads), bool), arc
    else:
        # an undirected edge's two arcs add up; keyed as G.edges() gives it (earlier node first)
        keep = tails <= heads
        lo, hi = np.minimum(tails, heads).astype(np.int64), np.maximum(tails, heads)
        pair, where = np.unique(lo * len(G) + hi, return_inverse=True)
        per_arc = np.bincount(where, weights=arc, minlength=len(pair))[where]
    values = job.rescale(per_arc[keep], job.n, normalized, sampled_apart=False)
    nodes = G.node_array
    return dict(zip(zip(nodes[tails[keep]].tolist(), nodes[heads[keep]].tolist()), values.tolist()))
