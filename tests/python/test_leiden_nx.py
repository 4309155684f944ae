"""NetworkX's louvain_communities, leiden_communities and modularity
dispatched to cuRnet (`backend="curnet"`), against NetworkX's own answers."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

nx = pytest.importorskip("networkx")

from curnet.nx import communities, convert_from_nx  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def planted(seed=0):
    G = nx.planted_partition_graph(5, 20, 0.5, 0.02, seed=seed)
    return G


def test_functions_against_networkx():
    G = planted()
    nx.relabel_nodes(G, {v: f"n{v}" for v in G}, copy=False)
    G.add_edge("n0", "n0", weight=2.0)                          # a self-loop
    C = convert_from_nx(G, edge_attrs={"weight": 1}, name="louvain_communities")
    for found in (communities.louvain_communities(C, seed=1), communities.leiden_communities(C, seed=1)):
        assert nx.community.is_partition(G, found)
        theirs = nx.community.modularity(G, found)
        assert communities.modularity(C, found) == pytest.approx(theirs, abs=1e-12)
        best = nx.community.modularity(G, nx.community.louvain_communities(G, seed=1))
        assert theirs >= best - 0.002 * best
    parts = [{f"n{v}" for v in range(k * 20, (k + 1) * 20)} for k in range(5)]
    for resolution in (0.5, 1.0, 2.0):
        assert communities.modularity(C, parts, resolution=resolution) == pytest.approx(
            nx.community.modularity(G, parts, resolution=resolution), abs=1e-12)
    from networkx.algorithms.community.quality import NotAPartition
    with pytest.raises(NotAPartition):
        communities.modularity(C, parts[:4])
    with pytest.raises(NotImplementedError):
        communities.louvain_communities(C, max_level=2)
    D = convert_from_nx(nx.DiGraph(G), name="louvain_communities")
    with pytest.raises(NotImplementedError):
        communities.louvain_communities(D)


def test_dispatch(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    if not entry_points(group="networkx.backends", name="curnet"):
        subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(folder)],
                       cwd=ROOT, check=True, capture_output=True)
    code = textwrap.dedent("""
        import networkx as nx
        G = nx.planted_partition_graph(4, 25, 0.5, 0.02, seed=3)
        for f in (nx.community.louvain_communities, nx.community.leiden_communities):
            found = f(G, seed=2, backend="curnet")
            q = nx.community.modularity(G, found)
            assert abs(nx.community.modularity(G, found, backend="curnet") - q) < 1e-12
            assert q > 0.6, q
        print("ok")
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), str(folder)]),
           "CURNET_NX_BACKEND": "cpu"}
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]
