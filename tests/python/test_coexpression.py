"""curnet.coexpression against WGCNA 1.72 (through Rscript, skipped when WGCNA is missing),
NumPy/SciPy/pandas, and its own dense matrix for the tiled network."""
from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, strategies as st

from curnet import coexpression as ce
from curnet.errors import OutputTooLargeError

ORACLE = Path(__file__).with_name("wgcna_oracle.R")
REL = 1e-9


def random_expression(seed, genes=60, samples=20, missing=0):
    """Genes x samples with a few correlated groups (so the networks are not empty)."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(4, samples))
    x = rng.normal(size=(genes, samples)) + 1.5 * base[rng.integers(0, 4, genes)]
    if missing:
        x[rng.integers(0, genes, missing), rng.integers(0, samples, missing)] = np.nan
    return x


def close(a, b, rel=REL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
    ok = ~np.isnan(a)
    # relative, with an absolute floor at the scale of the values compared (entries that
    # cancel to ~0 carry the rounding of their terms)
    scale = max(np.abs(b[ok]).max(initial=0), 1e-300)
    np.testing.assert_allclose(a[ok], b[ok], rtol=rel, atol=rel * scale)


# -- WGCNA ------------------------------------------------------------------------------------
def _wgcna_available() -> bool:
    if shutil.which("Rscript") is None:
        return False
    r = subprocess.run(["Rscript", "-e", "quit(status = !requireNamespace('WGCNA', quietly = TRUE))"],
                       capture_output=True)
    return r.returncode == 0


def _write(dirpath, name, x):
    x = np.asarray(x, dtype=np.float64)
    x.T.ravel(order="C").tofile(dirpath / f"{name}.bin")           # column-major
    (dirpath / f"{name}.dim").write_text(f"{x.shape[0]}\n{x.shape[1]}\n")


def _read(dirpath, name):
    d = [int(v) for v in (dirpath / f"{name}.dim").read_text().split()]
    return np.fromfile(dirpath / f"{name}.bin").reshape(d[1], d[0]).T


@pytest.fixture(scope="module")
def wgcna(tmp_path_factory):
    """WGCNA's results on the inputs below (samples x genes, as WGCNA takes them), all from
    one Rscript run; ALL's first 300 probes too when Bioconductor's ALL is installed."""
    if not _wgcna_available():
        pytest.skip("R's WGCNA is not installed")
    d = tmp_path_factory.mktemp("wgcna")
    inputs = {"random": random_expression(1, 80, 24),
              "missing": random_expression(2, 50, 20, missing=12),
              "constant": np.vstack([random_expression(3, 30, 16), np.full((1, 16), 2.0)])}
    inputs["constant"][5, :8] = 0.0          # a gene whose MAD is zero: bicor's Pearson fallback
    inputs["constant"][6, :9] = 1.0
    for name, x in inputs.items():
        _write(d, name, x.T)
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    r = subprocess.run(["Rscript", str(ORACLE), str(d)], capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    if (d / "all.dim").exists():
        inputs["all"] = _read(d, "all").T
    return inputs, (lambda name: _read(d, name))


DATASETS = ["random", "missing", "constant", "all"]


def _data(wgcna, name):
    inputs, ref = wgcna
    if name not in inputs:
        pytest.skip("Bioconductor's ALL is not installed")
    return inputs[name], ref


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("method", ["pearson", "spearman", "bicor"])
def test_cor_equals_wgcna(wgcna, name, method):
    x, ref = _data(wgcna, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ce.CoexpressionWarning)
        close(ce.cor(x, method, backend="cpu", tile=17), ref(f"{name}-cor-{method}"))
        if method == "bicor":
            close(ce.cor(x, method, max_p_outliers=0.05, backend="cpu"), ref(f"{name}-cor-bicor-maxp"))


@pytest.mark.parametrize("name", ["random", "missing", "all"])
@pytest.mark.parametrize("type", ["unsigned", "signed", "signed hybrid"])
def test_adjacency_and_soft_threshold_equal_wgcna(wgcna, name, type):
    x, ref = _data(wgcna, name)
    close(ce.adjacency(x, type, 6, backend="cpu", tile=23), ref(f"{name}-adj-{type}"))
    fit = ce.pick_soft_threshold(x, network_type=type, backend="cpu", tile=31)
    table = np.column_stack(list(fit["fitIndices"].values()))
    close(table, ref(f"{name}-pst-{type}"))
    estimate = ref(f"{name}-pst-{type}-estimate")[0, 0]
    assert (fit["powerEstimate"] is None) == np.isnan(estimate)
    if fit["powerEstimate"] is not None:
        assert fit["powerEstimate"] == estimate


@pytest.mark.parametrize("name", ["random", "missing", "all"])
def test_bicor_soft_threshold_more_concepts_equal_wgcna(wgcna, name):
    x, ref = _data(wgcna, name)
    fit = ce.pick_soft_threshold(x, method="bicor", more_network_concepts=True, remove_first=True,
                                 backend="cpu")
    close(np.column_stack(list(fit["fitIndices"].values())), ref(f"{name}-pst-bicor-more"))


@pytest.mark.parametrize("name", ["random", "missing", "all"])
def test_connectivity_and_tom_equal_wgcna(wgcna, name):
    x, ref = _data(wgcna, name)
    close(ce.soft_connectivity(x, backend="cpu")[:, None], ref(f"{name}-softc"))
    close(ce.soft_connectivity(x, "signed", backend="cpu")[:, None], ref(f"{name}-softc-signed"))
    a = ce.adjacency(x, "unsigned", 6, backend="cpu")
    close(ce.tom_similarity(a, backend="cpu", tile=19), ref(f"{name}-tom-unsigned"))
    close(ce.tom_similarity(a, tom_denom="mean", backend="cpu"), ref(f"{name}-tom-unsigned-mean"))
    signed_adj = np.sign(ce.cor(x, backend="cpu")) * a
    close(ce.tom_similarity(signed_adj, "signed", backend="cpu"), ref(f"{name}-tom-signed"))
    colors = np.resize([1, 2, 3], x.shape[0])
    intra = ce.intramodular_connectivity(a, colors)
    close(np.column_stack(list(intra.values())), ref(f"{name}-intra"))
    r = ce.cor(x, backend="cpu")
    p = ce.fisher_pvalues(r, x.shape[1])
    np.fill_diagonal(p, np.nan)
    expected = ref(f"{name}-pfisher")
    np.fill_diagonal(expected, np.nan)
    close(p, expected)


@pytest.mark.parametrize("name", ["random", "all"])
@pytest.mark.parametrize("network_type", ["unsigned", "signed", "signed hybrid"])
@pytest.mark.parametrize("tom_type", ["unsigned", "signed"])
@pytest.mark.parametrize("cor_type", ["pearson", "bicor"])
def test_tom_from_expr_equals_wgcna(wgcna, name, network_type, tom_type, cor_type):
    x, ref = _data(wgcna, name)
    close(ce.tom_similarity_from_expr(x, cor_type, network_type, 6, tom_type, backend="cpu", tile=41),
          ref(f"{name}-tfe-{network_type}-{tom_type}-{cor_type}"))


# -- NumPy, SciPy and pandas -----------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_pearson_and_spearman_equal_numpy_scipy(seed):
    x = random_expression(seed, 40, 15)
    close(ce.cor(x, "pearson", backend="cpu", tile=9), np.corrcoef(x))
    close(ce.cor(x, "spearman", backend="cpu", tile=9), scipy.stats.spearmanr(x, axis=1).statistic)
    # samples x genes with axis=1 is the same matrix
    close(ce.cor(x.T, "pearson", axis=1, backend="cpu"), np.corrcoef(x))


def test_missing_values_are_pairwise_complete_like_pandas():
    pd = pytest.importorskip("pandas")
    x = random_expression(5, 30, 12, missing=25)
    frame = pd.DataFrame(x.T)
    close(ce.cor(x, "pearson", backend="cpu"), frame.corr(min_periods=2).to_numpy())
    close(ce.cor(x, "spearman", backend="cpu"), frame.corr("spearman", min_periods=2).to_numpy())
    # bicor of a pair = bicor of that pair's complete samples, computed alone
    full = ce.cor(x, "bicor", backend="cpu")
    i, j = np.argwhere(np.isnan(x))[0][0], 3
    ok = ~np.isnan(x[i]) & ~np.isnan(x[j])
    assert full[i, j] == pytest.approx(ce.cor(x[[i, j]][:, ok], "bicor", backend="cpu")[0, 1], rel=1e-12)


# -- the network against the dense matrix ------------------------------------------------------
@given(seed=st.integers(0, 10_000), genes=st.integers(3, 40), samples=st.integers(3, 12),
       threshold=st.floats(0, 1), signed=st.booleans(), tile=st.integers(1, 17),
       method=st.sampled_from(ce.METHODS), missing=st.integers(0, 6))
def test_threshold_network_equals_dense_thresholded(seed, genes, samples, threshold, signed, tile,
                                                    method, missing):
    x = random_expression(seed, genes, samples, missing=missing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ce.CoexpressionWarning)
        dense = ce.cor(x, method, backend="cpu")
        e = ce.coexpression_edges(x, method, threshold=threshold, signed=signed, tile=tile,
                                  backend="cpu", pvalues=True)
    score = dense if signed else np.abs(dense)
    # a pair within 1e-12 of the threshold may fall either side (an r of 1 computed in a tile
    # or in the dense matrix can differ in the last bit); every other pair is decided
    i, j = np.asarray(e["source"]), np.asarray(e["target"])
    assert (i < j).all() and (score[i, j] >= threshold - 1e-12).all()
    assert (np.lexsort((j, i)) == np.arange(len(i))).all()          # in row-major order
    sure = set(zip(*np.nonzero(np.triu(score >= threshold + 1e-12, k=1))))
    assert sure <= set(zip(i.tolist(), j.tolist()))
    np.testing.assert_allclose(e["r"], dense[i, j], rtol=1e-12, atol=1e-14)
    assert np.isfinite(e["r"]).all()
    present = ~np.isnan(x)
    n = (present[i] & present[j]).sum(axis=1)
    # r of 1 to the last bit (tied ranks) gives a p-value of 0 or of ~1e-16: r agrees to 1e-14
    np.testing.assert_allclose(e["p"], ce.fisher_pvalues(dense[i, j], n), rtol=1e-9, atol=1e-15,
                               equal_nan=True)


@given(seed=st.integers(0, 10_000), genes=st.integers(2, 30), k=st.integers(1, 6),
       tile=st.integers(1, 11), signed=st.booleans())
def test_top_k_network_equals_dense_choice(seed, genes, k, tile, signed):
    x = random_expression(seed, genes, 8)
    dense = ce.cor(x, backend="cpu")
    e = ce.coexpression_edges(x, top_k=k, signed=signed, tile=tile, backend="cpu")
    score = (dense if signed else np.abs(dense)).copy()
    np.fill_diagonal(score, -np.inf)
    expected = set()
    for g in range(genes):
        order = np.argsort(-score[g], kind="stable")[:min(k, genes - 1)]
        expected |= {(min(g, h), max(g, h)) for h in order.tolist()}
    assert set(zip(e["source"].tolist(), e["target"].tolist())) == expected
    np.testing.assert_allclose(e["r"], dense[e["source"], e["target"]], rtol=1e-12, atol=1e-14)


def test_graph_has_every_gene_and_the_chosen_weights():
    x = random_expression(7, 25, 10)
    names = [f"g{i}" for i in range(25)]
    e = ce.coexpression_edges(x, threshold=0.6, names=names, backend="cpu")
    g = ce.coexpression(x, threshold=0.6, names=names, backend="cpu", weight="distance")
    assert len(g) == 25 and not g.directed and g.num_edges == len(e["r"])
    assert list(g.names) == names
    w = np.sort(g.weights)
    np.testing.assert_allclose(w, np.sort(np.repeat(1 - np.abs(e["r"]), 2)))
    assert ce.coexpression(x, threshold=0.6, backend="cpu", weight=None).weights is None


# -- edge cases --------------------------------------------------------------------------------
def test_constant_gene_is_named_in_a_warning_and_has_no_edges():
    x = random_expression(8, 10, 12)
    x[4] = 3.0
    names = [f"g{i}" for i in range(10)]
    with pytest.warns(ce.CoexpressionWarning, match="'g4'"):
        r = ce.coexpression_edges(x, "bicor", threshold=0.0, names=names, backend="cpu")
    assert 4 not in r["source"] and 4 not in r["target"]
    assert r["undefined"].tolist() == [4]
    with pytest.warns(ce.CoexpressionWarning):
        dense = ce.cor(x, backend="cpu")
    assert np.isnan(dense[4]).all() and np.isnan(dense[:, 4]).all()
    assert not np.isnan(np.delete(np.delete(dense, 4, 0), 4, 1)).any()


def test_too_few_samples_duplicate_names_and_bad_input_are_clear_errors():
    with pytest.raises(ValueError, match="at least 3"):
        ce.cor(np.ones((5, 2)), backend="cpu")
    x = random_expression(9, 4, 6)
    with pytest.raises(ValueError, match="duplicated: 'a'"):
        ce.coexpression_edges(x, threshold=0.5, names=["a", "b", "a", "c"], backend="cpu")
    with pytest.raises(TypeError, match="numeric"):
        ce.cor(np.array([["a", "b", "c"]]), backend="cpu")
    with pytest.raises(ValueError, match="exactly one"):
        ce.coexpression_edges(x, backend="cpu")
    with pytest.raises(ValueError, match="method"):
        ce.cor(x, "kendall", backend="cpu")
    with pytest.raises(ValueError, match="infinite"):
        ce.cor(np.array([[1.0, np.inf, 2.0]]), backend="cpu")


def test_threshold_keeping_no_edge_gives_isolated_genes():
    x = random_expression(10, 12, 30)
    e = ce.coexpression_edges(x, threshold=1.0, backend="cpu")
    assert len(e["source"]) == 0 and e["r"].dtype == np.float64
    g = ce.coexpression(x, threshold=1.0, backend="cpu")
    assert len(g) == 12 and g.num_edges == 0


def test_dense_results_too_large_are_refused_but_the_network_is_tiled(monkeypatch):
    import curnet.memory
    x = random_expression(11, 300, 10)
    monkeypatch.setattr(curnet.memory, "available_host_memory", lambda: 300 * 300 * 8 - 1)
    with pytest.raises(OutputTooLargeError, match="ask for the network instead"):
        ce.cor(x, backend="cpu")
    with pytest.raises(OutputTooLargeError):
        ce.tom_similarity_from_expr(x, backend="cpu")
    e = ce.coexpression_edges(x, threshold=0.9, backend="cpu", tile=64)   # never n x n
    assert len(e["source"]) > 0


def test_the_device_memory_check_is_the_backends(monkeypatch):
    """The TOM's device arrays are checked against the device's free memory, named as the
    device names it: on the CPU, the host's (the caller's `out` needs no check of its own)."""
    import curnet.memory
    from curnet.backends import get_backend
    x = random_expression(11, 300, 10)
    a = ce.adjacency(x, backend="cpu")
    device = get_backend("cpu").members[0]
    assert device.pair_tile >= 1 and device.free_memory() > 0 and device.pool_bytes() is None
    monkeypatch.setattr(curnet.memory, "available_host_memory", lambda: 300 * 300 * 8 - 1)
    out = np.empty((300, 300))
    with pytest.raises(OutputTooLargeError, match=r"the TOM of 300 genes .* GiB of host memory.*dtype=float32"):
        ce.tom_similarity(a, backend="cpu", out=out)
    monkeypatch.setattr(curnet.memory, "available_host_memory", lambda: 2 * 300 * 300 * 8)   # the adjacency fits
    np.testing.assert_allclose(ce.tom_similarity(a, backend="cpu", out=out, tile=10),
                               ce.tom_similarity(a, backend="cpu", tile=10))


def test_tiles_do_not_change_results():
    x = random_expression(12, 50, 9, missing=5)
    ref = ce.pick_soft_threshold(x, backend="cpu", tile=1000)["fitIndices"]
    for tile in (1, 7, 50):
        got = ce.pick_soft_threshold(x, backend="cpu", tile=tile)["fitIndices"]
        for key in ref:
            np.testing.assert_allclose(got[key], ref[key], rtol=1e-12)
    a = ce.adjacency(x, backend="cpu")
    np.testing.assert_allclose(ce.tom_similarity(a, backend="cpu", tile=3),
                               ce.tom_similarity(a, backend="cpu"), rtol=1e-12)


def test_single_precision_is_close():
    x = random_expression(13, 40, 20)
    d = ce.cor(x, backend="cpu")
    s = ce.cor(x, backend="cpu", dtype=np.float32)
    assert np.abs(s - d).max() < 1e-5


# -- the command line ----------------------------------------------------------------------------
def test_cli_writes_the_network(tmp_path, capsys):
    import pyarrow.parquet as pq
    from curnet.cli import main
    x = random_expression(14, 20, 12)
    genes = [f"G{i}" for i in range(20)]
    path = tmp_path / "expr.tsv"
    with open(path, "w") as f:
        f.write("gene\t" + "\t".join(f"s{j}" for j in range(12)) + "\n")
        for g, row in zip(genes, x):
            f.write(g + "\t" + "\t".join(repr(float(v)) for v in row) + "\n")
    out = tmp_path / "edges.parquet"
    assert main(["coexpression", str(path), "--threshold", "0.6", "--pvalues", "--backend", "cpu",
                 "--out", str(out)]) == 0
    t = pq.read_table(out).to_pydict()
    e = ce.coexpression_edges(x, threshold=0.6, pvalues=True, backend="cpu")
    assert t["source"] == [genes[i] for i in e["source"]]
    assert t["target"] == [genes[i] for i in e["target"]]
    np.testing.assert_allclose(t["r"], e["r"], rtol=1e-12)
    np.testing.assert_allclose(t["p"], e["p"], rtol=1e-12)
    assert main(["coexpression", str(path), "--top-k", "2", "--method", "bicor", "--backend", "cpu"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "source\ttarget\tr" and len(lines) > 20
    assert main(["coexpression", str(path), "--threshold", "0.6", "--genes-in", "columns",
                 "--backend", "cpu"]) == 0     # the samples as 12 genes
    bad = tmp_path / "bad.tsv"
    bad.write_text("gene\ts1\ts2\ts3\nA\t1\tx\t2\nB\t2\t3\t4\n")
    assert main(["coexpression", str(bad), "--threshold", "0.6", "--backend", "cpu"]) == 2
    assert "not numeric" in capsys.readouterr().err


# -- orientation: one rule, a warning when a matrix looks transposed ------------------------------
@pytest.mark.parametrize("genes, samples, gene_names, sample_names, why", [
    (128, 1000, None, None, "1,000 samples for 128 genes"),
    (20, 100, None, None, "100 samples for 20 genes"),
    (50, 128, None, None, None),                      # ALL's 50 most variable probes: a real panel
    (3, 24, None, None, None),                        # a toy matrix
    (10, 20, None, ["1007_s_at", "1053_at", "ENSG00000141510.5", "x"], "sample names look like gene ids"),
    (10, 20, ["GSM101", "TCGA-AB-1234-01", "sample_3"], None, "gene names look like sample ids"),
    (10, 20, ["TP53", "EGFR", "NAT2"], ["s1", "s2", "patientA"], None),
])
def test_looks_transposed(genes, samples, gene_names, sample_names, why):
    got = ce.looks_transposed(genes, samples, gene_names, sample_names)
    assert (got is None) if why is None else (why in got)


def test_cli_warns_on_a_table_that_looks_transposed_unless_the_layout_is_given(tmp_path, capsys):
    from curnet.cli import main
    x = random_expression(15, 120, 12)                   # 120 genes x 12 samples
    path = tmp_path / "datexpr.tsv"
    with open(path, "w") as f:                           # written samples x genes (WGCNA's layout)
        f.write("sample\t" + "\t".join(f"G{i}" for i in range(120)) + "\n")
        for j in range(12):
            f.write(f"s{j}\t" + "\t".join(repr(float(v)) for v in x[:, j]) + "\n")
    assert main(["coexpression", str(path), "--threshold", "0.9", "--backend", "cpu"]) == 0
    assert "looks transposed: it has 120 samples for 12 genes" in capsys.readouterr().err
    for layout in ("columns", "rows"):
        assert main(["coexpression", str(path), "--threshold", "0.9", "--genes-in", layout, "--backend", "cpu"]) == 0
        assert "transposed" not in capsys.readouterr().err
