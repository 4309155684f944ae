"""NetworkX's `pagerank` on a CurnetGraph, by the engine's power iteration
(curnet.propagation.pagerank): same signature, same result (a dict of node: rank, summing to 1).

NetworkX's stopping rule: the iteration stops once a step changes the ranks by less than
n * tol in the L1 norm, and raises PowerIterationFailedConvergence after max_iter steps.
Declined (NotImplementedError, so NetworkX runs its own code): a `dangling` distribution other
than the personalization, and multigraphs (NetworkX sums parallel edges; the converted graph
keeps their smallest weight)."""
from __future__ import annotations

import networkx as nx
import numpy as np

import warnings

from ..propagation import ConvergenceWarning, pagerank as engine_pagerank
from .algorithms import engine_backend


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None,
             weight="weight", dangling=None):
    if dangling is not None:
        raise NotImplementedError("a dangling distribution of its own: cuRnet sends dangling "
                                  "vertices' rank along the personalization (igraph's rule)")
    if G.is_multigraph():
        raise NotImplementedError("pagerank on a multigraph: NetworkX sums parallel edges")
    n = len(G)
    if n == 0:
        return {}
    g = G.read_as(weight)
    if g.weighted and g.num_arcs and g.min_weight < 0:
        raise NotImplementedError("negative weights")
    p = None
    if personalization is not None:
        p = np.zeros(n)
        for node, value in personalization.items():
            if node in G:
                p[G.index[node]] = value
        if p.sum() == 0:
            raise ZeroDivisionError("float division by zero")    # as NetworkX
    if max_iter < 1:
        raise nx.PowerIterationFailedConvergence(max_iter)
    # the engine's tol bounds alpha / (1 - alpha) times a step's L1 change
    bound = n * tol * alpha / (1 - alpha) if alpha < 1 else n * tol
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        try:
            ranks = engine_pagerank(g, p, damping=alpha, tol=bound, max_iter=max_iter,
                                    backend=engine_backend())
        except ConvergenceWarning:
            raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(G.nodes, ranks.tolist()))
