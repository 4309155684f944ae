"""The newer analyses' results in docs/benchmarks.md and the README's table: communities
(Leiden, Louvain), network propagation, WGCNA's modules and hclust, and the first call.

Each analysis wrote its own format before bench/rows.py (communities: {"meta", "rows"};
propagation: {"info", "rows"}; modules: {"stage", "backend", "date", "rows"} with a
`<name>_machine.txt` beside a device run's file; the first call: JSON, JSON lines, or a text
log with a "#" header). The files are picked up by pattern, so a new run's file joins its
section (and, where it holds a comparator measured in the same run, the README's table) when
`python -m bench report` runs again. Speed-ups are the comparator's time over cuRnet's, each
pair from one file.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from .results_files import RESULTS, Row, added_in, day, fmt_s, fmt_x, machine_of, short_commit


def results(pattern: str) -> list[Path]:
    return sorted(RESULTS.glob(pattern))


def link(path: Path) -> str:
    return f"[`{path.name}`](../bench/results/{path.name})"


def cell(text) -> str:
    return str(text).replace("|", "&#124;").replace("\n", " ")


def table(head: list[str], rows: list[list]) -> list[str]:
    return (["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            + ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows])


def commit_of(path: Path, recorded: str | None) -> str:
    return short_commit(recorded) if recorded else added_in(path.name)


def committed(path: Path) -> bool:
    """Whether a results file can name its commit (the README's rows need one)."""
    return not added_in(path.name).startswith("results file")


# -- communities: bench/communities.py ({"meta", "rows"}) and bench/communities_r.R (CSV) ------
COMMUNITY_CALLS = {"leiden_2": "Leiden, 2 iterations", "leiden_stable": "Leiden, until stable",
                   "louvain": "Louvain"}


def graph_name(key: str) -> str:
    """A graph's key in bench/communities.py, as the other rows name the network."""
    names = {"string_pcsf": "STRING (PCSF)", "string_sample": "STRING sample", "scnet": "scNET"}
    return f"R-MAT {key[4:]}" if re.fullmatch(r"rmat\d+", key) else names.get(key, key)


def community_doc(path: Path) -> tuple[dict, str, str, str]:
    doc = json.loads(path.read_text())
    meta = doc["meta"]
    machine = meta["machine"] if " " in meta["machine"] else meta["info"].get("device", meta["machine"]).split(" (")[0]
    return doc, machine, meta["date"], commit_of(path, meta.get("commit"))


def community_pairs(doc: dict) -> list[tuple[dict, dict | None]]:
    """Each cuRnet row of the three calls with python-igraph's row of the same graph and call
    in the same file (None where igraph did not run)."""
    igraph = {(r["graph"], r["call"]): r for r in doc["rows"] if r["tool"].startswith("igraph")}
    return [(r, igraph.get((r["graph"], r["call"]))) for r in doc["rows"]
            if r["tool"].startswith("curnet") and r["call"] in COMMUNITY_CALLS]


def communities_long() -> str:
    out = ["## Communities: Leiden and Louvain beside igraph", "",
           "`bench/communities.py` (cuRnet beside python-igraph in one process) and "
           "`bench/communities_r.R` (from R, beside R igraph in one session). Warm calls, medians; "
           "modularity as each tool reports it. × is igraph's time over cuRnet's. The account, "
           "and what the times mean: [communities.md](communities.md#time)."]
    for path in results("communities_*.json"):
        doc, machine, when, commit = community_doc(path)
        out += ["", f"### {link(path)}: {machine}, {when}, {commit}", ""]
        if doc["meta"].get("note"):
            out += [f"Note in the file: {doc['meta']['note']}", ""]
        rows = []
        for r, ig in community_pairs(doc):
            rows.append([r["graph"], COMMUNITY_CALLS[r["call"]], r["tool"], fmt_s(r["seconds"]),
                         fmt_s(ig["seconds"]) if ig else "not run", fmt_x(ig["seconds"] / r["seconds"]) if ig else "",
                         f"{r['quality']:.4f}" + (f" / {ig['quality']:.4f}" if ig else ""),
                         f"{r['communities']}" + (f" / {ig['communities']}" if ig else "")])
        for r in doc["rows"]:
            if r["call"] not in COMMUNITY_CALLS and r["tool"].startswith("curnet"):
                what = r["call"] + (f" ({r['runs']} runs)" if r.get("runs") else "")
                rows.append([r["graph"], what, r["tool"], fmt_s(r["seconds"]), "", "",
                             f"{r['quality']:.4f}", r.get("communities") or ""])
        out += table(["graph", "call", "cuRnet", "cuRnet's time", "igraph's time", "×",
                      "modularity: cuRnet / igraph", "communities: cuRnet / igraph"], rows)
    if not community_rows():
        out += ["", "No run yet times igraph beside cuRnet's GPU in the same run (the H200 runs' igraph "
                    "rows were cut or not run), so the README's table has no communities row; the CPU "
                    "runs' rows, where cuRnet is mostly the slower, are here."]
    for path in results("communities_r_*.csv"):
        with open(path, newline="") as f:
            got = list(csv.DictReader(f))
        by = {(r["graph"], r["call"], r["tool"].startswith("igraph")): r for r in got}
        first = got[0]
        out += ["", f"### {link(path)}: from R, {first['date']}, {added_in(path.name)}", ""]
        rows = []
        for r in got:
            if r["tool"].startswith("igraph"):
                continue
            ig = by.get((r["graph"], r["call"], True))
            rows.append([r["graph"], f"{int(r['vertices']):,}", f"{int(r['edges']):,}",
                         COMMUNITY_CALLS.get(r["call"], r["call"]), r["tool"], fmt_s(float(r["seconds"])),
                         f"{ig['tool']}: {fmt_s(float(ig['seconds']))}" if ig else "",
                         fmt_x(float(ig["seconds"]) / float(r["seconds"])) if ig else "",
                         f"{float(r['modularity']):.4f}" + (f" / {float(ig['modularity']):.4f}" if ig else "")])
        out += table(["graph", "vertices", "edges", "call", "cuRnet", "cuRnet's time", "igraph's time", "×",
                      "modularity: cuRnet / igraph"], rows)
        plot = path.with_suffix(".png")
        if plot.exists():
            out += ["", f"![Leiden and Louvain from R: time against edges, cuRnet and igraph]"
                        f"(../bench/results/{plot.name})"]
    return "\n".join(out)


def community_rows() -> list[Row]:
    """The README's rows: a GPU run with python-igraph timed in the same run, on the largest
    graph it holds both for (Leiden with 2 iterations and Louvain); of several runs of one call
    on one graph, the newest."""
    newest: dict[str, tuple[str, str, Row]] = {}
    for path in results("communities_*.json"):
        doc, machine, when, commit = community_doc(path)
        pairs = [(r, ig) for r, ig in community_pairs(doc) if ig and "cuda" in r["tool"]
                 and r["call"] in ("leiden_2", "louvain")]
        if not pairs or not committed(path):
            continue
        edges = {r["graph"]: r["seconds"] * r.get("edges_per_s", 0) for r, _ in pairs}
        graph = max(edges, key=lambda g: (edges[g], g))
        for r, ig in pairs:
            if r["graph"] == graph:
                version = ig["tool"].split("-", 1)[-1]
                what = f"{COMMUNITY_CALLS[r['call']]}, {graph_name(graph)}"
                row = Row(what, f"python-igraph {version} (same machine's CPU)", ig["seconds"], r["seconds"], "GPU",
                          machine, day(when), commit, f"bench/results/{path.name}")
                if what not in newest or (when, path.name) > newest[what][:2]:
                    newest[what] = (when, path.name, row)
    return [row for _, _, row in newest.values()]


# -- network propagation: bench/propagation.py ({"info", "rows"}) ----------------------------
def propagation_doc(path: Path) -> tuple[dict, str, str, str]:
    doc = json.loads(path.read_text())
    info = doc["info"]
    machine = (f"{info['gpu']}, {info['cpu_count']} cores" if info.get("gpu")
               else f"CPU, {info['cpu_count']} cores")
    return doc, machine, info["date"], commit_of(path, info.get("commit"))


def igraph_one(doc: dict) -> dict | None:
    return next((r for r in doc["rows"] if r["tool"].startswith("python-igraph")), None)


def many_sets(what: str) -> int | None:
    """The number of seed sets a batched row runs ("10,000 personalized PageRanks ...")."""
    m = re.match(r"([\d,]+) personalized PageRanks", what)
    return int(m.group(1).replace(",", "")) if m else None


def propagation_long() -> str:
    out = ["## Network propagation beside python-igraph", "",
           "`bench/propagation.py`: cuRnet's PageRank, random walks and kernels, and python-igraph's "
           "PRPACK (`personalized_pagerank`) in the same run on the same machine's CPU. Best of the "
           "warm calls; `first call` includes building the graph's device copy and compiling. For the "
           "batched rows igraph's time is its one-vector time once a set (it takes one vector a call), "
           "marked as such. The account: [propagation.md](propagation.md#measured)."]
    for path in sorted(results("propagation_*.json"), key=lambda p: propagation_doc(p)[2], reverse=True):
        doc, machine, when, commit = propagation_doc(path)
        ig = igraph_one(doc)
        out += ["", f"### {link(path)}: {machine}, {when}, {commit}", ""]
        if doc["info"].get("command"):
            out += [f"Command: {doc['info']['command']}.", ""]
        rows = []
        for r in doc["rows"]:
            if r["tool"] != "cuRnet":
                continue
            theirs, x = "", ""
            sets = many_sets(r["what"])
            if ig and r["what"] == ig["what"]:
                theirs, x = fmt_s(ig["seconds"]), fmt_x(ig["seconds"] / r["seconds"])
            elif ig and sets and r.get("seconds"):
                theirs = f"{sets:,} × {fmt_s(ig['seconds'])} = {fmt_s(sets * ig['seconds'])} (one at a time)"
                x = fmt_x(sets * ig["seconds"] / r["seconds"])
            rate = r.get("edges_per_s_per_iteration")
            shown = fmt_s(r["seconds"]) if r.get("seconds") else (
                f"{fmt_s(r['kernel_s'])} (the kernel alone)" if r.get("kernel_s") else "")
            step_route = (f"the step route (SciPy's SpMM) {fmt_s(r['step_route_s'])}"
                          if r.get("step_route_s") and not r.get("kernel_s") else "")
            notes = "; ".join(x for x in (f"{rate / 1e9:.1f} G arcs/s per step" if rate else "", step_route,
                                          r.get("note", ""), r.get("igraph", "")) if x)
            rows.append([r["network"], f"{r['vertices']:,}", f"{r['edges']:,}", r["what"], shown,
                         fmt_s(r["first_s"]) if r.get("first_s") else "", theirs, x, notes])
        out += table(["network", "vertices", "edges", "what", "cuRnet", "first call", "python-igraph", "×",
                      "notes"], rows)
    return "\n".join(out)


def propagation_rows() -> list[Row]:
    """The README's rows: the newest GPU run with python-igraph in it: one personalized
    PageRank, and the batch of seed sets against igraph one set at a time."""
    runs = [(p, *propagation_doc(p)) for p in results("propagation_*.json")]
    runs = [r for r in runs if r[1]["info"].get("gpu") and igraph_one(r[1]) and committed(r[0])]
    if not runs:
        return []
    path, doc, machine, when, commit = max(runs, key=lambda r: r[3])
    ig = igraph_one(doc)
    source = f"bench/results/{path.name}"
    rows = []
    for r in doc["rows"]:
        if r["tool"] != "cuRnet" or not r.get("seconds"):
            continue
        sets = many_sets(r["what"])
        if r["what"] == ig["what"]:
            rows.append(Row(f"one personalized PageRank, {r['network']}", "python-igraph `personalized_pagerank()`",
                            ig["seconds"], r["seconds"], "GPU", machine, day(when), commit, source))
        elif sets:
            rows.append(Row(f"{sets:,} personalized PageRanks, {r['network']}",
                            f"python-igraph, {sets:,} × its one-vector time (same run)",
                            sets * ig["seconds"], r["seconds"], "GPU", machine, day(when), commit, source))
    return rows


# -- modules and hclust: bench/modules.py, bench/modules_tree_cut.py, bench/r_modules*.R --------
#: a cuRnet time and the comparators' times beside it in a modules row
MODULE_PAIRS = (("hclust_curnet_s", "hclust_fastcluster_s", "fastcluster"),
                ("hclust_curnet_s", "hclust_scipy_s", "SciPy"),
                ("hclust_curnet_s", "hclust_stats_s", "R's stats::hclust"),
                ("modules_curnet_s", "modules_wgcna_s", "WGCNA"),
                ("tree_cut_python_s", "tree_cut_r_s", "R's cutreeHybrid"),
                ("tree_cut_python_warm_s", "tree_cut_r_warm_s", "R's cutreeHybrid, warm"))


def modules_machine(path: Path, doc: dict) -> str:
    """A modules file's machine: the GPU its backend names and the host's cores from the
    `_machine.txt` beside it; on the CPU, the backend's words or the cores it records."""
    backend = doc.get("backend", "")
    if backend.startswith("cuda"):
        gpu = backend.split("(")[1].split(",")[0]
        side = path.with_name(path.stem + "_machine.txt")
        cores = re.search(r"^CPU\(s\):\s+(\d+)", side.read_text(), re.M) if side.exists() else None
        return f"{gpu}, {cores.group(1)} cores" if cores else gpu
    if backend:
        return f"CPU: {backend.removeprefix('cpu ').strip('()')}"
    if doc.get("cpus"):
        return f"CPU, {doc['cpus']} cores"
    engine = doc.get("engine", "cpu").upper()
    if doc.get("R"):
        wgcna = f", WGCNA {doc['WGCNA']}" if doc.get("WGCNA") else ""
        return f"{engine}, {doc['R'].split(' (')[0].replace(' version', '')}{wgcna}"
    if doc.get("engine"):
        return f"{engine}, from R"
    return doc.get("machine", "")


def modules_header(key: str) -> str:
    return key.removesuffix("_s").replace("_", " ") + (" (s)" if key.endswith("_s") else "")


def modules_value(key: str, v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if key.endswith("_s") and isinstance(v, (int, float)):
        return fmt_s(v)
    if isinstance(v, float):
        return f"{v:.3g}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def modules_table(rows: list[dict]) -> list[str]:
    """Every field the rows hold, in their order, then × for each cuRnet/comparator pair."""
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys and not isinstance(r[k], (dict, list))
                 and k not in ("backend", "engine", "tree_cut_missing")]
    pairs = [(ours, theirs, name) for ours, theirs, name in MODULE_PAIRS
             if any(r.get(ours) and r.get(theirs) for r in rows)]
    head = [modules_header(k) for k in keys] + [f"× {name}" for _, _, name in pairs]
    body = [[modules_value(k, r.get(k)) for k in keys]
            + [fmt_x(r[theirs] / r[ours]) if r.get(ours) and r.get(theirs) else "" for ours, theirs, _ in pairs]
            for r in sorted(rows, key=lambda r: r.get("genes", 0))]
    return table(head, body)


def modules_printed(path: Path) -> dict:
    """A modules run kept as the lines it printed ("GENES STEP SECONDS", the total line with
    "modules N peak GB X"), its "#" header as the source: the JSON's rows."""
    text = path.read_text()
    rows: dict[int, dict] = {}
    for line in text.splitlines():
        m = re.match(r"^(\d+) (\w+) ([\d.]+)(?: modules (\d+) peak GB ([\d.]+))?\s*$", line)
        if m:
            row = rows.setdefault(int(m.group(1)), {"genes": int(m.group(1))})
            row[f"{m.group(2)}_s"] = float(m.group(3))
            if m.group(4):
                row["modules_found"], row["peak_GB"] = int(m.group(4)), float(m.group(5))
    header = " ".join(line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("#"))
    header = re.sub(r"tree at the lead's call \w+ \((after \w+)\)", r"the tree \1", header)
    steps = ("genes", "start_s", "block_tree_s", "tree_cut_s", "labels_s", "finish_s", "total_s")
    order = {k: i for i, k in enumerate(steps)}
    return {"printed": header, "rows": [dict(sorted(r.items(), key=lambda kv: order.get(kv[0], len(order))))
                                        for r in rows.values()]}


def modules_long() -> str:
    out = ["## Co-expression modules and hclust beside fastcluster, SciPy and WGCNA", "",
           "`bench/modules.py` (`curnet.hclust`'s average linkage beside fastcluster and SciPy, one "
           "thread, on 1 - TOM of planted modules, N genes x 100 samples; `blockwise_modules` step by "
           "step), `bench/modules_tree_cut.py` (the Dynamic Tree Cut from Python and from R) and "
           "`bench/r_modules.R`, `bench/r_modules_blocks.R` (from R beside WGCNA's `blockwiseModules` "
           "in the same session). × is the comparator's time over cuRnet's, in the same row. The "
           "account, with what each column measures and the targets: [modules.md](modules.md#measured). "
           "Time against genes: [the plot](../bench/results/modules_time_vs_genes_h200_2026-12-02e.png)."]
    files = results("modules_*.json") + [p for p in results("modules_*.txt") if not p.name.endswith("_machine.txt")]
    for path in sorted(files):
        doc = json.loads(path.read_text()) if path.suffix == ".json" else modules_printed(path)
        if not doc.get("rows") and "row" not in doc:
            continue
        where = [modules_machine(path, doc), doc.get("date") or doc.get("when"), commit_of(path, doc.get("commit"))]
        out += ["", f"### {link(path)}: {', '.join(x for x in where if x)}", ""]
        if doc.get("printed"):
            out += [f"From the file: {doc['printed']}", ""]
        if doc.get("source"):
            out += [f"Source: {doc['source']} (not measured in the same run as a cuRnet time).", ""]
        if "row" in doc:            # r_modules_blocks.R: one row, a tool a key of each measure
            r = doc["row"]
            tools = list(r["seconds"])
            out += [f"{r['genes']:,} genes x {r['samples']} samples, blocks of {r['block']:,} genes.", ""]
            measures = [k for k, v in r.items() if isinstance(v, dict)]
            out += table(["tool"] + [m.replace("_", " ") for m in measures],
                         [[t] + [modules_value("seconds_s" if m == "seconds" else m, r[m].get(t))
                                 for m in measures] for t in tools])
            continue
        out += modules_table(doc["rows"])
        if any(r.get("tree_cut_missing") for r in doc["rows"]):
            out += ["", f"Tree cut: {doc['rows'][0]['tree_cut_missing']}."]
    for name, what in (("modules_time_vs_genes.png", "time against genes: hclust, modules, WGCNA"),
                       ("modules_h200.png", "the H200's clustering and modules against genes")):
        if (RESULTS / name).exists():
            out += ["", f"![{what}](../bench/results/{name})"]
    return "\n".join(out)


def modules_rows() -> list[Row]:
    """The README's rows: average linkage on the largest gene count that a GPU file times
    beside fastcluster on the same host (the newest such file), and blockwiseModules from R
    beside WGCNA in the same session (the largest gene count)."""
    rows = []
    best = None
    for path in results("modules_*h200*.json"):
        doc = json.loads(path.read_text())
        if "R" in doc:              # bench/r_modules.R: cuRnet_hclust's whole call from R (modules.md)
            continue
        for r in doc["rows"]:
            if r.get("hclust_curnet_s") and r.get("hclust_fastcluster_s") and committed(path):
                key = (r["genes"], doc.get("date") or doc.get("when") or "")
                if best is None or key > best[0]:
                    best = (key, path, doc, r)
    if best:
        _, path, doc, r = best
        rows.append(Row(f"hierarchical clustering (average), {r['genes']:,} genes", "fastcluster (1 thread, "
                        "same host)", r["hclust_fastcluster_s"], r["hclust_curnet_s"], "GPU",
                        modules_machine(path, doc), day(doc.get("date") or doc.get("when")),
                        commit_of(path, doc.get("commit")), f"bench/results/{path.name}"))
    newest = None                   # the newest R file with WGCNA beside, its largest gene count
    for path in results("modules_r_*.json"):
        doc = json.loads(path.read_text())
        pairs = [r for r in doc.get("rows", []) if r.get("modules_curnet_s") and r.get("modules_wgcna_s")]
        if pairs and committed(path) and (newest is None or doc["date"] > newest[1]["date"]):
            newest = (path, doc, max(pairs, key=lambda r: r["genes"]))
    if newest:
        path, doc, r = newest
        rows.append(Row(f"modules from R (`cuRnet_blockwiseModules`), {r['genes']:,} genes x {r['samples']}",
                        "WGCNA `blockwiseModules()`", r["modules_wgcna_s"], r["modules_curnet_s"], "CPU",
                        modules_machine(path, doc), day(doc["date"]), commit_of(path, doc.get("commit")),
                        f"bench/results/{path.name}"))
    return rows


# -- the first call: bench/first_call.py (JSON, JSON lines, or a log with a "#" header) --------
def first_call_parts(path: Path) -> tuple[list[str], list[tuple[str, dict]], list[str]]:
    """A first-call file's header lines ("#"), its rows (label, {wall_median, cpu_median,
    runs} or a start table) and the summary lines of rows it holds only as text."""
    text = path.read_text()
    header = []
    for line in text.splitlines():           # the leading comment block
        if not line.startswith("# "):
            break
        header.append(line[2:].strip())
    rows, lines = [], []

    def take(label, value, backend=None):
        if isinstance(value, dict) and ("wall_median" in value or "wall" in value):
            rows.append((label + (f" [{backend}]" if backend else ""), value))
        elif label == "start_ms":
            rows.append(("start (ms)", {"start_ms": value}))
    def take_row(row):                      # a --row result: one row a line, named by "row"
        if "start_ms" in row:
            take("start_ms", row["start_ms"])
        elif "wall" in row:                  # the warm-up
            take(row["row"], row)
        inner = [(k, v) for k, v in row.items() if isinstance(v, dict) and "wall_median" in v]
        for label, value in inner:
            take(row["row"] if len(inner) == 1 else label, value, row.get("backend"))
    for line in text.splitlines():
        m = re.match(r"row (.+?): (\{.*\})\s*$", line)
        if m:
            take(m.group(1), json.loads(m.group(2)))
        elif line.startswith("row "):
            lines.append(line[4:])
        elif re.match(r"^.+ \[(cpu|cuda)\][ :]", line):     # bench/first_call.py --summarize
            lines.append(line)
        elif line.startswith("{") and line.rstrip().endswith("}"):
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if "row" in row:
                take_row(row)
    whens = [json.loads(line)["when"] for line in text.splitlines() if line.startswith('{"row"')]
    if path.suffix == ".jsonl" and whens and not header:
        header = [f"{machine_of(path.name, {}) or 'the machine'}, rows run {whens[0]} to {whens[-1]}"]
    start = re.search(r"^\{", text, re.M)
    if start and not rows:                   # one JSON document (bench/first_call.py --out)
        doc, _ = json.JSONDecoder().raw_decode(text[start.start():])
        for label, value in doc.items():
            take(label, value)
    return header, rows, lines


def first_call_long() -> str:
    out = ["## The first call", "",
           "`bench/first_call.py`: a user's first call, each run a fresh process (Python, or `Rscript` "
           "from its start), wall and CPU seconds (user + system: the steadier column on a shared "
           "machine), medians of the runs; on a GPU with an empty kernel cache (\"never ran\") and "
           "after `curnet warm-up`. R igraph answers the same question in the same run. The account, "
           "step by step: [first-call.md](first-call.md)."]
    for path in sorted(results("first_call_*.txt") + results("first_call_*.jsonl")):
        if path.name.endswith("_summary.txt") and path.with_name(path.name[:-12] + "_rows.jsonl").exists():
            continue                         # the same rows as text (first_call.py --summarize)
        header, rows, lines = first_call_parts(path)
        out += ["", f"### {link(path)}: {added_in(path.name)}", ""]
        text_form = path.with_name(path.name.removesuffix("_rows.jsonl") + "_summary.txt")
        if path.suffix == ".jsonl" and text_form.exists():
            out += [f"The same rows as text: {link(text_form)}.", ""]
        if header:
            out += [f"From the file: {' '.join(header)}", ""]
        timed = [(label, v) for label, v in rows if "start_ms" not in v]
        igraph = {label.split()[2].rstrip(","): v for label, v in timed if label.startswith("R igraph ")}
        body = []
        for label, v in timed:
            wall, cpu = v.get("wall_median", v.get("wall")), v.get("cpu_median", v.get("cpu"))
            runs = v.get("runs", [])
            compiled = "/".join(str(r["compiled"]) for r in runs if r.get("compiled") is not None)
            vs = ""
            what = next((w for w in igraph if w in label or (w == "distances" and "bfs" in label)), None)
            if label.startswith("R ") and not label.startswith("R igraph") and what and cpu:
                ig = igraph[what]
                vs = f"igraph {fmt_s(ig['cpu_median'])} CPU: {fmt_x(ig['cpu_median'] / cpu)}"
            body.append([label, fmt_s(wall) if wall else "", fmt_s(cpu) if cpu else "", len(runs) or 1,
                         compiled, vs])
        if body:
            out += table(["row", "wall (median)", "CPU (median)", "runs", "kernels compiled",
                          "R igraph, same run (× by CPU time)"], body)
        for label, v in rows:
            if "start_ms" in v:
                out += ["", "Start, one fresh process: " + "; ".join(f"{what} {ms:.0f} ms"
                                                                    for what, ms in v["start_ms"]) + "."]
        if lines:
            out += ["Rows as the file gives them:", ""] + [f"- {cell(line)}" for line in lines]
        if not body and not lines:
            out += ["A log without timed rows (see the file)."]
    return "\n".join(out)


def first_call_rows() -> list[Row]:
    """The README's row: a fresh R's first betweenness with the warmed kernel cache beside R
    igraph's on the same graph, from a GPU run's JSON lines."""
    rows = []
    for path in results("first_call_*h200*.jsonl"):
        _, got, _ = first_call_parts(path)
        by = {label.split(" [")[0]: v for label, v in got}
        ours = by.get("R betweenness, ran before (warmed cache)")
        theirs = by.get("R igraph betweenness, same graph") or by.get("R igraph betweenness")
        if ours and theirs and committed(path):
            when = next(json.loads(line)["when"] for line in path.read_text().splitlines() if line.strip())
            rows.append(Row("first call from a fresh R: library, graph, betweenness (warmed kernel cache)",
                            "R igraph, fresh R (wall times)", theirs["wall_median"], ours["wall_median"], "GPU",
                            machine_of(path.name, {}), day(when), added_in(path.name), f"bench/results/{path.name}"))
    return rows[-1:]
