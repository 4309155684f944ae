"""One batch of Brandes' algorithm over the backend's sweeps: the batch's shortest-path DAGs
(`shortest_path_dag`: joint BFS levels, or SSSP distances and their DAG levels), then
(`dependencies`) the path counts sigma a level at a time on the way out, and on the way back
each entry's share (weight + delta) / sigma a level at a time, summed over the batch's
sources. The sweeps are the device's (`bc_sigma_level`, `bc_delta_level`,
`bc_edge_dependency`; NumPy twins in backends/cpu/brandes.py, kernels in
kernels/betweenness.cu); the DAG's `index` is the device's own, built by it
(`bc_levels`, `bc_level_index`) and only handed back to it.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...backends.brandes import on_path, tie_epsilon
from ..bfs import traverse
from ..sssp import solve_batch


class Dag(NamedTuple):
    """A batch's shortest-path DAGs: the (n, kb) level block (-1 where not reached within the
    cutoff), the distance block (weighted graphs; inf there) or None, and the device's index
    of them for its level sweeps (opaque here; None where it keeps none): found with the
    weighted levels (bc_levels), or from BFS levels (bc_level_index)."""
    level: Any
    dist: Any
    index: Any


def shortest_path_dag(be, hg, ids, weighted: bool, cutoff) -> Dag:
    """The batch's Dag from its sources `ids`: joint BFS levels, or SSSP distances (weighted)."""
    xp = be.xp
    n, kb = hg.n, len(ids)
    if not weighted:
        level = xp.full((n, kb), -1, np.int32)
        traverse(be, hg, ids, level, -1)
        if cutoff is not None:
            level[level > cutoff] = -1
        level = narrow(xp, level)
        return Dag(level, None, be.bc_level_index(hg, level))
    dist, _ = solve_batch(be, hg, ids, False)          # (kb, n)
    dist = xp.ascontiguousarray(dist.T)
    if cutoff is not None:
        # igraph drops a path longer than the cutoff by the same relative-epsilon comparison
        dist[(dist > cutoff) & ~on_path(xp, dist, cutoff, tie_epsilon(dist.dtype))] = np.inf
    level, index = be.bc_levels(hg, dist)
    return Dag(level, dist, index)


def narrow(xp, level):
    """BFS levels below 127 as int8 (the usual case): the sweeps read a level for every
    (arc, source) pair they test, a quarter of the bytes of int32 (one host sync)."""
    if level.size and int(level.max()) < 127:
        return level.astype(np.int8)
    return level


def dependencies(be, hg, ids, dag: Dag, weight, edges: bool, endpoints: bool, fold=None):
    """One batch of Brandes' algorithm over its Dag: (sum over its sources of each vertex's
    dependency, each arc's dependency summed over them or None), arrays of `be.xp`. `fold`:
    the batch's LeafFold columns (ids then distinct): each column's dependencies weighted by
    its multiplicity, and its anchor's dependency from the leaves folded into it added."""
    xp = be.xp
    level, dist, index = dag
    n, kb = level.shape
    cols = xp.arange(kb)
    src = xp.asarray(np.asarray(ids, np.int64))
    deepest = int(level.max()) if level.size else 0
    # BFS levels join consecutive levels only, so the device may sweep a level from the
    # neighbouring level's end instead (push: the same values); it says where, from its index.

    # forward: shortest-path counts, a level at a time (a source has one path, to itself)
    sigma = xp.zeros((n, kb), np.float64)
    sigma[src, cols] = 1.0
    for at in range(1, deepest + 1):
        be.bc_sigma_level(hg, level, dist, sigma, at, push=be.bc_pushes(index, at, at - 1), index=index)
    counts = sigma.copy() if edges else None     # the arcs' dependencies read the path counts
    # backward, from the deepest level up: each level's dependencies into sigma's entries,
    # its shares (weight + delta) / sigma for the level above
    share = xp.zeros((n, kb), np.float64)
    # for the leaf fold and the endpoints, the sources' own level too: a source's dependency is
    # the target weight its column reaches, itself excluded (every path passes through it).
    # (Summed from the level block instead, an (n, kb) temporary and a reduction across rows
    # took ~35 ms a 928-source R-MAT 20 batch on the H100: the exact run 104.9 s, was 124.0 s.)
    own = fold is not None or endpoints
    for at in range(deepest, -1 if own else 0, -1):
        be.bc_delta_level(hg, level, dist, sigma, share, weight, at, push=be.bc_pushes(index, at, at + 1),
                          index=index)
    delta = sigma                                # now the dependencies; a source's own is not one
    reached = delta[src, cols] if own else None
    delta[src, cols] = 0.0
    arc = None
    if edges:
        arc = xp.zeros(len(hg.out_idx), np.float64)
        be.bc_edge_dependency(hg, level, dist, counts, share, arc)
    if fold is None:
        vertex = delta.sum(axis=1)
    else:
        vertex = delta @ fold.multiplicity
        # every path from a leaf folded into column j passes through j: j's dependency from it
        # is the target weight of every vertex j reaches but j and the leaf
        vertex[src] += fold.leaves * reached - fold.leaf_weight
    if endpoints:
        # each reached target w != s is an end of the paths s -> w; s is the start of them all
        ends = weight * ((level >= 0).sum(axis=1) - xp.bincount(src, minlength=n))
        vertex += ends + xp.bincount(src, weights=reached, minlength=n)
    return vertex, arc
