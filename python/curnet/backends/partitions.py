"""What Leiden's and Louvain's primitives share on both backends, written once for NumPy and
CuPy (`xp`): the graph of one level (arcs without self-loops, each vertex's inner weight,
strength and size), its aggregation into the graph of communities, the quality of a
partition, the counter-based random numbers of the moves, the rules of a level's local moving,
and `PartitionPrimitives`: a device's `local_moving`, `refine_moves`, `aggregate`,
`community_sums` and `pieces`, which its
`partition_primitives()` gives (the CPU's NumPy/SciPy twin in `cpu/leiden.py`, the GPU's
kernels in `cuda/leiden.py` over `kernels/leiden.cu`).

Quality (igraph's, for both objectives): with A_ij the adjacency (a self-loop counted twice,
as in the degree), s_i a vertex's weight in the penalty (its strength for modularity, its
size for CPM) and g the resolution in those units (resolution / 2m for modularity),

    Q = (sum_ij A_ij [c_i = c_j] - g sum_c S_c^2) / 2m,      S_c = sum of s_i over c,

which is modularity for the modularity objective, and igraph's reported CPM quality for CPM.
Moving vertex u from community a to b changes 2m Q / 2 by

    k_ub - k_ua - g s_u (S_b - S_a + s_u)        (k_ua: u's weight to a without u itself),

the gain both backends compute, in the same operation order (the kernel rounds each step as
NumPy does), so the twins agree exactly on integer weights.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import numpy as np

# splitmix64's constants: the counter-based uniforms of the moves (the twin of leiden.cu's)
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB

# The rules of a level's local moving (`local_moving`, the same on every device):
MAX_MOVE_ROUNDS = 64        # rounds a level (a level usually ends far sooner)
# Each round moves the vertices in this many random buckets, one after the other, each
# seeing the moves before it: nearer the sequential algorithm's quality than all at once.
MOVE_BUCKETS = 4
SMALLEST_SHARE = 1 / 64     # the share of vertices a retried bucket may shrink to
# A level's local moving ends after a round that raised the quality (2m Q) by less than this
# share: the last rounds of a level move a few vertices each for gains the next level finds
# anyway (GVE-Leiden's tolerance, much smaller here).
ROUND_GAIN = 1e-5
MAX_REFINE_ROUNDS = 32      # rounds of a level's refinement (`refine_moves`)


@dataclass
class LevelGraph:
    """One level of the algorithm, on a device: the original graph, or its communities'.
    Arcs (both directions of each edge) without self-loops; a vertex's self-loops and, on a
    coarse level, the arcs inside it are its `inner` weight (sum of A_ij over its members)."""
    n: int
    ptr: Any            # (n + 1,) int64 CSR offsets
    src: Any            # (arcs,) int32 tails
    idx: Any            # (arcs,) int32 heads
    w: Any              # (arcs,) float64
    inner: Any          # (n,) float64
    strength: Any       # (n,) float64: the degree's weight (self-loops twice)
    size: Any           # (n,) float64: the CPM's vertex weight (1 a vertex, or as given)

    @cached_property
    def twice_m(self) -> float:
        """2m, the total strength (one wait for a GPU, once a level)."""
        return float(self.strength.sum())


class PartitionPrimitives(Protocol):
    """What the Leiden/Louvain driver asks of a device (curnet.analyses.community_detection)."""

    @property
    def xp(self) -> Any: ...

    def local_moving(self, lg: LevelGraph, part, vsize, total, count, gamma: float, quality: float,
                     tolerance: float, seed: int) -> tuple: ...     # (labels, totals, stats)

    def refine_moves(self, lg: LevelGraph, part, vsize, rest, alone, total, cut, gamma: float,
                     beta: float, seed: int) -> tuple: ...

    def aggregate(self, lg: LevelGraph, labels, k: int) -> LevelGraph: ...

    def community_sums(self, lg: LevelGraph, labels, vsize, k: int) -> tuple: ...

    def pieces(self, lg: LevelGraph, labels) -> Any: ...


def level_graph(xp, src, dst, w, n: int, size=None) -> LevelGraph:
    """The first level from arcs (both directions of each undirected edge; a self-loop as its
    two arcs), on the device of `xp`."""
    src = xp.asarray(src, dtype=np.int32)
    dst = xp.asarray(dst, dtype=np.int32)
    w = xp.asarray(w, dtype=np.float64)
    strength = xp.bincount(src, weights=w, minlength=n).astype(np.float64)
    loop = src == dst
    inner = xp.bincount(src[loop], weights=w[loop], minlength=n).astype(np.float64)
    keep = ~loop
    size = xp.ones(n, np.float64) if size is None else xp.asarray(size, dtype=np.float64)
    return _csr(xp, n, src[keep], dst[keep], w[keep], inner, strength, size)


def _csr(xp, n, src, dst, w, inner, strength, size) -> LevelGraph:
    order = xp.argsort(src, kind="stable") if xp is np else xp.argsort(src)
    src, dst, w = src[order], dst[order], w[order]
    ptr = xp.zeros(n + 1, np.int64)
    ptr[1:] = xp.cumsum(xp.bincount(src, minlength=n))
    return LevelGraph(n, ptr, src, dst, w, inner, strength, size)


def renumber(xp, labels):
    """(labels squeezed to 0..k-1 in order of first appearance, k)."""
    if len(labels) == 0:
        return labels.astype(np.int32), 0
    uniq, first, inv = xp.unique(labels, return_index=True, return_inverse=True)
    rank = xp.empty(len(uniq), np.int32)
    rank[xp.argsort(first)] = xp.arange(len(uniq), dtype=np.int32)
    return rank[inv.ravel()].astype(np.int32), int(len(uniq))


def aggregate(xp, lg: LevelGraph, labels, k: int) -> LevelGraph:
    """The graph of the communities `labels` (0..k-1): parallel arcs merged, arcs inside a
    community added to its inner weight."""
    cu, cv = labels[lg.src], labels[lg.idx]
    inside = cu == cv
    inner = xp.bincount(labels, weights=lg.inner, minlength=k) + \
        xp.bincount(cu[inside], weights=lg.w[inside], minlength=k)
    out = ~inside
    key = cu[out].astype(np.int64) * k + cv[out]
    uniq, inv = xp.unique(key, return_inverse=True)
    w = xp.bincount(inv.ravel(), weights=lg.w[out], minlength=len(uniq)).astype(np.float64)
    src, dst = (uniq // k).astype(np.int32), (uniq % k).astype(np.int32)
    return _csr(xp, k, src, dst, w, inner.astype(np.float64),
                xp.bincount(labels, weights=lg.strength, minlength=k).astype(np.float64),
                xp.bincount(labels, weights=lg.size, minlength=k).astype(np.float64))


def label_sums(xp, labels, weights, k: int):
    """The sum of `weights` (float64; None: 1 each) over each label 0..k-1: NumPy's bincount;
    on CuPy an add at the labels, which (unlike cupy.bincount, which sizes its output from the
    largest label) does not wait for the device."""
    if xp is np:
        return np.bincount(labels, weights=weights, minlength=k).astype(np.float64)
    out = xp.zeros(k, np.float64)
    xp.add.at(out, labels, weights if weights is not None else xp.ones(len(labels), np.float64))
    return out


def community_sums(xp, lg: LevelGraph, labels, vsize, k: int):
    """What a level's local moving and refinement start from, for communities `labels`
    (0..k-1): each community's inner weight, penalty weight S_c and vertex count (float64),
    and each vertex's weight to its own community (weight_inside). The devices'
    `community_sums` (the CPU's in one compiled pass over the arcs)."""
    arcs_inside = lg.w * (labels[lg.src] == labels[lg.idx])
    inner = label_sums(xp, labels, lg.inner, k) + label_sums(xp, labels[lg.src], arcs_inside, k)
    return (inner, label_sums(xp, labels, vsize, k), label_sums(xp, labels, None, k),
            label_sums(xp, lg.src, arcs_inside, lg.n))


def weight_inside(xp, lg: LevelGraph, labels):
    """Each vertex's weight to its own community of `labels` (its arcs inside it):
    community_sums' last sum alone, for the refinement, whose other sums local moving kept."""
    return label_sums(xp, lg.src, lg.w * (labels[lg.src] == labels[lg.idx]), lg.n)


def quality_of(inner, total, gamma: float) -> float:
    """sum_c inner_c - g sum_c S_c^2 (2m times the quality) from community_sums' sums."""
    return float(inner.sum() - gamma * (total * total).sum())


def uniform(xp, seed: int, u, c):
    """A uniform number in (0, 1) for each (seed, vertex u, community c): splitmix64's
    finaliser over a counter, the twin of leiden.cu's uniform_of."""
    with np.errstate(over="ignore"):
        x = xp.uint64(seed % 2**64) + u.astype(np.uint64) * xp.uint64(GOLDEN) + \
            c.astype(np.uint64) * xp.uint64(MIX1)
        x = (x ^ (x >> xp.uint64(30))) * xp.uint64(MIX1)
        x = (x ^ (x >> xp.uint64(27))) * xp.uint64(MIX2)
        x = x ^ (x >> xp.uint64(31))
    return ((x >> xp.uint64(11)).astype(np.float64) + 0.5) * 2.0 ** -53


def round_seed(seed: int, r: int) -> int:
    """The seed of round r of a level's local moving or refinement (leiden.cu's round_seed)."""
    return (seed + (r + 1) * MIX2) % 2**64


def gumbel(xp, seed: int, u, c):
    """Gumbel noise: argmax(gain / beta + noise) draws a move with probability
    proportional to exp(gain / beta), Leiden's refinement's randomness."""
    return -xp.log(-xp.log(uniform(xp, seed, u, c)))
