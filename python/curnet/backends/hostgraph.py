"""The host's copy of a graph (`HostGraph`) and the SciPy views built from it once and kept
with it. The CPU backend's device graph, and what the CUDA backend's host route reads for a
long-diameter graph (`host_routes.HostRoutes`): shared by both, so neither backend imports
the other."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..graph import compress

if TYPE_CHECKING:
    import scipy.sparse as sp


def csr_matrix(*args, **kwargs) -> sp.csr_matrix:
    """SciPy's csr_matrix(...), SciPy imported at the first matrix made: a BFS that needs none
    (the bit traversal, a GPU's) leaves SciPy unloaded (80-150 ms of a first call)."""
    import scipy.sparse
    return scipy.sparse.csr_matrix(*args, **kwargs)


def host_graph(g) -> HostGraph:
    """The graph's HostGraph, built once and kept with the graph (under the CPU backend's name,
    so the CPU backend and the CUDA backend's host route share one copy)."""
    def build():
        in_ptr, in_src, in_w = g.csc()
        return HostGraph(
            n=len(g), out_ptr=g.indptr, out_idx=g.indices, out_w=g.weights,
            in_ptr=in_ptr, in_src=in_src,
            in_dst=np.repeat(np.arange(len(g), dtype=np.int32), np.diff(in_ptr)),
            in_w=in_w, out_src=g.edge_sources(),
            weight_dtype=g.weight_dtype, min_weight=g.min_weight)
    return g.cache("cpu", build)


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
        the SciPy route of the BFS-level Brandes sweeps (backends/cpu/brandes.py)."""
        if self._arc_counts is None:
            # copies: summing duplicates sorts the rows in place, and the graph's arrays are shared
            forward = csr_matrix((np.ones(len(self.out_idx)), self.out_idx, self.out_ptr),
                                 shape=(self.n, self.n), copy=True)
            backward = csr_matrix((np.ones(len(self.in_src)), self.in_src, self.in_ptr),
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
            self._scipy = csr_matrix((w[keep].astype(np.float64), self.out_idx[keep], ptr),
                                     shape=(self.n, self.n))
        return self._scipy

    def reverse_matrix(self) -> sp.csr_matrix:
        """The arcs reversed, for SciPy's BFS against them: row v holds the tails of v's
        in-arcs, which the in-arc arrays already are (no transpose). The data is one
        broadcast 1.0: BFS reads only the structure."""
        if self._reverse is None:
            self._reverse = csr_matrix((np.broadcast_to(1.0, len(self.in_src)), self.in_src, self.in_ptr),
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
        n = self.n
        ptr, tails, repeat, row = self._reverse_rows_and_repeats()
        if len(repeat):
            tails = tails.copy()
            tails[repeat] = row
        return csr_matrix((np.broadcast_to(1.0, len(tails)), tails, ptr), shape=(n, n))

    def _reverse_rows_and_repeats(self):
        """(ptr, tails, repeat, row): the reversed arcs with each row's tails sorted, and the
        positions `repeat` (in row `row`) of tails equal to their left neighbour in the row."""
        n, ptr, tails = self.n, self.in_ptr, self.in_src
        if not rows_sorted(ptr, tails):        # undirected: the CSR is its own reverse
            ptr, tails = compress(self.out_idx, n, self.out_src)
        repeat = np.flatnonzero(tails[1:] == tails[:-1]) + 1
        row = np.searchsorted(ptr, repeat, side="right") - 1
        inside = ptr[row] != repeat                # equal to the previous row's last: kept
        return ptr, tails, repeat[inside], row[inside]

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
            n = self.n
            ptr, tails, repeat, row = self._reverse_rows_and_repeats()
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
            reverse = csr_matrix((np.ones(len(at), np.int8), rank[tails[kept][at]], new_ptr),
                                 shape=(n, n))
            forward = reverse.T.tocsr()     # SciPy's linear transpose: each row comes out sorted
            del reverse
            matrix = csr_matrix((np.broadcast_to(1.0, forward.nnz), forward.indices, forward.indptr),
                                shape=(n, n))
            self._scc = (matrix, order)
        return self._scc


def rows_sorted(ptr: np.ndarray, cols: np.ndarray) -> bool:
    """Each row's column ids are non-decreasing."""
    drops = np.flatnonzero(cols[1:] < cols[:-1]) + 1
    row_start = np.zeros(len(cols) + 1, bool)
    row_start[ptr] = True
    return bool(row_start[drops].all())


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


