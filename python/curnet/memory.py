"""Memory: how much the host has available, and refusing what cannot fit (in the host's memory
or a device's) before allocating it.
A leaf module (errors only), so that the graph, the drivers and the backends can all use it."""
from __future__ import annotations

import os

from .errors import OutputTooLargeError

# /proc/meminfo kept open: every public call checks its result's size (check_fits), and one
# pread costs a fraction of an open, a read and a close (6.6 against 24 us on the 2-core
# machine; more under the GPU host's gVisor, where each system call is dearer).
_meminfo_fd: int | None = None


def _meminfo() -> bytes:
    global _meminfo_fd
    if _meminfo_fd is None:
        _meminfo_fd = os.open("/proc/meminfo", os.O_RDONLY | os.O_CLOEXEC)
    return os.pread(_meminfo_fd, 1 << 14, 0)


def available_host_memory() -> int:
    """Bytes of host memory available now (MemAvailable), or a large number if unknown."""
    try:
        data = _meminfo()
        at = data.index(b"MemAvailable:")
        return int(data[at + len(b"MemAvailable:"):data.index(b"\n", at)].split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        return 1 << 62


def check_fits(nbytes: int, what: str,
               hint: str = "use fewer sources per call (or write results in pieces)", device=None) -> None:
    """Refuse, before allocating, something that cannot fit in host memory, or with `device`
    (a backend's device: `free_memory()`, `memory_name`) in that device's memory."""
    free = available_host_memory() if device is None else device.free_memory()
    where = "host memory" if device is None else device.memory_name
    if nbytes > free:
        raise OutputTooLargeError(
            f"{what} needs {nbytes / 2**30:.2f} GiB of {where}, but only {free / 2**30:.2f} GiB "
            f"is available: {hint}")
