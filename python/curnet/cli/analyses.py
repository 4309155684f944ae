"""The `curnet` subcommands that reduce distances to answers: per-vertex measures
(closeness, harmonic, eccentricity, ego-size), the distance table, paths between vertices
and set proximity. Each writes a table: TSV on stdout, or --out FILE.tsv / FILE.parquet."""
from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from .inputs import Renamed, Retired, add_input_options, add_run_options, read_input

VERTEX_MEASURES = ("closeness", "harmonic", "eccentricity", "ego-size")
COMMANDS = VERTEX_MEASURES + ("distance-table", "paths", "proximity", "pcsf")


def _names(text):
    return [s.strip() for s in text.split(",") if s.strip()]


def _retired_hops_flag(a) -> None:
    """The earlier flag `--hops` (count hops on a weighted graph, deprecated 2026-11-25): --hops
    is now only a number of hops (ego-size), so the flag is an error that names --unweighted."""
    a.add_argument("--hops", dest="unweighted", action=Retired,
                   instead="count hops on a weighted file with --unweighted (--hops N is ego-size's number of hops)")


def add_parsers(sub) -> None:
    """The subcommands, on the `curnet` parser's subparsers."""
    def command(name, help, **run_options):
        a = sub.add_parser(name, help=help)
        add_input_options(a)
        add_run_options(a, **run_options)
        return a

    for name in VERTEX_MEASURES:
        a = command(name, f"{name} of vertices (igraph's definition)")
        a.add_argument("--vertices", help="comma-separated vertex names or ids (default: all)")
        a.add_argument("--mode", choices=("out", "in", "all"),
                       default="out" if name == "eccentricity" else "all")
        if name == "ego-size":
            a.add_argument("--hops", type=int, default=1, metavar="N",
                           help="the largest number of hops (igraph's order; default 1)")
            a.add_argument("--order", dest="hops", action=Renamed, new="--hops", type=int)
            a.add_argument("--mindist", type=int, default=0,
                           help="leave out vertices fewer hops away than this (1: the vertex itself)")
        else:
            _retired_hops_flag(a)
        if name in ("closeness", "harmonic"):
            a.add_argument("--cutoff", type=float, help="only paths up to this length")
    a = command("distance-table", "how many vertex pairs lie at each hop distance")
    a.add_argument("--ignore-directions", action="store_true", help="count paths in either direction")
    a = command("paths", "shortest paths (vertices and edges) from sources to targets")
    a.add_argument("--sources", help="comma-separated source vertices (required)")
    # --from: this command's earlier spelling, kept for scripts; --sources is the one name.
    a.add_argument("--from", dest="sources", action=Renamed, new="--sources")
    a.add_argument("--to", dest="targets", help="comma-separated target vertices (default: all)")
    a.add_argument("--mode", choices=("out", "in", "all"), default="out")
    _retired_hops_flag(a)
    a = command("proximity", "network proximity of gene sets to a module, with z-scores",
                seed="the reference sets' seed (default 0)")
    a.add_argument("--set", dest="sets", action="append", required=True,
                   help="comma-separated vertices of a set (repeat for several sets; NAME=a,b,c names it)")
    a.add_argument("--module", required=True, help="comma-separated vertices of the module")
    a.add_argument("--measures", default="closest",
                   help="comma-separated among closest, shortest, kernel, centre, separation, or all")
    a.add_argument("--n-random", type=int, default=1000)
    a.add_argument("--bin-size", type=int, default=100)
    a.add_argument("--weighted", action="store_true",
                   help="use the weights as lengths (default: hops, the method's definition)")
    a = command("pcsf", "prize-collecting Steiner forest (the PCSF package's method); the network "
                        "is undirected, its third column the edge costs",
                seed="with --runs: seed of the noise (default: fresh noise each call, as PCSF_rand)",
                seed_default=None)
    a.add_argument("prizes", help="terminals and prizes: two columns (name, prize), TSV or CSV, header optional")
    a.add_argument("--w", type=float, default=2.0, help="cost of each tree (default 2)")
    a.add_argument("--b", type=float, default=1.0, help="multiplier of the prizes (default 1)")
    a.add_argument("--mu", type=float, default=0.0005, help="hub penalty per degree (default 0.0005)")
    a.add_argument("--dummies", help="comma-separated vertices the root is joined to (default: the terminals)")
    a.add_argument("--runs", type=int, help="N runs on noisy costs and their union with counts (PCSF_rand)")
    a.add_argument("--noise", type=float, default=0.1, help="with --runs: costs grow by up to this fraction")
    a.add_argument("--dtype", choices=("float64", "float32"), default="float64",
                   help="the shortest paths' float width (default float64, as the package decides; "
                        "float32 lets a GPU use its faster search: the forest is still costed in "
                        "float64, and equal-looking paths may be chosen differently)")
    a.add_argument("--package-forest", action="store_true",
                   help="the PCSF package's forest, without cuRnet's improving rounds")
    a.add_argument("--duplicates", choices=("error", "last"), default="error",
                   help="a terminal listed twice: an error, or its last prize (the PCSF package's reading)")
    a.add_argument("--simplify", action="store_true",
                   help="drop self-loops and join a repeated pair once, its costs summed, as the PCSF "
                        "package's construct_interactome() (its STRING network has self-loops)")
    a.add_argument("--vertices-out", help="also write the vertex table (name, prize or count, type) here")


def run(args) -> None:
    import curnet
    from ..io.outputs import check_path, to_table, write_table
    if args.out:
        check_path(args.out)
    if args.command == "proximity" and args.weighted and args.unweighted:
        raise ValueError("--weighted and --unweighted: give one (proximity counts hops unless --weighted)")
    if args.command == "pcsf":      # undirected, costs in double precision as the package's
        g = read_input(args, directed=False, dtype=np.float64,
                       weights=True if args.weight is None else args.weight)
    else:
        g = read_input(args)
    t0 = time.perf_counter()
    cols = _compute(curnet, g, args)
    print(f"{args.command}: {time.perf_counter() - t0:.3f} s", file=sys.stderr)
    write_table(to_table(cols), args.out)


def _vertices(g, text):
    if text is None:
        return None
    parts = _names(text)
    return parts if g.names is not None else [int(s) for s in parts]


def _label(g, ids):
    ids = np.asarray(ids)
    return g.names[ids] if g.names is not None else ids


def read_prizes(path) -> tuple[list, list]:
    """Two columns, name and prize, split by tab, comma or spaces; a first line whose
    prize is not a number is a header."""
    names: list = []
    values: list = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t") if "\t" in line else line.split(",") if "," in line else line.split()
            if len(parts) < 2:
                raise ValueError(f"{path}, line {number}: expected two columns (name, prize), got {line!r}")
            try:
                value = float(parts[1])
            except ValueError:
                if not names and number == 1:
                    continue                     # a header
                raise ValueError(f"{path}, line {number}: prize {parts[1]!r} is not a number") from None
            names.append(parts[0].strip())
            values.append(value)
    return names, values


# The engine's Python spellings in a pcsf error, as this command's options
_PCSF_CLI_WORDS = {"curnet.interactome()": "--simplify",
                   "duplicates='last'": "--duplicates last"}


def _pcsf(g, args) -> dict:
    try:
        return _pcsf_run(g, args)
    except ValueError as e:
        text = str(e)
        for python, cli in _PCSF_CLI_WORDS.items():
            text = text.replace(python, cli)
        raise ValueError(text) from None


def _pcsf_run(g, args) -> dict:
    from ..analyses.steiner_forest import interactome, pcsf, pcsf_rand
    if args.simplify:
        g = interactome(g)
    prizes = read_prizes(args.prizes)
    options = dict(w=args.w, b=args.b, mu=args.mu, backend=args.backend, duplicates=args.duplicates,
                   improve=not args.package_forest, dtype=args.dtype,
                   dummies=_names(args.dummies) if args.dummies else None)
    f: Any
    if args.runs is None:
        f = pcsf(g, prizes, **options)
        print(f"pcsf: {f.matched} of {f.matched + len(f.unmatched)} distinct terminals in the network; forest of "
              f"{len(f.vertices)} vertices, {len(f.edge_from)} edges, {f.trees} trees; "
              f"objective {f.objective:.10g}", file=sys.stderr)
    else:
        f = pcsf_rand(g, prizes, runs=args.runs, noise=args.noise, seed=args.seed, **options)
        print(f"pcsf: {f.matched} of {f.matched + len(f.unmatched)} distinct terminals in the network; "
              f"union of {f.runs} "
              f"runs: {len(f.vertices)} vertices, {len(f.edge_from)} edges; objectives "
              f"{f.objectives.min():.10g} to {f.objectives.max():.10g}", file=sys.stderr)
    print("pcsf: seconds " + ", ".join(f"{k} {v:.3f}" for k, v in f.seconds.items()), file=sys.stderr)
    if f.unmatched:
        print(f"pcsf: not in the network: {', '.join(f.unmatched[:10])}"
              + (f" and {len(f.unmatched) - 10} more" if len(f.unmatched) > 10 else ""), file=sys.stderr)
    if args.vertices_out:
        from ..io.outputs import TableWriter, check_path, to_table
        check_path(args.vertices_out)
        with TableWriter(args.vertices_out) as w:
            w.write(to_table({k: np.asarray(v) for k, v in f.vertex_table().items()}))
    return {k: np.asarray(v) for k, v in f.edge_table().items()}


def _compute(curnet, g, args) -> dict:
    c, be = args.command, args.backend
    if c == "pcsf":
        return _pcsf(g, args)
    if c in VERTEX_MEASURES:
        from ..analyses import measures
        from ..sources import resolve_sources
        vertices = _vertices(g, args.vertices)
        ids = np.arange(len(g)) if vertices is None else resolve_sources(g, vertices)
        if c == "closeness":
            values = measures.closeness(g, vertices, mode=args.mode, cutoff=args.cutoff,
                                        backend=be)
        elif c == "harmonic":
            values = measures.harmonic_centrality(g, vertices, mode=args.mode, cutoff=args.cutoff,
                                                  backend=be)
        elif c == "eccentricity":
            values = measures.eccentricity(g, vertices, mode=args.mode, backend=be)
        else:
            values = measures.ego_size(g, vertices, order=args.hops, mode=args.mode,
                                       mindist=args.mindist, backend=be)
        return {"vertex": _label(g, ids), c.replace("-", "_"): values}
    if c == "distance-table":
        from ..analyses import measures
        counts, unconnected = measures.distance_table(g, directed=not args.ignore_directions, backend=be)
        print(f"unconnected pairs: {unconnected:,}", file=sys.stderr)
        return {"distance": np.arange(1, len(counts) + 1), "pairs": counts}
    if c == "paths":
        if not args.sources:
            raise ValueError("paths needs --sources")
        sources = _vertices(g, args.sources)
        p = curnet.shortest_paths(g, sources, _vertices(g, args.targets), mode=args.mode,
                                  backend=be)
        rows = [(s, t, vp, ep) for s, vrow, erow in zip(p.sources, p.vpath, p.epath)
                for t, vp, ep in zip(p.targets, vrow, erow) if len(vp)]
        weights = g.edges()[2] if g.weighted else None
        return {"source": _label(g, [r[0] for r in rows]).astype(str) if rows else np.array([], str),
                "target": _label(g, [r[1] for r in rows]).astype(str) if rows else np.array([], str),
                "edges": np.array([len(r[3]) for r in rows], dtype=np.int64),
                "length": np.array([len(r[3]) if weights is None else float(weights[r[3]].sum())
                                    for r in rows], dtype=np.float64),
                "vpath": np.array([";".join(map(str, _label(g, r[2]).tolist())) for r in rows], dtype=str),
                "epath": np.array([";".join(map(str, r[3].tolist())) for r in rows], dtype=str)}
    from ..analyses.network_proximity import as_columns
    names, sets = [], []
    for i, spec in enumerate(args.sets):
        name, _, members = spec.rpartition("=")
        names.append(name or f"set{i + 1}")
        sets.append(_vertices(g, members))
    measures_ = "all" if args.measures == "all" else _names(args.measures)
    results = curnet.proximity(g, sets, _vertices(g, args.module), measures=measures_,
                               n_random=args.n_random, bin_size=args.bin_size, seed=args.seed,
                               weighted=args.weighted, backend=be)
    return as_columns(results, names)
