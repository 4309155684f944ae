"""The CUDA backend (CuPy), a package by concern:

    launch.py     compiling and launching kernels/*.cu, the graph on the device (DeviceGraph)
    transfers.py  device -> host copies: pinned staging, the copy thread
    batches.py    a job's batches on one GPU: OOM splitting, overlapped copies, per-call state
    bfs.py        BFS: the joint bit traversal and the one-source direction-optimizing BFS
    sssp.py       frontier Bellman-Ford (packed and Jacobi rounds, edge classes)
    near_far.py   near-far SSSP (non-negative float32 or float64 weights, few sources)
    scc.py        SCC primitives (trim, max-label propagation, canonical labels) and small
                  graphs' whole SCC in one cooperative launch
    backend.py    CUDABackend: the contract's primitives, delegated to the above
    multi.py      MultiCUDABackend: several GPUs of one host
    tuning.py     CudaTuning: the knobs, one set per backend

Importing it needs CuPy; `curnet.backends.get_backend` imports it only when a GPU is asked for.
"""
try:
    import cupy  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the machine
    raise ImportError("curnet's CUDA backend needs CuPy (pip install 'curnet[gpu]', or the cupy-cudaXXx "
                      f"wheel for your CUDA version): {e}") from e

from .backend import CUDABackend
from .launch import DeviceGraph, KernelError, kernel
from .multi import MultiCUDABackend
from .sssp import CLASS_IN_ONE, CLASS_SINK
from .tuning import CudaTuning

# not `launch` the function: it would hide the module launch.py (curnet.backends.cuda.launch)
__all__ = ["CUDABackend", "MultiCUDABackend", "CudaTuning", "DeviceGraph", "KernelError", "kernel",
           "CLASS_SINK", "CLASS_IN_ONE"]
