"""Strongly connected components, labelled canonically (numbered by smallest vertex)."""
from __future__ import annotations

import numpy as np

from ..backends import get_backend
from ..backends.arrays import canonical_labels  # noqa: F401  (the drivers' name for it)
from ..backends.contract import Device, GraphArrays, SccLabels
from ..work import tally
from .common import primary

# Trimming passes per round; long chains are left to the colouring.
TRIM_PASSES = 8


def scc(g, *, backend="auto"):
    """(n,) int32 component ids, numbered 0.. in order of each component's smallest vertex."""
    be = primary(get_backend(backend))
    with be.device_scope():
        return be.canonical_labels(component_labels(be, be.device_graph(g)))


def component_labels(be: Device, hg: GraphArrays):
    """Labels on the device (each component one of its vertices' ids) by the route the
    backend names: its own whole-graph SCC ("native"), or the driver below."""
    method = be.scc_method(hg)
    if method == "native" and isinstance(be, SccLabels):
        tally("scc whole-graph runs")
        labels = be.scc_labels(hg)
        if labels is None:        # past the backend's own route's limits: the driver's turn
            labels = scc_by_reachability(be, hg)
        return labels
    if method == "reachability":
        return scc_by_reachability(be, hg)
    raise TypeError(f"the {be.name} backend chose {method!r} but has no such primitive")


def scc_by_reachability(be: Device, hg: GraphArrays):
    """Trim, peel the giant component by forward-backward reachability (two BFS from its
    pivot), colour the rest.

    Returns labels where each component carries one of its vertices' ids.
    """
    xp = be.xp
    n = hg.n
    ids = xp.arange(n, dtype=np.int32)
    labels = ids.copy()              # trimmed vertices are their own component
    alive = _trim(be, hg, xp.ones(n, dtype=bool))
    if be.any(alive):
        degree = (xp.diff(xp.asarray(hg.in_ptr)).astype(np.int64, copy=False)
                  * xp.diff(xp.asarray(hg.out_ptr)).astype(np.int64, copy=False))
        pivot = int(xp.argmax(xp.where(alive, degree, -1)))
        # The pivot's component is what it reaches and what reaches it: two one-source BFS
        # (direction-optimizing, a few levels each) instead of max-label sweeps over every arc
        # until nothing changes (6 sweeps each way on R-MAT 22: 28 of SCC's 31 ms, see
        # docs/peers.md). Whole-graph reachability is exact here: trimmed vertices are
        # components of their own, so none of them is in both sets.
        tally("scc pivot searches", 2)
        giant = alive & (be.bfs_one(hg, pivot) >= 0) & (be.bfs_one(hg, pivot, backward=True) >= 0)
        # (where, not a masked assignment: on the GPU that counts the mask on the host first)
        labels = xp.where(giant, np.int32(pivot), labels)
        alive &= ~giant
    while True:
        alive = _trim(be, hg, alive)
        if not be.any(alive):
            return labels
        colors = be.propagate_max(hg, xp.where(alive, ids, -1), alive)
        roots = (alive & (colors == ids)).astype(np.int32)
        done = alive & (be.propagate_max(hg, roots, alive, colors=colors, backward=True) > 0)
        labels = xp.where(done, colors, labels)
        alive &= ~done


def _trim(be, hg, alive):
    tally("scc trim rounds")
    return be.trim(hg, alive, TRIM_PASSES)
