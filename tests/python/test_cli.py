"""The `curnet` command on small files."""
import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

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
    assert got[("d", "c")] == (4.0, "b") and got[("d", "d")] == (0.0, "")


def test_scc_and_fraction(tmp_path, capsys):
    assert main(["scc", str(write_tsv(tmp_path)), "--backend", "cpu"]) == 0
    assert "2 components, largest 3" in capsys.readouterr().out
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
