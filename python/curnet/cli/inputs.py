"""The input options every `curnet` subcommand shares: the graph file and how to read it.

One parser for all of them, so that a file means the same graph to `bfs`, `closeness` or
`proximity`, and to the workers that read it themselves (`--shared-file`: GraphFile gets
the very options read_graph gets)."""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from typing import cast

FILE_HELP = "edge list (TSV/CSV/SNAP), .mtx, .gr, .graph, .parquet, .arrow; .gz too"
BACKEND_HELP = "auto (GPU if usable), cpu, cuda, cuda:N (GPU N), cuda:0,1 or cuda:all (sources split over GPUs)"
OUT_HELP = "write the table to FILE.tsv or FILE.parquet (default: TSV on stdout)"


def add_run_options(a, *, out_help: str = OUT_HELP, seed: str | None = None, seed_default=0,
                    backend_help: str = BACKEND_HELP) -> None:
    """The options every analysis subcommand shares, in one place (the names: docs/design.md):
    --backend, --out, and with `seed` (its help) --seed. `seed_default`: 0 everywhere but where
    the help says why; a list for a command that takes several seeds."""
    a.add_argument("--backend", default="auto", help=backend_help)
    a.add_argument("--out", help=out_help)
    if seed is not None:
        several = isinstance(seed_default, list)
        a.add_argument("--seed", type=int, nargs="+" if several else None, default=seed_default, help=seed)


class Renamed(argparse.Action):
    """An option's earlier spelling, kept for scripts and hidden from --help: it sets what the
    option of the new name sets (`const` for a flag, else the value) and says the new name on
    stderr, once a use."""

    def __init__(self, option_strings, dest, new, flag=False, const=None, type=None, **kw):
        super().__init__(option_strings, dest, nargs=0 if flag else None, const=const, type=type,
                         help=argparse.SUPPRESS, **kw)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"curnet: {option_string} is deprecated; use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)


class Retired(argparse.Action):
    """An earlier flag whose name now means something else on other commands: an error that
    says what to write instead (hidden from --help)."""

    def __init__(self, option_strings, dest, instead, **kw):
        super().__init__(option_strings, dest, nargs=0, help=argparse.SUPPRESS, **kw)
        self.instead = instead

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"{option_string} is no longer a flag here: {self.instead}")


def _column_spec(text: str):
    """A column given on the command line: a 0-based index if it is a number, else a name."""
    return int(text) if text.isdigit() else text


def add_input_options(a) -> None:
    """The file argument and read_graph's options, on a subcommand's parser."""
    a.add_argument("file", help=FILE_HELP)
    a.add_argument("--format", help="file format, if the extension does not say")
    a.add_argument("--undirected", action="store_true", help="treat edges as undirected")
    r = a.add_argument_group("reading the file (edge lists)")
    r.add_argument("--src", type=_column_spec, default=0, metavar="COL",
                   help="source column: 0-based index or header name (default 0)")
    r.add_argument("--dst", type=_column_spec, default=1, metavar="COL",
                   help="target column: 0-based index or header name (default 1)")
    w = r.add_mutually_exclusive_group()
    w.add_argument("--weight", type=_column_spec, metavar="COL",
                   help="weight column: index or name (default: a column named weight, distance, "
                        "length, cost ..., else a numeric third column, whatever its name)")
    w.add_argument("--unweighted", action="store_true", help="ignore any weights in the file")
    r.add_argument("--header", action=argparse.BooleanOptionalAction, default=None,
                   help="the first line is (--header) or is not (--no-header) a header; default: detected")
    r.add_argument("--delimiter", help="field separator (default: tab, else comma, else spaces)")
    r.add_argument("--comment", default="#", help="lines starting with this are skipped (default '#')")
    ids = r.add_mutually_exclusive_group()
    ids.add_argument("--ids-as-index", dest="ids", action="store_const", const="index", default="names",
                     help="numeric ids are 0-based vertex numbers (Matrix Market, DIMACS, METIS: "
                          "1-based), not names; vertices on the command line are then numbers too")
    ids.add_argument("--ids-as-names", dest="ids", action="store_const", const="names",
                     help="every id is a vertex name, e.g. Entrez ids 7157 (the default)")


def reader_options(args) -> dict:
    """read_graph's keyword arguments from the parsed options."""
    return {"format": args.format, "directed": False if args.undirected else None,
            "src": args.src, "dst": args.dst, "weights": False if args.unweighted else args.weight,
            "header": args.header, "delimiter": args.delimiter, "comment": args.comment,
            "ids": args.ids}


def read_input(args, **overrides):
    """The graph of `args.file`, read with the shared options, and any a subcommand fixes
    (`overrides`: pcsf reads an undirected network with costs); the time on stderr."""
    from ..io import WeightColumnNote, read_graph
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WeightColumnNote)
        g = read_graph(args.file, **{**reader_options(args), **overrides})
    for w in caught:       # the reader's notes, the weight column's in the command's words
        if issubclass(w.category, WeightColumnNote):
            print(f"column {cast(WeightColumnNote, w.message).column!r} read as the weights (the third column); "
                  f"--unweighted for hops, --weight COL for another column", file=sys.stderr)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    print(f"read {g} in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    return g


def graph_file(args):
    """The file each Dask worker reads itself (--shared-file), with the caller's options."""
    from ..distributed import GraphFile
    return GraphFile(args.file, **reader_options(args))
