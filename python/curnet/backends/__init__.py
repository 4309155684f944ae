"""Backends: the primitives the algorithm drivers call, one implementation per device.

`get_backend` returns a `contract.Backend`, whose `members` are `contract.Device`s: each
exposes the primitives of `contract.Device` (`cpu.CPUBackend`'s NumPy code is the reference
for each of them) over its own array module `xp` (NumPy or CuPy). The drivers in
`curnet.algorithms` are written once against this interface, so the CPU run in CI exercises
the very driver code the GPU runs. The CUDA backend (the `cuda` package)
is imported only when a GPU is asked for.
"""
from __future__ import annotations

import logging
import os
import threading

from ..errors import BackendUnavailableError
from . import kernel_cache
from .contract import Backend

log = logging.getLogger("curnet")

BACKENDS = ("auto", "cpu", "cuda")
_instances: dict[str, Backend] = {}
_auto_on_cpu_said = threading.Event()      # the log line of 'auto' falling back, once a process
_cuda_problem: str | None = None
# What 'auto' names, found once a process (for each CURNET_DISABLE_CUDA value): asking CuPy
# again costs ~0.2 ms a call, more than a small graph's whole traversal (NetworkX's calls).
_auto_names: dict[str | None, str] = {}


def cuda_status() -> str | None:
    """None when the CUDA backend is usable, else why not (CuPy missing, no device, ...)."""
    return None if cuda_available() else _cuda_problem


def cuda_available() -> bool:
    """True when CuPy imports and sees at least one CUDA device."""
    global _cuda_problem
    if os.environ.get("CURNET_DISABLE_CUDA"):
        _cuda_problem = "disabled by CURNET_DISABLE_CUDA"
        return False
    kernel_cache.use()     # before CuPy compiles anything: kernels come from cuRnet's cache
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # ImportError, or a CUDA driver/runtime error
        _cuda_problem = f"{type(e).__name__}: {e}".strip()
        return False
    if count < 1:
        _cuda_problem = "CuPy sees no CUDA device"
        return False
    return True


def auto_backend_name() -> str:
    """The backend 'auto' runs on: "cuda" when a GPU is usable, else "cpu" (the one place it
    is resolved and kept)."""
    key = os.environ.get("CURNET_DISABLE_CUDA")
    if key not in _auto_names:
        _auto_names[key] = "cuda" if cuda_available() else "cpu"
    return _auto_names[key]


def auto_reason() -> str:
    """Why backend 'auto' runs where it runs (what cuRnet_info() and curnet.info() report)."""
    if cuda_available():
        import cupy
        return (f"a usable GPU was found (CuPy {cupy.__version__}, "
                f"{cupy.cuda.runtime.getDeviceCount()} device(s)), so 'auto' runs on CUDA")
    return f"no usable GPU ({_cuda_problem}), so 'auto' runs on the CPU"


def parse_devices(name: str) -> list[int] | None:
    """The GPU ids a backend name asks for: None for "cuda" (the current GPU), else the ids of
    "cuda:N", "cuda:N,M,..." or "cuda:all"."""
    if name == "cuda":
        return None
    import cupy
    count = cupy.cuda.runtime.getDeviceCount()
    spec = name.split(":", 1)[1]
    if spec == "all":
        return list(range(count))
    try:
        ids = [int(x) for x in spec.split(",")]
    except ValueError:
        raise ValueError(f"backend {name!r}: write 'cuda:0', 'cuda:0,1' or 'cuda:all'") from None
    bad = [d for d in ids if not 0 <= d < count]
    if bad or len(set(ids)) != len(ids):
        raise ValueError(f"backend {name!r}: this machine has {count} GPU(s), numbered 0 to {count - 1}, "
                         "each named once")
    return ids


def get_backend(name: str = "auto") -> Backend:
    """The backend object for "cpu", "cuda" or "auto" (CUDA when a GPU is usable, else CPU).
    "cuda:N" picks GPU N; "cuda:0,1" or "cuda:all" split many-source jobs over several GPUs."""
    if not isinstance(name, str) or not (name in BACKENDS or name.startswith("cuda:")):
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))} "
                         f"(or 'cuda:N', 'cuda:0,1', 'cuda:all'), got {name!r}")
    if name == "auto":
        name = auto_backend_name()
        if name == "cpu" and not _auto_on_cpu_said.is_set():
            _auto_on_cpu_said.set()
            log.info("curnet: backend 'auto' runs on the CPU (no usable GPU: %s)", _cuda_problem)
    if name not in _instances:
        if name.startswith("cuda"):
            if not cuda_available():
                raise BackendUnavailableError(
                    f"backend={name!r} was asked for, but no usable GPU was found ({_cuda_problem}). "
                    "Install CuPy for your CUDA version (pip install cupy-cuda12x, or cupy-cuda13x for CUDA 13; "
                    "from R: cuRnet::cuRnet_install(gpu = TRUE)) or use backend='cpu'.")
            from .cuda import CUDABackend, MultiCUDABackend
            devices = parse_devices(name)
            if devices is None:
                _instances[name] = CUDABackend()
            elif len(devices) == 1:
                _instances[name] = CUDABackend(devices[0])
            else:
                _instances[name] = MultiCUDABackend(devices)
        else:
            from .cpu import CPUBackend
            _instances[name] = CPUBackend()
        if log.isEnabledFor(logging.INFO):    # describe() imports the backend's libraries (SciPy)
            log.info("curnet: using the %s backend", _instances[name].describe())
    return _instances[name]
