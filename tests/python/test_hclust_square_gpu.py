"""kernels/hclust.cu's expansion of a condensed dissimilarity into its square (the GPU route
of curnet.hclust on a condensed vector) against SciPy's squareform.

Marked `gpu` and skipped when CuPy or a CUDA device is missing."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform

from curnet.backends import cuda_available
from curnet.analyses.linkage import hclust

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 3, 17, 1000])
def test_square_equals_squareform(n, dtype):
    import cupy as cp
    from curnet.backends.cuda.hclust import square_of_condensed
    condensed = np.random.default_rng(n).random(n * (n - 1) // 2).astype(dtype)
    square = square_of_condensed(cp.asarray(condensed), n)
    assert square.dtype == np.float64 and square.shape == (n, n)
    # every cell its pair's entry, widened exactly: equal, not close
    np.testing.assert_array_equal(cp.asnumpy(square), squareform(condensed.astype(np.float64)))


def test_a_strided_or_integer_condensed_vector_is_expanded_as_its_values():
    import cupy as cp
    from curnet.backends.cuda.hclust import square_of_condensed
    n = 40
    rng = np.random.default_rng(5)
    wide = rng.random(2 * (n * (n - 1) // 2))
    every_other = cp.asarray(wide)[::2]                    # not contiguous
    np.testing.assert_array_equal(cp.asnumpy(square_of_condensed(every_other, n)), squareform(wide[::2]))
    counts = rng.integers(0, 9, size=n * (n - 1) // 2)
    np.testing.assert_array_equal(cp.asnumpy(square_of_condensed(cp.asarray(counts), n)),
                                  squareform(counts.astype(np.float64)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_hclust_of_a_condensed_vector_equals_its_square_matrix(dtype):
    """The route through the expansion gives the tree of the square matrix's route."""
    condensed = pdist(np.random.default_rng(7).normal(size=(300, 4))).astype(dtype)
    of_vector = hclust(condensed, "average", backend="cuda")
    of_square = hclust(squareform(condensed.astype(np.float64)), "average", backend="cuda")
    np.testing.assert_array_equal(of_vector.merge, of_square.merge)
    np.testing.assert_array_equal(of_vector.height, of_square.height)
    np.testing.assert_array_equal(of_vector.order, of_square.order)
    if dtype == np.float64:          # float32's rounding ties pairs, which SciPy's chain breaks otherwise
        on_cpu = hclust(condensed, "average", backend="cpu")
        np.testing.assert_array_equal(of_vector.merge, on_cpu.merge)
        np.testing.assert_allclose(of_vector.height, on_cpu.height, rtol=1e-13)
