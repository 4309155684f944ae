"""The engine: curnet's many-source calls (bfs, sssp, sssp_dists), reductions and Parquet
output run on a Dask cluster (ClusterEngine), and the module's calls, each an engine for the
given cluster."""
from __future__ import annotations

import os

import numpy as np

from . import device_gather
from ..algorithms.bfs import OUT_DTYPES
from ..algorithms.common import result_buffer
from ..io.outputs import long_columns
from .cluster import connect
from .jobs import Job
from .reductions import Reduction
from .shipping import GraphFile, release
from .workers import DEVICE, KINDS


class ClusterEngine:
    """The many-source calls of curnet (bfs, sssp, sssp_dists) run on a Dask cluster, with the
    same signatures plus `chunk_size` (sources a chunk; None: sized to the workers' memory)
    and `shared_memory` (None: GPU workers on this host keep their chunks on the device and
    the caller copies them into its result, CUDA IPC; other workers on this host write the
    result in place, through /dev/shm, when it has room; True: shared memory required; False:
    rows always come over the network). `route` says how the last job's rows came."""

    def __init__(self, cluster=None, *, timeout: float = 30):
        self.client = connect(cluster, timeout=timeout)
        self.route = None      # how the last job's rows reached the caller (shared memory or network)

    def bfs(self, g, sources, *, backend="auto", out=None, unreachable=-1, progress=None, chunk_size=None,
            shared_memory=None):
        if out is not None and getattr(out, "dtype", None) not in OUT_DTYPES:
            raise TypeError("out must be a NumPy array of int32, int64, float32 or float64")
        job = Job(self.client, g, sources, "bfs", backend, chunk_size, unreachable,
                   depth_dtype=np.int32 if out is None else out.dtype)
        return self._gather(job, [(out, job.depth_dtype, "the BFS depth matrix")], progress, shared_memory)[0]

    def sssp(self, g, sources, *, backend="auto", out_dist=None, out_pred=None, progress=None, chunk_size=None,
             shared_memory=None):
        job = Job(self.client, g, sources, "sssp", backend, chunk_size)
        return tuple(self._gather(job, [(out_dist, job.g.weight_dtype, "the distance matrix"),
                                        (out_pred, np.int32, "the predecessor matrix")], progress, shared_memory))

    def sssp_dists(self, g, sources, *, backend="auto", out=None, progress=None, chunk_size=None,
                   shared_memory=None):
        job = Job(self.client, g, sources, "sssp_dists", backend, chunk_size)
        return self._gather(job, [(out, job.g.weight_dtype, "the distance matrix")], progress, shared_memory)[0]

    def _gather(self, job, wanted, progress, shared_memory):
        """The job's result matrices, [(caller's out or None, dtype, what)] each, in source
        order. GPU workers on this host keep their chunks on the device and the caller copies
        them (device_gather); other workers on this host write into shared memory (the result
        itself when the caller gave no `out`); the rest send their rows, written as each chunk
        arrives."""
        shape = (len(job.ids), len(job.g))
        outs: list = [None if out is None else result_buffer(out, shape, dtype, what) for out, dtype, what in wanted]
        if job.device_route(shared_memory):
            self.route = job.route
            outs = [o if o is not None else result_buffer(None, shape, d, what)
                    for o, (_, d, what) in zip(outs, wanted)]
            copies = device_gather.DeviceCopies(job.kind, outs, job.ids)
            try:
                for i, chunk in job.submit(DEVICE).results(progress, in_order=False):
                    copies.submit(job.bounds[i][0], chunk)
                    copies.release_done(self.client)
                copies.release_done(self.client, wait=True)
            finally:
                copies.close(self.client)
            return outs
        shared = job.shared_results([out.dtype if out is not None else np.dtype(dtype)
                                     for out, (_, dtype, _) in zip(outs, wanted)], shared_memory)
        self.route = job.route
        if shared is None:
            outs = [o if o is not None else result_buffer(None, shape, d, what)
                    for o, (_, d, what) in zip(outs, wanted)]
        try:
            for i, rows in job.submit(shared).results(progress, in_order=False):
                a, b = job.bounds[i]
                for j, out in enumerate(outs):
                    if shared is None:
                        out[a:b] = rows[j]
                    elif out is not None:
                        out[a:b] = shared[j].array[a:b]
        finally:
            for m in shared or ():
                m.unlink()
        if shared is not None:
            outs = [o if o is not None else m.array for o, m in zip(outs, shared)]
        return outs

    def reduce(self, g, sources, reduction: Reduction, *, backend="auto", progress=None, chunk_size=None):
        """`reduction` computed on the workers: each chunk's partial, combined in source order.
        `sources` None: every vertex, in vertex order. Where the reduction gives its sources
        unlike costs (betweenness: the leaves folding into a column cost nothing), the chunks
        are cut to equal costs, as many as `chunk_size` would make."""
        if sources is None:
            sources = np.arange(len(g.load() if isinstance(g, GraphFile) else g), dtype=np.int32)
        job = Job(self.client, g, sources, reduction.kind, backend, chunk_size, reduction=reduction)
        return reduction.combine([p for _, p in job.submit().results(progress, in_order=True)])

    def release(self, g) -> int:
        """Free the workers' copies of `g` (a Graph or GraphFile) and their device memory now.
        Each worker keeps the graphs of its latest jobs (shipping.KEPT_GRAPHS) for the next
        job on the same graph; a later job on `g` sends it again. Returns the number of
        workers that held a copy."""
        return release(self.client, g)

    def to_parquet(self, g, sources, path, kind="bfs", *, backend="auto", progress=None, chunk_size=None) -> int:
        """Stream the result to a Parquet file in long format, one row group a chunk in source
        order: columns source, target, the value (`bfs` hops or `sssp` distance) and, for
        kind="sssp", predecessor; reachable pairs only. Returns the number of rows written."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        job = Job(self.client, g, sources, kind, backend, chunk_size)
        writer, rows = None, 0
        try:
            for i, (values, pred) in job.submit().results(progress, in_order=True):
                a, b = job.bounds[i]
                table = pa.table(long_columns(job.g, job.ids[a:b], values, pred, kind))
                if writer is None:
                    writer = pq.ParquetWriter(os.fspath(path), table.schema)
                writer.write_table(table)
                rows += table.num_rows
        finally:
            if writer is not None:
                writer.close()
        return rows


# -- the module's calls: an engine for the given cluster --------------------------------------

def bfs(g, sources, *, cluster=None, **kwargs):
    """curnet.bfs on a Dask cluster (see ClusterEngine.bfs); `g` a Graph or a GraphFile."""
    return ClusterEngine(cluster).bfs(g, sources, **kwargs)


def sssp(g, sources, *, cluster=None, **kwargs):
    """curnet.sssp on a Dask cluster: (dist, pred)."""
    return ClusterEngine(cluster).sssp(g, sources, **kwargs)


def sssp_dists(g, sources, *, cluster=None, **kwargs):
    """curnet.sssp_dists on a Dask cluster."""
    return ClusterEngine(cluster).sssp_dists(g, sources, **kwargs)


def reduce(g, sources, reduction: Reduction, *, cluster=None, **kwargs):
    """A Reduction computed on the workers of a Dask cluster."""
    return ClusterEngine(cluster).reduce(g, sources, reduction, **kwargs)


def to_parquet(g, sources, path, kind="bfs", *, cluster=None, **kwargs) -> int:
    """Stream a many-source result from a Dask cluster to Parquet (ClusterEngine.to_parquet)."""
    return ClusterEngine(cluster).to_parquet(g, sources, path, kind, **kwargs)
