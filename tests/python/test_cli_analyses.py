"""The CLI's measure, path and proximity subcommands: their tables against NetworkX."""
from __future__ import annotations

import importlib.util

import networkx as nx
import numpy as np
import pyarrow.parquet as pq
import pytest

from curnet.cli import main

EDGES = [("a", "b"), ("b", "c"), ("c", "d"), ("a", "c"), ("d", "e"), ("f", "g")]
needs_measures = pytest.mark.skipif(importlib.util.find_spec("curnet.analyses.measures") is None,
                                    reason="curnet.analyses.measures is not in this tree")


def graph_file(tmp_path):
    f = tmp_path / "g.tsv"
    f.write_text("".join(f"{u}\t{v}\n" for u, v in EDGES))
    return str(f)


def read_tsv(text):
    lines = text.strip().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:]]


def test_paths_table(tmp_path, capsys):
    assert main(["paths", graph_file(tmp_path), "--undirected", "--sources", "a,e", "--to", "e,g",
                 "--backend", "cpu"]) == 0
    rows = read_tsv(capsys.readouterr().out)
    G = nx.Graph(EDGES)
    assert [(r["source"], r["target"]) for r in rows] == [("a", "e"), ("e", "e")]   # g unreached
    vp = rows[0]["vpath"].split(";")
    assert vp[0] == "a" and vp[-1] == "e" and len(vp) - 1 == nx.shortest_path_length(G, "a", "e")
    assert int(rows[0]["edges"]) == len(rows[0]["epath"].split(";")) == 3 == float(rows[0]["length"])
    for u, v, e in zip(vp, vp[1:], rows[0]["epath"].split(";")):
        assert set(EDGES[int(e)]) == {u, v}


def test_weighted_path_lengths(tmp_path, capsys):
    f = tmp_path / "w.tsv"
    f.write_text("a\tb\t1\nb\tc\t1\na\tc\t5\n")
    assert main(["paths", str(f), "--sources", "a", "--to", "c", "--backend", "cpu"]) == 0
    row = read_tsv(capsys.readouterr().out)[0]
    assert row["vpath"] == "a;b;c" and row["epath"] == "0;1" and float(row["length"]) == 2.0
    assert main(["paths", str(f), "--sources", "a", "--to", "c", "--unweighted", "--backend", "cpu"]) == 0
    row = read_tsv(capsys.readouterr().out)[0]
    assert row["vpath"] == "a;c" and row["epath"] == "2" and float(row["length"]) == 1.0


def test_proximity_table_to_parquet(tmp_path):
    out = tmp_path / "prox.parquet"
    assert main(["proximity", graph_file(tmp_path), "--undirected", "--set", "drug=a,b", "--set", "e",
                 "--module", "d,c", "--measures", "closest,shortest", "--n-random", "20",
                 "--bin-size", "2", "--backend", "cpu", "--out", str(out)]) == 0
    t = pq.read_table(out).to_pydict()
    assert t["set"] == ["drug", "drug", "set2", "set2"]
    G = nx.Graph(EDGES)
    d = lambda s, x: nx.shortest_path_length(G, s, x)
    assert t["distance"][0] == pytest.approx(np.mean([min(d(m, x) for m in "dc") for x in "ab"]))
    assert t["distance"][1] == pytest.approx(np.mean([d(m, x) for m in "dc" for x in "ab"]))
    assert all(0 < p <= 1 for p in t["p_value"])


def test_paths_takes_sources_and_the_old_from(tmp_path, capsys):
    outs = []
    for flag in ("--sources", "--from"):
        assert main(["paths", graph_file(tmp_path), flag, "a", "--to", "c", "--backend", "cpu"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and outs[0].count("\n") > 1
    assert main(["paths", graph_file(tmp_path), "--backend", "cpu"]) == 2
    assert "--sources" in capsys.readouterr().err


def test_analysis_errors_exit_2(tmp_path, capsys):
    assert main(["paths", graph_file(tmp_path), "--from", "zz", "--backend", "cpu"]) == 2
    assert main(["proximity", graph_file(tmp_path), "--set", "a", "--module", "b",
                 "--measures", "nearest", "--backend", "cpu"]) == 2
    assert main(["paths", graph_file(tmp_path), "--from", "a", "--out", "x.csv"]) == 2
    err = capsys.readouterr().err
    assert "'zz'" in err and "measures" in err and ".tsv, .txt or .parquet" in err


@needs_measures
def test_closeness_eccentricity_and_distance_table(tmp_path, capsys):
    G = nx.Graph(EDGES)
    f = graph_file(tmp_path)
    assert main(["closeness", f, "--undirected", "--backend", "cpu"]) == 0
    rows = read_tsv(capsys.readouterr().out)
    for r in rows:      # igraph's closeness: over the reached vertices (NetworkX's WF-free form)
        lengths = nx.single_source_shortest_path_length(G, r["vertex"])
        want = (len(lengths) - 1) / sum(lengths.values())
        assert float(r["closeness"]) == pytest.approx(want)
    assert main(["eccentricity", f, "--undirected", "--vertices", "a,f", "--backend", "cpu"]) == 0
    rows = read_tsv(capsys.readouterr().out)
    assert [(r["vertex"], float(r["eccentricity"])) for r in rows] == [("a", 3.0), ("f", 1.0)]
    assert main(["distance-table", f, "--undirected", "--backend", "cpu"]) == 0
    out = capsys.readouterr()
    hist = {}
    for s, lengths in nx.all_pairs_shortest_path_length(G):
        for t, d in lengths.items():
            if s < t:
                hist[d] = hist.get(d, 0) + 1
    assert {int(r["distance"]): int(r["pairs"]) for r in read_tsv(out.out)} == hist
    assert "unconnected pairs: 10" in out.err


@needs_measures
def test_ego_size_takes_hops(tmp_path, capsys):
    G = nx.Graph(EDGES)
    f = graph_file(tmp_path)
    for hops in (1, 2, 3):
        assert main(["ego-size", f, "--undirected", "--hops", str(hops), "--backend", "cpu"]) == 0
        rows = read_tsv(capsys.readouterr().out)
        assert {r["vertex"]: int(r["ego_size"]) for r in rows} == \
            {v: len(nx.single_source_shortest_path_length(G, v, cutoff=hops)) for v in G}
    assert main(["ego-size", f, "--undirected", "--backend", "cpu"]) == 0      # default: 1 hop
    assert {r["vertex"]: int(r["ego_size"]) for r in read_tsv(capsys.readouterr().out)} == \
        {v: G.degree(v) + 1 for v in G}


@needs_measures
@pytest.mark.parametrize("old, new", [
    (["ego-size", "--order", "2"], ["ego-size", "--hops", "2"]),
    (["paths", "--from", "a"], ["paths", "--sources", "a"]),
])
def test_earlier_spellings_work_with_a_note(tmp_path, capsys, old, new):
    """One name for hops: --hops N (ego-size). The earlier spellings still work, say the new
    one on stderr, and are not in --help."""
    f = tmp_path / "w.tsv"
    f.write_text("a\tb\t1\nb\tc\t1\na\tc\t5\nc\td\t2\n")
    assert main([new[0], str(f), *new[1:], "--backend", "cpu"]) == 0
    want = capsys.readouterr()
    assert main([old[0], str(f), *old[1:], "--backend", "cpu"]) == 0
    got = capsys.readouterr()
    assert got.out == want.out and got.out.count("\n") > 1
    renamed = [x for x in old[1:] if x.startswith("--") and x not in new]
    notes = [line for line in got.err.splitlines() if "deprecated" in line]
    assert notes == [f"curnet: {x} is deprecated; use {y}" for x, y in
                     zip(renamed, [y for y in new[1:] if y.startswith("--") and y not in old])]
    assert "deprecated" not in want.err
    with pytest.raises(SystemExit):
        main([old[0], "--help"])
    shown = capsys.readouterr().out
    assert renamed and not any(x in shown for x in renamed)


@needs_measures
@pytest.mark.parametrize("command", [["closeness"], ["eccentricity"], ["harmonic"], ["paths", "--sources", "a"]])
def test_the_earlier_hops_flag_is_an_error_naming_unweighted(tmp_path, capsys, command):
    """--hops means a number of hops only: the earlier flag (count hops on a weighted file) is an
    error that says --unweighted, and it is not in --help."""
    f = tmp_path / "w.tsv"
    f.write_text("a\tb\t1\nb\tc\t1\na\tc\t5\nc\td\t2\n")
    with pytest.raises(SystemExit) as stop:
        main([command[0], str(f), *command[1:], "--hops", "--backend", "cpu"])
    assert stop.value.code == 2
    assert "--unweighted" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([command[0], "--help"])
    assert "--hops" not in capsys.readouterr().out


@needs_measures
def test_proximity_weighted_and_unweighted_is_an_error(tmp_path, capsys):
    assert main(["proximity", graph_file(tmp_path), "--set", "a", "--module", "b", "--weighted",
                 "--unweighted", "--backend", "cpu"]) == 2
    assert "--weighted and --unweighted" in capsys.readouterr().err
