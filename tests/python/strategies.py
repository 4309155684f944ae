"""Hypothesis strategies for random graphs: directed or not, weighted or not, with
duplicate edges, self-loops, isolated vertices and several components."""
import numpy as np
from hypothesis import strategies as st

import curnet


@st.composite
def graphs(draw, *, max_vertices=24, weighted=None, directed=None, negative=False, dtype=np.float64):
    n = draw(st.integers(1, max_vertices))
    m = draw(st.integers(0, 3 * n))
    directed = draw(st.booleans()) if directed is None else directed
    weighted = draw(st.booleans()) if weighted is None else weighted
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = None
    if weighted:
        w = draw(st.lists(st.integers(0, 20), min_size=m, max_size=m))
        w = np.array(w, dtype=dtype) / 4
        if negative and directed:
            # Potentials keep every cycle non-negative: w'(u,v) = w + p(u) - p(v).
            pot = np.array(draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)), dtype=dtype)
            w = w + pot[np.array(src, int)] - pot[np.array(dst, int)] if m else w
    return curnet.Graph.from_edges(np.array(src, np.int64), np.array(dst, np.int64), w,
                                   directed=directed, num_vertices=n, dtype=dtype)


@st.composite
def graphs_and_sources(draw, **kw):
    g = draw(graphs(**kw))
    k = draw(st.integers(1, min(70, 3 * len(g))))
    sources = draw(st.lists(st.integers(0, len(g) - 1), min_size=k, max_size=k))
    return g, np.array(sources)
