"""The benchmarks' one timing helper: warm-up calls, then timed calls, a device drained
around each (`sync`), and the times summarised the same way everywhere."""
from __future__ import annotations

import gc
import time
from typing import Any, Callable

import numpy as np


class Times(list):
    """Seconds of each timed call, in order (a list: JSON and NumPy take it as one)."""

    @property
    def median(self) -> float:
        return float(np.median(self))

    @property
    def best(self) -> float:
        return float(min(self))

    @property
    def worst(self) -> float:
        return float(max(self))

    def stats(self) -> tuple[float, float, float]:
        """(median, min, max) in seconds."""
        return self.median, self.best, self.worst

    def ms(self) -> tuple[float, float, float]:
        """(median, min, max) in milliseconds."""
        return self.median * 1e3, self.best * 1e3, self.worst * 1e3

    def summary(self) -> dict:
        return summary(self)


def summary(times) -> dict:
    """The result files' fields of a list of seconds (R's JSON unboxes a single run: a number)."""
    t = np.atleast_1d(np.asarray(times, np.float64))
    return {"times": [float(x) for x in t], "median_s": float(np.median(t)), "min_s": float(t.min()),
            "max_s": float(t.max()), "runs": int(len(t))}


def cuda_sync() -> None:
    """Wait for the current GPU's queued work (CuPy imported only when asked)."""
    import cupy
    cupy.cuda.Device().synchronize()


def sync_for(backend: str) -> Callable[[], None] | None:
    """The `sync` a backend's calls need: the GPU's on "cuda..." backends, none on the CPU."""
    return cuda_sync if str(backend).startswith("cuda") else None


def drain(backend: str) -> None:
    """Wait for a backend's queued work (a GPU's), nothing on the CPU."""
    wait = sync_for(backend)
    if wait is not None:
        wait()


def timed(fn: Callable[[], Any], repeat: int = 1, warm: int = 0, sync: Callable[[], None] | None = None,
          keep: bool = True, collect: bool = False) -> tuple[Any, Times]:
    """Call fn `warm` times untimed, then `repeat` times timed; returns (the last call's result,
    Times). `sync` runs before each clock read (a GPU's calls return before their work ends);
    `keep=False` drops each result before the next call (large results: one alive at a time,
    the last one returned); `collect` runs the garbage collector before each timed call."""
    out = None
    for _ in range(warm):
        out = fn()
        if not keep:
            out = None
    if sync is not None:
        sync()
    times = Times()
    for _ in range(repeat):
        if not keep:
            out = None
        if collect:
            gc.collect()
        t = time.perf_counter()
        out = fn()
        if sync is not None:
            sync()
        times.append(time.perf_counter() - t)
    return out, times


def once(fn: Callable[[], Any], sync: Callable[[], None] | None = None) -> tuple[Any, float]:
    """One call, timed (slow work that runs once): (its result, seconds)."""
    out, t = timed(fn, sync=sync)
    return out, t.median


def first_and_best(fn: Callable[[], Any], repeat: int = 1,
                   sync: Callable[[], None] | None = None) -> tuple[Any, float, float]:
    """The first call timed apart (a kernel compiles, a device copy is made), then the best of
    `repeat` warm calls: (the last result, first seconds, best seconds)."""
    _, first = once(fn, sync=sync)
    out, warm = timed(fn, repeat=max(1, repeat), sync=sync)
    return out, first, warm.best
