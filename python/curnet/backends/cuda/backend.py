"""The CUDA backend: the primitives of `backends.contract.Backend` on one GPU, each with the
contract of its NumPy twin in `cpu.CPUBackend`, delegated to the strategy objects of this
package (bfs, sssp, near_far, scc) over one `Launcher`, with the batch scheduling and the
host copies of `batches` / `transfers`.

What the GPU does not do well is routed, measured, to the host: graphs whose BFS or
Bellman-Ford needs thousands of levels (a path of a million vertices) run on the host's
compiled SciPy routines once a traversal has shown it is long (`CudaTuning.long_levels`).
"""
from __future__ import annotations

import numpy as np
import cupy as cp

from ..arrays import pred_has_cycle
from ..contract import SccMethod, SsspMethod
from ..host_routes import HostRoutes
from .batches import BatchRunner, CallState, Counters
from .bfs import BfsStrategy
from .hclust import nn_chain, square_of_condensed
from .brandes import BrandesSweeps
from .launch import DeviceGraph, Launcher, build_device_graph, mark_long_diameter
from .leiden import CudaMoves
from .near_far import NearFar
from .reduce import DepthReductions
from .scc import SccPrimitives
from .sssp import BellmanFord, SPState
from .transfers import PinnedResults
from .tuning import CudaTuning


class CUDABackend:
    name = "cuda"
    xp = cp
    # The bit traversal's levels are cheap on the GPU; a batch past this many levels is a
    # long-diameter graph and is finished per source by `bfs_one` (which goes to the host).
    max_joint_levels = 256
    # co-expression's tiles: 8192 x 8192 pairs (512 MiB of doubles) keep the GPU busy a product
    pair_tile = 8192
    memory_name = "GPU memory"

    def __init__(self, device: int | None = None, tuning: CudaTuning | None = None):
        self.launcher = Launcher(device if device is not None else cp.cuda.runtime.getDevice())
        self.device = self.launcher.device
        self.props, self.sms, self.max_blocks = self.launcher.props, self.launcher.sms, self.launcher.max_blocks
        # Bellman-Ford rounds and arcs relaxed, push levels, batches split after running out of memory ("splits"), ...
        self.stats = Counters(rounds=0, arcs=0)
        self._call = CallState()                  # the calling thread's state (see batches.py)
        self._cpu: HostRoutes | None = None
        self.batches = BatchRunner(self.device, None, self._call, self.stats)
        self.bfs_strategy = BfsStrategy(self.launcher, None, self.stats, self.cpu)
        self.bf_strategy = BellmanFord(self.launcher, None, self.stats, self._call)
        self.nf_strategy = NearFar(self.launcher, None, self.stats, self.sp_long)
        self.scc_strategy = SccPrimitives(self.launcher, None, self.stats)
        self.reductions = DepthReductions(self.launcher)
        self.brandes = BrandesSweeps(self.launcher)
        self.pinned_results = PinnedResults()
        self.tuning = tuning if tuning is not None else CudaTuning()

    @property
    def tuning(self) -> CudaTuning:
        """The knobs of this backend (change its fields, or set a whole new CudaTuning)."""
        return self._tuning

    @tuning.setter
    def tuning(self, value: CudaTuning) -> None:
        self._tuning = value
        for part in (self.batches, self.bfs_strategy, self.bf_strategy, self.nf_strategy, self.scc_strategy):
            part.tuning = value

    # -- description ----------------------------------------------------------
    def describe(self) -> str:
        return f"cuda ({self.launcher.device_name()}, CuPy {cp.__version__})"

    def info(self) -> dict:
        free, total = cp.cuda.runtime.memGetInfo()
        rt = cp.cuda.runtime.runtimeGetVersion()
        drv = cp.cuda.runtime.driverGetVersion()
        cc = f"{self.props['major']}.{self.props['minor']}"
        return {"backend": "cuda", "device": f"{self.launcher.device_name()} (compute capability {cc}, "
                f"{self.sms} SMs)", "device_memory": f"{total / 2**30:.1f} GiB ({free / 2**30:.1f} GiB free)",
                "cupy": cp.__version__, "cuda_runtime": f"{rt // 1000}.{(rt % 1000) // 10}",
                "cuda_driver": f"{drv // 1000}.{(drv % 1000) // 10}"}

    @property
    def members(self) -> list[CUDABackend]:
        return [self]

    def device_scope(self):
        """This backend's GPU made current for the calling thread (a context manager). A new
        Device object each time: CuPy keeps the device to restore in the object, so threads
        must not share one."""
        return cp.cuda.Device(self.device.id)

    def partition_primitives(self) -> CudaMoves:
        """Leiden's and Louvain's moves (community_detection): kernels/leiden.cu."""
        return CudaMoves(self.launcher)

    def hclust_chain(self):
        """hclust's nearest-neighbour chain over a square matrix on this GPU (kernels/hclust.cu)."""
        return nn_chain

    def hclust_square(self):
        """A condensed dissimilarity's square on this GPU, one kernel (kernels/hclust.cu)."""
        return square_of_condensed

    def free_memory(self) -> int:
        return self.launcher.free_memory()

    def pool_bytes(self) -> int:
        """What CuPy's pool holds: every block it has handed out, so a call's peak."""
        return int(cp.get_default_memory_pool().total_bytes())

    def stable_argsort(self, a, axis: int = -1):
        return cp.argsort(a, axis=axis)          # CuPy's sort is always stable (and takes no kind)

    def cpu(self) -> HostRoutes:
        """The host's routes for long-diameter graphs (SciPy over the graph's host copy)."""
        if self._cpu is None:
            self._cpu = HostRoutes()
        return self._cpu

    # -- data movement --------------------------------------------------------
    def device_graph(self, g) -> DeviceGraph:
        """The graph's arrays on this backend's GPU (built once, kept with the graph)."""
        def build():
            with self.device_scope():
                return build_device_graph(self.launcher, g, self.tuning.heavy_degree)
        return g.cache(f"cuda:{self.device.id}", build)

    def to_host(self, a) -> np.ndarray:
        return cp.asnumpy(a) if isinstance(a, cp.ndarray) else np.asarray(a)

    def host_result(self, shape: tuple, dtype) -> np.ndarray:
        """A result of `pinned_result_min` to `pinned_result_max` bytes in pinned memory while
        the pinned results alive stay within `pinned_live_max` (transfers.PinnedResults), so
        the copy back runs at the link's speed rather than through the staging buffers into
        pageable memory; others, or where the host refuses to pin more, pageable."""
        with self.device_scope():
            a = self.pinned_results.empty(shape, dtype, self.tuning)
        return a if a is not None else np.empty(shape, dtype=dtype, order="F")

    def output_block(self, view: np.ndarray, fill):
        """A device (n, kb) block, C-ordered, in the dtype of the caller's view. Not filled:
        every traversal path writes each entry, unreachable ones included (saves a pass)."""
        return cp.empty(view.shape, dtype=view.dtype)

    def finish_block(self, block, view: np.ndarray) -> None:
        """Copy a finished block into the caller's host view (straight in when contiguous)."""
        self.batches.to_host(block, view)

    def copy_to_host(self, a, dest: np.ndarray) -> None:
        """a (kb, n) on the device into dest (kb, n) on the host, any layout."""
        if dest.strides[0] < dest.strides[1]:      # column-major (rows of an F-ordered matrix too)
            self.batches.to_host(cp.ascontiguousarray(a.T).astype(dest.dtype, copy=False), dest.T)
        else:
            self.batches.to_host(a.astype(dest.dtype, copy=False), dest)

    def map_batches(self, fn, batches, parallel: bool = True):
        """See batches.BatchRunner.map_batches (batches run in turn on the GPU)."""
        return self.batches.map_batches(fn, batches)

    # -- many-source BFS ------------------------------------------------------
    def bfs_batch_size(self, n: int, k: int) -> int:
        return self.bfs_strategy.batch_size(n, k)

    def bits_start(self, hg: DeviceGraph, ids, depth, unreachable) -> dict:
        return self.bfs_strategy.bits_start(hg, ids, depth, unreachable)

    def bits_level(self, hg: DeviceGraph, st: dict, depth, level: int) -> bool:
        return self.bfs_strategy.bits_level(hg, st, depth, level)

    def bits_stop(self, hg: DeviceGraph, st: dict, depth) -> None:
        """Ends a joint traversal before it ran out of vertices: the depths of its levels so far."""
        self.bfs_strategy.flush_depths(st, depth)

    def bfs_one(self, hg: DeviceGraph, source: int, backward: bool = False, out=None) -> cp.ndarray:
        return self.bfs_strategy.bfs_one(hg, source, backward, out)

    def any(self, a) -> bool:
        return self.bf_strategy.any(a)

    # -- shortest paths -------------------------------------------------------
    @property
    def max_bf_rounds(self) -> int:
        return self.tuning.long_levels

    def sssp_method(self, hg: DeviceGraph, kb: int, with_pred: bool) -> SsspMethod:
        """"near_far" (non-negative float32 or float64 weights, few sources: each arc relaxed
        ~1-2 times instead of Bellman-Ford's ~5; see gpu_routes.near_far_suits) or
        "bellman_ford" (negative weights; float32 predecessors over zero weights)."""
        return "near_far" if self.nf_strategy.suits(hg, kb, with_pred) else "bellman_ford"

    def sssp_batch_size(self, n: int, k: int, dijkstra: bool) -> int:
        return self.bf_strategy.batch_size(n, k)

    def sssp_parallel(self, dijkstra: bool) -> bool:
        return False

    def near_far(self, hg: DeviceGraph, ids, with_pred: bool):
        """(dist, pred or None), (kb, n) on the device: near-far SSSP (non-negative weights)."""
        return self.nf_strategy.run(hg, ids, with_pred)

    def sp_start(self, hg: DeviceGraph, ids, track_pred: bool):
        return self.bf_strategy.start(hg, ids, track_pred)

    def sp_relax(self, hg: DeviceGraph, state: SPState, active) -> cp.ndarray:
        return self.bf_strategy.relax(hg, state, active)

    def sp_preds(self, state: SPState):
        return self.bf_strategy.preds(state)

    def sp_finish(self, state: SPState, with_pred: bool):
        return self.bf_strategy.finish(state, with_pred)

    def sp_long(self, hg: DeviceGraph, ids, with_pred: bool):
        """A batch on a long-diameter graph, finished on the host by SciPy (see long_levels)."""
        mark_long_diameter(hg, "a shortest-path batch")
        host = self.cpu()
        dist, pred = host.shortest_paths_host(host.device_graph(hg.graph), ids, with_pred)
        return cp.asarray(dist), (cp.asarray(pred) if pred is not None else None)

    def pred_has_cycle(self, pred) -> cp.ndarray:
        return pred_has_cycle(cp, pred)

    # -- strongly connected components ----------------------------------------
    def scc_method(self, hg: DeviceGraph) -> SccMethod:
        """"native" (the driver's steps in one launch, scc_labels) on graphs of at most
        tuning.scc_one_launch_arcs arcs, else "reachability" (the driver over the primitives
        below)."""
        if self.tuning.device_loops and hg.n and hg.m <= self.tuning.scc_one_launch_arcs:
            return "native"
        return "reachability"

    def scc_labels(self, hg: DeviceGraph) -> cp.ndarray | None:
        return self.scc_strategy.labels_in_one_launch(hg)

    def trim(self, hg: DeviceGraph, alive, passes: int = 1) -> cp.ndarray:
        return self.scc_strategy.trim(hg, alive, passes)

    def propagate_max(self, hg: DeviceGraph, values, alive, colors=None, backward: bool = False):
        return self.scc_strategy.propagate_max(hg, values, alive, colors, backward)

    def canonical_labels(self, labels) -> np.ndarray:
        return self.scc_strategy.canonical_labels(labels)

    # -- reductions of a batch's result block (algorithms.reductions) -----------
    def depth_stats(self, block, upto=None, mindist=0, want=None) -> dict:
        return self.reductions.stats(block, upto, mindist, want)

    def depth_histogram(self, block) -> tuple:
        return self.reductions.histogram(block)

    # -- betweenness (algorithms.betweenness): kernels/betweenness.cu -----------------------
    def bc_batch_size(self, n: int, k: int, weighted: bool, edges: bool = False) -> int:
        traversal = self.sssp_batch_size(n, k, False) if weighted else self.bfs_batch_size(n, k)
        return self.brandes.batch_size(n, k, weighted, traversal, edges)

    def bc_levels(self, hg: DeviceGraph, dist) -> tuple:
        return self.brandes.levels(hg, dist), None     # the weighted sweeps take no index

    def bc_level_index(self, hg: DeviceGraph, level):
        return self.brandes.level_index(hg, level)

    def bc_pushes(self, index, at: int, other: int) -> bool:
        return self.brandes.pushes(index, at, other)

    def bc_sigma_level(self, hg: DeviceGraph, level, dist, sigma, at: int, push: bool = False,
                       index=None) -> None:
        self.brandes.sigma_level(hg, level, dist, sigma, at, push, index)

    def bc_delta_level(self, hg: DeviceGraph, level, dist, sigma, share, weight, at: int,
                       push: bool = False, index=None) -> None:
        self.brandes.delta_level(hg, level, dist, sigma, share, weight, at, push, index)

    def bc_edge_dependency(self, hg: DeviceGraph, level, dist, sigma, share, out) -> None:
        self.brandes.edge_dependency(hg, level, dist, sigma, share, out)
