"""What the CPU's compiled routines (Numba: compiled_bfs, compiled_brandes, compiled_scc,
compiled_leiden, compiled_sssp, compiled_propagation) share: the decorator and whether Numba imports
(curnet/jit.py, here for them to import beside the rest), the depth-first flood that both
Girvan–Newman's split test and Leiden's connected pieces run, and the binary heap of Dijkstra's
searches (weighted Girvan–Newman's and the shortest paths').

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


@jit()
def heap_lower(hk, hv, pos, size, key, v):
    """Vertex v's key lowered to `key` in the binary heap (hk, hv; pos[v] its place, -1 out of
    it), v pushed if it is out; the heap's new size."""
    i = pos[v]
    if i < 0:
        i = size
        size += 1
    while i > 0:                       # sift up: the larger parents move down
        p = (i - 1) // 2
        if hk[p] <= key:
            break
        _heap_set(hk, hv, pos, i, hk[p], hv[p])
        i = p
    _heap_set(hk, hv, pos, i, key, v)
    return size


@jit()
def heap_pop(hk, hv, pos, size):
    """The heap's root taken out; its new size."""
    pos[hv[0]] = -1
    size -= 1
    if size == 0:
        return 0
    key, v = hk[size], hv[size]
    i = 0
    while True:                        # sift down: the smaller child moves up while below key
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and hk[c + 1] < hk[c]:
            c += 1
        if hk[c] >= key:
            break
        _heap_set(hk, hv, pos, i, hk[c], hv[c])
        i = c
    _heap_set(hk, hv, pos, i, key, v)
    return size


# a place's entry written: inlined (Numba's inline="always"), as the heap's steps are most of
# Dijkstra's time
@jit(inline="always")
def _heap_set(hk, hv, pos, i, key, v):
    hk[i], hv[i], pos[v] = key, v, i
