"""Many-source jobs on a Dask cluster: each worker holds the graph, takes chunks of the sources.

    from curnet import distributed
    cluster = distributed.local_cluster(workers=2)             # or "tcp://host:8786", a Client
    depths = distributed.bfs(g, sources, cluster=cluster)      # (k, n), as curnet.bfs
    distributed.to_parquet(g, sources, "depths.parquet", cluster=cluster)
    ecc = distributed.reduce(g, sources, distributed.per_source("bfs", eccentricity), cluster=cluster)

The work is split across sources only; every worker holds the whole graph, sent once (a
broadcast whose copy each worker keeps for later jobs on the same Graph), or read by each worker
from the same file (`GraphFile`). Chunks are sized to the
smallest worker's memory (its device memory on GPU workers, asked of the worker). A chunk
whose worker dies is re-run on another one by the scheduler (the chunks are pure), so the
result is complete and identical. Needs the `[dask]` extra (dask, distributed; dask-cuda for
one worker per GPU).

The package by concern: `cluster` (Dask, local clusters, clients), `shipping` (the graph on
the workers), `workers` (what runs on a worker: its resources, one chunk), `reductions`
(results reduced on the workers), `shared_memory` (result rows written in place on the
caller's host), `jobs` (a job's chunks, submitted and gathered), `engine` (`ClusterEngine`
and the module's calls). Every name is importable from `curnet.distributed` itself.
"""
from __future__ import annotations

import logging

from ..memory import available_host_memory   # read here by shared_memory: settable, as SHARED_DIR
from ..io.outputs import long_columns
from .cluster import ClusterError, _dask, connect, local_cluster  # noqa: F401 (_dask: the CLI's)
from .engine import ClusterEngine, bfs, reduce, sssp, sssp_dists, to_parquet
from .jobs import CHUNKS_PER_THREAD, MEMORY_SHARE, sources_per_chunk
from .reductions import Reduction, betweenness, measure, per_source, per_vertex
from .shared_memory import SHARED_DIR, SharedMatrix
from .shipping import GraphFile
from .workers import DEVICE, KINDS

log = logging.getLogger("curnet")

__all__ = ["ClusterEngine", "ClusterError", "GraphFile", "Reduction", "SharedMatrix", "betweenness",
           "bfs", "connect", "local_cluster", "measure", "per_source", "per_vertex", "reduce",
           "sources_per_chunk", "sssp", "sssp_dists", "to_parquet", "CHUNKS_PER_THREAD", "DEVICE",
           "KINDS", "MEMORY_SHARE", "SHARED_DIR", "available_host_memory", "long_columns"]
