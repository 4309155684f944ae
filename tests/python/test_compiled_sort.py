"""The compiled counting sort that builds a graph's CSR (compiled_sort.py) against
NumPy's stable argsort, and graphs built by it against graphs built without it."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

pytest.importorskip("numba")

from curnet import graph  # noqa: E402
from curnet import compiled_sort  # noqa: E402
from curnet.generators import rmat_edges  # noqa: E402
from curnet.work import count_work  # noqa: E402


def offsets_of(keys, n, dtype):
    offsets = np.zeros(n + 1, dtype)
    np.cumsum(np.bincount(keys, minlength=n), out=offsets[1:])
    return offsets


@given(st.integers(1, 50).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(0, n - 1), max_size=300))),
       st.sampled_from([np.int32, np.int64]))
def test_counting_order_is_the_stable_argsort(n_keys, offset_dtype):
    n, keys = n_keys
    keys = np.array(keys, np.int32)
    order = compiled_sort.counting_order(keys, offsets_of(keys, n, offset_dtype))
    np.testing.assert_array_equal(order, np.argsort(keys, kind="stable"))


def built(src, dst, w, n, directed, sort_min, monkeypatch):
    monkeypatch.setattr(graph, "COMPILED_SORT_MIN_ARCS", sort_min)
    with count_work() as work:
        g = graph.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n)
        csc = g.csc()
    return g, csc, work


@pytest.mark.parametrize("directed", [False, True])
def test_graphs_built_by_the_compiled_sort_equal_the_argsorts(directed, monkeypatch):
    src, dst, n = rmat_edges(10, seed=5)          # parallel arcs and self-loops: ties to keep in order
    w = (1.0 - np.random.default_rng(1).random(len(src))).astype(np.float32)
    plain, plain_csc, below = built(src, dst, w, n, directed, len(src) * 2 + 1, monkeypatch)
    fast, fast_csc, at = built(src, dst, w, n, directed, len(src), monkeypatch)
    assert below.get("graph compiled sorts", 0) == 0
    # from_edges sorts its arcs (2m undirected, m directed), csc() the m reversed arcs of a directed graph
    assert at["graph compiled sorts"] == (2 if directed else 1)
    for field in ("indptr", "indices", "weights", "arc_edges"):
        np.testing.assert_array_equal(getattr(fast, field), getattr(plain, field))
    for x, y in zip(fast_csc, plain_csc):
        np.testing.assert_array_equal(x, y)
    # the rows hold what the edges said, each arc's edge pointing back at its endpoints
    rows = np.repeat(np.arange(n), np.diff(fast.indptr))
    ends = np.sort(np.stack([rows, fast.indices]), axis=0)
    edge_ends = np.sort(np.stack([src[fast.arc_edges], dst[fast.arc_edges]]), axis=0)
    np.testing.assert_array_equal(ends, edge_ends)


def test_without_numba_the_argsort_builds(monkeypatch):
    monkeypatch.setattr(graph, "COMPILED_SORT_MIN_ARCS", 0)
    monkeypatch.setattr(compiled_sort, "available", lambda: False)
    with count_work() as work:
        g = graph.Graph.from_edges([2, 0, 2, 1], [0, 1, 1, 2], directed=True)
    assert work.get("graph compiled sorts", 0) == 0
    np.testing.assert_array_equal(g.indptr, [0, 1, 2, 4])
    np.testing.assert_array_equal(g.indices, [1, 2, 0, 1])


def test_int64_keys_take_the_argsort(monkeypatch):
    """Only int32 keys (vertex ids, the signature the warm-up compiles) take the compiled sort:
    int64 keys (the CPU's weighted betweenness sorts (vertex, source) entries) would compile a
    new signature inside a user's call."""
    monkeypatch.setattr(graph, "COMPILED_SORT_MIN_ARCS", 0)
    keys = np.array([5, 1, 5, 0, 1, 5], np.int64)
    with count_work() as work:
        offsets, moved = graph.compress(keys, 7, np.arange(6))
    assert work.get("graph compiled sorts", 0) == 0
    np.testing.assert_array_equal(offsets, [0, 1, 3, 3, 3, 3, 6, 6])
    np.testing.assert_array_equal(moved, [3, 1, 4, 0, 2, 5])
    with count_work() as work:
        _, moved32 = graph.compress(keys.astype(np.int32), 7, np.arange(6))
    assert work["graph compiled sorts"] == 1
    np.testing.assert_array_equal(moved32, moved)
