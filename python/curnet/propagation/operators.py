"""The sparse matrices a propagation multiplies by, on the device that runs it: SciPy's on the
CPU, cupyx.scipy.sparse (cuSPARSE) on a GPU, built once on the host and kept with the graph
(`Graph.cache`) for each device and each choice of weights and directions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from ..backends import get_backend


@dataclass
class Device:
    """The device a propagation runs on: its array module and sparse module."""
    backend: Any          # the contract.Backend get_backend() returned
    xp: Any               # numpy or cupy
    sp: Any               # scipy.sparse or cupyx.scipy.sparse
    key: str              # "cpu", "cuda:0", ...: the graph cache's key for this device

    @property
    def on_gpu(self) -> bool:
        return self.xp is not np

    @property
    def order(self) -> str:
        """The dense blocks' layout: C on the CPU (SciPy's SpMM walks rows), Fortran on a GPU
        (cuSPARSE's SpMM takes column-major blocks)."""
        return "F" if self.on_gpu else "C"

    def contiguous(self, a):
        return self.xp.asarray(a, order=self.order)

    def to_device(self, host: np.ndarray):
        return host if not self.on_gpu else self.xp.asarray(host)

    def to_host(self, a) -> np.ndarray:
        return a if not self.on_gpu else self.xp.asnumpy(a)

    def matrix(self, m: sparse.csr_matrix):
        """A host CSR matrix as this device's sparse matrix."""
        return m if not self.on_gpu else self.sp.csr_matrix(m)

    def scope(self):
        return self.backend.members[0].device_scope()


def open_device(backend: str) -> Device:
    be = get_backend(backend)
    xp = be.members[0].xp
    if xp is np:
        return Device(be, np, sparse, "cpu")
    import cupyx.scipy.sparse as cusparse
    with be.members[0].device_scope():
        return Device(be, xp, cusparse, f"cuda:{xp.cuda.Device().id}")


def graph_view(g, weighted, directed: bool):
    """The graph whose arcs a walk follows and whether it carries weights: igraph's rules
    (weighted=None uses the graph's weights when it has them; directed=False ignores directions)."""
    if weighted is None:
        weighted = g.weighted
    elif weighted and not g.weighted:
        raise ValueError("weighted=True, but the graph has no weights")
    h = g if weighted else g.without_weights()
    if not directed and h.directed:
        h = h.oriented("all")
    if weighted and h.num_arcs:
        w = h.weights
        if w.min() < 0:
            i = int(np.argmin(w))
            raise ValueError(f"negative edge weight {w[i]:g}: a propagation needs non-negative "
                             "weights (transition probabilities and Laplacians are defined for "
                             "weights >= 0)")
    return h, bool(weighted)


def adjacency(h) -> sparse.csr_matrix:
    """A[i, j] = the summed weight of the arcs i -> j (1 an arc when unweighted), float64."""
    n = len(h)
    w = np.ones(h.num_arcs) if h.weights is None else h.weights.astype(np.float64)
    # copy=True: sum_duplicates works in place, and the index arrays are the graph's own
    a = sparse.csr_matrix((w, h.indices, h.indptr), shape=(n, n), copy=True)
    a.sum_duplicates()
    return a


@dataclass
class Walk:
    """The column-stochastic walk W = A^T D^-1 (W[i, j]: the chance of stepping j -> i) or its
    symmetric form D^-1/2 A D^-1/2, on a device, with the vertices that have no out-arc
    (out-strength 0: `dangling`, their ids)."""
    w: Any
    dangling: Any
    n: int
    symmetric: bool
    # on a GPU, what kernels/propagation.cu reads besides w's own indices and values: w's row
    # offsets as int64 and a (n,) uint8 mask of the dangling vertices (None on the CPU)
    ptr: Any = None
    is_dangling: Any = None
    # W's long rows cut into pieces for that kernel (backends/cuda/propagation.long_rows),
    # made at the first fused solve
    long_rows: Any = None


def walk(g, dev: Device, *, weighted=None, directed=True, normalize="walk") -> Walk:
    if normalize not in ("walk", "symmetric"):
        raise ValueError(f"normalize must be 'walk' or 'symmetric', got {normalize!r}")
    h, weighted = graph_view(g, weighted, directed)
    if normalize == "symmetric" and h.directed:
        raise ValueError("normalize='symmetric' needs an undirected graph (or directed=False)")

    def build():
        a = adjacency(h)
        out = np.asarray(a.sum(axis=1)).ravel()
        inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
        if normalize == "walk":
            wt = (a.T @ sparse.diags(inv)).tocsr()
        else:
            half = np.sqrt(inv)
            wt = (sparse.diags(half) @ a @ sparse.diags(half)).tocsr()
        with dev.scope():
            m = dev.matrix(wt)
            ptr = mask = None
            if dev.on_gpu:
                ptr = m.indptr.astype(np.int64)
                mask = dev.xp.asarray((out == 0).astype(np.uint8))
            return Walk(m, dev.to_device(np.flatnonzero(out == 0)), len(h), normalize == "symmetric",
                        ptr, mask)
    return h.cache(("propagation walk", dev.key, normalize), build)


@dataclass
class Laplacian:
    """L = D - A, or I - D^-1/2 A D^-1/2 when normalized (an isolated vertex's row is zero),
    held as its off-diagonal part `off` (-A, or -D^-1/2 A D^-1/2) and its `diagonal`, with
    `norm1`, a bound on ||L||_1."""
    off: Any
    diagonal: Any
    norm1: float
    n: int

    def times(self, x):
        return self.off @ x + self.diagonal[:, None] * x


def laplacian(g, dev: Device, *, weighted=None, normalized=False) -> Laplacian:
    h, weighted = graph_view(g, weighted, directed=False)

    def build():
        a = adjacency(h)
        deg = np.asarray(a.sum(axis=1)).ravel()
        if normalized:
            half = np.sqrt(np.divide(1.0, deg, out=np.zeros_like(deg), where=deg > 0))
            off = (sparse.diags(half) @ a @ sparse.diags(half)).tocsr()
            diag = (deg > 0).astype(np.float64)
        else:
            off, diag = a, deg
        off = (-off).tocsr()
        norm1 = float(np.max(np.asarray(abs(off).sum(axis=0)).ravel() + np.abs(diag), initial=0.0))
        with dev.scope():
            return Laplacian(dev.matrix(off), dev.to_device(diag), norm1, len(h))
    return h.cache(("propagation laplacian", dev.key, bool(normalized)), build)
