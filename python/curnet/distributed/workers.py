"""What runs on a worker: the resources it offers a job, and one chunk of a job's sources."""
from __future__ import annotations

import os
import socket

import numpy as np

from . import device_gather
from ..algorithms import bfs as bfs_driver, sssp as sssp_driver
from ..backends import get_backend
from ..errors import BackendUnavailableError
from ..memory import available_host_memory
from .shared_memory import SharedMatrix
from .shipping import worker_graph

KINDS = ("bfs", "sssp", "sssp_dists")
DEVICE = "device"      # a job's result route: kept on the workers' GPUs, copied by the caller


def _describe(worker) -> str:
    return f"{worker.address} (host {worker.ip}, pid {os.getpid()})"


def _worker_backend(backend: str, worker):
    try:
        return get_backend(backend)
    except (BackendUnavailableError, ValueError) as e:   # no GPU; no such GPU ("cuda:7")
        raise BackendUnavailableError(f"Dask worker {_describe(worker)}: {e}") from None


def worker_resources(backend: str, dask_worker=None) -> dict:
    """What a worker offers (client.run on each worker before a job): its backend, or the
    reason it has none, and the memory a chunk may use."""
    try:
        be = _worker_backend(backend, dask_worker)
    except BackendUnavailableError as e:
        return {"error": str(e)}
    host = available_host_memory()
    limit = dask_worker.memory_manager.memory_limit
    if limit:
        host = min(host, int(limit))
    device = bus = None
    if be.name.startswith("cuda"):
        import cupy
        device = int(cupy.cuda.runtime.memGetInfo()[0])
        bus = device_gather.worker_bus() if len(be.members) == 1 else None   # one GPU a worker
    return {"backend": be.name, "host": host, "device": device, "nthreads": dask_worker.state.nthreads,
            "hostname": socket.gethostname(), "bus": bus, "pid": os.getpid()}


def run_chunk(graph, kind: str, ids: np.ndarray, rows, backend: str, unreachable, depth_dtype, reduction,
              shared, sent=None):
    """One chunk of sources on a worker: its result rows (returned, written into the
    caller's SharedMatrix specs `shared` at `rows`, or with shared == DEVICE kept on the GPU
    for the caller to copy), or its reduction's partial. `graph`: a GraphFile or the name of a
    broadcast (`sent`: the broadcast itself, when the chunk came with it)."""
    from distributed import get_worker
    g = worker_graph(graph, sent)
    _worker_backend(backend, get_worker())   # a worker that joined after the job's check
    if reduction is not None and reduction.kind is None:
        return reduction.chunk(g, ids, backend)      # it runs its own traversal
    if shared == DEVICE:
        if kind == "bfs":
            return device_gather.keep_on_device(lambda sink: bfs_driver.bfs_blocks(
                g, ids, sink, backend=backend, unreachable=unreachable, progress=False), depth_dtype)
        return device_gather.keep_on_device(lambda sink: sssp_driver.sssp_blocks(
            g, ids, sink, backend=backend, with_pred=kind == "sssp", progress=False))
    a, b = rows
    outs = [SharedMatrix.open(spec)[a:b] for spec in shared] if shared else [None, None]
    if kind == "bfs":
        depth = outs[0] if shared else np.empty((len(ids), len(g)), dtype=depth_dtype, order="F")
        values, pred = bfs_driver.bfs(g, ids, backend=backend, out=depth, unreachable=unreachable,
                                      progress=False), None
    elif kind == "sssp":
        values, pred = sssp_driver.sssp(g, ids, backend=backend, out_dist=outs[0], out_pred=outs[1],
                                       progress=False)
    else:
        values, pred = sssp_driver.sssp_dists(g, ids, backend=backend, out=outs[0], progress=False), None
    if reduction is not None:
        return reduction.chunk(g, ids, (values, pred) if kind == "sssp" else values)
    return None if shared else (values, pred)
