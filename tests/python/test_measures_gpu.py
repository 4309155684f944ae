"""The distance measures on the CUDA backend against the CPU backend (gpu-marked; run on a
GPU machine with `pytest -m gpu tests/python/test_measures_gpu.py`). No hypothesis or igraph
needed: the CPU side is checked against igraph in test_measures.py."""
import numpy as np
import pytest

import curnet
from curnet.backends import cuda_available

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


def same(got, expected):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(expected, float), rtol=1e-9,
                               atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("directed", [False, True])
def test_cuda_matches_cpu(weighted, directed):
    rng = np.random.default_rng(11)
    n, m = 3000, 12000
    w = rng.integers(1, 9, m) / 4 if weighted else None
    g = curnet.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), w,
                                directed=directed, num_vertices=n, dtype=np.float64)
    for f, kw in [(curnet.closeness, {}), (curnet.closeness, {"cutoff": 3, "mode": "in"}),
                  (curnet.harmonic_centrality, {"mode": "out"}), (curnet.eccentricity, {}),
                  (curnet.ego_size, {"order": 3})]:
        same(f(g, backend="cuda", **kw), f(g, backend="cpu", **kw))
    for f, kw in [(curnet.radius, {}), (curnet.diameter, {"unconnected": True}),
                  (curnet.mean_distance, {}), (curnet.mean_distance, {"directed": False})]:
        same(f(g, backend="cuda", **kw), f(g, backend="cpu", **kw))
    gpu_counts, gpu_unconnected = curnet.distance_table(g, backend="cuda")
    cpu_counts, cpu_unconnected = curnet.distance_table(g, backend="cpu")
    assert gpu_counts.tolist() == cpu_counts.tolist() and gpu_unconnected == cpu_unconnected


def test_cuda_all_sources_on_rmat():
    """Several device batches and the histogram's accumulation across them."""
    g = curnet.generators.rmat(14, seed=3)
    sample = np.random.default_rng(2).choice(len(g), 200, replace=False)
    same(curnet.closeness(g, backend="cuda")[sample], curnet.closeness(g, sample, backend="cpu"))
    gpu_counts, gpu_unconnected = curnet.distance_table(g, backend="cuda")
    cpu_counts, cpu_unconnected = curnet.distance_table(g, backend="cpu")
    assert gpu_counts.tolist() == cpu_counts.tolist() and gpu_unconnected == cpu_unconnected


@pytest.mark.parametrize("order", ["C", "F"])
def test_fused_reduction_kernels_match_their_numpy_twins(order):
    """kernels/reduce.cu's depth_stats and depth_histogram against backends/arrays.py's twins
    on random int32 depth blocks (unreachable -1, ties for the farthest vertex, a column with
    nothing kept), C- and F-ordered and a column slice, with the sinks' upto/mindist limits."""
    import cupy as cp
    from curnet.backends import get_backend
    from curnet.backends.arrays import depth_histogram, depth_stats
    gpu = get_backend("cuda")
    rng = np.random.default_rng(3)
    for n, kb in [(1, 1), (37, 5), (5000, 130), (20011, 64)]:
        d = rng.integers(-1, 9, (n, kb)).astype(np.int32)
        d[:, 0] = -1                                          # nothing reachable in one column
        d = np.asarray(d, order=order)
        for block in (d, d[:, 1:]):
            dev = cp.asarray(block, order=order) if block.size else cp.asarray(block)
            for upto, mindist in [(None, 0), (3, 0), (5, 2), (-1, 0)]:
                got = gpu.depth_stats(dev, upto, mindist)
                want = depth_stats(np, block, upto, mindist)
                for name in ("count", "total", "farthest", "farthest_at"):
                    np.testing.assert_array_equal(cp.asnumpy(got[name]), want[name], err_msg=name)
                np.testing.assert_allclose(cp.asnumpy(got["inverse"]), want["inverse"], rtol=1e-12)
            counts, unreachable = gpu.depth_histogram(dev)
            want_counts, want_unreachable = depth_histogram(np, block)
            np.testing.assert_array_equal(cp.asnumpy(counts), want_counts)
            assert int(unreachable) == int(want_unreachable)
    deep = np.full((4000, 3), 2000, np.int32)                 # beyond the kernel's 1,024 bins
    counts, unreachable = gpu.depth_histogram(cp.asarray(deep))
    assert len(counts) == 2000 and int(counts[-1]) == deep.size and int(unreachable) == 0
