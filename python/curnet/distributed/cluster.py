"""The Dask cluster a job runs on: Dask imported on demand, local clusters started, clients
connected once an address."""
from __future__ import annotations

import os

from ..errors import BackendUnavailableError


class ClusterError(RuntimeError):
    """No Dask cluster could be used: none given, or its scheduler cannot be reached."""


def _dask():
    try:
        import distributed
    except ImportError:
        raise ImportError("curnet.distributed needs Dask: pip install 'curnet[dask]' "
                          "(dask and distributed)") from None
    return distributed


def local_cluster(workers: int | None = None, *, gpu: bool = False, threads_per_worker: int = 1,
                  **kwargs):
    """Start a Dask cluster on this machine: `workers` CPU worker processes (LocalCluster), or
    with gpu=True one worker per GPU (dask-cuda's LocalCUDACluster; `workers` GPUs at most).
    Extra keyword arguments go to the cluster class. Close it with .close() when done."""
    distributed = _dask()
    if gpu:
        try:
            from dask_cuda import LocalCUDACluster
        except ImportError:
            raise BackendUnavailableError(
                "a cluster of GPU workers needs dask-cuda (one worker per GPU): "
                "pip install dask-cuda, or use gpu=False for CPU workers") from None
        if workers is not None:
            kwargs.setdefault("n_workers", workers)
        return LocalCUDACluster(threads_per_worker=threads_per_worker, **kwargs)
    kwargs.setdefault("processes", True)
    return distributed.LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                    threads_per_worker=threads_per_worker, **kwargs)


_clients: dict = {}


def connect(cluster=None, *, timeout: float = 30):
    """A distributed.Client for `cluster`: a Client (used as is), a cluster object
    (LocalCluster, LocalCUDACluster), a scheduler address such as "tcp://host:8786", or None
    for the current default client. An address is connected to once and the client reused;
    an unreachable one raises ClusterError after `timeout` seconds."""
    distributed = _dask()
    if isinstance(cluster, distributed.Client):
        return cluster
    if cluster is None:
        try:
            return distributed.default_client()
        except ValueError:
            raise ClusterError("no Dask cluster: pass cluster= a scheduler address "
                               "('tcp://host:8786'), a distributed.Client, or a cluster from "
                               "curnet.distributed.local_cluster()") from None
    if isinstance(cluster, str):
        client = _clients.get(cluster)
        if client is not None and client.status == "running":
            return client
        try:
            client = distributed.Client(cluster, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {cluster!r} within {timeout:g} s "
                               f"({type(e).__name__}: {e}); is `dask scheduler` running there, "
                               "and the port open?") from None
        _clients[cluster] = client
        return client
    if hasattr(cluster, "scheduler_address"):
        key = cluster.scheduler_address
        client = _clients.get(key)
        if client is None or client.status != "running":
            client = _clients[key] = distributed.Client(cluster, set_as_default=False)
        return client
    raise TypeError("cluster must be a distributed.Client, a cluster object or a scheduler "
                    f"address string, not {type(cluster).__name__}")
