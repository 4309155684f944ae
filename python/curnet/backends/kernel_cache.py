"""Where compiled GPU kernels are kept: one folder cuRnet owns, filled once by `curnet warm-up`
(or `cuRnet_install(gpu = TRUE)`) so that no user call compiles (docs/first-call.md).

Every kernel cuRnet runs goes through CuPy's compiler cache: its own modules
(kernels/*.cu, `RawModule`) and the elementwise and reduction kernels CuPy generates for the
array code of the drivers. That cache lives in `CUPY_CACHE_DIR`, read at each compile, so
pointing it here before the first compile is enough. The folder, first found wins:

1. `CURNET_KERNEL_CACHE`, when set;
2. `CUPY_CACHE_DIR`, when the user set it (it is left alone);
3. `<environment>/share/curnet/kernel-cache` (`sys.prefix`: the virtual environment or image
   the engine is installed in), when it can be written, so a container or a cluster's
   environment built with `curnet warm-up` carries its kernels;
4. `$XDG_CACHE_HOME/curnet/kernel-cache` (`~/.cache/...`).

CuPy-free: it only sets an environment variable, so the CPU suite tests it.
"""
from __future__ import annotations

import os
import sys

ENV = "CURNET_KERNEL_CACHE"


def _writable(folder: str) -> bool:
    """True if `folder` exists and can be written, or can be made."""
    probe = folder
    while not os.path.exists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            return False
        probe = parent
    return os.path.isdir(probe) and os.access(probe, os.W_OK | os.X_OK)


def environment_folder() -> str:
    return os.path.join(sys.prefix, "share", "curnet", "kernel-cache")


def user_folder() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "curnet", "kernel-cache")


def cache_dir() -> str:
    """The folder compiled kernels are read from and written to (the rule above)."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    if os.environ.get("CUPY_CACHE_DIR"):
        return os.environ["CUPY_CACHE_DIR"]
    folder = environment_folder()
    return folder if _writable(folder) else user_folder()


def use() -> str:
    """Point CuPy's compiler cache at cache_dir(); call before CuPy compiles anything (the
    backends do, before importing CuPy). Returns the folder.

    CuPy 14.2 reads CUPY_CACHE_DIR once, when its compiler module is imported (seen on an
    H200: a folder set after `import cupy` received nothing), so where CuPy is loaded already
    its disk cache is pointed at the folder through its own setter."""
    folder = cache_dir()
    os.environ["CUPY_CACHE_DIR"] = folder
    compiler = sys.modules.get("cupy.cuda.compiler")
    setter = getattr(compiler, "_set_kernel_cache_backend", None)
    disk = getattr(compiler, "_DiskKernelCacheBackend", None)
    if setter is not None and disk is not None:
        setter(disk(folder))
    return folder


def cached_kernels(folder: str | None = None) -> int:
    """How many compiled kernels the folder holds (CuPy writes one file a compile)."""
    folder = folder or cache_dir()
    if not os.path.isdir(folder):
        return 0
    return sum(1 for name in os.listdir(folder) if name.endswith(".cubin"))
