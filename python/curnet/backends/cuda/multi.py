"""Several GPUs of one host behind one backend name ("cuda:0,1", "cuda:all")."""
from __future__ import annotations

import cupy as cp

from .backend import CUDABackend
from .tuning import CudaTuning


class MultiCUDABackend:
    """Each GPU holds the whole graph and takes a contiguous share of a many-source job's
    sources (BFS, shortest paths), in a thread of its own (`algorithms.common.over_devices`);
    whole-graph work (SCC) runs on the first GPU (`algorithms.common.primary`). Sources are
    independent, so one host needs no scheduler beyond that split. The GPUs share one
    CudaTuning.

    A `contract.Backend`, not a device: it has no primitives of its own. What runs on one GPU
    is asked of a member (`members[i]`)."""
    name = "cuda"

    def __init__(self, devices, tuning: CudaTuning | None = None):
        tuning = tuning if tuning is not None else CudaTuning()
        self._members: list[CUDABackend] = []
        for d in devices:
            with cp.cuda.Device(d):
                self._members.append(CUDABackend(d, tuning))

    @property
    def members(self) -> list[CUDABackend]:
        """One CUDABackend a GPU, in the order the devices were named."""
        return self._members

    @property
    def tuning(self) -> CudaTuning:
        """The knobs every GPU shares (`get_backend("cuda:all").tuning.batch_limit = 64`)."""
        return self._members[0].tuning

    @tuning.setter
    def tuning(self, value: CudaTuning) -> None:
        for m in self._members:
            m.tuning = value

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
        """The first GPU made current for the calling thread."""
        return self._members[0].device_scope()

    def host_result(self, shape: tuple, dtype):
        """As one GPU's (pinned memory is every GPU's under unified addressing)."""
        return self._members[0].host_result(shape, dtype)
