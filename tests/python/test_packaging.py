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
    shutil.copy(ROOT / "setup.py", src)
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
    assert "curnet/cli.py" in names and any(n.endswith(".cu") for n in names)   # the kernels ship
    # curnet demo builds the dataset cache with pandas: a minimal install must have it
    assert re.search(r"^Requires-Dist: pandas", meta, re.M)


def test_the_r_package_ships_these_very_engine_sources():
    # inst/python holds links to setup.py and python/; R CMD build and R CMD INSTALL copy
    # what they point to, so cuRnet_install() installs the engine of the same checkout
    shipped = ROOT / "inst" / "python"
    assert os.path.samefile(shipped / "setup.py", ROOT / "setup.py")
    assert os.path.samefile(shipped / "python" / "curnet" / "__init__.py", ROOT / "python" / "curnet" / "__init__.py")
    import curnet
    assert curnet.__version__ == r_package_version()
