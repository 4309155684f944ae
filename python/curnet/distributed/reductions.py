"""Many-source results reduced on the workers, so the (k, n) matrix never travels: the
Reduction protocol, per-source and per-vertex reductions, curnet's measures and betweenness."""
from __future__ import annotations

import numpy as np

from .workers import KINDS


class Reduction:
    """A many-source result reduced on the workers, so the (k, n) matrix never travels.

    `kind` is the traversal ("bfs", "sssp" or "sssp_dists"); `chunk(g, ids, values)` runs on a
    worker with a chunk's (len(ids), n) result (for "sssp" a (dist, pred) pair) and returns a
    small picklable partial; `combine(partials)` runs in the caller with every chunk's
    partial, in source order, and returns the answer. With kind None the reduction runs its
    own traversal: `chunk(g, ids, backend)` (a measure reduced on the device as it goes).
    `chunks_per_thread`: the chunks a worker thread gets at least (None: the engine's
    CHUNKS_PER_THREAD)."""

    kind: str | None = "bfs"
    chunks_per_thread: int | None = None

    def order(self, g, ids):
        """The sources in the order the chunks take them: as given (chunks join in source order)."""
        return ids

    def costs(self, g, ids):
        """Each source's share of the work, in order() (the chunks are cut to equal sums), or
        None where sources cost alike (chunks of equal length)."""
        return None

    def chunk(self, g, ids, values):
        raise NotImplementedError

    def combine(self, partials):
        raise NotImplementedError


class per_source(Reduction):
    """A reduction that gives each source its own value(s): func(g, ids, values) returns an
    array whose first axis is the chunk's sources; the chunks are joined in source order.
    E.g. eccentricity: per_source("bfs", lambda g, ids, d: np.where(d >= 0, d, 0).max(axis=1))."""

    def __init__(self, kind: str, func):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        self.kind, self.func = kind, func

    def chunk(self, g, ids, values):
        out = np.asarray(self.func(g, ids, values))
        if out.shape[:1] != (len(ids),):
            raise ValueError(f"a per-source reduction must give one row a source: {len(ids)} "
                             f"sources, got shape {out.shape}")
        return out

    def combine(self, partials):
        return np.concatenate(partials)


class per_vertex(Reduction):
    """A per-vertex score that runs its own traversal on the workers, a chunk of the vertices
    each: func(g, ids, backend) returns one value (row) an id; joined in vertex order."""

    kind = None

    def __init__(self, func):
        self.func = func

    def chunk(self, g, ids, backend):
        return np.asarray(self.func(g, ids, backend))

    def combine(self, partials):
        return np.concatenate(partials)


class measure(per_vertex):
    """A per-vertex measure of curnet.analyses.measures (closeness, harmonic_centrality, eccentricity,
    ego_size), each worker reducing its chunk of the vertices on its device as it goes;
    `kwargs` go to the measure (mode, cutoff, weighted, ...).
    E.g. reduce(g, None, measure("closeness", mode="out"), cluster=...)."""

    PER_VERTEX = ("closeness", "harmonic_centrality", "eccentricity", "ego_size")

    def __init__(self, name: str, **kwargs):
        if name not in self.PER_VERTEX:
            raise ValueError(f"measure must be one of {', '.join(self.PER_VERTEX)}, got {name!r}")
        self.name, self.kwargs = name, kwargs
        super().__init__(self._run)

    def _run(self, g, ids, backend):
        from ..analyses import measures
        return getattr(measures, self.name)(g, ids, backend=backend, progress=False, **self.kwargs)


class betweenness(Reduction):
    """Betweenness (curnet.betweenness; edge betweenness with edges=True) summed over the
    chunks' sources: each worker runs Brandes on its device over its chunk and returns the raw
    (n,) or (edges,) sums; the caller adds them and scales once, so
    reduce(g, None, betweenness(), cluster=...) equals curnet.betweenness(g). `sources` other
    than all vertices give the subset betweenness of those sources."""

    kind = None
    # Each chunk prepares its sources on the host and ends in a part-filled batch: R-MAT 20's
    # 65,536 sampled sources on one H100 took 7.48 s in one chunk, 8.56 s in 8 and 9.41 s in 16
    # run in turn (bench/results/betweenness_chunks_h100.txt). Two a thread still balance them.
    chunks_per_thread = 2

    def __init__(self, *, edges=False, directed=True, weighted=None, normalized=False, cutoff=None,
                 targets=None):
        self.edges, self.normalized = edges, normalized
        self.options = dict(directed=directed, weighted=weighted, cutoff=cutoff, targets=targets)

    def order(self, g, ids):
        # the sums do not depend on the order (algorithms.betweenness.source_order.chunk_order says which)
        from ..algorithms.betweenness.source_order import chunk_order
        job, fold = self._job(g, ids)
        return chunk_order(job.graph, job.sources, fold)

    def costs(self, g, ids):
        # where leaves fold, a chunk traverses a column for each vertex its sources fold into:
        # R-MAT 20's 65,536 sampled sources in two halves hold 27,774 and 32,618 columns
        from ..algorithms.betweenness.graph_reductions import opens_column
        job, fold = self._job(g, ids)
        return opens_column(job.graph, ids) if fold else None

    def _job(self, g, ids):
        """(the BetweennessJob of sources `ids`, whether its traversals fold leaves)."""
        from ..algorithms.betweenness.graph_reductions import folds_leaves
        from ..analyses.betweenness_centrality import BetweennessJob
        job = BetweennessJob(g, sources=ids, **self.options)
        return job, folds_leaves(job.graph, job.cutoff, self.edges, False)

    def chunk(self, g, ids, backend):
        from ..analyses.betweenness_centrality import BetweennessJob
        job = BetweennessJob(g, sources=ids if len(ids) else None, **self.options)
        if len(ids) == 0:           # order() left no source that reaches another vertex
            return np.zeros(g.num_edges if self.edges else len(g)), len(g), job.undirected
        vertex, arc = job.sums(edges=self.edges, backend=backend, progress=False)
        raw = np.bincount(job.graph.arc_edges, weights=arc, minlength=g.num_edges) if self.edges else vertex
        return raw, len(g), job.undirected

    def combine(self, partials):
        from ..analyses.betweenness_centrality import rescale
        raw = np.sum([p[0] for p in partials], axis=0)
        _, n, undirected = partials[0]
        return rescale(raw, n if self.edges else n - 1, self.normalized, undirected)
