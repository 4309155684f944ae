"""`curnet propagate NETWORK SEEDS.tsv`: propagate seed sets over a network (random walk with
restart, or a diffusion kernel), optionally with a degree-matched permutation null, written in
long format (set, vertex, score[, z, p]) as TSV on stdout or --out FILE.tsv / FILE.parquet.

SEEDS.tsv: one seed a line, or two columns (set name, seed) for several sets; '#' starts a
comment; a first line whose seed is not in the network is read as a header."""
from __future__ import annotations

import sys
import time

import numpy as np

from .inputs import add_input_options, add_run_options, read_input
from ..sources import resolve_sources


def add_parser(sub) -> None:
    a = sub.add_parser("propagate", help="propagate seed sets over a network (RWR or diffusion), "
                       "with a permutation null")
    add_input_options(a)
    a.add_argument("seeds", help="seed file: one seed a line, or (set, seed) columns")
    a.add_argument("--method", choices=("rwr", "diffusion"), default="rwr",
                   help="rwr: random walk with restart; diffusion: a diffusion kernel (--kernel)")
    a.add_argument("--restart", type=float, default=0.3, help="rwr's restart probability (default 0.3)")
    a.add_argument("--kernel", choices=("regularized_laplacian", "diffusion"), default="regularized_laplacian",
                   help="the kernel of --method diffusion (diffuStats' names)")
    a.add_argument("--sigma2", type=float, default=1.0, help="the kernel's sigma2 (default 1)")
    a.add_argument("--null", type=int, default=0, metavar="N",
                   help="add z-scores and empirical p-values from N degree-matched random seed sets")
    a.add_argument("--bin-size", type=int, default=100, help="the fewest vertices in a degree bin (default 100)")
    add_run_options(a, out_help="write the scores to FILE.tsv or FILE.parquet (default: TSV on stdout)",
                    seed="the random draws' seed (default 0)")


def read_seed_sets(path: str, g) -> dict:
    """{set name: [seed, ...]} from the seed file, checked against the network's vertices."""
    known = g.name_index() if g.names is not None else None
    rows = []
    with open(path, encoding="utf-8") as f:          # FileNotFoundError names the path
        for number, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].strip().split("\t")
            fields = [x.strip() for x in fields if x.strip()]
            if fields:
                if len(fields) > 2:
                    raise ValueError(f"{path}, line {number}: expected 'seed' or 'set<TAB>seed', "
                                     f"got {len(fields)} fields")
                rows.append((number, fields))
    if not rows:
        raise ValueError(f"no seeds in {path}")
    if known is not None and rows[0][1][-1] not in known and len(rows) > 1:
        rows = rows[1:]                               # a header
    sets: dict = {}
    for number, fields in rows:
        name, seed = (fields[0], fields[1]) if len(fields) == 2 else ("seeds", fields[0])
        if known is not None and seed not in known:
            raise ValueError(f"{path}, line {number}: seed {seed!r} is not in the network")
        sets.setdefault(name, []).append(seed if known is not None else _vertex_id(seed, len(g), path, number))
    return sets


def _vertex_id(text: str, n: int, path: str, number: int) -> int:
    if not text.isdigit() or int(text) >= n:
        raise ValueError(f"{path}, line {number}: {text!r} is not a vertex id (0..{n - 1}) of this "
                         "network, whose vertices have no names")
    return int(text)


def run(args) -> None:
    from .. import propagation
    from ..io.outputs import check_path, to_table, write_table
    if args.out:
        check_path(args.out)
    g = read_input(args)
    sets = read_seed_sets(args.seeds, g)
    names = list(sets)
    vertex = np.asarray(g.names if g.names is not None else np.arange(len(g)))
    if args.method == "rwr":
        kernel = {"kernel": "pagerank", "restart": args.restart}
    else:
        kernel = {"kernel": args.kernel, "sigma2": args.sigma2}
    t0 = time.perf_counter()
    cols: dict = {"set": [], "vertex": [], "score": []}
    if args.null:
        cols.update(z=[], p=[])
        for name in names:
            res = propagation.propagation_null(g, _seeds(sets[name]), args.null, bins=args.bin_size,
                                               seed=args.seed, backend=args.backend, **kernel)
            _add(cols, name, vertex, res.observed, z=res.z, p=res.p)
    else:
        starts = [_seeds(sets[name]) for name in names]
        if args.method == "rwr":
            scores = propagation.rwr(g, starts, restart=args.restart, backend=args.backend)
        else:
            y = np.zeros((len(g), len(names)))
            for j, s in enumerate(starts):
                y[resolve_sources(g, s), j] = 1.0
            scores = propagation.diffuse(g, y, kernel=args.kernel, sigma2=args.sigma2, backend=args.backend)
        for j, name in enumerate(names):
            _add(cols, name, vertex, scores[:, j])
    print(f"propagate: {len(names):,} set(s) over {len(g):,} vertices in {time.perf_counter() - t0:.3f} s",
          file=sys.stderr)
    write_table(to_table({k: np.concatenate(v) if v else np.array([]) for k, v in cols.items()}), args.out)


def _seeds(seeds: list):
    return np.asarray(seeds) if seeds and isinstance(seeds[0], int) else list(seeds)


def _add(cols: dict, name: str, vertex: np.ndarray, score, **more) -> None:
    cols["set"].append(np.full(len(vertex), name, dtype=object))
    cols["vertex"].append(vertex.astype(object) if vertex.dtype == object else vertex)
    cols["score"].append(score)
    for key, value in more.items():
        cols[key].append(value)
