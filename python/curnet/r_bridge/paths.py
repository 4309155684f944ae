"""R's path analyses (R/paths.R): cuRnet_shortest_paths (vertex and edge paths from one
source) and cuRnet_proximity (network proximity of gene sets), each result a Held."""
from __future__ import annotations

import numpy as np

from .handoff import Held
from .session import run_on


def shortest_paths_for_r(g, source, targets, mode, weighted, output, predecessors, inbound_edges,
                         backend="auto") -> Held:
    """Paths from one 0-based `source` to 0-based `targets` (None: all): each path list
    flattened with its lengths (`vpath` / `vpath_lengths`, `epath` / `epath_lengths`), the
    trees `predecessors` and `inbound_edges` (-1 for none); vertex and edge ids 0-based."""
    from ..analyses.paths import shortest_paths
    # an array: R's ids are positions, even on a graph whose names are numbers (docs/ids.md)
    p = shortest_paths(g, np.array([int(source)]), targets, mode=mode, weighted=bool(weighted),
                       output=output, predecessors=predecessors, inbound_edges=inbound_edges,
                       backend=run_on(backend, "shortest_paths"))
    out = {}
    for name in ("vpath", "epath"):
        paths = getattr(p, name)
        if paths is not None:
            row = paths[0]
            out[name] = np.concatenate(row) if row else np.zeros(0)
            out[name + "_lengths"] = np.array([len(x) for x in row], dtype=np.int32)
    if predecessors:
        out["predecessors"] = p.predecessors[0]
    if inbound_edges:
        out["inbound_edges"] = p.inbound_edges[0]
    return Held(out)


def proximity_for_r(g, sets, module, measures, n_random, bin_size, seed, weighted,
                    backend="auto") -> Held:
    """cuRnet_proximity: 0-based sets (a list) against a 0-based module, one row per set
    and measure, as columns (`measure` names; the rest numbers, `set` numbered from 1)."""
    from ..analyses.network_proximity import as_columns, proximity
    results = proximity(g, [np.atleast_1d(np.asarray(s, dtype=np.int64)) for s in sets],
                        np.atleast_1d(np.asarray(module, dtype=np.int64)),
                        measures=list(np.atleast_1d(measures)), n_random=int(n_random),
                        bin_size=int(bin_size), seed=int(seed), weighted=bool(weighted),
                        backend=run_on(backend, "proximity"))
    columns = as_columns(results, range(1, len(results) + 1))
    counts = ("set", "n_set", "n_module")          # R's integers
    return Held({k: v if k == "measure" else np.asarray(v, dtype=np.int32 if k in counts else np.float64)
                 for k, v in columns.items()})
