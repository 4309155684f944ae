"""curnet.coexpression.blockwise_modules (curnet/coexpression/modules/) against WGCNA's
blockwiseModules, its tree cut (curnet/tree_cut.py) against R's dynamicTreeCut::cutreeHybrid,
the steps against their definitions, and the `curnet modules` command."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from scipy.special import comb

from curnet import coexpression as ce
from curnet.backends import get_backend
from curnet.coexpression import modules as wm
from curnet.analyses.linkage import hclust

HAVE_R = shutil.which("Rscript") is not None


def r_has(*packages) -> bool:
    if not HAVE_R:
        return False
    test = " && ".join(f"requireNamespace('{p}', quietly = TRUE)" for p in packages)
    return subprocess.run(["Rscript", "-e", f"quit(status = !({test}))"]).returncode == 0


def adjusted_rand(a, b) -> float:
    _, ai = np.unique(np.asarray(a).astype(str), return_inverse=True)
    _, bi = np.unique(np.asarray(b).astype(str), return_inverse=True)
    t = np.zeros((ai.max() + 1, bi.max() + 1))
    np.add.at(t, (ai, bi), 1)
    s, sa, sb = comb(t, 2).sum(), comb(t.sum(1), 2).sum(), comb(t.sum(0), 2).sum()
    e = sa * sb / comb(len(ai), 2)
    return (s - e) / ((sa + sb) / 2 - e)


def planted(seed, genes=240, samples=40, modules=4, background=0.25):
    """Genes x samples: modules of genes around hidden profiles (some negatively), and noise."""
    rng = np.random.default_rng(seed)
    hubs = rng.normal(size=(modules, samples))
    which = rng.integers(0, modules, genes)
    strength = rng.uniform(0.5, 1.5, genes) * np.where(rng.random(genes) < 0.3, -1, 1)
    strength[rng.random(genes) < background] = 0
    return hubs[which] * strength[:, None] + rng.normal(size=(genes, samples))


# -- the steps ------------------------------------------------------------------------------------
def test_eigengene_is_the_signed_first_principal_component():
    x = planted(1, genes=60)
    me = wm.eigengene(x)
    s = (x - x.mean(1, keepdims=True)) / x.std(1, ddof=1, keepdims=True)
    w, v = np.linalg.eigh(s.T @ s)                     # samples x samples
    pc = v[:, -1]
    np.testing.assert_allclose(np.abs(me), np.abs(pc), atol=1e-10)
    assert np.isclose(np.linalg.norm(me), 1)
    assert np.corrcoef(me, s.mean(0))[0, 1] > 0


def test_good_samples_genes():
    x = planted(2, genes=50, samples=12)
    x[3] = 7.0                                          # constant
    x[5, :8] = np.nan                                   # more than half missing
    x[:, 2] = np.nan                                    # a sample without values
    genes, samples = wm.good_samples_genes(x)
    assert np.flatnonzero(~genes).tolist() == [3, 5]
    assert np.flatnonzero(~samples).tolist() == [2]
    with pytest.raises(ValueError, match="too few genes"):   # WGCNA's first check, as there
        wm.good_samples_genes(x[:, :3])


def test_labels2colors():
    np.testing.assert_array_equal(wm.labels2colors([0, 1, 2, 1]), ["grey", "turquoise", "blue", "turquoise"])
    assert wm.labels2colors([35])[0] == "turquoise.1"


def test_blocks_hold_at_most_max_block_size_and_keep_modules_together():
    x = planted(3, genes=400, modules=5, background=0)
    z, _ = ce.prepare(x, "pearson")
    blocks = wm.form_blocks(z, 120, signed=False)
    sizes = np.bincount(blocks)[1:]
    assert sizes.max() <= 120 and sizes.sum() == 400
    assert (np.diff(sizes) <= 0).all()                  # numbered by size
    np.testing.assert_array_equal(wm.form_blocks(z, 400, signed=False), np.ones(400))


@pytest.mark.parametrize("bad, message", [
    ({"power": 0}, "power must be between 1 and 30"),
    ({"power": 31}, "power"),
    ({"network_type": "x"}, "networkType"),
    ({"tom_type": "x"}, "TOMType"),
    ({"cor_type": "spearman"}, "corType"),
    ({"merge_cut_height": 2}, "mergeCutHeight"),
])
def test_bad_options(bad, message):
    with pytest.raises(ValueError, match=message):
        ce.blockwise_modules(planted(4, genes=40), backend="cpu", **bad)


def test_bad_input():
    x = planted(5, genes=60)
    with pytest.raises(ValueError, match="too few samples"):
        ce.blockwise_modules(x[:, :3], backend="cpu")
    y = x.copy()
    y[4, 2] = np.nan
    with pytest.raises(ValueError, match="impute"):
        ce.blockwise_modules(y, backend="cpu")


def test_blocks_are_sized_and_checked_by_the_devices_free_memory(monkeypatch):
    """The CPU device's free memory is the host's: the default block size follows it, and a
    block it cannot hold is refused before any work, naming maxBlockSize."""
    from curnet import memory
    from curnet.errors import OutputTooLargeError
    x = planted(7, genes=80)
    monkeypatch.setattr(memory, "available_host_memory", lambda: 40 * 40 * 8 * wm.BLOCK_MATRICES)
    assert wm.largest_block(get_backend("cpu")) == 37                  # sqrt(0.9 * 40 * 40)
    assert wm.ModuleDetection(x, backend="cpu").n_blocks >= 3           # 80 genes, at most 37 a block
    with pytest.raises(OutputTooLargeError, match="a block of 80 genes .* host memory.*maxBlockSize"):
        wm.ModuleDetection(x, backend="cpu", max_block_size=100)


def test_constant_genes_are_grey_and_outside_the_blocks():
    x = planted(6, genes=120)
    x[7] = 1.0
    r = ce.blockwise_modules(x, backend="cpu", min_module_size=10)
    assert not r["goodGenes"][7] and r["colors"][7] == "grey" and np.isnan(r["blocks"][7])
    assert 7 + 1 not in r["blockGenes"][0]
    assert r["MEs"].shape == (40, len(r["ME_names"]))
    assert r["ME_names"][-1] == "MEgrey"


# -- against R ----------------------------------------------------------------------------------------
CUT_SCRIPT = """
d <- as.matrix(read.table("{d}")); m <- as.matrix(read.table("{m}"))
n <- nrow(d)
h <- structure(list(merge = matrix(as.integer(m[-n, 1:2]), ncol = 2), height = m[-n, 3],
                    order = as.integer(m[, 4]), method = "average"), class = "hclust")
for (ds in 0:3) cat(dynamicTreeCut::cutreeHybrid(h, distM = d, cutHeight = 0.995, minClusterSize = {size},
                                                 deepSplit = ds, verbose = 0)$labels, "\\n")
"""


@pytest.mark.skipif(not r_has("dynamicTreeCut"), reason="needs R's dynamicTreeCut")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tree_cut_equals_r_cutree_hybrid(tmp_path, seed):
    from curnet.analyses.tree_cut import cutree_hybrid
    x = planted(seed, genes=200)
    d = wm.block_dissimilarity(x, "pearson", "unsigned", 6, "signed", "min", 1.0, "cpu")
    tree = hclust(d, backend="cpu")
    n = len(d)
    np.savetxt(tmp_path / "d.txt", d, fmt="%.17g")
    m = np.column_stack([np.vstack([tree.merge, [0, 0]]), np.append(tree.height, 0), tree.order])
    np.savetxt(tmp_path / "m.txt", m, fmt="%.17g")
    out = subprocess.run(["Rscript", "-e", CUT_SCRIPT.format(d=tmp_path / "d.txt", m=tmp_path / "m.txt", size=15)],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    for deep_split, line in enumerate(out):
        want = np.array(line.split(), dtype=np.int64)
        got = cutree_hybrid(tree, d, min_cluster_size=15, deep_split=deep_split)
        assert len(want) == n
        np.testing.assert_array_equal(got, want)


def test_tree_cut_with_float_ordinal_ranks(monkeypatch):
    # SciPy 1.18's rankdata gives floats for method="ordinal", which the port uses as indices
    import scipy.stats
    from curnet.analyses.tree_cut import cutree_hybrid
    x = planted(4, genes=200)
    d = wm.block_dissimilarity(x, "pearson", "unsigned", 6, "signed", "min", 1.0, "cpu")
    tree = hclust(d, backend="cpu")
    want = cutree_hybrid(tree, d, min_cluster_size=15)
    import dynamicTreeCut.dynamicTreeCut as port
    rankdata = scipy.stats.rankdata

    def float_ranks(a, method="average", **options):
        return rankdata(a, method=method, **options).astype(float)
    monkeypatch.setattr(scipy.stats, "rankdata", float_ranks)
    monkeypatch.setattr(port, "rankdata", float_ranks)        # as the port binds it under SciPy 1.18
    got = cutree_hybrid(tree, d, min_cluster_size=15)
    np.testing.assert_array_equal(got, want)
    assert len(set(got.tolist()) - {0}) >= 2


WGCNA_SCRIPT = """
suppressMessages(library(WGCNA))
x <- t(as.matrix(read.table("{x}")))
bw <- blockwiseModules(x, maxBlockSize = 5000, minModuleSize = 15, verbose = 0, nThreads = 1)
cat(bw$colors, "\\n")
cat(names(bw$MEs), "\\n")
cat(sprintf("%.17g", as.matrix(bw$MEs)), "\\n")
"""


@pytest.mark.skipif(not r_has("WGCNA"), reason="needs R's WGCNA")
def test_blockwise_modules_equals_wgcna(tmp_path):
    x = planted(11, genes=240)
    np.savetxt(tmp_path / "x.txt", x, fmt="%.17g")
    out = subprocess.run(["Rscript", "-e", WGCNA_SCRIPT.format(x=tmp_path / "x.txt")], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    colors, names, values = out[0].split(), out[1].split(), np.array(out[2].split(), dtype=float)
    want_me = values.reshape(len(names), -1).T
    r = ce.blockwise_modules(x, backend="cpu", min_module_size=15)
    assert adjusted_rand(r["colors"], colors) >= 0.99
    assert len(set(r["colors"])) == len(set(colors))
    assert sorted(r["ME_names"]) == sorted(names)
    for j, name in enumerate(names):
        got = r["MEs"][:, r["ME_names"].index(name)]
        assert min(np.abs(got - want_me[:, j]).max(), np.abs(got + want_me[:, j]).max()) < 1e-6
    # the planted modules (hub genes, strength 0: background)
    assert len(set(r["colors"]) - {"grey"}) >= 3


ME_SCRIPT = """
suppressMessages(library(WGCNA))
x <- t(as.matrix(read.table("{x}")))
colors <- scan("{c}", what = "", quiet = TRUE)
me <- moduleEigengenes(x, colors, excludeGrey = FALSE)$eigengenes
cat(names(me), "\\n")
cat(sprintf("%.17g", as.matrix(me)), "\\n")
m <- mergeCloseModules(x, colors, cutHeight = {cut}, relabel = TRUE, verbose = 0)
cat(m$colors, "\\n")
cat(names(m$newMEs), "\\n")
cat(sprintf("%.17g", as.matrix(m$newMEs)), "\\n")
"""


def close_modules(seed, genes=300, samples=30):
    """Genes x samples and their colours: 6 modules around 4 hubs, so two pairs share a hub
    (their eigengenes correlate: mergeCloseModules merges them), and grey genes."""
    rng = np.random.default_rng(seed)
    hubs = rng.normal(size=(4, samples))
    module = rng.integers(0, 7, genes)                  # 6: grey
    hub = np.array([0, 0, 1, 2, 2, 3, 0])[module]
    strength = rng.uniform(0.6, 1.4, genes) * np.where(rng.random(genes) < 0.3, -1, 1)
    strength[module == 6] = 0
    x = hubs[hub] * strength[:, None] + rng.normal(size=(genes, samples))
    names = np.array(list(wm.STANDARD_COLORS[:6]) + ["grey"], dtype=object)
    return x, names[module]


def assert_same_up_to_sign(got, want, tol=1e-6):
    assert min(np.abs(got - want).max(), np.abs(got + want).max()) < tol


@pytest.mark.skipif(not r_has("WGCNA"), reason="needs R's WGCNA")
def test_eigengenes_and_merging_equal_wgcna(tmp_path):
    x, colors = close_modules(0)
    cut = 0.25
    np.savetxt(tmp_path / "x.txt", x, fmt="%.17g")
    (tmp_path / "c.txt").write_text("\n".join(colors))
    out = subprocess.run(["Rscript", "-e", ME_SCRIPT.format(x=tmp_path / "x.txt", c=tmp_path / "c.txt", cut=cut)],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    # moduleEigengenes: every module's, grey's too, in R's factor order
    names = out[0].split()
    want = np.array(out[1].split(), dtype=float).reshape(len(names), -1).T
    levels, me = wm.module_eigengenes(np, wm.scale_rows(np, x), colors, exclude_grey=False, grey="grey")
    assert [f"ME{v}" for v in levels] == names
    for j in range(len(names)):
        assert_same_up_to_sign(me[:, j], want[:, j])
    # mergeCloseModules(relabel = TRUE): the same merged colours and eigengenes
    merged_colors, merged_names = out[2].split(), out[3].split()
    want = np.array(out[4].split(), dtype=float).reshape(len(merged_names), -1).T
    seq = list(wm.labels2colors(np.arange(1, len(set(colors)) + 1)))
    merged, got_names, got = wm.merge_close_modules(get_backend("cpu"), wm.scale_rows(np, x), colors, cut,
                                                     "pearson", 1.0, "grey", seq)
    assert len(set(merged)) < len(set(colors))         # something merged
    assert merged.tolist() == merged_colors
    assert sorted(f"ME{v}" for v in got_names) == sorted(merged_names)
    for j, name in enumerate(merged_names):
        assert_same_up_to_sign(got[:, [f"ME{v}" for v in got_names].index(name)], want[:, j])


def test_batched_eigengenes_equal_one_module_at_a_time():
    # modules of very different sizes (batches of several sizes), one gene alone, and genes
    # in no module
    x = planted(5, genes=400, samples=25)
    rng = np.random.default_rng(5)
    codes = np.repeat(np.arange(-1, 8), [30, 200, 60, 40, 30, 20, 10, 9, 1])
    rng.shuffle(codes)
    s = wm.scale_rows(np, x)
    me = wm.eigengenes(np, s, codes, 9)                # module 8 has no gene: zeros
    for m in range(8):
        rows = s[codes == m]
        _, _, vt = np.linalg.svd(rows, full_matrices=False)
        pc = vt[0] if np.corrcoef(rows.mean(0), vt[0])[0, 1] >= 0 else -vt[0]
        np.testing.assert_allclose(me[:, m], pc, atol=1e-10)
    assert not me[:, 8].any()


# -- the command ----------------------------------------------------------------------------------------
def test_cli_modules(tmp_path):
    import pandas as pd
    from curnet.cli import main
    x = planted(8, genes=120)
    path = tmp_path / "expr.tsv"
    pd.DataFrame(x, index=[f"g{i}" for i in range(120)], columns=[f"s{j}" for j in range(40)]).to_csv(path, sep="\t")
    out, mes = tmp_path / "modules.tsv", tmp_path / "me.tsv"
    assert main(["modules", str(path), "--power", "6", "--out", str(out), "--eigengenes", str(mes),
                 "--min-module-size", "10", "--backend", "cpu"]) == 0
    got = pd.read_csv(out, sep="\t")
    want = ce.blockwise_modules(x, backend="cpu", min_module_size=10)
    assert got["gene"].tolist() == [f"g{i}" for i in range(120)]
    assert got["module"].tolist() == want["colors"].tolist()
    me = pd.read_csv(mes, sep="\t")
    assert me.columns.tolist() == ["sample"] + want["ME_names"]
    np.testing.assert_allclose(me[want["ME_names"]].to_numpy(), want["MEs"], rtol=1e-12)
    assert main(["modules", str(path), "--power", "40", "--backend", "cpu"]) == 2
