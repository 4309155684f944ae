"""Leiden and Louvain on the GPU: kernels/leiden.cu's move_loop and refine_loop against their
NumPy twins on random inputs (exactly: integer weights make every sum exact), and whole runs'
quality against the CPU's. Marked `gpu`, skipped without CuPy and a CUDA device."""
from __future__ import annotations

import numpy as np
import pytest

import curnet
from oracles import planted
from curnet.backends import cuda_available, get_backend
from curnet.backends.cpu.leiden import CpuMoves
from curnet.backends.partitions import level_graph
from leiden_levels import level_quality, moving_start, random_arcs, refine_start

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


def on_device(args):
    """The arrays among a primitive's arguments on the device."""
    import cupy as cp
    return tuple(cp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)


@pytest.mark.parametrize("seed", range(8))
def test_local_moving_matches_numpy(seed):
    """move_loop (a level's rounds in one launch) against the NumPy twin,
    CpuMoves.numpy_local_moving: the same labels and the same rounds, buckets and kept buckets
    (integer weights: every sum exact)."""
    import cupy as cp
    from curnet.backends.cuda.leiden import CudaMoves
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(5, 600))
    arcs = random_arcs(rng, n, int(rng.integers(n, 8 * n)), hub=True)
    lg, dlg = level_graph(np, *arcs, n), level_graph(cp, *arcs, n)
    start = moving_start(rng, lg, modularity=seed % 2 == 1)
    want, want_total, want_stats = CpuMoves().numpy_local_moving(lg, *start, 7 + seed)
    got, got_total, got_stats = CudaMoves(get_backend("cuda").launcher).local_moving(
        dlg, *on_device(start), 7 + seed)
    np.testing.assert_array_equal(cp.asnumpy(got_stats), want_stats)
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    # the totals the moves kept are the new labels' (integer sizes: exact)
    np.testing.assert_array_equal(cp.asnumpy(got_total), np.bincount(want, weights=start[1], minlength=n))
    np.testing.assert_array_equal(cp.asnumpy(got_total), want_total)
    vsize, gamma, quality = start[1], start[4], start[5]
    assert want_stats[2] > 0                            # some bucket was kept: the test moved vertices
    assert level_quality(lg, want, vsize, gamma) > quality


@pytest.mark.parametrize("seed", range(8))
def test_refine_moves_matches_numpy(seed):
    """refine_loop (a level's refinement in one launch) against the NumPy twin,
    CpuMoves.numpy_refine_moves: the same sub-communities and rounds, each inside one
    community (integer weights and sizes)."""
    import cupy as cp
    from curnet.backends.cuda.leiden import CudaMoves
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(5, 600))
    arcs = random_arcs(rng, n, int(rng.integers(n, 8 * n)), hub=True)
    lg, dlg = level_graph(np, *arcs, n), level_graph(cp, *arcs, n)
    start = refine_start(rng, lg, modularity=seed % 2 == 1)
    want, want_stats = CpuMoves().numpy_refine_moves(lg, *start, 3 + seed)
    got, got_stats = CudaMoves(get_backend("cuda").launcher).refine_moves(dlg, *on_device(start), 3 + seed)
    np.testing.assert_array_equal(cp.asnumpy(got_stats), want_stats)
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    part = start[0]
    assert len(np.unique(want)) < n                     # some vertex joined another
    assert (part[want] == part).all()                   # each sub-community inside its community


def components_inside(g, membership):
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components
    src, dst = g.edge_sources(), g.indices
    inside = membership[src] == membership[dst]
    a = csr_matrix((np.ones(int(inside.sum())), (src[inside], dst[inside])), shape=(len(g), len(g)))
    return connected_components(a, directed=False)[0]


@pytest.mark.parametrize("algorithm", ["leiden", "louvain"])
def test_whole_runs_match_the_cpu_quality(algorithm):
    g, truth = planted(10, 60, 0.2, 0.01, seed=5)
    run = getattr(curnet, algorithm)
    kw = {"n_iterations": -1} if algorithm == "leiden" else {}
    gpu = [run(g, seed=s, backend="cuda", **kw) for s in range(5)]
    cpu = [run(g, seed=s, backend="cpu", **kw) for s in range(5)]
    for p in gpu:
        assert p.quality == pytest.approx(curnet.analyses.community_detection.modularity(g, p.membership), abs=1e-9)
        assert components_inside(g, p.membership) == p.n_communities     # each community connected
    assert np.median([p.quality for p in gpu]) >= np.median([p.quality for p in cpu]) * 0.998


def test_cpm_and_sweep_on_the_gpu():
    g, _ = planted(6, 40, 0.3, 0.02, seed=6)
    gpu = curnet.leiden(g, objective="cpm", resolution=0.05, seed=1, backend="cuda")
    cpu = curnet.leiden(g, objective="cpm", resolution=0.05, seed=1, backend="cpu")
    assert gpu.quality >= cpu.quality - 0.002 * abs(cpu.quality)
    sweep = curnet.leiden(g, resolutions=[0.5, 1.0, 2.0], seeds=[0, 1], backend="cuda")
    assert sweep.memberships.shape == (6, len(g))
    assert sweep.consensus(backend="cuda").n_communities >= 1


@pytest.mark.parametrize("seed", range(4))
def test_pieces_match_numpy(seed):
    """The GPU's connected pieces of communities (label propagation) against SciPy's."""
    import cupy as cp
    from curnet.backends.cuda.leiden import CudaMoves
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    arcs = random_arcs(rng, n, int(rng.integers(0, 3 * n)), hub=True)
    lg, dlg = level_graph(np, *arcs, n), level_graph(cp, *arcs, n)
    labels = rng.integers(0, int(rng.integers(1, 6)), n).astype(np.int32)
    want = CpuMoves().scipy_pieces(lg, labels)
    got = cp.asnumpy(CudaMoves(get_backend("cuda").launcher).pieces(dlg, cp.asarray(labels)))
    # the same pieces: each label of one side meets one label of the other
    pairs = np.unique(np.c_[want, got], axis=0)
    assert len(pairs) == len(np.unique(want)) == len(np.unique(got))
    smallest = np.full(n, n)
    np.minimum.at(smallest, got, np.arange(n))
    assert (smallest[got] == got).all()                      # each piece named by its smallest vertex


def test_sweep_as_copies_on_the_gpu():
    """The GPU's sweep (one run over copies) against the CPU's: each row's quality recomputed,
    communities connected, medians within 0.2%."""
    g, _ = planted(8, 40, 0.25, 0.02, seed=9)
    res, seeds = [0.5, 1.0, 2.0], list(range(6))
    gpu = curnet.leiden(g, resolutions=res, seeds=seeds, backend="cuda")
    cpu = curnet.leiden(g, resolutions=res, seeds=seeds, backend="cpu")
    for row, q, r in zip(gpu.memberships, gpu.quality, gpu.resolution):
        assert q == pytest.approx(curnet.analyses.community_detection.modularity(g, row, resolution=r), abs=1e-9)
        assert components_inside(g, row) == row.max() + 1
    for r in res:
        a, b = np.median(gpu.quality[gpu.resolution == r]), np.median(cpu.quality[cpu.resolution == r])
        assert a >= b - 0.002 * abs(b)
