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
