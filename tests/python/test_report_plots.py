"""bench/report.py's pictures: one panel a network with one name, legends clear of the data."""
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from bench import report  # noqa: E402


@pytest.fixture
def figures(monkeypatch, tmp_path):
    """The figures plots() makes from the committed results, kept open by name."""
    made = {}

    def keep(fig, path, tight=True):
        if tight:
            fig.tight_layout()
        fig.canvas.draw()
        made[Path(path).name] = fig
        return path
    monkeypatch.setattr(report, "save", keep)
    monkeypatch.setattr(plt, "close", lambda fig=None: None)
    docs = report.load_docs(REPO / "bench" / "results")
    if "cpu" not in docs or "gpu" not in docs:
        pytest.skip("needs bench/results/cpu.json and gpu.json")
    report.plots(docs, tmp_path)
    return made, docs


def test_speedup_has_one_panel_a_network_named_once(figures):
    made, docs = figures
    fig = made["speedup_vs_sources.png"]
    panels = [ax for ax in fig.axes if ax.get_visible()]
    titles = [ax.get_title() for ax in panels]
    names = report.network_names()
    assert len(titles) == len(set(titles))                       # one panel a network
    cases = {r["case"] for d in (docs["cpu"], docs["gpu"]) for r in d["records"]
             if r["algorithm"] in ("bfs", "sssp")}
    assert not set(titles) & (cases - set(names.values()))      # no raw case keys ("string_sample")
    assert "STRING sample" in titles and "scNET human" in titles
    for ax in panels:                  # at most BFS and SSSP on CPU and GPU, and the y = 1 line
        assert len(ax.get_lines()) <= 5
    (legend,) = fig.legends
    below = min(ax.get_window_extent().y0 for ax in panels)
    assert legend.get_window_extent().y1 <= below + 1            # under every panel


@pytest.mark.parametrize("name", ["scc_vs_size.png", "gteps_vs_scale.png"])
def test_line_plots_keep_the_legend_outside_the_data(figures, name):
    fig = figures[0][name]
    (ax,) = fig.axes
    legend = ax.get_legend()
    assert legend.get_window_extent().x0 >= ax.get_window_extent().x1
    labels = [t.get_text() for t in legend.get_texts()]
    assert any(l.startswith("CPU") or "CPU" in l for l in labels)   # the CPU lines are named too
