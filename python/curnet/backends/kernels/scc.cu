// curnet CUDA backend: kernels for strongly connected components (trimming and
// max-label propagation, the primitives of forward-backward reachability and colouring).
// common.cuh comes first.

// kept[v] = alive[v] and v has an in-arc from, and an out-arc to, another alive vertex.
extern "C" __global__ void trim_step(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                     const i64* __restrict__ out_ptr, const int* __restrict__ out_idx,
                                     const bool* __restrict__ alive, i64 n, bool* kept)
{
    for_each(n, [&](i64 v) {
        bool keep = false;
        if (alive[v]) {
            bool has_in = false, has_out = false;
            for (i64 a = in_ptr[v], e = in_ptr[v + 1]; a < e; ++a) {
                int u = in_src[a];
                if (u != v && alive[u]) { has_in = true; break; }
            }
            if (has_in) {
                for (i64 a = out_ptr[v], e = out_ptr[v + 1]; a < e; ++a) {
                    int u = out_idx[a];
                    if (u != v && alive[u]) { has_out = true; break; }
                }
            }
            keep = has_in && has_out;
        }
        kept[v] = keep;
    });
}

// One in-place (Gauss-Seidel) sweep of values[v] = max(values[v], values[u]) over the
// arcs u -> v (ptr/src: in-arcs for forward, out-arcs for backward) with u and v alive
// (and of one colour, if has_colors). Light vertices (degree <= heavy) one a thread;
// heavy ones are left to propagate_heavy. Sets *changed when a value grows.
extern "C" __global__ void propagate_light(const i64* __restrict__ ptr, const int* __restrict__ src,
                                           const bool* __restrict__ alive, const int* __restrict__ colors,
                                           int has_colors, i64 n, i64 heavy, int* values, int* changed)
{
    int grew = 0;
    for_each(n, [&](i64 v) {
        if (!alive[v]) return;
        i64 a = ptr[v], e = ptr[v + 1];
        if (e - a > heavy) return;
        int mine = values[v], best = mine;
        int c = has_colors ? colors[v] : 0;
        for (; a < e; ++a) {
            int u = src[a];
            if (alive[u] && (!has_colors || colors[u] == c)) {
                int x = values[u];
                best = x > best ? x : best;
            }
        }
        if (best > mine) { values[v] = best; grew = 1; }
    });
    if (__syncthreads_or(grew) && threadIdx.x == 0) *changed = 1;
}

// The heavy vertices (listed in `heavy_list`), one warp each.
extern "C" __global__ void propagate_heavy(const i64* __restrict__ ptr, const int* __restrict__ src,
                                           const bool* __restrict__ alive, const int* __restrict__ colors,
                                           int has_colors, const int* __restrict__ heavy_list, i64 count,
                                           int* values, int* changed)
{
    int lane = threadIdx.x & 31;
    i64 warp = grid_thread() >> 5;
    i64 warps = grid_threads() >> 5;
    for (i64 h = warp; h < count; h += warps) {
        int v = heavy_list[h];
        if (!alive[v]) continue;
        int mine = values[v], best = mine;
        int c = has_colors ? colors[v] : 0;
        for (i64 a = ptr[v] + lane, e = ptr[v + 1]; a < e; a += 32) {
            int u = src[a];
            if (alive[u] && (!has_colors || colors[u] == c)) {
                int x = values[u];
                best = x > best ? x : best;
            }
        }
        best = __reduce_max_sync(0xffffffffu, best);
        if (lane == 0 && best > mine) { values[v] = best; *changed = 1; }
    }
}
