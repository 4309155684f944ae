"""Distance-based measures with igraph's definitions, reduced batch by batch on the device.

Each measure runs the many-source BFS (hops) or shortest paths (weights) and reduces every
batch of sources where it was computed (:mod:`curnet.algorithms.reductions`): host memory
is O(vertices), never the sources x vertices matrix, so all-vertex closeness on a graph whose
distance matrix would not fit still finishes.

Definitions and defaults follow python-igraph (``Graph.closeness``, ``harmonic_centrality``,
``eccentricity``, ``radius``, ``diameter``, ``farthest_points``, ``average_path_length``,
``path_length_hist``, ``neighborhood_size``). Where igraph takes edge weights as an argument,
a curnet Graph carries its own: ``weighted=None`` uses them when the graph has any,
``False`` counts hops, ``True`` insists on weights.
"""
from __future__ import annotations

import numpy as np

from ..algorithms.bfs import bfs_blocks
from ..algorithms.reductions import DepthHistogram, SourceStats
from ..algorithms.sssp import sssp_blocks
from ..backends import get_backend
from ..graph import Graph
from ..options import igraph_cutoff, uses_weights, vertex_ids

__all__ = ["closeness", "harmonic_centrality", "eccentricity", "radius", "diameter",
           "farthest_points", "mean_distance", "distance_table", "ego_size"]


def _nonnegative(g: Graph, measure: str) -> None:
    """igraph refuses negative weights in its distance measures ("Weight vector must be
    positive" / "non-negative"): a shortest path with negative edges is no distance to sum,
    and on an undirected graph every negative edge is a negative cycle."""
    if g.min_weight < 0:
        raise ValueError(f"{measure} needs non-negative weights, as igraph's measures do (the "
                         f"smallest weight here is {g.min_weight:g}); count hops instead "
                         "(weights = NA in R, weighted=False in Python), or use shortest paths "
                         "(cuRnet_distances / curnet.sssp), which take negative weights on a directed graph")


def _stats(g, mode, vertices, weighted, backend, progress, *, measure: str, max_depth=None,
           **kwargs) -> SourceStats:
    """Per-source statistics of the distances from `vertices` (None: all) in `g` along `mode`
    (hops: a traversal may stop after `max_depth` levels when the statistics look no farther)."""
    weighted = uses_weights(g, weighted)
    if weighted:
        _nonnegative(g, measure)
    g = (g if weighted else g.without_weights()).oriented(mode)
    ids = vertex_ids(g, vertices)
    sink = SourceStats(len(ids), **kwargs)
    if len(ids):
        if weighted:
            sssp_blocks(g, ids, sink, backend=backend, progress=progress)
        else:
            bfs_blocks(g, ids, sink, backend=backend, progress=progress, max_depth=max_depth)
    return sink


def closeness(g: Graph, vertices=None, *, mode="all", cutoff=None, weighted=None,
              normalized=True, backend="auto", progress=None) -> np.ndarray:
    """Closeness centrality, igraph's definition: over the vertices a vertex reaches,
    1 / (sum of their distances); ``normalized`` multiplies by how many it reaches.

    Parameters
    ----------
    g : Graph
    vertices : ids or names, optional
        The vertices to score (None: all, in vertex order).
    mode : {"all", "out", "in"}
        "out": distances from the vertex, "in": to it, "all": ignoring directions
        (python-igraph's default).
    cutoff : float, optional
        Only paths of length <= cutoff count (None or negative: all paths).
    weighted : bool, optional
        None uses the graph's weights if it has any; False counts hops.
    normalized : bool
        python-igraph's default True: (number reached) / (sum of distances).
    backend : {"auto", "cpu", "cuda", ...}
    progress : None, bool or callable(done, total)

    Returns
    -------
    numpy.ndarray of float64, NaN for a vertex that reaches no other.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, num_vertices=6)
    >>> curnet.closeness(g, backend="cpu").round(3).tolist()
    [0.667, 1.0, 0.667, 1.0, 1.0, nan]
    """
    s = _stats(g, mode, vertices, weighted, backend, progress,
               measure="closeness", upto=igraph_cutoff(cutoff), want=("count", "total"))
    reached = s.count - 1                          # the vertex itself is at distance 0
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (reached if normalized else 1.0) / s.total
    return np.where(reached > 0, score, np.nan)


def harmonic_centrality(g: Graph, vertices=None, *, mode="all", cutoff=None, weighted=None,
                        normalized=True, backend="auto", progress=None) -> np.ndarray:
    """Harmonic centrality, igraph's definition: the sum of 1 / distance to the other
    vertices (0 for those not reached); ``normalized`` divides by (number of vertices - 1).

    Parameters are those of :func:`closeness`.

    Returns
    -------
    numpy.ndarray of float64, 0 for a vertex that reaches no other.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, num_vertices=6)
    >>> curnet.harmonic_centrality(g, normalized=False, backend="cpu").tolist()
    [1.5, 2.0, 1.5, 1.0, 1.0, 0.0]
    """
    s = _stats(g, mode, vertices, weighted, backend, progress,
               measure="harmonic_centrality", upto=igraph_cutoff(cutoff), want=("inverse",))
    return s.inverse / max(len(g) - 1, 1) if normalized else s.inverse   # igraph: 0 on one vertex


def eccentricity(g: Graph, vertices=None, *, mode="out", weighted=None, backend="auto",
                 progress=None) -> np.ndarray:
    """Eccentricity: the largest distance from a vertex to the vertices it reaches (0 for an
    isolated vertex), igraph's definition.

    Parameters
    ----------
    g, vertices, weighted, backend, progress
        As in :func:`closeness`.
    mode : {"out", "in", "all"}
        python-igraph's default "out" (R igraph's is "all").

    Returns
    -------
    numpy.ndarray of float64, in hops or in the weights' units.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 2], [1, 2, 3])
    >>> curnet.eccentricity(g, backend="cpu").tolist()
    [3.0, 2.0, 1.0, 0.0]
    """
    return _stats(g, mode, vertices, weighted, backend, progress, measure="eccentricity",
                  want=("farthest",)).farthest


def radius(g: Graph, *, mode="out", weighted=None, backend="auto", progress=None) -> float:
    """The smallest eccentricity (NaN for a graph without vertices).

    Examples
    --------
    >>> import curnet
    >>> curnet.radius(curnet.Graph.from_edges([0, 1, 2], [1, 2, 3]), mode="all", backend="cpu")
    2.0
    """
    ecc = eccentricity(g, mode=mode, weighted=weighted, backend=backend, progress=progress)
    return float(ecc.min()) if len(ecc) else float("nan")


def farthest_points(g: Graph, *, directed=True, unconnected=True, weighted=None,
                    backend="auto", progress=None) -> tuple:
    """Two vertices at the diameter's distance, and that distance: ``(source, target, d)``.

    Parameters
    ----------
    directed : bool
        False ignores edge directions.
    unconnected : bool
        True: the longest finite shortest path. False: if some vertex cannot reach another,
        ``(None, None, inf)``, as igraph.
    weighted, backend, progress
        As in :func:`closeness`.

    Returns
    -------
    tuple (int or None, int or None, float); ``(None, None, nan)`` without vertices.

    Examples
    --------
    >>> import curnet
    >>> curnet.farthest_points(curnet.Graph.from_edges([0, 1], [1, 2], directed=False), backend="cpu")
    (0, 2, 2.0)
    """
    n = len(g)
    if n == 0:
        return None, None, float("nan")
    s = _stats(g, "out" if directed else "all", None, weighted, backend, progress,
               measure="farthest_points", want=("count", "farthest"))
    if not unconnected and (s.count < n).any():
        return None, None, float("inf")
    source = int(np.argmax(s.farthest))
    return source, int(s.farthest_at[source]), float(s.farthest[source])


def diameter(g: Graph, *, directed=True, unconnected=True, weighted=None, backend="auto",
             progress=None) -> float:
    """The longest shortest path (see :func:`farthest_points` for a pair that attains it).

    Examples
    --------
    >>> import curnet
    >>> curnet.diameter(curnet.Graph.from_edges([0, 1], [1, 2], directed=False), backend="cpu")
    2.0
    """
    return farthest_points(g, directed=directed, unconnected=unconnected, weighted=weighted,
                           backend=backend, progress=progress)[2]


def mean_distance(g: Graph, *, directed=True, unconnected=True, weighted=None, details=False,
                  backend="auto", progress=None):
    """The mean shortest-path length over ordered pairs of distinct vertices with a path
    (python-igraph's ``average_path_length``, R igraph's ``mean_distance``).

    Parameters
    ----------
    directed : bool
        False ignores edge directions.
    unconnected : bool
        True averages over the connected pairs only; False gives inf when a pair is not
        connected.
    details : bool
        Also return the number of ordered pairs without a path (R igraph's ``details``).
    weighted, backend, progress
        As in :func:`closeness`.

    Returns
    -------
    float (NaN when no pair is connected), or (float, int) with ``details``.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, num_vertices=6)
    >>> curnet.mean_distance(g, details=True, backend="cpu")
    (1.25, 22)
    """
    n = len(g)
    s = _stats(g, "out" if directed else "all", None, weighted, backend, progress,
               measure="mean_distance", want=("count", "total"))
    pairs = int((s.count - 1).sum())
    missing = n * (n - 1) - pairs
    if missing and not unconnected:
        mean = float("inf")
    elif pairs == 0:
        mean = float("nan")
    else:
        mean = float(s.total.sum() / pairs)
    return (mean, missing) if details else mean


def distance_table(g: Graph, *, directed=True, backend="auto", progress=None) -> tuple:
    """The histogram of hop distances between vertex pairs, igraph's ``distance_table``.

    Parameters
    ----------
    directed : bool
        False ignores edge directions.

    Returns
    -------
    (counts, unconnected): ``counts[i]`` pairs at distance i + 1 (int64 array up to the
    longest distance) and the number of pairs without a path. On an undirected graph (or with
    ``directed=False``) each unordered pair counts once, as in igraph.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, num_vertices=6)
    >>> counts, unconnected = curnet.distance_table(g, backend="cpu")
    >>> counts.tolist(), unconnected
    ([3, 1], 11)
    """
    view = g.oriented("out" if directed else "all")
    sink = DepthHistogram()
    if len(view):
        bfs_blocks(view, vertex_ids(view, None), sink, backend=backend, progress=progress)
    if view.directed:
        return sink.counts, sink.unreachable
    return sink.counts // 2, sink.unreachable // 2      # each unordered pair was seen twice


def ego_size(g: Graph, vertices=None, *, order=1, mode="all", mindist=0, backend="auto",
             progress=None) -> np.ndarray:
    """How many vertices lie within `order` hops of each vertex, and at least `mindist`
    (python-igraph's ``neighborhood_size``, R igraph's ``ego_size``). Orders 0 and 1 are
    counted from the graph's arcs on the host, O(edges), whatever the backend (a traversal from
    every vertex would be O(vertices^2)); higher orders traverse on `backend`, `order` levels.

    Parameters
    ----------
    vertices : ids or names, optional
        None: all vertices.
    order : int
        The largest number of hops (>= 0).
    mode : {"all", "out", "in"}
    mindist : int
        Vertices closer than this are not counted (1 leaves the vertex itself out).

    Returns
    -------
    numpy.ndarray of int64.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, num_vertices=6)
    >>> curnet.ego_size(g, order=2, backend="cpu").tolist()
    [3, 3, 3, 2, 2, 1]
    """
    if int(order) != order or int(mindist) != mindist:
        raise ValueError(f"order and mindist must be whole numbers, got {order!r} and {mindist!r}")
    if order < 0 or not 0 <= mindist <= order:
        raise ValueError(f"need 0 <= mindist <= order, got mindist={mindist}, order={order}")
    order, mindist = int(order), int(mindist)
    get_backend(backend)                 # a bad backend name is an error on every route
    if order <= 1:
        # the vertex itself, and its distinct neighbours other than itself: counted from the
        # arcs, O(edges), where a traversal from every vertex is O(vertices^2)
        ids = vertex_ids(g, vertices)
        size = np.full(len(ids), 1 if mindist == 0 else 0, dtype=np.int64)
        if order == 1:
            size += _distinct_neighbours(g.oriented(mode))[ids]
        return size
    return _stats(g, mode, vertices, False, backend, progress, measure="ego_size",
                  upto=order, mindist=mindist, max_depth=order, want=("count",)).count


def _distinct_neighbours(g: Graph) -> np.ndarray:
    """For each vertex, how many other vertices its out-arcs reach (loops and parallel arcs
    counted once, as igraph's neighbourhoods count vertices)."""
    n = len(g)
    tails = g.edge_sources().astype(np.int64)
    heads = g.indices.astype(np.int64)
    arcs = np.unique(tails[tails != heads] * n + heads[tails != heads])
    return np.bincount(arcs // n, minlength=n)
