"""Several GPUs of one host behind one backend name ("cuda:0,1", "cuda:all")."""
from __future__ import annotations

import cupy as cp

from .backend import CUDABackend
from .tuning import CudaTuning


class MultiCUDABackend:
    """Each GPU holds the whole graph and takes a contiguous share of a many-source job's
    sources (BFS, shortest paths), in a thread of its own (`algorithms.common.over_devices`);
    whole-graph work (SCC) and anything else runs on the first GPU. Sources are independent,
    so one host needs no scheduler beyond that split. The GPUs share one CudaTuning."""
    name = "cuda"

    def __init__(self, devices, tuning: CudaTuning | None = None):
        tuning = tuning if tuning is not None else CudaTuning()
        self.members = []
        for d in devices:
            with cp.cuda.Device(d):
                self.members.append(CUDABackend(d, tuning))

    def describe(self) -> str:
        return f"cuda x{len(self.members)} ({', '.join(m.launcher.device_name() for m in self.members)}, " \
               f"CuPy {cp.__version__})"

    def info(self) -> dict:
        infos = [m.info() for m in self.members]
        out = dict(infos[0])
        out["device"] = "; ".join(f"GPU {m.device.id}: {i['device']}" for m, i in zip(self.members, infos))
        out["device_memory"] = "; ".join(f"GPU {m.device.id}: {i['device_memory']}"
                                         for m, i in zip(self.members, infos))
        return out

    def device_scope(self):
        return self.members[0].device_scope()

    def __getattr__(self, attr):
        if attr == "members":                       # not yet set (during __init__)
            raise AttributeError(attr)
        return getattr(self.members[0], attr)
