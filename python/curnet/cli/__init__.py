"""The `curnet` command: run an algorithm on a file, show the device, or run the demo."""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from typing import Any

import numpy as np

from . import analyses as cli_analyses
from . import coexpression as cli_coexpression
from . import communities as cli_communities
from . import propagation as cli_propagation
from . import modules as cli_modules

from .inputs import BACKEND_HELP, add_input_options, add_run_options, graph_file, read_input
from ..io.outputs import check_path
from ..sources import resolve_sources, sample_sources

ALGORITHMS = ("bfs", "sssp", "sssp-dists", "scc")


# --out writes the reachable pairs of about this many (source, vertex) pairs at a time.
PIECE_PAIRS = 1 << 18


def _parser() -> argparse.ArgumentParser:
    from .._version import __version__
    p = argparse.ArgumentParser(prog="curnet", description="GPU/CPU graph analytics for biological networks")
    p.add_argument("--version", action="version", version=f"curnet {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for name in ALGORITHMS:
        a = sub.add_parser(name, help=f"run {name} on a graph file")
        add_input_options(a)
        add_run_options(a, out_help="write results to FILE.tsv or FILE.parquet (long format)",
                        seed=None if name == "scc" else "the seed of --fraction's draw (default 0)")
        if name != "scc":
            src = a.add_mutually_exclusive_group()
            src.add_argument("--sources", help="comma-separated vertex names or ids, or @FILE: "
                             "one or more per line, '#' starts a comment")
            src.add_argument("--fraction", type=float, help="a seeded random fraction of the vertices")
            a.add_argument("--scheduler", help="run on the Dask cluster at this address (tcp://host:8786); "
                           "see `curnet cluster`")
            a.add_argument("--shared-file", action="store_true",
                           help="with --scheduler: each worker reads FILE itself (the same path on every host) "
                           "instead of receiving the graph")
    cli_analyses.add_parsers(sub)
    cli_coexpression.add_parser(sub)
    cli_communities.add_parser(sub)
    cli_propagation.add_parser(sub)
    cli_modules.add_parser(sub)
    sub.add_parser("info", help="backend, device and versions")
    w = sub.add_parser("warm-up", help="compile the CPU's Numba routes into Numba's cache and every GPU kernel "
                       "into cuRnet's kernel cache, once, so that no call compiles (docs/first-call.md)")
    w.add_argument("--backend", default="cuda", help="the GPU(s) to compile for: cuda, cuda:N, cuda:all "
                   "(default cuda; the CPU's routes are compiled in every case), or cpu: the CPU's alone")
    c = sub.add_parser("cluster", help="start a local Dask cluster, print its address, run until Ctrl-C")
    c.add_argument("--workers", type=int, help="worker processes (default: one a CPU core; with --gpu one a GPU)")
    c.add_argument("--gpu", action="store_true", help="one worker per GPU (needs dask-cuda)")
    c.add_argument("--host", default="127.0.0.1", help="address the scheduler listens on (0.0.0.0: all)")
    c.add_argument("--port", type=int, default=0, help="scheduler port (default: any free one)")
    d = sub.add_parser("demo", help="the main job on the scNET human network")
    d.add_argument("--backend", default="auto", help=BACKEND_HELP)
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    try:
        if args.command == "info":
            import curnet
            print(json.dumps(curnet.info(), indent=2))
        elif args.command == "demo":
            demo(args.backend)
        elif args.command in cli_analyses.COMMANDS:
            cli_analyses.run(args)
        elif args.command == "coexpression":
            cli_coexpression.run(args)
        elif args.command == "communities":
            cli_communities.run(args)
        elif args.command == "propagate":
            cli_propagation.run(args)
        elif args.command == "modules":
            cli_modules.run(args)
        elif args.command == "cluster":
            serve_cluster(args)
        elif args.command == "warm-up":
            from . import warm_up
            report = warm_up.warm_up(args.backend, say=lambda line: print(line, file=sys.stderr))
            print(json.dumps(report, indent=2))
            return 1 if report["failed"] else 0
        else:
            run_algorithm(args)
    except (ValueError, TypeError, FileNotFoundError, RuntimeError, MemoryError) as e:
        print(f"curnet {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"curnet {args.command}: interrupted", file=sys.stderr)
        return 130
    return 0


def pick_sources(g, fraction: float, seed: int) -> np.ndarray:
    """A seeded random `fraction` of the vertices that have an edge."""
    if not 0 < fraction <= 1:
        raise ValueError(f"--fraction must be in (0, 1], got {fraction}")
    return sample_sources(g, max(1, int(round(fraction * len(g)))), seed)


def source_list(text: str) -> list[str]:
    """--sources: "a,b,c", or "@FILE" with sources separated by commas, blanks or lines."""
    if text.startswith("@"):
        path = text[1:]
        with open(path, encoding="utf-8") as f:   # FileNotFoundError names the path
            lines = [line.split("#", 1)[0] for line in f]
        parts = " ".join(lines).replace(",", " ").split()
        if not parts:
            raise ValueError(f"no sources in {path}")
        return parts
    return [s.strip() for s in text.split(",") if s.strip()]


def _ids(parts: list[str]) -> list[int]:
    try:
        return [int(s) for s in parts]
    except ValueError:
        bad = next(s for s in parts if not s.lstrip("-").isdigit())
        raise ValueError(f"this graph has no vertex names, so sources are 0-based ids, and {bad!r} "
                         f"is not one (leave out --ids-as-index to read the file's ids as names)") from None


def run_algorithm(args) -> None:
    import curnet
    if args.out:
        check_path(args.out)
    g = read_input(args)
    t0 = time.perf_counter()
    if args.command == "scc":
        labels = curnet.scc(g, backend=args.backend)
        took = time.perf_counter() - t0
        sizes = np.bincount(labels)
        print(f"scc: {len(sizes):,} components, largest {sizes.max():,} vertices ({took:.3f} s)",
              file=sys.stderr)
        from ..io.outputs import to_table, write_table
        write_table(to_table({"vertex": _labels_of(g, np.arange(len(g))), "component": labels}), args.out)
        return
    sources: Any
    if args.sources:
        parts = source_list(args.sources)
        sources = parts if g.names is not None else _ids(parts)
    else:
        sources = pick_sources(g, args.fraction or 0.05, args.seed)
    k = len(sources)
    if args.scheduler:
        return run_on_cluster(args, g, sources, t0)
    if args.out:
        stream_to_file(g, sources, args)
        return
    if args.command == "bfs":
        values, pred = curnet.bfs(g, sources, backend=args.backend, progress=None), None
        reached = values >= 0
    elif args.command == "sssp":
        values, pred = curnet.sssp(g, sources, backend=args.backend)
        reached = np.isfinite(values)
    else:
        values, pred = curnet.sssp_dists(g, sources, backend=args.backend), None
        reached = np.isfinite(values)
    took = time.perf_counter() - t0
    print(f"{args.command}: {k:,} sources x {len(g):,} vertices in {took:.3f} s; "
          f"{reached.mean():.1%} of pairs reachable", file=sys.stderr)
    # Without --out the result table goes to stdout (the summary above to stderr), as the
    # analysis commands do.
    from ..io.outputs import long_columns, to_table, write_stdout
    write_stdout(to_table(long_columns(g, resolve_sources(g, sources), values, pred,
                                       args.command.replace("-", "_"))))


def run_on_cluster(args, g, sources, t0) -> None:
    """The job on the Dask cluster at --scheduler: Parquet is streamed a chunk at a time,
    other outputs are gathered first."""
    from .. import distributed
    distributed._dask()
    logging.getLogger("distributed").setLevel(logging.WARNING)   # Dask's own INFO lines
    kind = args.command.replace("-", "_")
    graph = graph_file(args) if args.shared_file else g
    engine = distributed.ClusterEngine(args.scheduler)
    if args.out and args.out.endswith(".parquet"):
        rows = engine.to_parquet(graph, sources, args.out, kind, backend=args.backend, progress=None)
        print(f"{args.command}: {len(sources):,} sources x {len(g):,} vertices on {args.scheduler} in "
              f"{time.perf_counter() - t0:.3f} s; wrote {rows:,} rows to {args.out}")
        return
    if kind == "sssp":
        values, pred = engine.sssp(graph, sources, backend=args.backend)
    else:
        values, pred = getattr(engine, kind)(graph, sources, backend=args.backend), None
    print(f"{args.command}: {len(sources):,} sources x {len(g):,} vertices on {args.scheduler} in "
          f"{time.perf_counter() - t0:.3f} s")
    if args.out:
        from ..io.outputs import long_columns, to_table, write_table
        write_table(to_table(long_columns(g, resolve_sources(g, sources), values, pred, kind)), args.out)


def serve_cluster(args) -> None:
    """`curnet cluster`: the scheduler's address on stdout (for --scheduler), then wait."""
    import signal

    from .. import distributed
    distributed._dask()                                           # imported, so its log levels are set ...
    logging.getLogger("distributed").setLevel(logging.WARNING)   # ... and Dask's INFO lines quieted
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))        # `kill` closes the workers too
    kwargs = {"scheduler_port": args.port, "host": args.host}
    with distributed.local_cluster(args.workers, gpu=args.gpu, **kwargs) as cluster:
        print(cluster.scheduler_address, flush=True)
        print(f"curnet cluster: {len(cluster.workers)} worker(s); Ctrl-C stops it", file=sys.stderr)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


def _labels_of(g, ids):
    return g.names[ids] if g.names is not None else ids


def stream_to_file(g, sources, args) -> None:
    """bfs/sssp/sssp-dists into --out as the batches finish: the reachable pairs of a few
    sources at a time are one piece of the file (Parquet row groups), so neither the whole
    matrix nor a whole batch in long form sits in memory. Ctrl-C finishes the piece being
    written and closes the file, which then holds every piece written."""
    import contextlib
    import curnet
    from ..io.outputs import TableWriter, interrupts_between_writes, long_columns, to_table
    kind = args.command.replace("-", "_")
    rows_per_piece = max(1, PIECE_PAIRS // max(len(g), 1))
    t0, pairs, reached_pairs = time.perf_counter(), 0, 0
    w = TableWriter(args.out)
    if args.command == "bfs":
        stream = curnet.bfs_batches(g, sources, backend=args.backend, max_pending=1)
    else:
        stream = curnet.sssp_batches(g, sources, backend=args.backend, max_pending=1,
                                     with_pred=args.command == "sssp")
    with interrupts_between_writes() as writing:
        try:
            with contextlib.closing(stream):
                for ids, block in stream:
                    block, pred = block if isinstance(block, tuple) else (block, None)
                    for i in range(0, len(ids), rows_per_piece):
                        piece = slice(i, i + rows_per_piece)
                        table = to_table(long_columns(g, ids[piece], block[piece],
                                                      None if pred is None else pred[piece], kind))
                        with writing():
                            w.write(table)
                        reached_pairs += table.num_rows
                    pairs += block.size
        except KeyboardInterrupt:
            print(f"interrupted: {args.out} holds the {w.rows:,} rows written before", file=sys.stderr)
            raise
        finally:
            with writing():
                w.close()
    took = time.perf_counter() - t0
    print(f"{args.command}: {len(sources):,} sources x {len(g):,} vertices in {took:.3f} s; "
          f"{reached_pairs / max(pairs, 1):.1%} of pairs reachable")
    print(f"wrote {w.rows:,} rows to {args.out}", file=sys.stderr)


def demo(backend: str) -> None:
    """cuRnet's main job on a real network: BFS from 20%, SSSP from 5%, SCC."""
    import curnet
    from curnet import datasets
    print(f"cuRnet demo: the scNET human gene network ({datasets.info('scnet').source})")
    t0 = time.perf_counter()
    g = datasets.load("scnet", weights="distance")
    print(f"  graph: {g}  [{time.perf_counter() - t0:.2f} s to load]")
    used = curnet.info()["backend"] if backend == "auto" else backend
    print(f"  backend: {used} (asked for {backend!r})")
    rows = []

    bfs_sources = pick_sources(g, 0.20, seed=1)
    t0 = time.perf_counter()
    depths = curnet.bfs(g, bfs_sources, backend=backend, progress=True)
    rows.append(("BFS", len(bfs_sources), time.perf_counter() - t0))
    reach = depths >= 0
    ecc = np.where(reach, depths, 0).max(axis=1)
    print(f"  BFS from {len(bfs_sources):,} sources: {reach.mean():.1%} of pairs reachable, "
          f"mean hop distance {depths[reach].mean():.2f}, eccentricity {ecc.min()}-{ecc.max()}")
    del depths, reach

    sssp_sources = pick_sources(g, 0.05, seed=2)
    t0 = time.perf_counter()
    dist, pred = curnet.sssp(g, sssp_sources, backend=backend, progress=True)
    rows.append(("SSSP (1 - score)", len(sssp_sources), time.perf_counter() - t0))
    finite = np.isfinite(dist)
    hub = np.bincount(pred[pred >= 0], minlength=len(g)).argmax()
    print(f"  SSSP from {len(sssp_sources):,} sources: mean distance {dist[finite].mean():.3f}; "
          f"gene {g.names[hub]} is the predecessor on the most shortest paths")
    del dist, pred

    t0 = time.perf_counter()
    labels = curnet.scc(g, backend=backend)
    rows.append(("SCC", 0, time.perf_counter() - t0))
    sizes = np.bincount(labels)
    print(f"  SCC: {len(sizes):,} components, the largest holds {sizes.max():,} genes")

    print(f"\n  {'step':<18}{'sources':>9}{'seconds':>10}")
    for step, k, secs in rows:
        print(f"  {step:<18}{k if k else '-':>9}{secs:>10.3f}")
