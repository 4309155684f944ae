"""A level's local moving and refinement for Leiden and Louvain in compiled code (Numba): the
rules of `CpuMoves.numpy_local_moving` and `numpy_refine_moves` (backends/cpu/leiden.py, the
NumPy twins, themselves the twins of kernels/leiden.cu's move_loop and refine_loop), written
as loops. A bucket costs its movers' arcs and one
pass over the vertices, with no NumPy call: in the NumPy twin a bucket is a few dozen
whole-array operations, which is most of a small level's time. The same labels as the twin
on integer weights (each community's weight summed over a vertex's arcs in their order, the
gain rounded in the same steps). Also the level's other passes, each one loop over the arcs
instead of a few NumPy passes: the sums a level starts from (`community_sums`), the next
level's graph (`aggregate`) and the communities' connected pieces (`pieces`). Optional:
`available()` says whether Numba imports.
"""
from __future__ import annotations

import numpy as np

from ..partitions import GOLDEN, MIX1, MIX2
from .compiled import available, flood, jit, numba

__all__ = ["aggregate", "available", "community_sums", "local_moving", "numba", "pieces", "refine_moves"]

_GOLDEN, _MIX1, _MIX2 = np.uint64(GOLDEN), np.uint64(MIX1), np.uint64(MIX2)


@jit()
def _uniform(seed, u, c):
    """partitions.uniform for one (seed, u, c): all in uint64, wrapping as the device does."""
    x = seed + np.uint64(u) * _GOLDEN + np.uint64(c) * _MIX1
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    x = x ^ (x >> np.uint64(31))
    return (np.float64(x >> np.uint64(11)) + 0.5) * 2.0 ** -53


@jit()
def _weights_by_community(ptr, idx, w, labels, u, stamp, seen, kuc, comms, k):
    """Vertex u's arc weights summed by its neighbours' labels into kuc (entries stamped
    `stamp` in seen are this visit's), the labels new to the visit listed in comms from
    comms[k] on: the list's new length."""
    for j in range(ptr[u], ptr[u + 1]):
        c = labels[idx[j]]
        if seen[c] != stamp:
            seen[c] = stamp
            kuc[c] = 0.0
            comms[k] = c
            k += 1
        kuc[c] += w[j]
    return k


@jit()
def _by_community_scratch(n):
    """_weights_by_community's arrays for n communities: (kuc, the vertex at hand's weight to
    each; seen, the visit (stamp) that last wrote kuc[c], none yet; comms, the communities
    around that vertex)."""
    return np.zeros(n, np.float64), np.zeros(n, np.int64), np.empty(n, np.int64)


@jit()
def _inside_change(ptr, idx, w, part, target, moving, u, inside):
    """`inside` plus the change of the weight inside communities that mover u's arcs make (an
    arc to a vertex that stays stands for its reverse too), its arcs added in their order."""
    ou, nu = part[u], target[u]
    for j in range(ptr[u], ptr[u + 1]):
        v = idx[j]
        nv = target[v] if moving[v] else part[v]
        delta = np.float64(nu == nv) - np.float64(ou == part[v])
        inside += w[j] * delta * (1.0 if moving[v] else 2.0)
    return inside


@jit()
def _local_moving(ptr, idx, w, part, total, count, vsize, gamma, quality, tolerance, seed,
                  max_rounds, buckets, round_gain, smallest_share):
    n = len(part)
    look = np.ones(n, np.bool_)
    next_look = np.zeros(n, np.bool_)
    target = part.copy()
    moving = np.zeros(n, np.bool_)
    kuc, seen, comms = _by_community_scratch(n)
    stamp = 0
    dtot = np.zeros(n, np.float64)
    dcount = np.zeros(n, np.int64)
    touched = np.empty(n, np.int64)
    mark = np.zeros(n, np.bool_)
    movers = np.empty(n, np.int64)
    share = 1.0
    rounds = 0
    done = 0
    kept = 0
    bucket = np.empty(n, np.int64)           # each vertex's bucket this round, `buckets`: none
    for r in range(max_rounds):
        rseed = seed + np.uint64(r + 1) * _MIX2          # partitions.round_seed
        next_look[:] = False
        for u in range(n):
            looked_at = look[u] and ptr[u + 1] > ptr[u]
            bucket[u] = np.int64(_uniform(rseed, u, u) * buckets) if looked_at else buckets
        first, order = _counting_sort(bucket, buckets + 1)      # the vertices bucket by bucket
        moved = False
        round_start = quality
        for b in range(buckets):
            done += 1
            # every vertex of the bucket takes its best move, against the labels as they are
            m = 0
            for i in range(first[b], first[b + 1]):
                u = order[i]
                a = part[u]
                if share < 1.0 and not _uniform(rseed + np.uint64(1), u, u) < share:
                    continue
                stamp += 1
                k = _weights_by_community(ptr, idx, w, part, u, stamp, seen, kuc, comms, 0)
                kua = kuc[a] if seen[a] == stamp else 0.0
                su = vsize[u]
                best = -np.inf
                best_c = n
                for i in range(k):
                    c = comms[i]
                    if c == a:
                        continue
                    gain = (kuc[c] - kua) - (gamma * su) * ((total[c] - total[a]) + su)
                    if gain > best or (gain == best and c < best_c):
                        best = gain
                        best_c = c
                if best > 0.0 and not (count[a] == 1 and count[best_c] == 1 and best_c > a):
                    target[u] = best_c
                    moving[u] = True
                    movers[m] = u
                    m += 1
            if m == 0:
                continue
            # the bucket's change of the quality: inside weight from the movers' arcs, penalty
            # from the totals
            inside = 0.0
            t_n = 0
            for i in range(m):
                u = movers[i]
                ou, nu = part[u], target[u]
                inside = _inside_change(ptr, idx, w, part, target, moving, u, inside)
                dtot[nu] += vsize[u]
                dcount[nu] += 1
                dtot[ou] -= vsize[u]
                dcount[ou] -= 1
                for c in (nu, ou):
                    if not mark[c]:
                        mark[c] = True
                        touched[t_n] = c
                        t_n += 1
            penalty = 0.0
            for i in range(t_n):
                c = touched[i]
                if dtot[c] != 0.0:
                    now = total[c] + dtot[c]
                    penalty += now * now - total[c] * total[c]
            new_quality = quality + (inside - gamma * penalty)
            keep = new_quality > quality + tolerance
            for i in range(t_n):
                c = touched[i]
                if keep:
                    if dtot[c] != 0.0:
                        total[c] = total[c] + dtot[c]
                    count[c] += dcount[c]
                dtot[c] = 0.0
                dcount[c] = 0
                mark[c] = False
            if not keep:
                share *= 0.5                    # the moves undid each other: fewer at once
                for i in range(m):
                    moving[movers[i]] = False
                continue
            for i in range(m):
                u = movers[i]
                part[u] = target[u]
                moving[u] = False
                next_look[u] = True
                for j in range(ptr[u], ptr[u + 1]):
                    next_look[idx[j]] = True
            quality = new_quality
            moved = True
            kept += 1
        rounds += 1
        if not moved and (share == 1.0 or share < smallest_share):
            break
        if moved and quality - round_start < round_gain * abs(round_start):
            break
        if moved:
            look, next_look = next_look, look
    return rounds, done, kept


def local_moving(lg, part, vsize, total, count, gamma: float, quality: float, tolerance: float, seed: int,
                 max_rounds: int, buckets: int, round_gain: float, smallest_share: float):
    """CpuMoves.local_moving's (labels, totals, [rounds, buckets, buckets kept]), compiled."""
    part = np.array(part, dtype=np.int64)
    total = np.array(total, dtype=np.float64)
    stats = _local_moving(np.asarray(lg.ptr, np.int64), np.asarray(lg.idx, np.int32),
                          np.asarray(lg.w, np.float64), part, total,
                          np.array(count, dtype=np.int64), np.asarray(vsize, np.float64), float(gamma),
                          float(quality), float(tolerance), np.uint64(seed % 2**64), int(max_rounds),
                          int(buckets), float(round_gain), float(smallest_share))
    return part.astype(np.int32), total, np.array(stats, np.int64)


# Bounds of _gumbel's noise: its uniforms are 2^-54 at least and, below 1.0 (which the largest
# counter rounds to: infinite noise), 1 - 2^-52 at most, so the noise lies in
# [-log(37.43), -log(2.2e-16)] = [-3.62, 36.04]; the bounds are wider than that.
GUMBEL_LOW, GUMBEL_HIGH = -4.0, 38.0


@jit()
def _gumbel(seed, u, c):
    return -np.log(-np.log(_uniform(seed, u, c)))


@jit()
def _refine(ptr, idx, w, part, vsize, rest, alone, total, cut, gamma, beta, seed, max_rounds, sub):
    # ptr, idx, w: only the arcs inside communities (_inside_arcs)
    n = len(part)
    target = np.empty(n, np.int64)
    joined = np.zeros(n, np.bool_)
    moving = np.zeros(n, np.bool_)
    ok = np.zeros(n, np.bool_)
    kuc, seen, comms = _by_community_scratch(n)
    scaled = np.empty(n, np.float64)        # gain / beta of each of those communities
    movers = np.empty(n, np.int64)
    stamp = 0
    rounds = 0
    for r in range(max_rounds):
        rounds += 1
        rseed = seed + np.uint64(r + 1) * _MIX2          # partitions.round_seed
        for c in range(n):
            ok[c] = cut[c] >= gamma * total[c] * (rest[c] - total[c])
            joined[c] = False
        # each vertex still alone draws its move among its community's sub-communities
        for u in range(n):
            a = sub[u]
            target[u] = a
            if not alone[u]:
                continue
            stamp += 1
            k = _weights_by_community(ptr, idx, w, sub, u, stamp, seen, kuc, comms, 0)
            if k == 0:
                continue
            kua = kuc[a] if seen[a] == stamp else 0.0
            su = vsize[u]
            # the noise's two logs only for the moves that can win: a score is gain / beta plus
            # noise within [GUMBEL_LOW, GUMBEL_HIGH] (but for a uniform of 1.0), so a move whose
            # highest score is below the best gain's lowest loses whatever its noise (rounding
            # is monotone: the same pick as scoring every move)
            top = -np.inf
            for i in range(k):
                c = comms[i]
                scaled[i] = -np.inf
                if c == a or not ok[c]:
                    continue
                gain = (kuc[c] - kua) - (gamma * su) * ((total[c] - total[a]) + su)
                if gain < 0.0:
                    continue
                scaled[i] = gain / beta
                top = max(top, scaled[i])
            floor = top + GUMBEL_LOW
            best = -np.inf
            best_c = n
            for i in range(k):
                if scaled[i] == -np.inf:
                    continue
                c = comms[i]
                x = _uniform(rseed, u, c)
                if x < 1.0 and scaled[i] + GUMBEL_HIGH < floor:
                    continue
                score = scaled[i] + -np.log(-np.log(x))          # _gumbel(rseed, u, c)
                if score > best or (score == best and c < best_c):
                    best = score
                    best_c = c
            if best_c < n and best > _gumbel(rseed, u, a):
                target[u] = best_c
        for u in range(n):
            joined[target[u]] = True
        m = 0
        for u in range(n):
            moving[u] = target[u] != sub[u] and not joined[u]     # a vertex being joined stays
            if moving[u]:
                movers[m] = u
                m += 1
        if m == 0:
            break
        # the cuts and totals the moves change
        for i in range(m):
            u = movers[i]
            _cut_change(ptr, idx, w, sub, target, moving, u, cut)
            total[target[u]] += vsize[u]
            total[sub[u]] -= vsize[u]
        for i in range(m):
            u = movers[i]
            sub[u] = target[u]
            alone[u] = False
            alone[target[u]] = False                   # joined: no longer alone
    return rounds


@jit()
def _cut_change(ptr, idx, w, sub, target, moving, u, cut):
    """Mover u's arcs (inside communities) into the cuts of the sub-communities: u -> v counts
    in u's sub-community's cut, v -> u in v's (here when v stays)."""
    ou, nu = sub[u], target[u]
    for j in range(ptr[u], ptr[u + 1]):
        v = idx[j]
        nv = target[v] if moving[v] else sub[v]
        was_cut, is_cut = ou != sub[v], nu != nv
        if is_cut:
            cut[nu] += w[j]
        if was_cut:
            cut[ou] -= w[j]
        if not moving[v] and is_cut != was_cut:
            cut[nv] += w[j] if is_cut else -w[j]


@jit()
def _inside_arcs(ptr, idx, w, part):
    """The CSR of the arcs inside communities `part`, each row's in their order."""
    n = len(part)
    in_ptr = np.zeros(n + 1, np.int64)
    in_idx = np.empty(len(idx), np.int32)
    in_w = np.empty(len(idx), np.float64)
    m = 0
    for u in range(n):
        for j in range(ptr[u], ptr[u + 1]):
            if part[idx[j]] == part[u]:
                in_idx[m] = idx[j]
                in_w[m] = w[j]
                m += 1
        in_ptr[u + 1] = m
    return in_ptr, in_idx[:m], in_w[:m]


def refine_moves(lg, part, vsize, rest, alone, total, cut, gamma: float, beta: float, seed: int,
                 max_rounds: int):
    """CpuMoves.refine_moves's (sub-community labels, [rounds]), compiled: the rounds read only
    the arcs inside communities (gathered once; a round reads each of them)."""
    sub = np.arange(lg.n, dtype=np.int64)
    part = np.asarray(part, np.int64)
    ptr, idx, w = _inside_arcs(np.asarray(lg.ptr, np.int64), np.asarray(lg.idx, np.int32),
                               np.asarray(lg.w, np.float64), part)
    rounds = _refine(ptr, idx, w, part, np.asarray(vsize, np.float64), np.asarray(rest, np.float64),
                     np.array(alone, dtype=np.bool_), np.array(total, dtype=np.float64),
                     np.array(cut, dtype=np.float64), float(gamma), float(beta), np.uint64(seed % 2**64),
                     int(max_rounds), sub)
    return sub.astype(np.int32), np.array([rounds], np.int64)


@jit()
def _aggregate(ptr, idx, w, labels, k, inner_v, strength_v, size_v):
    first, members = _counting_sort(labels, k)   # each community's members, in vertex order
    own = np.zeros(k, np.float64)                 # the members' own inner weights
    inside = np.zeros(k, np.float64)              # the arcs between members
    strength = np.zeros(k, np.float64)
    size = np.zeros(k, np.float64)
    acc = np.zeros(k, np.float64)
    seen = np.full(k, -1, np.int64)
    cols = np.empty(k, np.int64)
    out_ptr = np.zeros(k + 1, np.int64)
    out_idx = np.empty(len(idx), np.int32)
    out_w = np.empty(len(idx), np.float64)
    m = 0
    for c in range(k):
        nc = 0
        for i in range(first[c], first[c + 1]):
            u = members[i]
            own[c] += inner_v[u]
            strength[c] += strength_v[u]
            size[c] += size_v[u]
            nc = _weights_by_community(ptr, idx, w, labels, u, c, seen, acc, cols, nc)
        for i in range(nc):
            d = cols[i]
            if d == c:                            # the arcs between members
                inside[c] = acc[c]
                continue
            out_idx[m] = d
            out_w[m] = acc[d]
            m += 1
        out_ptr[c + 1] = m
    # each row's columns in order, not by a sort of each row: a transpose by counting lists
    # each row's columns in order (a row's entries come out in the order of the rows they are
    # read from), which on a symmetric level (an arc's reverse is an arc: every level of an
    # undirected graph) are the row's own columns; the weights are then read from the row
    out_idx, out_w = out_idx[:m], out_w[:m]
    t_ptr, t_idx, t_w = _transpose(out_ptr, out_idx, out_w, k)
    sorted_idx = np.empty(m, np.int32)
    sorted_w = np.empty(m, np.float64)
    symmetric = True
    for c in range(k):
        if t_ptr[c + 1] - t_ptr[c] != out_ptr[c + 1] - out_ptr[c]:
            symmetric = False
            break
        for e in range(out_ptr[c], out_ptr[c + 1]):
            seen[out_idx[e]] = k + c                  # k + c: not a stamp of the first pass
            acc[out_idx[e]] = out_w[e]
        for e in range(t_ptr[c], t_ptr[c + 1]):
            d = t_idx[e]
            if seen[d] != k + c:
                symmetric = False
                break
            sorted_idx[out_ptr[c] + e - t_ptr[c]] = d
            sorted_w[out_ptr[c] + e - t_ptr[c]] = acc[d]
        if not symmetric:
            break
    if not symmetric:                               # a second transpose orders every row
        out_ptr, sorted_idx, sorted_w = _transpose(t_ptr, t_idx, t_w, k)
    return out_ptr, sorted_idx, sorted_w, own + inside, strength, size


@jit()
def _transpose(ptr, idx, w, k):
    """The k x k CSR matrix's transpose, each of its rows in increasing column order."""
    rows = np.empty(len(idx), np.int32)
    for r in range(k):
        rows[ptr[r]:ptr[r + 1]] = r
    out_ptr, order = _counting_sort(idx, k)       # the entries by column, each column's by row
    return out_ptr, rows[order], w[order]


@jit()
def _counting_sort(keys, k):
    """(first, order): the positions of `keys` (each 0..k-1) sorted by key, stably; key c's
    positions are order[first[c]:first[c + 1]]."""
    first = np.zeros(k + 1, np.int64)
    for i in range(len(keys)):
        first[keys[i] + 1] += 1
    for c in range(k):
        first[c + 1] += first[c]
    at = first[:k].copy()
    order = np.empty(len(keys), np.int64)
    for i in range(len(keys)):
        order[at[keys[i]]] = i
        at[keys[i]] += 1
    return first, order


def aggregate(lg, labels, k: int):
    """partitions.aggregate's graph of the communities `labels` (0..k-1), compiled: the same
    arrays (each sum taken in the same order: the members' arcs in vertex order), without the
    sort of every arc's community pair."""
    from ..partitions import LevelGraph
    ptr, idx, w, inner, strength, size = _aggregate(
        np.asarray(lg.ptr, np.int64), np.asarray(lg.idx, np.int32), np.asarray(lg.w, np.float64),
        np.asarray(labels, np.int64), int(k), np.asarray(lg.inner, np.float64),
        np.asarray(lg.strength, np.float64), np.asarray(lg.size, np.float64))
    src = np.repeat(np.arange(k, dtype=np.int32), np.diff(ptr))
    return LevelGraph(int(k), ptr, src, idx, w, inner, strength, size)


@jit()
def _community_sums(ptr, idx, w, labels, inner_v, vsize, k):
    n = len(labels)
    own = np.zeros(k, np.float64)
    arcs = np.zeros(k, np.float64)
    total = np.zeros(k, np.float64)
    count = np.zeros(k, np.float64)
    k_within = np.zeros(n, np.float64)
    for u in range(n):
        c = labels[u]
        own[c] += inner_v[u]
        total[c] += vsize[u]
        count[c] += 1.0
    for u in range(n):
        c = labels[u]
        for j in range(ptr[u], ptr[u + 1]):
            if labels[idx[j]] == c:
                arcs[c] += w[j]
                k_within[u] += w[j]
    return own + arcs, total, count, k_within


def community_sums(lg, labels, vsize, k: int):
    """partitions.community_sums in one pass over the arcs: the same arrays, bit for bit (each
    sum in the same order: the vertices', then the arcs', in order)."""
    return _community_sums(np.asarray(lg.ptr, np.int64), np.asarray(lg.idx, np.int32), lg.w,
                           np.asarray(labels, np.int64), lg.inner,
                           np.asarray(vsize, np.float64), int(k))


@jit()
def _pieces(ptr, idx, w, labels):
    # the connected components of the arcs inside communities, each from its smallest vertex
    in_ptr, in_idx, _ = _inside_arcs(ptr, idx, w, labels)
    n = len(labels)
    piece = np.full(n, -1, np.int32)
    stack = np.empty(n, np.int64)
    for s in range(n):
        if piece[s] < 0:
            flood(in_ptr, in_ptr[1:], in_idx, s, piece, s, stack)
    return piece


def pieces(lg, labels):
    """CpuMoves.pieces's connected pieces of each community by a search from each vertex not yet
    reached, in vertex order: each piece labelled by its smallest vertex id."""
    return _pieces(np.asarray(lg.ptr, np.int64), np.asarray(lg.idx, np.int32), np.asarray(lg.w, np.float64),
                   np.asarray(labels, np.int64))
