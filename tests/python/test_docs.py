"""The README and the generated documentation pages: short, in order, and never typed by hand.

The README's speed-up table and docs/cli.md, docs/reference/python.md are regenerated here
from their sources (bench/results, the command's parser, the package's modules) and must
equal what is committed; the Markdown's internal links must resolve.
"""
import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text()


def load_script(name):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def summary():
    sys.path.insert(0, str(REPO))
    from bench import summary
    return summary


def test_the_readme_is_short_and_in_the_issues_order():
    assert len(README.splitlines()) <= 200
    order = ["## Two commands", "make demo", "make test", "## From R, on an igraph object",
             "## From Python", "## Speed-ups", "<!-- bench:summary -->", "## Documentation"]
    positions = [README.index(s) for s in order]
    assert positions == sorted(positions)
    pitch = README[:README.index("## Two commands")].lower()
    for capability in ("traversals", "shortest paths", "connected components", "distance measures",
                       "betweenness", "communities", "steiner forests", "co-expression",
                       "modules", "network propagation"):
        assert capability in pitch, capability


def code_block(lang):
    return re.search(rf"```{lang}\n(.*?)```", README, re.S).group(1).strip().splitlines()


def test_the_examples_are_ten_lines():
    assert len(code_block("r")) <= 10
    assert len(code_block("python")) <= 10


def test_the_python_example_runs():
    sys.path.insert(0, str(REPO / "python"))
    exec("\n".join(code_block("python")), {"print": lambda *a, **k: None})


def test_the_speedup_table_is_the_generators(summary):
    assert summary.readme_with_summary(README) == README, "run `python -m bench report`"
    rows = summary.summary_rows()
    comparators = " ".join(r.comparator for r in rows)
    for tool in ("R igraph", "PCSF package", "WGCNA", "NetworkX", "Gunrock", "ECL-SCC"):
        assert tool in comparators, tool
    for r in rows:
        assert (REPO / r.source).exists()
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", r.date), r
        assert re.search(r"[0-9a-f]{7}", r.commit), r
        assert r.curnet_s > 0 and r.comparator_s > 0


def test_a_changed_result_changes_the_table(summary):
    rows = summary.summary_rows()
    before = summary.summary_table(rows)
    rows[0].curnet_s *= 2
    assert summary.summary_table(rows) != before


def test_the_generated_pages_cover_the_cli_and_the_modules():
    docs = load_script("docs")
    cli = docs.cli_page()
    for command in ("bfs", "sssp", "scc", "pcsf", "coexpression", "info"):
        assert f"## `curnet {command}`" in cli
        assert f"usage: curnet {command}" in cli
    modules = docs.api_modules()
    assert {"curnet.analyses.measures", "curnet.coexpression", "curnet.analyses.steiner_forest"} <= set(modules)
    assert not any(m.split(".")[-1] in docs.INTERNAL for m in modules)
    assert all(f"::: {m}" in docs.python_page() for m in modules)


def test_the_markdown_links_resolve():
    docs = load_script("docs")
    assert docs.check_markdown() == []


def test_the_link_check_finds_a_broken_link(tmp_path, monkeypatch):
    docs = load_script("docs")
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text("# Title\n\n[ok](#title) [gone](missing.md) [anchor](page.md#nowhere)\n")
    monkeypatch.setattr(docs, "REPO", tmp_path)
    monkeypatch.setattr(docs, "DOCS", tmp_path / "docs")
    problems = docs.check_markdown()
    assert len(problems) == 2
    assert "missing.md: no such file" in problems[0]
    assert "no heading with this anchor" in problems[1]


def test_the_site_check_finds_a_broken_link_and_a_missing_reference_page(tmp_path, monkeypatch):
    docs = load_script("docs")
    repo, site = tmp_path / "repo", tmp_path / "site"
    (repo / "man").mkdir(parents=True)
    (repo / "NAMESPACE").write_text("export(cuRnet_bfs)\nexport(cuRnet_scc)\n")
    (repo / "man" / "cuRnet_bfs.Rd").write_text("\\name{cuRnet_bfs}\\alias{cuRnet_bfs}\n")
    (repo / "man" / "cuRnet_scc.Rd").write_text("\\name{cuRnet_scc}\\alias{cuRnet_scc}\n")
    (site / "r" / "reference").mkdir(parents=True)
    (site / "r" / "reference" / "cuRnet_bfs.html").write_text('<h1 id="top">bfs</h1>')
    (site / "index.html").write_text('<a href="r/reference/cuRnet_bfs.html#top">ok</a> '
                                     '<a href="gone.html">broken</a> <a href="#nowhere">anchor</a> '
                                     '<a href="https://example.org/x">outside</a>')
    monkeypatch.setattr(docs, "REPO", repo)
    problems = docs.check_site(site)
    assert problems == ["index.html: gone.html: no such file in the site",
                        "index.html: #nowhere: no element with this id"]
    assert docs.check_r_reference(site) == [
        "R export cuRnet_scc: no reference page site/r/reference/cuRnet_scc.html"]
