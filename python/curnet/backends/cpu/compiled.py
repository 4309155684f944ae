"""What the CPU's compiled routines (Numba: compiled_brandes, compiled_scc, compiled_leiden)
share: the decorator and whether Numba imports (curnet/jit.py, here for them to import beside
the rest), and the depth-first flood that both Girvan–Newman's split test and Leiden's
connected pieces run.

Numba caches a compiled function by its own file: a caller in another file keeps its cached
copy of `flood` until that file changes too (or its cache is cleared).
"""
from __future__ import annotations

from ...jit import available, jit, numba  # noqa: F401  (the compiled modules import them from here)


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
