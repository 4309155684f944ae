// curnet CUDA backend: breadth-first search kernels (common.cuh comes first).

// bits[sources[j], j / 64] |= 1 << (j % 64).  bits is (n, W) row-major.
extern "C" __global__ void seed_bits(const int* __restrict__ sources, int k, int W, u64* bits)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < k) atomicOr(&bits[(i64)sources[j] * W + (j >> 6)], 1ULL << (j & 63));
}

// Per vertex, one bit per word (W <= 64): amask[v] bit j = frontier[v, j] has a set bit (the
// expansions skip inactive words without reading them).
extern "C" __global__ void bits_flags(const u64* __restrict__ frontier, i64 n, int W, u64* amask)
{
    for_each(n, [&](i64 v) {
        u64 a = 0;
        for (int j = 0; j < W; ++j)
            if (frontier[v * W + j]) a |= 1ULL << j;
        amask[v] = a;
    });
}

// Pull expansion over in-arcs cut into fixed chunks (balanced whatever the degrees).
// Thread (chunk c, word j) ORs frontier[u, j] over the chunk's arcs u -> v whose word j is
// active at u (amask), masks with ~seen[v, j] and writes next[v, j]: a plain store for heads
// whose in-arcs all lie inside the chunk, atomicOr for the first and last run (shared with
// the neighbouring chunks). Once seen[v, j] and the bits gathered so far cover the word, the
// run's other arcs can add nothing and are not read: a hub's word fills after a few of its
// thousands of in-arcs, and each arc read is a random 8-byte gather. next must be zero on entry.
extern "C" __global__ void bits_expand(const int* __restrict__ in_src, const int* __restrict__ in_dst,
                                       i64 m, int chunk, int W,
                                       const u64* __restrict__ frontier, const u64* __restrict__ seen,
                                       const u64* __restrict__ amask, u64* next)
{
    i64 t = blockIdx.x * (i64)blockDim.x + threadIdx.x;
    i64 c = t / W;
    int j = (int)(t - c * W);
    i64 a0 = c * chunk;
    if (a0 >= m) return;
    i64 a1 = a0 + chunk < m ? a0 + chunk : m;
    int cur = in_dst[a0];
    u64 held = seen[(i64)cur * W + j];   // the run's head's seen word
    bool shared = true;              // the first run may continue from the previous chunk
    u64 acc = 0;
    for (i64 a = a0; a < a1; ++a) {
        int v = in_dst[a];
        if (v != cur) {
            acc &= ~held;
            if (acc) {
                if (shared) atomicOr(&next[(i64)cur * W + j], acc);
                else next[(i64)cur * W + j] = acc;
            }
            cur = v;
            held = seen[(i64)cur * W + j];
            acc = 0;
            shared = false;
        }
        if ((acc | held) != ~0ULL) {
            int u = in_src[a];
            if ((amask[u] >> j) & 1) acc |= frontier[(i64)u * W + j];
        }
    }
    acc &= ~held;
    if (acc) atomicOr(&next[(i64)cur * W + j], acc);   // the last run may continue
}

// The end of a level, fused, one thread per (v, word j): nw = next[v, j] (already without
// seen bits) joins seen; amask_new gets its bit; *count gets the number of
// non-zero words. next itself becomes the next frontier (and this level's record).
extern "C" __global__ void bits_finish(const u64* __restrict__ next, u64* seen, i64 n, int W,
                                       u64* amask_new, unsigned int* count)
{
    unsigned int mine = 0;
    for_each(n * W, [&](i64 t) {
        u64 nw = next[t];
        if (nw) {
            i64 v = t / W;
            int j = (int)(t - v * W);
            u64 s = seen[t] | nw;
            seen[t] = s;
            atomicOr(&amask_new[v], 1ULL << j);
            ++mine;
        }
    });
    block_add(mine, count);
}

// Depths from the per-level records of new bits (arrays at level_ptrs, numbered level_nums;
// L <= 64 of them, disjoint: a bit is new at one level at most). A block takes rpb =
// blockDim.x / W rows at a time (blockDim.x <= 256, W <= 64 words a row).
// Step 1, one thread a (row, word), coalesced: the L level words are folded into bit planes
// in shared memory, plane k holding bit k of the index of the level that set each bit, and
// plane REACHED the bits set at all. Step 2, tpr threads a row (a power of two): each thread
// takes `span` adjacent sources s of the row (1, or 16 bytes of entries where the row allows a
// vector store: the caller's `span`), reads their bits of the planes once (a warp's lanes
// share the words: broadcasts) and writes depth[v, s] = level_nums[index], or `unreachable`
// on the first flush; the stores of a row are coalesced, each entry written once (not every
// level word per entry: see docs/gpu-notes.md). The 4-byte stores were bound by the work an
// entry, not by bytes: 16 bytes a lane wrote R-MAT 20's 1,024-source block in 1.61 ms, not 2.23.
#define REACHED 6
template <typename T>
struct alignas(16) DepthVector {
    T x[16 / sizeof(T)];
};

template <typename T>
__device__ __forceinline__ void bits_depths(const u64* __restrict__ level_ptrs, const int* __restrict__ level_nums,
                                            int L, i64 n, int W, int kb, T* depth, i64 ld, T unreachable,
                                            int first, int tpr, int span)
{
    constexpr int VEC = 16 / sizeof(T);
    __shared__ const u64* lp[64];
    __shared__ int ln[64];
    __shared__ u64 planes[REACHED + 1][256];
    if (threadIdx.x < L && threadIdx.x < 64) {
        lp[threadIdx.x] = (const u64*)level_ptrs[threadIdx.x];
        ln[threadIdx.x] = level_nums[threadIdx.x];
    }
    __syncthreads();
    const int K = L > 1 ? 32 - __clz(L - 1) : 0;      // index bits in use
    const int rpb = blockDim.x / W;
    const int sub = threadIdx.x & (tpr - 1), group = threadIdx.x / tpr, groups = blockDim.x / tpr;
    const unsigned int all = (1u << span) - 1u;      // a lane's span bits (span <= VEC <= 4)
    for (i64 v0 = (i64)blockIdx.x * rpb; v0 < n; v0 += (i64)gridDim.x * rpb) {
        const int t = threadIdx.x;
        if (t < rpb * W) {
            const i64 v = v0 + t / W;
            u64 p[REACHED + 1] = {0, 0, 0, 0, 0, 0, 0};
            if (v < n) {
                const i64 word = v * W + t % W;
                for (int l = 0; l < L; ++l) {
                    u64 x = lp[l][word];
                    p[REACHED] |= x;
#pragma unroll
                    for (int k = 0; k < REACHED; ++k) if ((l >> k) & 1) p[k] |= x;
                }
            }
#pragma unroll
            for (int k = 0; k <= REACHED; ++k) planes[k][t] = p[k];
        }
        __syncthreads();
        const int rows = (int)(n - v0 < rpb ? n - v0 : rpb);
        for (int r = group; r < rows; r += groups) {
            T* row = depth + (v0 + r) * ld;
            for (int s = sub * span; s < kb; s += tpr * span) {
                const int slot = r * W + (s >> 6), b = s & 63;      // span divides 64: one word
                const unsigned int reached = (unsigned int)(planes[REACHED][slot] >> b) & all;
                if (!reached && !first) continue;
                unsigned int index_bits[REACHED];
#pragma unroll
                for (int k = 0; k < REACHED; ++k) index_bits[k] = k < K ? (unsigned int)(planes[k][slot] >> b) : 0u;
                auto entry = [&](int e) {
                    int idx = 0;
#pragma unroll
                    for (int k = 0; k < REACHED; ++k) idx |= (int)((index_bits[k] >> e) & 1u) << k;
                    return (reached >> e) & 1u ? (T)ln[idx] : unreachable;
                };
                if (span == VEC && (first || reached == all)) {
                    DepthVector<T> out;
#pragma unroll
                    for (int e = 0; e < VEC; ++e) out.x[e] = entry(e);
                    *reinterpret_cast<DepthVector<T>*>(row + s) = out;
                } else {
                    for (int e = 0; e < span; ++e)
                        if (first || ((reached >> e) & 1u)) row[s + e] = entry(e);
                }
            }
        }
        __syncthreads();
    }
}

#define BITS_DEPTHS(NAME, T)                                                                \
extern "C" __global__ void NAME(const u64* level_ptrs, const int* level_nums, int L, i64 n, int W, int kb, \
                                T* depth, i64 ld, T unreachable, int first, int tpr, int span) \
{                                                                                           \
    bits_depths<T>(level_ptrs, level_nums, L, n, W, kb, depth, ld, unreachable, first, tpr, span); \
}
BITS_DEPTHS(bits_depths_i32, int)
BITS_DEPTHS(bits_depths_i64, long long)
BITS_DEPTHS(bits_depths_f32, float)
BITS_DEPTHS(bits_depths_f64, double)

// Top-down (push) expansion for a small frontier: the load-balanced advance over the out-arcs
// u -> v of the frontier queue (incl = inclusive sum of their out-degrees); each active word j of u
// (amask[u]) ORs frontier[u, j] & ~seen[v, j] into next[v, j]. next must be zero on entry.
extern "C" __global__ void bits_push(const int* __restrict__ queue, const i64* __restrict__ incl, int qlen,
                                     i64 total, const i64* __restrict__ ptr, const int* __restrict__ idx,
                                     int W, const u64* __restrict__ frontier, const u64* __restrict__ seen,
                                     const u64* __restrict__ amask, u64* next)
{
    advance(incl, qlen, total, [&](int q, i64 offset) {
        int u = queue[q];
        i64 v = idx[ptr[u] + offset];
        u64 am = amask[u];
        while (am) {
            int j = __ffsll((long long)am) - 1;
            am &= am - 1;
            u64 x = frontier[(i64)u * W + j] & ~seen[v * W + j];
            if (x) atomicOr(&next[v * W + j], x);
        }
    });
}

// One-source BFS, top-down: the load-balanced advance over the frontier queue's arcs.
// incl[q] = sum of the out-degrees of queue[0..q]; total = incl[qlen - 1].
extern "C" __global__ void bfs_top_down(const int* __restrict__ queue, const i64* __restrict__ incl,
                                        int qlen, i64 total, const i64* __restrict__ ptr,
                                        const int* __restrict__ idx, int* depth, int level)
{
    advance(incl, qlen, total, [&](int q, i64 offset) {
        int v = idx[ptr[queue[q]] + offset];
        if (depth[v] < 0) depth[v] = level;   // benign race: every writer writes `level`
    });
}

// In-arcs a lane reads at once in a bottom-up search: their loads (and then their tails'
// depths) are independent, so a list costs one memory latency a pair, not one an arc (one
// H200, R-MAT 22: the slow sources' searches 10-20% faster than one at a time; 4 and 8 no better).
#define PULL_ARCS_AT_ONCE 2

// Is the tail of any in-arc up_idx[b, e) at level - 1 (the bottom-up test, first hit wins)?
// PULL_ARCS_AT_ONCE arcs a step (past e, the step's first arc again).
__device__ __forceinline__ bool has_parent_at(const int* __restrict__ up_idx, const int* depth, i64 b, i64 e,
                                              int level)
{
    for (i64 a = b; a < e; a += PULL_ARCS_AT_ONCE) {
        int u[PULL_ARCS_AT_ONCE];
#pragma unroll
        for (int k = 0; k < PULL_ARCS_AT_ONCE; ++k) u[k] = streamed(&up_idx[a + k < e ? a + k : a]);
        bool hit = false;
#pragma unroll
        for (int k = 0; k < PULL_ARCS_AT_ONCE; ++k) hit |= depth[u[k]] == level - 1;
        if (hit) return true;
    }
    return false;
}

// The bottom-up level of the loop kernel over the candidates (vertices that may still be
// found: candidates[0 .. count)), a warp's 32 lanes on 32 adjacent entries: an unvisited
// vertex of at most `warp_list` in-arcs is searched by its own lane, a longer list by the
// whole warp, 32 arcs a step, until a lane finds a parent (a lane walking a long list alone
// holds its warp back; warp_list 0: every list by its own lane). found(v) for each vertex with
// a parent at level - 1, missed(v) for each unvisited one without. Every lane of the grid calls it.
template <typename Found, typename Missed>
__device__ __forceinline__ void pull_level(const i64* __restrict__ up_ptr, const int* __restrict__ up_idx,
                                           const int* depth, const int* candidates, i64 count, int level,
                                           int warp_list, Found found, Missed missed)
{
    const int lane = threadIdx.x & 31;
    for (i64 base = grid_thread() - lane; base < count; base += grid_threads()) {   // whole warps
        const i64 v = base + lane < count ? candidates[base + lane] : -1;
        const bool open = v >= 0 && depth[v] < 0;
        const i64 b = open ? up_ptr[v] : 0, e = open ? up_ptr[v + 1] : 0;
        const bool together = warp_list > 0 && e - b > warp_list;
        bool hit = open && !together && has_parent_at(up_idx, depth, b, e, level);
        for (unsigned int todo = __ballot_sync(0xffffffffu, together); todo; todo &= todo - 1) {
            const int owner = __ffs(todo) - 1;
            const i64 lb = __shfl_sync(0xffffffffu, b, owner), le = __shfl_sync(0xffffffffu, e, owner);
            bool any = false;
            for (i64 c = lb; c < le && !any; c += 32)
                any = __any_sync(0xffffffffu, c + lane < le && depth[up_idx[c + lane]] == level - 1);
            if (lane == owner) hit = any;
        }
        if (hit) found(v);
        else if (open) missed(v);
    }
}

// One-source BFS, bottom-up: each unvisited vertex looks for a parent at level - 1
// among its in-arcs, stopping at the first. Counts the vertices found into *found.
extern "C" __global__ void bfs_bottom_up(const i64* __restrict__ in_ptr, const int* __restrict__ in_src,
                                         int* depth, i64 n, int level, unsigned int* found)
{
    unsigned int mine = 0;
    for_each(n, [&](i64 v) {
        if (depth[v] >= 0 || !has_parent_at(in_src, depth, in_ptr[v], in_ptr[v + 1], level)) return;
        depth[v] = level;
        ++mine;
    });
    block_add(mine, found);
}

#define BFS_BLOCK_QUEUE 2048   // a block's buffered appends a level, to each of two queues (bfs_one_loop)

// The whole direction-optimizing one-source BFS in one launch (cooperative: every block
// resident), the level loop on the device: levels are separated by grid barriers, and the
// host waits once, not once a level. Each level is top-down or bottom-up (every unvisited
// vertex looks for a parent), chosen as bfs_one's host loop chooses (Beamer's alpha and
// beta). Top-down walks the frontier's out-arcs and claims a vertex by compare-and-swap; its
// light vertices (at most `heavy` arcs) take a warp each, its heavy ones (R-MAT hubs: 10^5
// arcs) a team of blocks each, the grid split in min(heavy vertices, blocks) teams, so one
// hub alone gets the whole grid. Both directions append the vertices found to the next
// level's light or heavy queue and count their out-arcs. A bottom-up level looks only at
// candidates: the first at the vertices with in-arcs (with_in, with_in_count entries), each
// later one at those the bottom-up level before it left unvisited (written to open_lists,
// 2 x n, in turn), so the levels after the first wide one skip the vertices already found.
// down_*: the arcs followed (out-arcs; in-arcs for a backward search), up_*: the reverse.
// The kernel sets depth (-1, the source 0) and the counters itself, before its first
// barrier: the host only allocates. ctl (u64): arcs[3] (the next frontier's out-arcs, by
// slot_of(level)), the vertices the bottom-up levels looked at, then as unsigned ints:
// found[6] (light, heavy: slot_of(level) and 3 + slot_of(level)), the barrier's bar[2]
// (zero before the first launch; a finished launch leaves it so), result[4]: the last level,
// top-down levels, bottom-up levels, 1 if finished (0: stopped at max_levels, a long-diameter
// graph), left[3] (the vertices a bottom-up level left unvisited, by slot).
// stamps (max_levels + 1 entries, or nullptr): the GPU's clock in ns at the start and at the
// end of each level, for the benchmark's account of where a search's time goes.
extern "C" __global__ void __launch_bounds__(256, 5) bfs_one_loop(const i64* __restrict__ down_ptr, const int* __restrict__ down_idx,
                                        const i64* __restrict__ up_ptr, const int* __restrict__ up_idx,
                                        i64 n, i64 m, int source, int max_levels, int alpha, int beta, int heavy,
                                        int warp_list,
                                        int* depth, int* light_queue, int* light_next, int* heavy_queue,
                                        int* heavy_next, const int* __restrict__ with_in, i64 with_in_count,
                                        int* open_lists, u64* ctl, u64* stamps)
{
    if (stamps != nullptr && grid_thread() == 0) stamps[0] = global_ns();
    u64 *arcs = ctl, *examined = ctl + 3;
    unsigned int *found = (unsigned int*)(ctl + 4), *bar = found + 6, *result = found + 8, *left = found + 12;
    for_each(n, [&](i64 v) { depth[v] = v == source ? 0 : -1; });
    if (grid_thread() == 0) {
        for (int i = 0; i < 6; ++i) found[i] = 0;
        for (int i = 0; i < 3; ++i) { arcs[i] = 0; left[i] = 0; }
        *examined = 0;
    }
    grid_barrier(bar);
    const int lane = threadIdx.x & 31;
    const i64 warp = grid_thread() >> 5, warps = grid_threads() >> 5;
    const i64 source_arcs = down_ptr[source + 1] - down_ptr[source];
    u64 unexplored = (u64)m, qarcs = (u64)source_arcs;
    unsigned int nlight = source_arcs <= heavy, nheavy = 1 - nlight;   // level 0: the source
    bool top_down = true;
    int level = 0, pushes = 0, pulls = 0, finished = 1;
    const int* candidates = with_in;          // the next bottom-up level's
    unsigned int ncand = (unsigned int)with_in_count;
    int* open_next = open_lists;              // where the next bottom-up level writes those it leaves
    // the light queue's and the open list's appends gathered a block at a time (BlockQueue),
    // the heavy queue's (hubs, few) a warp at a time
    __shared__ BlockQueue<int, BFS_BLOCK_QUEUE> light_q, open_q;
    while (nlight + nheavy) {
        if (level >= max_levels) { finished = 0; break; }
        if (!top_down && (i64)(nlight + nheavy) * beta < n) top_down = true;
        if (top_down && qarcs * (u64)alpha > unexplored) top_down = false;
        ++level;
        const int s = slot_of(level);
        if (grid_thread() == 0) {
            found[slot_of(level + 1)] = 0; found[3 + slot_of(level + 1)] = 0; arcs[slot_of(level + 1)] = 0;
            left[slot_of(level + 1)] = 0;
        }
        u64 my_arcs = 0;
        light_q.start();
        open_q.start();
        __syncthreads();
        auto append = [&](int v) {            // v found at this level: into the next light or heavy queue
            i64 d = down_ptr[v + 1] - down_ptr[v];
            if (d <= heavy) light_q.push(v, light_next, &found[s]);
            else heavy_next[warp_append(&found[3 + s])] = v;
            my_arcs += (u64)d;
        };
        auto claim = [&](int v) {
            if (depth[v] < 0 && atomicCAS(&depth[v], -1, level) == -1) append(v);
        };
        if (top_down) {
            ++pushes;
            unexplored -= qarcs;
            for (i64 q = warp; q < nlight; q += warps) {
                int u = level == 1 ? source : light_queue[q];
                for (i64 a = down_ptr[u] + lane, e = down_ptr[u + 1]; a < e; a += 32) claim(streamed(&down_idx[a]));
            }
            unsigned int teams = nheavy < gridDim.x ? nheavy : gridDim.x;
            if (teams) {
                unsigned int team = blockIdx.x % teams, rank = blockIdx.x / teams;
                unsigned int members = gridDim.x / teams + (team < gridDim.x % teams ? 1u : 0u);
                for (unsigned int h = team; h < nheavy; h += teams) {
                    int u = level == 1 ? source : heavy_queue[h];
                    for (i64 a = down_ptr[u] + (i64)rank * blockDim.x + threadIdx.x, e = down_ptr[u + 1]; a < e;
                         a += (i64)members * blockDim.x)
                        claim(streamed(&down_idx[a]));
                }
            }
        } else {
            ++pulls;
            if (grid_thread() == 0) *examined += ncand;
            pull_level(up_ptr, up_idx, depth, candidates, ncand, level, warp_list,
                       [&](i64 v) {
                           depth[v] = level;
                           append((int)v);
                       },
                       [&](i64 v) { open_q.push((int)v, open_next, &left[s]); });
        }
        light_q.flush(light_next, &found[s]);
        open_q.flush(open_next, &left[s]);
        block_add(my_arcs, &arcs[s]);
        grid_barrier(bar);
        if (stamps != nullptr && grid_thread() == 0) stamps[level] = global_ns();
        nlight = ((volatile unsigned int*)found)[s];
        nheavy = ((volatile unsigned int*)found)[3 + s];
        qarcs = ((volatile u64*)arcs)[s];
        if (!top_down) {                      // the next bottom-up level looks at those this one left
            candidates = open_next;
            ncand = ((volatile unsigned int*)left)[s];
            open_next = open_next == open_lists ? open_lists + n : open_lists;
        }
        int* t = light_queue; light_queue = light_next; light_next = t;
        t = heavy_queue; heavy_queue = heavy_next; heavy_next = t;
    }
    if (grid_thread() == 0) {
        result[0] = (unsigned int)(finished ? level - 1 : level);
        result[1] = (unsigned int)pushes; result[2] = (unsigned int)pulls; result[3] = (unsigned int)finished;
    }
}

// rows[a] = v for each arc a of row v of a CSR with offsets ptr (the heads of in-arcs).
extern "C" __global__ void fill_rows(const i64* __restrict__ ptr, i64 n, int* rows)
{
    for_each(n, [&](i64 v) {
        for (i64 a = ptr[v], e = ptr[v + 1]; a < e; ++a) rows[a] = (int)v;
    });
}
