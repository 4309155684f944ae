"""What the CPU's compiled routines (Numba: compiled_brandes, compiled_scc, compiled_leiden)
share: the decorator, whether Numba imports, and the depth-first flood that both Girvan–Newman's
split test and Leiden's connected pieces run. Optional: without Numba the decorator leaves a
function as it is and `available()` is False (the callers take their NumPy twins).

Numba caches a compiled function by its own file: a caller in another file keeps its cached
copy of `flood` until that file changes too (or its cache is cleared).
"""
from __future__ import annotations

try:
    import numba
except ImportError:                   # the twins run instead: available() is False
    numba = None  # type: ignore[assignment]


def jit(**options):
    """numba.njit, compiled at the first call and cached (beside the calling file, or in the
    user's cache folder where that one is read-only: Numba's own choice)."""
    if numba is None:
        return lambda f: f
    return numba.njit(cache=True, **options)


def available() -> bool:
    return numba is not None


@jit()
def flood(ptr, end, nbr, start, label, value, stack) -> None:
    """label[v] = value for `start` and every v it reaches over the arcs ptr[u]:end[u] through
    vertices still unlabelled (label < 0). `stack`: room for every vertex once."""
    label[start] = value
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        v = stack[top]
        for w in nbr[ptr[v]:end[v]]:
            if label[w] < 0:
                label[w] = value
                stack[top] = w
                top += 1
