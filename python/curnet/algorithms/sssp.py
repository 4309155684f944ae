"""Single-source shortest paths from many sources: Dijkstra where weights are
non-negative and the backend has it (CPU), near-far on the GPU for non-negative weights and
few sources, frontier Bellman-Ford otherwise (negative weights included)."""
from __future__ import annotations

import numpy as np

from ..backends import get_backend
from ..backends.contract import Device, Dijkstra, GraphArrays, NearFar
from ..errors import NegativeCycleError
from ..progress import Progress
from ..sources import resolve_sources, source_name
from ..work import tally
from .common import batches_of, over_devices, result_buffer
from .sinks import MatrixSink

# Bellman-Ford looks for a cycle among the predecessors every this many rounds.
CYCLE_CHECK_ROUNDS = 16


def sssp(g, sources, *, backend="auto", out_dist=None, out_pred=None, progress=None):
    """Distances (k, n) (`inf` unreachable) and predecessors (k, n) int32 (-1 none)."""
    be = get_backend(backend)            # a bad backend name is the first error, as before
    ids = resolve_sources(g, sources)
    shape = (len(ids), len(g))
    dist = result_buffer(out_dist, shape, g.weight_dtype, "the distance matrix", be)
    pred = result_buffer(out_pred, shape, np.int32, "the predecessor matrix", be)
    sssp_blocks(g, ids, MatrixSink(dist, pred), backend=backend, with_pred=True, progress=progress)
    return dist, pred


def sssp_dists(g, sources, *, backend="auto", out=None, progress=None):
    """Distances only: as `sssp`, without the cost of predecessors."""
    be = get_backend(backend)
    ids = resolve_sources(g, sources)
    dist = result_buffer(out, (len(ids), len(g)), g.weight_dtype, "the distance matrix", be)
    sssp_blocks(g, ids, MatrixSink(dist), backend=backend, with_pred=False, progress=progress)
    return dist


def sssp_blocks(g, sources, sink, *, backend="auto", with_pred=False, progress=None) -> None:
    """The batched shortest paths: each batch's (dist, pred or None), (n, kb) arrays on the
    device, is handed to `sink.consume(...)` (see `curnet.algorithms.sinks`)."""
    be = get_backend(backend)
    ids = resolve_sources(g, sources)
    n, k = len(g), len(ids)

    def work(dev: Device, row0: int, share: np.ndarray, report) -> None:
        hg = dev.device_graph(g)
        use_dijkstra = dev.sssp_method(hg, len(share), with_pred) == "dijkstra"

        def run(batch):
            first, batch_ids = batch
            try:
                dist, pred = solve_batch(dev, hg, batch_ids, with_pred)
            except NegativeCycleError as e:
                raise NegativeCycleError(e.source, source_name(g, e.source)) from None
            sink.consume(dev, row0 + first, batch_ids, (dist.T, pred.T if pred is not None else None))
            return len(batch_ids)

        size = dev.sssp_batch_size(n, len(share), use_dijkstra)
        for done in dev.map_batches(run, batches_of(share, size), parallel=dev.sssp_parallel(use_dijkstra)):
            report(done)

    over_devices(be, ids, work, Progress(progress, k, "sssp"))


def solve_batch(be: Device, hg: GraphArrays, ids, with_pred: bool) -> tuple:
    """One batch of sources on the backend's device: (dist, pred or None), by the method the
    backend picks for it (`sssp_method`): SciPy's Dijkstra on the CPU for non-negative
    weights, near-far on the GPU for non-negative weights and few sources,
    frontier Bellman-Ford otherwise (negative weights included)."""
    method = be.sssp_method(hg, len(ids), with_pred)
    if method == "dijkstra" and isinstance(be, Dijkstra):
        return be.dijkstra(hg, ids, with_pred)
    if method == "near_far" and isinstance(be, NearFar):
        return be.near_far(hg, ids, with_pred)
    if method != "bellman_ford":
        raise TypeError(f"the {be.name} backend chose {method!r} but has no such primitive")
    return bellman_ford(be, hg, ids, with_pred)


def bellman_ford(be: Device, hg: GraphArrays, ids, with_pred: bool) -> tuple:
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

