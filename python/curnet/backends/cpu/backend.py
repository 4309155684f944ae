"""The CPU backend: NumPy twins of every primitive, plus SciPy's compiled routes.

Each primitive here is the reference contract its CUDA kernel must match. `CPUBackend`
delegates each concern to the modules of this package, as `cuda.CUDABackend` does to its
strategies: the thread plan (`batches`), BFS (`bfs`), Bellman-Ford (`sssp`), strong
components (`scc`), betweenness's sweeps (`brandes`); and to the modules shared with the
CUDA backend's host route: the graph's host copy and cached SciPy views (`hostgraph`), the
whole-source routes of long-diameter graphs (`host_routes`). Where SciPy's `csgraph` is
faster for a whole algorithm (Dijkstra for non-negative SSSP, Pearce's SCC, one-source BFS on
long-diameter graphs), `CPUBackend` routes there; the choice was measured (see PERFORMANCE
notes in the README) and the NumPy twins stay exercised by the tests.
"""
from __future__ import annotations

import contextlib
import os

import numpy as np

from ... import memory
from .. import host_routes
from ..arrays import canonical_labels, depth_histogram, depth_stats, padding_bits, pred_has_cycle
from ..contract import SccMethod, SsspMethod
from ..hostgraph import HostGraph, host_graph
from . import bfs, brandes, scc, sssp
from .batches import ThreadPlan
from .leiden import CpuMoves


class CPUBackend:
    name = "cpu"
    xp = np
    # A joint BFS batch that has run this many levels switches to per-source
    # traversal: on long-diameter graphs the per-level cost is mostly overhead.
    max_joint_levels = 256
    # co-expression's tiles: 2048 x 2048 pairs (32 MiB of doubles) stay in the caches' reach
    pair_tile = 2048
    memory_name = "host memory"

    def __init__(self, workers: int | None = None):
        self.plan = ThreadPlan(workers or int(os.environ.get("CURNET_THREADS", 0)) or os.cpu_count() or 1)

    @property
    def workers(self) -> int:
        return self.plan.workers

    # the thread plan (batches.py); the BFS levels call these on the backend
    def level_threads(self) -> int:
        return self.plan.level_threads()

    def over_ranges(self, fn, ranges) -> None:
        self.plan.over_ranges(fn, ranges)

    def describe(self) -> str:
        # SciPy's version from its metadata: R describes the backend on every call, and SciPy
        # is imported by the routes that use it, at their first call
        from importlib.metadata import version
        return f"cpu (NumPy {np.__version__}, SciPy {version('scipy')}, {self.workers} threads)"

    def info(self) -> dict:
        return {"backend": "cpu", "device": f"CPU, {os.cpu_count()} cores", "threads": self.workers}

    @property
    def members(self) -> list[CPUBackend]:
        return [self]

    def device_scope(self):
        return contextlib.nullcontext()

    def partition_primitives(self) -> CpuMoves:
        """Leiden's and Louvain's moves (community_detection): the NumPy/SciPy twins."""
        return CpuMoves()

    def hclust_chain(self) -> None:
        """No device kernel for hclust: analyses.linkage clusters with SciPy's linkage."""
        return None

    def hclust_square(self) -> None:
        """No square either: SciPy's linkage takes the condensed vector as it is."""
        return None

    def free_memory(self) -> int:
        """The CPU's arrays are the host's: its available memory."""
        return memory.available_host_memory()

    def pool_bytes(self) -> None:
        """NumPy keeps no pool of its own."""
        return None

    def stable_argsort(self, a: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.argsort(a, axis=axis, kind="stable")

    # -- data movement --------------------------------------------------------
    def device_graph(self, g) -> HostGraph:
        return host_graph(g)

    def to_host(self, a) -> np.ndarray:
        return a

    def host_result(self, shape: tuple, dtype) -> np.ndarray:
        return np.empty(shape, dtype=dtype, order="F")

    def output_block(self, view: np.ndarray, fill) -> np.ndarray:
        """Where a batch's (n, kb) result is computed: on the CPU, the caller's buffer itself."""
        view[...] = fill
        return view

    def finish_block(self, block, view) -> None:
        """Nothing to move: `output_block` handed out the result buffer itself."""

    def copy_to_host(self, a: np.ndarray, dest: np.ndarray) -> None:
        np.copyto(dest, a, casting="same_kind")

    def map_batches(self, fn, batches, parallel: bool = True):
        """Run `fn` on each batch, several at a time when `parallel` (for work that releases
        the GIL: NumPy's gathers and reductions do, SciPy's Dijkstra does not)."""
        return self.plan.map_batches(fn, batches, parallel)

    def bfs_batch_size(self, n: int, k: int) -> int:
        # 512 sources (8 words a vertex) keeps a level's gathered words in cache-sized
        # pieces and leaves several batches to spread over the threads (measured on scNET).
        return 512

    # -- many-source BFS primitives (bfs.py) ----------------------------------
    def seed_bits(self, n: int, sources: np.ndarray) -> np.ndarray:
        return bfs.seed_bits(n, sources)

    def padding_bits(self, k: int) -> np.ndarray:
        return padding_bits(k)

    def expand_bits(self, hg: HostGraph, frontier: np.ndarray, seen: np.ndarray) -> np.ndarray:
        return bfs.expand_bits(self, hg, frontier, seen)

    def bits_start(self, hg: HostGraph, ids: np.ndarray, depth: np.ndarray, unreachable=-1):
        """(depth is pre-set to `unreachable` by output_block here.)"""
        return bfs.bits_start(hg, ids)

    def bits_level(self, hg: HostGraph, state, depth: np.ndarray, level: int) -> bool:
        return bfs.bits_level(self, hg, state, depth)

    def bits_stop(self, hg: HostGraph, state, depth: np.ndarray) -> None:
        """Ends a joint traversal before it ran out of vertices: the depths of its levels so far."""
        bfs.depths_from_history(self, state[2], depth)

    def depths_from_history(self, history: list, depth: np.ndarray) -> None:
        bfs.depths_from_history(self, history, depth)

    def canonical_labels(self, labels: np.ndarray) -> np.ndarray:
        return canonical_labels(labels)

    # -- reductions of a batch's result block (algorithms.reductions) -------
    def depth_stats(self, block: np.ndarray, upto=None, mindist=0, want=None) -> dict:
        return depth_stats(np, block, upto, mindist, *([want] if want else []))

    def depth_histogram(self, block: np.ndarray) -> tuple:
        return depth_histogram(np, block)

    def any(self, a) -> bool:
        return bool(a.any())

    def bfs_one(self, hg: HostGraph, source: int, backward: bool = False, out=None) -> np.ndarray:
        """Depths from one source through SciPy's compiled BFS (long-diameter route); into
        `out` (an (n,) int32 array, returned) when given."""
        depth = host_routes.bfs_one(hg, source, backward)
        if out is None:
            return depth
        out[...] = depth
        return out

    # -- shortest-path primitives -------------------------------------------
    def sssp_method(self, hg: HostGraph, kb: int, with_pred: bool) -> SsspMethod:
        """"dijkstra" (sssp.dijkstra) for non-negative weights, else "bellman_ford"."""
        return "dijkstra" if hg.min_weight >= 0 else "bellman_ford"

    def sssp_batch_size(self, n: int, k: int, dijkstra: bool) -> int:
        return 64

    def sssp_parallel(self, dijkstra: bool) -> bool:
        """Batches on the threads: the compiled Dijkstra and Bellman-Ford's NumPy release the
        GIL (SciPy's Dijkstra, small batches' route, holds it: those batches take turns)."""
        return True

    def dijkstra(self, hg: HostGraph, sources: np.ndarray, with_pred: bool):
        """Non-negative weights: sssp.dijkstra (dist (k, n) in the weight dtype, pred or None)."""
        return sssp.dijkstra(hg, sources, with_pred)

    def relax(self, hg: HostGraph, dist: np.ndarray, pred: np.ndarray | None,
              active: np.ndarray) -> np.ndarray:
        return sssp.relax(hg, dist, pred, active)

    # Bellman-Ford batch state: the drivers go through these so that a backend may keep its
    # own representation (the CUDA backend packs distance and predecessor in one word).
    # A batch still relaxing after this many rounds is on a long-diameter graph: `sp_long`
    # finishes it per source, at a cost that follows the relaxations, not rounds x n.
    max_bf_rounds = 256

    def sp_start(self, hg: HostGraph, ids: np.ndarray, track_pred: bool):
        """Predecessors are kept whatever track_pred says (the CPU twin always tracks them)."""
        return sssp.sp_start(hg, ids)

    def sp_relax(self, hg: HostGraph, state, active: np.ndarray) -> np.ndarray:
        return self.relax(hg, state[0], state[1], active)

    def sp_preds(self, state):
        return state[1]

    def sp_finish(self, state, with_pred: bool):
        return state[0], (state[1] if with_pred else None)

    def sp_long(self, hg: HostGraph, ids: np.ndarray, with_pred: bool):
        return self.shortest_paths_host(hg, ids, with_pred)

    def shortest_paths_host(self, hg: HostGraph, ids: np.ndarray, with_pred: bool):
        return host_routes.shortest_paths_host(hg, ids, with_pred)

    def pred_has_cycle(self, pred: np.ndarray) -> np.ndarray:
        return pred_has_cycle(np, pred)

    # -- SCC primitives ----------------------------------------------------
    def scc_method(self, hg: HostGraph) -> SccMethod:
        """"native": `scc_labels` (Pearce's algorithm in SciPy) labels the whole graph."""
        return "native"

    def scc_labels(self, hg: HostGraph) -> np.ndarray:
        return scc.scc_labels(hg)

    def trim(self, hg: HostGraph, alive: np.ndarray, passes: int = 1) -> np.ndarray:
        return scc.trim(hg, alive, passes)

    def propagate_max(self, hg: HostGraph, values: np.ndarray, alive: np.ndarray,
                      colors: np.ndarray | None = None, backward: bool = False) -> np.ndarray:
        return scc.propagate_max(hg, values, alive, colors, backward)

    # -- betweenness (algorithms.betweenness): the NumPy twins of kernels/betweenness.cu ------
    def bc_batch_size(self, n: int, k: int, weighted: bool, edges: bool = False) -> int:
        # sigma and delta are float64 (n, kb) blocks: 64 sources keep them cache-friendly on
        # small networks and leave batches for the worker threads
        return 64

    def bc_levels(self, hg: HostGraph, dist: np.ndarray) -> tuple:
        # a weighted batch's DAG arcs, found for Kahn's order, serve all its level sweeps
        return brandes.dag_levels(hg, dist)

    def bc_level_index(self, hg: HostGraph, level) -> None:
        # BFS levels: SciPy's products sweep a level whole (no direction, no task lists)
        return None

    def bc_pushes(self, index, at: int, other: int) -> bool:
        # a product has no direction to choose
        return False

    def bc_sigma_level(self, hg: HostGraph, level, dist, sigma, at: int, push: bool = False,
                       index=None) -> None:
        brandes.sigma_level(hg, level, dist, sigma, at, index)

    def bc_delta_level(self, hg: HostGraph, level, dist, sigma, share, weight, at: int,
                       push: bool = False, index=None) -> None:
        brandes.delta_level(hg, level, dist, sigma, share, weight, at, index)

    def bc_edge_dependency(self, hg: HostGraph, level, dist, sigma, share, out) -> None:
        brandes.edge_dependency(hg, level, dist, sigma, share, out)
