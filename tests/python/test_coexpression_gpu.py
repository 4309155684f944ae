"""curnet.coexpression on the GPU (CuPy) against the same code on NumPy.

Marked `gpu` and skipped when CuPy or a CUDA device is missing
(`pytest -m gpu tests/python/test_coexpression_gpu.py` on a GPU machine)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from curnet import coexpression as ce
from curnet.backends import cuda_available

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


def expression(seed, genes, samples, missing=0):
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(5, samples))
    x = rng.normal(size=(genes, samples)) + 1.5 * base[rng.integers(0, 5, genes)]
    if missing:
        x[rng.integers(0, genes, missing), rng.integers(0, samples, missing)] = np.nan
    return x


@pytest.mark.parametrize("method", ce.METHODS)
@pytest.mark.parametrize("missing", [0, 20])
def test_correlations_and_networks_match_numpy(method, missing):
    x = expression(1, 700, 40, missing)
    x[3] = 1.0                                                # a constant gene
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ce.CoexpressionWarning)
        np.testing.assert_allclose(ce.cor(x, method, backend="cuda", tile=256),
                                   ce.cor(x, method, backend="cpu"), rtol=1e-12, atol=1e-13)
        for options in ({"threshold": 0.5}, {"threshold": 0.3, "signed": True}, {"top_k": 5}):
            gpu = ce.coexpression_edges(x, method, backend="cuda", tile=256, pvalues=True, **options)
            cpu = ce.coexpression_edges(x, method, backend="cpu", tile=300, pvalues=True, **options)
            np.testing.assert_array_equal(gpu["source"], cpu["source"])
            np.testing.assert_array_equal(gpu["target"], cpu["target"])
            np.testing.assert_allclose(gpu["r"], cpu["r"], rtol=1e-12)
            np.testing.assert_allclose(gpu["p"], cpu["p"], rtol=1e-9)


@pytest.mark.parametrize("network_type", ce.NETWORK_TYPES)
def test_wgcna_quantities_match_numpy(network_type):
    x = expression(2, 600, 30)
    kw = dict(network_type=network_type)
    g = ce.pick_soft_threshold(x, backend="cuda", tile=200, **kw)["fitIndices"]
    c = ce.pick_soft_threshold(x, backend="cpu", **kw)["fitIndices"]
    for key in c:
        np.testing.assert_allclose(g[key], c[key], rtol=1e-9)
    np.testing.assert_allclose(ce.adjacency(x, network_type, backend="cuda"),
                               ce.adjacency(x, network_type, backend="cpu"), rtol=1e-12, atol=1e-15)
    for tom_type in ce.TOM_TYPES:
        np.testing.assert_allclose(
            ce.tom_similarity_from_expr(x, "bicor", network_type, 6, tom_type, backend="cuda", tile=128),
            ce.tom_similarity_from_expr(x, "bicor", network_type, 6, tom_type, backend="cpu"),
            rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(ce.soft_connectivity(x, backend="cuda"),
                               ce.soft_connectivity(x, backend="cpu"), rtol=1e-11)


def test_single_precision_on_the_gpu_is_close():
    x = expression(3, 500, 50)
    d = ce.cor(x, backend="cpu")
    assert np.abs(ce.cor(x, backend="cuda", dtype=np.float32) - d).max() < 1e-5
    a = ce.adjacency(x, backend="cpu")
    t = ce.tom_similarity(a, backend="cpu")
    assert np.abs(ce.tom_similarity(a, backend="cuda", dtype=np.float32) - t).max() < 1e-5


def test_large_tiled_network_never_holds_the_dense_matrix():
    """12,000 genes at tile 2,048: each tile is 32 MiB, the dense matrix would be 1.1 GiB."""
    import cupy as cp
    x = expression(4, 12_000, 60)
    pool = cp.get_default_memory_pool()
    pool.free_all_blocks()
    stats = {}
    e = ce.coexpression_edges(x, threshold=0.8, backend="cuda", tile=2048, stats=stats)
    assert len(e["source"]) > 0
    assert stats["device_peak_bytes"] < 12_000 ** 2 * 8 / 2
