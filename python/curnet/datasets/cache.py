"""The cache folder: where each network's derived files lie, whether they are complete, and writing them."""
from __future__ import annotations

import gzip
import logging
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from .catalogue import DatasetError, _PACKAGES, info

log = logging.getLogger("curnet")


_FORMAT = 1  # bump when the derived files change shape


def data_dir() -> Path:
    """The cache folder: ``$CURNET_DATA`` if set, else ``~/.cache/curnet``."""
    env = os.environ.get("CURNET_DATA")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "curnet"


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


def _downloads() -> Path:
    d = data_dir() / "downloads"
    d.mkdir(parents=True, exist_ok=True)
    return d


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
