"""The propagation's front doors: `curnet propagate` (the CLI) and NetworkX's pagerank
dispatched to cuRnet, against the engine's calls and NetworkX's own pagerank."""
from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import curnet
from curnet.cli import main
from curnet.nx.graph import from_networkx
from curnet.nx.propagation import pagerank as nx_pagerank


@pytest.fixture
def network(tmp_path):
    rng = np.random.default_rng(0)
    e = rng.integers(0, 40, (120, 2))
    e = e[e[:, 0] != e[:, 1]]
    names = np.array([f"g{i}" for i in range(40)])
    path = tmp_path / "net.tsv"
    pd.DataFrame({"a": names[e[:, 0]], "b": names[e[:, 1]]}).to_csv(path, sep="\t", index=False, header=False)
    g = curnet.read_graph(str(path), directed=False, weights=False)
    return path, g


def test_cli_rwr_and_diffusion_match_the_engine(network, tmp_path):
    path, g = network
    seeds = tmp_path / "seeds.tsv"
    seeds.write_text("# set\tgene\nA\tg1\nA\tg2\nB\tg7\n")
    out = tmp_path / "rwr.tsv"
    assert main(["propagate", str(path), str(seeds), "--undirected", "--unweighted", "--backend", "cpu",
                 "--out", str(out)]) == 0
    got = pd.read_csv(out, sep="\t")
    assert list(got.columns) == ["set", "vertex", "score"]
    want = curnet.rwr(g, [["g1", "g2"], ["g7"]], backend="cpu")
    for j, name in enumerate(["A", "B"]):
        part = got[got.set == name].set_index("vertex").loc[list(g.names), "score"].to_numpy()
        np.testing.assert_allclose(part, want[:, j], atol=1e-12)
    out = tmp_path / "diffusion.tsv"
    assert main(["propagate", str(path), str(seeds), "--undirected", "--unweighted", "--backend", "cpu",
                 "--method", "diffusion", "--kernel", "diffusion", "--out", str(out)]) == 0
    got = pd.read_csv(out, sep="\t")
    y = np.zeros(len(g))
    y[[g.name_index()["g1"], g.name_index()["g2"]]] = 1
    want = curnet.diffuse(g, y, kernel="diffusion", backend="cpu")
    part = got[got.set == "A"].set_index("vertex").loc[list(g.names), "score"].to_numpy()
    np.testing.assert_allclose(part, want, atol=1e-12)


def test_cli_null_and_errors(network, tmp_path, capsys):
    path, g = network
    seeds = tmp_path / "seeds.tsv"
    seeds.write_text("g1\ng2\ng3\n")
    out = tmp_path / "null.tsv"
    assert main(["propagate", str(path), str(seeds), "--undirected", "--unweighted", "--backend", "cpu",
                 "--null", "50", "--bin-size", "5", "--seed", "4", "--out", str(out)]) == 0
    got = pd.read_csv(out, sep="\t")
    assert list(got.columns) == ["set", "vertex", "score", "z", "p"]
    want = curnet.propagation_null(g, ["g1", "g2", "g3"], 50, bins=5, seed=4, backend="cpu")
    np.testing.assert_allclose(got.p.to_numpy(), want.p, atol=1e-12)
    bad = tmp_path / "bad.tsv"
    bad.write_text("g1\nnot_a_gene\n")
    assert main(["propagate", str(path), str(bad), "--undirected", "--backend", "cpu"]) == 2
    assert "'not_a_gene' is not in the network" in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("directed", [True, False])
def test_networkx_pagerank(seed, directed):
    G = nx.gnm_random_graph(40, 90, seed=seed, directed=directed)
    rng = np.random.default_rng(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.uniform(0.5, 2))
    G.add_node("lonely")
    cg = from_networkx(G, "weight")
    pers = {v: float(i % 4 == 0) for i, v in enumerate(G)}
    for kwargs in ({}, {"personalization": pers}, {"weight": None, "alpha": 0.6}):
        want = nx.pagerank(G, tol=1e-13, max_iter=10_000, **kwargs)
        got = nx_pagerank(cg, tol=1e-13, max_iter=10_000, **kwargs)
        assert list(got) == list(want)
        np.testing.assert_allclose(list(got.values()), list(want.values()), atol=1e-10)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx_pagerank(cg, max_iter=2)
    with pytest.raises(NotImplementedError):
        nx_pagerank(cg, dangling={0: 1})
