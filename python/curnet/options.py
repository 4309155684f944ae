"""The options several analyses read alike, each read in one place: whether a graph's weights
apply (`uses_weights`; as path lengths, which must then be positive: `uses_positive_weights`),
the vertices asked for (`vertex_ids`) and igraph's cutoff (`igraph_cutoff`)."""
from __future__ import annotations

import numpy as np

from .graph import Graph
from .sources import resolve_sources


def uses_weights(g: Graph, weighted) -> bool:
    """Whether an analysis reads g's weights: `weighted` None, where g has weights; True asks
    for them (an error where g has none); False never."""
    if weighted is None:
        return g.weighted
    if weighted and not g.weighted:
        raise ValueError("weighted=True, but the graph has no weights")
    return bool(weighted)


def uses_positive_weights(g: Graph, weighted, analysis: str) -> bool:
    """uses_weights, for an analysis whose weights are path lengths that must be positive
    (betweenness counts shortest paths: a zero-length cycle would give them no end)."""
    used = uses_weights(g, weighted)
    if used and g.num_edges and g.min_weight <= 0:
        raise ValueError(f"{analysis} needs positive weights; the smallest is {g.min_weight} "
                         "(use weighted=False to count hops)")
    return used


def vertex_ids(g: Graph, vertices) -> np.ndarray:
    """int32 ids of `vertices` (ids or names); None: every vertex, in order."""
    if vertices is None:
        return np.arange(len(g), dtype=np.int32)
    return resolve_sources(g, vertices)


def igraph_cutoff(cutoff):
    """igraph's rule: None or a negative cutoff means no cutoff."""
    if cutoff is None:
        return None
    cutoff = float(cutoff)
    if np.isnan(cutoff):
        raise ValueError("cutoff is NaN")
    return None if cutoff < 0 else cutoff
