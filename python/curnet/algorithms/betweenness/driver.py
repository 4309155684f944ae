"""Brandes' betweenness over batches of sources: `brandes_sums`, the driver. For each batch,
the shortest-path DAG of every source, the path counts on the way out and the dependencies on
the way back (`sweeps`), their sums over the batch's sources added into one vector per device;
only O(n + m) numbers leave a device. The graph traversed is the caller's less what cannot
change the sums (`graph_reductions`: isolated vertices; leaves on undirected paths; `twins`:
one column a class of twins on unweighted undirected paths), its sources in breadth-first
order (`source_order`).
"""
from __future__ import annotations

import threading

import numpy as np

from ...backends import get_backend
from ...progress import Progress
from ...work import tally
from ..common import batches_of, over_devices, primary
from .graph_reductions import (components, fold_leaf_sources, folds_leaves, leaf_target_weights, reaching, rows_of,
                               with_arcs_only, without_leaves)
from .source_order import near_sources_together
from .sweeps import dependencies, shortest_path_dag
from .twins import fold_twin_sources


def brandes_sums(g, sources, *, weighted: bool, target_weight=None, cutoff=None, edges=False,
                 endpoints=False, backend="auto", progress=None):
    """Raw betweenness sums over `sources` (int32 ids, repeats count again): (vertex sums (n,),
    arc sums (num_arcs,) in CSR order or None), float64 on the host, before any scaling.

    target_weight (n,) float64: 1.0 at the targets (None: every vertex). cutoff: only paths
    of length <= cutoff count (igraph's range-limited betweenness). endpoints: NetworkX's
    convention, the ends of each path counted too."""
    weight = None if target_weight is None else np.asarray(target_weight, np.float64)
    h, kept = with_arcs_only(g)
    if kept is None:
        return _brandes_sums(g, np.asarray(sources, np.int32), weighted, weight, cutoff, edges, endpoints,
                             backend, progress)
    # an isolated vertex reaches nothing and nothing reaches it: its sums are 0, and every
    # other's are those of the graph without it (whose arcs keep their order)
    ids = rows_of(g, "without isolated vertices", kept)[np.asarray(sources, np.int32)]
    vertex, arc = _brandes_sums(h, ids[ids >= 0], weighted, None if weight is None else weight[kept], cutoff,
                                edges, endpoints, backend, progress)
    every = np.zeros(len(g))
    every[kept] = vertex
    return every, arc


def _brandes_sums(g, ids, weighted, weight, cutoff, edges, endpoints, backend, progress):
    """brandes_sums on a graph without isolated vertices (the target weights given, None: every
    vertex a target of weight 1): leaf sources folded and leaf targets left out where
    folds_leaves says, and twin sources folded there too when unweighted (twins.py), else every
    source with an arc traversed."""
    if not folds_leaves(g, cutoff, edges, endpoints):
        return _traverse_columns(g, reaching(g, ids), None, weighted, weight, cutoff, edges, endpoints, backend,
                                 progress)
    ids, fold = fold_leaf_sources(g, ids, weight)
    twin_correction = None
    if not weighted:                              # twins' paths: by their arcs' counts only
        ids, fold, twin_correction = fold_twin_sources(g, ids, fold, weight)
    # The leaves as targets: a leaf's shortest paths are its anchor u's, one edge longer, so
    # they count as u's for every vertex but u, and pass through u itself. So the traversals
    # run on the graph less its leaves, each anchor's target weight carrying its leaves', and u
    # gets its leaves' weight from every column that reaches it (its component: no cutoff
    # here) but its own, whose leaf sources pass through u to u's other leaves too.
    # A chunk of a Dask job does this for its sources alone: what does not depend on them is
    # found once a graph, and the fold is copied for the columns only (R-MAT 20's 1M vertices:
    # ~75 ms of host work a chunk on the 2-core machine, ~25 ms now).
    core, kept = without_leaves(g)
    anchors, hanging, core_weight = leaf_target_weights(g, weight)
    rows = rows_of(g, "without leaves", kept)
    vertex_core, _ = _traverse_columns(core, rows[ids], fold.on_rows(ids, rows, len(core)), weighted, core_weight,
                                       None, False, False, backend, progress)
    vertex = np.zeros(len(g))
    vertex[kept] = vertex_core
    component = components(g)
    reach = np.bincount(component[ids], weights=fold.multiplicity[ids], minlength=len(g))
    vertex[anchors] += hanging * (reach[component[anchors]] - fold.multiplicity[anchors] + fold.leaves[anchors])
    if twin_correction is not None:
        vertex += twin_correction
    return vertex, None


def _traverse_columns(g, ids, fold, weighted, weight, cutoff, edges, endpoints, backend, progress):
    """The sums over source columns `ids` (each traversed once; `fold`: their LeafFold, else
    each a source once), batch by batch on every device of `backend`; `weight` the targets'
    (None: 1 each)."""
    be = get_backend(backend)
    n = len(g)
    tally("betweenness sources traversed", len(ids))
    tally("betweenness rows", n)                   # each batch's blocks: (rows, sources)
    if len(ids) == 0:
        return np.zeros(n), (np.zeros(g.num_arcs) if edges else None)
    sums: dict[int, tuple] = {}                  # each device's (device, vertex sums, arc sums or None)
    size = len(ids)                              # sources a batch: the fewest any device takes
    for dev in be.members:
        with dev.device_scope():
            dev.device_graph(g)                  # on the device before its free memory is read
            size = min(size, dev.bc_batch_size(n, len(ids), weighted, edges))

    def work(dev, row0, share, report):
        xp = dev.xp
        hg = dev.device_graph(g)
        if id(dev) not in sums:                  # only this device's thread writes its entry
            sums[id(dev)] = (dev, xp.zeros(n, np.float64), xp.zeros(g.num_arcs, np.float64) if edges else None)
        _, vertex, arc = sums[id(dev)]
        # The target weights are copied at each piece, not once a device: copied once, two
        # H200s' R-MAT 20 sampled run took 3.79-3.82 s against 3.49-3.53, one GPU thread's first
        # piece twice as long in 5 runs of 6 (betweenness_weights_copy_ab_h200x2.txt). A copy
        # from host memory waits for the device: likely why, not measured.
        on_device = xp.ones(n) if weight is None else xp.asarray(weight)
        add = threading.Lock()                 # CPU batches run on several threads

        def run(batch):
            _, ids = batch
            dag = shortest_path_dag(dev, hg, ids, weighted, cutoff)
            columns = None if fold is None else fold.columns(xp, ids)
            v, a = dependencies(dev, hg, ids, dag, on_device, edges, endpoints, columns)
            with add:
                vertex[...] += v
                if arc is not None:
                    arc[...] += a
            return len(ids)

        for done in dev.map_batches(run, batches_of(share, size)):
            report(done)

    with primary(be).device_scope():             # the order is found on the (first) GPU
        ordered = near_sources_together(g, ids, primary(be))
    # sources in breadth-first order cost unlike amounts from region to region: pieces of a batch
    over_devices(be, ordered, work, Progress(progress, len(ids), "betweenness"), piece_size=size)
    vertex, arc = np.zeros(n), (np.zeros(g.num_arcs) if edges else None)
    for dev, v, a in sums.values():
        with dev.device_scope():
            vertex += dev.to_host(v)
            if edges:
                arc += dev.to_host(a)
    return vertex, arc
