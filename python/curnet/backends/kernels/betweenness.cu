// Brandes' sweeps over a batch's shortest-path DAGs (algorithms/brandes.py). Their NumPy twins
// are curnet.backends.brandes (dag_levels, sigma_level, delta_level, edge_dependency).
// (common.cuh is put in front of this file by the loader.)
//
// A batch of kb sources is held in (n, kb) C-ordered blocks, entry v * kb + j for vertex v and
// source j: `level` (-1 not reached; int, or signed char for BFS levels below 127), `dist` (weighted graphs; nullptr for BFS levels),
// `sigma` (path counts) and `delta` (dependencies), both double. Threads take adjacent entries,
// so a warp reads the rows of the same neighbour for 32 sources: coalesced.
// Arc u -> v (weight w) is on source j's DAG when both ends are reached and
//   BFS:      level[v] == level[u] + 1;
//   weighted: dist[u] + w equals dist[v] by igraph's relative-epsilon comparison (in double);
//             with the levels final, level[v] > level[u] is tested first (as the twin), so
//             an arc that does not climb costs no distance read.
// Each kernel exists for float and double distances (suffix _f32 / _f64); BFS uses _f32 with
// dist and the weights nullptr, and _f32_l8 for int8 levels (the sweeps, at the end).

__device__ __forceinline__ bool same_length(double reach, double dv, double eps)
{
    return reach == dv || fabs(reach - dv) < eps * (fabs(reach) + fabs(dv));
}

template <typename D>
__device__ __forceinline__ bool dag_arc(int lu, int lv, const D* __restrict__ dist, i64 iu, i64 iv,
                                        const D* __restrict__ w, i64 arc, double eps)
{
    if (lu < 0 || lv < 0) return false;
    if (dist == nullptr) return lv == lu + 1;
    if (lv <= lu) return false;        // DAG arcs climb (Kahn's levels): no distance read
    return same_length((double)dist[iu] + (double)w[arc], (double)dist[iv], eps);
}

// The level sweeps run a thread per (piece, source) entry, t = piece * kb + j: a piece is at
// most `size` arcs of one vertex's adjacency list (piece_row, piece_start: curnet.backends.brandes
// .arc_pieces), so a hub's list is walked by many threads, not one warp. A vertex of one piece
// (the common case) stores its result; the pieces of a longer list add theirs atomically into
// the zeroed entry (each entry is written at one level only). Adjacent threads are the sources
// of one piece: a warp reads the rows of the same neighbour for 32 sources, coalesced.
struct Piece {
    i64 v, begin, end;     // the vertex, its arcs begin .. end
    bool split;            // the vertex's list has more than one piece
};

__device__ __forceinline__ Piece piece_of(i64 p, const int* __restrict__ piece_row,
                                          const i64* __restrict__ piece_start, int size,
                                          const i64* __restrict__ ptr)
{
    Piece c;
    c.v = piece_row[p];
    c.begin = piece_start[p];
    const i64 last = ptr[c.v + 1];
    c.end = min(c.begin + (i64)size, last);
    c.split = last - ptr[c.v] > size;
    return c;
}

template <typename T>
__device__ __forceinline__ void store_or_add(T* at, T value, bool split)
{
    if (split) atomicAdd(at, value);
    else *at = value;
}

// The weighted DAG levels by Kahn's order, as the twin: first each reached entry's number of
// DAG in-arcs (`waiting`, zeroed); then, a level at a time, the entries at level `at` release
// their DAG out-arcs' heads, and a head whose last DAG in-arc that was is placed at level
// at + 1. Each DAG arc is visited twice in all, not once a level.
template <typename D>
__device__ __forceinline__ void dag_in_arcs(i64 pieces, int kb, const int* __restrict__ piece_row,
                                            const i64* __restrict__ piece_start, int size,
                                            const i64* __restrict__ in_ptr,
                                            const int* __restrict__ in_src, const D* __restrict__ in_w,
                                            const D* __restrict__ dist, int* waiting, double eps)
{
    for_each(pieces * kb, [&](i64 t) {
        const i64 p = t / kb;
        const int j = (int)(t - p * kb);
        const Piece c = piece_of(p, piece_row, piece_start, size, in_ptr);
        const i64 tv = c.v * kb + j;
        const double dv = (double)dist[tv];
        if (!isfinite(dv)) return;
        int count = 0;
        for (i64 a = c.begin; a < c.end; ++a) {
            const double du = (double)dist[(i64)in_src[a] * kb + j];
            if (isfinite(du) && same_length(du + (double)in_w[a], dv, eps)) ++count;
        }
        store_or_add(waiting + tv, count, c.split);
    });
}

template <typename D>
__device__ __forceinline__ void dag_release(i64 pieces, int kb, const int* __restrict__ piece_row,
                                            const i64* __restrict__ piece_start, int size,
                                            const i64* __restrict__ out_ptr,
                                            const int* __restrict__ out_idx, const D* __restrict__ out_w,
                                            const D* __restrict__ dist, int* level, int* waiting, int at,
                                            unsigned int* placed, double eps)
{
    for_each(pieces * kb, [&](i64 t) {
        const i64 p = t / kb;
        const int j = (int)(t - p * kb);
        const i64 u = piece_row[p];
        const i64 tu = u * kb + j;
        if (level[tu] != at) return;
        const Piece c = piece_of(p, piece_row, piece_start, size, out_ptr);
        const double du = (double)dist[tu];
        for (i64 a = c.begin; a < c.end; ++a) {
            const i64 iv = (i64)out_idx[a] * kb + j;
            const double dv = (double)dist[iv];
            if (!isfinite(dv) || !same_length(du + (double)out_w[a], dv, eps)) continue;
            if (atomicSub(waiting + iv, 1) == 1) {       // its last DAG in-arc
                level[iv] = at + 1;
                *placed = 1u;
            }
        }
    });
}

// The sweeps walk a piece's arcs ARC_GROUP at a time: the group's neighbour ids, then their
// levels, then the path counts of those on the DAG, each step's loads issued together, so a
// thread waits on a group's loads at once rather than on one arc's chain of three after
// another. Sums are still added in arc order (a skipped arc adds 0.0).
#define ARC_GROUP 4

// sigma[v, j] = sum of sigma[u, j] over v's DAG in-arcs, for the entries at level `at`.
template <typename D, typename L>
__device__ __forceinline__ void sigma_level(i64 pieces, int kb, const int* __restrict__ piece_row,
                                            const i64* __restrict__ piece_start, int size,
                                            const i64* __restrict__ in_ptr,
                                            const int* __restrict__ in_src, const D* __restrict__ in_w,
                                            const L* __restrict__ level, const D* __restrict__ dist,
                                            double* sigma, int at, double eps)
{
    for_each(pieces * kb, [&](i64 t) {
        const i64 p = t / kb;
        const int j = (int)(t - p * kb);
        const i64 tv = (i64)piece_row[p] * kb + j;
        if (level[tv] != at) return;
        const Piece c = piece_of(p, piece_row, piece_start, size, in_ptr);
        double s = 0.0;
        for (i64 a = c.begin; a < c.end; a += ARC_GROUP) {
            i64 iu[ARC_GROUP];
            L lu[ARC_GROUP];
            double add[ARC_GROUP];
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k) iu[k] = a + k < c.end ? (i64)in_src[a + k] * kb + j : tv;
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k) lu[k] = a + k < c.end ? level[iu[k]] : (L)-1;
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k)
                add[k] = dag_arc(lu[k], at, dist, iu[k], tv, in_w, a + k, eps) ? sigma[iu[k]] : 0.0;
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k) s += add[k];      // in arc order, as one at a time
        }
        store_or_add(sigma + tv, s, c.split);
    });
}

// delta[u, j] = sum over u's DAG out-arcs u -> v of sigma[u, j] / sigma[v, j] * (weight[v] +
// delta[v, j]), for the entries at level `at` (weight: 1.0 at the targets; delta zeroed).
template <typename D, typename L>
__device__ __forceinline__ void delta_level(i64 pieces, int kb, const int* __restrict__ piece_row,
                                            const i64* __restrict__ piece_start, int size,
                                            const i64* __restrict__ out_ptr,
                                            const int* __restrict__ out_idx, const D* __restrict__ out_w,
                                            const L* __restrict__ level, const D* __restrict__ dist,
                                            const double* __restrict__ sigma, double* delta,
                                            const double* __restrict__ weight, int at, double eps)
{
    for_each(pieces * kb, [&](i64 t) {
        const i64 p = t / kb;
        const int j = (int)(t - p * kb);
        const i64 tu = (i64)piece_row[p] * kb + j;
        if (level[tu] != at) return;
        const Piece c = piece_of(p, piece_row, piece_start, size, out_ptr);
        double s = 0.0;
        for (i64 a = c.begin; a < c.end; a += ARC_GROUP) {
            int v[ARC_GROUP];
            L lv[ARC_GROUP];
            double add[ARC_GROUP];
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k) v[k] = a + k < c.end ? out_idx[a + k] : -1;
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k) lv[k] = v[k] >= 0 ? level[(i64)v[k] * kb + j] : (L)-1;
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k) {
                const i64 iv = (i64)v[k] * kb + j;
                add[k] = dag_arc(at, lv[k], dist, tu, iv, out_w, a + k, eps)
                             ? (weight[v[k]] + delta[iv]) / sigma[iv] : 0.0;
            }
#pragma unroll
            for (int k = 0; k < ARC_GROUP; ++k) s += add[k];      // in arc order, as one at a time
        }
        store_or_add(delta + tu, sigma[tu] * s, c.split);
    });
}

// out[p] += the dependency of arc p = u -> v summed over the batch's sources: a warp an arc,
// its lanes over the sources, summed across the warp (one writer an arc: no atomics).
template <typename D, typename L>
__device__ __forceinline__ void edge_dependency(i64 m, int kb, const int* __restrict__ out_src,
                                                const int* __restrict__ out_idx, const D* __restrict__ out_w,
                                                const L* __restrict__ level, const D* __restrict__ dist,
                                                const double* __restrict__ sigma, const double* __restrict__ delta,
                                                const double* __restrict__ weight, double* out, double eps)
{
    const int lane = threadIdx.x & 31;
    const i64 warps = grid_threads() >> 5;
    for (i64 p = grid_thread() >> 5; p < m; p += warps) {
        const i64 u = out_src[p];
        const int v = out_idx[p];
        double s = 0.0;
        for (int j = lane; j < kb; j += 32) {
            const i64 iu = u * kb + j, iv = (i64)v * kb + j;
            if (dag_arc(level[iu], level[iv], dist, iu, iv, out_w, p, eps))
                s += sigma[iu] / sigma[iv] * (weight[v] + delta[iv]);
        }
        for (int off = 16; off; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0) out[p] += s;
    }
}

#define PIECES i64 pieces, int kb, const int* piece_row, const i64* piece_start, int size
#define BC_DAG_KERNELS(SUFFIX, D)                                                                   \
extern "C" __global__ void bc_dag_in_arcs##SUFFIX(PIECES, const i64* in_ptr, const int* in_src,     \
        const D* in_w, const D* dist, int* waiting, double eps)                                     \
{ dag_in_arcs<D>(pieces, kb, piece_row, piece_start, size, in_ptr, in_src, in_w, dist, waiting, eps); } \
extern "C" __global__ void bc_dag_release##SUFFIX(PIECES, const i64* out_ptr, const int* out_idx,   \
        const D* out_w, const D* dist, int* level, int* waiting, int at, unsigned int* placed,      \
        double eps)                                                                                 \
{ dag_release<D>(pieces, kb, piece_row, piece_start, size, out_ptr, out_idx, out_w, dist, level,   \
                 waiting, at, placed, eps); }

// The sweeps for a level block of type L: int (weighted DAG levels) or signed char (BFS
// levels below 128, suffix _l8: a warp's 32 sources read one 32-byte sector, not 128 bytes).
#define BC_SWEEP_KERNELS(SUFFIX, D, L)                                                              \
extern "C" __global__ void bc_sigma_level##SUFFIX(PIECES, const i64* in_ptr, const int* in_src,     \
        const D* in_w, const L* level, const D* dist, double* sigma, int at, double eps)            \
{ sigma_level<D, L>(pieces, kb, piece_row, piece_start, size, in_ptr, in_src, in_w, level, dist,   \
                    sigma, at, eps); }                                                              \
extern "C" __global__ void bc_delta_level##SUFFIX(PIECES, const i64* out_ptr, const int* out_idx,   \
        const D* out_w, const L* level, const D* dist, const double* sigma, double* delta,          \
        const double* weight, int at, double eps)                                                   \
{ delta_level<D, L>(pieces, kb, piece_row, piece_start, size, out_ptr, out_idx, out_w, level, dist, \
                    sigma, delta, weight, at, eps); }                                               \
extern "C" __global__ void bc_edge_dependency##SUFFIX(i64 m, int kb, const int* out_src, const int* out_idx, \
        const D* out_w, const L* level, const D* dist, const double* sigma, const double* delta,    \
        const double* weight, double* out, double eps)                                              \
{ edge_dependency<D, L>(m, kb, out_src, out_idx, out_w, level, dist, sigma, delta, weight, out, eps); }

BC_DAG_KERNELS(_f32, float)
BC_DAG_KERNELS(_f64, double)
BC_SWEEP_KERNELS(_f32, float, int)
BC_SWEEP_KERNELS(_f64, double, int)
BC_SWEEP_KERNELS(_f32_l8, float, signed char)
