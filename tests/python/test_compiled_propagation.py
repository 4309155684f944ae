"""The CPU's fused propagations (backends/cpu/propagation.py, compiled_propagation.py) against
their step routes (SciPy's SpMM and NumPy's reductions): the random walk (WalkSolver with
fused=False) on random graphs, PageRank and the walk with restart (both normalizations), and the
regularized Laplacian's conjugate gradients (RegularizedLaplacianSolver), both Laplacians; the
same values bit for bit and the same steps for blocks of two columns or more (a lone column to
rounding); max_iter's warning; diffuStats' z-scores through the compiled route; and the route:
blocks whose work reaches the threshold take it, on the backend's threads, smaller or narrower
ones the step route."""
import contextlib
import warnings
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

import curnet  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.backends.cpu import compiled_propagation  # noqa: E402
from curnet.backends.cpu import propagation as cpu_propagation  # noqa: E402
from curnet.propagation import ConvergenceWarning  # noqa: E402
from curnet.propagation.operators import laplacian, open_device, walk  # noqa: E402
from curnet.propagation.solvers import RegularizedLaplacianSolver, Solver, WalkSolver  # noqa: E402


# where each compiled routine takes its chunk of columns
BLOCK_ARG = {"walk_chunk": 4, "laplacian_cg_chunk": 7}


@contextlib.contextmanager
def compiled_chunks(threshold=None, min_columns=None):
    """The compiled routines' chunks, listed (their widths); the thresholds set where given."""
    widths: list = []
    patches = []
    for name, arg in BLOCK_ARG.items():
        real = getattr(compiled_propagation, name)
        spy = (lambda real, arg: lambda *a: widths.append(a[arg].shape[1]) or real(*a))(real, arg)
        patches.append(mock.patch.object(compiled_propagation, name, spy))
    if threshold is not None:
        patches.append(mock.patch.object(cpu_propagation, "COMPILED_MIN_WORK", threshold))
    if min_columns is not None:
        patches.append(mock.patch.object(cpu_propagation, "COMPILED_MIN_COLUMNS", min_columns))
    with contextlib.ExitStack() as stack:
        for p in patches:
            stack.enter_context(p)
        yield widths


def graph(seed, n, m, directed, weighted, isolated):
    rng = np.random.default_rng(seed)
    e = rng.integers(0, max(1, n - isolated), (m, 2))
    w = rng.uniform(0.1, 2.0, m) if weighted else None
    return curnet.Graph.from_edges(e[:, 0], e[:, 1], w, directed=directed, num_vertices=n, dtype=np.float64)


def start_block(seed, n, k, kind):
    rng = np.random.default_rng(seed)
    if kind == "sets":                               # seed sets, each summing to 1
        s = np.zeros((n, k))
        for c in range(k):
            s[rng.choice(n, min(n, 3), replace=False), c] = 1.0 / min(n, 3)
        return s
    return rng.random((n, k)) + 0.01                  # dense start vectors


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 60), m=st.integers(0, 240), k=st.integers(1, 40),
       directed=st.booleans(), weighted=st.booleans(), isolated=st.integers(0, 5),
       pagerank=st.booleans(), symmetric=st.booleans(), kind=st.sampled_from(["sets", "dense"]),
       restart=st.sampled_from([0.15, 0.3, 0.7, 1.0]))
def test_the_compiled_walk_is_the_step_route_bit_for_bit(seed, n, m, k, directed, weighted, isolated,
                                                        pagerank, symmetric, kind, restart):
    g = graph(seed, n, m, directed, weighted, isolated)
    symmetric = symmetric and not directed and not pagerank
    dev = open_device("cpu")
    w = walk(g, dev, normalize="symmetric" if symmetric else "walk")
    s = start_block(seed + 1, n, k, kind)
    if pagerank:                                     # pagerank() hands the solver columns summing to 1
        s /= s.sum(axis=0)
    step = WalkSolver(dev, w, restart, redistribute=pagerank, fused=False)
    fused = WalkSolver(dev, w, restart, redistribute=pagerank, fused=True)
    with compiled_chunks() as widths:
        got = fused.solve(s.copy())
    want = step.solve(s.copy())
    assert sum(widths) == k                          # every column went through the compiled walk
    if k > 1:
        np.testing.assert_array_equal(got, want)
        assert fused.iterations == step.iterations
    else:                # NumPy sums a lone column's dangling mass and change pairwise
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-300)
        assert abs(fused.iterations - step.iterations) <= 1


def test_max_iter_warns_and_keeps_the_last_iterate_as_the_step_route_does():
    g = graph(3, 40, 160, True, True, 4)
    dev = open_device("cpu")
    w = walk(g, dev)
    s = start_block(4, 40, 12, "sets")
    out = {}
    for fused in (False, True):
        solver = WalkSolver(dev, w, 0.15, redistribute=True, max_iter=5, fused=fused)
        with pytest.warns(ConvergenceWarning, match="12 column"):
            out[fused] = solver.solve(s.copy())
        assert solver.iterations == 5
    np.testing.assert_array_equal(out[True], out[False])


def test_the_route_follows_the_blocks_work_and_spreads_chunks_over_the_threads():
    g = graph(5, 200, 900, True, True, 10)
    dev = open_device("cpu")
    arcs = walk(g, dev).w.nnz                                        # W's arcs, parallel ones merged
    assert 40 * arcs < cpu_propagation.COMPILED_MIN_WORK       # this graph is small for the default
    p = start_block(6, 200, 40, "sets")
    sets = [[i, i + 1, i + 2] for i in range(0, 120, 3)]             # 40 seed sets
    with compiled_chunks() as widths:
        step_route = curnet.pagerank(g, p, backend="cpu"), curnet.rwr(g, sets, backend="cpu")
    assert widths == []
    # the threshold at 40 columns' work: 39 stay with the step route, 40 take the compiled walk,
    # in chunks, every thread (4 here) a chunk
    with compiled_chunks(threshold=40 * arcs) as widths, \
            mock.patch.object(get_backend("cpu").members[0].plan, "workers", 4):
        curnet.pagerank(g, p[:, :39], backend="cpu")
        assert widths == []
        # narrow blocks stay with SciPy's SpMM whatever their work (a lone vector is faster there)
        with mock.patch.object(cpu_propagation, "COMPILED_MIN_WORK", 0):
            curnet.pagerank(g, p[:, :cpu_propagation.COMPILED_MIN_COLUMNS - 1], backend="cpu")
            assert widths == []
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            compiled = curnet.pagerank(g, p, backend="cpu"), curnet.rwr(g, sets, backend="cpu")
    assert widths == [10, 10, 10, 10] * 2
    for got, want in zip(compiled, step_route):
        np.testing.assert_array_equal(got, want)


def test_fused_true_on_the_cpu_takes_the_compiled_walk_whatever_the_work():
    g = graph(7, 10, 30, False, False, 0)
    dev = open_device("cpu")
    solver = WalkSolver(dev, walk(g, dev), 0.3, redistribute=False, fused=True)
    with compiled_chunks() as widths:
        solver.solve(start_block(8, 10, 1, "sets"))
    assert widths == [1]


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 60), m=st.integers(0, 240), k=st.integers(1, 40),
       weighted=st.booleans(), isolated=st.integers(0, 5), normalized=st.booleans(),
       sigma2=st.sampled_from([0.3, 1.0, 4.0]), add=st.sampled_from([0.5, 1.0, 2.0]),
       kind=st.sampled_from(["sets", "dense"]))
def test_the_compiled_conjugate_gradients_are_the_step_route_bit_for_bit(seed, n, m, k, weighted, isolated,
                                                                        normalized, sigma2, add, kind):
    g = graph(seed, n, m, False, weighted, isolated)
    dev = open_device("cpu")
    solver = RegularizedLaplacianSolver(dev, laplacian(g, dev, normalized=normalized), sigma2, add)
    s = start_block(seed + 1, n, k, kind)
    want = Solver.solve(solver, s.copy())            # the step route
    steps = solver.iterations
    with compiled_chunks(threshold=0, min_columns=0) as widths:
        got = solver.solve(s.copy())
    assert sum(widths) == k
    if k > 1:
        np.testing.assert_array_equal(got, want)
        assert solver.iterations == steps
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300)
        assert abs(solver.iterations - steps) <= 1


def test_diffustats_z_scores_through_the_compiled_route_are_the_step_routes():
    """z-scores propagate every background vertex's unit vector (the kernel's row sums): blocks
    of many columns, through the compiled conjugate gradients once the thresholds allow."""
    g = graph(11, 80, 300, False, True, 0)
    y = np.zeros((80, 3))
    y[[1, 5, 9, 20], 0] = 1.0
    y[[2, 3], 1] = 1.0
    y[40:60, 2] = np.linspace(0.1, 1, 20)
    want = curnet.diffuse(g, y, method="z", backend="cpu")
    with compiled_chunks(threshold=0) as widths:
        got = curnet.diffuse(g, y, method="z", backend="cpu")
    assert sum(widths) >= 80                         # the unit vectors of the background's rows
    np.testing.assert_array_equal(got, want)
