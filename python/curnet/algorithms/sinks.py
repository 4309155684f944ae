"""Sinks: where the many-source drivers (`bfs_blocks`, `sssp_blocks`) hand each finished
batch, on the device, before anything is copied to the host.

A sink has two methods:

    block(be, first_row, batch_ids, shape, dtype, fill) -> an (n, kb) array of `be.xp` for
        the BFS driver to fill with the batch's depths (`fill` where unreachable);
    consume(be, first_row, batch_ids, result) -> None, once the batch is done: `result` is
        the (n, kb) depth block for BFS, or (dist, pred or None) for shortest paths, each
        (n, kb), arrays of `be.xp` (CuPy on a GPU).

`first_row` is the batch's first row in the whole job (its sources are
`sources[first_row:first_row + kb]`). Batches may be consumed out of order and on several
threads at once (CPU worker threads, one thread a GPU): a sink that accumulates must lock.
"""
from __future__ import annotations

import threading


class Sink:
    """A sink whose blocks are fresh device arrays; subclasses say what `consume` does."""

    def block(self, be, first_row, batch_ids, shape, dtype, fill):
        return be.xp.full(shape, fill, dtype)

    def consume(self, be, first_row, batch_ids, result) -> None:
        raise NotImplementedError


class MatrixSink(Sink):
    """Rows of host (k, n) matrices: `out` (depths or distances) and, for shortest paths,
    `pred`. On the CPU a BFS block is the caller's matrix itself (nothing copied); on a GPU
    the backend copies each block into its rows (overlapped with the next batch).

    Predecessors are the engine's (0-based, -1 none) unless `pred_base` / `pred_none` say
    otherwise (R's form: 1 and NA_integer_): renumbered on the device, before the copy, so
    the host makes no pass of its own."""

    def __init__(self, out, pred=None, *, pred_base=0, pred_none=-1):
        self.out, self.pred = out, pred
        self.pred_base, self.pred_none = pred_base, pred_none

    def _rows(self, first_row, batch_ids):
        return slice(first_row, first_row + len(batch_ids))

    def block(self, be, first_row, batch_ids, shape, dtype, fill):
        return be.output_block(self.out[self._rows(first_row, batch_ids)].T, fill)

    def consume(self, be, first_row, batch_ids, result) -> None:
        rows = self._rows(first_row, batch_ids)
        if isinstance(result, tuple):                # shortest paths: (dist, pred or None)
            dist, pred = result
            be.copy_to_host(dist.T, self.out[rows])
            if self.pred is not None:
                if (self.pred_base, self.pred_none) != (0, -1):
                    xp = be.xp
                    pred = xp.where(pred >= 0, pred + self.pred_base, self.pred_none).astype(xp.int32, copy=False)
                be.copy_to_host(pred.T, self.pred[rows])
        else:
            be.finish_block(result, self.out[rows].T)


class DiscardSink(Sink):
    """Drops every batch (results left on the device): the engine layer of the benchmarks."""

    def consume(self, be, first_row, batch_ids, result) -> None:
        pass


class CollectSink(Sink):
    """Keeps every batch's result where it was computed, as (first_row, result) pairs in
    `blocks`, sorted by first row once the job is done (see `ordered`)."""

    def __init__(self):
        self.blocks = []
        self._lock = threading.Lock()

    def consume(self, be, first_row, batch_ids, result) -> None:
        with self._lock:
            self.blocks.append((first_row, result))

    def ordered(self) -> list:
        return [r for _, r in sorted(self.blocks, key=lambda b: b[0])]
