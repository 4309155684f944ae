"""R's many-source traversals (R/algorithms.R): cuRnet_bfs, cuRnet_sssp, cuRnet_sssp_dists
and cuRnet_scc, written into the k x n matrices R allocated (k x |targets| with targets),
on this process or on the session's Dask cluster."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..algorithms.common import result_buffer
from ..algorithms.scc import scc
from ..algorithms.sinks import MatrixSink
from ..algorithms.sssp import sssp_blocks
from ..sources import check_ids, resolve_sources
from .graphs import view
from .handoff import R_NA_INTEGER, progress_hook, r_array
from .session import LOCAL, engine, run_on


def _targets(g, targets):
    """R's 0-based target ids, checked (None: every vertex)."""
    if targets is None:
        return None
    from ..columns import to_numpy
    t = to_numpy(targets, "targets")
    if t.size and not np.issubdtype(t.dtype, np.integer):
        raise TypeError(f"targets must be integer vertex ids or vertex names, got dtype {t.dtype}")
    return check_ids(g, t, "target").astype(np.int64)


def _engine_out(r_out, g, targets):
    """Where the engine writes: R's matrix itself, or with `targets` a k x n array whose
    target columns are copied into R's matrix afterwards."""
    if targets is None:
        return r_out
    return result_buffer(None, (r_out.shape[0], len(g)), r_out.dtype, "the result for all vertices")


def bfs_into(g, sources, address, r_type, progress=None, backend="auto", mode="out",
             targets=None) -> None:
    """BFS depths into R's k x n matrix (k x len(targets) with `targets`, 0-based vertex ids):
    NA_integer_ or Inf where unreachable."""
    g = view(g, mode)
    targets = _targets(g, targets)
    out = r_array(address, (len(sources), len(g) if targets is None else len(targets)), r_type)
    unreachable = R_NA_INTEGER if r_type == "integer" else np.inf
    full = engine().bfs(g, sources, backend=run_on(backend, "bfs"), out=_engine_out(out, g, targets),
                        unreachable=unreachable, progress=progress_hook(progress))
    if targets is not None:
        np.take(full, targets, axis=1, out=out)


def sssp_into(g, sources, dist_address, pred_address=None, progress=None, backend="auto",
              mode="out", targets=None, pred_none=R_NA_INTEGER, source_self=False) -> None:
    """Distances (double, Inf unreachable) and, if `pred_address`, predecessors into R's k x n
    matrices (k x len(targets) with `targets`). Predecessors are written as R uses them:
    1-based vertex indices, `pred_none` where there is none (NA_integer_; n + 1 indexes a
    "" after the names), the source's own vertex with `source_self` (igraph's form), so R
    makes no pass of its own over the matrix. A negative cycle raises NegativeCycleError,
    whose message names its source."""
    g = view(g, mode)
    targets = _targets(g, targets)
    shape = (len(sources), len(g) if targets is None else len(targets))
    dist = r_array(dist_address, shape, "double")
    pred = None if pred_address is None else r_array(pred_address, shape, "integer")
    name = run_on(backend, "sssp")
    full_dist = _engine_out(dist, g, targets)
    full_pred: Any = None if pred is None else _engine_out(pred, g, targets)
    ids = resolve_sources(g, sources)
    hook = progress_hook(progress)
    runs = engine()
    if runs is LOCAL:
        sink = MatrixSink(full_dist, full_pred, pred_base=1, pred_none=int(pred_none))
        sssp_blocks(g, ids, sink, backend=name, with_pred=pred is not None, progress=hook)
    elif pred is None:          # on a Dask cluster: the rows come back, R's form made here
        runs.sssp_dists(g, ids, backend=name, out=full_dist, progress=hook)
    else:
        runs.sssp(g, ids, backend=name, out_dist=full_dist, out_pred=full_pred, progress=hook)
        none = full_pred < 0
        full_pred += 1
        full_pred[none] = int(pred_none)
    if pred is not None and source_self:
        full_pred[np.arange(len(ids)), ids] = ids + 1
    if targets is not None:
        np.take(full_dist, targets, axis=1, out=dist)
        if pred is not None:
            np.take(full_pred, targets, axis=1, out=pred)


def scc_into(g, address, r_type, base=1, backend="auto", mode="strong") -> None:
    """Canonical component labels, plus `base` (R counts from 1), into R's 1 x n matrix:
    strongly connected components, or with mode="weak" the components of the graph with
    its directions ignored."""
    if mode not in ("strong", "weak"):
        raise ValueError(f"mode must be 'strong' or 'weak', got {mode!r}")
    out = r_array(address, (1, len(g)), r_type)
    g = view(g, "weak") if mode == "weak" else g
    np.add(scc(g, backend=run_on(backend, "scc")), base, out=out[0], casting="unsafe")
