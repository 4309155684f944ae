"""curnet.hclust (curnet/linkage.py) against SciPy's linkage and R's hclust / fastcluster::hclust,
and its NumPy twin of the GPU kernel against the CPU route."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.cluster.hierarchy import cut_tree, linkage
from scipy.spatial.distance import pdist, squareform

import curnet
from curnet.analyses.linkage import METHODS, hclust, nn_chain_twin, r_encoding


def random_dissimilarity(seed, n, tied=False):
    rng = np.random.default_rng(seed)
    if tied:      # few distinct values: many exact ties
        return squareform(rng.integers(1, 4, size=n * (n - 1) // 2).astype(float))
    return squareform(pdist(rng.normal(size=(n, 6))))


def scipy_groups(z, k):
    """SciPy's cut into k groups, renumbered by first member (R's cutree numbering)."""
    g = cut_tree(z, n_clusters=k).ravel()
    _, first = np.unique(g, return_index=True)
    rank = {g[f]: r + 1 for r, f in enumerate(sorted(first))}
    return np.array([rank[v] for v in g])


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [2, 3, 17, 120])
def test_matches_scipy_on_random_dissimilarities(method, n):
    d = random_dissimilarity(n, n)
    tree = curnet.hclust(d, method, backend="cpu")
    z = linkage(squareform(d), method)
    np.testing.assert_allclose(tree.height, z[:, 2], rtol=1e-12)
    np.testing.assert_array_equal(tree.scipy_linkage()[:, :2], z[:, :2])
    np.testing.assert_array_equal(np.sort(tree.order), np.arange(1, n + 1))
    for k in range(1, n + 1):
        np.testing.assert_array_equal(tree.cutree(k), scipy_groups(z, k))


def test_condensed_and_square_inputs_agree():
    d = random_dissimilarity(3, 40)
    a = hclust(d, backend="cpu")
    b = hclust(squareform(d), backend="cpu")
    np.testing.assert_array_equal(a.merge, b.merge)
    np.testing.assert_array_equal(a.height, b.height)
    np.testing.assert_array_equal(a.order, b.order)


def test_a_matrix_nearly_symmetric_is_read_by_its_lower_triangle():
    # a TOM's two triangles are sums taken in different orders: they differ by rounding
    d = random_dissimilarity(4, 50)
    rng = np.random.default_rng(4)
    skewed = d + np.triu(rng.uniform(-1e-13, 1e-13, d.shape), 1)
    lower = np.tril(d) + np.tril(d, -1).T
    got, want = hclust(skewed, backend="cpu"), hclust(lower, backend="cpu")
    np.testing.assert_array_equal(got.merge, want.merge)
    np.testing.assert_array_equal(got.height, want.height)
    with pytest.raises(ValueError, match="symmetric"):
        hclust(d + np.triu(np.full(d.shape, 1e-6), 1), backend="cpu")


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**31 - 1), st.sampled_from(["average", "complete"]),
       st.booleans())
def test_twin_of_the_kernel_equals_the_cpu_route(n, seed, method, tied):
    d = random_dissimilarity(seed, n, tied)
    tree = hclust(d, method, backend="cpu")
    merge, height, order = r_encoding(*nn_chain_twin(d, method), n)
    np.testing.assert_array_equal(merge, tree.merge)
    np.testing.assert_array_equal(height, tree.height)
    np.testing.assert_array_equal(order, tree.order)


def test_single_linkage_twin_has_the_same_heights_on_ties():
    # fastcluster's single linkage is a spanning tree, the twin a chain: on ties the trees may
    # differ, the heights (the spanning tree's edges) cannot
    d = random_dissimilarity(5, 80, tied=True)
    _, _, h = nn_chain_twin(d, "single")
    np.testing.assert_array_equal(np.sort(h), hclust(d, "single", backend="cpu").height)


def test_r_encoding_of_a_small_tree():
    # 0 and 1 at 1, 2 and 3 at 2, then the two pairs at 5: R's merge and order
    d = np.array([[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 2], [5, 5, 2, 0]], dtype=float)
    t = hclust(d, "complete", backend="cpu", labels=["a", "b", "c", "d"])
    np.testing.assert_array_equal(t.merge, [[-1, -2], [-3, -4], [1, 2]])
    np.testing.assert_array_equal(t.height, [1, 2, 5])
    np.testing.assert_array_equal(t.order, [1, 2, 3, 4])
    assert t.labels == ["a", "b", "c", "d"]
    np.testing.assert_array_equal(t.cutree(2), [1, 1, 2, 2])


@pytest.mark.parametrize("bad, message", [
    (np.array([[0, np.nan], [np.nan, 0]]), "finite"),
    (np.array([[0, 1.0], [2.0, 0]]), "symmetric"),
    (np.zeros((1, 1)), "at least 2"),
    (np.zeros(4), "condensed"),
    (np.zeros((2, 3)), "square"),
])
def test_bad_input(bad, message):
    with pytest.raises(ValueError, match=message):
        hclust(bad, backend="cpu")
    with pytest.raises(ValueError, match="method"):
        hclust(np.zeros(3), "ward", backend="cpu")


R_SCRIPT = """
d <- as.matrix(read.table("{path}"))
for (m in c("average", "complete", "single")) {{
  for (who in c("fastcluster", "stats")) {{
    h <- if (who == "fastcluster") fastcluster::hclust(as.dist(d), m) else stats::hclust(as.dist(d), m)
    cat(who, m, "merge", h$merge, "\\n")
    cat(who, m, "height", sprintf("%.17g", h$height), "\\n")
    cat(who, m, "order", h$order, "\\n")
  }}
}}
"""


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs R")
@pytest.mark.parametrize("tied", [False, True])
def test_matches_r_hclust_and_fastcluster(tmp_path, tied):
    have = subprocess.run(["Rscript", "-e", "quit(status = !requireNamespace('fastcluster', quietly = TRUE))"])
    if have.returncode:
        pytest.skip("needs R's fastcluster")
    n = 60
    d = random_dissimilarity(11, n, tied)
    path = tmp_path / "d.txt"
    np.savetxt(path, d, fmt="%.17g")
    out = subprocess.run(["Rscript", "-e", R_SCRIPT.format(path=path)], capture_output=True, text=True,
                         check=True).stdout
    r = {}
    for line in out.splitlines():
        who, m, what, *values = line.split()
        r[who, m, what] = np.array(values, dtype=float)
    for m in METHODS:
        t = hclust(d, m, backend="cpu")
        for who in ("fastcluster", "stats"):
            heights = r[who, m, "height"]
            if tied and who == "stats":
                # stats::hclust breaks exact ties otherwise (the module's notes): only single
                # linkage's heights (a spanning tree's edges) cannot differ
                if m == "single":
                    np.testing.assert_array_equal(t.height, heights)
                continue
            np.testing.assert_array_equal(t.merge, r[who, m, "merge"].reshape(2, n - 1).T)
            np.testing.assert_allclose(t.height, heights, rtol=1e-10)
            np.testing.assert_array_equal(t.order, r[who, m, "order"])
