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
// per-column sums once a run rather than once a task.
//
// A step's per-column sums live in three slots used in turn (common.cuh's slot_of): the
// change of step t in err[t % 3], the dangling mass of x_t in dsum[t % 3], the columns
// retired during step t in retired[t % 3]. A column converged at step t - 1 is seen by every
// thread during step t (err of step t - 1 is final after the barrier) and then skipped; its
// step count goes to stop[c] (t), and the buffer holding it is t % 2. Finally every column's
// result is gathered into x0; stop[c] < 0 marks a column that met max_iter unconverged.

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
    double* err, double* dsum, unsigned int* retired, int* stop, unsigned int* bar,
    i64 n, int k, i64 ld, int c_log, int z_log, int run, double damp, double r, double factor, double tol,
    int ord2, int redistribute, int max_iter)
{
    const int C = 1 << c_log, Z = 1 << z_log, rows_a_task = 32 >> (c_log + z_log);
    const int lane = threadIdx.x & 31;
    const int my_col = lane & (C - 1);
    const int my_z = (lane >> c_log) & (Z - 1);
    const int my_row = lane >> (c_log + z_log);
    const i64 row_blocks = (n + rows_a_task - 1) / rows_a_task;
    const i64 groups = (k + C - 1) / C;
    const i64 tasks = groups * row_blocks;
    const i64 warp = grid_thread() >> 5, warps = grid_threads() >> 5;
    // a lane that finishes a (row, column): z == 0 (the row's sum is in it)
    const bool finisher = my_z == 0;

    // Per-column sums, accumulated over a warp's tasks of one group, then added once: summed
    // over the warp's rows first, so lane (row 0, z 0, column c) adds for its column.
    auto flush = [&](double& acc, double* slot, i64 group) {
        double v = lanes_sum(acc, c_log + z_log, 5);
        i64 col = group * C + my_col;
        if (my_row == 0 && finisher && col < k && v != 0.0) atomicAdd(slot + col, v);
        acc = 0.0;
    };

    // every task of this warp, in order: body(t)
    auto each_task = [&](auto body) {
        for (i64 first = warp * run; first < tasks; first += warps * run) {
            i64 last = first + run < tasks ? first + run : tasks;
            for (i64 t = first; t < last; ++t) body(t);
        }
    };

    // x_0 = s: its mass on the dangling rows, for step 0's jumps
    if (redistribute) {
        double ds = 0.0;
        i64 group = -1;
        each_task([&](i64 t) {
            i64 g = t / row_blocks;
            if (g != group) { if (group >= 0) flush(ds, dsum, group); group = g; }
            i64 row = (t - g * row_blocks) * rows_a_task + my_row;
            i64 col = g * C + my_col;
            if (finisher && row < n && col < k && dangling[row]) ds += s[row * ld + col];
        });
        if (group >= 0) flush(ds, dsum, group);
    }
    grid_barrier(bar);

    int active = k;
    int step = 0;
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

        double e = 0.0, ds = 0.0;
        i64 group = -1;
        each_task([&](i64 t) {
            i64 g = t / row_blocks;
            if (g != group) {
                if (group >= 0) { flush(e, err_now, group); flush(ds, ds_next, group); }
                group = g;
            }
            i64 block = t - g * row_blocks;
            i64 row = block * rows_a_task + my_row;
            i64 col = g * C + my_col;
            bool live = row < n && col < k;
            bool done = true;
            if (live) {
                done = stop[col] != 0 ||
                       (step > 0 && walk_converged(err_before[col], scale[col], factor, tol, ord2));
                if (block == 0 && my_row == 0 && finisher) {     // the column's own bookkeeping
                    err_zero[col] = 0.0;
                    ds_zero[col] = 0.0;
                    if (done && stop[col] == 0) {
                        stop[col] = step;
                        atomicAdd(retired + slot_of(step), 1u);
                    }
                }
            }
            double sum = 0.0;
            if (live && !done) {
                i64 end = ptr[row + 1];
#pragma unroll 4
                for (i64 a = ptr[row] + my_z; a < end; a += Z)
                    sum += val[a] * x[(i64)idx[a] * ld + col];
            }
            sum = lanes_sum(sum, c_log, c_log + z_log);
            if (live && !done && finisher) {
                double coef = redistribute ? r + damp * ds_now[col] : r;
                double now = damp * sum + coef * s[row * ld + col];
                y[row * ld + col] = now;
                double d = now - x[row * ld + col];
                e += ord2 ? d * d : fabs(d);
                if (redistribute && dangling[row]) ds += now;
            }
        });
        if (group >= 0) { flush(e, err_now, group); flush(ds, ds_next, group); }
        grid_barrier(bar);
        active -= (int)retired[slot_of(step)];
        if (active <= 0) break;
    }

    // after max_iter steps: the columns still running converged or not by their last change
    if (step == max_iter) {
        const double* err_last = err + (i64)slot_of(max_iter - 1) * k;
        for_each(k, [&](i64 c) {
            if (stop[c] == 0)
                stop[c] = walk_converged(err_last[c], scale[c], factor, tol, ord2) ? max_iter : -max_iter;
        });
        grid_barrier(bar);
    }
    // every column's last iterate into x0 (a column stopped after an odd number of steps is in x1)
    for_each(n * (i64)k, [&](i64 i) {
        i64 row = i / k, col = i - row * k;
        int steps = stop[col];
        if (steps & 1) x0[row * ld + col] = x1[row * ld + col];
    });
}
