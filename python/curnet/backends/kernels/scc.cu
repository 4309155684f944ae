// curnet CUDA backend: kernels for strongly connected components (trimming and
// max-label propagation, the primitives of forward-backward reachability and colouring).
// common.cuh comes first.

// alive[v] and v has an in-arc from, and an out-arc to, another alive vertex.
__device__ __forceinline__ bool keeps(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                      const i64* __restrict__ out_ptr, const int* __restrict__ out_idx,
                                      const bool* __restrict__ alive, i64 v)
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
        const int s = slot_of(pass);
        if (grid_thread() == 0) changed[slot_of(pass + 1)] = 0;
        const bool* alive = bufs + (pass & 1) * n;
        bool* kept = bufs + ((pass + 1) & 1) * n;
        bool removed = false;
        for_each(n, [&](i64 v) {
            const bool keep = keeps(in_ptr, in_src, out_ptr, out_idx, alive, v);
            kept[v] = keep;
            removed |= alive[v] && !keep;
        });
        if (__syncthreads_or(removed) && threadIdx.x == 0) changed[s] = 1;
        grid_barrier(bar);
        ++pass;
        if (!((volatile unsigned int*)changed)[s]) break;
    }
    if (grid_thread() == 0) result[0] = (unsigned int)pass;
}

// v's value raised to the largest over its arcs (ptr/src) from alive vertices of its colour,
// lanes [lane0, lane0 + step) of the arcs (a thread: 0, 1; a warp: lane, 32); the largest seen.
__device__ __forceinline__ int arc_max(const i64* __restrict__ ptr, const int* __restrict__ src,
                                       const bool* __restrict__ alive, const int* __restrict__ colors,
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
                                            const bool* __restrict__ alive, const int* __restrict__ colors,
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
                                            const bool* __restrict__ alive, const int* __restrict__ colors,
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
    int sweep = 0, stable = 0;
    while (sweep < max_sweeps) {
        const int s = slot_of(sweep);
        if (grid_thread() == 0) changed[slot_of(sweep + 1)] = 0;
        bool grew = sweep_light(ptr, src, alive, colors, has_colors, n, heavy, values);
        grew |= sweep_heavy(ptr, src, alive, colors, has_colors, heavy_list, count, values);
        if (__syncthreads_or(grew) && threadIdx.x == 0) changed[s] = 1;
        grid_barrier(bar);
        ++sweep;
        if (!((volatile unsigned int*)changed)[s]) { stable = 1; break; }
    }
    if (grid_thread() == 0) { result[0] = (unsigned int)sweep; result[1] = (unsigned int)stable; }
}
