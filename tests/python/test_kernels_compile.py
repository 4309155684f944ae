"""CI (no GPU needed): every CUDA source of the CUDA backend compiles with this machine's nvcc
for sm_90 with warnings as errors. Skipped only when nvcc is missing.

The backend compiles the same files at run time with NVRTC (CuPy's RawModule), with
kernels/common.cuh put in front of each: so they hold no #include (nvcc gets -include), and
their kernels are extern "C".
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess

import pytest

KERNELS = os.path.join(os.path.dirname(__file__), "..", "..", "python", "curnet", "backends", "kernels")
SOURCES = sorted(glob.glob(os.path.join(KERNELS, "*.cu")))
COMMON = os.path.join(KERNELS, "common.cuh")


def _nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    for path in ("/usr/local/cuda/bin/nvcc",):
        if os.path.exists(path):
            return path
    return None


NVCC = _nvcc()


def test_kernel_sources_exist():
    names = {os.path.basename(p) for p in SOURCES}
    assert {"bfs.cu", "sssp.cu", "scc.cu"} <= names


@pytest.mark.skipif(NVCC is None, reason="nvcc not found")
@pytest.mark.parametrize("source", SOURCES, ids=os.path.basename)
def test_compiles_sm90_warnings_as_errors(source, tmp_path):
    out = tmp_path / (os.path.basename(source) + ".cubin")
    cmd = [NVCC, "-arch=sm_90", "-cubin", "-Werror", "all-warnings", "-std=c++17", "-include", COMMON,
           "-o", str(out), source]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout}\n{res.stderr}"
    assert out.stat().st_size > 0


@pytest.mark.parametrize("source", SOURCES, ids=os.path.basename)
def test_self_contained(source):
    """NVRTC compiles these from a string (common.cuh in front): no local includes to resolve."""
    with open(source) as f:
        text = f.read()
    assert "#include" not in text
