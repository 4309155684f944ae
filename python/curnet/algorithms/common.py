"""What the many-source drivers share: result buffers, batching, host-memory checks."""
from __future__ import annotations

import numpy as np

from ..errors import OutputTooLargeError


def available_host_memory() -> int:
    """Bytes of host memory available now (MemAvailable), or a large number if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 1 << 62


def check_fits(nbytes: int, what: str,
               hint: str = "use fewer sources per call (or write results in pieces)") -> None:
    """Refuse, before allocating, something that cannot fit in host memory."""
    free = available_host_memory()
    if nbytes > free:
        raise OutputTooLargeError(
            f"{what} needs {nbytes / 2**30:.2f} GiB of host memory, but only {free / 2**30:.2f} GiB "
            f"is available: {hint}")


def result_buffer(out, shape: tuple, dtype, what: str) -> np.ndarray:
    """The caller's `out` (checked) or a new array. New arrays are Fortran-ordered: each
    vertex's sources are adjacent, the layout the traversals write and R's matrix layout."""
    if out is None:
        check_fits(int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize, what)
        return np.empty(shape, dtype=dtype, order="F")
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a NumPy array, got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"out has shape {out.shape}, but {what} is {shape}")
    if not (out.flags.c_contiguous or out.flags.f_contiguous) or not out.flags.writeable:
        raise ValueError("out must be a writable, contiguous array")
    return out


def batches_of(sources: np.ndarray, size: int) -> list:
    """(first row, ids) pieces of `sources`, `size` at a time."""
    return [(i, sources[i:i + size]) for i in range(0, len(sources), size)]
