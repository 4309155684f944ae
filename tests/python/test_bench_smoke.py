"""The benchmark suite itself must not rot: `python -m bench --smoke` runs in CI.

Tiny generated graphs (no network), every algorithm, layer and comparator
available here (R igraph and the cuRnet R package only if Rscript has them),
every cuRnet result checked inside the run; then the report is generated.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HANG_GUARD_S = 3600      # a hang guard: the smoke run takes about a minute on an idle 2-core machine


def test_bench_smoke(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "python"), str(REPO), env.get("PYTHONPATH", "")])
    env["MPLBACKEND"] = "Agg"
    # Correctness and completeness only: every case ran and every result was checked. The
    # bench's own per-case limit (900 s for smoke) and this one are hang guards, not speed tests.
    res = subprocess.run([sys.executable, "-m", "bench", "--smoke", "--out", str(tmp_path)],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-4000:]
    assert "smoke run" in res.stdout              # the short table comes last

    doc = json.loads((tmp_path / "smoke.json").read_text())
    assert not doc["failures"]
    for key in ("date", "commit", "cpu", "curnet"):
        assert key in doc["environment"]
    measured = [r for r in doc["records"] if r["tool"] == "cuRnet" and r.get("median_s") is not None
                and r["layer"] in ("engine", "engine+transfer")]
    algorithms = {r["algorithm"] for r in measured}
    assert algorithms == {"bfs", "sssp", "sssp_dists", "scc"}
    for r in measured:
        assert r["check"].startswith("ok vs"), r
        assert r["runs"] >= 4 and r["min_s"] <= r["median_s"] <= r["max_s"]
    assert any(r["tool"] == "scipy" for r in doc["records"])
    assert all(r.get("gteps", 0) > 0 for r in measured if r["algorithm"] == "bfs")

    for name in ("README.md", "headline.md"):
        assert (tmp_path / name).stat().st_size > 0
    assert (tmp_path / "speedup_vs_sources.png").exists()

    # the report regenerates from the JSON alone
    res = subprocess.run([sys.executable, "-m", "bench", "report", "--out", str(tmp_path)],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "headline.md" in res.stdout


def test_bench_fails_on_a_wrong_answer(monkeypatch):
    """The check that makes a fast wrong answer fail the benchmark."""
    import numpy as np
    import pytest
    sys.path.insert(0, str(REPO))
    from bench.runner import CheckFailed, Reference, check

    good = np.array([[0, 1, 2, -1]], np.int32)
    assert check("bfs", good.copy(), Reference("scipy", good), None, np.array([0])).startswith("ok")
    bad = good.copy()
    bad[0, 2] = 1
    with pytest.raises(CheckFailed):
        check("bfs", bad, Reference("scipy", good), None, np.array([0]))
    with pytest.raises(CheckFailed):
        check("scc", np.array([0, 0, 1]), Reference("scipy", np.array([0, 1, 1])), None, None)
    d = np.array([[0.0, 1.0, np.inf]])
    with pytest.raises(CheckFailed):
        check("sssp_dists", d + [[0, 0.01, 0]], Reference("scipy", d), None, np.array([0]))
