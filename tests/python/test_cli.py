"""The `curnet` command on small files."""
import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from curnet.cli import main

ROOT = Path(__file__).resolve().parents[2]


def write_tsv(tmp_path):
    f = tmp_path / "g.tsv"
    f.write_text("from\tto\tweight\na\tb\t0.5\nb\tc\t1.5\nc\ta\t1\nd\ta\t2\n")
    return f


def test_bfs_to_tsv(tmp_path, capsys):
    out = tmp_path / "bfs.tsv"
    assert main(["bfs", str(write_tsv(tmp_path)), "--sources", "a,d", "--backend", "cpu", "--out", str(out)]) == 0
    rows = [l.split("\t") for l in out.read_text().splitlines()]
    assert rows[0] == ["source", "target", "bfs"]
    assert ["d", "c", "3"] in rows[1:] and len(rows) == 1 + 7
    assert "2 sources" in capsys.readouterr().out


def test_sssp_to_parquet_with_predecessors(tmp_path):
    out = tmp_path / "sp.parquet"
    assert main(["sssp", str(write_tsv(tmp_path)), "--sources", "d", "--backend", "cpu", "--out", str(out)]) == 0
    t = pq.read_table(out).to_pydict()
    got = {(s, v): (d, p) for s, v, d, p in zip(t["source"], t["target"], t["sssp"], t["predecessor"])}
    assert got[("d", "c")] == (4.0, "b") and got[("d", "d")] == (0.0, None)


def test_scc_and_fraction(tmp_path, capsys):
    assert main(["scc", str(write_tsv(tmp_path)), "--backend", "cpu"]) == 0
    assert "2 components, largest 3" in capsys.readouterr().err   # the summary; the table is on stdout
    assert main(["sssp-dists", str(write_tsv(tmp_path)), "--fraction", "0.5", "--backend", "cpu"]) == 0


def test_errors_are_one_line_and_exit_2(tmp_path, capsys):
    assert main(["bfs", str(tmp_path / "missing.tsv")]) == 2
    assert main(["bfs", str(write_tsv(tmp_path)), "--sources", "zz", "--backend", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "missing.tsv" in err and "'zz'" in err


def test_info_runs_as_a_command():
    res = subprocess.run([sys.executable, "-m", "curnet.cli", "info"], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["backend"] in ("cpu", "cuda")


def test_unsupported_out_is_refused_before_reading_or_computing(tmp_path, capsys, monkeypatch):
    import curnet

    def must_not_run(*a, **k):
        raise AssertionError("nothing may be read or computed before --out is checked")
    monkeypatch.setattr(curnet, "read_graph", must_not_run)
    monkeypatch.setattr(curnet, "bfs", must_not_run)
    assert main(["bfs", str(write_tsv(tmp_path)), "--sources", "a", "--out", str(tmp_path / "r.csv")]) == 2
    assert "--out must end in .tsv, .txt or .parquet, got" in capsys.readouterr().err
    assert not (tmp_path / "r.csv").exists()
    missing = tmp_path / "no-such-dir" / "r.tsv"
    assert main(["bfs", str(write_tsv(tmp_path)), "--sources", "a", "--out", str(missing)]) == 2
    assert "no directory" in capsys.readouterr().err


def test_predecessors_of_an_unnamed_graph_are_integers(tmp_path):
    import scipy.sparse as sp
    from scipy.sparse.csgraph import dijkstra
    f = tmp_path / "ids.tsv"
    edges = [(0, 1, 2.0), (1, 2, 1.0), (0, 2, 5.0), (2, 3, 1.0), (4, 0, 1.0)]
    f.write_text("".join(f"{u}\t{v}\t{w}\n" for u, v, w in edges))
    out = tmp_path / "sp.parquet"
    assert main(["sssp", str(f), "--sources", "0,4", "--ids-as-index", "--backend", "cpu", "--out", str(out)]) == 0
    t = pq.read_table(out)
    assert all(str(t.schema.field(c).type).startswith("int") for c in ("source", "target", "predecessor"))
    a = sp.csr_matrix(([w for *_, w in edges], ([u for u, *_ in edges], [v for _, v, _ in edges])), shape=(5, 5))
    dist = dijkstra(a, indices=[0, 4])
    best = {(u, v): w for u, v, w in edges}
    for s, v, d, p in zip(*(t.column(c).to_pylist() for c in ("source", "target", "sssp", "predecessor"))):
        row = [0, 4].index(s)
        assert d == pytest.approx(dist[row, v])
        if v == s:
            assert p is None                            # a source has no predecessor
        else:
            assert d == pytest.approx(dist[row, p] + best[(p, v)])   # valid, not equal
    tsv = tmp_path / "sp.tsv"
    assert main(["sssp", str(f), "--sources", "0", "--ids-as-index", "--backend", "cpu", "--out", str(tsv)]) == 0
    rows = [l.split("\t") for l in tsv.read_text().splitlines()]
    assert ["0", "0", "0", ""] in rows and ["0", "3", "4", "2"] in rows


def test_reader_options_columns_weights_header(tmp_path, capsys):
    f = tmp_path / "g.csv"
    f.write_text("score,target,source\n2,b,a\n3,c,b\n")
    out = tmp_path / "d.tsv"
    assert main(["sssp-dists", str(f), "--src", "source", "--dst", "target", "--weight", "score",
                 "--sources", "a", "--backend", "cpu", "--out", str(out)]) == 0
    assert ["a", "c", "5"] in [l.split("\t") for l in out.read_text().splitlines()]
    assert main(["sssp-dists", str(f), "--src", "2", "--dst", "1", "--header", "--unweighted",
                 "--sources", "a", "--backend", "cpu", "--out", str(out)]) == 0
    assert ["a", "c", "2"] in [l.split("\t") for l in out.read_text().splitlines()]
    # numeric ids are names (the default); a space-separated file with a comment marker of its own
    g = tmp_path / "entrez.txt"
    g.write_text("% Entrez\n7157 4193\n4193 10\n")
    for names in ([], ["--ids-as-names"]):
        assert main(["bfs", str(g), "--delimiter", " ", "--comment", "%", "--no-header", *names,
                     "--sources", "7157", "--backend", "cpu", "--out", str(out)]) == 0
        assert [l.split("\t") for l in out.read_text().splitlines()][1:] == [
            ["7157", "7157", "0"], ["7157", "4193", "1"], ["7157", "10", "2"]]
    assert main(["bfs", str(g), "--comment", "%", "--ids-as-index", "--sources", "x", "--backend", "cpu"]) == 2
    assert "leave out --ids-as-index" in capsys.readouterr().err


def test_sources_from_a_file(tmp_path):
    src = tmp_path / "sources.txt"
    src.write_text("# seeds\na, d\n\nb  # the hub\n")
    out = tmp_path / "bfs.tsv"
    assert main(["bfs", str(write_tsv(tmp_path)), "--sources", f"@{src}", "--backend", "cpu",
                 "--out", str(out)]) == 0
    rows = [l.split("\t") for l in out.read_text().splitlines()][1:]
    assert [r[0] for r in rows if r[1] == r[0]] == ["a", "d", "b"]    # in the file's order
    assert main(["bfs", str(write_tsv(tmp_path)), "--sources", f"@{tmp_path / 'none.txt'}"]) == 2
    (tmp_path / "empty.txt").write_text("# nothing\n")
    assert main(["bfs", str(write_tsv(tmp_path)), "--sources", f"@{tmp_path / 'empty.txt'}"]) == 2


def test_version(capsys):
    import curnet
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"curnet {curnet.__version__}"


def test_without_out_the_table_goes_to_stdout_and_the_summary_to_stderr(tmp_path, capsys):
    f = write_tsv(tmp_path)
    for command in ("bfs", "sssp", "sssp-dists"):
        out = tmp_path / f"{command}.tsv"
        assert main([command, str(f), "--sources", "a", "--backend", "cpu", "--out", str(out)]) == 0
        capsys.readouterr()
        assert main([command, str(f), "--sources", "a", "--backend", "cpu"]) == 0
        got = capsys.readouterr()
        assert got.out == out.read_text()                 # the same table as --out writes
        assert "pairs reachable" in got.err and "pairs reachable" not in got.out
    assert main(["scc", str(f), "--backend", "cpu"]) == 0
    got = capsys.readouterr()
    assert got.out.startswith("vertex\tcomponent\n") and "components" in got.err


@pytest.mark.parametrize("named", [True, False])
@pytest.mark.parametrize("command", ["bfs", "sssp", "sssp-dists"])
def test_one_long_format_on_stdout_in_tsv_and_in_parquet(tmp_path, capsys, command, named):
    """stdout, --out TSV (streamed a piece at a time) and --out Parquet hold the same table,
    outputs.long_columns of the whole result; an unnamed graph's ids are int32 in every column."""
    import numpy as np

    import curnet
    from curnet.io.outputs import long_columns, to_table
    f = tmp_path / "g.tsv"
    f.write_text("a\tb\t2\nb\tc\t3\na\tc\t10\nc\td\t1\n" if named else "0 1 2\n1 2 3\n0 2 10\n2 3 1\n4 4 1\n")
    ids = ["--ids-as-index"] if not named else []
    sources = "a,c" if named else "0,2"
    base = [command, str(f), "--sources", sources, "--backend", "cpu", *ids]
    assert main(base) == 0
    stdout = capsys.readouterr().out
    assert main(base + ["--out", str(tmp_path / "r.tsv")]) == 0
    assert main(base + ["--out", str(tmp_path / "r.parquet")]) == 0
    assert (tmp_path / "r.tsv").read_text() == stdout
    table = pq.read_table(tmp_path / "r.parquet")
    g = curnet.read_graph(str(f), ids="names" if named else "index")
    src = np.array([0, 2])
    kind = command.replace("-", "_")
    if kind == "bfs":
        values, pred = curnet.bfs(g, src, backend="cpu"), None
    elif kind == "sssp":
        values, pred = curnet.sssp(g, src, backend="cpu")
    else:
        values, pred = curnet.sssp_dists(g, src, backend="cpu"), None
    want = to_table(long_columns(g, src.astype(np.int32), values, pred, kind))
    assert table.to_pydict() == want.to_pydict() and len(want) > 2
    assert table.column_names == stdout.splitlines()[0].split("\t")
    if not named:
        assert table.schema.field("source").type == table.schema.field("target").type == "int32"


def _subcommands():
    from curnet.cli import _parser
    p = _parser()
    sub = next(a for a in p._actions if a.dest == "command")
    return sub.choices


def test_every_analysis_takes_the_shared_run_options():
    """--backend and --out come from one helper on every subcommand that runs an analysis, with
    the same default; --seed is 0 wherever a command draws at random, but pcsf (unseeded noise,
    as PCSF_rand) and communities (several seeds)."""
    from curnet.cli.inputs import BACKEND_HELP
    seeds = {}
    for name, a in _subcommands().items():
        options = {o: act for act in a._actions for o in act.option_strings}
        if name in ("info", "cluster"):
            assert "--backend" not in options
            continue
        assert options["--backend"].default == ("cuda" if name == "warm-up" else "auto")
        if name not in ("warm-up", "demo"):
            assert options["--backend"].help == BACKEND_HELP
            assert "--out" in options and options["--out"].default is None
        if "--seed" in options:
            seeds[name] = options["--seed"].default
    assert seeds.pop("pcsf") is None and seeds.pop("communities") == [0]
    assert set(seeds) == {"bfs", "sssp", "sssp-dists", "proximity", "propagate"}
    assert set(seeds.values()) == {0}


def test_coexpression_single_is_dtype_float32_with_a_note(tmp_path, capsys):
    """--dtype float32 is the float width's one name; the earlier --single gives the same table
    and says --dtype on stderr."""
    import numpy as np
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6, 12))
    x[1] = x[0] + 0.1 * rng.normal(size=12)
    path = tmp_path / "expr.tsv"
    path.write_text("gene\t" + "\t".join(f"s{j}" for j in range(12)) + "\n" +
                    "".join(f"g{i}\t" + "\t".join(f"{v:.6f}" for v in row) + "\n" for i, row in enumerate(x)))
    base = ["coexpression", str(path), "--threshold", "0.3", "--backend", "cpu"]
    assert main(base + ["--dtype", "float32"]) == 0
    new = capsys.readouterr()
    assert main(base + ["--single"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and old.out.count("\n") > 1
    assert "curnet: --single is deprecated; use --dtype float32" in old.err
    assert "deprecated" not in new.err
    from curnet.coexpression import coexpression_edges
    want = coexpression_edges(x, threshold=0.3, backend="cpu", dtype=np.float32)
    rows = [line.split("\t") for line in new.out.splitlines()[1:]]
    assert [(r[0], r[1]) for r in rows] == [(f"g{i}", f"g{j}") for i, j in zip(want["source"], want["target"])]
    np.testing.assert_allclose([float(r[2]) for r in rows], want["r"], rtol=1e-6)
    with pytest.raises(SystemExit):
        main(["coexpression", "--help"])
    assert "--single" not in capsys.readouterr().out
