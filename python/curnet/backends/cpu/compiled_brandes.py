"""Edge betweenness of one weak component in compiled code (Numba), for Girvan–Newman's removal
loop on the CPU: Brandes' method source by source (a BFS, or Dijkstra with a binary heap), the
removed edges dropped from one adjacency built once, the component's sources split over the
CPU's threads. A loop step costs the component's O(c m_c) and no NumPy call a level: in the
level-synchronous NumPy twins (cpu/brandes.py) a small component's step is mostly their fixed
costs. Optional: `available()` says whether Numba imports; without it the loop takes the twins.
Parallel arcs are distinct paths; self-loops are on none (the adjacency leaves them out).
Also a weighted batch's DAG for the sweeps, the twins of cpu/brandes.py's NumPy for large
batches (where its (arc, source) tests, Kahn's rounds and sorts were most of a weighted
batch's time): the DAG arcs (`dag_entry_pairs`), and the levels by Kahn's order with the arcs
grouped by level (`dag_levels`).
"""
from __future__ import annotations

import numpy as np

from .compiled import available, flood, heap_lower, heap_pop, jit, numba

__all__ = ["adjacency", "available", "column_sums", "component_scores", "dag_entry_pairs", "dag_levels", "drop",
           "reached", "source_rows"]


def adjacency(n: int, src, dst, both_ways: bool):
    """(ptr, end, neighbour, edge id) CSR of the arcs src -> dst (and dst -> src with
    `both_ways`), self-loops left out, each row's arcs in edge id order. Row v's live arcs are
    ptr[v]:end[v]; `drop` takes a removed edge's arcs out, keeping the others' order (so the
    searches sum in the same order as over the whole row with the removed arcs masked)."""
    keep = src != dst
    ids = np.flatnonzero(keep).astype(np.int64)
    tails, heads, edge = src[keep], dst[keep], ids
    if both_ways:
        tails, heads, edge = np.r_[tails, heads], np.r_[heads, tails], np.r_[ids, ids]
    order = np.lexsort((edge, tails))
    ptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(tails, minlength=n), out=ptr[1:])
    return ptr, ptr[1:].copy(), heads[order].astype(np.int64, copy=False), edge[order]


def drop(arcs, e: int, tail: int, head: int) -> None:
    """Edge e's arcs out of the rows of `tail` and `head` (where it has any), in place."""
    ptr, end, nbr, edge = arcs
    _drop_from_row(ptr, end, nbr, edge, tail, e)
    if head != tail:
        _drop_from_row(ptr, end, nbr, edge, head, e)


# A call's searches go over the CPU's threads only from this many arc scans (sources x the
# arcs each scans, about 0.1 s on one core): a parallel region costs its fork and join, and
# OpenMP's threads spin between regions, which on a busy machine costs more than a few ms of
# searches gains (STRING's 739-vertex ball, one region a removal, the 2-core machine shared:
# 15.5 s on 2 threads, 6.5 s on one).
PARALLEL_SCANS = 1 << 24


def component_scores(arcs, lengths, eps: float, sources, num_edges: int, scans: int):
    """Each edge's betweenness summed over the paths from every vertex of `sources` (float64,
    by edge id; ordered pairs, so undirected callers halve), over the live arcs. `lengths`
    None: hops; else positive lengths by edge id, distances equal within igraph's `eps`
    (brandes.on_path). `scans`: the arcs a search scans at most (its component's)."""
    threads = _threads(len(sources), scans)
    acc = np.zeros((threads, num_edges))
    _searches(arcs, lengths, eps, sources, acc, False, threads)
    return acc.sum(axis=0)


def source_rows(arcs, lengths, eps: float, sources, rows, scans: int) -> None:
    """As component_scores, each source's own sums kept apart: rows[s] (by edge id) is
    rewritten for every s in `sources`, the other rows left as they are."""
    _searches(arcs, lengths, eps, sources, rows, True, _threads(len(sources), scans))


def _threads(sources: int, scans: int) -> int:
    if sources * scans < PARALLEL_SCANS:
        return 1
    return max(1, min(numba.get_num_threads(), sources))


def _searches(arcs, lengths, eps, sources, out, per_source, threads) -> None:
    """Every source's search, breadth-first (lengths None) or Dijkstra's, into `out`: on this
    thread alone (one share of one), or each thread its share."""
    lengths = np.zeros(0) if lengths is None else np.asarray(lengths, np.float64)
    args = (*arcs, lengths, float(eps), sources, out, per_source)
    if threads == 1:
        search_share(*args, 0, 1)
    else:
        search_shares(*args, threads)


def column_sums(rows, sources, edges):
    """rows[sources][:, edges].sum(axis=0), the sources added in their order."""
    return _column_sums(rows, sources, edges)


def reached(arcs, start: int):
    """The vertices reached from `start` over the live arcs (bool by vertex)."""
    ptr, end, nbr, _ = arcs
    label = np.full(len(end), -1, np.int8)
    flood(ptr, end, nbr, start, label, 1, np.empty(len(end), np.int64))
    return label > 0


@jit()
def _drop_from_row(ptr, end, nbr, edge, v, e):
    j = ptr[v]
    while j < end[v] and edge[j] != e:
        j += 1
    if j == end[v]:
        return
    for k in range(j, end[v] - 1):
        edge[k] = edge[k + 1]
        nbr[k] = nbr[k + 1]
    end[v] -= 1


@jit()
def bfs_source(ptr, end, nbr, edge, s, dist, sigma, delta, order, seg, dag, acc):
    # the DAG's arcs are listed as the search finds them (by tail, in BFS order): the
    # dependencies walk them alone, tails in reverse
    dist[s] = 0
    sigma[s] = 1.0
    order[0] = s
    head, count, k = 0, 1, 0
    while head < count:
        v = order[head]
        seg[head] = k
        head += 1
        below = dist[v] + 1
        for a in range(ptr[v], end[v]):
            w = nbr[a]
            if dist[w] < 0:
                dist[w] = below
                order[count] = w
                count += 1
            if dist[w] == below:
                sigma[w] += sigma[v]
                dag[k] = a
                k += 1
    _dependencies(nbr, edge, order, count, seg, k, dag, sigma, delta, acc, dist, -1)


@jit()
def _dependencies(nbr, edge, order, count, seg, arcs, dag, sigma, delta, acc, dist, unreached):
    # the search's `count` vertices in `order`, the first `arcs` of `dag` its DAG's, order[i]'s
    # from seg[i] on: by decreasing distance, each DAG arc's share added into its edge and its
    # tail; then the search's vertices made unreached again for the next source
    seg[count] = arcs
    for i in range(count - 1, -1, -1):
        v = order[i]
        for j in range(seg[i], seg[i + 1]):
            a = dag[j]
            w = nbr[a]
            c = sigma[v] / sigma[w] * (1.0 + delta[w])
            acc[edge[a]] += c
            delta[v] += c
    for i in range(count):
        v = order[i]
        dist[v] = unreached
        sigma[v] = 0.0
        delta[v] = 0.0


@jit()
def search_share(ptr, end, nbr, edge, lengths, eps, sources, out, per_source, t, threads):
    """Thread t's share of the sources (every threads-th from the t-th), each one's search
    (breadth-first where `lengths` is empty, else Dijkstra's) and its sums added into out[t],
    or (per_source) written over out[s], its own row."""
    n = len(ptr) - 1
    bfs = len(lengths) == 0
    nb, nd = (n, 0) if bfs else (0, n)       # the scratch of the search run, n; the other's, 0
    hops = np.full(nb, -1, np.int64)
    dist = np.full(nd, np.inf)
    pos = np.full(nd, -1, np.int64)
    hk = np.empty(nd)
    hv = np.empty(nd, np.int64)
    sigma = np.zeros(n)
    delta = np.zeros(n)
    order = np.empty(n, np.int64)
    seg = np.empty(n + 1, np.int64)
    dag = np.empty(len(nbr), np.int64)
    for i in range(t, len(sources), threads):
        target = out[sources[i]] if per_source else out[t]
        if per_source:
            target[:] = 0.0
        if bfs:
            bfs_source(ptr, end, nbr, edge, sources[i], hops, sigma, delta, order, seg, dag, target)
        else:
            dijkstra_source(ptr, end, nbr, edge, lengths, eps, sources[i], dist, pos, sigma,
                            delta, order, hk, hv, seg, dag, target)


@jit(parallel=True)
def search_shares(ptr, end, nbr, edge, lengths, eps, sources, out, per_source, threads):
    for t in numba.prange(threads):
        search_share(ptr, end, nbr, edge, lengths, eps, sources, out, per_source, t, threads)


@jit()
def _column_sums(rows, sources, edges):
    out = np.zeros(len(edges))
    for s in sources:
        for j in range(len(edges)):
            out[j] += rows[s, edges[j]]
    return out


@jit()
def same_length(reach, d, eps):
    # igraph_cmp_epsilon(reach, d, eps) == 0, as brandes.on_path
    return reach == d or abs(reach - d) < eps * (abs(reach) + abs(d))


@jit()
def dijkstra_source(ptr, end, nbr, edge, lengths, eps, s, dist, pos, sigma, delta, order,
                    hk, hv, seg, dag, acc):
    # distances and the settling order first (each vertex in the heap once, its key lowered
    # in place), then the path counts over the DAG the final distances give (an arc is on it
    # where dist[v] + length equals dist[w] within eps)
    dist[s] = 0.0
    size = heap_lower(hk, hv, pos, 0, 0.0, s)
    count = 0
    while size > 0:
        d, v = hk[0], hv[0]
        size = heap_pop(hk, hv, pos, size)
        order[count] = v
        count += 1
        for a in range(ptr[v], end[v]):
            w = nbr[a]
            reach = d + lengths[edge[a]]
            if reach < dist[w]:            # never for a settled w: lengths are positive
                dist[w] = reach
                size = heap_lower(hk, hv, pos, size, reach, w)
    # path counts over the DAG's arcs, which are listed (by tail, in settling order) for the
    # dependencies, tails in reverse
    sigma[s] = 1.0
    k = 0
    for i in range(count):
        v = order[i]
        seg[i] = k
        for a in range(ptr[v], end[v]):
            w = nbr[a]
            if w != s and same_length(dist[v] + lengths[edge[a]], dist[w], eps):
                sigma[w] += sigma[v]
                dag[k] = a
                k += 1
    _dependencies(nbr, edge, order, count, seg, k, dag, sigma, delta, acc, dist, np.inf)


def dag_entry_pairs(ptr, idx, w, dist, eps: float):
    """cpu/brandes.py's `_dag_entry_pairs` for the distance block `dist` (n, kb; inf where not
    reached): the (tail entry, head entry) int64 pairs, entry v * kb + j, of the arcs on each
    source's weighted DAG (both ends reached, dist[t, j] + w == dist[h, j] within `eps`, in
    float64), in the same order (tails ascending, each one's arcs in CSR order, sources
    ascending). Two passes over the (arc, source) pairs: the count, then the pairs."""
    ptr, w = np.asarray(ptr, np.int64), np.asarray(w, np.float64)
    count = _dag_pairs(ptr, idx, w, dist, eps, np.zeros(0, np.int64), np.zeros(0, np.int64))
    tails, heads = np.empty(count, np.int64), np.empty(count, np.int64)
    _dag_pairs(ptr, idx, w, dist, eps, tails, heads)
    return tails, heads


@jit(nogil=True)
def _dag_pairs(ptr, idx, w, dist, eps, tails, heads):
    # counts the pairs when `tails` is empty (the first pass), else writes them
    n, kb = dist.shape
    write = len(tails) > 0
    k = 0
    for t in range(n):
        for a in range(ptr[t], ptr[t + 1]):
            h = idx[a]
            for j in range(kb):
                dt, dh = np.float64(dist[t, j]), np.float64(dist[h, j])
                if np.isinf(dt) or np.isinf(dh):
                    continue
                if same_length(dt + w[a], dh, eps):
                    if write:
                        tails[k] = t * kb + j
                        heads[k] = h * kb + j
                    k += 1
    return k


def dag_levels(level, tails, heads):
    """cpu/brandes.py's `dag_levels` from its DAG entry pairs: `level` (n, kb) int32, 0 where
    reached and -1 elsewhere, set in place to each entry's level (the most arcs on a shortest
    path from its source: Kahn's rounds); returns (rounds, or -1 where the pairs hold a cycle,
    and the pairs (tails, heads) grouped by the head's level then head and by the tail's
    level then tail, each with its level starts: DagArcs' fields; np.lexsort's order)."""
    flat = level.reshape(-1)
    rounds = _kahn_levels(flat, tails, heads)
    if rounds < 0:
        return rounds, None
    levels = max(rounds, 1)          # NumPy's cuts: level.max(initial=0) + 2 of them
    by_head, head_starts = _by_level(flat, tails, heads, heads, levels)
    by_tail, tail_starts = _by_level(flat, tails, heads, tails, levels)
    return rounds, (by_head, head_starts, by_tail, tail_starts)


@jit(nogil=True)
def _kahn_levels(flat, tails, heads):
    # an entry is placed at round `at` once all its DAG in-arcs' tails are placed
    size = len(flat)
    waiting = np.zeros(size, np.int64)
    out_count = np.zeros(size + 1, np.int64)
    for i in range(len(heads)):
        waiting[heads[i]] += 1
        out_count[tails[i] + 1] += 1
    for e in range(size):
        out_count[e + 1] += out_count[e]
    released = np.empty(len(heads), np.int64)       # each tail's heads, the pairs' order kept
    at_pos = out_count[:size].copy()
    for i in range(len(tails)):
        released[at_pos[tails[i]]] = heads[i]
        at_pos[tails[i]] += 1
    cur = np.empty(size, np.int64)
    nxt = np.empty(size, np.int64)
    count = 0
    for e in range(size):
        if flat[e] >= 0 and waiting[e] == 0:
            cur[count] = e
            count += 1
    at = 0
    while count > 0:
        found = 0
        for i in range(count):
            e = cur[i]
            flat[e] = at
            for p in range(out_count[e], out_count[e + 1]):
                h = released[p]
                waiting[h] -= 1
                if waiting[h] == 0:
                    nxt[found] = h
                    found += 1
        cur, nxt = nxt, cur
        count = found
        at += 1
    for e in range(size):
        if waiting[e] > 0:
            return -1
    return at


@jit(nogil=True)
def _by_level(flat, tails, heads, key, levels):
    # the pairs ordered by (flat[key], key), ties in their order: a stable counting sort by
    # key, then one by level (np.lexsort((key, flat[key])))
    size, m = len(flat), len(key)
    first = np.zeros(size + 1, np.int64)
    for i in range(m):
        first[key[i] + 1] += 1
    for e in range(size):
        first[e + 1] += first[e]
    by_key = np.empty(m, np.int64)
    for i in range(m):
        by_key[first[key[i]]] = i
        first[key[i]] += 1
    starts = np.zeros(levels + 1, np.int64)
    for i in range(m):
        starts[flat[key[i]] + 1] += 1
    for lv in range(levels):
        starts[lv + 1] += starts[lv]
    place = starts[:levels].copy()
    out_tails = np.empty(m, np.int64)
    out_heads = np.empty(m, np.int64)
    for i in by_key:
        lv = flat[key[i]]
        out_tails[place[lv]] = tails[i]
        out_heads[place[lv]] = heads[i]
        place[lv] += 1
    return (out_tails, out_heads), starts
