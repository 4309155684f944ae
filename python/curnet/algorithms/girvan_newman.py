"""Girvan–Newman's removal loop (igraph's cluster_edge_betweenness): remove the edge of highest
edge betweenness, rescore, repeat until no edge is left.

Removing an edge changes only the shortest paths inside its weak component, so each step
rescores that component alone (igraph does the same), as a graph of its own: its vertices
renumbered 0..c-1, all its sources in one Brandes job on the device (`betweenness.sweeps`
over batches of the device's size), so a step's work and its blocks are the component's size,
not the whole graph's. On the CPU with Numba installed, the rescore is compiled instead
(`cpu/compiled_brandes.py`: a BFS or Dijkstra a source, the removed edges dropped from one
adjacency): a level-synchronous NumPy step pays its fixed costs on every small component.
A removal that splits the component rescores it as one graph (no path
crosses between its halves), whose weak components then give the halves their labels. The
scores of the other components are kept. A multi-GPU backend runs the loop on its first GPU
(each step is one component's job).

Which edge goes: igraph takes the first (lowest id) of the largest values it computed, compared
exactly. Where the exact values differ by more than rounding, that is the largest exact value,
and so is ours. Where they are equal (a true tie: symmetric graphs have many), igraph's pick
depends on the last bits of its sums, i.e. on its summation order (source by source in id
order, each source's dependencies in its adjacency order); ours is the lowest id among the
values within `tie_tolerance` of the largest, which is the lowest id of the exact maxima: the
same on every backend, and igraph's too wherever its rounding leaves the tied sums equal.
"""
from __future__ import annotations

import numpy as np

from ..backends import get_backend
from ..backends.brandes import tie_epsilon
from ..backends.cpu import compiled_brandes
from ..graph import Graph
from ..progress import Progress
from ..work import tally
from .betweenness.source_order import near_sources_together
from .betweenness.sweeps import dependencies, shortest_path_dag
from .common import batches_of, primary, weak_component_labels

# A component of up to this many sources is one batch: its levels use every CPU thread, and a
# batch's fixed costs (a few dozen NumPy calls or kernel launches a level) are paid once a step.
# Measured on the 2-core machine, STRING's 500-vertex ball: 4.3 s in one batch a step, 7.2 s in
# batches of 64 (the CPU backend's betweenness size). Blocks of 2,048^2 float64 are 32 MiB.
ONE_BATCH = 2048


# Each score is a sum of one positive term a source, so summed in another order (igraph's, another
# backend's, a later rescore's) the same exact value moves by about an ulp a term at most, plus
# the terms' own few ulps. Two scores closer than TIE_ULPS ulps a source are a tie; further apart
# they never are (a fixed 1e-9 would be too wide: tests/python/test_girvan_newman.py has exactly
# different scores 6e-10 apart). Measured on STRING's BFS balls (CPU backend): where a lower id
# went before a larger score, the two differed by at most 2.1e-16 (relative) at 1,000 vertices,
# 8.7e-16 at 2,000 (77 steps; the tolerance there is 7.1e-12), never by 1e-13 to 1e-9.
TIE_ULPS = 16

# The compiled CPU rescore keeps each source's edge sums (n x m float64) up to this size.
ROWS_BYTES = 1 << 28


def tie_tolerance(sources: int) -> float:
    """Relative difference within which two edge betweenness values, each summed over at most
    `sources` sources, count as equal."""
    return TIE_ULPS * max(int(sources), 1) * float(np.finfo(np.float64).eps)


def edge_removals(g: Graph, *, paths_directed: bool, weighted: bool, backend="auto", progress=None):
    """(removed edge ids in removal order, each one's edge betweenness when removed).

    paths_directed: paths follow the arcs (else edges are walked both ways, and the sums over
    ordered pairs halved). The removed edge is the first (lowest id) whose score is within
    `tie_tolerance` (relative, for the largest weak component's vertex count) of the largest."""
    dev = primary(get_backend(backend))
    src, dst, w = g.edges()
    src, dst = src.astype(np.int64), dst.astype(np.int64)
    lengths = w if weighted else None
    m, n = g.num_edges, len(g)
    alive = np.ones(m, bool)
    if getattr(dev, "name", None) == "cpu" and compiled_brandes.available():
        rescore: _Rescorer = _CompiledRescorer(src, dst, lengths, paths_directed, g.weight_dtype, n)
    else:
        rescore = _Rescorer(dev, src, dst, lengths, paths_directed, g.weight_dtype)
    label = weak_component_labels(g).astype(np.int64)    # each vertex's current weak component
    next_label = int(label.max(initial=-1)) + 1
    tie = tie_tolerance(np.bincount(label).max(initial=0))
    scores = np.zeros(m)
    edge_label = label[src]
    order = np.argsort(edge_label, kind="stable")
    cuts = np.flatnonzero(np.diff(edge_label[order])) + 1
    with dev.device_scope():
        for part in np.split(order, cuts) if m else []:
            rescore(scores, part, np.flatnonzero(label == edge_label[part[0]]))
        removed, values = np.empty(m, np.int64), np.empty(m)
        bar = Progress(progress, m, "edge removals")
        for step in range(m):
            ids = np.flatnonzero(alive)
            live = scores[ids]
            top = live.max()
            pick = int(ids[np.flatnonzero(live >= top - tie * abs(top))[0]])
            removed[step], values[step] = pick, scores[pick]
            alive[pick] = False
            bar.update(1)
            a, b = int(src[pick]), int(dst[pick])
            if a == b:
                continue                           # a self-loop is on no shortest path
            rescore.drop(pick, a, b)
            comp = label[a]
            vertices = np.flatnonzero(label == comp)
            edges = ids[(label[src[ids]] == comp) & (ids != pick)]
            if len(edges) == 0:
                continue
            rescore(scores, edges, vertices, removed=pick)
            half = rescore.split_off(vertices, a, b)
            if half is not None:                   # one edge splits a component in two at most
                label[vertices[half]] = next_label
                next_label += 1
    return removed, values


class _Rescorer:
    """Edge betweenness of one component, written into `scores` at its edge ids."""

    def __init__(self, dev, src, dst, lengths, paths_directed: bool, dtype):
        self.dev, self.src, self.dst, self.lengths = dev, src, dst, lengths
        self.paths_directed, self.dtype = paths_directed, dtype
        self.local = np.empty(int(max(src.max(initial=-1), dst.max(initial=-1))) + 1, np.int64)

    def drop(self, edge: int, a: int, b: int) -> None:
        """Edge `edge`, a - b (not a self-loop), is removed (each call's graph is built from
        the edges it is given)."""

    def __call__(self, scores, edges, vertices, removed=None) -> None:
        tally("girvan-newman component rescores")
        local = self.local
        local[vertices] = np.arange(len(vertices))
        sub = Graph.from_edges(local[self.src[edges]], local[self.dst[edges]],
                               None if self.lengths is None else self.lengths[edges],
                               directed=self.paths_directed, num_vertices=len(vertices), dtype=self.dtype)
        arc = component_arc_sums(self.dev, sub, self.lengths is not None)
        raw = np.bincount(sub.arc_edges, weights=arc, minlength=len(edges))
        scores[edges] = raw if self.paths_directed else raw / 2
        self.last = sub

    def split_off(self, vertices, a: int, b: int):
        """After a rescore of `vertices` less the edge a - b: the mask of one half of them where
        that split the component, else None (the rescored graph's weak components)."""
        half = weak_component_labels(self.last)
        return half == 1 if half.max(initial=0) > 0 else None


class _CompiledRescorer(_Rescorer):
    """The CPU's rescore in compiled code (`cpu/compiled_brandes.py`): every source of the
    component one BFS or Dijkstra, over one adjacency of the whole graph built once, each
    removed edge's arcs dropped from it (`drop`). Scores as `_Rescorer`'s: the same sums, added
    in another order (within `tie_tolerance`)."""

    def __init__(self, src, dst, lengths, paths_directed: bool, dtype, n: int):
        self.arcs = compiled_brandes.adjacency(n, src, dst, both_ways=not paths_directed)
        # weak components walk the edges both ways
        self.walk = compiled_brandes.adjacency(n, src, dst, True) if paths_directed else self.arcs
        self.lengths = None if lengths is None else np.asarray(lengths, np.float64)
        self.eps = tie_epsilon(dtype)
        self.half = 1.0 if paths_directed else 0.5
        # each source's sums kept apart where they fit: a removal changes only the sums of the
        # sources whose shortest-path DAG held the edge (those with a share on it), so only
        # those are rerun (most, early on; fewer as the components shrink)
        m = len(src)
        self.rows = np.zeros((n, m)) if n * m * 8 <= ROWS_BYTES else None

    def drop(self, edge: int, a: int, b: int) -> None:
        compiled_brandes.drop(self.arcs, edge, a, b)
        if self.walk is not self.arcs:
            compiled_brandes.drop(self.walk, edge, a, b)

    def __call__(self, scores, edges, vertices, removed=None) -> None:
        tally("girvan-newman component rescores")
        vertices = np.asarray(vertices, np.int64)
        if self.rows is None:
            raw = compiled_brandes.component_scores(self.arcs, self.lengths, self.eps, vertices, len(scores),
                                                    2 * len(edges))
            scores[edges] = raw[edges] * self.half
            return
        rerun = vertices if removed is None else vertices[self.rows[vertices, removed] > 0]
        tally("girvan-newman searches", len(rerun))
        compiled_brandes.source_rows(self.arcs, self.lengths, self.eps, rerun, self.rows, 2 * len(edges))
        scores[edges] = compiled_brandes.column_sums(self.rows, vertices, np.asarray(edges, np.int64)) * self.half

    def split_off(self, vertices, a: int, b: int):
        seen = compiled_brandes.reached(self.walk, a)
        return None if seen[b] else seen[vertices]


def component_arc_sums(dev, g: Graph, weighted: bool) -> np.ndarray:
    """Each arc's dependency summed over every source of `g` (CSR order, float64 on the host):
    one Brandes job on device `dev`, its batches mapped by the device (threads on the CPU)."""
    hg = dev.device_graph(g)
    xp = dev.xp
    ids = np.flatnonzero(np.diff(g.indptr) > 0).astype(np.int32)    # the others reach nothing
    ids = near_sources_together(g, ids)
    ones = xp.ones(len(g), np.float64)
    parts = []

    def run(batch):
        _, batch_ids = batch
        dag = shortest_path_dag(dev, hg, batch_ids, weighted, None)
        return dependencies(dev, hg, batch_ids, dag, ones, True, False)[1]

    size = max(dev.bc_batch_size(len(g), len(ids), weighted, True), min(len(ids), ONE_BATCH))
    for arc in dev.map_batches(run, batches_of(ids, size)):
        parts.append(arc)
    total = parts[0] if len(parts) == 1 else sum(parts[1:], parts[0])
    return dev.to_host(total)


