"""Numba's compiler for cuRnet's compiled CPU code (the counting sort that builds large graphs,
compiled_sort.py, and the CPU backend's backends/cpu/compiled*.py): the decorator and whether
Numba imports. Optional: without Numba the decorator leaves a function as it is and
`available()` is False (the callers take their NumPy twins)."""
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
