"""The R session's engine: where the many-source calls run (this process, or a Dask cluster
after cuRnet_cluster()), and the backend each call from R resolved, which R keeps for
cuRnet_info() (R's the$last_run).

The engine is the one state the R adapters keep, and it belongs to the R session, not to an
analysis: no adapter keeps a result for a later call (a result R fetches in two steps is an
object R holds, see the package's docstring). What a call ran on lives only while the call
runs: R's engine_call opens a record (`begin_call`), the adapter's `run_on` fills it, and R
takes it at the call's end (`end_call`)."""
from __future__ import annotations

import os
import sysconfig
import types
from typing import Any

from ..algorithms.bfs import bfs
from ..algorithms.sssp import sssp, sssp_dists
from ..backends import auto_reason, get_backend
from .handoff import check_result_fits  # noqa: F401  (R's bridge()$check_result_fits: R/modules.R, R/propagation.R)

#: The many-source calls run in this process.
LOCAL = types.SimpleNamespace(bfs=bfs, sssp=sssp, sssp_dists=sssp_dists)


class Session:
    """`engine`: LOCAL or a distributed.ClusterEngine; `local_cluster`: a cluster
    use_cluster started, closed when it is left."""

    def __init__(self):
        self.engine: Any = LOCAL
        self.local_cluster: Any = None


SESSION = Session()

# The records of the calls from R now running, the innermost last (a call made from an R
# callback inside another has its own); empty between calls.
_open_calls: list[dict] = []


def engine():
    """What runs the many-source calls now: LOCAL, or the cluster's engine."""
    return SESSION.engine


def run_on(backend: str, algorithm: str) -> str:
    """The backend a call from R asked for, resolved (an unusable one is an error here) and
    written into the open call's record (with, for "auto", why it chose what it did); returns
    the name asked, which the engine's calls take."""
    be = get_backend(backend)
    if _open_calls:
        record = dict(algorithm=algorithm, asked=backend, backend=be.name, device=be.describe())
        if backend == "auto":
            record["why"] = auto_reason()
        _open_calls[-1] = record
    return backend


def begin_call() -> None:
    """Open the record of one call from R (R's engine_call, before the call)."""
    _open_calls.append({})


def end_call() -> dict:
    """Close the innermost record: what its call ran on (algorithm, asked, backend, device,
    and for "auto" why), or {} for a call that ran no analysis (a graph's construction)."""
    return _open_calls.pop() if _open_calls else {}


def use_cluster(cluster=None, workers=None, gpu=False, timeout=30):
    """Run the many-source calls on a Dask cluster: a scheduler address, or (cluster None,
    workers given) a local cluster of `workers` processes (one a GPU with gpu=True) started
    here; None and None: back to this process. An address not reached within `timeout`
    seconds is an error. Returns the scheduler's address (or None)."""
    from .. import distributed
    if SESSION.local_cluster is not None:
        SESSION.local_cluster.close()
        SESSION.local_cluster = None
    SESSION.engine = LOCAL
    if cluster is None and workers is None:
        return None
    if cluster is None:
        _own_libpython_first()
        cluster = SESSION.local_cluster = distributed.local_cluster(int(workers), gpu=bool(gpu))
    SESSION.engine = distributed.ClusterEngine(cluster, timeout=float(timeout))
    return SESSION.engine.client.scheduler.address


def _own_libpython_first() -> None:
    """Worker processes started from R inherit R's LD_LIBRARY_PATH, whose system library
    folder holds the system's libpython, ahead of this interpreter's own: the workers would
    start on the wrong one. Put this interpreter's library folder first (kept for the
    workers a nanny restarts later)."""
    libdir = sysconfig.get_config_var("LIBDIR")
    if not (sysconfig.get_config_var("Py_ENABLE_SHARED") and libdir):
        return
    paths = os.environ.get("LD_LIBRARY_PATH", "")
    if paths.split(":")[0] != libdir:
        os.environ["LD_LIBRARY_PATH"] = libdir + (":" + paths if paths else "")
