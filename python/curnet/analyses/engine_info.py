"""`curnet.info()`: which backend `auto` picks, the device, and the versions in use."""
from __future__ import annotations

import platform

import numpy as np


def info() -> dict:
    from .._version import __version__
    from ..backends import cuda_status, get_backend, kernel_cache
    import pyarrow
    import scipy
    d = {"curnet": __version__, "python": platform.python_version(), "numpy": np.__version__,
         "scipy": scipy.__version__, "pyarrow": pyarrow.__version__}
    problem = cuda_status()
    gpu = problem is None
    be = get_backend("cuda" if gpu else "cpu")
    d.update(be.info())
    d["auto_backend"] = be.name
    if not gpu:
        d["cuda"] = f"unavailable ({problem})"
    else:   # where compiled kernels are kept (filled by `curnet warm-up`)
        d["kernel_cache"] = f"{kernel_cache.cache_dir()} ({kernel_cache.cached_kernels()} kernels)"
    return d
