"""kernels/hclust.cu (curnet.hclust on the GPU) against its NumPy twin and the CPU route.

Marked `gpu` and skipped when CuPy or a CUDA device is missing."""
from __future__ import annotations

import functools

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform

from curnet.backends import cuda_available
from curnet.analyses.linkage import METHODS, hclust, nn_chain_twin, r_encoding

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


@functools.lru_cache(maxsize=None)
def twin_of(n, tied, method):
    """The twin's merges on dissimilarity(n, n, tied)."""
    return nn_chain_twin(dissimilarity(n, n, tied), method)


def dissimilarity(seed, n, tied):
    rng = np.random.default_rng(seed)
    if tied:
        return squareform(rng.integers(1, 4, size=n * (n - 1) // 2).astype(float))
    return squareform(pdist(rng.normal(size=(n, 5))))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("n", [2, 3, 31, 33, 700, 2100])
def test_kernel_equals_its_twin(method, tied, n):
    import cupy as cp
    from curnet.backends.cuda.hclust import nn_chain
    d = dissimilarity(n, n, tied)
    a, b, h = nn_chain(cp.asarray(d), method)
    ta, tb, th = twin_of(n, tied, method)
    np.testing.assert_array_equal(cp.asnumpy(a), ta)
    np.testing.assert_array_equal(cp.asnumpy(b), tb)
    np.testing.assert_array_equal(cp.asnumpy(h), th)     # bit for bit: no fused multiply-add


def test_kernel_equals_its_twin_past_one_pass():
    # more objects than a block's threads load in one pass (1024 x 8): rows scanned in several
    import cupy as cp
    from curnet.backends.cuda.hclust import nn_chain
    n = 8300
    a, b, h = nn_chain(cp.asarray(dissimilarity(n, n, False)), "average")
    ta, tb, th = twin_of(n, False, "average")
    np.testing.assert_array_equal(cp.asnumpy(a), ta)
    np.testing.assert_array_equal(cp.asnumpy(b), tb)
    np.testing.assert_array_equal(cp.asnumpy(h), th)


def fastcluster_route() -> bool:
    """The CPU route is fastcluster's (same tree and heights bit for bit, ties included),
    else SciPy's (average linkage weighs the merged distances otherwise: last-bit heights;
    its chain breaks ties otherwise)."""
    try:
        import fastcluster  # noqa: F401
        return True
    except ImportError:
        return False


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("tied", [False, True])
def test_gpu_route_equals_cpu_route(method, tied):
    d = dissimilarity(7, 500, tied)
    g = hclust(d, method, backend="cuda")
    c = hclust(d, method, backend="cpu")
    exact = fastcluster_route()
    if tied and method == "average" and not exact:
        pytest.skip("SciPy's chain merges tied pairs in another order, and average linkage's later "
                    "heights follow the merges: only fastcluster's route is held to the kernel's tree")
    if exact or method != "average":
        np.testing.assert_array_equal(g.height, c.height)
    else:
        np.testing.assert_allclose(g.height, c.height, rtol=1e-13)
    if (exact or not tied) and not (method == "single" and tied):   # single: a spanning tree on ties
        np.testing.assert_array_equal(g.merge, c.merge)
        np.testing.assert_array_equal(g.order, c.order)
    # and the twin's tree, exactly
    merge, height, order = r_encoding(*nn_chain_twin(d, method), 500)
    np.testing.assert_array_equal(g.merge, merge)
    np.testing.assert_array_equal(g.height, height)
    np.testing.assert_array_equal(g.order, order)


def test_condensed_cupy_input():
    import cupy as cp
    d = dissimilarity(9, 200, False)
    g = hclust(cp.asarray(squareform(d)), "average")
    c = hclust(d, "average", backend="cpu")
    np.testing.assert_array_equal(g.merge, c.merge)
    np.testing.assert_allclose(g.height, c.height, rtol=1e-13)


def test_nearly_symmetric_matrix_is_read_by_its_lower_triangle():
    # 1 - TOM's triangles differ by rounding: the device copies the lower over the upper
    d = dissimilarity(12, 2500, False)
    rng = np.random.default_rng(12)
    skewed = d + np.triu(rng.uniform(-1e-13, 1e-13, d.shape), 1)
    lower = np.tril(d) + np.tril(d, -1).T
    g = hclust(skewed, backend="cuda")
    merge, height, order = r_encoding(*nn_chain_twin(lower, "average"), 2500)
    np.testing.assert_array_equal(g.merge, merge)
    np.testing.assert_array_equal(g.height, height)
