"""Network propagation's power iteration on the GPU (kernels/propagation.cu): every step of a
block of columns in one cooperative launch, each column stopping on the device when its own
error bound meets the tolerance, and one host wait a block (the steps each column took).
Long rows (hubs) are walked in pieces by many warps; once few columns still run, the launch
leaves and a narrower one goes on with just those. The NumPy twin is
`curnet.propagation.solvers.WalkSolver` on the CPU."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import cupy as cp

from .launch import i32, i64, launch_cooperative, resident

THREADS = 256
# Blocks launched: about this many tasks a warp and step, so that on a small block of columns
# fewer blocks meet at each grid barrier (at most what the GPU holds at once: a cooperative launch)
TASKS_A_WARP = 2
# A warp's tasks are taken this many at a time (up to), where there are tasks enough to keep
# every warp busy for RUN_WAVES runs: the per-column sums are added once a run, and the warps
# running together still share a few groups' slices of x in L2
RUN_MAX = 16
RUN_WAVES = 8
# Rows of more arcs than this are cut into pieces of this many, each a warp's task: a step
# lasts as long as its longest chain of loads, and a hub walked by one warp was that chain
PIECE_ARCS = 256
# A launch over more than one group of 32 columns leaves once at most this share of its
# columns still runs, and a launch of just those goes on (a group with one running column
# costs a step what a full one does)
LEAVE_SHARE = 0.25


@dataclass
class LongRows:
    """W's rows of more than PIECE_ARCS arcs, cut into pieces (device arrays): long_of (n,)
    int32, a row's number among the long rows or -1; piece_row, piece_first: each piece's row
    and first arc; piece_count: the pieces of each long row; piece_arcs: the arcs a piece holds."""
    long_of: cp.ndarray
    piece_row: cp.ndarray
    piece_first: cp.ndarray
    piece_count: cp.ndarray
    piece_arcs: int = PIECE_ARCS

    @property
    def rows(self) -> int:
        return len(self.piece_count)

    @property
    def pieces(self) -> int:
        return len(self.piece_row)


def long_rows(ptr, n: int, piece_arcs: int = PIECE_ARCS) -> LongRows:
    """The pieces of W's long rows, from its row offsets ptr (n + 1, int64, on the device)."""
    offsets = cp.asnumpy(ptr)
    lengths = np.diff(offsets)
    rows = np.flatnonzero(lengths > piece_arcs)
    count = -(-lengths[rows] // piece_arcs)
    long_of = np.full(max(n, 1), -1, np.int32)
    long_of[rows] = np.arange(len(rows), dtype=np.int32)
    piece_row = np.repeat(rows, count)
    first_piece = np.cumsum(count) - count                       # each long row's first piece
    within = np.arange(len(piece_row)) - np.repeat(first_piece, count)
    piece_first = offsets[piece_row] + within * piece_arcs
    return LongRows(cp.asarray(long_of), cp.asarray(piece_row.astype(np.int32)),
                    cp.asarray(piece_first.astype(np.int64)), cp.asarray(count.astype(np.int32)), piece_arcs)


@dataclass(frozen=True)
class WalkSpec:
    """What every launch of one walk_loop call shares: W's CSR rows (ptr int64, idx int32, val
    float64) and its long rows cut into pieces, the dangling vertices ((n,) uint8), the restart
    probability r (damping 1 - r), whether the dangling mass goes back along s (PageRank),
    the norm of the stopping test (2 with `ord2`, else 1), the tolerance and max_iter."""
    ptr: cp.ndarray
    idx: cp.ndarray
    val: cp.ndarray
    dangling: cp.ndarray
    cuts: LongRows
    restart: float
    redistribute: bool
    ord2: bool
    tol: float
    max_iter: int


def lane_shape(k: int, mean_row: float) -> tuple[int, int]:
    """log2 of (C, Z): a warp's 32 lanes as C adjacent columns (up to 32) times Z lanes a row's
    arcs are split over (the power of 2 at or below the rows' mean length: a lane walks one
    arc or more), the rest rows side by side."""
    c_log = min(5, max(0, int(np.ceil(np.log2(max(k, 1))))))
    z_log = min(5 - c_log, max(0, int(np.floor(np.log2(max(mean_row, 1.0))))))
    return c_log, z_log


def leading_dimension(k: int) -> int:
    """Row length of the blocks: k, rounded up to 16 columns (128 bytes) when a warp reads 32
    columns of a row, so each group's 256 bytes start on a cache line."""
    return k if k < 32 else -(-k // 16) * 16


def padded(a, ld: int):
    """The (n, k) block a as a row-major float64 (n, ld) block (a itself when it is one)."""
    n, k = a.shape
    if ld == k and a.dtype == np.float64 and a.flags.c_contiguous:
        return a
    out = cp.zeros((n, ld), np.float64)
    out[:, :k] = a
    return out


def walk_loop(ptr, idx, val, dangling, s, restart: float, *, redistribute: bool, ord2: bool,
              tol: float, max_iter: int, cuts: LongRows | None = None):
    """x = (1 - r) W x + coef s to tolerance for every column of the (n, k) CuPy block s.

    ptr (int64), idx (int32), val (float64): W's CSR rows; dangling: (n,) uint8, 1 where a
    vertex has no out-arc (PageRank sends their mass along s when `redistribute`); cuts:
    W's long rows (long_rows(ptr, n), which a caller may keep for its next blocks).
    Returns (x, steps): x the (n, k) result on the device (row-major, possibly a view of a
    wider block), steps a host int array, the steps each column took, negative where it met
    max_iter before tol."""
    n, k = s.shape
    if cuts is None:
        cuts = long_rows(ptr, n)
    ld = leading_dimension(k)
    start = padded(s, ld)                              # read only: the kernel never writes s
    if ord2:
        scale = cp.sqrt((s * s).sum(axis=0))
    else:
        scale = cp.abs(s).sum(axis=0)
    walk = WalkSpec(ptr, idx, val, dangling, cuts, float(restart), redistribute, ord2, tol, max_iter)
    leave_at = int(k * LEAVE_SHARE) if k > 32 else 0
    x, steps, done, sums = _launch(walk, start, start.copy(), k, scale, 0, None, leave_at)
    running = np.flatnonzero(steps == 0)
    if len(running):                                   # the launch left: on with those columns
        cols = cp.asarray(running)
        kr = len(running)
        ldr = leading_dimension(kr)
        slot_err, slot_ds = (done - 1) % 3, done % 3
        carried = (sums[slot_err * k:(slot_err + 1) * k][cols], sums[(3 + slot_ds) * k:(4 + slot_ds) * k][cols])
        xr, steps_r, _, _ = _launch(walk, padded(start[:, cols], ldr), padded(x[:, cols], ldr), kr,
                                    scale[cols], done, carried, 0)
        x[:, cols] = xr[:, :kr]
        steps[running] = steps_r[:kr]
    return (x if ld == k else x[:, :k]), steps


def _launch(walk: WalkSpec, start, x_now, k: int, scale, step0: int, carried, leave_at: int):
    """One launch of walk_loop over the k columns of the (n, ld) blocks start (s) and x_now
    (x_step0, which the call may overwrite), from step step0 (carried: the change of step
    step0 - 1 and the dangling mass of x_step0 a column, when step0 > 0). Returns (x0, steps,
    steps taken, the per-column sums) once it ends, x0 holding every column's last iterate."""
    cuts = walk.cuts
    n, ld = start.shape
    x0, x1 = (x_now, cp.empty_like(x_now)) if step0 % 2 == 0 else (cp.empty_like(x_now), x_now)
    c_log, z_log = lane_shape(k, len(walk.idx) / max(n, 1))
    groups = -(-k // (1 << c_log))
    # change (3 slots), dangling mass (3 slots), the long rows' sums; one allocation
    sums = cp.zeros(6 * k + max(1, cuts.rows * ld), np.float64)
    part = sums[6 * k:]
    if carried is not None:
        err, ds = carried
        e, d = (step0 - 1) % 3, step0 % 3
        sums[e * k:(e + 1) * k] = err
        sums[(3 + d) * k:(4 + d) * k] = ds
    # retired (3 slots), barrier (2), steps taken, steps (k), the long rows' pieces arrived
    counts = cp.zeros(6 + k + max(1, cuts.rows * groups), np.uint32)
    stop = counts[6:6 + k].view(np.int32)
    arrived = counts[6 + k:]
    rows_a_task = 32 >> (c_log + z_log)
    tasks = groups * -(-n // rows_a_task)
    wanted = -(-(tasks + groups * cuts.pieces) // (THREADS // 32 * TASKS_A_WARP))
    blocks = max(1, min(resident("propagation", "walk_loop", THREADS), wanted))
    run = max(1, min(RUN_MAX, tasks // (blocks * THREADS // 32 * RUN_WAVES)))
    r = walk.restart
    args = (walk.ptr, walk.idx, walk.val, walk.dangling, start, x0, x1, scale, sums[:3 * k], sums[3 * k:],
            counts[:3], stop, counts[3:5], counts[5:6].view(np.int32), cuts.long_of, cuts.piece_row,
            cuts.piece_first, cuts.piece_count, part, arrived, i64(cuts.pieces), i32(cuts.piece_arcs),
            i64(n), i32(k), i64(ld), i32(c_log), i32(z_log), i32(run), np.float64(1 - r),
            np.float64(r), np.float64((1 - r) / r), np.float64(walk.tol), i32(int(walk.ord2)),
            i32(int(walk.redistribute)), i32(walk.max_iter), i32(step0), i32(leave_at))
    launch_cooperative("propagation", "walk_loop", blocks, args, THREADS,
                       shape=f"{n} rows x {k} columns")
    tail = counts[5:6 + k].get().view(np.int32)
    return x0, tail[1:].astype(np.int64), int(tail[0]), sums[:6 * k]
