"""Sinks that reduce each batch's distance block on the device (see bfs_blocks / sssp_blocks):
per-source sums, counts and maxima, and a histogram of path lengths. Only O(k) or
O(diameter) results reach the host, so an all-sources job never holds the k x n matrix.

The code is written once over the backend's array module `be.xp` (NumPy or CuPy)."""
from __future__ import annotations

import threading
from typing import Any

import numpy as np

from .sinks import Sink


def _distances(result):
    """The (n, kb) distance block of a finished batch: BFS hands the depths, SSSP (dist, pred)."""
    return result[0] if isinstance(result, tuple) else result


# Each reduction makes a few temporaries the size of what it reads: reading a block this many
# entries at a time keeps them under ~1 GB beside a GPU batch of several GB.
CHUNK_ENTRIES = 1 << 27


def _column_chunks(d):
    """(first column, d[:, first:first + w]) pieces of a block of at most CHUNK_ENTRIES."""
    n, kb = d.shape
    w = max(1, CHUNK_ENTRIES // max(n, 1))
    for a in range(0, kb, w):
        yield a, d[:, a:a + w]


class SourceStats(Sink):
    """Per source (one row of k), over the vertices v with mindist <= d(s, v) <= upto:

    * ``count``: how many (the source itself included when mindist is 0);
    * ``total``: the sum of their distances;
    * ``inverse``: the sum of 1 / d over those at a non-zero distance;
    * ``farthest`` / ``farthest_at``: the largest distance and the first vertex at it.

    `upto` None is no upper limit; `want` names the statistics kept. The backend computes them
    (`depth_stats`: one fused pass over an int32 block on the GPU). Batches write disjoint rows,
    so threads need no lock.
    """

    ALL = ("count", "total", "inverse", "farthest")

    def __init__(self, k: int, *, upto=None, mindist=0, want=ALL):
        unknown = set(want) - set(self.ALL)
        if unknown:
            raise ValueError(f"unknown statistics {sorted(unknown)}; choose from {self.ALL}")
        self.upto, self.mindist, self.want = upto, mindist, tuple(want)
        # an array for each statistic in `want`, None for the others (Any: callers read the ones
        # they asked for)
        self.count: Any = np.zeros(k, np.int64) if "count" in want else None
        self.total: Any = np.zeros(k, np.float64) if "total" in want else None
        self.inverse: Any = np.zeros(k, np.float64) if "inverse" in want else None
        if "farthest" in want:
            self.farthest = np.zeros(k, np.float64)
            self.farthest_at = np.zeros(k, np.int64)

    def consume(self, be, first_row, batch_ids, result) -> None:
        xp = be.xp
        pieces = [be.depth_stats(d, self.upto, self.mindist, self.want)
                  for _, d in _column_chunks(_distances(result))]
        rows = slice(first_row, first_row + len(batch_ids))
        names = [name for name in ("count", "total", "inverse") if getattr(self, name) is not None]
        if "farthest" in self.want:
            names += ["farthest", "farthest_at"]
        for name in names:              # one copy to the host per statistic and batch
            getattr(self, name)[rows] = be.to_host(xp.concatenate([p[name] for p in pieces]))


class DepthHistogram(Sink):
    """How many (source, vertex) pairs lie at each hop distance 1, 2, ... (`counts[d - 1]`),
    and how many are unreachable. Accumulates across batches and threads (locked)."""

    def __init__(self):
        self.counts = np.zeros(0, np.int64)
        self.unreachable = 0
        self._lock = threading.Lock()

    def consume(self, be, first_row, batch_ids, result) -> None:
        block = _distances(result)
        if block.dtype.kind not in "iu":
            raise TypeError("DepthHistogram counts hop distances: give it BFS depth blocks")
        counts, missing = [], 0
        for _, d in _column_chunks(block):
            here, gone = be.depth_histogram(d)
            counts.append(be.to_host(here))
            missing = missing + gone
        missing = int(be.to_host(missing))
        with self._lock:
            for here in counts:
                if len(here) > len(self.counts):
                    self.counts = np.concatenate([self.counts, np.zeros(len(here) - len(self.counts), np.int64)])
                self.counts[:len(here)] += here
            self.unreachable += missing
