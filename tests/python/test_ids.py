"""One rule for vertex ids across Python, the CLI and R (docs/ids.md): ids in files are names
unless asked otherwise; strings are names, integers positions, and where an integer could be
either (a graph whose names are numbers) Python refuses it."""
from __future__ import annotations

import numpy as np
import pytest

import curnet
from curnet.cli import _parser, main
from curnet.cli.analyses import COMMANDS
from curnet.cli.inputs import graph_file, read_input, reader_options


@pytest.fixture
def entrez(tmp_path):
    path = tmp_path / "entrez.tsv"
    path.write_text("7157\t4193\n4193\t10\n1\t7157\n")
    return path


def test_a_file_of_numeric_ids_is_a_graph_of_names(entrez, capsys):
    g = curnet.read_graph(entrez)
    assert g.names.tolist() == ["7157", "4193", "1", "10"]       # sources, then targets
    assert main(["scc", str(entrez), "--backend", "cpu"]) == 0
    assert "scc: 4 components" in capsys.readouterr().err           # not 7,158
    assert main(["scc", str(entrez), "--ids-as-index", "--backend", "cpu"]) == 0
    assert "scc: 7,158 components" in capsys.readouterr().err


def test_integer_sources_on_numeric_names_are_refused_not_guessed(entrez):
    g = curnet.read_graph(entrez)
    by_name = curnet.bfs(g, ["1"], backend="cpu")[0]
    assert by_name.tolist() == [1, 2, 0, 3]                           # from the vertex named "1"
    assert curnet.bfs(g, np.array([2]), backend="cpu")[0].tolist() == by_name.tolist()  # position 2
    for ambiguous in ([1], 1, (1,), [np.int64(1)], ["1", 3]):
        with pytest.raises(ValueError, match=r"vertex named '1'|vertex named '3'"):
            curnet.bfs(g, ambiguous, backend="cpu")
    with pytest.raises(ValueError, match="integer source 0"):
        curnet.sssp_dists(g, [0], backend="cpu")
    with pytest.raises(ValueError, match="integer source 2"):
        curnet.closeness(g, [2], backend="cpu")
    # names that are not numbers leave integers unambiguous: positions
    h = curnet.Graph.from_edges(["a", "b"], ["b", "c"])
    assert curnet.bfs(h, [1], backend="cpu")[0].tolist() == [-1, 0, 1]


def test_python_and_the_cli_agree_on_a_source(entrez, tmp_path):
    out = tmp_path / "bfs.tsv"
    assert main(["bfs", str(entrez), "--sources", "1", "--backend", "cpu", "--out", str(out)]) == 0
    rows = {r.split("\t")[1]: int(r.split("\t")[2]) for r in out.read_text().splitlines()[1:]}
    g = curnet.read_graph(entrez)
    depth = curnet.bfs(g, ["1"], backend="cpu")[0]
    assert rows == {name: int(d) for name, d in zip(g.names.tolist(), depth) if d >= 0}


def test_every_subcommand_takes_the_same_input_options(entrez, tmp_path, capsys):
    """closeness, harmonic, eccentricity, ego-size, distance-table, paths and proximity read
    the file as bfs does (they refused --ids-as-names, and read Entrez ids as indices)."""
    commands = ("bfs", "sssp", "sssp-dists", "scc") + COMMANDS
    p = _parser()
    for name in commands:
        extra = {"paths": ["--from", "1"], "proximity": ["--set", "1", "--module", "10"],
                 "pcsf": ["prizes.tsv"]}.get(name, [])
        args = p.parse_args([name, str(entrez), "--ids-as-index", "--unweighted", "--no-header",
                             "--src", "0", "--dst", "1", "--comment", "%", *extra])
        assert reader_options(args) == {"format": None, "directed": None, "src": 0, "dst": 1,
                                         "weights": False, "header": False, "delimiter": None,
                                         "comment": "%", "ids": "index"}, name
    out = tmp_path / "c.tsv"
    assert main(["closeness", str(entrez), "--vertices", "7157,1", "--backend", "cpu", "--out", str(out)]) == 0
    rows = [r.split("\t") for r in out.read_text().splitlines()]
    g = curnet.read_graph(entrez)
    want = curnet.closeness(g, ["7157", "1"], backend="cpu")
    assert [r[0] for r in rows[1:]] == ["7157", "1"]
    assert [float(r[1]) for r in rows[1:]] == pytest.approx(want.tolist())


def test_shared_file_workers_read_with_the_callers_options(tmp_path):
    """--shared-file: the GraphFile each worker reads gets read_graph's very options."""
    path = tmp_path / "g.csv"
    path.write_text("score,target,source\n2,b,a\n3,c,b\n")
    args = _parser().parse_args(["sssp", str(path), "--src", "source", "--dst", "target",
                                 "--weight", "score", "--sources", "a", "--shared-file",
                                 "--scheduler", "tcp://unused:1"])
    shared = graph_file(args)
    assert shared.read_kwargs == reader_options(args)
    mine, theirs = read_input(args), shared.load()
    assert theirs.names.tolist() == mine.names.tolist() == ["a", "b", "c"]
    assert [a.tolist() for a in theirs.edges()] == [a.tolist() for a in mine.edges()]


def test_the_cli_reads_a_numeric_third_column_as_weights_and_says_so(tmp_path, capsys):
    """The weight rule of docs/ids.md on the command line: `from to score` is weighted, the note
    in the command's words; --unweighted counts hops."""
    path = tmp_path / "scores.csv"
    path.write_text("from,to,score\na,b,0.5\nb,c,0.25\n")
    out = tmp_path / "d.tsv"
    assert main(["sssp-dists", str(path), "--sources", "a", "--backend", "cpu", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "column 'score' read as the weights (the third column); --unweighted for hops" in err
    assert "weights=False" not in err
    assert "0.75" in out.read_text()
    assert main(["sssp-dists", str(path), "--sources", "a", "--unweighted", "--backend", "cpu",
                 "--out", str(out)]) == 0
    assert "read as the weights" not in capsys.readouterr().err
    assert "0.75" not in out.read_text()


def test_numbered_formats_are_positions_in_python_and_the_cli(tmp_path, capsys):
    """Matrix Market (like DIMACS and METIS) names no vertex: integer sources are 0-based
    positions, as scipy.io.mmread gives them, in Python and on the command line."""
    path = tmp_path / "g.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 2\n")
    g = curnet.read_graph(path)
    assert g.names is None
    dist, _ = curnet.sssp(g, [0, 1, 2], backend="cpu")
    assert dist.tolist() == [[0, 0.5, 2.5], [np.inf, 0, 2], [np.inf, np.inf, 0]]
    out = tmp_path / "d.tsv"
    assert main(["sssp-dists", str(path), "--sources", "0,1", "--backend", "cpu", "--out", str(out)]) == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    assert ["0", "2", "2.5"] in rows and ["1", "2", "2"] in rows
    assert not any(r[0] == "3" or r[1] == "3" for r in rows)


def test_resolved_ids_pass_again_checked_and_copied(entrez):
    """Drivers hand resolve_sources' own int32 ids on to the next driver (bfs to bfs_blocks):
    they come back equal, as a copy, still range-checked; other integer arrays take the full
    path to the same ids."""
    from curnet.sources import resolve_sources
    g = curnet.read_graph(entrez)
    ids = resolve_sources(g, ["1", "7157"])
    again = resolve_sources(g, ids)
    assert again.dtype == np.int32 and again.tolist() == ids.tolist() == [2, 0]
    assert again is not ids and not np.shares_memory(again, ids)
    assert resolve_sources(g, np.array([2, 0], np.int64)).tolist() == [2, 0]
    for bad in (np.array([4], np.int32), np.array([-1], np.int32)):
        with pytest.raises(ValueError, match="out of range"):
            resolve_sources(g, bad)
    with pytest.raises(ValueError, match="no sources"):
        resolve_sources(g, np.array([], np.int32))
