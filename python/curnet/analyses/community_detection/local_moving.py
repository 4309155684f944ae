"""The Leiden and Louvain driver, written once for every device (its `xp` and `best_moves`,
backends/partitions.py): parallel local moving, Leiden's refinement, aggregation.

Local moving is synchronous: every vertex that may move picks its best neighbouring
community at once (`best_moves`, gains from the arcs). What keeps parallel moves from undoing
each other: a singleton moves to another singleton's community only if that one has the
smaller id (two singletons would otherwise swap forever); a round whose moves together lower
the quality is dropped and retried with a random half of the vertices (then a quarter...);
after a round only the vertices next to a move are looked at again (the others' gains did
not change much; they are looked at again when a neighbour moves).

The refinement (Leiden's) splits each community into well-connected sub-communities: every
vertex starts alone; a vertex still alone, well connected to its community, joins a
sub-community of its community it has arcs to, drawn with probability proportional to
exp(gain / beta) among the moves that lose nothing (Gumbel noise over the gains). A vertex
another vertex joins this round stays where it is, so each sub-community is its founding
vertex plus vertices with an arc into it: every community is connected.
"""
from __future__ import annotations

import numpy as np

from ...backends.partitions import LevelGraph, aggregate, community_totals, quality_sum, renumber, uniform

MAX_MOVE_ROUNDS = 64        # rounds of local moving a level (a pass usually ends far sooner)
MAX_REFINE_ROUNDS = 32
SMALLEST_SHARE = 1 / 64     # the share of vertices a retried round may shrink to
# Each round moves the vertices in this many random buckets, one after the other, each
# seeing the moves before it: nearer the sequential algorithm's quality than all at once.
MOVE_BUCKETS = 4
# A level's local moving ends after a round that raised the quality (2m Q) by less than this
# share: the last rounds of a level move a few vertices each for gains the next level finds
# anyway (GVE-Leiden's tolerance, much smaller here).
ROUND_GAIN = 1e-5
# A level whose refinement keeps more than this share of its vertices is aggregated by its
# communities instead (Louvain's step): later levels would merge a few vertices each (47
# levels a pass on STRING's sample instead of ~6). Communities are split into their
# connected pieces at the end (the device's `pieces`).
MIN_SHRINK = 0.9


class Stream:
    """The seeds of a run's rounds, drawn from one generator (reproducible from `seed`)."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def next(self) -> int:
        return int(self.rng.integers(0, 2**63 - 1))


def move_nodes(prim, lg: LevelGraph, part, vsize, gamma: float, stream: Stream):
    """Local moving until no vertex gains by moving: the new labels (vertex ids of lg)."""
    xp = prim.xp
    n = lg.n
    ids = xp.arange(n, dtype=np.int64)
    total = xp.bincount(part, weights=vsize, minlength=n)
    count = xp.bincount(part, minlength=n)
    quality = quality_sum(xp, lg, part, vsize, gamma)
    tolerance = 1e-12 * max(1.0, abs(quality), lg.twice_m)
    look = xp.ones(n, bool)
    share = 1.0
    for _ in range(MAX_MOVE_ROUNDS):
        seed = stream.next()
        bucket = (uniform(xp, seed, ids, ids) * MOVE_BUCKETS).astype(np.int32)
        next_look = xp.zeros(n, bool)
        moved = False
        round_start = quality
        for b in range(MOVE_BUCKETS):
            movable = look & (bucket == b)
            if share < 1.0:
                movable &= uniform(xp, seed + 1, ids, ids) < share
            target, _ = prim.best_moves(lg, part, None, vsize, total, gamma, movable, None, 0.0, seed)
            moving = target != part
            moving &= ~((count[part] == 1) & (count[target] == 1) & (target > part))
            # On a GPU a bucket waits for the device three times: the movers' count, their
            # arcs' count, and the quality change (lists of positions, not masks, after that)
            movers = xp.flatnonzero(moving)
            if not len(movers):
                continue
            new = part.copy()
            new[movers] = target[movers]
            arcs = xp.flatnonzero(moving[lg.src])          # the movers' arcs
            size = vsize[movers]
            new_total = total + xp.bincount(target[movers], weights=size, minlength=n) \
                - xp.bincount(part[movers], weights=size, minlength=n)
            new_quality = quality + float(change_inside(xp, lg, arcs, part, new, moving) -
                                          gamma * (new_total * new_total - total * total).sum())
            if new_quality <= quality + tolerance:
                share /= 2             # the moves undid each other: fewer at once
                continue
            part, quality, moved, total = new, new_quality, True, new_total
            count = xp.bincount(part, minlength=n)
            next_look[lg.idx[arcs]] = True
            next_look[movers] = True
        if not moved and (share == 1.0 or share < SMALLEST_SHARE):
            break
        if moved and quality - round_start < ROUND_GAIN * abs(round_start):
            break                      # the tail of a level: moves that barely count
        look = next_look if moved else look
    return part


def change_inside(xp, lg: LevelGraph, arcs, old, new, moving):
    """How much the weight inside communities (sum of A_ij over pairs in one community)
    changes when the `moving` vertices go from `old` to `new` labels, from their arcs alone:
    an arc between a mover and a vertex that stays stands for its reverse arc too. A scalar
    on the device."""
    u, v = lg.src[arcs], lg.idx[arcs]
    delta = (new[u] == new[v]).astype(np.float64) - (old[u] == old[v])
    return (lg.w[arcs] * delta * xp.where(moving[v], 1.0, 2.0)).sum()


def refine(prim, lg: LevelGraph, part, vsize, gamma: float, beta: float, stream: Stream):
    """Leiden's refinement of `part`: sub-community labels (each a vertex id of lg).

    Each sub-community's penalty weight and cut (its weight to the rest of its community)
    are kept up to date from the movers' arcs alone: a round costs its movers' arcs, not
    the level's."""
    xp = prim.xp
    n = lg.n
    ids = xp.arange(n, dtype=np.int32)
    sub = ids.copy()
    _, part_total = community_totals(xp, lg, part, vsize, n)
    inside = xp.flatnonzero(part[lg.src] == part[lg.idx])    # the arcs inside communities
    in_src, in_dst, in_w = lg.src[inside], lg.idx[inside], lg.w[inside]
    k_within = xp.bincount(in_src, weights=in_w, minlength=n)
    rest = part_total[part]                          # S of each vertex's community
    alone = k_within >= gamma * vsize * (rest - vsize)   # well connected to its community
    total = vsize.astype(np.float64)                 # every vertex its own sub-community
    cut = k_within.astype(np.float64)
    for _ in range(MAX_REFINE_ROUNDS):
        target_ok = cut >= gamma * total * (rest - total)
        seed = stream.next()
        target, _ = prim.best_moves(lg, sub, part, vsize, total, gamma, alone, target_ok, beta, seed)
        joined = xp.zeros(n, bool)
        joined[target] = True                         # moved to (or stayed in, by its own)
        moving = (target != sub) & ~joined[ids]       # a vertex being joined stays
        movers = xp.flatnonzero(moving)               # (on a GPU, a wait for the device)
        if not len(movers):
            break
        new = sub.copy()
        new[movers] = target[movers]
        arcs = xp.flatnonzero(moving[in_src])         # the movers' arcs inside communities
        u, v, w = in_src[arcs], in_dst[arcs], in_w[arcs]
        was_cut, is_cut = sub[u] != sub[v], new[u] != new[v]
        # the arc u -> v counts in the cut of u's sub-community; its reverse v -> u in v's,
        # counted here when v stays (a moving v's arcs are among `arcs` themselves)
        stays = ~moving[v]
        cut = cut + xp.bincount(new[u], weights=w * is_cut, minlength=n) \
            - xp.bincount(sub[u], weights=w * was_cut, minlength=n) \
            + xp.bincount(new[v], weights=w * (is_cut.astype(np.float64) - was_cut) * stays, minlength=n)
        size = vsize[movers]
        total = total + xp.bincount(target[movers], weights=size, minlength=n) \
            - xp.bincount(sub[movers], weights=size, minlength=n)
        sub = new
        alone[movers] = False
        alone[target[movers]] = False                 # joined: no longer alone
    return sub


def one_pass(prim, lg: LevelGraph, membership, objective: str, resolution: float, beta: float,
             leiden: bool, stream: Stream):
    """One iteration of Leiden (or Louvain's levels) from `membership` (0..k-1 labels of the
    first level's vertices): the new membership."""
    xp = prim.xp
    first = lg
    vertex_of = xp.arange(lg.n, dtype=np.int32)       # each original vertex's vertex on this level
    part = membership
    while True:
        vsize, gamma = penalty(lg, objective, resolution)
        part = move_nodes(prim, lg, part, vsize, gamma, stream)
        coarse = refine(prim, lg, part, vsize, gamma, beta, stream) if leiden else part
        labels, k = renumber(xp, coarse)
        if k > MIN_SHRINK * lg.n:                     # the refinement merged (almost) nothing
            labels, k = renumber(xp, part)
            if k == lg.n:                             # nor did the moves: this level is final
                break
        coarse_part = xp.zeros(k, np.int32)
        coarse_part[labels] = part
        part = renumber(xp, coarse_part)[0]
        lg = aggregate(xp, lg, labels, k)
        vertex_of = labels[vertex_of]
    membership = part[vertex_of]
    if not leiden and lg is not first:
        # Louvain: local moving once more on the first level. Parallel moves leave vertices a
        # level then locks inside a community (scNET: median modularity 0.3169 -> 0.3208,
        # igraph's 0.3182); Leiden's next iteration does this itself.
        vsize, gamma = penalty(first, objective, resolution)
        membership = move_nodes(prim, first, renumber(xp, membership)[0], vsize, gamma, stream)
    return membership


def penalty(lg: LevelGraph, objective: str, resolution: float):
    """(vertex weights s, resolution g) of the gain: strength and resolution / 2m for
    modularity (igraph's), vertex sizes and the resolution itself for CPM."""
    if objective == "modularity":
        twice_m = lg.twice_m
        return lg.strength, (resolution / twice_m if twice_m > 0 else 0.0)
    return lg.size, resolution


def quality(prim, lg: LevelGraph, membership, objective: str, resolution: float) -> float:
    """igraph's quality of a membership of lg's vertices (modularity, or CPM's); NaN for a
    graph without edge weight."""
    twice_m = lg.twice_m
    if twice_m <= 0:
        return float("nan")
    vsize, gamma = penalty(lg, objective, resolution)
    return quality_sum(prim.xp, lg, membership, vsize, gamma) / twice_m
