"""The README's one table of speed-ups, and docs/benchmarks.md, read from committed results.

Each row names the committed file it comes from, and the row's date, machine and commit are
read from that file; where a file does not record the commit it was measured at, the row
names the commit that added the file to the repository ("results in <commit>"). Nothing here
is typed by hand: `python -m bench report` rewrites the README between its markers and
docs/benchmarks.md, and tests/python/test_docs.py checks that the README holds what this
module generates. The newer analyses' own formats (communities, propagation, modules, the
first call) are read in bench/sections.py, which adds their rows and sections here.
"""
from __future__ import annotations

from . import results_files
from .results_files import (REPO, RESULTS, Row, added_in, day, fmt_s, fmt_x, load,
                            machine_of, short_commit)

README = REPO / "README.md"
BENCHMARKS_PAGE = REPO / "docs" / "benchmarks.md"
BEGIN, END = "<!-- bench:summary -->", "<!-- /bench:summary -->"


# -- one reader a results format -----------------------------------------------------------
def suite_rows() -> list[Row]:
    """The benchmark suite (bench/results/cpu.json, gpu.json): BFS and SSSP beside R igraph."""
    from .results_files import find
    from .matrix import R_IGRAPH
    cpu, gpu = load("cpu.json"), load("gpu.json")
    rows = []
    for case, alg, src, what in (("scnet", "bfs", "20%", "BFS from 3,820 sources (20%), scNET"),
                                 ("scnet", "sssp", "5%", "shortest paths from 955 sources, scNET")):
        ig = find(cpu, case=case, algorithm=alg, sources=src, tool=R_IGRAPH)
        for doc, name, on in ((cpu, "cpu.json", "CPU"), (gpu, "gpu.json", "GPU")):
            r = find(doc, case=case, algorithm=alg, sources=src, layer="engine+transfer")
            e = doc["environment"]
            machine = (f"{e['gpu']}, {e['cores']} cores" if e.get("gpu")
                       else f"{e['cpu']}, {e['cores']} cores")
            # the GPU machine's suite ran no comparators: its rows take igraph's time on the CPU row's machine
            against = "R igraph `distances()`" + (" (on the CPU row's machine)" if on == "GPU" else "")
            rows.append(Row(what, against, ig["median_s"], r["median_s"], on,
                            machine, day(e["date"]), short_commit(e["commit"]),
                            f"bench/results/{name}"))
    return rows


def flat_rows(name: str, work: str, comparator_tool: str, comparator: str, curnet_tool: str) -> Row:
    """Files of {"when", "rows": [{"row", "tool", "seconds"}]} (the scripts' common format)."""
    doc = load(name)
    times = {(r["row"], r["tool"]): r["seconds"] for r in doc["rows"]}
    curnet_on = "GPU" if "cuda" in curnet_tool else "CPU"
    return Row(work.split(" | ")[-1], comparator, times[(work.split(" | ")[0], comparator_tool)],
               times[(work.split(" | ")[0], curnet_tool)], curnet_on, machine_of(name, doc), day(doc["when"]),
               doc.get("commit") or added_in(name), f"bench/results/{name}")


def pcsf_rows() -> list[Row]:
    name = "pcsf_h200.json"
    doc = load(name)
    machine = f"{doc['device'].split('(')[1].split(',')[0]}, {doc['cores']} cores"
    by = {r["row"]: r for r in doc["rows"]}
    rows = []
    for key, what in (("100 random terminals", "PCSF, 100 terminals, STRING"),):
        r = by[key]
        rows.append(Row(what, "PCSF package `PCSF()`", r["pcsf_seconds"], r["curnet_seconds"], "GPU",
                        machine, day(doc["when"]), doc["commit"], f"bench/results/{name}"))
    r = doc["rand"]
    rows.append(Row(f"PCSF_rand, {r['runs']} runs, 100 terminals, STRING", "PCSF package `PCSF_rand()`",
                    r["pcsf_seconds"], r["curnet_seconds"], "GPU", machine, day(doc["when"]),
                    doc["commit"], f"bench/results/{name}"))
    return rows


# The peers' runner's run for the README (.peers/run_peers.sh, on the GPU machine): the latest
# whole one with iBFS's time (2026-12-05's harness of iBFS ran past its limit: docs/peers.md).
PEERS = "peers_h200_2026-12-04c.json"


def peer_rows() -> list[Row]:
    name = PEERS
    doc = load(name)
    e = doc["environment"]
    machine = f"{e['gpu'].split(',')[0]}, {e['cpu_count']} cores"
    rows = []
    for work_start, peer, what in (
            ("BFS 1 source, R-MAT 22", "Gunrock BFS", "BFS, 1 source, R-MAT 22"),
            ("SSSP 1 source, R-MAT 22", "Gunrock SSSP", "SSSP, 1 source, R-MAT 22"),
            ("SCC, R-MAT 22 directed", "ECL-SCC", "SCC, R-MAT 22 directed"),
            ("BFS 1024 sources, R-MAT 20", "iBFS as published (top-down only: switch level 255)",
             "BFS, 1,024 sources, R-MAT 20")):
        r = next(r for r in doc["rows"] if r["work"].startswith(work_start) and r["peer"] == peer
                 and str(r.get("agree", "")).startswith("yes"))
        rows.append(Row(what, peer.split(" (")[0], r["peer_ms"] / 1e3, r["curnet_ms"] / 1e3, "GPU",
                        machine, day(doc["date"]), added_in(name), f"bench/results/{name}"))
    return rows


def summary_rows() -> list[Row]:
    rows = suite_rows()
    rows.append(flat_rows("betweenness_string_r_igraph_final_h100.json",
                          "betweenness, STRING exact, hops | exact betweenness, STRING (hops)",
                          "R igraph", "R igraph `betweenness()`", "cuRnet cuda"))
    rows += pcsf_rows()
    rows.append(flat_rows("measures_cpu_2026-12-05.json",
                          "closeness, 1,000 vertices, scNET weighted | weighted closeness of 1,000 genes, scNET",
                          "python-igraph", "python-igraph `closeness()`", "cuRnet cpu"))
    for work in ("TOMsimilarityFromExpr (defaults), synthetic (5,000 genes x 100 samples)"
                 " | TOM from expression, 5,000 genes x 100",
                 "pickSoftThreshold, powers 1..20, ALL (12,625 genes x 128 samples)"
                 " | pickSoftThreshold, 20 powers, ALL 12,625 genes x 128"):
        rows.append(flat_rows("coexpression_cpu.json", work, "WGCNA (2 thr)", "WGCNA 1.72",
                              "cuRnet cpu"))
    rows.append(flat_rows("betweenness_nx_k1000_h200.json",
                          "nx.betweenness_centrality, scNET, k=1000 | betweenness, scNET, "
                          "k = 1,000 sources (NetworkX's time extrapolated from k = 40)",
                          "networkx", "NetworkX", "cuRnet cuda (dispatch)"))
    rows += peer_rows()
    from . import sections           # the newer analyses' own formats (bench/sections.py)
    rows += sections.propagation_rows() + sections.modules_rows() + sections.community_rows()
    rows += sections.first_call_rows()
    return rows


# -- rendering --------------------------------------------------------------------------------
def summary_table(rows: list[Row] | None = None, to_repo: str = "") -> str:
    """The table; `to_repo` is the way from the page that holds it to the repository's root."""
    rows = summary_rows() if rows is None else rows
    out = ["| work | against | their time | cuRnet | speed-up | machine, date, commit |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r.work} | {r.comparator} | {fmt_s(r.comparator_s)} "
                   f"| {fmt_s(r.curnet_s)} ({r.curnet_on}) | **{fmt_x(r.speedup)}** "
                   f"| {r.machine}, {r.date}, {r.commit} ([data]({to_repo}{r.source})) |")
    return "\n".join(out) + "\n"


def readme_block() -> str:
    return (f"{BEGIN}\n<!-- generated by `python -m bench report` (bench/summary.py) from "
            f"bench/results; do not edit -->\n\n{summary_table()}{END}")


def readme_with_summary(text: str) -> str:
    """The README's text with the table between the markers regenerated."""
    if BEGIN not in text or END not in text:
        raise ValueError(f"README.md lacks the markers {BEGIN} ... {END}")
    before, rest = text.split(BEGIN, 1)
    after = rest.split(END, 1)[1]
    return before + readme_block() + after


def update_readme() -> bool:
    results_files.WRITE_ADDED_IN = True
    text = README.read_text()
    new = readme_with_summary(text)
    if new != text:
        README.write_text(new)
    return new != text


def benchmarks_page(suite_report: str) -> str:
    """docs/benchmarks.md: the summary, then the suite's full report (its links made relative
    to docs/), then the long tables of the other analyses."""
    suite = (suite_report.replace("](bench/results/README.md)", "](#the-benchmark-suite)")
             .replace("![", "![").replace("](speedup_vs_sources.png)", "](../bench/results/speedup_vs_sources.png)")
             .replace("](scc_vs_size.png)", "](../bench/results/scc_vs_size.png)")
             .replace("](gteps_vs_scale.png)", "](../bench/results/gteps_vs_scale.png)"))
    suite = suite.replace("# cuRnet benchmarks", "## The benchmark suite", 1)
    from . import sections
    suite = "\n".join(("#" + line) if line.startswith("## ") and not line.startswith("## The benchmark suite")
                      else line for line in suite.splitlines())
    parts = ["# Benchmarks", "",
             "Generated by `python -m bench report` (bench/summary.py, bench/report.py) from the "
             "committed files in `bench/results/`; every row names its file. The dated logs of how "
             "each number came about: [notes/performance-log.md](notes/performance-log.md) and "
             "[gpu-notes.md](gpu-notes.md).", "",
             "## Summary (the README's table)", "", summary_table(to_repo="../"), "",
             pcsf_long(), "", coexpression_long(), "", peers_long(), "", sections.propagation_long(), "",
             sections.modules_long(), "", sections.communities_long(), "", sections.first_call_long(), "",
             suite, "", commands()]
    return "\n".join(parts).rstrip() + "\n"


def commands() -> str:
    """How to run each analysis (bench/cli.py's list; bench/README.md says what moved where)."""
    from .analyses import ANALYSES
    out = ["## Running the benchmarks", "",
           "From the repository's root: `python -m bench` runs the suite (`--gpu` its GPU half), "
           "`python -m bench report` regenerates this page, and `python -m bench NAME` one analysis "
           "(`python -m bench NAME --help` gives its options). Each writes JSON rows with the date, "
           "machine and commit (bench/rows.py); [bench/README.md](../bench/README.md) lists each "
           "analysis' results and what moved where from `scripts/`.", "",
           "| command | measures |", "|---|---|"]
    out += [f"| `python -m bench {name}` | {what} |" for name, (_, what) in ANALYSES.items()]
    return "\n".join(out)


def pcsf_long() -> str:
    doc = load("pcsf_h200.json")
    out = [f"## PCSF beside the PCSF package ({doc['device']}, {doc['cores']} cores, "
           f"{day(doc['when'])}, commit {doc['commit']}, `bench/results/pcsf_h200.json`)", "",
           "| work | terminals | `PCSF()` | `cuRnet_pcsf()` | × | objective: PCSF → cuRnet |",
           "|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        out.append(f"| {r['row']} | {r['terminals']:,} | {fmt_s(r['pcsf_seconds'])} "
                   f"| {fmt_s(r['curnet_seconds'])} | {fmt_x(r['speedup'])} "
                   f"| {r['objective_pcsf']:.3f} → {r['objective_curnet']:.3f} |")
    r = doc["rand"]
    out.append(f"| {r['row']} | 100 | {fmt_s(r['pcsf_seconds'])} | {fmt_s(r['curnet_seconds'])} "
               f"| {fmt_x(r['speedup'])} | unions of {r['union_vertices_pcsf']} and "
               f"{r['union_vertices_curnet']} vertices, {r['shared_vertices']} shared |")
    if (RESULTS / "pcsf_h200.png").exists():
        out += ["", "![PCSF's time against the terminals, cuRnet and the PCSF package]"
                    "(../bench/results/pcsf_h200.png)"]
    return "\n".join(out)


def coexpression_long() -> str:
    doc = load("coexpression_cpu.json")
    out = [f"## Co-expression beside WGCNA ({doc['machine']}, {day(doc['when'])}, "
           f"{added_in('coexpression_cpu.json')}, `bench/results/coexpression_cpu.json`)", "",
           f"WGCNA: {doc['wgcna']}. cuRnet: {doc['device']}.", "",
           "| work | tool | time | check |", "|---|---|---|---|"]
    for r in doc["rows"]:
        out.append(f"| {r['row'].replace('|', '&#124;')} | {r['tool']} | {fmt_s(r['seconds'])} "
                   f"| {str(r.get('check', '')).replace('|', '&#124;')} |")
    return "\n".join(out)


def peers_long() -> str:
    doc = load(PEERS)
    e = doc["environment"]
    out = [f"## Beside the GPU and CPU peers ({e['gpu'].split(',')[0]}, {e['cpu_count']} cores, "
           f"{doc['date']}, {added_in(PEERS)}, `bench/results/{PEERS}`)", "",
           "cuRnet's GPU rows time the engine (graph on the device, result left there); the public "
           "call (host arrays back) is the last column.", "",
           "| work | peer | cuRnet | peer's time | peer / cuRnet | answers agree | cuRnet's public call |",
           "|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        if r.get("peer_ms") is None or r.get("curnet_ms") is None:
            continue
        out.append(f"| {r['work']} | {r['peer']} | {fmt_s(r['curnet_ms'] / 1e3)} "
                   f"| {fmt_s(r['peer_ms'] / 1e3)} | {r['peer_ms'] / r['curnet_ms']:.2f} | {r['agree']} "
                   f"| {fmt_s(r['curnet_wall_ms'] / 1e3) if r.get('curnet_wall_ms') else '-'} |")
    out += ["", "Where the time goes in each row, and the H100 runs: [peers.md](peers.md)."]
    return "\n".join(out)
