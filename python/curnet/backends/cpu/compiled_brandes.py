"""Edge betweenness of one weak component in compiled code (Numba), for Girvan–Newman's removal
loop on the CPU: Brandes' method source by source (a BFS, or Dijkstra with a binary heap), the
removed edges masked out of one adjacency built once, the component's sources split over the
CPU's threads. A loop step costs the component's O(c m_c) and no NumPy call a level: in the
level-synchronous NumPy twins (cpu/brandes.py) a small component's step is mostly their fixed
costs. Optional: `available()` says whether Numba imports; without it the loop takes the twins.
Parallel arcs are distinct paths; self-loops are on none (the adjacency leaves them out).
"""
from __future__ import annotations

import numpy as np

try:
    import numba
except ImportError:                   # the twins run instead: available() is False
    numba = None  # type: ignore[assignment]


def _jit(**options):
    """numba.njit, compiled at the first call and cached (beside this file, or in the user's
    cache folder where this one is read-only: Numba's own choice)."""
    if numba is None:
        return lambda f: f
    return numba.njit(cache=True, **options)


def available() -> bool:
    return numba is not None


def adjacency(n: int, src, dst, both_ways: bool):
    """(ptr, neighbour, edge id) CSR of the arcs src -> dst (and dst -> src with `both_ways`),
    self-loops left out, each row's arcs in edge id order."""
    keep = src != dst
    ids = np.flatnonzero(keep).astype(np.int64)
    tails, heads, edge = src[keep], dst[keep], ids
    if both_ways:
        tails, heads, edge = np.r_[tails, heads], np.r_[heads, tails], np.r_[ids, ids]
    order = np.lexsort((edge, tails))
    ptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(tails, minlength=n), out=ptr[1:])
    return ptr, heads[order].astype(np.int64), edge[order].astype(np.int64)


def component_scores(ptr, nbr, edge, lengths, eps: float, alive, sources, num_edges: int):
    """Each edge's betweenness summed over the paths from every vertex of `sources` (float64,
    by edge id; ordered pairs, so undirected callers halve), over the arcs whose edge is
    `alive`. `lengths` None: hops; else positive lengths by edge id, distances equal within
    igraph's `eps` (brandes.on_path)."""
    threads = max(1, min(numba.get_num_threads(), len(sources)))
    acc = np.zeros((threads, num_edges))
    _searches(ptr, nbr, edge, lengths, eps, alive, sources, acc, False, threads)
    return acc.sum(axis=0)


def source_rows(ptr, nbr, edge, lengths, eps: float, alive, sources, rows) -> None:
    """As component_scores, each source's own sums kept apart: rows[s] (by edge id) is
    rewritten for every s in `sources`, the other rows left as they are."""
    threads = max(1, min(numba.get_num_threads(), len(sources)))
    _searches(ptr, nbr, edge, lengths, eps, alive, sources, rows, True, threads)


def _searches(ptr, nbr, edge, lengths, eps, alive, sources, out, per_source, threads) -> None:
    """Every source's search, breadth-first (lengths None) or Dijkstra's, into `out`."""
    if lengths is None:
        bfs_into(ptr, nbr, edge, alive, sources, out, per_source, threads)
    else:
        dijkstra_into(ptr, nbr, edge, np.asarray(lengths, np.float64), eps, alive, sources, out,
                      per_source, threads)


def column_sums(rows, sources, edges):
    """rows[sources][:, edges].sum(axis=0), the sources added in their order."""
    return _column_sums(rows, sources, edges)


def reached(ptr, nbr, edge, alive, start: int, n: int):
    """The vertices reached from `start` over the alive arcs (bool by vertex)."""
    return reached_from(ptr, nbr, edge, alive, start, n)



@_jit()
def bfs_source(ptr, nbr, edge, alive, s, dist, sigma, delta, order, acc):
    dist[s] = 0
    sigma[s] = 1.0
    order[0] = s
    head, count = 0, 1
    while head < count:
        v = order[head]
        head += 1
        for a in range(ptr[v], ptr[v + 1]):
            if not alive[edge[a]]:
                continue
            w = nbr[a]
            if dist[w] < 0:
                dist[w] = dist[v] + 1
                order[count] = w
                count += 1
            if dist[w] == dist[v] + 1:
                sigma[w] += sigma[v]
    for i in range(count - 1, -1, -1):          # by decreasing distance: each DAG arc's share
        v = order[i]
        for a in range(ptr[v], ptr[v + 1]):
            e = edge[a]
            if alive[e] and dist[nbr[a]] == dist[v] + 1:
                w = nbr[a]
                c = sigma[v] / sigma[w] * (1.0 + delta[w])
                acc[e] += c
                delta[v] += c
    for i in range(count):
        v = order[i]
        dist[v] = -1
        sigma[v] = 0.0
        delta[v] = 0.0

@_jit(parallel=True)
def bfs_into(ptr, nbr, edge, alive, sources, out, per_source, threads):
    """Each source's sums added into out[t] of its thread t, or (per_source) written over
    out[s], its own row."""
    n = len(ptr) - 1
    for t in numba.prange(threads):
        dist = np.full(n, -1, np.int64)
        sigma = np.zeros(n)
        delta = np.zeros(n)
        order = np.empty(n, np.int64)
        for i in range(t, len(sources), threads):
            target = out[sources[i]] if per_source else out[t]
            if per_source:
                target[:] = 0.0
            bfs_source(ptr, nbr, edge, alive, sources[i], dist, sigma, delta, order, target)


@_jit(parallel=True)
def dijkstra_into(ptr, nbr, edge, lengths, eps, alive, sources, out, per_source, threads):
    """As bfs_into, by Dijkstra's search over positive lengths."""
    n = len(ptr) - 1
    for t in numba.prange(threads):
        dist = np.full(n, np.inf)
        done = np.zeros(n, np.bool_)
        sigma = np.zeros(n)
        delta = np.zeros(n)
        order = np.empty(n, np.int64)
        hk = np.empty(len(nbr) + 1)
        hv = np.empty(len(nbr) + 1, np.int64)
        seg = np.empty(n + 1, np.int64)
        for i in range(t, len(sources), threads):
            target = out[sources[i]] if per_source else out[t]
            if per_source:
                target[:] = 0.0
            dijkstra_source(ptr, nbr, edge, lengths, eps, alive, sources[i], dist, done, sigma,
                            delta, order, hk, hv, seg, target)


@_jit()
def _column_sums(rows, sources, edges):
    out = np.zeros(len(edges))
    for s in sources:
        for j in range(len(edges)):
            out[j] += rows[s, edges[j]]
    return out


@_jit()
def same_length(reach, d, eps):
    # igraph_cmp_epsilon(reach, d, eps) == 0, as brandes.on_path
    return reach == d or abs(reach - d) < eps * (abs(reach) + abs(d))

@_jit()
def heap_push(hk, hv, size, key, v):
    i = size
    hk[i] = key
    hv[i] = v
    while i > 0:
        p = (i - 1) // 2
        if hk[p] <= hk[i]:
            break
        hk[p], hk[i] = hk[i], hk[p]
        hv[p], hv[i] = hv[i], hv[p]
        i = p
    return size + 1

@_jit()
def heap_pop(hk, hv, size):
    size -= 1
    hk[0], hv[0] = hk[size], hv[size]
    i = 0
    while True:
        low, left, right = i, 2 * i + 1, 2 * i + 2
        if left < size and hk[left] < hk[low]:
            low = left
        if right < size and hk[right] < hk[low]:
            low = right
        if low == i:
            return size
        hk[low], hk[i] = hk[i], hk[low]
        hv[low], hv[i] = hv[i], hv[low]
        i = low

@_jit()
def dijkstra_source(ptr, nbr, edge, lengths, eps, alive, s, dist, done, sigma, delta, order,
                    hk, hv, seg, acc):
    # distances and the settling order first, then the path counts over the DAG the final
    # distances give (an arc is on it where dist[v] + length equals dist[w] within eps)
    dist[s] = 0.0
    size = heap_push(hk, hv, 0, 0.0, s)
    count = 0
    while size > 0:
        d, v = hk[0], hv[0]
        size = heap_pop(hk, hv, size)
        if done[v] or d > dist[v]:
            continue
        done[v] = True
        order[count] = v
        count += 1
        for a in range(ptr[v], ptr[v + 1]):
            e = edge[a]
            if not alive[e]:
                continue
            w = nbr[a]
            reach = d + lengths[e]
            if reach < dist[w]:
                dist[w] = reach
                size = heap_push(hk, hv, size, reach, w)
    # path counts over the DAG's arcs, which are listed (by tail, in settling order; the
    # heap's value array, free now, holds them) for the dependencies, tails in reverse
    sigma[s] = 1.0
    k = 0
    for i in range(count):
        v = order[i]
        seg[i] = k
        for a in range(ptr[v], ptr[v + 1]):
            e = edge[a]
            if alive[e]:
                w = nbr[a]
                if w != s and same_length(dist[v] + lengths[e], dist[w], eps):
                    sigma[w] += sigma[v]
                    hv[k] = a
                    k += 1
    seg[count] = k
    for i in range(count - 1, -1, -1):
        v = order[i]
        for j in range(seg[i], seg[i + 1]):
            a = hv[j]
            w = nbr[a]
            c = sigma[v] / sigma[w] * (1.0 + delta[w])
            acc[edge[a]] += c
            delta[v] += c
    for i in range(count):
        v = order[i]
        dist[v] = np.inf
        done[v] = False
        sigma[v] = 0.0
        delta[v] = 0.0

@_jit()
def reached_from(ptr, nbr, edge, alive, start, n):
    seen = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    seen[start] = True
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        v = stack[top]
        for a in range(ptr[v], ptr[v + 1]):
            w = nbr[a]
            if alive[edge[a]] and not seen[w]:
                seen[w] = True
                stack[top] = w
                top += 1
    return seen
