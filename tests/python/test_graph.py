"""Graph construction: inputs of every kind, names, CSR/CSC, offsets, repr."""
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import curnet
from curnet.graph import INT32_MAX, offset_dtype


def edges(g):
    return sorted(zip(g.edge_sources().tolist(), g.indices.tolist()))


@pytest.mark.parametrize("make", [
    lambda a: a, list, pd.Series, pl.Series, pa.array,
    lambda a: pa.chunked_array([a[:2], a[2:]]),
])
def test_columns_of_every_kind(make):
    src, dst = np.array([0, 1, 2]), np.array([1, 2, 0])
    g = curnet.Graph.from_edges(make(src), make(dst), make(np.array([1.0, 2.0, 3.0])))
    assert edges(g) == [(0, 1), (1, 2), (2, 0)]
    assert g.weights.dtype == np.float32 and g.weighted and g.directed


def test_names_in_order_of_first_appearance_and_back():
    g = curnet.Graph.from_edges(["9606.ENSP02", "9606.ENSP01"], ["9606.ENSP01", "x y"], directed=False)
    assert g.names.tolist() == ["9606.ENSP02", "9606.ENSP01", "x y"]
    assert len(g) == 3 and g.num_edges == 2 and g.num_arcs == 4
    assert curnet.bfs(g, ["x y"], backend="cpu").tolist() == [[2, 1, 0]]


def test_polars_and_arrow_string_columns():
    df = pl.DataFrame({"a": ["p", "q"], "b": ["q", "r"]})
    g = curnet.Graph.from_edges(df["a"], df["b"])
    assert g.names.tolist() == ["p", "q", "r"]
    g2 = curnet.Graph.from_edges(pa.array(["p", "q"]), pa.array(["q", "r"]).dictionary_encode())
    assert g2.names.tolist() == ["p", "q", "r"] and edges(g2) == [(0, 1), (1, 2)]


def test_names_given_fix_the_vertex_order():
    g = curnet.Graph.from_edges(["b"], ["a"], names=["a", "b", "c"])
    assert len(g) == 3 and edges(g) == [(1, 0)]
    g2 = curnet.Graph.from_edges([1], [0], names=["a", "b", "c"])
    assert len(g2) == 3 and g2.names.tolist() == ["a", "b", "c"]


def test_csc_and_undirected_arcs():
    g = curnet.Graph.from_edges([0, 0, 2], [1, 2, 1], [1.0, 2.0, 3.0])
    ptr, src, w = g.csc()
    assert ptr.tolist() == [0, 0, 2, 3]
    assert sorted(zip(src[ptr[1]:ptr[2]].tolist(), w[ptr[1]:ptr[2]].tolist())) == [(0, 1.0), (2, 3.0)]
    assert g.in_degree().tolist() == [0, 2, 1] and g.out_degree().tolist() == [2, 0, 1]
    u = curnet.Graph.from_edges([0], [1], [5.0], directed=False)
    assert edges(u) == [(0, 1), (1, 0)] and u.csc()[0] is u.indptr


def test_duplicates_self_loops_isolated_vertices_and_float64():
    g = curnet.Graph.from_edges([0, 0, 1], [1, 1, 1], [1, 2, 3], num_vertices=5, dtype=np.float64)
    assert len(g) == 5 and g.num_edges == 3 and g.weights.dtype == np.float64
    assert curnet.bfs(g, [0], backend="cpu").tolist() == [[0, 1, -1, -1, -1]]


def test_offsets_widen_past_int32():
    assert offset_dtype(INT32_MAX) == np.int32
    assert offset_dtype(INT32_MAX + 1) == np.int64
    g = curnet.Graph.from_edges([0], [1])
    assert g.indptr.dtype == np.int32


def test_repr_len_nbytes():
    g = curnet.Graph.from_edges(["a"], ["b"], [0.5])
    r = repr(g)
    assert "directed" in r and "2 vertices" in r and "1 edges" in r and "named" in r
    assert g.nbytes > 0


def test_cupy_like_input_is_copied_to_host():
    class FakeDeviceArray:      # what CuPy exposes: __cuda_array_interface__ and .get()
        __cuda_array_interface__ = {}
        def __init__(self, a): self.a = np.asarray(a)
        def get(self): return self.a
    g = curnet.Graph.from_edges(FakeDeviceArray([0, 1]), FakeDeviceArray([1, 2]))
    assert edges(g) == [(0, 1), (1, 2)]


def test_one_long_vertex_name_does_not_widen_every_endpoint():
    """Names were factorized as a fixed-width array: one 635-character name made each of the
    2m endpoints 2.5 KB (4.4 GB for 312k edges). Now the memory follows the names' text."""
    import tracemalloc
    m = 20_000
    src = np.array([f"g{i}" for i in range(m)], dtype=object)
    dst = np.array([f"g{i + 1}" for i in range(m)], dtype=object)
    dst[-1] = "x" * 635
    tracemalloc.start()
    try:
        g = curnet.Graph.from_edges(src, dst)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(g) == m + 1 and g.names[-1] == "x" * 635 and g.names[1] == "g1"
    assert peak < 2 * m * 635 * 4 / 10, peak        # the fixed-width copy alone was 2m x 2540 bytes
    assert g.edges()[1][-1] == m and g.edges()[0][0] == 0
