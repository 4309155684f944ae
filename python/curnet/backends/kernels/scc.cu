// curnet CUDA backend: kernels for strongly connected components (trimming and
// max-label propagation, the primitives of forward-backward reachability and colouring).
// common.cuh comes first.

// alive[v] and v has an in-arc from, and an out-arc to, another alive vertex. (alive, like
// the colours below, is not __restrict__: the loop kernels change it between their steps,
// which the read-only cache would not see.)
__device__ __forceinline__ bool keeps(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                      const i64* __restrict__ out_ptr, const int* __restrict__ out_idx,
                                      const bool* alive, i64 v)
{
    if (!alive[v]) return false;
    bool has_in = false;
    for (i64 a = in_ptr[v], e = in_ptr[v + 1]; a < e && !has_in; ++a) {
        int u = in_src[a];
        has_in = u != v && alive[u];
    }
    if (!has_in) return false;
    for (i64 a = out_ptr[v], e = out_ptr[v + 1]; a < e; ++a) {
        int u = out_idx[a];
        if (u != v && alive[u]) return true;
    }
    return false;
}

// One trimming pass: kept[v] = keeps(v).
extern "C" __global__ void trim_step(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                     const i64* __restrict__ out_ptr, const int* __restrict__ out_idx,
                                     const bool* __restrict__ alive, i64 n, bool* kept)
{
    for_each(n, [&](i64 v) { kept[v] = keeps(in_ptr, in_src, out_ptr, out_idx, alive, v); });
}

// Up to `passes` trimming passes in one launch (cooperative), stopping after a pass that
// removes nothing: pass p reads buf[p % 2] and writes buf[(p + 1) % 2] (bufs: 2 x n, the first
// holding alive), passes separated by grid barriers, so each pass is the host's one-pass
// trim_step and the result equals the launch-a-pass route. changed[3] (slot_of(pass)) and
// bar[2] zeroed by the host. result[0]: passes run (the last one's output is the answer).
extern "C" __global__ void trim_loop(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                     const i64* __restrict__ out_ptr, const int* __restrict__ out_idx,
                                     i64 n, int passes, bool* bufs, unsigned int* changed, unsigned int* bar,
                                     unsigned int* result)
{
    int pass = 0;
    while (pass < passes) {
        const bool* alive = bufs + (pass & 1) * n;
        bool* kept = bufs + ((pass + 1) & 1) * n;
        bool removed = false;
        for_each(n, [&](i64 v) {
            const bool keep = keeps(in_ptr, in_src, out_ptr, out_idx, alive, v);
            kept[v] = keep;
            removed |= alive[v] && !keep;
        });
        if (!grid_any(removed, changed, bar, pass)) break;
    }
    if (grid_thread() == 0) result[0] = (unsigned int)pass;
}

// v's value raised to the largest over its arcs (ptr/src) from alive vertices of its colour,
// lanes [lane0, lane0 + step) of the arcs (a thread: 0, 1; a warp: lane, 32); the largest seen.
__device__ __forceinline__ int arc_max(const i64* __restrict__ ptr, const int* __restrict__ src,
                                       const bool* alive, const int* colors,
                                       int has_colors, i64 v, int lane0, int step, const int* values, int best)
{
    int c = has_colors ? colors[v] : 0;
    for (i64 a = ptr[v] + lane0, e = ptr[v + 1]; a < e; a += step) {
        int u = src[a];
        if (alive[u] && (!has_colors || colors[u] == c)) {
            int x = values[u];
            best = x > best ? x : best;
        }
    }
    return best;
}

// One in-place (Gauss-Seidel) sweep over the light vertices (degree <= heavy), one a thread;
// true if a value grew.
__device__ __forceinline__ bool sweep_light(const i64* __restrict__ ptr, const int* __restrict__ src,
                                            const bool* alive, const int* colors,
                                            int has_colors, i64 n, i64 heavy, int* values)
{
    bool grew = false;
    for_each(n, [&](i64 v) {
        if (!alive[v] || ptr[v + 1] - ptr[v] > heavy) return;
        int mine = values[v];
        int best = arc_max(ptr, src, alive, colors, has_colors, v, 0, 1, values, mine);
        if (best > mine) { values[v] = best; grew = true; }
    });
    return grew;
}

// The same sweep over the heavy vertices (listed in `heavy_list`), one warp each; every lane
// of the grid calls it.
__device__ __forceinline__ bool sweep_heavy(const i64* __restrict__ ptr, const int* __restrict__ src,
                                            const bool* alive, const int* colors,
                                            int has_colors, const int* __restrict__ heavy_list, i64 count,
                                            int* values)
{
    int lane = threadIdx.x & 31;
    i64 warp = grid_thread() >> 5, warps = grid_threads() >> 5;
    bool grew = false;
    for (i64 h = warp; h < count; h += warps) {
        int v = heavy_list[h];
        if (!alive[v]) continue;
        int mine = values[v];
        int best = __reduce_max_sync(0xffffffffu, arc_max(ptr, src, alive, colors, has_colors, v, lane, 32,
                                                          values, mine));
        if (lane == 0 && best > mine) { values[v] = best; grew = true; }
    }
    return grew;
}

// One sweep of values[v] = max(values[v], values[u]) over the arcs u -> v (ptr/src: in-arcs
// for forward, out-arcs for backward) with u and v alive (and of one colour, if has_colors),
// light vertices only (propagate_heavy takes the rest). Sets *changed when a value grows.
extern "C" __global__ void propagate_light(const i64* __restrict__ ptr, const int* __restrict__ src,
                                           const bool* __restrict__ alive, const int* __restrict__ colors,
                                           int has_colors, i64 n, i64 heavy, int* values, int* changed)
{
    bool grew = sweep_light(ptr, src, alive, colors, has_colors, n, heavy, values);
    if (__syncthreads_or(grew) && threadIdx.x == 0) *changed = 1;
}

// The heavy vertices' sweep, one warp each.
extern "C" __global__ void propagate_heavy(const i64* __restrict__ ptr, const int* __restrict__ src,
                                           const bool* __restrict__ alive, const int* __restrict__ colors,
                                           int has_colors, const int* __restrict__ heavy_list, i64 count,
                                           int* values, int* changed)
{
    if (sweep_heavy(ptr, src, alive, colors, has_colors, heavy_list, count, values)) *changed = 1;
}

// Sweeps of `values` (both kinds of vertex) until one changes nothing or
// the steps reach max_steps; false in the second case.
__device__ __forceinline__ bool sweep_to_stable(const i64* __restrict__ ptr, const int* __restrict__ src,
                                                const bool* alive, const int* colors, int has_colors, i64 n,
                                                i64 heavy, const int* __restrict__ heavy_list, i64 count,
                                                int* values, unsigned int* flags, unsigned int* bar, int& step,
                                                int max_steps)
{
    while (step < max_steps) {
        bool grew = sweep_light(ptr, src, alive, colors, has_colors, n, heavy, values);
        grew |= sweep_heavy(ptr, src, alive, colors, has_colors, heavy_list, count, values);
        if (!grid_any(grew, flags, bar, step)) return true;
    }
    return false;
}

// Sweeps (light and heavy vertices) until one changes nothing, in one launch (cooperative:
// every block resident), sweeps separated by grid barriers: the host waits once, not every
// few sweeps. changed[3] (slot_of(sweep)) and bar[2] zeroed by the host. result: sweeps run,
// 1 if stable (0: stopped at max_sweeps; the host launches again).
extern "C" __global__ void propagate_loop(const i64* __restrict__ ptr, const int* __restrict__ src,
                                          const bool* __restrict__ alive, const int* __restrict__ colors,
                                          int has_colors, i64 n, i64 heavy, const int* __restrict__ heavy_list,
                                          i64 count, int max_sweeps, int* values, unsigned int* changed,
                                          unsigned int* bar, unsigned int* result)
{
    int sweep = 0;
    const bool stable = sweep_to_stable(ptr, src, alive, colors, has_colors, n, heavy, heavy_list, count, values,
                                        changed, bar, sweep, max_sweeps);
    if (grid_thread() == 0) { result[0] = (unsigned int)sweep; result[1] = stable; }
}

// Trimming passes in place until one removes nothing; then whether any vertex is left. In
// place is safe: alive only falls, so a stale read keeps a vertex, never drops one. `ok`
// falls when the steps reach max_steps first.
__device__ __forceinline__ bool trim_to_stable(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                               const i64* __restrict__ out_ptr, const int* __restrict__ out_idx,
                                               i64 n, bool* alive, unsigned int* flags, unsigned int* bar,
                                               int& step, int max_steps, bool& ok)
{
    bool removed = true;
    while (removed) {
        if (step >= max_steps) { ok = false; return false; }
        bool mine = false;
        for_each(n, [&](i64 v) {
            if (alive[v] && !keeps(in_ptr, in_src, out_ptr, out_idx, alive, v)) { alive[v] = false; mine = true; }
        });
        removed = grid_any(mine, flags, bar, step);
    }
    bool left = false;
    for_each(n, [&](i64 v) { left |= alive[v]; });
    return grid_any(left, flags, bar, step);
}

// The pivot's measure: v's in-degree times its out-degree.
__device__ __forceinline__ u64 degree_product(const i64* __restrict__ in_ptr, const i64* __restrict__ out_ptr, i64 v)
{
    return (u64)(in_ptr[v + 1] - in_ptr[v]) * (u64)(out_ptr[v + 1] - out_ptr[v]);
}

// The whole of algorithms/scc.py's scc_by_reachability in one cooperative launch, for small
// graphs, whose time there goes to launches and host reads rather than to arcs: trim; the
// pivot (the largest in x out degree, the smallest such id) labels what it reaches both ways;
// then rounds of trim and colouring (colours: the largest id reaching a vertex; a vertex
// whose colour is its own id is a root, and what reaches a root within its colour is the
// root's component). Reachability is max-propagation sweeps (sweep_light / sweep_heavy) over
// 0/1 values. labels[v]: the id of a vertex of v's component. alive, colors, marks: n each,
// scratch. ctl: best[2] (u64: the largest degree product, the smallest vertex having it),
// then as unsigned ints flags[3], bar[2] (zeroed by the host; the rest is set here) and
// result[3]: 1 when done (0: max_steps reached first, the labels incomplete), the steps, the
// colouring rounds.
extern "C" __global__ void scc_whole(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                     const i64* __restrict__ out_ptr, const int* __restrict__ out_idx, i64 n,
                                     i64 heavy, const int* __restrict__ heavy_in, i64 heavy_in_count,
                                     const int* __restrict__ heavy_out, i64 heavy_out_count, int max_steps,
                                     bool* alive, int* labels, int* colors, int* marks, u64* ctl)
{
    u64* best = ctl;
    unsigned int *flags = (unsigned int*)(ctl + 2), *bar = flags + 3, *result = flags + 5;
    int step = 0, rounds = 0;
    bool ok = true;
    for_each(n, [&](i64 v) { alive[v] = true; labels[v] = (int)v; });
    if (grid_thread() == 0) {
        best[0] = 0; best[1] = ~0ull;
        for (int i = 0; i < 3; ++i) flags[i] = 0;
    }
    grid_barrier(bar);
    if (trim_to_stable(in_ptr, in_src, out_ptr, out_idx, n, alive, flags, bar, step, max_steps, ok)) {
        for_each(n, [&](i64 v) {
            if (alive[v]) atomicMax(best, degree_product(in_ptr, out_ptr, v));
        });
        grid_barrier(bar);
        const u64 most = ((volatile u64*)best)[0];
        for_each(n, [&](i64 v) {
            if (alive[v] && degree_product(in_ptr, out_ptr, v) == most)
                atomicMin(best + 1, (u64)v);
        });
        grid_barrier(bar);
        const int pivot = (int)((volatile u64*)best)[1];
        // forward reach in colors, backward in marks (0/1)
        for_each(n, [&](i64 v) { colors[v] = v == pivot; marks[v] = v == pivot; });
        grid_barrier(bar);
        ok = sweep_to_stable(in_ptr, in_src, alive, colors, 0, n, heavy, heavy_in, heavy_in_count, colors,
                             flags, bar, step, max_steps) &&
             sweep_to_stable(out_ptr, out_idx, alive, colors, 0, n, heavy, heavy_out, heavy_out_count, marks,
                             flags, bar, step, max_steps);
        if (ok) {
            for_each(n, [&](i64 v) {
                if (alive[v] && colors[v] && marks[v]) { labels[v] = pivot; alive[v] = false; }
            });
            grid_barrier(bar);
        }
        while (ok && trim_to_stable(in_ptr, in_src, out_ptr, out_idx, n, alive, flags, bar, step, max_steps, ok)) {
            ++rounds;
            for_each(n, [&](i64 v) { colors[v] = alive[v] ? (int)v : -1; });
            grid_barrier(bar);
            if (!sweep_to_stable(in_ptr, in_src, alive, colors, 0, n, heavy, heavy_in, heavy_in_count, colors,
                                 flags, bar, step, max_steps)) { ok = false; break; }
            for_each(n, [&](i64 v) { marks[v] = alive[v] && colors[v] == (int)v; });
            grid_barrier(bar);
            if (!sweep_to_stable(out_ptr, out_idx, alive, colors, 1, n, heavy, heavy_out, heavy_out_count, marks,
                                 flags, bar, step, max_steps)) { ok = false; break; }
            for_each(n, [&](i64 v) {
                if (alive[v] && marks[v]) { labels[v] = colors[v]; alive[v] = false; }
            });
            grid_barrier(bar);
        }
    }
    if (grid_thread() == 0) { result[0] = ok; result[1] = (unsigned int)step; result[2] = (unsigned int)rounds; }
}
