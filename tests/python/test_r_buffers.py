"""Every `*_into` of the R adapters (and every Held) writes only into the buffer R allocated: R passes each
buffer as (address, length) (R's data_address()), and a result of another size is refused
before anything is written (a 50-gene ExpressionSet once got a 128 x 128 TOM written over
its 50 x 50 result)."""
import ctypes

import numpy as np
import pyarrow as pa
import pytest

from curnet.r_bridge import coexpression, traversals
from curnet.graph import Graph

SENTINEL = -7.0


def r_buffer(a, cells=None):
    """What R's data_address() passes for `a`: its address and its length (or `cells`)."""
    return [float(a.ctypes.data_as(ctypes.c_void_p).value), float(a.size if cells is None else cells)]


def expression(genes=8, samples=20, seed=1):
    """R's samples x genes matrix (column-major), as the Arrow array R exports."""
    x = np.random.default_rng(seed).normal(size=(samples, genes))
    return pa.array(x.ravel(order="F")), samples, genes


def graph():
    return Graph.from_edges([0, 1, 2], [1, 2, 3], [1.0, 2.0, 3.0], directed=True, num_vertices=4,
                            dtype=np.float64)


def calls():
    """(name, call writing into the buffer `b` that claims `cells` cells, cells it needs, dtype)."""
    g = graph()
    src = pa.array([0, 1], pa.int32())
    values, samples, genes = expression()
    return [
        ("bfs_into", lambda b: traversals.bfs_into(g, src, b, "double", backend="cpu"), 8, np.float64),
        ("sssp_into", lambda b: traversals.sssp_into(g, src, b, backend="cpu"), 8, np.float64),
        ("scc_into", lambda b: traversals.scc_into(g, b, "double", backend="cpu"), 4, np.float64),
        ("wgcna_dense_into", lambda b: coexpression.wgcna_dense_into("adjacency", b, values, samples, genes, False,
                                                                backend="cpu"), genes * genes, np.float64),
        ("tom_into", lambda b: coexpression.tom_into(b, pa.array(np.eye(5).ravel()), 5, backend="cpu"), 25, np.float64),
    ]


@pytest.mark.parametrize("case", range(5))
def test_a_buffer_of_another_size_is_refused_before_any_write(case):
    name, call, cells, dtype = calls()[case]
    room = np.full(cells + 64, SENTINEL, dtype=dtype)        # room past the claimed end shows any write
    for claimed in (cells - 1, cells + 1, 0):
        with pytest.raises(ValueError, match=f"allocated holds {claimed:,} values where {cells:,}"):
            call(r_buffer(room, claimed))
        assert (room == SENTINEL).all(), name
    call(r_buffer(room[:cells]))                              # the right size is written, and only it
    assert not (room[:cells] == SENTINEL).all(), name
    assert (room[cells:] == SENTINEL).all(), name


def test_coexpression_edges_are_refused_into_vectors_of_another_length():
    values, samples, genes = expression(genes=30, samples=12, seed=3)
    held = coexpression.coexpression_edges_for_r(values, samples, genes, False, "pearson", 0.3, None, False,
                                                 False, 1.0, backend="cpu")
    arrays = held.arrays()
    assert [a[:2] for a in arrays] == [[["from"], "integer"], [["to"], "integer"], [["r"], "double"]]
    m = arrays[0][2]
    assert m > 0 and all(a[2] == m for a in arrays)
    assert held.values() == {"from": None, "to": None, "r": None, "warnings": []}
    ints, doubles = np.full(m + 8, -7, np.int32), np.full(m + 8, SENTINEL)
    with pytest.raises(ValueError, match=f"allocated holds {m - 1:,} values where {m:,}"):
        held.into(2, r_buffer(doubles, m - 1))
    assert (doubles == SENTINEL).all()
    held.into(0, r_buffer(ints[:m]))
    assert ints[:m].min() >= 1 and ints[:m].max() <= genes and (ints[m:] == -7).all()   # 1-based genes


def test_bare_addresses_from_python_callers_still_work():
    g = graph()
    out = np.empty((1, 4), order="F")
    traversals.bfs_into(g, pa.array([0], pa.int32()), out.ctypes.data, "double", backend="cpu")
    np.testing.assert_array_equal(out, [[0, 1, 2, 3]])
