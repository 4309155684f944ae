"""Memory: how much the host has available, and refusing what cannot fit (in the host's memory
or a device's) before allocating it.
A leaf module (errors only), so that the graph, the drivers and the backends can all use it."""
from __future__ import annotations

from .errors import OutputTooLargeError


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
               hint: str = "use fewer sources per call (or write results in pieces)", device=None) -> None:
    """Refuse, before allocating, something that cannot fit in host memory, or with `device`
    (a backend's device: `free_memory()`, `memory_name`) in that device's memory."""
    free = available_host_memory() if device is None else device.free_memory()
    where = "host memory" if device is None else device.memory_name
    if nbytes > free:
        raise OutputTooLargeError(
            f"{what} needs {nbytes / 2**30:.2f} GiB of {where}, but only {free / 2**30:.2f} GiB "
            f"is available: {hint}")
