"""Step 2 of the method: the batched shortest paths from every terminal, one `sssp_blocks`
job whose sink keeps only the distances between terminals (and to the root) and the paths
between them, walked up the predecessors on the device."""
from __future__ import annotations

import numpy as np

from ...algorithms.sinks import Sink
from ...algorithms.sssp import sssp_blocks
from .problem import Problem


class _TerminalPaths(Sink):
    """Per source, on the device: its distances to `targets[row]` (the terminals and the
    root of its copy) and the shortest paths to them, walked up the predecessors at once:
    hops[h, j, t] is the h-th vertex from target t back to source j (-1 past the source)."""

    def __init__(self, targets):
        self.targets = targets                              # (k, T + 1) vertex ids
        self.dist = np.empty(targets.shape, np.float64)
        self.hops = {}                                      # first_row -> (L, kb, T + 1)

    def consume(self, be, first_row, batch_ids, result) -> None:
        dist, pred = result                                 # (N, kb) each
        xp = be.xp
        kb = len(batch_ids)
        rows = slice(first_row, first_row + kb)
        cols = xp.arange(kb)[:, None]
        cur = xp.asarray(self.targets[rows])
        be.copy_to_host(dist[cur, cols], self.dist[rows])
        hops = [cur]
        while True:
            nxt = xp.where(cur >= 0, pred[xp.maximum(cur, 0), cols], -1)
            if not bool((nxt >= 0).any()):
                break
            hops.append(nxt)
            cur = nxt
        block = xp.stack(hops).astype(xp.int32)
        host = np.empty(block.shape, np.int32)
        be.copy_to_host(block.reshape(len(hops), -1), host.reshape(len(hops), -1))
        self.hops[first_row] = host

    def paths(self, rows, cols):
        """The paths of (rows[i], cols[i]) as an (L, len(rows)) array, -1 padded: only
        those leave the batches' blocks (a job of 1,000 terminals holds a million paths)."""
        firsts = np.array(sorted(self.hops))
        block = np.searchsorted(firsts, rows, side="right") - 1
        L = max(self.hops[f].shape[0] for f in firsts)
        out = np.full((L, len(rows)), -1, np.int32)
        for i in np.unique(block):
            h = self.hops[firsts[i]]
            mine = np.flatnonzero(block == i)
            out[:h.shape[0], mine] = h[:, rows[mine] - firsts[i], cols[mine]]
        return out


def paths_between_terminals(P: Problem, run_costs, backend, progress, dtype=np.float64):
    """Distances (runs, T, T + 1) and, for each run, its paths: path(a, b) gives the (L, m)
    paths from terminals a[i] to terminals (or the root, T) b[i] in the run's own vertex
    ids; for the runs whose adjusted costs are `run_costs`, one batched call over a graph
    that holds every run's copy side by side (no edge joins two copies)."""
    R, N = len(run_costs), P.n + 1
    T = len(P.terminals)
    offset = (np.arange(R, dtype=np.int64) * N)[:, None]
    big = P.run_graph(run_costs, dtype)
    local = np.append(P.terminals, P.root)
    targets = (local[None, :] + offset).reshape(R, 1, T + 1).repeat(T, axis=1).reshape(R * T, T + 1)
    sources = (P.terminals[None, :] + offset).ravel()
    sink = _TerminalPaths(targets)
    sssp_blocks(big, sources, sink, backend=backend, with_pred=True, progress=progress)

    def run_paths(run):
        def path(a, b):
            h = sink.paths(run * T + np.asarray(a), np.asarray(b))
            return np.where(h >= 0, h - run * N, -1)
        return path
    return sink.dist.reshape(R, T, T + 1), [run_paths(run) for run in range(R)]
