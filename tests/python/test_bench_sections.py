"""The newer analyses' rows in the README's table and their sections of docs/benchmarks.md
(bench/sections.py): every number read from its results file, a new file picked up by its
name, a pair only from one run, and a speed-up under 1 written as such."""
import json
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench import sections, summary  # noqa: E402


@pytest.fixture
def results(tmp_path, monkeypatch):
    """An empty results folder whose files count as committed."""
    monkeypatch.setattr(sections, "RESULTS", tmp_path)
    monkeypatch.setattr(sections, "added_in", lambda name: "results in abc1234")
    monkeypatch.setattr(sections, "committed", lambda path: True)
    return tmp_path


def test_the_committed_rows_are_the_files_ratios():
    rows = {r.source: r for r in summary.summary_rows()}
    # the README's propagation rows come from the newest GPU run that has python-igraph's row
    path = next(s for s in rows if "/propagation_h200_" in s)
    doc = json.loads((REPO / path).read_text())
    ig = next(r for r in doc["rows"] if r["tool"].startswith("python-igraph"))
    sets = next(r for r in doc["rows"] if r["what"].startswith("10,000 personalized"))
    mine = [r for r in summary.summary_rows() if r.source == path]
    assert {r.curnet_s for r in mine} >= {sets["seconds"]}
    batch = next(r for r in mine if r.curnet_s == sets["seconds"])
    assert batch.comparator_s == pytest.approx(10_000 * ig["seconds"])
    hclust = json.loads((REPO / "bench/results/modules_hclust_h200.json").read_text())
    at = {r["genes"]: r for r in hclust["rows"]}
    row = rows["bench/results/modules_hclust_h200.json"]
    assert row.speedup == pytest.approx(at[20000]["hclust_fastcluster_s"] / at[20000]["hclust_curnet_s"])
    assert "fastcluster" in row.comparator and row.curnet_on == "GPU"


def test_a_speedup_under_one_says_slower():
    assert summary.fmt_x(0.25) == "0.25× (slower)"
    assert summary.fmt_x(2.5) == "2.5×" and summary.fmt_x(25) == "25×"
    row = summary.Row("w", "igraph", 1.0, 4.0, "GPU", "m", "2026-12-02", "abc1234", "x.json")
    assert "(slower)" in summary.summary_table([row])


def communities_file(folder, name, igraph: bool, tool="curnet-cuda", date="2026-12-02 05:30 UTC", leiden_s=0.5):
    rows = [{"graph": "rmat20", "tool": tool, "call": c, "seconds": s, "quality": 0.4, "communities": 9,
             "edges_per_s": 16e6 / s} for c, s in (("leiden_2", leiden_s), ("louvain", 0.25))]
    if igraph:
        rows += [{"graph": "rmat20", "tool": "igraph-1.0.0", "call": c, "seconds": s, "quality": 0.41,
                  "communities": 10} for c, s in (("leiden_2", 2.0), ("louvain", 0.125))]
    (folder / name).write_text(json.dumps({"meta": {"machine": "NVIDIA H200 (vm), 16 CPU cores",
                                                    "date": date, "info": {}}, "rows": rows}))


def test_communities_rows_come_only_from_a_gpu_run_with_igraph_in_it(results):
    communities_file(results, "communities_rmat_h200.json", igraph=False)
    communities_file(results, "communities_cpu.json", igraph=True, tool="curnet-cpu")
    assert sections.community_rows() == []
    communities_file(results, "communities_rmat_h200.json", igraph=True)
    rows = sections.community_rows()
    assert [(r.comparator_s, r.curnet_s) for r in rows] == [(2.0, 0.5), (0.125, 0.25)]
    assert rows[1].speedup == 0.5 and all(r.source.endswith("communities_rmat_h200.json") for r in rows)
    page = sections.communities_long()
    assert "communities_rmat_h200.json" in page and "0.50× (slower)" in page and "4.0×" in page


def test_of_two_gpu_runs_of_a_call_the_newer_gives_the_row(results):
    for newer, older in (("communities_a.json", "communities_b.json"), ("communities_b.json", "communities_a.json")):
        for path in results.glob("communities_*.json"):
            path.unlink()
        communities_file(results, older, igraph=True)
        communities_file(results, newer, igraph=True, date="2026-12-02 07:55 UTC", leiden_s=0.1)
        rows = sections.community_rows()
        assert sorted(r.curnet_s for r in rows) == [0.1, 0.25]
        assert all(r.source.endswith(newer) for r in rows)


def test_a_first_call_run_of_rows_gives_the_r_row_beside_igraph(results):
    lines = [{"row": "R betweenness, ran before (warmed cache)", "backend": "cuda", "when": "2026-12-02 05:30:00 UTC",
              "R betweenness": {"wall_median": 3.0, "cpu_median": 2.0, "runs": [{"wall": 3.0, "cpu": 2.0}]}},
             {"row": "R igraph betweenness, same graph", "backend": "cuda", "when": "2026-12-02 05:31:00 UTC",
              "R igraph betweenness": {"wall_median": 6.0, "cpu_median": 5.0, "runs": [{"wall": 6.0, "cpu": 5.0}]}}]
    (results / "first_call_h200_rows.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (row,) = sections.first_call_rows()
    assert (row.comparator_s, row.curnet_s, row.date, row.machine) == (6.0, 3.0, "2026-12-02", "NVIDIA H200")
    page = sections.first_call_long()
    assert "| R betweenness, ran before (warmed cache) [cuda] | 3.00 s | 2.00 s | 1 |" in page
    assert "igraph 5.00 s CPU: 2.5×" in page


def test_the_page_links_each_results_file_of_the_four_analyses():
    page = summary.BENCHMARKS_PAGE.read_text()
    for pattern in ("communities_*.json", "communities_r_*.csv", "propagation_*.json", "modules_*.json",
                    "first_call_*.txt"):
        for path in (REPO / "bench" / "results").glob(pattern):
            assert f"(../bench/results/{path.name})" in page, path.name
    for account in ("communities.md", "propagation.md", "modules.md", "first-call.md"):
        assert re.search(rf"\]\({re.escape(account)}(#[a-z-]+)?\)", page), account


def test_a_first_call_log_gives_its_json_rows_and_summary_lines(results):
    row = {"row": "python bfs, never ran (empty kernel cache)", "backend": "cuda", "when": "2026-12-02 05:30:00 UTC",
           "python bfs": {"wall_median": 2.5, "cpu_median": 4.5, "runs": [{"wall": 2.5, "cpu": 4.5, "compiled": 8}]}}
    (results / "first_call_h200_log.txt").write_text(
        "# one H200, 2026-12-02\n[3 s] row: --row python-bfs (at most 30 s)\n" + json.dumps(row) + "\n"
        "python bfs, never ran (empty kernel cache) [cuda] python bfs: wall 2.500 s, cpu 4.500 s (median of 1: 2.50)\n")
    header, rows, lines = sections.first_call_parts(results / "first_call_h200_log.txt")
    assert header == ["one H200, 2026-12-02"]
    assert [(label, v["wall_median"]) for label, v in rows] == [
        ("python bfs, never ran (empty kernel cache) [cuda]", 2.5)]
    assert lines == ["python bfs, never ran (empty kernel cache) [cuda] python bfs: wall 2.500 s, cpu 4.500 s "
                     "(median of 1: 2.50)"]
    assert "| python bfs, never ran (empty kernel cache) [cuda] | 2.50 s | 4.50 s | 1 | 8 |" in sections.first_call_long()


def test_a_printed_modules_run_gives_its_steps_by_genes(results):
    (results / "modules_end_to_end_h200_x.txt").write_text(
        "# python -m bench.modules --stage modules\n# one NVIDIA H200, tree at the lead's call A (after abc1234);\n"
        "genes step seconds\n5000 start 0.046\n5000 block_tree 0.316\n5000 total 0.772 modules 20 peak GB 1.31\n"
        "1000 block_tree 8.807\n")
    doc = sections.modules_printed(results / "modules_end_to_end_h200_x.txt")
    assert doc["rows"] == [{"genes": 5000, "start_s": 0.046, "block_tree_s": 0.316, "total_s": 0.772,
                            "modules_found": 20, "peak_GB": 1.31}, {"genes": 1000, "block_tree_s": 8.807}]
    assert "the tree after abc1234" in doc["printed"] and "lead" not in doc["printed"]
    page = sections.modules_long()
    assert "| 5,000 | 46.0 ms | 316.0 ms | 772.0 ms | 20 | 1.31 |" in page
