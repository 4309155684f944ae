// Brandes' sweeps over a batch's shortest-path DAGs (algorithms/betweenness/sweeps.py). Their NumPy
// twins are curnet.backends.cpu.brandes (dag_levels, sigma_level, delta_level, edge_dependency).
// (common.cuh is put in front of this file by the loader.)
//
// A batch of kb sources is held in (n, kb) C-ordered blocks, entry v * kb + j for vertex v and
// source j: `level` (-1 not reached; int, or signed char for BFS levels below 127), `dist`
// (weighted graphs only), `sigma` (path counts, then the dependencies) and `share` (each
// entry's (weight[v] + delta) / sigma once its level is finished), both double. A warp takes
// 32 adjacent entries of one vertex, so it reads the rows of the same neighbour for 32
// sources: coalesced.
// Arc u -> v (weight w) is on source j's DAG when both ends are reached and
//   BFS:      level[v] == level[u] + 1;
//   weighted: dist[u] + w equals dist[v] by igraph's relative-epsilon comparison (in double);
//             with the levels final, level[v] > level[u] is tested first (as the twin), so
//             an arc that does not climb costs no distance read.
// The sweeps exist for BFS levels (suffix _bfs, int levels; _bfs_l8, int8 levels: a warp's 32
// sources read one 32-byte sector) and for float and double distances (_f32 / _f64).

__device__ __forceinline__ bool same_length(double reach, double dv, double eps)
{
    return reach == dv || fabs(reach - dv) < eps * (fabs(reach) + fabs(dv));
}

// Whether arc u -> v (entries iu, iv, levels lu, lv) is on the source's DAG; W: weighted.
template <bool W, typename D, typename L>
__device__ __forceinline__ bool on_dag(L lu, L lv, const D* __restrict__ dist, i64 iu, i64 iv,
                                       const D* __restrict__ w, i64 arc, double eps)
{
    if (!W) return lu >= 0 && lv == lu + 1;
    if (lu < 0 || lv <= lu) return false;        // DAG arcs climb (Kahn's levels): no distance read
    return same_length((double)dist[iu] + (double)w[arc], (double)dist[iv], eps);
}

// A piece is at most `size` arcs of one vertex's adjacency list (piece_row, piece_start:
// curnet.backends.brandes.arc_pieces), so a hub's list is walked by many warps, not one. A
// vertex of one piece (the common case) stores its result; the pieces of a longer list add
// theirs atomically into the zeroed entry (each entry is written at one level only).
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

// The level sweeps: a warp a task (piece p, 32 x S sources), task w = p * groups + g, its lane
// taking the S adjacent sources j .. j + S - 1, j = g * 32 * S + lane * S (lanes past kb idle;
// S = 2 needs kb even, so a lane's two entries are one aligned vector). The lanes of a warp
// walk the same arcs, so their loops run in step; body(p, j) returns to go to the next task.
// The tasks are every (piece, group) (`tasks` null), or the ntasks listed in `tasks`
// (level_tasks: those with a lane at the sweep's level), so a level held by few entries
// costs few warps, not a scan.
template <int S, typename Body>
__device__ __forceinline__ void for_each_piece_warp(i64 pieces, int kb, const unsigned int* __restrict__ tasks,
                                                    const unsigned int* __restrict__ ntasks, Body body)
{
    const int groups = (kb + 32 * S - 1) / (32 * S);
    const int lane = (int)(threadIdx.x & 31);
    const i64 total = tasks == nullptr ? pieces * groups : (i64)*ntasks;
    const i64 warps = grid_threads() >> 5;
    const bool narrow = pieces * groups < (1ll << 32);     // a 32-bit division a task where it fits
    for (i64 i = grid_thread() >> 5; i < total; i += warps) {
        const i64 w = tasks == nullptr ? i : (i64)tasks[i];
        const i64 p = narrow ? (i64)((unsigned int)w / (unsigned int)groups) : w / groups;
        body(p, (int)(w - p * groups) * 32 * S + lane * S);
    }
}

// S adjacent entries i .. i + S - 1 of a block where `load`, else zeros (S = 2: one vector
// load, i even). A select, not a branch: a group's loads are issued together.
template <typename T> struct pair_of;
template <> struct pair_of<signed char> { typedef char2 type; };
template <> struct pair_of<int> { typedef int2 type; };
template <> struct pair_of<float> { typedef float2 type; };
template <> struct pair_of<double> { typedef double2 type; };

template <typename T, int S> struct Entries { T x[S]; };

template <int S, typename T>
__device__ __forceinline__ Entries<T, S> load_entries(bool load, const T* __restrict__ block, i64 i)
{
    Entries<T, S> e;
    if constexpr (S == 1) {
        e.x[0] = load ? block[i] : (T)0;
    } else {
        static_assert(S == 2, "one or two sources a lane");
        typedef typename pair_of<T>::type Pair;
        Pair zero;
        zero.x = zero.y = (T)0;
        const Pair x = load ? *reinterpret_cast<const Pair*>(block + i) : zero;
        e.x[0] = x.x;
        e.x[1] = x.y;
    }
    return e;
}

// The sweep tasks of level `at`: (row r, group g of 32 x span sources) for r < count and
// first <= g < last whose group has a lane at the level (row r is vertex rows[r], a piece's
// vertex, or vertex r where rows is null), appended as r * groups + g to `tasks` in no
// particular order; `levels` is level_index's bit mask of each (vertex, 32 sources) (levels
// below 64), OR'ed over a group's span of them.
__device__ __forceinline__ void level_tasks(i64 count, int kb, const int* __restrict__ rows,
                                            const unsigned long long* __restrict__ levels, int at, int span,
                                            int first, int last, unsigned int* tasks, unsigned int* ntasks)
{
    const int words = (kb + 31) >> 5;
    const int groups = (words + span - 1) / span;
    const int width = last - first;
    append_each(count * width, tasks, ntasks, [&](i64 t, unsigned int& task) {
        const i64 r = t / width;
        const i64 v = rows == nullptr ? r : rows[r];
        const int g = first + (int)(t - r * width);
        unsigned long long held = 0;
        for (int h = g * span; h < min(words, (g + 1) * span); ++h) held |= levels[v * words + h];
        task = (unsigned int)(r * groups + g);
        return ((held >> at) & 1ull) != 0;
    });
}

// Which of lane j's S entries of vertex row `row` are at level `at` (`mine`), and whether any
// is (j < kb; with S = 2 kb is even, so j + 1 < kb too).
template <int S, typename L>
__device__ __forceinline__ bool at_level(const L* __restrict__ level, i64 row, int kb, int j, int at, bool* mine)
{
    if constexpr (S == 1) {
        mine[0] = j < kb && level[row * kb + j] == at;
        return mine[0];
    }
    const Entries<L, S> l = load_entries<S>(j < kb, level, row * kb + j);
    bool any = false;
#pragma unroll
    for (int s = 0; s < S; ++s) {
        mine[s] = j < kb && l.x[s] == at;
        any |= mine[s];
    }
    return any;
}

// Whether lane j's entry of vertex row `row` is at level `at` (one source a lane).
template <typename L>
__device__ __forceinline__ bool at_level(const L* __restrict__ level, i64 row, int kb, int j, int at)
{
    bool mine;
    return at_level<1>(level, row, kb, j, at, &mine);
}

// A level sweep's work: the pieces over kb sources, and the listed tasks (or all of them).
// One value a kernel, so the sweeps take it whole instead of seven parameters each.
struct PieceTasks {
    i64 pieces;
    int kb;
    const int* __restrict__ piece_row;
    const i64* __restrict__ piece_start;
    int size;
    const unsigned int* tasks;
    const unsigned int* ntasks;

    __device__ __forceinline__ Piece piece(i64 p, const i64* __restrict__ ptr) const
    { return piece_of(p, piece_row, piece_start, size, ptr); }

    template <int S, typename Body>
    __device__ __forceinline__ void for_each(Body body) const
    { for_each_piece_warp<S>(pieces, kb, tasks, ntasks, body); }

    // body(v, j, mine, piece) for each task whose warp holds an entry at level `at` (mine:
    // this lane's entry (v, j) is there); the other warps move on at once.
    template <typename L, typename Body>
    __device__ __forceinline__ void for_each_at_level(const L* __restrict__ level, int at,
                                                      const i64* __restrict__ ptr, Body body) const
    {
        for_each_piece_warp<1>(pieces, kb, tasks, ntasks, [&](i64 p, int j) {
            const i64 v = piece_row[p];
            const bool mine = at_level(level, v, kb, j, at);
            if (!__any_sync(0xffffffffu, mine)) return;
            body(v, j, mine, piece(p, ptr));
        });
    }
};

// The sweeps walk a piece's arcs 32 at a time: each lane loads one arc's neighbour id and the
// warp passes them round (shuffles), then ARC_GROUP arcs at a time the lanes load the
// neighbours' levels together (S a lane: one vector load) and hand the group to `group(io,
// lo, a0)` (the neighbours' first entries io[q], their levels lo[q][s], -1 past the piece or
// for an entry not `mine`, and the group's first arc), which issues the group's value loads
// (pull) or atomic adds (push) together. Every lane of the warp takes part (the shuffles);
// only lanes with an entry `mine` load.
#define ARC_GROUP 8

template <int S, bool Levels = true, typename L, typename Group>
__device__ __forceinline__ void walk_arcs(const Piece& c, const int* __restrict__ nb, int kb, int j,
                                          const bool* mine, const L* __restrict__ level, Group group)
{
    // !Levels: no level is loaded, lo 0 for a `mine` entry's arc (a level-free pull)
    constexpr int G = ARC_GROUP;
    const int lane = (int)(threadIdx.x & 31);
    const int count = (int)(c.end - c.begin);
    const int* __restrict__ ids = nb + c.begin;
    bool any = false;
#pragma unroll
    for (int s = 0; s < S; ++s) any |= mine[s];
    for (int k = 0; k < count; k += 32) {
        const int here = min(32, count - k);
        const int my_id = lane < here ? ids[k + lane] : 0;
        for (int q0 = 0; q0 < here; q0 += G) {
            i64 io[G];
            L lo[G][S];
#pragma unroll
            for (int q = 0; q < G; ++q) io[q] = (i64)__shfl_sync(0xffffffffu, my_id, q0 + q) * kb + j;
#pragma unroll
            for (int q = 0; q < G; ++q) {
                const bool live = any && q0 + q < here;
                if constexpr (S == 1) {         // this form compiles to predicated loads, no branches
                    lo[q][0] = live ? (Levels ? level[io[q]] : (L)0) : (L)-1;
                } else {
                    const Entries<L, S> got = load_entries<S>(Levels && live, level, io[q]);
#pragma unroll
                    for (int s = 0; s < S; ++s) lo[q][s] = live && mine[s] ? got.x[s] : (L)-1;
                }
            }
            group(io, lo, c.begin + k + q0);
        }
    }
}

// A pulled value as a double: float32 path counts (narrow_level) hold -1 where the count is
// not an integer below 2^24, and the double is read there.
__device__ __forceinline__ double widen(double x, const double* __restrict__, i64) { return x; }
__device__ __forceinline__ double widen(float x, const double* __restrict__ wide, i64 i)
{
    return x >= 0.f ? (double)x : wide[i];
}

// The pull: sum[s] = sum over the piece's arcs a of value[neighbour entry + s] where `dag(l_other,
// i_other, a, s)` holds, added in arc order (a skipped arc adds 0.0), for the lane's S sources.
// Level-free (!Levels; BFS levels): every arc's value is added, no neighbour's level loaded
// (one dependent load an arc, not two), for a `value` block that is 0 at every entry an arc
// of the sweep can reach but the level it pulls from (narrow_level's float32 counts, `wide`
// the doubles).
template <int S, bool Levels, typename V, typename L, typename Dag>
__device__ __forceinline__ void sum_over_arcs(const Piece& c, const int* __restrict__ nb, int kb, int j,
                                              const bool* mine, const L* __restrict__ level, const V* value,
                                              const double* __restrict__ wide, Dag dag, double* sum)
{
    constexpr int G = ARC_GROUP;
#pragma unroll
    for (int s = 0; s < S; ++s) sum[s] = 0.0;
    walk_arcs<S, Levels>(c, nb, kb, j, mine, level, [&](const i64* io, const L (*lo)[S], i64 a0) {
        V x[G][S];
#pragma unroll
        for (int q = 0; q < G; ++q) {
            if constexpr (S == 1) {             // (as walk_arcs: the form that compiles to predicated loads)
                x[q][0] = lo[q][0] >= 0 && (!Levels || dag(lo[q][0], io[q], a0 + q, 0)) ? value[io[q]] : (V)0;
            } else {                            // BFS levels only: the DAG test is a compare, taken without a branch
                bool take[S], some = false;
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    take[s] = (lo[q][s] >= 0) & (!Levels || dag(lo[q][s], io[q] + s, a0 + q, s));
                    some |= take[s];
                }
                const Entries<V, S> got = load_entries<S>(some, value, io[q]);
#pragma unroll
                for (int s = 0; s < S; ++s) x[q][s] = take[s] ? got.x[s] : (V)0;
            }
        }
        double add[G][S];
#pragma unroll
        for (int q = 0; q < G; ++q)
#pragma unroll
            for (int s = 0; s < S; ++s) add[q][s] = widen(x[q][s], wide, io[q] + s);
#pragma unroll
        for (int q = 0; q < G; ++q)
#pragma unroll
            for (int s = 0; s < S; ++s) sum[s] += add[q][s];
    });
}

// The push (BFS levels: DAG arcs join consecutive levels): each entry at level `from` adds
// value[entry] into out[neighbour entry] for each arc of the piece whose neighbour is at level
// `to` (atomically, no value read back). A level whose other end has far fewer arcs to walk
// (sigma from the source's neighbours into level 2; the shares of a thin level below a full
// one) is swept from there.
template <typename L>
__device__ __forceinline__ void push_level(const PieceTasks work, const i64* __restrict__ ptr, const int* __restrict__ nb,
                                           const L* __restrict__ level, const double* value, double* out,
                                           int from, int to)
{
    const int kb = work.kb;
    work.for_each_at_level(level, from, ptr, [&](i64 v, int j, bool mine, const Piece& c) {
        const double x = mine ? value[v * kb + j] : 0.0;
        walk_arcs<1>(c, nb, kb, j, &mine, level, [&](const i64* io, const L (*lo)[1], i64) {
#pragma unroll
            for (int q = 0; q < ARC_GROUP; ++q)
                if (lo[q][0] == to) atomicAdd(out + io[q], x);
        });
    });
}

// A batch's int8 BFS levels indexed in one pass, a block a row at a time (blockDim a multiple
// of 32, so a warp's lanes read one group of 32 sources): entries[l] += 1 and arcs[l] += the
// out-degree of v for each entry (v, j) at level l (each level's entries and arcs to walk,
// counted in shared memory a block: one add a level a group holds, its lanes counted by a
// ballot, since an add an entry serialises 32 lanes on one address), and levels[v * groups +
// g] = the bits 1 << l of the levels l < 64 that group g of v holds (level_tasks lists a
// sweep's tasks from them).
__device__ __forceinline__ void level_index(i64 n, int kb, const signed char* __restrict__ level,
                                            const i64* __restrict__ out_ptr, unsigned long long* arcs,
                                            unsigned long long* entries, unsigned long long* levels)
{
    __shared__ unsigned long long count[128], held[128];
    for (int l = threadIdx.x; l < 128; l += blockDim.x) count[l] = held[l] = 0;
    __syncthreads();
    const int groups = (kb + 31) >> 5;
    for (i64 v = blockIdx.x; v < n; v += gridDim.x) {
        const unsigned long long degree = (unsigned long long)(out_ptr[v + 1] - out_ptr[v]);
        for (int j = threadIdx.x; j < groups * 32; j += blockDim.x) {
            const int l = j < kb ? level[v * kb + j] : -1;
            unsigned long long bits = l >= 0 && l < 64 ? 1ull << l : 0ull;
            for (int off = 16; off; off >>= 1) bits |= __shfl_xor_sync(0xffffffffu, bits, off);
            const bool first = (threadIdx.x & 31) == 0;
            if (first) levels[v * groups + (j >> 5)] = bits;
            for (unsigned long long b = bits; b; b &= b - 1) {      // the same bits in every lane
                const int at = __ffsll((long long)b) - 1;
                const unsigned long long lanes = __popc(__ballot_sync(0xffffffffu, l == at));
                if (first) {
                    atomicAdd(held + at, lanes);
                    if (degree) atomicAdd(count + at, lanes * degree);
                }
            }
            if (l >= 64) {                                          // deeper levels (rare): adds an entry
                atomicAdd(held + l, 1ull);
                if (degree) atomicAdd(count + l, degree);
            }
        }
    }
    __syncthreads();
    for (int l = threadIdx.x; l < 128; l += blockDim.x) {
        if (count[l]) atomicAdd(arcs + l, count[l]);
        if (held[l]) atomicAdd(entries + l, held[l]);
    }
}

// sigma[v, j] = sum of sigma[u, j] over v's DAG in-arcs, for the entries at level `at`, S
// sources a lane (N: level-free, level at - 1's counts read from `narrow`, sum_over_arcs).
template <bool W, bool N, int S, typename D, typename L>
__device__ __forceinline__ void sigma_level(const PieceTasks work, const i64* __restrict__ in_ptr,
                                            const int* __restrict__ in_src, const D* __restrict__ in_w,
                                            const L* __restrict__ level, const D* __restrict__ dist,
                                            double* sigma, const float* __restrict__ narrow, int at, double eps)
{
    const int kb = work.kb;
    work.for_each<S>([&](i64 p, int j) {
        const i64 v = work.piece_row[p];
        bool mine[S];
        if (!__any_sync(0xffffffffu, at_level<S>(level, v, kb, j, at, mine))) return;   // the whole warp moves on
        const i64 tv = v * kb + j;
        const Piece c = work.piece(p, in_ptr);
        const auto dag = [&](L lu, i64 iu, i64 a, int s) {
            return on_dag<W>(lu, (L)at, dist, iu, tv + s, in_w, a, eps);
        };
        double sum[S];
        if constexpr (N) sum_over_arcs<S, false>(c, in_src, kb, j, mine, level, narrow, sigma, dag, sum);
        else sum_over_arcs<S, true>(c, in_src, kb, j, mine, level, sigma, sigma, dag, sum);
#pragma unroll
        for (int s = 0; s < S; ++s)
            if (mine[s]) store_or_add(sigma + tv + s, sum[s], c.split);
    });
}

// Finishing entry t of vertex v (weight wv) whose shares sum to s: its dependency sigma * s
// into sigma, its share wv / sigma + s into share (as the twin's finish_level).
__device__ __forceinline__ void finish_entry(double* sigma, double* share, i64 t, double wv, double s)
{
    const double sg = sigma[t];
    share[t] = wv / sg + s;
    sigma[t] = sg * s;
}

// The backward sweep's level `at` (the levels above done, so share[v, j] is (weight[v] +
// delta[v, j]) / sigma[v, j]): each entry (u, j) there sums share[v, j] over
// its DAG out-arcs and is finished; a vertex of several pieces adds its pieces' sums into the
// zeroed share entry, finished after the sweep by finish_level (as are vertices without
// out-arcs: no warp visits them). (A level-free pull of the shares was slower on the H100: as
// doubles a lane loads one for every arc, DAG or not; as float32 forms, a division an arc.
// gpu-notes.md. Two sources a lane were slower here: 98-108 ms against 67-78 for R-MAT 20's
// level 2 at 1,024 sources on the H100, 70-81 bounded to 64 registers.)
template <bool W, typename D, typename L>
__device__ __forceinline__ void delta_level(const PieceTasks work, const i64* __restrict__ out_ptr,
                                            const int* __restrict__ out_idx, const D* __restrict__ out_w,
                                            const L* __restrict__ level, const D* __restrict__ dist,
                                            double* sigma, double* share, const double* __restrict__ weight,
                                            int at, double eps)
{
    const int kb = work.kb;
    work.for_each_at_level(level, at, out_ptr, [&](i64 u, int j, bool mine, const Piece& c) {
        const i64 tu = u * kb + j;
        double s;
        sum_over_arcs<1, true>(c, out_idx, kb, j, &mine, level, share, share, [&](L lv, i64 iv, i64 a, int) {
            return on_dag<W>((L)at, lv, dist, tu, iv, out_w, a, eps);
        }, &s);
        if (!mine) return;
        if (c.split) atomicAdd(share + tu, s);
        else finish_entry(sigma, share, tu, weight[u], s);
    });
}

// The entries at level `at` of `count` rows (vertex rows[r], or vertex r where rows is null),
// their shares summed, finished: a warp a (row, 32 sources) group, the listed groups
// (level_tasks over the same rows) or all. A pushed level finishes every vertex's entries; a
// pulled one those the sweep cannot finish itself (rows_finished_apart).
template <typename L>
__device__ __forceinline__ void finish_level(const int* __restrict__ rows, i64 count, int kb,
                                             const unsigned int* tasks, const unsigned int* ntasks,
                                             const L* __restrict__ level, double* sigma, double* share,
                                             const double* __restrict__ weight, int at)
{
    for_each_piece_warp<1>(count, kb, tasks, ntasks, [&](i64 r, int j) {
        const i64 v = rows == nullptr ? r : rows[r];
        if (at_level(level, v, kb, j, at)) finish_entry(sigma, share, v * kb + j, weight[v], share[v * kb + j]);
    });
}

// The path counts of the entries at level `at` (BFS levels, the listed (vertex, 32 sources)
// groups or all) copied into `narrow` as float32 where that is exact (integers below 2^24),
// -1 where not, for the next level's pull (sum_over_arcs, level-free). `narrow` is zeroed once
// a batch and holds every level copied so far: an arc into level at + 1 comes from level at or
// deeper (BFS levels), and of those only level at's entries are written when that pull runs.
template <typename L>
__device__ __forceinline__ void narrow_level(i64 n, int kb, const unsigned int* tasks, const unsigned int* ntasks,
                                             const L* __restrict__ level, const double* __restrict__ sigma,
                                             float* narrow, int at)
{
    for_each_piece_warp<1>(n, kb, tasks, ntasks, [&](i64 v, int j) {
        if (!at_level(level, v, kb, j, at)) return;
        const double x = sigma[v * kb + j];
        narrow[v * kb + j] = x < 16777216.0 ? (float)x : -1.f;
    });
}

// out[p] += the dependency of arc p = u -> v summed over the batch's sources, sigma[u] *
// share[v] on the DAG (sigma: the path counts): a warp an arc, its lanes over the sources,
// summed across the warp (one writer an arc: no atomics).
template <bool W, typename D, typename L>
__device__ __forceinline__ void edge_dependency(i64 m, int kb, const int* __restrict__ out_src,
                                                const int* __restrict__ out_idx, const D* __restrict__ out_w,
                                                const L* __restrict__ level, const D* __restrict__ dist,
                                                const double* __restrict__ sigma, const double* __restrict__ share,
                                                double* out, double eps)
{
    const int lane = threadIdx.x & 31;
    const i64 warps = grid_threads() >> 5;
    for (i64 p = grid_thread() >> 5; p < m; p += warps) {
        const i64 u = out_src[p];
        const int v = out_idx[p];
        double s = 0.0;
        for (int j = lane; j < kb; j += 32) {
            const i64 iu = u * kb + j, iv = (i64)v * kb + j;
            if (on_dag<W>(level[iu], level[iv], dist, iu, iv, out_w, p, eps)) s += sigma[iu] * share[iv];
        }
        for (int off = 16; off; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0) out[p] += s;
    }
}

#define PIECES i64 pieces, int kb, const int* piece_row, const i64* piece_start, int size
#define TASKS const unsigned int* tasks, const unsigned int* ntasks
#define PIECE_TASKS PieceTasks{pieces, kb, piece_row, piece_start, size, tasks, ntasks}
// The level sweeps take 60-64 registers a thread (50% occupancy). Bounded to 40 (75%, a few
// registers spilled) they ran 6.5% faster on an H200 and 9% slower on the H100 (a 1,024-source
// R-MAT 20 batch at three places of the exact order, python -m bench betweenness-profile
// --kernel-files; bench/results/betweenness_sweeps_launch_bounds_*.txt): left unbounded.
#define BC_DAG_KERNELS(SUFFIX, D)                                                                   \
extern "C" __global__ void bc_dag_in_arcs##SUFFIX(PIECES, const i64* in_ptr, const int* in_src,     \
        const D* in_w, const D* dist, int* waiting, double eps)                                     \
{ dag_in_arcs<D>(pieces, kb, piece_row, piece_start, size, in_ptr, in_src, in_w, dist, waiting, eps); } \
extern "C" __global__ void bc_dag_release##SUFFIX(PIECES, const i64* out_ptr, const int* out_idx,   \
        const D* out_w, const D* dist, int* level, int* waiting, int at, unsigned int* placed,      \
        double eps)                                                                                 \
{ dag_release<D>(pieces, kb, piece_row, piece_start, size, out_ptr, out_idx, out_w, dist, level,   \
                 waiting, at, placed, eps); }

// The sweeps for weighted DAGs (W) or BFS levels, distances D, a level block of type L.
#define BC_SWEEP_KERNELS(SUFFIX, W, D, L)                                                           \
extern "C" __global__ void bc_sigma_level##SUFFIX(PIECES, TASKS, const i64* in_ptr,                \
        const int* in_src, const D* in_w, const L* level, const D* dist, double* sigma, int at,     \
        double eps)                                                                                 \
{ sigma_level<W, false, 1, D, L>(PIECE_TASKS, in_ptr, in_src, in_w, level, dist, sigma, nullptr,  \
                                 at, eps); }                                                      \
extern "C" __global__ void bc_delta_level##SUFFIX(PIECES, TASKS, const i64* out_ptr,                \
        const int* out_idx, const D* out_w, const L* level, const D* dist, double* sigma,           \
        double* share, const double* weight, int at, double eps)                                    \
{ delta_level<W, D, L>(PIECE_TASKS, out_ptr, out_idx, out_w, level, dist, sigma, share, weight,   \
                       at, eps); }                                                                 \
extern "C" __global__ void bc_edge_dependency##SUFFIX(i64 m, int kb, const int* out_src, const int* out_idx, \
        const D* out_w, const L* level, const D* dist, const double* sigma, const double* share,    \
        double* out, double eps)                                                                    \
{ edge_dependency<W, D, L>(m, kb, out_src, out_idx, out_w, level, dist, sigma, share, out, eps); }

BC_DAG_KERNELS(_f32, float)
BC_DAG_KERNELS(_f64, double)
BC_SWEEP_KERNELS(_f32, true, float, int)
BC_SWEEP_KERNELS(_f64, true, double, int)
BC_SWEEP_KERNELS(_bfs, false, float, int)
BC_SWEEP_KERNELS(_bfs_l8, false, float, signed char)

// The path counts of BFS levels (int8) two sources a lane (_x2; kb even: a warp's iteration
// over an arc serves 64 sources), bounded to 64 registers (4 blocks of launch.THREADS = 256 an
// SM; unbounded they take 78 and run 3 blocks); and the level-free pull of level at's counts
// from level at - 1's float32 copies, one or two sources a lane.
#define X2_BOUNDS __launch_bounds__(256, 4)
extern "C" __global__ void X2_BOUNDS bc_sigma_level_bfs_l8_x2(PIECES, TASKS, const i64* in_ptr,
        const int* in_src, const float* in_w, const signed char* level, const float* dist, double* sigma,
        int at, double eps)
{ sigma_level<false, false, 2, float, signed char>(PIECE_TASKS, in_ptr, in_src, in_w, level, dist, sigma,
                                                   nullptr, at, eps); }

#define BC_FREE_KERNEL(SUFFIX, S, BOUNDS)                                                           \
extern "C" __global__ void BOUNDS bc_sigma_level_free_bfs_l8##SUFFIX(PIECES, TASKS,                 \
        const i64* in_ptr, const int* in_src, const signed char* level, double* sigma,              \
        const float* narrow, int at)                                                                \
{ sigma_level<false, true, S, float, signed char>(PIECE_TASKS, in_ptr, in_src, nullptr, level,      \
                                                  nullptr, sigma, narrow, at, 0.0); }

BC_FREE_KERNEL(, 1, )
BC_FREE_KERNEL(_x2, 2, X2_BOUNDS)

// The pushes (BFS levels, int8): sigma from level at - 1 into level at over out-arcs; shares
// from level at + 1 into level at over in-arcs.
extern "C" __global__ void bc_push_level_bfs_l8(PIECES, TASKS, const i64* ptr, const int* nb,
                                                 const signed char* level, const double* value, double* out,
                                                 int from, int to)
{ push_level<signed char>(PIECE_TASKS, ptr, nb, level, value, out, from, to); }
extern "C" __global__ void bc_level_index_l8(i64 n, int kb, const signed char* level, const i64* out_ptr,
                                             unsigned long long* arcs, unsigned long long* entries,
                                             unsigned long long* levels)
{ level_index(n, kb, level, out_ptr, arcs, entries, levels); }
extern "C" __global__ void bc_narrow_level_l8(i64 n, int kb, TASKS, const signed char* level, const double* sigma,
                                              float* narrow, int at)
{ narrow_level<signed char>(n, kb, tasks, ntasks, level, sigma, narrow, at); }
extern "C" __global__ void bc_level_tasks(i64 count, int kb, const int* rows, const unsigned long long* levels,
                                          int at, int span, int first, int last, unsigned int* tasks,
                                          unsigned int* ntasks)
{ level_tasks(count, kb, rows, levels, at, span, first, last, tasks, ntasks); }

#define BC_FINISH_KERNEL(SUFFIX, L)                                                                 \
extern "C" __global__ void bc_finish_level##SUFFIX(const int* rows, i64 count, int kb, TASKS, const L* level, \
                                                    double* sigma, double* share, const double* weight, int at) \
{ finish_level<L>(rows, count, kb, tasks, ntasks, level, sigma, share, weight, at); }

BC_FINISH_KERNEL(, int)
BC_FINISH_KERNEL(_l8, signed char)
