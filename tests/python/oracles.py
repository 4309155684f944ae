"""Independent answers to check cuRnet against: SciPy's csgraph, networkx, igraph."""
import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from curnet.backends.arrays import pred_has_cycle
from curnet.graph import Graph


def edge_arrays(g):
    """(src, dst, w) of every stored arc, with unit weights if unweighted."""
    src = g.edge_sources()
    w = g.weights if g.weights is not None else np.ones(g.num_arcs, np.float64)
    return src, g.indices, w.astype(np.float64)


def cheapest_arcs(g):
    """{(u, v): cheapest weight} over parallel arcs."""
    best = {}
    for u, v, w in zip(*edge_arrays(g)):
        key = (int(u), int(v))
        if key not in best or w < best[key]:
            best[key] = w
    return best


def scipy_matrix(g):
    """Dense-free CSR with the cheapest parallel arc kept (SciPy would otherwise sum them)."""
    best = cheapest_arcs(g)
    n = len(g)
    if not best:
        return sp.csr_matrix((n, n))
    (u, v), w = zip(*best.keys()), list(best.values())
    return sp.csr_matrix((np.array(w), (np.array(u), np.array(v))), shape=(n, n))


def bfs_depths(g, sources):
    """(k, n) int32 hop distances, -1 unreachable."""
    d = csgraph.shortest_path(scipy_matrix(g), directed=True, unweighted=True, indices=np.asarray(sources))
    d = np.atleast_2d(d)
    return np.where(np.isinf(d), -1, d).astype(np.int32)


def sp_distances(g, sources):
    """(k, n) float64 shortest-path distances (Johnson handles negative weights)."""
    m = scipy_matrix(g)
    method = "J" if (m.data < 0).any() else "D"
    return np.atleast_2d(csgraph.shortest_path(m, method=method, directed=True, indices=np.asarray(sources)))


def scc_partition(g):
    _, labels = csgraph.connected_components(scipy_matrix(g), directed=True, connection="strong")
    return labels


def igraph_scc_partition(g):
    """python-igraph's strong components of g's arcs (its components, if g is undirected)."""
    import igraph as ig
    src, dst = g.edge_sources(), g.indices
    if not g.directed:
        keep = src <= dst                       # each undirected edge once (a self-loop's two arcs too)
        src, dst = src[keep], dst[keep]
    G = ig.Graph(n=len(g), edges=np.c_[src, dst].tolist(), directed=g.directed)
    return np.array(G.connected_components(mode="strong").membership)


def canonical(labels):
    """Labels renumbered 0, 1, ... in the order each component first appears (a plain loop)."""
    new = {}
    return np.array([new.setdefault(x, len(new)) for x in np.asarray(labels).tolist()], np.int32)


def same_partition(a, b) -> bool:
    """Two labellings describe the same partition of the vertices."""
    a, b = np.asarray(a), np.asarray(b)
    pairs = set(zip(a.tolist(), b.tolist()))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def check_predecessors(g, sources, dist, pred, rtol=1e-5, atol=1e-5):
    """Every predecessor is valid: dist[p] + w(p, v) == dist[v]; none for sources and unreachable."""
    best = cheapest_arcs(g)
    for r, s in enumerate(np.asarray(sources).tolist()):
        for v in range(len(g)):
            p = int(pred[r, v])
            if not np.isfinite(dist[r, v]):
                assert p == -1, f"unreachable vertex {v} has predecessor {p}"
                continue
            if v == s and dist[r, v] == 0:
                assert p == -1, f"source {s} has predecessor {p}"
                continue
            assert p >= 0, f"reachable vertex {v} (source {s}) has no predecessor"
            assert (p, v) in best, f"predecessor {p} of {v} is not joined to it"
            np.testing.assert_allclose(dist[r, p] + best[(p, v)], dist[r, v], rtol=rtol, atol=atol)


def f64_graph(rng, n, m, *, directed, kind):
    """Random float64 graphs: "real" (uniform weights), "ties" (integer weights 1..3: many
    equal distances), "zeros" (30 % of the weights 0: ties no lengthening arc breaks), "tiny"
    (weights 1, a fifth of them 1e-20: k + 1e-20 rounds to k, so a vertex can equal its tail's
    distance through a positive weight)."""
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if kind == "real":
        w = rng.random(m) + 0.01
    elif kind == "ties":
        w = rng.integers(1, 4, m).astype(np.float64)
    elif kind == "zeros":
        w = np.where(rng.random(m) < 0.3, 0.0, rng.random(m))
    else:
        w = np.where(rng.random(m) < 0.2, 1e-20, 1.0)
    return Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=np.float64)


def check_preds_exact(g, sources, dist, pred):
    """Exact predecessors: each reached non-source entry (and no other) has one, u, with an arc
    u -> v attaining its distance in float64 (dist[u] + w == dist[v]); no cycles, so every
    chain ends at its row's source."""
    n = len(g)
    tails, heads = g.edge_sources().astype(np.int64), g.indices.astype(np.int64)
    w = g.weights if g.weights is not None else np.ones(len(heads))
    assert pred.dtype == np.int32
    assert not pred_has_cycle(np, pred).any()
    for r, s in enumerate(sources):
        reached_other = np.isfinite(dist[r])
        reached_other[s] = False
        assert np.array_equal(pred[r] >= 0, reached_other)
        tight = np.isfinite(dist[r, tails]) & (dist[r, tails] + w == dist[r, heads])
        v = np.flatnonzero(pred[r] >= 0)
        assert np.isin(pred[r, v].astype(np.int64) * n + v, tails[tight] * n + heads[tight]).all()


def planted(k, size, p_in, p_out, seed):
    """A planted-partition graph: (curnet Graph, truth)."""
    rng = np.random.default_rng(seed)
    n = k * size
    truth = np.repeat(np.arange(k), size)
    iu = np.triu_indices(n, 1)
    keep = rng.random(len(iu[0])) < np.where(truth[iu[0]] == truth[iu[1]], p_in, p_out)
    return Graph.from_edges(iu[0][keep], iu[1][keep], directed=False, num_vertices=n), truth
