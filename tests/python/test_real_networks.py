"""The real networks of DATA.md (fetched once, cached) against SciPy and igraph."""
import numpy as np
import pytest

import curnet
from curnet import datasets

import oracles

pytestmark = pytest.mark.network


@pytest.fixture(scope="module")
def scnet():
    return datasets.load("scnet", weights="distance")


@pytest.fixture(scope="module")
def mouseliver():
    return datasets.load("mouseliver", weights=None)


def sample(g, k, seed=0):
    return np.random.default_rng(seed).choice(np.flatnonzero(g.out_degree() > 0), k, replace=False)


def test_scnet_bfs_and_sssp_against_scipy(scnet):
    sources = sample(scnet, 70)
    np.testing.assert_array_equal(curnet.bfs(scnet, sources, backend="cpu"), oracles.bfs_depths(scnet, sources))
    few = sources[:12]
    dist, pred = curnet.sssp(scnet, few, backend="cpu")
    np.testing.assert_allclose(dist, oracles.sp_distances(scnet, few), rtol=1e-5)
    oracles.check_predecessors(scnet, few[:2], dist[:2], pred[:2], rtol=1e-4)
    np.testing.assert_array_equal(curnet.sssp_dists(scnet, few, backend="cpu"), dist)


def test_scnet_against_igraph(scnet):
    ig = pytest.importorskip("igraph")
    src, dst, w = oracles.edge_arrays(scnet)
    keep = src < dst                                  # each undirected edge once
    G = ig.Graph(n=len(scnet), edges=np.c_[src[keep], dst[keep]].tolist(), directed=False)
    sources = sample(scnet, 8, seed=3)
    hops = np.array(G.distances(source=sources.tolist()), dtype=float)
    got = curnet.bfs(scnet, sources, backend="cpu").astype(float)
    got[got < 0] = np.inf
    np.testing.assert_array_equal(got, hops)
    weighted = np.array(G.distances(source=sources.tolist(), weights=w[keep].tolist()))
    np.testing.assert_allclose(curnet.sssp_dists(scnet, sources, backend="cpu"), weighted, rtol=1e-5)


def test_scnet_by_name(scnet):
    names = scnet.names[sample(scnet, 3)]
    by_name = curnet.bfs(scnet, names, backend="cpu")
    # scNET's names are Entrez ids: positions go as a NumPy array (a list of ints is refused)
    by_id = curnet.bfs(scnet, np.array([scnet.name_index()[x] for x in names]), backend="cpu")
    np.testing.assert_array_equal(by_name, by_id)
    with pytest.raises(ValueError, match="could be the vertex named"):
        curnet.bfs(scnet, [scnet.name_index()[x] for x in names], backend="cpu")


def test_mouseliver_scc_and_bfs(mouseliver):
    labels = curnet.scc(mouseliver, backend="cpu")
    assert oracles.same_partition(labels, oracles.scc_partition(mouseliver))
    assert np.bincount(labels).max() == 17_486          # DATA.md: the largest SCC
    sources = sample(mouseliver, 100, seed=1)
    np.testing.assert_array_equal(curnet.bfs(mouseliver, sources, backend="cpu"),
                                  oracles.bfs_depths(mouseliver, sources))


def test_mouseliver_scc_against_igraph(mouseliver):
    ig = pytest.importorskip("igraph")
    G = ig.Graph(n=len(mouseliver), edges=np.c_[mouseliver.edge_sources(), mouseliver.indices].tolist(),
                 directed=True)
    expected = G.connected_components(mode="strong").membership
    assert oracles.same_partition(curnet.scc(mouseliver, backend="cpu"), expected)


@pytest.mark.parametrize("name", ["mouseliver", "hpo", "scnet"])
def test_scc_labels_equal_scipys_and_igraphs(name):
    """Canonical labels, exactly: directed networks and an undirected one (its components)."""
    pytest.importorskip("igraph")
    g = datasets.load(name, weights=None)
    labels = curnet.scc(g, backend="cpu")
    np.testing.assert_array_equal(labels, oracles.canonical(oracles.scc_partition(g)))
    np.testing.assert_array_equal(labels, oracles.canonical(oracles.igraph_scc_partition(g)))
