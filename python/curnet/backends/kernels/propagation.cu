// Network propagation (curnet/propagation): the power iteration of a walk with restart,
//     x_(t+1) = damp W x_t + coef_t s,   coef_t = r (+ damp * the mass of x_t on dangling rows,
//                                         when `redistribute`: PageRank's jumps),
// for a block of k columns at once, every step in one cooperative launch (grid barriers
// between steps, no host round trip a step). W is CSR (row i: the arcs into i, weighted by
// the chance of the step); x, s are row-major (n, ld) blocks, ld >= k. Each column stops on
// its own when damp / r times its step's change, relative to its start's norm, is <= tol
// (L1, or the 2-norm with `ord2`), exactly the host solver's rule (propagation/solvers.py).
//
// A warp takes a task: R rows x C columns of one group of C adjacent columns, each row's
// arcs split over Z lanes (R * Z * C = 32; lane = (row * Z + z) * C + column). Tasks are
// numbered group-major, so the warps running together read one group's slice of x (L2), and
// a warp takes `run` consecutive tasks at a time (one group's rows), so that it adds its
// per-column sums once a run rather than once a task (and, over a single group, a block's
// warps add theirs in shared memory first: one atomic a block). A warp reads its column's
// state (stopped, the weight of s) once a group, not once a task.
//
// Long rows (a hub's in-arcs: more than piece_arcs) are cut into pieces of piece_arcs arcs,
// each piece a task of its own for one group (lane = z * C + column, 32 / C lanes over the
// piece's arcs), so that no warp walks a hub alone while the grid waits for it at the
// barrier. A piece adds its sums into part (a long row's (ld) slice) and counts itself in
// arrived (one count a long row and group); the warp that brings the count to the row's
// number of pieces reads the complete sums (the fence-then-count of a threadfence reduction)
// and finishes the row, all in the same step. The pieces' sums meet in the order they arrive
// (atomics): the long rows' values may differ from run to run in the last bits.
//
// A step's per-column sums live in three slots used in turn (common.cuh's slot_of): the
// change of step t in err[t % 3], the dangling mass of x_t in dsum[t % 3], the columns
// retired during step t in retired[t % 3]. A column converged at step t - 1 is seen by every
// thread during step t (err of step t - 1 is final after the barrier) and then skipped; its
// step count goes to stop[c] (t), and the buffer holding it is t % 2. Finally every column's
// result is gathered into x0; stop[c] < 0 marks a column that met max_iter unconverged.
//
// Dropping finished columns: the launch leaves once at most `leave_at` columns still run
// (their stop[c] still 0); *steps_done then says how many steps were taken, and their x_t
// (gathered into x0 too), their change of the last step (err[(t - 1) % 3]) and, for
// PageRank, their dangling mass (dsum[t % 3]) are what the host hands a launch of just those
// columns, starting at step0 = t (the host's backends/cuda/propagation.py). A launch from
// step0 > 0 finds x_step0 in the buffer step0 % 2 and those two sums in their slots.

__device__ __forceinline__ bool walk_converged(double sum, double scale, double factor, double tol, int ord2)
{
    double norm = ord2 ? sqrt(sum) : sum;
    return factor * norm / scale <= tol;
}

// Sum of v over the lanes whose lane bits lo_bit.. hi_bit-1 differ (a butterfly; every lane
// of the warp calls it and gets its subgroup's sum).
__device__ __forceinline__ double lanes_sum(double v, int lo_bit, int hi_bit)
{
    for (int b = lo_bit; b < hi_bit; ++b)
        v += __shfl_xor_sync(0xffffffffu, v, 1 << b);
    return v;
}

extern "C" __global__ void __launch_bounds__(256, 4) walk_loop(
    const i64* __restrict__ ptr, const int* __restrict__ idx, const double* __restrict__ val,
    const unsigned char* __restrict__ dangling, const double* __restrict__ s,
    double* x0, double* x1, const double* __restrict__ scale,
    double* err, double* dsum, unsigned int* retired, int* stop, unsigned int* bar, int* steps_done,
    const int* __restrict__ long_of, const int* __restrict__ piece_row, const i64* __restrict__ piece_first,
    const int* __restrict__ piece_count, double* part, unsigned int* arrived, i64 pieces, int piece_arcs,
    i64 n, int k, i64 ld, int c_log, int z_log, int run, double damp, double r, double factor, double tol,
    int ord2, int redistribute, int max_iter, int step0, int leave_at)
{
    const int C = 1 << c_log, Z = 1 << z_log, rows_a_task = 32 >> (c_log + z_log);
    const int lane = threadIdx.x & 31;
    const int my_col = lane & (C - 1);
    const int my_z = (lane >> c_log) & (Z - 1);
    const int my_row = lane >> (c_log + z_log);
    const int piece_lane = lane >> c_log, piece_lanes = 32 >> c_log;   // a piece's lanes over its arcs
    const i64 row_blocks = (n + rows_a_task - 1) / rows_a_task;
    const i64 groups = (k + C - 1) / C;
    const i64 tasks = groups * row_blocks;
    const i64 piece_tasks = groups * pieces;
    const i64 warp = grid_thread() >> 5, warps = grid_threads() >> 5;
    // a lane that finishes a (row, column): z == 0 (the row's sum is in it)
    const bool finisher = my_z == 0;

    // Per-column sums, accumulated over a warp's tasks of one group, then added once: summed
    // over the lanes of bit lo_bit and above (the rows of a task, or a piece's lanes), so lane
    // (row 0, z 0, column c) adds for its column.
    auto flush = [&](double& acc, double* slot, i64 group, int lo_bit) {
        double v = lanes_sum(acc, lo_bit, 5);
        i64 col = group * C + my_col;
        if ((lane >> c_log) == 0 && col < k && v != 0.0) atomicAdd(slot + col, v);
        acc = 0.0;
    };

    // flush for a launch of one group (k <= C), called by every thread of the block at once:
    // the warps' sums meet in shared memory and one lane a column adds the block's, one
    // atomic on a column's sum a block instead of one a warp (thousands of warps a step on
    // one vector's single address)
    __shared__ double block_sums[2][8][32];      // [err, ds][warp of the block][column]
    auto flush_block = [&](double& acc, double* slot, double (*shared)[32], int lo_bit) {
        double v = lanes_sum(acc, lo_bit, 5);
        if ((lane >> c_log) == 0) shared[threadIdx.x >> 5][my_col] = v;
        acc = 0.0;
        __syncthreads();
        if ((int)threadIdx.x < C && (int)threadIdx.x < k) {
            double total = 0.0;
            for (int w = 0; w < (int)(blockDim.x >> 5); ++w) total += shared[w][threadIdx.x];
            if (total != 0.0) atomicAdd(slot + threadIdx.x, total);
        }
    };

    // every task of this warp, in order: body(t)
    auto each_task = [&](auto body) {
        for (i64 first = warp * run; first < tasks; first += warps * run) {
            i64 last = first + run < tasks ? first + run : tasks;
            for (i64 t = first; t < last; ++t) body(t);
        }
    };

    // x_0 = s: its mass on the dangling rows, for step 0's jumps (a later start brings its own)
    if (redistribute && step0 == 0) {
        double ds = 0.0;
        i64 group = -1;
        each_task([&](i64 t) {
            i64 g = t / row_blocks;
            if (g != group) { if (group >= 0) flush(ds, dsum, group, c_log + z_log); group = g; }
            i64 row = (t - g * row_blocks) * rows_a_task + my_row;
            i64 col = g * C + my_col;
            if (finisher && row < n && col < k && dangling[row]) ds += s[row * ld + col];
        });
        if (group >= 0) flush(ds, dsum, group, c_log + z_log);
    }
    grid_barrier(bar);

    int active = k;
    int step = step0;
    bool left = false;
    for (; step < max_iter; ++step) {
        const double* x = (step & 1) ? x1 : x0;
        double* y = (step & 1) ? x0 : x1;
        double* err_now = err + (i64)slot_of(step) * k;
        const double* err_before = err + (i64)slot_of(step + 2) * k;     // step - 1's
        double* err_zero = err + (i64)slot_of(step + 1) * k;             // step + 1's, read at step - 1
        const double* ds_now = dsum + (i64)slot_of(step) * k;            // x_step's
        double* ds_next = dsum + (i64)slot_of(step + 1) * k;
        double* ds_zero = dsum + (i64)slot_of(step + 2) * k;
        if (grid_thread() == 0) retired[slot_of(step + 1)] = 0u;

        // a column that stopped before this step (at it: its err of step - 1 met tol)
        auto column_done = [&](i64 col) {
            return stop[col] != 0 || (step > 0 && walk_converged(err_before[col], scale[col], factor, tol, ord2));
        };
        // A lane's column for this step, read when its warp's group changes (not once a task:
        // those reads head every task's chain of dependent loads): stopped or not, and the
        // weight of s in its rows (r, plus PageRank's jumps from the dangling mass of x)
        bool col_done = true;
        double coef = r;
        auto enter_group = [&](i64 g) {
            i64 col = g * C + my_col;
            col_done = col >= k || column_done(col);
            coef = redistribute && col < k ? r + damp * ds_now[col] : r;
        };
        // row's new value in column col from its sum over W's row: y, and the step's sums
        auto finish = [&](i64 row, i64 col, double sum, double& e, double& ds) {
            double now = damp * sum + coef * s[row * ld + col];
            y[row * ld + col] = now;
            double d = now - x[row * ld + col];
            e += ord2 ? d * d : fabs(d);
            if (redistribute && dangling[row]) ds += now;
        };

        double e = 0.0, ds = 0.0;
        i64 group = -1;
        // the long rows' pieces first, taken from the last warp down: each_task below gives
        // the first warps one task more than the last ones when the tasks do not divide evenly
        for (i64 t = warps - 1 - warp; t < piece_tasks; t += warps) {
            i64 g = t / pieces, p = t - g * pieces;
            if (g != group) {
                if (group >= 0) { flush(e, err_now, group, c_log); flush(ds, ds_next, group, c_log); }
                group = g;
                enter_group(g);
            }
            i64 col = g * C + my_col;
            bool go = !col_done;
            if (!__any_sync(0xffffffffu, go)) continue;        // the group's columns have all stopped
            i64 row = piece_row[p];
            i64 l = long_of[row];
            double sum = 0.0;
            if (go) {
                i64 end = ptr[row + 1], a0 = piece_first[p];
                if (a0 + piece_arcs < end) end = a0 + piece_arcs;
#pragma unroll 4
                for (i64 a = a0 + piece_lane; a < end; a += piece_lanes)
                    sum += val[a] * x[(i64)idx[a] * ld + col];
            }
            sum = lanes_sum(sum, c_log, 5);
            if (go && piece_lane == 0) atomicAdd(part + l * ld + col, sum);
            __threadfence();                                     // the sums before the count
            __syncwarp();
            unsigned int before = 0;
            if (lane == 0) before = atomicAdd(arrived + l * groups + g, 1u);
            before = __shfl_sync(0xffffffffu, before, 0);
            if (before == (unsigned int)piece_count[l] - 1u) {   // the row's last piece: finish it
                if (lane == 0) arrived[l * groups + g] = 0u;     // for the next step (after the barrier)
                if (go && piece_lane == 0) {
                    __threadfence();
                    unsigned long long* cell = (unsigned long long*)(part + l * ld + col);
                    double total = __longlong_as_double(atomicExch(cell, 0ull));
                    finish(row, col, total, e, ds);
                }
            }
        }
        if (group >= 0) { flush(e, err_now, group, c_log); flush(ds, ds_next, group, c_log); }

        group = -1;
        each_task([&](i64 t) {
            i64 g = t / row_blocks;
            if (g != group) {
                if (group >= 0) { flush(e, err_now, group, c_log + z_log); flush(ds, ds_next, group, c_log + z_log); }
                group = g;
                enter_group(g);
            }
            i64 block = t - g * row_blocks;
            i64 row = block * rows_a_task + my_row;
            i64 col = g * C + my_col;
            bool live = row < n && col < k;
            bool done = true;
            if (live) {
                done = col_done;
                if (block == 0 && my_row == 0 && finisher) {     // the column's own bookkeeping
                    err_zero[col] = 0.0;
                    ds_zero[col] = 0.0;
                    if (done && stop[col] == 0) {
                        stop[col] = step;
                        atomicAdd(retired + slot_of(step), 1u);
                    }
                }
                if (pieces && long_of[row] >= 0) live = false;  // its pieces walk it
            }
            double sum = 0.0;
            if (live && !done) {
                i64 end = ptr[row + 1];
#pragma unroll 4
                for (i64 a = ptr[row] + my_z; a < end; a += Z)
                    sum += val[a] * x[(i64)idx[a] * ld + col];
            }
            sum = lanes_sum(sum, c_log, c_log + z_log);
            if (live && !done && finisher) finish(row, col, sum, e, ds);
        });
        if (groups == 1) {          // every warp's tasks are of group 0: one atomic a block
            flush_block(e, err_now, block_sums[0], c_log + z_log);
            flush_block(ds, ds_next, block_sums[1], c_log + z_log);
        } else if (group >= 0) {
            flush(e, err_now, group, c_log + z_log);
            flush(ds, ds_next, group, c_log + z_log);
        }
        grid_barrier(bar);
        active -= (int)retired[slot_of(step)];
        if (active <= 0) break;
        if (active <= leave_at && step + 1 < max_iter) {      // the few columns left: the host goes on
            ++step;
            left = true;
            break;
        }
    }

    // after max_iter steps: the columns still running converged or not by their last change
    if (!left && step == max_iter) {
        const double* err_last = err + (i64)slot_of(max_iter - 1) * k;
        for_each(k, [&](i64 c) {
            if (stop[c] == 0)
                stop[c] = walk_converged(err_last[c], scale[c], factor, tol, ord2) ? max_iter : -max_iter;
        });
        grid_barrier(bar);
    }
    if (grid_thread() == 0) *steps_done = step;
    // every column's last iterate into x0 (a column stopped after an odd number of steps is in
    // x1; one still running when the launch leaves has taken `step` steps)
    for_each(n * (i64)k, [&](i64 i) {
        i64 row = i / k, col = i - row * k;
        int steps = stop[col] ? stop[col] : step;
        if (steps & 1) x0[row * ld + col] = x1[row * ld + col];
    });
}
