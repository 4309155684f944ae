"""Turning the user's `sources` (ids or names) into validated vertex ids."""
from __future__ import annotations

import re

import numpy as np

from .columns import is_string_column, to_numpy


def resolve_sources(g, sources) -> np.ndarray:
    """`sources` as int32 vertex ids; repeated sources are kept (their rows repeat).

    The rule (docs/ids.md): strings are vertex names; integers are 0-based positions. On a
    graph whose names are numbers (a file of Entrez ids), Python ints (a scalar, a list, a
    tuple) could mean either, and are refused: give names as strings, or positions as a
    NumPy (or Arrow) integer array, the engine's own ids."""
    if type(sources) is np.ndarray and sources.dtype == np.int32 and sources.ndim == 1 and sources.size \
            and len(g):
        return check_ids(g, sources).copy()   # ids this function made (drivers pass them on): range only
    if isinstance(sources, (str, bytes)) or np.isscalar(sources):
        sources = [sources]
    if isinstance(sources, (list, tuple, range)) and _has_numeric_names(g):
        ints = [s for s in sources if isinstance(s, (int, np.integer)) and not isinstance(s, bool)]
        if ints:
            raise ValueError(
                f"this graph's vertex names are numbers (e.g. {_numeric_name(g)!r}), so the integer "
                f"source {ints[0]!r} could be the vertex named {str(ints[0])!r} or the vertex at "
                f"position {ints[0]}: give names as strings ([{str(ints[0])!r}]) or positions as a "
                f"NumPy integer array (np.array([{ints[0]}]))")
    if is_string_column(sources):
        names = to_numpy(sources, "sources").astype(str)
        index = g.name_index()
        unknown = [s for s in dict.fromkeys(names.tolist()) if s not in index]
        if unknown:
            shown = ", ".join(repr(s) for s in unknown[:5])
            more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            raise ValueError(f"source vertex name(s) not in the graph: {shown}{more}")
        ids = np.fromiter((index[s] for s in names.tolist()), dtype=np.int64, count=len(names))
    else:
        ids = to_numpy(sources, "sources")
        if ids.dtype == bool or not np.issubdtype(ids.dtype, np.integer):
            if ids.size == 0:
                ids = ids.astype(np.int64)
            else:
                raise TypeError(f"sources must be integer vertex ids or vertex names, got dtype {ids.dtype}")
    if ids.size == 0:
        raise ValueError("no sources given: pass at least one vertex id or name")
    if len(g) == 0:
        raise ValueError("the graph has no vertices, so no source can be in it")
    return check_ids(g, ids).astype(np.int32)


def check_ids(g, ids: np.ndarray, what: str = "source") -> np.ndarray:
    """`ids` (an integer array), refused if any is not a vertex of `g`; `what` names them."""
    bad = (ids < 0) | (ids >= len(g))
    if bad.any():
        raise ValueError(f"{what} id {int(ids[bad][0])} is out of range: the graph has "
                         f"{len(g)} vertices (ids 0..{len(g) - 1})")
    return ids


def sample_sources(g, k: int, seed: int = 0) -> np.ndarray:
    """A seeded random sample of at most k distinct vertices with an out-arc (PERFORMANCE.md's rule)."""
    candidates = np.flatnonzero(g.out_degree() > 0)
    if len(candidates) == 0:
        raise ValueError("the graph has no vertex with an edge to start from")
    rng = np.random.default_rng(seed)
    return rng.choice(candidates, min(k, len(candidates)), replace=False).astype(np.int32)


def source_name(g, vertex: int):
    return None if g.names is None else str(g.names[vertex])


def _numeric_name(g):
    """The first vertex name that is a whole number ("7157"), or None; computed once a graph."""
    if g.names is None:
        return None

    def find():
        number = re.compile(r"-?[0-9]+")
        return (next((str(x) for x in g.names.tolist() if number.fullmatch(str(x))), None),)
    return g.cache("numeric name", find)[0]


def _has_numeric_names(g) -> bool:
    return _numeric_name(g) is not None
