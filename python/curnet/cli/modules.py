"""`curnet modules`: WGCNA's module detection (blockwiseModules) of an expression table, one
row a gene (gene, module, color, block) to TSV on stdout or --out FILE.tsv / FILE.parquet;
--eigengenes FILE.tsv adds the module eigengenes (one row a sample)."""
from __future__ import annotations

import sys
import time

import numpy as np

from .inputs import add_run_options


def add_parser(sub) -> None:
    a = sub.add_parser("modules", help="WGCNA's co-expression modules of an expression table (blockwiseModules)")
    a.add_argument("file", help="expression table: .tsv/.txt (tab), .csv, .parquet; .gz too. Genes are "
                   "rows (first column: gene names; first line: sample names) unless --genes-in columns")
    a.add_argument("--genes-in", choices=("rows", "columns"), default="rows",
                   help="where the genes are (default rows; columns: samples x genes, WGCNA's datExpr)")
    a.add_argument("--power", type=float, default=6, help="soft-thresholding power (default 6)")
    a.add_argument("--network-type", choices=("unsigned", "signed", "signed hybrid"), default="unsigned")
    a.add_argument("--tom-type", choices=("unsigned", "signed"), default="signed")
    a.add_argument("--cor-type", choices=("pearson", "bicor"), default="pearson")
    a.add_argument("--max-block-size", type=int, default=None,
                   help="the most genes a block holds (default: as many as the device's memory holds)")
    a.add_argument("--deep-split", type=int, choices=range(5), default=2)
    a.add_argument("--min-module-size", type=float, default=None, help="default min(20, genes / 2)")
    a.add_argument("--merge-cut-height", type=float, default=0.15)
    a.add_argument("--numeric-labels", action="store_true", help="modules numbered (0 unassigned), not coloured")
    a.add_argument("--eigengenes", help="also write the module eigengenes to this TSV file")
    add_run_options(a, out_help="write the modules to FILE.tsv or FILE.parquet (default: TSV on stdout)")


def run(args) -> None:
    from .coexpression import read_expression
    from ..io.outputs import check_path, to_table, write_table
    from ..coexpression import blockwise_modules
    for path in (args.out, args.eigengenes):
        if path:
            check_path(path)
    frame = read_expression(args.file)
    axis = 1 if args.genes_in == "columns" else 0
    t0 = time.perf_counter()
    r = blockwise_modules(frame, axis=axis, power=args.power, network_type=args.network_type,
                          tom_type=args.tom_type, cor_type=args.cor_type, max_block_size=args.max_block_size,
                          deep_split=args.deep_split, min_module_size=args.min_module_size,
                          merge_cut_height=args.merge_cut_height, numeric_labels=args.numeric_labels,
                          backend=args.backend)
    genes = frame.index if axis == 0 else frame.columns
    samples = frame.columns if axis == 0 else frame.index
    modules = len(set(r["colors"].tolist()) - {0, "grey"})
    print(f"modules: {modules} modules of {len(genes):,} genes in {len(r['dendrograms'])} block(s), "
          f"{time.perf_counter() - t0:.2f} s", file=sys.stderr)
    blocks = np.where(np.isnan(r["blocks"]), 0, r["blocks"]).astype(np.int64)
    write_table(to_table({"gene": np.asarray(genes).astype(str), "module": r["colors"],
                          "unmerged": r["unmergedColors"], "block": blocks}), args.out)
    if args.eigengenes:
        cols = {"sample": np.asarray(samples).astype(str)}
        cols.update({name: r["MEs"][:, i] for i, name in enumerate(r["ME_names"])})
        write_table(to_table(cols), args.eigengenes)
