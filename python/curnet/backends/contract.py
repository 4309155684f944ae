"""The backend contract, checked by the type checker (`make typecheck`: mypy over backends/ and
algorithms/) and by tests/python/test_contract.py.

`Backend` is what `get_backend()` returns: a name, a description and its `members`, one
`Device` each. `Device` is exactly what the drivers in `curnet.algorithms` (and the sinks)
call on one device: `cpu.CPUBackend` is its reference (NumPy, each primitive the twin of a
CUDA kernel), `cuda.CUDABackend` its GPU implementation; each is a Backend whose only member
is itself. `cuda.MultiCUDABackend` is a Backend whose members are CUDABackends: the drivers
split a job's sources over `members` (`algorithms.common.over_devices`) and run whole-graph
work on the first (`primary`). Arrays are of the device's array module `xp`.

`hg` is a device's own copy of a graph's arrays (`device_graph`); the fields the drivers
read of it are `GraphArrays`. The primitives take it as `Any`, so that each device's methods
may name its own class (`HostGraph`, `DeviceGraph`)."""
from __future__ import annotations

from typing import Any, Callable, ContextManager, Iterator, Literal, Protocol, Sequence, runtime_checkable

from .partitions import PartitionPrimitives

SsspMethod = Literal["dijkstra", "near_far", "bellman_ford"]
SccMethod = Literal["native", "reachability"]
Array = Any                                   # numpy.ndarray or cupy.ndarray (CuPy has no stubs)


class GraphArrays(Protocol):
    """The fields of a device's graph copy that the drivers read (read-only)."""
    @property
    def n(self) -> int: ...                   # vertices
    @property
    def min_weight(self) -> float: ...        # < 0: Bellman-Ford, and the cycle search
    @property
    def out_ptr(self) -> Array: ...           # CSR offsets (n + 1) of the out-arcs
    @property
    def out_idx(self) -> Array: ...           # heads of the out-arcs, in CSR order
    @property
    def in_ptr(self) -> Array: ...            # offsets (n + 1) of the in-arcs (sorted by head)
    @property
    def in_src(self) -> Array: ...            # tails of the in-arcs
    @property
    def in_dst(self) -> Array: ...            # heads of the in-arcs (non-decreasing)


class Backend(Protocol):
    """What `get_backend()` returns."""
    @property
    def name(self) -> str: ...                # "cpu" or "cuda"
    def describe(self) -> str: ...
    def info(self) -> dict: ...
    @property
    def members(self) -> Sequence[Device]: ...   # one a device ([self] for one device)
    def device_scope(self) -> ContextManager: ...   # the (first) device made current for this thread
    # a new host array (Fortran order) for a call's result: a GPU's small results in pinned
    # memory, which its copies reach at the link's speed
    def host_result(self, shape: tuple, dtype) -> Any: ...


class Device(Backend, Protocol):
    """The primitives of one device, all the drivers call."""
    @property
    def xp(self) -> Any: ...                  # numpy or cupy
    @property
    def max_joint_levels(self) -> int: ...    # a joint BFS batch past this finishes per source
    @property
    def max_bf_rounds(self) -> int | None: ...   # a Bellman-Ford batch past this goes to sp_long

    # data movement and batches
    def device_graph(self, g) -> GraphArrays: ...   # kept with the graph (Graph.cache)
    def to_host(self, a) -> Any: ...
    def output_block(self, view, fill) -> Any: ...
    def finish_block(self, block, view) -> None: ...
    def copy_to_host(self, a, dest) -> None: ...
    def map_batches(self, fn: Callable, batches: list, parallel: bool = True) -> Iterator: ...

    # many-source BFS (algorithms.bfs.traverse)
    def bfs_batch_size(self, n: int, k: int) -> int: ...
    def bits_start(self, hg, ids, depth, unreachable) -> Any: ...
    def bits_level(self, hg, state, depth, level: int) -> bool: ...
    def bits_stop(self, hg, state, depth) -> None: ...
    # int32 depths, -1 unreached; written into `out` (a contiguous (n,) int32 array) when given
    def bfs_one(self, hg, source: int, backward: bool = False, out=None) -> Any: ...
    def any(self, a) -> bool: ...

    # shortest paths (algorithms.sssp): one decision point, then that method's primitives
    def sssp_method(self, hg, kb: int, with_pred: bool) -> SsspMethod: ...
    def sssp_batch_size(self, n: int, k: int, dijkstra: bool) -> int: ...
    def sssp_parallel(self, dijkstra: bool) -> bool: ...
    def sp_start(self, hg, ids, track_pred: bool) -> tuple: ...
    def sp_relax(self, hg, state, active) -> Any: ...
    def sp_preds(self, state) -> Any: ...
    def sp_finish(self, state, with_pred: bool) -> tuple: ...
    def sp_long(self, hg, ids, with_pred: bool) -> tuple: ...
    def pred_has_cycle(self, pred) -> Any: ...

    # strongly connected components (algorithms.scc)
    def scc_method(self, hg) -> SccMethod: ...
    def trim(self, hg, alive, passes: int = 1) -> Any: ...
    def propagate_max(self, hg, values, alive, colors=None, backward: bool = False) -> Any: ...
    def canonical_labels(self, labels) -> Any: ...

    # reductions of a batch's distance block (algorithms.reductions; twins in backends/arrays.py)
    def depth_stats(self, block, upto=None, mindist=0, want=None) -> dict: ...
    def depth_histogram(self, block) -> tuple: ...

    # dense all-pairs products (coexpression): square tiles of pairs reduced where computed,
    # each allocation refused first when it cannot fit (memory.check_fits(..., device=))
    @property
    def pair_tile(self) -> int: ...          # a tile's side: rows (and columns) of pairs at most
    @property
    def memory_name(self) -> str: ...        # where the device's arrays live ("GPU memory"), in messages
    def free_memory(self) -> int: ...        # bytes the device's next allocations may use
    def pool_bytes(self) -> int | None: ...  # bytes its memory pool holds (a call's peak); None: no pool
    def stable_argsort(self, a, axis: int = -1) -> Any: ...   # ties keep their order

    # Leiden and Louvain (community_detection): the device's moves (backends/partitions.py)
    def partition_primitives(self) -> PartitionPrimitives: ...

    # hierarchical clustering (analyses.linkage): the device's kernel (square matrix on the
    # device, method) -> (a, b, h) merges; None: the host clusters with SciPy's linkage
    def hclust_chain(self) -> Callable | None: ...
    # (condensed vector on the device, n) -> its square float64 matrix there, for the chain;
    # None where hclust_chain is None
    def hclust_square(self) -> Callable | None: ...

    # betweenness (algorithms.betweenness): Brandes' sweeps over a batch's shortest-path DAGs,
    # (n, kb) blocks of levels, distances (weighted; else None), path counts (then the
    # dependencies) and shares (weight[v] + delta) / sigma (backends/brandes.py)
    def bc_batch_size(self, n: int, k: int, weighted: bool, edges: bool = False) -> int: ...
    # index: the device's own account of a batch's DAGs, found once a batch, which the driver
    # only hands back to the sweeps (opaque; None where the device keeps none). Weighted:
    # bc_levels gives (the DAG levels of a distance block, its index); BFS levels:
    # bc_level_index. bc_pushes: whether BFS level `at` is swept from level `other`'s end
    # (`push`: the same values, another direction), the device's choice from its index
    def bc_levels(self, hg, dist) -> tuple: ...
    def bc_level_index(self, hg, level) -> Any: ...
    def bc_pushes(self, index, at: int, other: int) -> bool: ...
    def bc_sigma_level(self, hg, level, dist, sigma, at: int, push: bool = False, index=None) -> None: ...
    def bc_delta_level(self, hg, level, dist, sigma, share, weight, at: int, push: bool = False,
                       index=None) -> None: ...
    def bc_edge_dependency(self, hg, level, dist, sigma, share, out) -> None: ...


# Primitives a device has only where its sssp_method / scc_method can name them: the driver
# asks the method, then checks the device has the primitive (isinstance) before calling it.
@runtime_checkable
class Dijkstra(Protocol):
    def dijkstra(self, hg, ids, with_pred: bool) -> tuple: ...      # sssp_method "dijkstra"


@runtime_checkable
class NearFar(Protocol):
    def near_far(self, hg, ids, with_pred: bool) -> tuple: ...      # sssp_method "near_far"


@runtime_checkable
class SccLabels(Protocol):
    def scc_labels(self, hg) -> Any: ...      # scc_method "native"; None: past its limits, the driver's
