"""blockwise_modules' device steps (curnet/coexpression/modules/ on CuPy) against the same steps on
NumPy: the block's 1 - TOM, its dendrogram, and the eigengenes and merging after one cut.

Marked `gpu` and skipped when CuPy or a CUDA device is missing."""
from __future__ import annotations

import numpy as np
import pytest

from curnet.coexpression import modules as wm
from curnet.backends import cuda_available

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]


def planted(seed, genes=600, samples=40):
    rng = np.random.default_rng(seed)
    hubs = rng.normal(size=(6, samples))
    strength = rng.uniform(0.5, 1.5, genes) * np.where(rng.random(genes) < 0.3, -1, 1)
    strength[rng.random(genes) < 0.25] = 0
    return hubs[rng.integers(0, 6, genes)] * strength[:, None] + rng.normal(size=(genes, samples))


@pytest.mark.parametrize("options", [{}, {"network_type": "signed", "tom_type": "unsigned"}])
def test_device_steps_equal_the_host_steps(options):
    x = planted(1)
    runs = {b: wm.ModuleDetection(x, backend=b, max_block_size=600, min_module_size=15, **options)
            for b in ("cuda", "cpu")}
    trees = {b: r.block_tree(0) for b, r in runs.items()}
    np.testing.assert_allclose(runs["cuda"].dissimilarity, runs["cpu"].dissimilarity, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(trees["cuda"].merge, trees["cpu"].merge)
    np.testing.assert_allclose(trees["cuda"].height, trees["cpu"].height, rtol=1e-10)
    labels = trees["cpu"].cutree(8)
    labels[np.isin(labels, np.flatnonzero(np.bincount(labels) < 15))] = 0
    results = {}
    for b, r in runs.items():
        r.set_block_labels(0, labels)
        results[b] = r.finish()
    np.testing.assert_array_equal(results["cuda"]["colors"], results["cpu"]["colors"])
    assert results["cuda"]["ME_names"] == results["cpu"]["ME_names"]
    np.testing.assert_allclose(results["cuda"]["MEs"], results["cpu"]["MEs"], atol=1e-10)


def test_several_blocks_on_the_device():
    x = planted(2, genes=500)
    r = wm.ModuleDetection(x, backend="cuda", max_block_size=200, min_module_size=15)
    assert r.n_blocks >= 3
    for b in range(r.n_blocks):
        tree = r.block_tree(b)
        assert tree.size == len(r.block_members[b])
        assert (np.diff(tree.height) >= -1e-12).all()


def test_batched_eigengenes_on_the_device_equal_the_host():
    import cupy as cp
    x = planted(3, genes=700, samples=50)
    codes = np.random.default_rng(3).integers(-1, 12, 700)
    codes[codes == 11] = 3                              # module 11 empty, module 3 large
    s = wm.scale_rows(np, x)
    host = wm.eigengenes(np, s, codes, 12)
    device = wm.eigengenes(cp, cp.asarray(s), codes, 12)
    np.testing.assert_allclose(device.get(), host, atol=1e-10)
    assert not host[:, 11].any()
