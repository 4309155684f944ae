"""What PCSF() accepts, curnet.pcsf accepts: the package's data as shipped (self-loops in the
network, repeated terminals) through curnet.interactome() and the CLI's --simplify and
--duplicates, edges of cost 0, dummies outside the network, a single terminal; the objective's
parts; messages that name terminals and edges as the user wrote them; the engine's warnings
recorded for R (curnet.r_bridge.messages)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import curnet
from curnet.analyses.steiner_forest import PCSFWarning, interactome, pcsf
from test_pcsf import brute_force_optimum, check_forest, random_instance


# -- interactome(): construct_interactome() ---------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.floats(0, 5, allow_nan=False)),
                min_size=1, max_size=25),
       st.sampled_from(["sum", "min"]))
def test_interactome_drops_self_loops_and_joins_a_repeated_pair_once(rows, parallel):
    """Against a dict built here: a pair's costs summed (igraph's simplify(), which the
    package's construct_interactome() calls) or their least; vertices in order of first
    appearance in the first column, then the second (unique(c(from, to)))."""
    frm = [f"g{a}" for a, _, _ in rows]
    to = [f"g{b}" for _, b, _ in rows]
    cost = [c for _, _, c in rows]
    want = {}
    for a, b, c in zip(frm, to, cost):
        if a != b:
            key = frozenset((a, b))
            want[key] = (want[key] + c if parallel == "sum" else min(want[key], c)) if key in want else c
    g = interactome((frm, to, cost), parallel=parallel)
    assert g.names.tolist() == list(dict.fromkeys(frm + to))
    src, dst, w = g.edges()
    got = {frozenset((g.names[a], g.names[b])): x for a, b, x in zip(src, dst, w)}
    assert got.keys() == want.keys()
    assert all(got[k] == pytest.approx(want[k], rel=1e-12, abs=1e-12) for k in want)
    again = interactome(g, parallel=parallel)                       # a Graph: unchanged
    assert again.names.tolist() == g.names.tolist() and np.array_equal(again.edges()[2], w)


def test_interactome_refuses_bad_columns():
    with pytest.raises(ValueError, match=r"the edge 'a' - 'b' has cost -1"):
        interactome((["a", "b"], ["b", "c"], [-1.0, 1.0]))
    with pytest.raises(ValueError, match="both its ends"):
        interactome((["a", None], ["b", "c"], [1.0, 1.0]))
    with pytest.raises(ValueError, match="parallel must be"):
        interactome((["a"], ["b"], [1.0]), parallel="max")


# -- what PCSF() accepts ----------------------------------------------------------------------
def test_the_pcsf_command_reads_the_package_data_as_shipped(tmp_path, capsys):
    """STRING as the package ships it has self-loops and Tgfb_phospho repeats terminals: both
    refused with the option that takes them, then read with --simplify --duplicates last."""
    from curnet.cli import main
    net, pz = tmp_path / "net.tsv", tmp_path / "prizes.tsv"
    net.write_text("from\tto\tcost\na\tb\t0.5\nb\tc\t0.4\nc\tc\t0.7\nc\td\t0.3\nb\ta\t0.25\nd\te\t0.2\n")
    pz.write_text("gene\tprize\na\t2.0\nd\t1.5\na\t3.0\ne\t0.4\n")
    out = tmp_path / "forest.tsv"
    args = ["pcsf", str(net), str(pz), "--backend", "cpu", "--out", str(out)]
    assert main(args) == 2
    assert "self-loop on 'c': simplify it first with --simplify" in capsys.readouterr().err
    assert main(args + ["--simplify"]) == 2
    assert "--duplicates last" in capsys.readouterr().err
    assert main(args + ["--simplify", "--duplicates", "last"]) == 0
    g = interactome((list("abccbd"), list("bccdae"), [0.5, 0.4, 0.7, 0.3, 0.25, 0.2]))
    f = pcsf(g, (["a", "d", "a", "e"], [2.0, 1.5, 3.0, 0.4]), duplicates="last", backend="cpu")
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    assert {frozenset(r[:2]) for r in rows} == {frozenset(e) for e in zip(*list(f.edge_table().values())[:2])}
    assert f.prize[f.names == "a"][0] == 3.0 and len(rows) == len(f.edge_from) > 0


def test_the_network_self_loop_message_names_the_cli_option(tmp_path, capsys):
    from curnet.cli import main
    net, pz = tmp_path / "net.tsv", tmp_path / "prizes.tsv"
    net.write_text("a\tb\t0.5\nb\tb\t0.4\n")
    pz.write_text("a\t2.0\n")
    assert main(["pcsf", str(net), str(pz), "--backend", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "self-loop on 'b'" in err and "--simplify" in err and "curnet.interactome" not in err


@pytest.mark.parametrize("seed", range(6))
def test_edges_of_cost_zero_are_taken(seed):
    """A STRING score of 1000 is a cost of 0: the forest is still a forest of the network,
    its objective recomputed from the graph, never below the exact optimum."""
    g, (u, v, cost), prizes = random_instance(seed)
    cost = cost.copy()
    cost[np.random.default_rng(seed).random(len(cost)) < 0.4] = 0.0
    g = curnet.Graph.from_edges(g.names[u], g.names[v], cost, directed=False, names=g.names, dtype=np.float64)
    for improve in (False, True):
        f = pcsf(g, prizes, w=1.5, mu=0.05, improve=improve, backend="cpu")
        value = check_forest(g, (u, v, cost), f, prizes, 1.5, 1.0, 0.05)
        assert value >= brute_force_optimum(len(g), (u, v, cost), g.names, prizes, 1.5, 1.0, 0.05) - 1e-9


def test_terminals_joined_by_a_zero_cost_edge_are_one_tree():
    g = interactome((["a", "b"], ["b", "c"], [0.0, 1.0]))
    f = pcsf(g, {"a": 1.0, "b": 1.0}, w=1.5, backend="cpu")
    assert sorted(f.names) == ["a", "b"] and f.trees == 1 and f.edge_cost.tolist() == [0.0]
    assert f.objective == pytest.approx(1.5)


def test_dummies_outside_the_network_are_left_out_with_a_warning():
    g, _, prizes = random_instance(3, n=12, terminals=5)
    dummies = list(prizes)[:3]
    want = pcsf(g, prizes, dummies=dummies, backend="cpu")
    with pytest.warns(PCSFWarning, match=r"2 of 5 dummies are not in the network .* 'zz1', 'zz2'"):
        got = pcsf(g, prizes, dummies=dummies + ["zz1", "zz2", dummies[0]], backend="cpu")
    assert got.objective == want.objective and got.names.tolist() == want.names.tolist()
    with pytest.raises(ValueError, match="none of the dummies"):
        pcsf(g, prizes, dummies=["zz"], backend="cpu")


def test_a_single_terminal_is_a_forest_of_one_tree_or_none():
    g = interactome((["a", "b"], ["b", "c"], [1.0, 1.0]))
    f = pcsf(g, {"a": 3.0}, w=2, backend="cpu")
    assert f.names.tolist() == ["a"] and f.trees == 1 and len(f.edge_from) == 0
    assert f.objective_terms == {"edges": 0.0, "trees": 2.0, "lost_prizes": 0.0, "hub_penalties": 0.0}
    f = pcsf(g, {"a": 1.0}, w=2, backend="cpu")                     # its prize does not pay w
    assert f.names.tolist() == [] and f.trees == 0 and f.objective == 1.0


@pytest.mark.parametrize("seed", range(4))
def test_the_objective_is_the_sum_of_its_parts(seed):
    g, (u, v, cost), prizes = random_instance(seed, n=12, terminals=5)
    w, mu = 1.2, 0.05
    f = pcsf(g, prizes, w=w, mu=mu, backend="cpu")
    deg = np.bincount(np.concatenate([u, v]), minlength=len(g))
    t = f.objective_terms
    assert t["edges"] == pytest.approx(f.edge_cost.sum())
    assert t["trees"] == pytest.approx(w * f.trees)
    assert t["lost_prizes"] == pytest.approx(sum(p for k, p in prizes.items() if k not in set(f.names)))
    steiner = [i for i, s in enumerate(g.names) if s in set(f.names) and s not in prizes]
    assert t["hub_penalties"] == pytest.approx(mu * deg[steiner].sum())
    assert f.objective == pytest.approx(sum(t.values()), rel=1e-15)


@pytest.mark.parametrize("seed", range(8))
def test_improve_is_never_worse_than_the_package_method(seed):
    g, _, prizes = random_instance(seed, n=14, p=0.3, terminals=6)
    package = pcsf(g, prizes, w=1.0, mu=0.02, improve=False, backend="cpu")
    improved = pcsf(g, prizes, w=1.0, mu=0.02, improve=True, backend="cpu")
    assert improved.objective <= package.objective + 1e-12


# -- messages ---------------------------------------------------------------------------------
def test_messages_name_terminals_and_edges_as_written():
    g = interactome((["a", "b"], ["b", "c"], [1.0, 1.0]))
    with pytest.raises(ValueError) as e:
        pcsf(g, (np.array(["EGFR", "a"]), [np.nan, 1.0]), backend="cpu")
    assert "prize of terminal 'EGFR' is nan" in str(e.value) and "np." not in str(e.value)
    with pytest.raises(ValueError) as e:
        pcsf(g, (np.array(["a", "a"]), [1.0, 2.0]), backend="cpu")
    assert "'a'" in str(e.value) and "np." not in str(e.value)
    loop = curnet.Graph.from_edges(["a", "b"], ["b", "b"], [1.0, 1.0], directed=False, dtype=np.float64)
    with pytest.raises(ValueError) as e:
        pcsf(loop, {"a": 1.0}, backend="cpu")
    assert "self-loop on 'b'" in str(e.value) and "edge 1" not in str(e.value)


def test_the_engine_warnings_of_a_call_are_recorded_for_r():
    """What R's engine_call raises as R warnings: every warning of the call (NumPy's
    RuntimeWarning too, each time, not once per place), none printed; records nest."""
    from curnet.r_bridge import messages
    messages.begin()
    np.float64(0.0) / np.float64(0.0)
    np.float64(0.0) / np.float64(0.0)
    messages.begin()
    warnings.warn("inner", PCSFWarning)
    inner = messages.end()
    g = interactome((["a", "b"], ["b", "c"], [1.0, 1.0]))
    pcsf(g, {"a": 3.0}, dummies=["a", "zz"], backend="cpu")
    outer = messages.end()
    assert inner == [["PCSFWarning", "inner"]]
    assert [c for c, _ in outer] == ["RuntimeWarning", "RuntimeWarning", "PCSFWarning"]
    assert "invalid value" in outer[0][1] and "'zz'" in outer[2][1]
    assert messages.end() == []


SHIPPED = __import__("pathlib").Path(__file__).resolve().parents[3] / "shared" / "pcsf"


@pytest.mark.skipif(not (SHIPPED / "string_pcsf.tsv.gz").exists(), reason="needs the PCSF package's data (../shared/pcsf)")
def test_the_pcsf_command_reads_string_and_tgfb_as_the_package_ships_them(tmp_path, capsys):
    """The package's STRING (175,854 rows, 33 of them self-loops) and Tgfb_phospho (three
    genes twice): --simplify gives construct_interactome()'s 175,821 edges (the package's
    README), and the CLI's forest is the Python API's on that network."""
    import pandas as pd
    from curnet.cli import main
    out = tmp_path / "forest.tsv"
    assert main(["pcsf", str(SHIPPED / "string_pcsf.tsv.gz"), str(SHIPPED / "tgfb_phospho.tsv"), "--backend", "cpu",
                 "--simplify", "--duplicates", "last", "--package-forest", "--out", str(out)]) == 0
    e = pd.read_csv(SHIPPED / "string_pcsf.tsv.gz", sep="\t", dtype={0: str, 1: str}, keep_default_na=False)
    p = pd.read_csv(SHIPPED / "tgfb_phospho.tsv", sep="\t", dtype={0: str}, keep_default_na=False)
    assert (e["from"] == e["to"]).sum() == 33 and p.iloc[:, 0].duplicated().sum() == 3
    g = interactome(e)
    assert g.num_edges == 175_821
    f = pcsf(g, (p.iloc[:, 0].tolist(), p.iloc[:, 1].to_numpy(float)), duplicates="last", improve=False, backend="cpu")
    rows = pd.read_csv(out, sep="\t", dtype=str, keep_default_na=False)
    assert {frozenset(r) for r in zip(rows["from"], rows["to"])} == {frozenset(x) for x in zip(*list(f.edge_table().values())[:2])}
    assert f"objective {f.objective:.10g}" in capsys.readouterr().err


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0])),
                min_size=1, max_size=40))
def test_the_package_order_prim_tree_is_a_minimum_spanning_tree(rows):
    """prim_tree (Boost's Prim, in the package's order, ties everywhere here): a tree over the
    component of the first vertex, as light as SciPy's minimum spanning tree of that component."""
    import scipy.sparse as sp
    from scipy.sparse import csgraph
    from curnet.analyses.steiner_forest.spanning_trees import prim_tree
    rows = [(a, b, w) for a, b, w in rows if a != b]
    if not rows:
        return
    eu, ev, ew = (np.array(c) for c in zip(*rows))
    u, v = prim_tree(eu, ev, ew)
    first = eu[0]
    n = 10
    A = sp.csr_matrix((np.ones(len(eu)), (eu, ev)), shape=(n, n))
    _, label = csgraph.connected_components(A, directed=False)
    part = np.flatnonzero(label == label[first])
    assert len(u) == len(part) - 1 and set(u) | set(v) <= set(part.tolist())
    if len(part) > 1:
        assert set(u.tolist()) | set(v.tolist()) == set(part.tolist())
    best = {}
    for a, b, w in rows:                                  # the lightest of parallel edges
        key = (min(a, b), max(a, b))
        best[key] = min(best.get(key, np.inf), w)
    assert sum(best[(min(a, b), max(a, b))] for a, b in zip(u, v)) == pytest.approx(_mst_weight(best, part))


def _mst_weight(best, part):
    """The minimum spanning tree's weight over `part` by Kruskal, written here."""
    parent = {x: x for x in part.tolist()}

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x
    total = 0.0
    for (a, b), w in sorted(best.items(), key=lambda kv: kv[1]):
        if a in parent and b in parent and root(a) != root(b):
            parent[root(a)] = root(b)
            total += w
    return total
