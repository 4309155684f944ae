"""Network propagation's power iteration on the GPU (kernels/propagation.cu): every step of a
block of columns in one cooperative launch, each column stopping on the device when its own
error bound meets the tolerance, and one host wait a block (the steps each column took).
The NumPy twin is `curnet.propagation.solvers.WalkSolver` on the CPU."""
from __future__ import annotations

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


def walk_loop(ptr, idx, val, dangling, s, restart: float, *, redistribute: bool, ord2: bool,
              tol: float, max_iter: int):
    """x = (1 - r) W x + coef s to tolerance for every column of the (n, k) CuPy block s.

    ptr (int64), idx (int32), val (float64): W's CSR rows; dangling: (n,) uint8, 1 where a
    vertex has no out-arc (PageRank sends their mass along s when `redistribute`).
    Returns (x, steps): x the (n, k) result on the device (row-major, possibly a view of a
    wider block), steps a host int array, the steps each column took, negative where it met
    max_iter before tol."""
    n, k = s.shape
    ld = leading_dimension(k)
    if ld == k and s.dtype == np.float64 and s.flags.c_contiguous:
        start = s                                      # read only: the kernel never writes s
    else:
        start = cp.zeros((n, ld), np.float64)         # s, padded to ld
        start[:, :k] = s
    x0 = start.copy()                                  # x_0 = s; the result at the end
    x1 = cp.empty_like(x0)
    if ord2:
        scale = cp.sqrt((s * s).sum(axis=0))
    else:
        scale = cp.abs(s).sum(axis=0)
    sums = cp.zeros(6 * k, np.float64)                 # change (3 slots), dangling mass (3 slots)
    counts = cp.zeros(5 + k, np.uint32)                # retired (3 slots), barrier (2), steps (k)
    stop = counts[5:].view(np.int32)
    c_log, z_log = lane_shape(k, len(idx) / max(n, 1))
    rows_a_task = 32 >> (c_log + z_log)
    tasks = -(-k // (1 << c_log)) * -(-n // rows_a_task)
    wanted = -(-tasks // (THREADS // 32 * TASKS_A_WARP))
    blocks = max(1, min(resident("propagation", "walk_loop", THREADS), wanted))
    run = max(1, min(RUN_MAX, tasks // (blocks * THREADS // 32 * RUN_WAVES)))
    r = float(restart)
    args = (ptr, idx, val, dangling, start, x0, x1, scale, sums[:3 * k], sums[3 * k:], counts[:3], stop,
            counts[3:5], i64(n), i32(k), i64(ld), i32(c_log), i32(z_log), i32(run), np.float64(1 - r),
            np.float64(r), np.float64((1 - r) / r), np.float64(tol), i32(int(ord2)), i32(int(redistribute)),
            i32(max_iter))
    launch_cooperative("propagation", "walk_loop", blocks, args, THREADS,
                       shape=f"{n} rows x {k} columns")
    steps = stop.get()
    return (x0 if ld == k else x0[:, :k]), steps
