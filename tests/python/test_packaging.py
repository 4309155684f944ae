"""The engine as it ships: a wheel, and the sources inside the R package, at one version."""
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def r_package_version() -> str:
    return re.search(r"^Version:\s*(\S+)", (ROOT / "DESCRIPTION").read_text(), re.M).group(1)


def test_the_wheel_and_the_r_package_agree_on_the_version(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(ROOT / name, src)
    shutil.copytree(ROOT / "python", src / "python", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("curnet-*.whl")
    assert wheel.name.split("-")[1] == r_package_version()
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert f"Version: {r_package_version()}" in meta
    assert {"curnet/cli/__init__.py", "curnet/analyses/measures.py"} <= names   # the layers' packages ship
    assert any(n.endswith(".cu") for n in names)   # the kernels ship
    # curnet demo builds the dataset cache with pandas: a minimal install must have it
    assert re.search(r"^Requires-Dist: pandas", meta, re.M)
    # pyproject.toml's metadata reached the wheel; PyPI gets a short description, not the README
    assert "Name: curnet" in meta and "License: GPL-3.0-or-later" in meta
    assert "curnet = curnet.cli:main" in z_entry_points(wheel)
    description = meta.split("\n\n", 1)[1]
    assert description.strip() == (ROOT / "python" / "PYPI.md").read_text().strip()
    assert len(description) < 4000


def z_entry_points(wheel) -> str:
    with zipfile.ZipFile(wheel) as z:
        return z.read(next(n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt"))).decode()


def test_one_version_and_one_licence():
    # DESCRIPTION's Version is the version; _version.py holds a copy (`make version`), and
    # pyproject.toml reads it from there
    version_py = (ROOT / "python" / "curnet" / "_version.py").read_text()
    assert re.search(r'^__version__ = "([^"]+)"', version_py, re.M).group(1) == r_package_version()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = {attr = "curnet._version.__version__"}' in pyproject
    assert "version=" not in (ROOT / "setup.py").read_text()
    description = (ROOT / "DESCRIPTION").read_text()
    assert re.search(r"^License: GPL \(>= 3\)$", description, re.M)
    assert "GNU GENERAL PUBLIC LICENSE" in (ROOT / "LICENSE").read_text()[:200]
    assert "Version 3" in (ROOT / "LICENSE").read_text()[:200]


def test_the_r_package_ships_these_very_engine_sources():
    # inst/python holds links to setup.py and python/; R CMD build and R CMD INSTALL copy
    # what they point to, so cuRnet_install() installs the engine of the same checkout
    shipped = ROOT / "inst" / "python"
    assert os.path.samefile(shipped / "setup.py", ROOT / "setup.py")
    assert os.path.samefile(shipped / "pyproject.toml", ROOT / "pyproject.toml")   # the metadata
    assert os.path.samefile(shipped / "python" / "curnet" / "__init__.py", ROOT / "python" / "curnet" / "__init__.py")
    import curnet
    assert curnet.__version__ == r_package_version()
