"""The CPU backend: NumPy twins of every primitive, plus SciPy's compiled routes.

Each primitive here is the reference contract its CUDA kernel must match.
Where SciPy's `csgraph` is faster for a whole algorithm (Dijkstra for
non-negative SSSP, Pearce's SCC, one-source BFS on long-diameter graphs),
`CPUBackend` routes there; the choice was measured (see PERFORMANCE notes in
the README) and the NumPy twins stay exercised by the tests.
"""
from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse import csgraph

from ...graph import compress
from ...work import tally
from .. import brandes
from ..arrays import canonical_labels, depth_histogram, depth_stats, pred_has_cycle
from ..contract import SccMethod, SsspMethod
from ..host_routes import depths_from_tree, worklist_paths

ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)
GATHER_ARCS = 1 << 15
PUSH_RATIO = 8   # push from the frontier when its out-arcs are under 1/8 of all arcs
# A pull level (or the final depth write) is cut into vertex ranges over the threads a batch
# may use when it has at least this many arcs (depth entries): below it the threads cost more than
# they save.
SPLIT_ARCS = 1 << 20


@dataclass
class HostGraph:
    """The graph's arrays as the primitives use them; `in_*` are arcs sorted by head."""
    n: int
    out_ptr: np.ndarray
    out_idx: np.ndarray
    out_w: np.ndarray | None
    in_ptr: np.ndarray
    in_src: np.ndarray      # tail of each in-arc
    in_dst: np.ndarray      # head of each in-arc (non-decreasing)
    in_w: np.ndarray | None
    out_src: np.ndarray     # tail of each out-arc
    weight_dtype: np.dtype
    min_weight: float
    _scipy: sp.csr_matrix | None = None
    _reverse: sp.csr_matrix | None = None
    _scc: tuple | None = None
    _arc_counts: tuple | None = None
    _scc_calls: int = 0

    def arc_count_matrices(self) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """(A, A^T) with A[u, v] the number of arcs u -> v (parallel arcs are distinct paths):
        the SciPy route of the BFS-level Brandes sweeps (backends/brandes.py)."""
        if self._arc_counts is None:
            # copies: summing duplicates sorts the rows in place, and the graph's arrays are shared
            forward = sp.csr_matrix((np.ones(len(self.out_idx)), self.out_idx, self.out_ptr),
                                    shape=(self.n, self.n), copy=True)
            backward = sp.csr_matrix((np.ones(len(self.in_src)), self.in_src, self.in_ptr),
                                     shape=(self.n, self.n), copy=True)
            forward.sum_duplicates()
            backward.sum_duplicates()
            self._arc_counts = (forward, backward)
        return self._arc_counts

    def scipy_matrix(self) -> sp.csr_matrix:
        """CSR for SciPy's Dijkstra and BFS with the cheapest of parallel arcs only; explicit
        zeros stay arcs. (Strong components read `scc_matrix`.)"""
        if self._scipy is None:
            w = self.out_w if self.out_w is not None else np.ones(len(self.out_idx), self.weight_dtype)
            key = self.out_src.astype(np.int64) * self.n + self.out_idx
            order = np.lexsort((w, key))
            keep = order[segment_starts(key[order])] if len(key) else order
            ptr = np.zeros(self.n + 1, np.int64)
            np.cumsum(np.bincount(self.out_src[keep], minlength=self.n), out=ptr[1:])
            self._scipy = sp.csr_matrix((w[keep].astype(np.float64), self.out_idx[keep], ptr),
                                        shape=(self.n, self.n))
        return self._scipy

    def reverse_matrix(self) -> sp.csr_matrix:
        """The arcs reversed, for SciPy's BFS against them: row v holds the tails of v's
        in-arcs, which the in-arc arrays already are (no transpose). The data is one
        broadcast 1.0: BFS reads only the structure."""
        if self._reverse is None:
            self._reverse = sp.csr_matrix((np.broadcast_to(1.0, len(self.in_src)), self.in_src, self.in_ptr),
                                          shape=(self.n, self.n))
        return self._reverse

    def scc_view(self) -> tuple[sp.csr_matrix, np.ndarray | None]:
        """(matrix, order or None) for SciPy's strong components, lazily: the first call on a
        graph reads the arcs as they are (`scc_plain_matrix`, built in tens of ms), later
        calls the degree-ordered view (`scc_matrix`, built on the second call and kept),
        whose Pearce runs ~1.6x faster but which takes longer to build than it saves once.
        R-MAT 20 on 2 cores: docs/gpu-notes.md."""
        self._scc_calls += 1
        if self._scc is None and self._scc_calls == 1:
            return self.scc_plain_matrix(), None
        return self.scc_matrix()

    def scc_plain_matrix(self) -> sp.csr_matrix:
        """The arcs reversed, in the graph's own ids, for SciPy's strong components (a graph and
        its reverse have the same components): the in-arc arrays themselves (rows of sorted
        tails; an undirected graph's rows are sorted first), but for a tail that repeats its
        left neighbour, which becomes a self-loop of its row. Not kept.

        csgraph's Pearce pushes each unvisited head of a row onto its DFS stack; a head pushed
        again while it is still the stack's top (a repeat with nothing but visited vertices
        between) is linked to itself and the search never ends. A self-loop is never pushed
        (a row is read after its vertex is visited), so rows where each other vertex appears
        once are safe, and sorted rows have their repeats side by side."""
        n, ptr, tails = self.n, self.in_ptr, self.in_src
        if not rows_sorted(ptr, tails):        # undirected: the CSR is its own reverse
            ptr, tails = compress(self.out_idx, n, self.out_src)
        repeat = np.flatnonzero(tails[1:] == tails[:-1]) + 1
        row = np.searchsorted(ptr, repeat, side="right") - 1
        inside = ptr[row] != repeat                # equal to the previous row's last: kept
        if inside.any():
            tails = tails.copy()
            tails[repeat[inside]] = row[inside]
        return sp.csr_matrix((np.broadcast_to(1.0, len(tails)), tails, ptr), shape=(n, n))

    def scc_matrix(self) -> tuple[sp.csr_matrix, np.ndarray]:
        """(matrix, order): the graph's arcs for SciPy's strong components, vertex i of the
        matrix being vertex order[i]. Built once.

        Each row names a head once: csgraph's Pearce loops forever when a row repeats a
        vertex. The in-arcs come with each row's tails sorted (Graph.csc), so a repeat is
        its left neighbour. Vertices are renumbered by decreasing degree, so the DFS's most
        visited entries share cache lines, and each row's heads are sorted: SciPy's SCC on
        R-MAT 20 593 -> 345 ms from the order, -> 304 ms from the sorted rows (gpu-notes.md).
        The data is one broadcast 1.0: SciPy reads only the structure."""
        if self._scc is None:
            n, ptr, tails = self.n, self.in_ptr, self.in_src
            if not rows_sorted(ptr, tails):        # undirected: the CSR is its own reverse
                ptr, tails = compress(self.out_idx, n, self.out_src)
            repeat = np.flatnonzero(tails[1:] == tails[:-1]) + 1
            row = np.searchsorted(ptr, repeat, side="right") - 1
            inside = ptr[row] != repeat                # equal to the previous row's last: kept
            repeat, row = repeat[inside], row[inside]
            kept = np.ones(len(tails), bool)
            kept[repeat] = False
            length = np.diff(ptr) - np.bincount(row, minlength=n).astype(ptr.dtype)
            degree = np.diff(self.in_ptr).astype(np.int64) + np.diff(self.out_ptr)
            order = np.argsort(-degree, kind="stable").astype(np.int32)
            rank = np.empty(n, np.int32)
            rank[order] = np.arange(n, dtype=np.int32)
            kept_ptr = np.zeros(n + 1, ptr.dtype)
            np.cumsum(length, out=kept_ptr[1:])
            at, length = row_arcs(kept_ptr, order)
            new_ptr = np.zeros(n + 1, ptr.dtype)
            np.cumsum(length, out=new_ptr[1:])
            reverse = sp.csr_matrix((np.ones(len(at), np.int8), rank[tails[kept][at]], new_ptr),
                                    shape=(n, n))
            forward = reverse.T.tocsr()     # SciPy's linear transpose: each row comes out sorted
            del reverse
            matrix = sp.csr_matrix((np.broadcast_to(1.0, forward.nnz), forward.indices, forward.indptr),
                                   shape=(n, n))
            self._scc = (matrix, order)
        return self._scc


def rows_sorted(ptr: np.ndarray, cols: np.ndarray) -> bool:
    """Each row's column ids are non-decreasing."""
    drops = np.flatnonzero(cols[1:] < cols[:-1]) + 1
    row_start = np.zeros(len(cols) + 1, bool)
    row_start[ptr] = True
    return bool(row_start[drops].all())


def words_for(k: int) -> int:
    return (k + 63) // 64


def out_arcs(hg: HostGraph, vertices: np.ndarray):
    """The ids of the out-arcs of `vertices`, concatenated, and each vertex's out-degree."""
    return row_arcs(hg.out_ptr, vertices)


def row_arcs(ptr: np.ndarray, rows: np.ndarray):
    """The positions of the entries of `rows` (of a CSR with offsets `ptr`), concatenated,
    and each row's length (int64)."""
    start = ptr[rows]
    length = (ptr[rows + 1] - start).astype(np.int64)
    # a running sum of steps: +1 within a row, a jump to the row's start at its first entry
    step = np.ones(int(length.sum()), ptr.dtype)
    full = length > 0
    start, size = start[full], length[full]
    if len(start):
        step[np.cumsum(size[:-1])] = start[1:] - (start[:-1] + size[:-1]) + 1
        step[0] = start[0]
    return np.cumsum(step, out=step), length


def segment_starts(sorted_keys: np.ndarray) -> np.ndarray:
    """Positions where a run of equal keys starts in a sorted array (non-empty)."""
    return np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])


def balanced_ranges(ptr: np.ndarray, parts: int) -> list:
    """(v0, v1) vertex ranges holding about equal shares of a CSR's entries (one range when
    there are too few entries to be worth splitting)."""
    n, m = len(ptr) - 1, int(ptr[-1])
    parts = max(1, min(parts, m // SPLIT_ARCS))
    if parts == 1:
        return [(0, n)]
    cuts = np.unique(np.r_[0, np.searchsorted(ptr, np.arange(1, parts) * (m / parts)), n])
    return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:])]


def or_into(new: np.ndarray, frontier: np.ndarray, seen: np.ndarray, tails: np.ndarray,
            heads: np.ndarray) -> None:
    """new[v] = (OR of frontier[t] over the arcs t->v) & ~seen[v], for the arcs (tails, heads)
    sorted by head (the rows of `new` they touch are written, no others)."""
    if len(heads) == 0:
        return
    starts = segment_starts(heads)
    reached = np.empty((len(starts), seen.shape[1]), np.uint64)
    # Gather and reduce a cache-sized run of whole segments at a time (measured 1.5x
    # faster than one gather of every active arc's words).
    cuts = np.unique(np.r_[np.searchsorted(starts, np.arange(0, len(heads), GATHER_ARCS)), len(starts)])
    for a, b in zip(cuts[:-1], cuts[1:]):
        lo, hi = starts[a], starts[b] if b < len(starts) else len(heads)
        reached[a:b] = np.bitwise_or.reduceat(frontier[tails[lo:hi]], starts[a:b] - lo, axis=0)
    v = heads[starts]
    new[v] = reached & ~seen[v]


class CPUBackend:
    name = "cpu"
    xp = np
    # A joint BFS batch that has run this many levels switches to per-source
    # traversal: on long-diameter graphs the per-level cost is mostly overhead.
    max_joint_levels = 256

    def __init__(self, workers: int | None = None):
        self.workers = workers or int(os.environ.get("CURNET_THREADS", 0)) or os.cpu_count() or 1
        # the threads the calling thread's batch may use inside a level (see map_batches)
        self._share = threading.local()
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def level_threads(self) -> int:
        return getattr(self._share, "threads", 1)

    def over_ranges(self, fn, ranges) -> None:
        """fn(a, b) for each range, on the backend's pool when there are several."""
        if len(ranges) == 1:
            fn(*ranges[0])
            return
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="curnet-cpu-level")
        for f in [self._pool.submit(fn, a, b) for a, b in ranges]:
            f.result()

    def describe(self) -> str:
        return f"cpu (NumPy {np.__version__}, SciPy {scipy.__version__}, {self.workers} threads)"

    def info(self) -> dict:
        return {"backend": "cpu", "device": f"CPU, {os.cpu_count()} cores", "threads": self.workers}

    @property
    def members(self) -> list[CPUBackend]:
        return [self]

    def device_scope(self):
        return contextlib.nullcontext()

    # -- data movement --------------------------------------------------------
    def device_graph(self, g) -> HostGraph:
        def build():
            in_ptr, in_src, in_w = g.csc()
            return HostGraph(
                n=len(g), out_ptr=g.indptr, out_idx=g.indices, out_w=g.weights,
                in_ptr=in_ptr, in_src=in_src,
                in_dst=np.repeat(np.arange(len(g), dtype=np.int32), np.diff(in_ptr)),
                in_w=in_w, out_src=g.edge_sources(),
                weight_dtype=g.weight_dtype, min_weight=g.min_weight)
        return g.cache(self.name, build)

    def to_host(self, a) -> np.ndarray:
        return a

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
        if not parallel or self.workers == 1 or len(batches) == 1:
            # one batch at a time: its levels may use every thread (a 64-source BFS is one
            # batch: measured on one core of 16 before, docs/peers.md)
            run = self._with_threads(fn, self.workers if parallel else 1)
            for b in batches:
                yield run(b)
            return
        run = self._with_threads(fn, max(1, self.workers // min(len(batches), self.workers)))
        with ThreadPoolExecutor(self.workers) as pool:
            futures = [pool.submit(run, b) for b in batches]
            try:
                for f in futures:
                    yield f.result()
            except BaseException:  # KeyboardInterrupt included: drop the batches not started
                for f in futures:
                    f.cancel()
                raise

    def _with_threads(self, fn, threads: int):
        def run(batch):
            before = self.level_threads()
            self._share.threads = threads
            try:
                return fn(batch)
            finally:
                self._share.threads = before
        return run

    def bfs_batch_size(self, n: int, k: int) -> int:
        # 512 sources (8 words a vertex) keeps a level's gathered words in cache-sized
        # pieces and leaves several batches to spread over the threads (measured on scNET).
        return 512

    # -- many-source BFS primitives -----------------------------------------
    def seed_bits(self, n: int, sources: np.ndarray) -> np.ndarray:
        """(n, W) uint64: bit j of row sources[j] set. Padding bits past k are left clear."""
        bits = np.zeros((n, words_for(len(sources))), np.uint64)
        j = np.arange(len(sources))
        np.bitwise_or.at(bits, (sources, j // 64), np.left_shift(np.uint64(1), (j % 64).astype(np.uint64)))
        return bits

    def padding_bits(self, k: int) -> np.ndarray:
        """(W,) uint64 with the bits past source k-1 set, so a finished vertex reads as all ones."""
        pad = np.zeros(words_for(k), np.uint64)
        if k % 64:
            pad[-1] = ~((np.uint64(1) << np.uint64(k % 64)) - np.uint64(1))
        return pad

    def expand_bits(self, hg: HostGraph, frontier: np.ndarray, seen: np.ndarray) -> np.ndarray:
        """new[v] = (OR of frontier[u] over arcs u->v) & ~seen[v]."""
        new = np.zeros_like(seen)
        active = frontier.any(axis=1)
        done = (seen == ALL_BITS).all(axis=1)
        pushers = np.flatnonzero(active)
        arc, deg = out_arcs(hg, pushers)
        if len(arc) * PUSH_RATIO < len(hg.in_src):
            # Few frontier arcs (first and last levels, long-diameter graphs): push from the
            # frontier instead of scanning every in-arc.
            tails, heads = np.repeat(pushers, deg), hg.out_idx[arc]
            keep = ~done[heads]
            order = np.argsort(heads[keep], kind="stable")
            or_into(new, frontier, seen, tails[keep][order], heads[keep][order])
            return new

        def pull(v0, v1):            # the in-arcs of heads v0..v1-1: disjoint rows of `new`
            a0, a1 = hg.in_ptr[v0], hg.in_ptr[v1]
            src, dst = hg.in_src[a0:a1], hg.in_dst[a0:a1]
            sel = active[src] & ~done[dst]
            or_into(new, frontier, seen, src[sel], dst[sel])
        self.over_ranges(pull, balanced_ranges(hg.in_ptr, self.level_threads()))
        return new

    def bits_start(self, hg: HostGraph, ids: np.ndarray, depth: np.ndarray, unreachable=-1):
        """A joint traversal's state [seen, frontier, history]: the sources' bits, and the
        cumulative seen bits after each level, from which the depths are written at the end.
        (depth is pre-set to `unreachable` by output_block here.)"""
        seen = self.seed_bits(hg.n, ids)
        frontier = seen.copy()
        seen |= self.padding_bits(len(ids))
        return [seen, frontier, [seen.copy()]]

    def bits_level(self, hg: HostGraph, state, depth: np.ndarray, level: int) -> bool:
        """One level: expand and advance; False when nothing new was reached (depths written)."""
        seen, frontier, history = state
        new = self.expand_bits(hg, frontier, seen)
        if not self.any(new):
            self.depths_from_history(history, depth)
            return False
        seen |= new
        history.append(seen.copy())
        state[1] = new
        return True

    def depths_from_history(self, history: list, depth: np.ndarray) -> None:
        """depth[v, j] = the first level whose cumulative bits hold bit j of v; pairs never
        reached keep depth's value. One sequential pass a level: measured 3x faster than
        scattering each level's new bits into the (strided) result rows."""
        n, kb = depth.shape

        def unpack(bits):
            return np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :kb]

        def rows(a, b):
            level: np.ndarray = np.zeros((b - a, kb), np.uint8 if len(history) <= 255 else np.uint16)
            for seen in history[:-1]:
                level += 1 - unpack(seen[a:b])
            np.copyto(depth[a:b], level, where=unpack(history[-1][a:b]).view(bool), casting="unsafe")
        # row ranges of equal size: the same split as a pull level's, kb entries a row
        self.over_ranges(rows, balanced_ranges(np.arange(n + 1, dtype=np.int64) * kb, self.level_threads()))

    def canonical_labels(self, labels: np.ndarray) -> np.ndarray:
        return canonical_labels(labels)

    # -- reductions of a batch's result block (algorithms.reductions) -------
    def depth_stats(self, block: np.ndarray, upto=None, mindist=0, want=None) -> dict:
        return depth_stats(np, block, upto, mindist, *([want] if want else []))

    def depth_histogram(self, block: np.ndarray) -> tuple:
        return depth_histogram(np, block)

    def any(self, a) -> bool:
        return bool(a.any())

    def bfs_one(self, hg: HostGraph, source: int, backward: bool = False) -> np.ndarray:
        """Depths from one source through SciPy's compiled BFS (long-diameter route);
        `backward`: along the arcs reversed."""
        a = hg.reverse_matrix() if backward else hg.scipy_matrix()
        order, pred = csgraph.breadth_first_order(a, int(source), directed=True, return_predecessors=True)
        return depths_from_tree(order, pred, hg.n)

    # -- shortest-path primitives -------------------------------------------
    def sssp_method(self, hg: HostGraph, kb: int, with_pred: bool) -> SsspMethod:
        """"dijkstra" (SciPy's) for non-negative weights, else "bellman_ford"."""
        return "dijkstra" if hg.min_weight >= 0 else "bellman_ford"

    def sssp_batch_size(self, n: int, k: int, dijkstra: bool) -> int:
        return 64

    def sssp_parallel(self, dijkstra: bool) -> bool:
        return not dijkstra

    def dijkstra(self, hg: HostGraph, sources: np.ndarray, with_pred: bool):
        """Non-negative weights: SciPy's Dijkstra. Returns dist (k, n) in the weight dtype, pred or None."""
        tally("dijkstra sources", len(sources))
        res = csgraph.dijkstra(hg.scipy_matrix(), directed=True, indices=sources,
                               return_predecessors=with_pred)
        dist, pred = res if with_pred else (res, None)
        dist = dist.astype(hg.weight_dtype, copy=False)
        if pred is not None:
            pred = pred.astype(np.int32)
            pred[pred < 0] = -1
        return dist, pred

    def relax(self, hg: HostGraph, dist: np.ndarray, pred: np.ndarray | None,
              active: np.ndarray) -> np.ndarray:
        """One Bellman-Ford round from the active (source row, vertex) pairs.

        For every arc u->v with active[r, u]: dist[r, v] = min(dist[r, v], dist[r, u] + w).
        A lowered entry gets a predecessor u that attains it and is active next round.
        """
        k, n = dist.shape
        rows, tails = np.nonzero(active)
        new_active = np.zeros_like(active)
        if len(tails) == 0:
            return new_active
        arc, deg = out_arcs(hg, tails)
        rows_a, tails_a = np.repeat(rows, deg), np.repeat(tails, deg)
        heads = hg.out_idx[arc]
        w = hg.out_w[arc] if hg.out_w is not None else np.ones(len(arc), dist.dtype)
        cand = dist[rows_a, tails_a] + w
        flat = rows_a.astype(np.int64) * n + heads
        better = cand < dist.ravel()[flat]
        flat, cand, tails_a = flat[better], cand[better], tails_a[better]
        if len(flat) == 0:
            return new_active
        order = np.lexsort((tails_a, cand, flat))   # cheapest first; ties to the smallest tail
        flat, cand, tails_a = flat[order], cand[order], tails_a[order]
        first = segment_starts(flat)
        dist.ravel()[flat[first]] = cand[first]
        if pred is not None:
            pred.ravel()[flat[first]] = tails_a[first]
        new_active.ravel()[flat[first]] = True
        return new_active

    # Bellman-Ford batch state: the drivers go through these so that a backend may keep its
    # own representation (the CUDA backend packs distance and predecessor in one word).
    # A batch still relaxing after this many rounds is on a long-diameter graph: `sp_long`
    # finishes it per source, at a cost that follows the relaxations, not rounds x n.
    max_bf_rounds = 256

    def sp_start(self, hg: HostGraph, ids: np.ndarray, track_pred: bool):
        """(state, active) for a batch: dist 0 at each source, inf elsewhere, pred -1; the sources active.
        Predecessors are kept whatever track_pred says (the CPU twin always tracks them)."""
        kb, n = len(ids), hg.n
        rows = np.arange(kb)
        dist = np.full((kb, n), np.inf, dtype=hg.weight_dtype)
        pred = np.full((kb, n), -1, dtype=np.int32)
        dist[rows, ids] = 0
        active = np.zeros((kb, n), dtype=bool)
        active[rows, ids] = True
        return (dist, pred), active

    def sp_relax(self, hg: HostGraph, state, active: np.ndarray) -> np.ndarray:
        return self.relax(hg, state[0], state[1], active)

    def sp_preds(self, state):
        return state[1]

    def sp_finish(self, state, with_pred: bool):
        return state[0], (state[1] if with_pred else None)

    def sp_long(self, hg: HostGraph, ids: np.ndarray, with_pred: bool):
        return self.shortest_paths_host(hg, ids, with_pred)

    def shortest_paths_host(self, hg: HostGraph, ids: np.ndarray, with_pred: bool):
        """A whole batch, one source at a time: SciPy's Dijkstra for non-negative weights, else
        a FIFO worklist (raising NegativeCycleError naming the source). The long-diameter route
        of both backends."""
        if hg.min_weight >= 0:
            return self.dijkstra(hg, ids, with_pred)
        dist = np.full((len(ids), hg.n), np.inf, hg.weight_dtype)
        pred = np.full((len(ids), hg.n), -1, np.int32)
        for r, s in enumerate(np.asarray(ids).tolist()):
            worklist_paths(hg, s, dist[r], pred[r])
        return dist, (pred if with_pred else None)

    def pred_has_cycle(self, pred: np.ndarray) -> np.ndarray:
        return pred_has_cycle(np, pred)

    # -- SCC primitives ----------------------------------------------------
    def scc_method(self, hg: HostGraph) -> SccMethod:
        """"native": `scc_labels` (Pearce's algorithm in SciPy) labels the whole graph."""
        return "native"

    def scc_labels(self, hg: HostGraph) -> np.ndarray:
        """Any SCC labelling (Pearce's algorithm in SciPy); the driver canonicalises it."""
        matrix, order = hg.scc_view()
        _, found = csgraph.connected_components(matrix, directed=True, connection="strong")
        if order is None:
            return found.astype(np.int32, copy=False)
        labels = np.empty(hg.n, np.int32)
        labels[order] = found
        return labels

    def trim(self, hg: HostGraph, alive: np.ndarray) -> np.ndarray:
        """alive minus the vertices with no in-arc or no out-arc from/to another alive vertex.

        One pass; the driver repeats it. Self-loops do not count as arcs here.
        """
        keep = alive[hg.in_src] & alive[hg.in_dst] & (hg.in_src != hg.in_dst)
        has_in = np.zeros(hg.n, bool)
        has_in[hg.in_dst[keep]] = True
        has_out = np.zeros(hg.n, bool)
        has_out[hg.in_src[keep]] = True
        return alive & has_in & has_out

    def propagate_max(self, hg: HostGraph, values: np.ndarray, alive: np.ndarray,
                      colors: np.ndarray | None = None, backward: bool = False) -> np.ndarray:
        """Closure of max along arcs inside `alive` (and inside one colour, if given).

        Returns values' where values'[v] = max of values[u] over alive u with a path
        u -> ... -> v through alive vertices (v -> ... -> u if backward).
        """
        tails, heads = (hg.in_src, hg.in_dst) if not backward else (hg.out_idx, hg.out_src)
        sel = alive[tails] & alive[heads]
        if colors is not None:
            sel &= colors[tails] == colors[heads]
        tails, heads = tails[sel], heads[sel]
        if backward:
            order = np.argsort(heads, kind="stable")
            tails, heads = tails[order], heads[order]
        values = values.copy()
        if len(heads) == 0:
            return values
        starts = segment_starts(heads)
        targets = heads[starts]
        while True:
            tally("scc propagation rounds")
            best = np.maximum.reduceat(values[tails], starts)
            grow = best > values[targets]
            if not grow.any():
                return values
            values[targets[grow]] = best[grow]

    # -- betweenness (algorithms.brandes): the NumPy twins of kernels/betweenness.cu ----------
    def bc_batch_size(self, n: int, k: int, weighted: bool) -> int:
        # sigma and delta are float64 (n, kb) blocks: 64 sources keep them cache-friendly on
        # small networks and leave batches for the worker threads
        return 64

    def bc_levels(self, hg: HostGraph, dist: np.ndarray) -> np.ndarray:
        return brandes.dag_levels(hg, dist)

    def bc_sigma_level(self, hg: HostGraph, level, dist, sigma, at: int) -> None:
        brandes.sigma_level(hg, level, dist, sigma, at)

    def bc_delta_level(self, hg: HostGraph, level, dist, sigma, delta, weight, at: int) -> None:
        brandes.delta_level(hg, level, dist, sigma, delta, weight, at)

    def bc_edge_dependency(self, hg: HostGraph, level, dist, sigma, delta, weight, out) -> None:
        brandes.edge_dependency(hg, level, dist, sigma, delta, weight, out)
