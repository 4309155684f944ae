"""`curnet coexpression`: a co-expression network from an expression table, written as an
edge table (source, target, r[, p]) to TSV on stdout or --out FILE.tsv / FILE.parquet."""
from __future__ import annotations

import sys
import time

import numpy as np

from .inputs import Renamed, add_run_options


def add_parser(sub) -> None:
    a = sub.add_parser("coexpression", help="gene co-expression network of an expression table")
    a.add_argument("file", help="expression table: .tsv/.txt (tab), .csv, .parquet; .gz too. Genes are "
                   "rows (first column: gene names; first line: sample names) unless --genes-in columns")
    a.add_argument("--method", choices=("pearson", "spearman", "bicor"), default="pearson")
    pick = a.add_mutually_exclusive_group(required=True)
    pick.add_argument("--threshold", type=float, help="keep pairs with |r| >= THRESHOLD")
    pick.add_argument("--top-k", type=int, help="keep each gene's K partners of largest |r|")
    a.add_argument("--signed", action="store_true", help="threshold/rank r itself, not |r|")
    a.add_argument("--pvalues", action="store_true", help="add Fisher-z p-values (column p)")
    a.add_argument("--genes-in", choices=("rows", "columns"), default=None,
                   help="where the genes are (default rows, Bioconductor's layout; columns: samples x "
                   "genes, WGCNA's datExpr). Left to its default, a table that looks transposed "
                   "(far more samples than genes, gene ids as sample names) is a warning")
    a.add_argument("--max-p-outliers", type=float, default=1.0, help="bicor's maxPOutliers (default 1)")
    a.add_argument("--dtype", choices=("float64", "float32"), default="float64",
                   help="the correlations' float width (default float64; float32 takes half the memory)")
    a.add_argument("--single", dest="dtype", action=Renamed, new="--dtype float32", flag=True, const="float32")
    add_run_options(a, out_help="write the edges to FILE.tsv or FILE.parquet (default: TSV on stdout)")


def read_expression(path: str):
    """(values, gene names) of an expression table whose first column holds the row labels."""
    import pandas as pd
    lower = path.lower().removesuffix(".gz")
    if lower.endswith(".parquet"):
        frame = pd.read_parquet(path)
        frame = frame.set_index(frame.columns[0])
    else:
        frame = pd.read_csv(path, sep="," if lower.endswith(".csv") else "\t", index_col=0)
    bad = [str(c) for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if bad:
        raise ValueError(f"{path}: column(s) {', '.join(bad[:5])} are not numeric (the first column must "
                         "hold the row labels, the others the values)")
    return frame


def run(args) -> None:
    from .. import coexpression as ce
    from ..io.outputs import check_path, to_table, write_table
    if args.out:
        check_path(args.out)
    t0 = time.perf_counter()
    frame = read_expression(args.file)
    axis = 1 if args.genes_in == "columns" else 0
    print(f"read {frame.shape[0]:,} x {frame.shape[1]:,} values in {time.perf_counter() - t0:.2f} s",
          file=sys.stderr)
    if args.genes_in is None:
        why = ce.looks_transposed(frame.shape[0], frame.shape[1], frame.index, frame.columns)
        if why:
            print(f"curnet coexpression: warning: {args.file} looks transposed: {why}. Genes are read as "
                  "rows (--genes-in rows); give --genes-in columns for samples x genes (WGCNA's "
                  "layout), or --genes-in rows to keep this reading", file=sys.stderr)
    t0 = time.perf_counter()
    e = ce.coexpression_edges(frame, args.method, threshold=args.threshold, top_k=args.top_k,
                              signed=args.signed, pvalues=args.pvalues, axis=axis,
                              max_p_outliers=args.max_p_outliers, backend=args.backend,
                              dtype=np.dtype(args.dtype))
    print(f"coexpression: {len(e['r']):,} edges in {time.perf_counter() - t0:.3f} s", file=sys.stderr)
    names = e["names"]
    cols = {"source": names[e["source"]], "target": names[e["target"]], "r": e["r"]}
    if args.pvalues:
        cols["p"] = e["p"]
    write_table(to_table(cols), args.out)
