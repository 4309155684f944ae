"""Single-source shortest paths from many sources: Dijkstra where weights are
non-negative and the backend has it (CPU), near-far on the GPU for non-negative float32
weights and few sources, frontier Bellman-Ford otherwise (negative weights included)."""
from __future__ import annotations

import numpy as np

from ..backends import get_backend
from ..errors import NegativeCycleError
from ..progress import Progress
from ..sources import resolve_sources, source_name
from ..work import tally
from .common import batches_of, over_devices, result_buffer

# Bellman-Ford looks for a cycle among the predecessors every this many rounds.
CYCLE_CHECK_ROUNDS = 16


def sssp(g, sources, *, backend="auto", out_dist=None, out_pred=None, progress=None):
    """Distances (k, n) (`inf` unreachable) and predecessors (k, n) int32 (-1 none)."""
    return _shortest_paths(g, sources, backend, out_dist, out_pred, True, progress)


def sssp_dists(g, sources, *, backend="auto", out=None, progress=None):
    """Distances only: as `sssp`, without the cost of predecessors."""
    return _shortest_paths(g, sources, backend, out, None, False, progress)[0]


def _shortest_paths(g, sources, backend, out_dist, out_pred, with_pred, progress):
    be = get_backend(backend)
    ids = resolve_sources(g, sources)
    n, k = len(g), len(ids)
    dist_out = result_buffer(out_dist, (k, n), g.weight_dtype, "the distance matrix")
    pred_out = result_buffer(out_pred, (k, n), np.int32, "the predecessor matrix") if with_pred else None

    def work(dev, row0, share, report):
        hg = dev.device_graph(g)
        use_dijkstra = dev.has_dijkstra and hg.min_weight >= 0

        def run(batch):
            first, batch_ids = batch
            rows = slice(row0 + first, row0 + first + len(batch_ids))
            try:
                dist, pred = solve_batch(dev, hg, batch_ids, with_pred)
            except NegativeCycleError as e:
                raise NegativeCycleError(e.source, source_name(g, e.source)) from None
            dev.copy_to_host(dist, dist_out[rows])
            if with_pred:
                dev.copy_to_host(pred, pred_out[rows])
            return len(batch_ids)

        size = dev.sssp_batch_size(n, len(share), use_dijkstra)
        for done in dev.map_batches(run, batches_of(share, size), parallel=dev.sssp_parallel(use_dijkstra)):
            report(done)

    over_devices(be, ids, work, Progress(progress, k, "sssp"))
    return dist_out, pred_out


def solve_batch(be, hg, ids, with_pred):
    """One batch of sources on the backend's device: (dist, pred or None), by the best method."""
    if be.has_dijkstra and hg.min_weight >= 0:
        return be.dijkstra(hg, ids, with_pred)
    near_far_ok = getattr(be, "near_far_ok", None)
    if near_far_ok is not None and near_far_ok(hg, len(ids), with_pred):
        # GPU, non-negative float32 weights, few sources: near-far buckets relax each
        # arc ~1-2 times instead of Bellman-Ford's ~5 (negative weights stay on BF).
        return be.near_far(hg, ids, with_pred)
    return bellman_ford(be, hg, ids, with_pred)


def bellman_ford(be, hg, ids, with_pred):
    """Frontier Bellman-Ford for a batch of sources; raises NegativeCycleError naming a source.

    The batch's state lives in the backend (`sp_start` .. `sp_finish`): the CUDA backend packs
    distance and predecessor into one word. Predecessors are tracked when asked for or when a
    negative weight makes a cycle possible (the cycle search reads them). A backend with
    `max_bf_rounds` hands a batch that needs more rounds to `sp_long` (a long-diameter graph).
    """
    kb, n = len(ids), hg.n
    state, active = be.sp_start(hg, ids, with_pred or hg.min_weight < 0)
    rounds = 0
    while be.any(active):
        if be.max_bf_rounds is not None and rounds >= be.max_bf_rounds:
            tally("sssp per-source runs", kb)
            return be.sp_long(hg, ids, with_pred)
        tally("sssp rounds")
        active = be.sp_relax(hg, state, active)
        rounds += 1
        if rounds % CYCLE_CHECK_ROUNDS == 0 or rounds >= n:
            pred = be.sp_preds(state)
            cyclic = (be.to_host(be.pred_has_cycle(pred)) if pred is not None
                      else np.zeros(kb, dtype=bool))
            if rounds >= n:   # n rounds settle every path; still active means a cycle
                cyclic |= be.to_host(active.any(axis=1))
            if cyclic.any():
                raise NegativeCycleError(int(ids[int(np.flatnonzero(cyclic)[0])]))
    return be.sp_finish(state, with_pred)
