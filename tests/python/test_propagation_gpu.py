"""curnet.propagation on the GPU (cupyx.scipy.sparse, cuSPARSE SpMM) against the same calls on
the CPU (SciPy), on random graphs. Marked `gpu`; skipped without CuPy and a CUDA device."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import sparse

import curnet
from curnet.backends import cuda_available

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


def graphs():
    rng = np.random.default_rng(0)
    e = rng.integers(0, 500, (3000, 2))
    w = rng.uniform(0.1, 3.0, len(e))
    yield curnet.Graph.from_edges(e[:, 0], e[:, 1], w, directed=True, num_vertices=520, dtype=np.float64)
    yield curnet.generators.rmat(10, 8, seed=3)
    yield curnet.generators.rmat(9, 8, seed=4, directed=True, weighted=True, dtype=np.float64)


@pytest.mark.parametrize("index", range(3))
def test_pagerank_and_rwr_match_the_cpu(index):
    g = list(graphs())[index]
    n = len(g)
    rng = np.random.default_rng(index)
    p = sparse.random(n, 64, density=0.01, random_state=index, format="csc")
    p = p + sparse.csc_matrix((np.ones(64), (rng.integers(0, n, 64), np.arange(64))), shape=(n, 64))
    for kwargs in ({}, {"directed": False}, {"damping": 0.5}):
        np.testing.assert_allclose(curnet.pagerank(g, backend="cuda", **kwargs),
                                   curnet.pagerank(g, backend="cpu", **kwargs), rtol=0, atol=1e-12)
        np.testing.assert_allclose(curnet.pagerank(g, p, backend="cuda", batch=24, **kwargs),
                                   curnet.pagerank(g, p, backend="cpu", **kwargs), rtol=0, atol=1e-12)
    sets = [rng.choice(n, 5, replace=False) for _ in range(10)]
    np.testing.assert_allclose(curnet.rwr(g, sets, backend="cuda"), curnet.rwr(g, sets, backend="cpu"),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("kernel", ["regularized_laplacian", "diffusion", "pagerank"])
def test_kernels_and_scores_match_the_cpu(kernel):
    g = curnet.generators.rmat(8, 6, seed=5, weighted=True, dtype=np.float64)
    n = len(g)
    rng = np.random.default_rng(1)
    y = (rng.random((n, 3)) < 0.05).astype(float)
    y[0] = 1
    np.testing.assert_allclose(curnet.diffusion_kernel(g, kernel, backend="cuda").get(),
                               curnet.diffusion_kernel(g, kernel, backend="cpu"), rtol=0, atol=1e-10)
    for method in ("raw", "ml", "gm", "ber_s", "z"):
        np.testing.assert_allclose(curnet.diffuse(g, y, method=method, kernel=kernel, backend="cuda"),
                                   curnet.diffuse(g, y, method=method, kernel=kernel, backend="cpu"),
                                   rtol=1e-9, atol=1e-9)
    for method in ("mc", "ber_p"):
        gpu = curnet.diffuse(g, y, method=method, kernel=kernel, n_perm=200, backend="cuda")
        cpu = curnet.diffuse(g, y, method=method, kernel=kernel, n_perm=200, backend="cpu")
        assert_counts_close(gpu, cpu, 200, raw=method == "ber_p")


def test_null_matches_the_cpu():
    g = curnet.generators.rmat(10, 8, seed=6)
    seeds = np.arange(0, 200, 10)
    gpu = curnet.propagation_null(g, seeds, n=300, seed=2, backend="cuda", batch=128)
    cpu = curnet.propagation_null(g, seeds, n=300, seed=2, backend="cpu")
    np.testing.assert_array_equal(gpu.draws, cpu.draws)
    np.testing.assert_allclose(gpu.mean, cpu.mean, rtol=0, atol=1e-12)
    np.testing.assert_allclose(gpu.z, cpu.z, rtol=1e-8, atol=1e-8, equal_nan=True)
    assert_counts_close(gpu.p, cpu.p, 300)


def assert_counts_close(gpu, cpu, n_perm, raw=False):
    """Permutation counts agree but for a null value within rounding of the observed one (the
    two devices sum in different orders): under 1% of the entries, by one or two counts."""
    if raw:
        np.testing.assert_allclose(gpu, cpu, rtol=1e-6, atol=1e-9)
        return
    off = np.abs(gpu - cpu) > 1e-12
    assert off.mean() < 0.01, f"{int(off.sum())} of {off.size} entries differ"
    assert np.abs(gpu - cpu).max(initial=0) <= 2.5 / (n_perm + 1)


@pytest.mark.parametrize("k", [1, 3, 40, 130])
def test_walk_loop_matches_its_twin(k):
    """kernels/propagation.cu's walk_loop (the fused route, every step in one launch) against its
    NumPy twin, the host solver's power iteration, on random graphs with dangling and isolated
    vertices: every column's values, the steps taken, the columns that met max_iter (a warning
    alike); and against the GPU's step-by-step route (cuSPARSE)."""
    rng = np.random.default_rng(k)
    for trial in range(4):
        n = int(rng.integers(20, 400))
        m = int(rng.integers(n, 8 * n))
        e = rng.integers(0, n, (m, 2))
        directed = trial % 2 == 0
        g = curnet.Graph.from_edges(e[:, 0], e[:, 1], rng.uniform(0.1, 2.0, m), directed=directed,
                                    num_vertices=n + 5, dtype=np.float64)
        normalize = "symmetric" if trial == 3 else "walk"
        redistribute = normalize == "walk" and trial < 2
        s = rng.random((n + 5, k)) * (rng.random((n + 5, k)) < 0.2)
        s[rng.integers(0, n + 5, k), np.arange(k)] += 1.0
        max_iter = 6 if trial == 1 else 10_000
        twin_warned = assert_fused_matches_twin(g, s, float(rng.choice([0.15, 0.3, 0.7])), normalize,
                                                redistribute, max_iter)
        assert bool(twin_warned) == (max_iter == 6)


@pytest.mark.parametrize("k", [1, 5, 70])
def test_walk_loop_cuts_long_rows(k):
    """Rows longer than PIECE_ARCS (hubs) are walked in pieces by several warps, their sums met
    in the step: on random graphs with hubs of one to three pieces (and a row just under the
    cut), the fused route against its twin. A seventh of the columns start on a component of
    two vertices, where the walk converges at the damping's rate only, so the launch over 70
    columns leaves with those and a second launch finishes them (from the step it left at)."""
    from curnet.backends.cuda.propagation import PIECE_ARCS, long_rows
    from curnet.propagation.operators import open_device, walk
    rng = np.random.default_rng(100 + k)
    for trial in range(4):
        n = int(rng.integers(3 * PIECE_ARCS, 4 * PIECE_ARCS))
        m = int(rng.integers(2 * n, 4 * n))
        e = [rng.integers(0, n, (m, 2))]
        for hub, arcs in enumerate((PIECE_ARCS + 1, 2 * PIECE_ARCS + 37, PIECE_ARCS - 40)):
            tails = rng.choice(np.arange(3, n), arcs, replace=False)
            e.append(np.column_stack([tails, np.full(arcs, hub)]))
        e.append(np.array([[n, n + 1], [n + 1, n]]))          # the two-vertex component
        e = np.concatenate(e)
        directed = trial % 2 == 0
        g = curnet.Graph.from_edges(e[:, 0], e[:, 1], rng.uniform(0.1, 2.0, len(e)), directed=directed,
                                    num_vertices=n + 4, dtype=np.float64)
        normalize = "symmetric" if trial == 3 else "walk"
        cuts = long_rows(walk(g, open_device("cuda"), normalize=normalize).ptr, n + 4)
        assert cuts.rows >= 2 and int(cuts.piece_count.max()) >= 3
        s = rng.random((n + 4, k)) * (rng.random((n + 4, k)) < 0.05)
        s[rng.integers(0, n, k), np.arange(k)] += 1.0
        slow = np.arange(k)[: k // 7]
        s[:, slow] = 0.0
        s[n, slow] = 1.0
        redistribute = normalize == "walk" and trial < 2
        max_iter = 60 if trial == 1 else 10_000
        assert_fused_matches_twin(g, s, float(rng.choice([0.15, 0.3])), normalize, redistribute, max_iter)


def assert_fused_matches_twin(g, s, restart, normalize, redistribute, max_iter):
    """The fused kernel, the GPU's step route and the host solver (the twin) on the start block s:
    the same values, steps and warnings. Returns the twin's warnings."""
    import cupy as cp
    from curnet.propagation.operators import open_device, walk
    from curnet.propagation.solvers import WalkSolver
    gpu, cpu = open_device("cuda"), open_device("cpu")
    if redistribute:
        s = s / s.sum(axis=0)
    results = []
    for dev, fused in ((gpu, True), (gpu, False), (cpu, False)):
        solver = WalkSolver(dev, walk(g, dev, normalize=normalize), restart, redistribute=redistribute,
                            max_iter=max_iter, fused=fused)
        with dev.scope(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = solver.solve(dev.to_device(np.asarray(s, order=solver.order)))
            x = x.get() if isinstance(x, cp.ndarray) else x
        results.append((x, solver.iterations, [str(w.message) for w in caught]))
    (fused_x, fused_steps, fused_warned), (step_x, _, _), (twin_x, twin_steps, twin_warned) = results
    np.testing.assert_allclose(fused_x, twin_x, rtol=0, atol=1e-13)
    np.testing.assert_allclose(fused_x, step_x, rtol=0, atol=1e-13)
    assert fused_steps == twin_steps
    assert fused_warned == twin_warned
    return twin_warned
