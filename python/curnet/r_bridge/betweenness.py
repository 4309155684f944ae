"""R's betweenness analyses (R/betweenness.R): cuRnet_betweenness and cuRnet_edge_betweenness
into the vector R allocated, and cuRnet_cluster_edge_betweenness (Girvan-Newman) as a Held."""
from __future__ import annotations

import numpy as np

from .handoff import Held, progress_hook, r_array
from .session import run_on


def betweenness_into(g, kind, address, selection=None, directed=True, weighted=False,
                     normalized=False, cutoff=-1.0, progress=None, backend="auto") -> None:
    """Vertex (`kind` "vertex") or edge ("edge") betweenness of the 0-based ids `selection`
    (None: all) into R's double vector."""
    from ..analyses.betweenness_centrality import betweenness, edge_betweenness
    if kind not in ("vertex", "edge"):
        raise ValueError(f"unknown betweenness kind {kind!r}")
    if selection is not None:
        from ..columns import to_numpy
        selection = to_numpy(selection, "selection").astype(np.int64)
    # `weighted` is R's decision (weighted_graph's use_weights), passed on as it came
    backend = run_on(backend, f"{kind} betweenness")
    if kind == "vertex":
        values = betweenness(g, selection, weighted=bool(weighted), directed=bool(directed),
                             normalized=bool(normalized), cutoff=float(cutoff), backend=backend,
                             progress=progress_hook(progress))
    else:
        values = edge_betweenness(g, selection, weighted=bool(weighted), directed=bool(directed),
                                  cutoff=float(cutoff), backend=backend, progress=progress_hook(progress))
    r_array(address, (len(values),), "double")[:] = values


def girvan_newman_for_r(g, directed=True, weighted=False, progress=None, backend="auto") -> Held:
    """igraph's fields of cluster_edge_betweenness, 0-based: the removed edges, their
    betweenness, the merges (one row after another), bridges, modularity, membership; the
    graph's weights, when used, are also the modularity's."""
    from ..analyses.communities import girvan_newman
    got = girvan_newman(g, directed=bool(directed), weighted=weighted,
                        backend=run_on(backend, "edge betweenness communities"),
                        progress=progress_hook(progress))
    fields = (got.removed, got.edge_betweenness, np.ravel(got.merges), got.bridges, got.modularity,
              got.membership)
    return Held({name: np.asarray(x, dtype=np.float64) for name, x in zip(
        ("removed", "edge_betweenness", "merges", "bridges", "modularity", "membership"), fields)})
