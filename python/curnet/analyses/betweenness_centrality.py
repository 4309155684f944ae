"""Betweenness centrality of vertices and edges: exact, range-limited (igraph's `cutoff`),
over source/target subsets (NetworkX's `betweenness_centrality_subset`) or estimated from
`k` sampled sources (NetworkX's `k`), by Brandes' algorithm over batches of sources
(:func:`curnet.algorithms.betweenness.driver.brandes_sums`).

Conventions:

* paths are counted as igraph and NetworkX count them: parallel edges are distinct paths
  (as igraph; a NetworkX MultiGraph counts neighbours once), self-loops are on none;
* an undirected graph (or ``directed=False``) halves the sums over ordered pairs;
* ``normalized`` divides by the number of (source, target) pairs a vertex can lie between,
  NetworkX's rule, which for exact vertex betweenness is igraph's:
  (n - 1)(n - 2) (the halving then left out), n(n - 1) for edges, n(n - 1) with endpoints;
* ``k`` samples k distinct sources (seeded) and scales as NetworkX does, so k = n is exact;
* weighted graphs need positive weights; equal-length paths are equal by igraph's relative
  epsilon (see :mod:`curnet.backends.brandes`).
"""
from __future__ import annotations

import math

import numpy as np

from ..algorithms.betweenness.driver import brandes_sums
from ..graph import Graph
from ..options import igraph_cutoff, uses_positive_weights, vertex_ids
from ..sources import resolve_sources

__all__ = ["betweenness", "edge_betweenness"]


def betweenness(g: Graph, vertices=None, *, directed=True, weighted=None, normalized=False,
                cutoff=None, sources=None, targets=None, k=None, seed=None, endpoints=False,
                backend="auto", progress=None) -> np.ndarray:
    """Vertex betweenness: for each vertex, the sum over pairs (s, t) of the fraction of the
    shortest s-t paths that pass through it.

    Parameters
    ----------
    g : Graph
    vertices : ids or names, optional
        The vertices to report (None: all, in vertex order).
    directed : bool
        False treats a directed graph as undirected (igraph's ``directed``).
    weighted : bool, optional
        None uses the graph's weights if it has any (they must be positive); False counts hops.
    normalized : bool
        Divide by the number of pairs (see the module's conventions).
    cutoff : float, optional
        Only paths of length <= cutoff count (None or negative: all; 0: none), igraph's rule.
    sources, targets : ids or names, optional
        Only paths from `sources` to `targets` count (NetworkX's subset betweenness).
    k : int, optional
        Estimate from k distinct sources sampled with `seed` (an int or a NumPy Generator).
    endpoints : bool
        Count the ends of each path too (NetworkX's ``endpoints``).
    backend : {"auto", "cpu", "cuda", ...}
    progress : None, bool or callable(done, total)

    Returns
    -------
    numpy.ndarray of float64, one value a vertex of `vertices`.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)
    >>> curnet.betweenness(g, backend="cpu").tolist()
    [0.0, 2.0, 2.0, 0.0]
    """
    job = BetweennessJob(g, directed, weighted, cutoff, sources, targets, _sampled(g, k, seed, sources, targets))
    raw, _ = job.sums(edges=False, endpoints=endpoints, backend=backend, progress=progress)
    N = job.n if endpoints else job.n - 1
    return job.rescale(raw, N, normalized, sampled_apart=not endpoints)[vertex_ids(g, vertices)]


def edge_betweenness(g: Graph, edges=None, *, directed=True, weighted=None, normalized=False,
                     cutoff=None, sources=None, targets=None, k=None, seed=None,
                     backend="auto", progress=None) -> np.ndarray:
    """Edge betweenness: for each edge, the sum over pairs (s, t) of the fraction of the
    shortest s-t paths that use it. One value an edge, in the order the edges were given
    (igraph's ``E(graph)`` order); `edges` picks edge ids. Parameters as :func:`betweenness`.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)
    >>> curnet.edge_betweenness(g, backend="cpu").tolist()
    [3.0, 4.0, 3.0]
    """
    job = BetweennessJob(g, directed, weighted, cutoff, sources, targets, _sampled(g, k, seed, sources, targets))
    _, arc = job.sums(edges=True, endpoints=False, backend=backend, progress=progress)
    raw = np.bincount(job.graph.arc_edges, weights=arc, minlength=g.num_edges)
    scaled = job.rescale(raw, job.n, normalized, sampled_apart=False)
    if edges is None:
        return scaled
    ids = np.asarray(edges)
    if ids.dtype.kind not in "iu" or (ids.size and (ids.min() < 0 or ids.max() >= g.num_edges)):
        raise ValueError(f"edges must be edge ids in 0..{g.num_edges - 1}")
    return scaled[ids]


def _sampled(g, k, seed, sources, targets):
    if k is None:
        return None
    if sources is not None or targets is not None:
        raise ValueError("give either k (sampled sources) or sources/targets, not both")
    return sample(len(g), k, seed)


class BetweennessJob:
    """The options of one betweenness call, checked: the graph the paths run in, the sources
    (`sampled` ids: an estimate scaled as NetworkX's k), the targets' weights, whether weights
    and a cutoff apply."""

    def __init__(self, g, directed, weighted, cutoff, sources, targets, sampled=None):
        if not isinstance(g, Graph):
            raise TypeError(f"g must be a curnet.Graph, got {type(g).__name__}")
        self.undirected = not (g.directed and directed)
        self.graph = g.oriented("out" if directed else "all")
        self.n = len(g)
        self.weighted = uses_positive_weights(g, weighted, "betweenness")
        self.cutoff = igraph_cutoff(cutoff)
        self.sampled = None if sampled is None else np.asarray(sampled, np.int32)
        self.sources: np.ndarray
        if self.sampled is not None:
            self.sources = self.sampled
        elif sources is not None:
            self.sources = resolve_sources(g, sources)
        else:
            self.sources = np.arange(self.n, dtype=np.int32)
        self.target_weight = None
        if targets is not None:
            self.target_weight = np.zeros(self.n)
            self.target_weight[resolve_sources(g, targets)] = 1.0

    def sums(self, **kwargs):
        if self.n == 0 or len(self.sources) == 0:
            return np.zeros(self.n), np.zeros(self.graph.num_arcs)
        return brandes_sums(self.graph, self.sources, weighted=self.weighted,
                            target_weight=self.target_weight, cutoff=self.cutoff, **kwargs)

    def rescale(self, raw, N: int, normalized: bool, sampled_apart: bool) -> np.ndarray:
        return rescale(raw, N, normalized, self.undirected, self.sampled, sampled_apart)


def rescale(raw, N: int, normalized: bool, undirected: bool, sampled=None, sampled_apart=False):
    """NetworkX's `_rescale`: N pairs' ends (n - 1 without endpoints, n with them or for
    edges); k sampled sources scale the sums by N / k, and, for vertices without endpoints,
    a sampled vertex (never between its own paths) by N / (k - 1). Undirected sums halve."""
    if N < 2:
        return raw
    k = N if sampled is None else len(sampled)
    halve = 2 if undirected else 1

    def factor(kk):
        if kk < 1:
            return math.nan      # one sampled source: nothing is known about it
        return 1 / (kk * (N - 1)) if normalized else N / (kk * halve)

    out = raw * factor(k)
    if sampled is not None and sampled_apart:
        out[sampled] = raw[sampled] * factor(k - 1)
    return out


def sample(n: int, k, seed) -> np.ndarray:
    """k distinct vertex ids drawn with `seed` (an int, None or a NumPy Generator)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 < k <= n:
        raise ValueError(f"k must be a whole number of sources in 1..{n}, got {k!r}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return np.sort(rng.choice(n, int(k), replace=False)).astype(np.int32)
