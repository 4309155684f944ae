"""Brandes' sweeps on the GPU (kernels/betweenness.cu): the weighted DAG levels, the path
counts and dependencies a level at a time, and the arcs' dependencies; each with the contract
of its NumPy twin in backends/cpu/brandes.py. A batch of BFS levels is indexed once
(`LevelIndex`), which says where a level is pushed (`BrandesSweeps.pushes`) and which tasks
each sweep visits."""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import cupy as cp

from ...work import tally
from ..brandes import ARC_PIECE, arc_pieces, tie_epsilon
from .launch import NULL, THREADS, i32, i64

# The weighted levels' Kahn rounds between two reads of the `placed` flag (host syncs): rounds
# past the last one place nothing, so checking every few rounds costs at most a few idle scans.
ROUNDS_PER_CHECK = 4
# A BFS level's path counts are copied as float32 (exact below 2^24; NarrowCounts) when the
# arcs of the next level's pull could read them this many times over: the copy costs ~12
# bytes an entry, and each arc of that pull then loads no neighbour level (one dependent load
# an arc, not two). R-MAT 20's level 2: 43 million entries at 1,024 sources, read over ~10^10
# lane-arcs by level 3's pull (57.6 -> 41.5 ms on the H100).
NARROW_RATIO = 4
# The path counts of BFS levels (int8, kb even) are pulled two sources a lane, a warp a (piece,
# 64 sources) task: each arc's neighbour id and shuffle serve twice the sources (2-byte level,
# 8-byte float32 or 16-byte double loads). R-MAT 20's pull into level 3 at 1,024 sources on
# the H100: 32.6 / 27.3 / 41.4 ms against 38.4 / 32.5 / 48.5 at three places of the exact
# order. The shares' pull stays one a lane (two: 70-108 against 67-78 ms). 1: one source a
# lane (A/B, tests).
LANE_SOURCES = 2
# A level with many arcs to walk is swept a tile of sources at a time, a launch a tile (each
# tile's tasks, every piece for its sources, listed apart), so that the warps running together
# read the neighbour rows of fewer sources, a set L2 keeps better. Sources a tile (0: the whole
# batch) by sweep: the path counts' pull, the shares' pull, the pushes. R-MAT 20's two full
# levels at 1,024 sources on the H100, launched a tile at a time with every sum added
# atomically: the shares of level 2, 56.9 ms in tiles of 64 against 66.5 in one; the counts
# into level 3, 22.9 in tiles of 256 against 25.3 (bench/results/betweenness_segments_tiles_h100.txt).
# Pushes in tiles of 64: R-MAT 20 exact 58.87 s against 62.81 in one, same call
# (betweenness_rmat20_exact_knobs_h100.txt; the first run also paid the graph's preparation).
TILE_SOURCES = {"sigma": 256, "delta": 64, "push": 64}
# ... only where each tile's launch walks at least this many (arc, source) pairs (the index's
# count of the level's arcs), so that a launch's fixed cost stays small against its work.
TILE_ARCS = 1 << 28

# The share of free memory a batch's blocks may take, by weighted. BFS levels: half. R-MAT 20
# exact on the H100 at 2,944 sources a batch (half) against 1,952 (a third): 57.80 against
# 59.01 s; CuPy's pool then held 36.6 GiB of the 79 at most (26 bytes an entry against the
# estimate's 28; betweenness_chunks_h100.txt). Weighted: a third, as the SSSP's own (kb, n)
# distances and their transposed copy, beyond the estimate, are alive together.
BATCH_MEMORY_SHARE = {False: 1 / 2, True: 1 / 3}
# A pushed arc (an atomic add) costs more than a pulled one (a load): on one H200, R-MAT 20's
# level 3 pushed from level 2, whose entries have 0.58 of the arcs, took 106 ms against 74 ms
# pulled (about 2.4x a pushed arc; python -m bench betweenness-profile --account). With the sweeps
# a tile of sources at a time, pushing only below a sixth is a little faster: R-MAT 20 exact on
# the H100, 59.01 s at 4 and 58.46 s at 6 in one process (61.66 s at 3 against 62.81 s at 4 in
# another; betweenness_rmat20_exact_knobs*_h100.txt).
PUSH_RATIO = 6
LISTED_LEVELS = 64        # a uint64 bit a level; deeper levels' sweeps visit every task


class LevelIndex(NamedTuple):
    """A batch's int8 BFS levels indexed once (bc_level_index; the driver only hands it back):
    `arcs`, host int64 (128,), the arcs each level's entries have to walk (each level's
    direction is chosen from it, BrandesSweeps.pushes); `entries`, host int64 (128,), each
    level's entries; `levels`, on the device, uint64 (n, groups of 32 sources), the bits
    1 << l of the levels l < LISTED_LEVELS each group holds, from which a sweep lists the
    (piece, group) tasks with a lane at its level instead of visiting every task; `narrow`,
    the batch's float32 path counts (NarrowCounts)."""
    arcs: np.ndarray
    levels: Any
    entries: np.ndarray
    narrow: Any


class Lengths(NamedTuple):
    """What a sweep reads of path lengths, decided once a sweep (BrandesSweeps._lengths) from
    the distance block the driver's Dag holds where the call is weighted (none: BFS levels,
    hops): `weighted`; the kernel instance's suffix (_f32 / _f64 for the distances' dtype;
    _bfs, _bfs_l8 for int8 BFS levels); the distances and the tie epsilon (NULL and 0 for BFS
    levels)."""
    weighted: bool
    suffix: str
    dist: Any
    eps: np.float64

    def arc_weights(self, w):
        """The arc weights `w` in the distances' dtype (NULL for BFS levels)."""
        if not self.weighted:
            return NULL
        return w if w.dtype == self.dist.dtype else w.astype(self.dist.dtype)


class NarrowCounts:
    """A batch's path counts as float32 for the level-free pulls of BFS levels (int8, with a
    LevelIndex; bc_narrow_level: -1 where a count is not an integer below 2^24, so the pull
    reads the double there) in one (n, kb) block, zeroed when made (on the first copy): the
    pull into level at reads it with no level test (bc_sigma_level_free), since an arc into
    level at comes from level at - 1 or deeper, and of those only level at - 1's entries are
    written when it runs. `levels`: the levels copied."""

    def __init__(self, shape):
        self.shape = shape
        self._block = None
        self.levels: set[int] = set()

    @property
    def block(self):
        if self._block is None:
            self._block = cp.zeros(self.shape, np.float32)
        return self._block

    def drop(self) -> None:
        """Free the block (the forward sweep is done: its memory serves the way back)."""
        self._block = None
        self.levels.clear()


class BrandesSweeps:
    def __init__(self, launcher, tuning=None):
        self.launcher = launcher
        self.tuning = tuning
        self.piece = ARC_PIECE       # arcs a thread walks in the level sweeps (see pieces)
        self.narrow_ratio: float | None = NARROW_RATIO      # None: never narrow (A/B, tests)
        self.lane_sources = LANE_SOURCES
        self.tile_sources = dict(TILE_SOURCES)
        self.tile_arcs = TILE_ARCS
        self.push_ratio = PUSH_RATIO

    def batch_size(self, n: int, k: int, weighted: bool, traversal_size: int, edges: bool = False) -> int:
        """Sources a batch: the blocks of one (level 4 bytes, sigma and share 8 each, distances
        8 when weighted, the path counts' copy 8 for the arcs' dependencies, the sweeps'
        temporaries ~8: the float32 counts (NarrowCounts) on the way out, the reductions' on
        the way back) in a share of free memory (BATCH_MEMORY_SHARE), beside what the
        traversal's own batches may use (`traversal_size`), a multiple of 32 (a warp's lanes)."""
        per_source = n * (4 + 8 + 8 + 8 + (8 if weighted else 0) + (8 if edges else 0)) + 1
        fit = int(self.launcher.free_memory() * BATCH_MEMORY_SHARE[weighted] // per_source)
        size = max(32, (fit // 32) * 32)
        return max(1, min(size, k, traversal_size))

    @staticmethod
    def _lengths(dist, level=None) -> Lengths:
        """A sweep's Lengths, the one place the sweeps tell weighted from BFS levels: from the
        distance block `dist` (None for BFS levels) and the level block `level` it walks."""
        if level is not None and level.dtype not in (np.int32, np.int8):
            raise TypeError(f"Brandes' kernels take int32 or int8 levels, not {level.dtype}")
        if dist is None:
            return Lengths(False, "_bfs_l8" if level is not None and level.dtype == np.int8 else "_bfs", NULL,
                           np.float64(0.0))
        if level is not None and level.dtype != np.int32:
            raise TypeError("weighted DAG levels are int32")
        return Lengths(True, "_f64" if dist.dtype == np.float64 else "_f32", dist,
                       np.float64(tie_epsilon(dist.dtype)))

    def _grid(self, count: int):
        return count, self.launcher.max_blocks

    @staticmethod
    def _check(*blocks):
        for b in blocks:
            if b is not None and not b.flags.c_contiguous:
                raise ValueError("Brandes' kernels read C-ordered (n, kb) blocks")

    def levels(self, hg, dist) -> cp.ndarray:
        """The (n, kb) int32 DAG levels of a distance block (inf where not reached), by Kahn's
        order: each entry's DAG in-arcs counted, then released a level at a time (the `placed`
        flag read every ROUNDS_PER_CHECK rounds)."""
        self._check(dist)
        n, kb = dist.shape
        lengths = self._lengths(dist)
        eps = lengths.eps
        waiting = cp.zeros((n, kb), np.int32)
        self._sweep(hg, "bc_dag_in_arcs" + lengths.suffix, kb, False,
                    (hg.in_ptr, hg.in_src, lengths.arc_weights(hg.in_w), dist, waiting, eps))
        level = cp.where(cp.isfinite(dist) & (waiting == 0), 0, -1).astype(np.int32)   # the sources
        placed = cp.zeros(1, np.uint32)
        out_w = lengths.arc_weights(hg.out_w)
        at = 0
        while True:
            placed.fill(0)
            for _ in range(ROUNDS_PER_CHECK):
                tally("betweenness level rounds")
                self._sweep(hg, "bc_dag_release" + lengths.suffix, kb, True,
                            (hg.out_ptr, hg.out_idx, out_w, dist, level, waiting, i32(at), placed, eps))
                at += 1
            if not int(placed[0]):
                break
        if bool((waiting > 0).any()):
            raise RuntimeError("the shortest-path DAG has a cycle: is a weight zero or negative?")
        return level

    def _sweep(self, hg, kernel: str, kb: int, out: bool, args, listed=None, tile: str = "") -> None:
        """Launch sweep `kernel` (its instance: Lengths.suffix) over the pieces of the out-arcs
        (`out`) or the in-arcs (see pieces): the weighted levels' kernels a thread a (piece,
        source) entry; the level sweeps (`listed` = (index, owner)) a warp a (piece, 32
        sources) task, the tasks with a lane at level `owner` where `index` lists them (tile by
        tile: tile_sources[tile]), else every task."""
        self._launch_tasks(hg, kernel, kb, out, args, listed, 1, tile)

    def _pull(self, hg, name: str, lengths: Lengths, kb: int, out: bool, args, listed) -> None:
        """Launch a pull of path counts, `name` bc_sigma_level or bc_sigma_level_free, as
        _sweep, two sources a lane (its _x2 kernel, a warp a (piece, 64 sources) task) where
        _lane_sources says."""
        lane = self._lane_sources(lengths, kb)
        self._launch_tasks(hg, name + lengths.suffix + ("_x2" if lane == 2 else ""), kb, out, args,
                           listed, lane, "sigma")

    def _lane_sources(self, lengths: Lengths, kb: int) -> int:
        """Sources a lane of a pull: two for int8 BFS levels of an even number of sources (a
        lane's two entries one aligned vector) when lane_sources is 2, else one."""
        paired = self.lane_sources == 2 and lengths.suffix == "_bfs_l8" and kb % 2 == 0
        return 2 if paired else 1

    def _launch_tasks(self, hg, kernel: str, kb: int, out: bool, args, listed, lane: int, tile: str = "") -> None:
        row, start = pieces(hg, out, self.piece)
        count = len(row) * groups(kb, lane) * 32
        tiles = [(0, None)] if listed is None else self._tiles(listed[0], listed[1], len(row), kb, lane, tile)
        for first, last in tiles:
            tasks = () if listed is None else self._tasks(listed[0], row, len(row), kb, listed[1], lane, first, last)
            self.launcher.launch("betweenness", kernel, count,
                                 (i64(len(row)), i32(kb), row, start, i32(self.piece)) + tasks + tuple(args),
                                 max_blocks=self.launcher.max_blocks)

    def _tiles(self, index, owner: int, count: int, kb: int, lane: int, tile: str) -> list:
        """The (first, last) groups of each tile a sweep of level `owner` over `count` rows is
        launched in: tiles of tile_sources[tile] sources where its tasks are listed (_lists)
        and the level's arcs (LevelIndex) give each at least tile_arcs, else one (a sweep
        that visits every task must run once)."""
        total = groups(kb, lane)
        width = self.tile_sources.get(tile, 0) // (32 * lane)
        if not self._lists(index, owner, count, kb, lane) or width <= 0 or width >= total \
                or index.arcs[owner] < self.tile_arcs * -(-total // width):
            return [(0, total)]
        return [(first, min(total, first + width)) for first in range(0, total, width)]

    @staticmethod
    def _lists(index, owner: int, count: int, kb: int, lane: int) -> bool:
        """Whether a sweep of level `owner` over `count` rows visits listed tasks: there is an
        index, the level is within its bits, and the tasks fit uint32."""
        return index is not None and owner < LISTED_LEVELS and count * groups(kb, lane) < 1 << 32

    def _tasks(self, index, rows, count: int, kb: int, owner: int, lane: int = 1, first: int = 0,
               last: int | None = None) -> tuple:
        """(tasks, ntasks) on the device: the (row, 32 x lane sources) tasks, rows `count`
        pieces of vertices `rows` (NULL: the vertices themselves), groups first .. last - 1
        (None: to the last), whose group holds an entry at level `owner`, listed from `index`
        (LevelIndex); (NULL, NULL), every task, where there is no index, the level is past its
        bits, or the tasks overflow uint32."""
        if not self._lists(index, owner, count, kb, lane):
            return NULL, NULL
        last = groups(kb, lane) if last is None else last
        tasks, ntasks = cp.empty(count * (last - first), np.uint32), cp.zeros(1, np.uint32)
        self.launcher.launch("betweenness", "bc_level_tasks", count * (last - first),
                             (i64(count), i32(kb), rows, index.levels, i32(owner), i32(lane), i32(first), i32(last),
                              tasks, ntasks), max_blocks=self.launcher.max_blocks)
        return tasks, ntasks

    def level_index(self, hg, level):
        """The batch's LevelIndex (one pass over the int8 levels), or None for int32 levels
        (no push, every task visited)."""
        if level.dtype != np.int8:
            return None
        n, kb = level.shape
        counted = cp.zeros((2, 128), np.uint64)          # each level's arcs, its entries
        levels = cp.empty((n, groups(kb)), np.uint64)
        self.launcher.launch("betweenness", "bc_level_index_l8", n * THREADS,      # a block a row
                             (i64(n), i32(kb), level, hg.out_ptr, counted[0], counted[1], levels),
                             max_blocks=self.launcher.max_blocks)
        arcs, entries = cp.asnumpy(counted).astype(np.int64)
        return LevelIndex(arcs, levels, entries, NarrowCounts(level.shape))

    def pushes(self, index, at: int, other: int) -> bool:
        """Whether BFS level `at` is swept from level `other`'s end (BFS levels join consecutive
        levels only): the batch's index is a LevelIndex (weighted and int32 levels have none)
        that gives `other` under 1/push_ratio of `at`'s arcs. The index counts out-degrees and
        the shares' push walks in-arcs, so on directed graphs the count is an estimate: the
        choice moves the time, never the values."""
        return index is not None and index.arcs[other] * self.push_ratio < index.arcs[at]

    def _push(self, hg, level, value, out, source_level: int, at: int, out_arcs: bool, index) -> None:
        """The entries at `source_level` add `value` into `out` at their neighbours on level
        `at`, over out-arcs (`out_arcs`) or in-arcs (BFS levels, int8)."""
        if level.dtype != np.int8:
            raise ValueError("pushing takes int8 BFS levels")
        ptr, nb = (hg.out_ptr, hg.out_idx) if out_arcs else (hg.in_ptr, hg.in_src)
        self._sweep(hg, "bc_push_level" + self._lengths(None, level).suffix, level.shape[1], out_arcs,
                    (ptr, nb, level, value, out, i32(source_level), i32(at)), (index, source_level), "push")

    def sigma_level(self, hg, level, dist, sigma, at: int, push: bool = False, index=None) -> None:
        """Pulled, the sweep reads level at - 1's counts as float32, level-free, where the
        index holds them; then level `at`'s counts are copied where the next level's pull
        would read them often enough (_narrows), and after the deepest level the copies go."""
        self._check(level, dist, sigma)
        if push:           # from level at - 1 along its out-arcs
            self._push(hg, level, sigma, sigma, at - 1, at, True, index)
        elif index is not None and at - 1 in index.narrow.levels:
            self._pull(hg, "bc_sigma_level_free", self._lengths(None, level), level.shape[1], False,
                       (hg.in_ptr, hg.in_src, level, sigma, index.narrow.block, i32(at)), (index, at))
        else:
            lengths = self._lengths(dist, level)
            self._pull(hg, "bc_sigma_level", lengths, level.shape[1], False,
                       (hg.in_ptr, hg.in_src, lengths.arc_weights(hg.in_w), level, lengths.dist, sigma,
                        i32(at), lengths.eps), (index, at))
        if index is None:
            return
        if self._narrows(index, at):
            self._narrow(level, sigma, at, index)
        if not index.entries[at + 1:].any():         # the deepest level: no pull reads the copies
            index.narrow.drop()

    def _narrows(self, index, at: int) -> bool:
        """Whether level `at`'s counts are worth a float32 copy: the arcs of the pull into level
        at + 1 (at most the fewer of the two levels' arcs) at least narrow_ratio x its entries
        (a ratio of 0: every level)."""
        if self.narrow_ratio is None or at + 1 >= len(index.arcs):
            return False
        return index.entries[at] * self.narrow_ratio <= min(index.arcs[at], index.arcs[at + 1])

    def _narrow(self, level, sigma, at: int, index) -> None:
        """Copy level `at`'s path counts into the index's NarrowCounts (its listed tasks)."""
        n, kb = level.shape
        self.launcher.launch("betweenness", "bc_narrow_level_l8", n * groups(kb) * 32,
                             (i64(n), i32(kb)) + self._tasks(index, NULL, n, kb, at)
                             + (level, sigma, index.narrow.block, i32(at)), max_blocks=self.launcher.max_blocks)
        index.narrow.levels.add(at)

    def delta_level(self, hg, level, dist, sigma, share, weight, at: int, push: bool = False, index=None) -> None:
        """Pulled, the sweep finishes the entries of vertices of one piece and the others
        (rows_finished_apart) are finished after it (_finish); pushed (from level at + 1
        along its in-arcs), every entry at the level is finished after it."""
        self._check(level, dist, sigma, share)
        n, kb = level.shape
        if push:
            self._push(hg, level, share, share, at + 1, at, False, index)
            self._finish(level, NULL, n, sigma, share, weight, at, index)
            return
        lengths = self._lengths(dist, level)
        self._sweep(hg, "bc_delta_level" + lengths.suffix, kb, True,
                    (hg.out_ptr, hg.out_idx, lengths.arc_weights(hg.out_w), level, lengths.dist,
                     sigma, share, weight, i32(at), lengths.eps), (index, at), "delta")
        rows = rows_finished_apart(hg, self.piece)
        if len(rows):
            self._finish(level, rows, len(rows), sigma, share, weight, at, index)

    def _finish(self, level, rows, count: int, sigma, share, weight, at: int, index) -> None:
        """Finish the entries at level `at` of `count` rows (vertices `rows`, NULL: every
        vertex) whose shares are summed: a warp a (row, 32 sources) group, those `index` lists."""
        kb = level.shape[1]
        name = "bc_finish_level" + ("_l8" if level.dtype == np.int8 else "")
        self.launcher.launch("betweenness", name, count * groups(kb) * 32,
                             (rows, i64(count), i32(kb)) + self._tasks(index, rows, count, kb, at)
                             + (level, sigma, share, weight, i32(at)), max_blocks=self.launcher.max_blocks)

    def edge_dependency(self, hg, level, dist, sigma, share, out) -> None:
        self._check(level, dist, sigma, share)
        n, kb = level.shape
        m = len(hg.out_idx)
        count, blocks = self._grid(32 * m)          # a warp an arc
        lengths = self._lengths(dist, level)
        self.launcher.launch("betweenness", "bc_edge_dependency" + lengths.suffix, count,
                             (i64(m), i32(kb), out_sources(self.launcher, hg), hg.out_idx,
                              lengths.arc_weights(hg.out_w), level, lengths.dist, sigma, share, out,
                              lengths.eps), max_blocks=blocks)


def groups(kb: int, lane: int = 1) -> int:
    """The groups of 32 x lane sources (a warp's lanes, `lane` sources each) of a kb-source batch."""
    return (kb + 32 * lane - 1) // (32 * lane)


def out_sources(launcher, hg) -> cp.ndarray:
    """The tail of each out-arc (CSR order), built once and kept with the device graph."""
    tails = hg.extra.get("out_src")
    if tails is None:
        tails = cp.empty(len(hg.out_idx), np.int32)
        launcher.launch("bfs", "fill_rows", hg.n, (hg.out_ptr, i64(hg.n), tails),
                        max_blocks=launcher.max_blocks)
        hg.extra["out_src"] = tails
    return tails


def rows_finished_apart(hg, size: int = ARC_PIECE) -> cp.ndarray:
    """The vertices whose entries the backward sweep cannot finish itself (int32, on the
    device; found once, kept with the graph): those whose out-arcs take several pieces (their
    sums added atomically), and those without out-arcs (no piece, so no warp visits them:
    sinks of directed graphs, and sources whose neighbours were all leaves, left out of the
    traversals with them, whose own level is swept for the weight they reach, 0 there)."""
    key = ("bc_rows_finished_apart", size)
    found = hg.extra.get(key)
    if found is None:
        found = cp.flatnonzero((cp.diff(hg.out_ptr) > size) | (cp.diff(hg.out_ptr) == 0)).astype(np.int32)
        hg.extra[key] = found
    return found


def pieces(hg, out: bool, size: int = ARC_PIECE):
    """(row, start) on the device: the pieces of at most `size` arcs of the out-arcs' CSR
    (`out`) or the in-arcs' (backends.brandes.arc_pieces), built once, kept with the graph."""
    key = ("bc_pieces", out, size)
    found = hg.extra.get(key)
    if found is None:
        if not out and hg.in_ptr is hg.out_ptr:          # undirected: the same CSR
            found = pieces(hg, True, size)
        else:
            row, start = arc_pieces(cp.asnumpy(hg.out_ptr if out else hg.in_ptr), size)
            found = (cp.asarray(row), cp.asarray(start))
        hg.extra[key] = found
    return found
