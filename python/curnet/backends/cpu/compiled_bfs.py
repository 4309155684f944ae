"""The many-source BFS's pull level in compiled code (Numba), the NumPy pull's twin
(cpu/bfs.py `or_into`): for each head v of a vertex range, the OR of its active tails'
frontier words, less its seen words. The NumPy pull gathers every active arc's whole frontier
row and reduces them; here a head's arcs are walked in turn and the walk stops once the head's
seen words and the bits gathered cover every source (a hub's words fill after a few of its
in-arcs), as the GPU's `bits_expand` does. Called on the batch's threads, one vertex range
each (it releases the GIL). Optional: `available()` says whether Numba imports.
"""
from __future__ import annotations

import numpy as np

from .compiled import available, jit

__all__ = ["available", "pull_range"]

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)        # a word every source of which is seen


@jit(nogil=True)
def pull_range(in_ptr, in_src, frontier, seen, active, new, v0, v1) -> None:
    """new[v] = (OR of frontier[u] over the arcs u -> v with active[u]) & ~seen[v] for v0 <= v
    < v1; rows whose seen words are all full are left as they are (zero)."""
    words = seen.shape[1]
    gathered = np.empty(words, np.uint64)
    for v in range(v0, v1):
        a0, a1 = in_ptr[v], in_ptr[v + 1]
        if a0 == a1:
            continue
        open_words = False
        for j in range(words):
            gathered[j] = seen[v, j]
            open_words |= gathered[j] != FULL
        if not open_words:
            continue
        for a in range(a0, a1):
            u = in_src[a]
            if not active[u]:
                continue
            covered = True
            for j in range(words):
                gathered[j] |= frontier[u, j]
                covered &= gathered[j] == FULL
            if covered:
                break
        for j in range(words):
            new[v, j] = gathered[j] & ~seen[v, j]
