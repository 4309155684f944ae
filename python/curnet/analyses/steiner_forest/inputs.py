"""What a PCSF call reads, checked before any work: the network (`check_network`, kept with
the graph; `interactome()` builds one from an edge table as the PCSF package's
construct_interactome() does), the prizes (`prize_table`), the shortest paths' float width
(`paths_dtype`), and `PCSFWarning` for input PCSF() takes quietly."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...graph import Graph
from ...renamed import renamed


class PCSFWarning(UserWarning):
    """Input that PCSF() takes quietly and cuRnet takes with a word (dummies outside the network)."""


# the shortest paths' float width (`dtype`): float64 decides as the package does (its Boost
# Dijkstra sums doubles); float32 lets a GPU take its near-far search (float32 weights only),
# the forest and its objective still costed in double. The earlier precision="double"/"single"
# (R's words) names the same two.
_PRECISIONS = {"double": np.float64, "single": np.float32}


def paths_dtype(dtype, precision) -> np.dtype:
    """The shortest paths' float width from `dtype`, or from the deprecated `precision`."""
    if precision is not None:
        renamed("precision=", "dtype=np.float64 or np.float32")
        if precision not in _PRECISIONS:
            raise ValueError(f"precision must be 'double' or 'single', got {precision!r}")
        return np.dtype(_PRECISIONS[precision])
    try:
        width = np.dtype(dtype)
    except TypeError:
        width = None
    if width not in (np.float64, np.float32):
        raise ValueError(f"dtype must be float64 or float32, got {dtype!r}")
    return width


def prize_table(prizes, duplicates="error"):
    """(names, values) from a mapping, a pandas Series, pairs, or a (names, values) tuple.
    A repeated name is an error, or with duplicates="last" takes its last prize (the PCSF
    package's reading), in the place of its first."""
    names: Any
    values: Any
    if hasattr(prizes, "index") and hasattr(prizes, "to_numpy"):          # pandas Series
        names, values = np.asarray(prizes.index), prizes.to_numpy()
    elif isinstance(prizes, dict):
        names, values = list(prizes.keys()), list(prizes.values())
    elif isinstance(prizes, tuple) and len(prizes) == 2:
        names, values = prizes
    else:
        pairs = list(prizes)
        names, values = [p[0] for p in pairs], [p[1] for p in pairs]
    names = np.asarray(names, dtype=object)
    try:
        values = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("prizes must be numbers") from None
    if len(names) != len(values):
        raise ValueError(f"{len(names)} terminal names but {len(values)} prizes")
    if len(names) == 0:
        raise ValueError("no terminals: give at least one (name, prize)")
    if any(n is None or (isinstance(n, float) and np.isnan(n)) or str(n) == "" for n in names):
        raise ValueError("every terminal needs a name (a missing or empty name was given)")
    names = names.astype(str)
    uniq, counts = np.unique(names, return_counts=True)
    if (counts > 1).any() and duplicates == "last":
        last = {name: v for name, v in zip(names.tolist(), values.tolist())}
        names = np.array(list(last), dtype=str)
        values = np.array(list(last.values()), dtype=np.float64)
    elif (counts > 1).any():
        dup = uniq[counts > 1]
        raise ValueError(f"terminal names are duplicated: {', '.join(map(quoted, dup[:5].tolist()))}"
                         + (f" and {len(dup) - 5} more" if len(dup) > 5 else "")
                         + " (duplicates='last' takes the last prize of each, as the PCSF package does)")
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"prize of terminal {quoted(names[i])} is {values[i]}: prizes must be finite numbers")
    if (values <= 0).any():
        i = int(np.flatnonzero(values <= 0)[0])
        raise ValueError(f"prize of terminal {quoted(names[i])} is {values[i]:g}: prizes must be positive "
                         "(leave a gene with no signal out of the terminals)")
    return names, values


def quoted(name) -> str:
    """A vertex or terminal name in a message, as the user wrote it (str, not a NumPy repr)."""
    return repr(str(name))


def check_network(g: Graph):
    """The network's edges (src, dst, float64 cost), checked once and kept with the graph
    (a network is solved for many terminal sets; the checks sort its edges)."""
    if not isinstance(g, Graph):
        raise TypeError(f"the network must be a curnet.Graph, got {type(g).__name__}")
    return g.cache("pcsf: checked edges", lambda: _checked_edges(g))


def _checked_edges(g: Graph):
    if g.directed:
        raise ValueError("the PCSF needs an undirected network (Graph.from_edges(..., directed=False))")
    if g.names is None:
        raise ValueError("the network has no vertex names: terminals are matched by name")
    if not g.weighted:
        raise ValueError("the network has no edge costs: the PCSF needs a cost >= 0 on every edge")
    src, dst, cost = g.edges()
    cost = cost.astype(np.float64)
    if len(cost) == 0:
        raise ValueError("the network has no edges")
    # edges are named by their ends: a position would count from 0 here and from 1 in R
    bad = ~np.isfinite(cost) | (cost < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"the edge {quoted(g.names[src[i]])} - {quoted(g.names[dst[i]])} has cost {cost[i]:g}: "
                         f"edge costs must be finite numbers >= 0 ({int(bad.sum())} such edge(s))")
    loops = src == dst
    lo, hi = np.minimum(src, dst).astype(np.int64), np.maximum(src, dst).astype(np.int64)
    key = lo * len(g) + hi
    if loops.any() or len(np.unique(key)) != len(key):
        what = (f"a self-loop on {quoted(g.names[src[np.flatnonzero(loops)[0]]])}" if loops.any()
                else "parallel edges (a pair of vertices joined twice)")
        raise ValueError(f"the network has {what}: simplify it first with curnet.interactome(), as the "
                         "PCSF package's construct_interactome() does (self-loops dropped, the costs of a "
                         "repeated pair summed)")
    return src.astype(np.int64), dst.astype(np.int64), cost


def interactome(network, *, parallel="sum") -> Graph:
    """The PCSF package's construct_interactome(): an undirected network with named vertices
    and edge costs, each self-loop dropped and each pair of vertices joined once, a repeated
    pair's costs summed (igraph's simplify(), which construct_interactome() calls, sums them;
    parallel="min" keeps the least). `network`: a curnet.Graph (undirected, named, weighted),
    or three columns (from, to, cost) as a tuple or a pandas DataFrame. Vertices keep their
    order (columns: first appearance in `from`, then in `to`, as the package's), a vertex of
    self-loops only included."""
    if parallel not in ("sum", "min"):
        raise ValueError(f"parallel must be 'sum' (the PCSF package's) or 'min', got {parallel!r}")
    if isinstance(network, Graph):
        if network.directed or network.names is None or not network.weighted:
            raise ValueError("interactome() takes an undirected graph with vertex names and edge costs")
        src, dst, cost = network.edges()
        names = np.asarray(network.names)
    else:
        if hasattr(network, "iloc"):                                   # pandas DataFrame
            if network.shape[1] != 3:
                raise ValueError(f"interactome() takes three columns (from, to, cost), not {network.shape[1]}")
            network = tuple(network.iloc[:, k].to_numpy() for k in range(3))
        if len(network) != 3:
            raise ValueError("interactome() takes three columns: from, to, cost")
        ends = [np.asarray(c, dtype=object) for c in network[:2]]
        if any(v is None or (isinstance(v, float) and np.isnan(v)) or str(v) == "" for c in ends for v in c):
            raise ValueError("every edge needs the names of both its ends (a missing or empty name was given)")
        both = np.concatenate(ends).astype(str)
        first, ids = np.unique(both, return_index=True, return_inverse=True)[1:]
        rank = np.empty(len(first), np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))   # names by first appearance
        ids = rank[ids]
        names = both[np.sort(first)]
        m = len(ends[0])
        src, dst = ids[:m], ids[m:]
        try:
            cost = np.asarray(network[2], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("the costs (third column) must be numbers") from None
        if len(cost) != m:
            raise ValueError(f"{m} edges but {len(cost)} costs")
    cost = np.asarray(cost, np.float64)
    bad = ~np.isfinite(cost) | (cost < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"the edge {quoted(names[src[i]])} - {quoted(names[dst[i]])} has cost {cost[i]:g}: "
                         f"edge costs must be finite numbers >= 0 ({int(bad.sum())} such edge(s))")
    n = len(names)
    keep = src != dst
    lo = np.minimum(src, dst)[keep].astype(np.int64)
    hi = np.maximum(src, dst)[keep].astype(np.int64)
    pairs, which = np.unique(lo * n + hi, return_inverse=True)
    if parallel == "sum":
        merged = np.bincount(which, weights=cost[keep], minlength=len(pairs))
    else:
        merged = np.full(len(pairs), np.inf)
        np.minimum.at(merged, which, cost[keep])
    return Graph.from_edges(pairs // n, pairs % n, merged, directed=False, num_vertices=n, names=names,
                            dtype=np.float64)
