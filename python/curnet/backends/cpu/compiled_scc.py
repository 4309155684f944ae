"""Strong components on the CPU's threads in compiled code (Numba): trim the vertices that are
components of their own, peel large components by forward-backward reachability from a
high-degree pivot (two level-synchronous searches over the threads, each level top-down from
the frontier, or bottom-up over the unseen vertices once the frontier is a twentieth of them),
and label what is left with one serial Tarjan search. SciPy's Pearce (cpu/scc.py) is serial
throughout; here only the remainder is. Optional: `available()` says whether Numba imports.

Every step removes whole components from the `alive` set, so the pivot's component inside
the alive vertices is its component in the graph. Self-loops never make a vertex survive the
trim; parallel arcs are read as they are.
"""
from __future__ import annotations

import numpy as np

from .compiled import available, jit, numba

__all__ = ["available", "scc_labels"]

# Peel with another pivot until PEEL_MISSES pivots in a row found components smaller than
# this share of the alive vertices; then Tarjan labels the rest (few large ones are left, or
# the degrees do not point to them).
PEEL_SHARE = 0.1
PEEL_MISSES = 3
# Go bottom-up when the frontier holds more than this share of the unseen alive vertices
# (Beamer's direction switch, counted in vertices).
BOTTOM_UP_SHARE = 0.05
# The trim's passes go on over the threads while a pass removes at least this share of the
# vertices, the rest on one thread (R-MAT 20: one pass takes 601,598 vertices, the next 469).
TRIM_WAVE = 1 / 256
# A frontier smaller than this is pushed on one thread.
SERIAL_FRONTIER = 256
# A pivot's search that goes deeper than this many levels stops, and Tarjan's search labels
# what is left: a deep search visits a few vertices a level, serial work that Tarjan does in
# one linear pass without the trims and misses around the peels. A chain of 3 M 2-cycles beside
# a ring (9.2 M arcs, 2 cores): 1,253 ms with the searches run to their end, 314 ms with this
# limit (SciPy's Pearce 82 ms, networkit 264 ms); R-MAT 20 (5 levels a search) unchanged, 82-91
# ms. bench/results/cpu_scc_levels_2026-12-03.md.
PEEL_MAX_LEVELS = 1024


def scc_labels(out_ptr, out_idx, in_ptr, in_src) -> np.ndarray:
    """(n,) int32 labels, each component labelled with one of its vertices' ids."""
    n = len(out_ptr) - 1
    labels = np.arange(n, dtype=np.int32)
    alive = np.ones(n, np.bool_)
    threads = max(1, numba.get_num_threads())
    misses = 0
    while True:
        left = _trim(out_ptr, out_idx, in_ptr, in_src, alive)
        if left == 0:
            return labels
        pivot = _pivot(out_ptr, in_ptr, alive, threads)
        # the component is what reaches the pivot among what it reaches: the backward search
        # stays inside the forward one's vertices (a path inside a component stays in it)
        forward, whole = _reach(out_ptr, out_idx, in_ptr, in_src, alive, left, pivot, threads,
                                PEEL_MAX_LEVELS)
        if whole:
            reached = forward >= 0
            backward, whole = _reach(in_ptr, in_src, out_ptr, out_idx, reached,
                                     np.count_nonzero(reached), pivot, threads, PEEL_MAX_LEVELS)
        if not whole:                       # deep: Tarjan's linear pass instead
            _tarjan(out_ptr, out_idx, alive, labels)
            return labels
        size = _peel(backward, alive, labels, pivot)
        misses = misses + 1 if size < PEEL_SHARE * left else 0
        if misses == PEEL_MISSES:
            _tarjan(out_ptr, out_idx, alive, labels)
            return labels


@jit(parallel=True)
def _trim(out_ptr, out_idx, in_ptr, in_src, alive):
    """Removes from `alive`, until none is left, the vertices with no in-arc or no out-arc to
    another alive vertex; returns how many are left alive. Passes over the threads while a
    pass removes many (a pass after the first looks only at the neighbours of the vertices
    the pass before removed), then one thread's worklist (`_trim_rest`): a chain numbered
    against its arcs loses one vertex a pass.

    Passes write `alive` as they read it: a removed vertex is a component of its own, so it
    lies on no cycle of another vertex, whichever pass or thread sees it first."""
    n = len(alive)
    check = alive.copy()
    mark = np.zeros(n, np.bool_)
    while True:
        removed = 0
        for v in numba.prange(n):
            if check[v] and alive[v] and _trimmed(out_ptr, out_idx, in_ptr, in_src, alive, v):
                alive[v] = False
                removed += 1
                for a in range(out_ptr[v], out_ptr[v + 1]):
                    mark[out_idx[a]] = True
                for a in range(in_ptr[v], in_ptr[v + 1]):
                    mark[in_src[a]] = True
        if removed == 0:
            break
        check, mark = mark, check
        mark[:] = False
        if removed < TRIM_WAVE * n:
            _trim_rest(out_ptr, out_idx, in_ptr, in_src, alive, check)
            break
    left = 0
    for v in range(n):            # one thread: a parallel region less (each costs a wake-up)
        if alive[v]:
            left += 1
    return left


@jit()
def _trim_rest(out_ptr, out_idx, in_ptr, in_src, alive, check):
    """The trim to its end on one thread: a stack of the vertices to look at (those flagged
    in `check` first), each removal stacking its alive neighbours again."""
    n = len(alive)
    stacked = check.copy()
    stack = np.empty(n, np.int32)
    size = 0
    for v in range(n):
        if stacked[v]:
            stack[size] = v
            size += 1
    while size > 0:
        size -= 1
        v = stack[size]
        stacked[v] = False
        if not alive[v] or not _trimmed(out_ptr, out_idx, in_ptr, in_src, alive, v):
            continue
        alive[v] = False
        size = _stack_alive(out_ptr, out_idx, alive, v, stacked, stack, size)
        size = _stack_alive(in_ptr, in_src, alive, v, stacked, stack, size)


@jit()
def _stack_alive(ptr, nbr, alive, v, stacked, stack, size):
    """v's alive neighbours along ptr/nbr not yet on the stack, pushed; the new size."""
    for a in range(ptr[v], ptr[v + 1]):
        w = nbr[a]
        if alive[w] and not stacked[w]:
            stacked[w] = True
            stack[size] = w
            size += 1
    return size


@jit()
def _trimmed(out_ptr, out_idx, in_ptr, in_src, alive, v):
    """Whether v has no out-arc or no in-arc to another alive vertex."""
    return not (_has_alive(out_ptr, out_idx, alive, v) and _has_alive(in_ptr, in_src, alive, v))


@jit(parallel=True)
def _pivot(out_ptr, in_ptr, alive, threads):
    """The alive vertex with the largest in-degree x out-degree (the first of equals): the
    likeliest member of a large component."""
    n = len(alive)
    chunk = (n + threads - 1) // threads
    best = np.full(threads, -1, np.int64)
    at = np.zeros(threads, np.int64)
    for t in numba.prange(threads):
        top, where = np.int64(-1), 0          # locals: the threads' slots share a cache line
        for v in range(t * chunk, min(n, (t + 1) * chunk)):
            if alive[v]:
                d = np.int64(in_ptr[v + 1] - in_ptr[v]) * np.int64(out_ptr[v + 1] - out_ptr[v])
                if d > top:
                    top, where = d, v
        best[t] = top
        at[t] = where
    return at[np.argmax(best)]


@jit()
def _has_alive(ptr, nbr, alive, v):
    for a in range(ptr[v], ptr[v + 1]):
        w = nbr[a]
        if w != v and alive[w]:
            return True
    return False


@jit(parallel=True)
def _reach(ptr, nbr, rptr, rnbr, alive, left, pivot, threads, max_levels):
    """((n,) int32, whole): each alive vertex's level from `pivot` along the arcs ptr/nbr
    inside `alive` (`left` of them), -1 where it is not reached; `whole` False where the search
    stopped with a frontier left after `max_levels` levels (then the levels are those reached
    so far). rptr/rnbr are the same arcs reversed (bottom-up)."""
    n = len(alive)
    level = np.full(n, -1, np.int32)
    level[pivot] = 0
    spare = np.empty(n + SERIAL_FRONTIER, np.int32)    # the serial pushes' frontier
    spare[0] = pivot
    frontier = spare
    in_spare = True
    size = 1
    unseen = left - 1
    depth = 0
    while size > 0:
        if depth == max_levels:
            return level, False
        if size > BOTTOM_UP_SHARE * unseen:
            # every unseen alive vertex looks for a parent on the frontier: each writes its own
            size = 0
            for v in numba.prange(n):
                if alive[v] and level[v] < 0:
                    for a in range(rptr[v], rptr[v + 1]):
                        if level[rnbr[a]] == depth:
                            level[v] = depth + 1
                            size += 1
                            break
            if size > 0 and size <= BOTTOM_UP_SHARE * (unseen - size):
                frontier = _gather(level, depth + 1, threads)
                in_spare = False
        elif size < SERIAL_FRONTIER:
            if not in_spare:
                spare[:size] = frontier[:size]
                frontier = spare
                in_spare = True
            size = _push_serial(ptr, nbr, alive, level, depth, spare, size)
        else:
            frontier = _push(ptr, nbr, alive, level, depth, frontier[:size], threads)
            in_spare = False
            size = len(frontier)
        unseen -= size
        depth += 1
    return level, True


@jit(parallel=True)
def _push(ptr, nbr, alive, level, depth, frontier, threads):
    """One top-down level: the frontier's unseen alive heads get depth + 1; returns them (the
    next frontier). Each thread takes a slice of the
    frontier and writes what it claims into its own stretch of a buffer the size of its arcs;
    two threads may claim one vertex at once (no compare-and-swap here), which only repeats
    it in the next frontier."""
    size = len(frontier)
    chunk = (size + threads - 1) // threads
    room = np.zeros(threads + 1, np.int64)
    for t in numba.prange(threads):
        room[t + 1] = _arcs_of(ptr, frontier, t * chunk, min(size, (t + 1) * chunk))
    room = np.cumsum(room)
    claimed = np.empty(room[threads], np.int32)
    found = np.zeros(threads + 1, np.int64)
    for t in numba.prange(threads):
        at = _claim(ptr, nbr, alive, level, depth, frontier, t * chunk, min(size, (t + 1) * chunk),
                    claimed, room[t])
        found[t + 1] = at - room[t]
    found = np.cumsum(found)
    out = np.empty(found[threads], np.int32)
    for t in numba.prange(threads):
        out[found[t]:found[t + 1]] = claimed[room[t]:room[t] + found[t + 1] - found[t]]
    return out


@jit()
def _push_serial(ptr, nbr, alive, level, depth, frontier, size):
    """_push on one thread, in place: the new frontier is written behind the old one, then
    moved to the front (`frontier` has room: the vertices in it are distinct but for the
    repeats of a parallel push, fewer than SERIAL_FRONTIER). A frontier this small is not
    worth the threads' start-up: a long cycle takes one level a vertex."""
    found = _claim(ptr, nbr, alive, level, depth, frontier, 0, size, frontier, size)
    frontier[:found - size] = frontier[size:found]
    return found - size


@jit(inline="always")      # inside the threads' loop: no call a frontier slice
def _claim(ptr, nbr, alive, level, depth, frontier, first, last, out, at):
    """The unseen alive heads of frontier[first:last] get depth + 1 and are written to out
    from `at` on, in the order found; returns where the writing stopped."""
    for i in range(first, last):
        v = frontier[i]
        for a in range(ptr[v], ptr[v + 1]):
            w = nbr[a]
            if alive[w] and level[w] < 0:
                level[w] = depth + 1
                out[at] = w
                at += 1
    return at


@jit(inline="always")
def _arcs_of(ptr, frontier, first, last):
    """How many arcs leave the vertices frontier[first:last]."""
    arcs = 0
    for i in range(first, last):
        arcs += ptr[frontier[i] + 1] - ptr[frontier[i]]
    return arcs


@jit(parallel=True)
def _gather(level, depth, threads):
    """The vertices at `depth`, in id order (room for a later serial push behind them): each
    thread lists those of its slice of the ids at the slice's start, then the lists are moved
    together, in thread order (on one thread: a gather follows a bottom-up level that found
    few, a twentieth of the unseen vertices at most)."""
    n = len(level)
    chunk = (n + threads - 1) // threads
    frontier = np.empty(n, np.int32)
    found = np.zeros(threads, np.int64)
    for t in numba.prange(threads):
        at = t * chunk
        for v in range(t * chunk, min(n, (t + 1) * chunk)):
            if level[v] == depth:
                frontier[at] = v
                at += 1
        found[t] = at - t * chunk
    size = found[0]
    for t in range(1, threads):
        # to the left: nothing still to move is written over
        for i in range(t * chunk, t * chunk + found[t]):
            frontier[size] = frontier[i]
            size += 1
    return frontier


@jit(parallel=True)
def _peel(level, alive, labels, pivot):
    """The pivot's component (the vertices `level` reaches) labelled `pivot` and removed; its
    size."""
    size = 0
    for v in numba.prange(len(alive)):
        if level[v] >= 0:
            labels[v] = pivot
            alive[v] = False
            size += 1
    return size


@jit()
def _tarjan(ptr, nbr, alive, labels):
    """Tarjan's search over the alive vertices (arcs to others skipped), iterative: each
    component labelled with its root's id; the alive flags are left as they are."""
    n = len(alive)
    index = np.full(n, -1, np.int64)
    low = np.zeros(n, np.int64)
    on_stack = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int32)
    calls = np.empty(n, np.int32)       # the search path
    next_arc = np.empty(n, np.int64)    # where each vertex on the path resumes its arcs
    counter = 0
    top = 0
    for s in range(n):
        if not alive[s] or index[s] >= 0:
            continue
        depth = 0
        counter, top = _enter(ptr, s, depth, calls, index, low, next_arc, stack, on_stack, counter, top)
        while depth >= 0:
            v = calls[depth]
            descended = False
            while next_arc[v] < ptr[v + 1]:
                w = nbr[next_arc[v]]
                next_arc[v] += 1
                if not alive[w]:
                    continue
                if index[w] < 0:
                    depth += 1
                    counter, top = _enter(ptr, w, depth, calls, index, low, next_arc, stack, on_stack, counter, top)
                    descended = True
                    break
                if on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
            if descended:
                continue
            if low[v] == index[v]:             # v roots a component: pop it
                while True:
                    top -= 1
                    w = stack[top]
                    on_stack[w] = False
                    labels[w] = v
                    if w == v:
                        break
            depth -= 1
            if depth >= 0:
                u = calls[depth]
                if low[v] < low[u]:
                    low[u] = low[v]


@jit(inline="always")
def _enter(ptr, v, depth, calls, index, low, next_arc, stack, on_stack, counter, top):
    """Tarjan's search enters v at `depth` of the path: v numbered `counter`, its arcs read
    from the first, pushed on the stack; (counter, top) after."""
    calls[depth] = v
    index[v] = low[v] = counter
    next_arc[v] = ptr[v]
    stack[top] = v
    on_stack[v] = True
    return counter + 1, top + 1
