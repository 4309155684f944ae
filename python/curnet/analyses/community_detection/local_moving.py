"""The Leiden and Louvain driver, written once for every device (its `xp`, `local_moving`,
`refine_moves`, `aggregate`, `community_sums` and `pieces`, backends/partitions.py): parallel
local moving, Leiden's refinement, aggregation.

Local moving is synchronous, a random bucket of vertices at a time: every vertex of the
bucket picks its best neighbouring community at once (gains from the arcs). What keeps
parallel moves from undoing each other: a singleton moves to another singleton's community
only if that one has the smaller id (two singletons would otherwise swap forever); a bucket
whose moves together lower the quality is dropped and later buckets move a random half of
their vertices (then a quarter...); after a round only the vertices next to a move are looked
at again (the others' gains did not change much). A level's rounds are the device's
`local_moving` (a single loop kernel on a GPU), so they need no wait for the host.

The refinement (Leiden's) splits each community into well-connected sub-communities: every
vertex starts alone; a vertex still alone, well connected to its community, joins a
sub-community of its community it has arcs to, drawn with probability proportional to
exp(gain / beta) among the moves that lose nothing (Gumbel noise over the gains). A vertex
another vertex joins this round stays where it is, so each sub-community is its founding
vertex plus vertices with an arc into it: every community is connected. A level's rounds
are the device's `refine_moves` (one loop kernel on a GPU).
"""
from __future__ import annotations

import numpy as np

from ...backends.partitions import LevelGraph, quality_of, renumber, weight_inside

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
    """Local moving until no vertex gains by moving: (the new labels, vertex ids of lg; each
    community's penalty weight S_c, which the moves kept up to date). The rounds run on the
    device (`local_moving`; on a GPU one launch a level, no wait for the host between
    buckets)."""
    inner, total, count, _ = prim.community_sums(lg, part, vsize, lg.n)
    quality = quality_of(inner, total, gamma)
    tolerance = 1e-12 * max(1.0, abs(quality), lg.twice_m)
    part, total, _ = prim.local_moving(lg, part, vsize, total, count, gamma, quality, tolerance, stream.next())
    return part, total


def refine(prim, lg: LevelGraph, part, part_total, vsize, gamma: float, beta: float, stream: Stream):
    """Leiden's refinement of `part` (its communities' penalty weights `part_total`, local
    moving's): sub-community labels (each a vertex id of lg). The rounds run on the device
    (`refine_moves`; on a GPU one launch a level)."""
    k_within = weight_inside(prim.xp, lg, part)       # each vertex's weight to its own community
    rest = part_total[part]                          # S of each vertex's community
    alone = k_within >= gamma * vsize * (rest - vsize)   # well connected to its community
    total = vsize.astype(np.float64)                 # every vertex its own sub-community
    sub, _ = prim.refine_moves(lg, part, vsize, rest, alone, total, k_within.astype(np.float64), gamma,
                               beta, stream.next())
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
        part, part_total = move_nodes(prim, lg, part, vsize, gamma, stream)
        coarse = refine(prim, lg, part, part_total, vsize, gamma, beta, stream) if leiden else part
        labels, k = renumber(xp, coarse)
        if k > MIN_SHRINK * lg.n:                     # the refinement merged (almost) nothing
            labels, k = renumber(xp, part)
            if k == lg.n:                             # nor did the moves: this level is final
                break
        coarse_part = xp.zeros(k, np.int32)
        coarse_part[labels] = part
        part = renumber(xp, coarse_part)[0]
        lg = prim.aggregate(lg, labels, k)
        vertex_of = labels[vertex_of]
    membership = part[vertex_of]
    if not leiden and lg is not first:
        # Louvain: local moving once more on the first level. Parallel moves leave vertices a
        # level then locks inside a community (scNET: median modularity 0.3169 -> 0.3208,
        # igraph's 0.3182); Leiden's next iteration does this itself.
        vsize, gamma = penalty(first, objective, resolution)
        membership, _ = move_nodes(prim, first, renumber(xp, membership)[0], vsize, gamma, stream)
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
    inner, total, _, _ = prim.community_sums(lg, membership, vsize, lg.n)
    return quality_of(inner, total, gamma) / twice_m
