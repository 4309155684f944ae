// curnet CUDA backend: what the kernel files share. The loader (backends/cuda/launch.py)
// puts this text in front of each .cu file before NVRTC compiles it (nvcc: -include), so
// the .cu files hold no #include.
// Offsets are 64-bit on the device; vertex ids are int32.

typedef unsigned long long u64;
typedef long long i64;

// This thread's index in the grid, and the grid's size (grid-stride loops).
__device__ __forceinline__ i64 grid_thread() { return blockIdx.x * (i64)blockDim.x + threadIdx.x; }
__device__ __forceinline__ i64 grid_threads() { return (i64)gridDim.x * blockDim.x; }

// The grid-stride loop: body(i) for each i in [0, count), spread over the whole grid (i a
// thread's first item, then steps of the grid's size). body's `return` moves to the next item.
template <typename Body>
__device__ __forceinline__ void for_each(i64 count, Body body)
{
    for (i64 i = grid_thread(); i < count; i += grid_threads())
        body(i);
}

// body(i) for each i in [0, count) whose byte flags[i] is set (0 or 1), over the whole grid:
// a thread reads 16 flags at once (a uint4), so a dense pass over a sparse byte mask moves at
// the memory's pace rather than a load a byte. flags is 16-byte aligned (CuPy's are) and
// holds a multiple of 16 bytes, zero past count. body may clear flags[i].
template <typename Body>
__device__ __forceinline__ void for_each_flagged(const unsigned char* flags, i64 count, Body body)
{
    const uint4* words = reinterpret_cast<const uint4*>(flags);
    for (i64 c = grid_thread(); c < (count + 15) >> 4; c += grid_threads()) {
        uint4 f = words[c];
        unsigned int part[4] = {f.x, f.y, f.z, f.w};
        for (int k = 0; k < 4; ++k)
            for (unsigned int bits = part[k]; bits; bits &= bits - 1)   // a set flag is its byte's low bit
                body((c << 4) + 4 * k + ((__ffs(bits) - 1) >> 3));
    }
}

// The queue entry q holding work item i, given incl, the inclusive sum of the entries'
// arc counts (incl[q - 1] <= i < incl[q]): a binary search.
__device__ __forceinline__ int find_entry(const i64* __restrict__ incl, i64 qlen, i64 i)
{
    i64 lo = 0, hi = qlen - 1;
    while (lo < hi) {
        i64 mid = (lo + hi) >> 1;
        if (incl[mid] > i) hi = mid; else lo = mid + 1;
    }
    return (int)lo;
}

// The load-balanced advance over a queue's out-arcs: work item i (one a thread, grid-stride,
// i < total = incl[qlen - 1]) is arc number i - incl[q - 1] of queue entry q, so hubs are
// spread over many threads. visit(q, offset) is called for each; its `return` skips an arc.
template <typename Visit>
__device__ __forceinline__ void advance(const i64* __restrict__ incl, i64 qlen, i64 total, Visit visit)
{
    for_each(total, [&](i64 i) {
        int q = find_entry(incl, qlen, i);
        visit(q, i - (q ? incl[q - 1] : 0));
    });
}

// The advance walked a warp's chunk of consecutive work items at a time: one find_entry a
// chunk (every lane searches the same item: broadcast loads), then each lane steps its entry
// forward. enter(q) is called when a lane's entry changes (to load what all of q's arcs
// share), then visit(q, offset) for each item. For queues of hubs (near-far's heavy
// entries), where a binary search per arc costs more than the arc. A chunk is 32 x per_lane
// items, per_lane the items a lane needs to cover `total` with the grid, kept within
// [lane_min, lane_max]: a small queue spreads over the whole grid (short chains of
// dependent relaxations), a large one pays one search per lane_max items a lane.
template <typename Enter, typename Visit>
__device__ __forceinline__ void advance_chunks(const i64* __restrict__ incl, i64 qlen, i64 total,
                                               int lane_min, int lane_max, Enter enter, Visit visit)
{
    i64 wid = grid_thread() >> 5, nwarps = grid_threads() >> 5;
    int lane = (int)(threadIdx.x & 31);
    i64 per_lane = (total + grid_threads() - 1) / grid_threads();
    per_lane = per_lane < lane_min ? lane_min : (per_lane > lane_max ? lane_max : per_lane);
    const i64 chunk = 32 * per_lane;
    for (i64 c0 = wid * chunk; c0 < total; c0 += nwarps * chunk) {
        int q = find_entry(incl, qlen, c0);
        i64 cend = c0 + chunk < total ? c0 + chunk : total;
        int qc = -1;
        i64 start = 0;
        for (i64 i = c0 + lane; i < cend; i += 32) {
            while (incl[q] <= i) ++q;
            if (q != qc) {
                qc = q;
                start = q ? incl[q - 1] : 0;
                enter(q);
            }
            visit(q, i - start);
        }
    }
}

// A read of data a kernel streams through once (a row's arcs and weights), marked evict-first
// (ld.global.cs): it then does not push out of L2 the arrays read at random beside it
// (distances, stamps, flags).
template <typename T>
__device__ __forceinline__ T streamed(const T* p)
{
    return __ldcs(p);
}

// Arc heads may carry two flag bits on top (the shortest paths' edge classes, kernels/sssp.cu):
// where `flagged`, the head is the low 30 bits and cls its top two; else cls is 0.
__device__ __forceinline__ int head_of(int x, int flagged, unsigned int& cls)
{
    cls = flagged ? (unsigned int)x >> 30 : 0u;
    return flagged ? (x & 0x3fffffff) : x;
}

// A relaxation round's arcs, decoded once for every kernel that relaxes: the advance over
// the out-arcs of a queue of entries e = r * n + u (incl: the inclusive sum of their
// out-degrees), each arc handed to visit(e, rn, u, v, wa, cls): its entry, the row's offset
// rn = r * n, tail u, head v (class bits cls, see head_of), weight wa (1 when unweighted).
// Self-loops of non-negative weight are skipped: they never shorten a path.
template <typename T, typename Visit>
__device__ __forceinline__ void relax_arcs(const i64* __restrict__ entries, const i64* __restrict__ incl,
                                           i64 qlen, i64 total, i64 n, const i64* __restrict__ ptr,
                                           const int* __restrict__ idx, const T* __restrict__ w, int has_w,
                                           int flagged, Visit visit)
{
    advance(incl, qlen, total, [&](int q, i64 offset) {
        i64 e = entries[q];
        i64 rn = (e / n) * n;
        int u = (int)(e - rn);
        i64 a = ptr[u] + offset;
        unsigned int cls;
        int v = head_of(idx[a], flagged, cls);
        T wa = has_w ? w[a] : (T)1;
        if (v == u && wa >= (T)0) return;
        visit(e, rn, u, v, wa, cls);
    });
}

// Thread t of the block takes a stretch [lo, hi) of the items [b0, b1) (as even as the
// block's threads make them), and `part` (shared, an entry a thread) gets the block's
// inclusive sums of the stretches' counts (count(i) an item). Returns the count before this
// thread's stretch. Every thread of the block calls it.
template <typename Count>
__device__ __forceinline__ i64 stretch_sums(i64* part, i64 b0, i64 b1, Count count, i64& lo, i64& hi)
{
    int t = threadIdx.x, T = blockDim.x;
    i64 per = (b1 - b0 + T - 1) / T;
    lo = b0 + t * per < b1 ? b0 + t * per : b1;
    hi = lo + per < b1 ? lo + per : b1;
    i64 s = 0;
    for (i64 i = lo; i < hi; ++i) s += count(i);
    part[t] = s;
    __syncthreads();
    for (int off = 1; off < T; off <<= 1) {
        i64 x = t >= off ? part[t - off] : 0;
        __syncthreads();
        part[t] += x;
        __syncthreads();
    }
    return t ? part[t - 1] : 0;
}

// Block-wide sum of one value per thread, added to *total once per block (32- or 64-bit
// unsigned). Every thread of the block calls it.
template <typename U>
__device__ __forceinline__ void block_add(U value, U* total)
{
    __shared__ U part;
    if (threadIdx.x == 0) part = 0;
    __syncthreads();
    if (value) atomicAdd(&part, value);
    __syncthreads();
    if (threadIdx.x == 0 && part) atomicAdd(total, part);
    __syncthreads();                      // part is free again for the next call
}

// A barrier across the whole grid, for the loop kernels (launched cooperatively: every block
// resident at once, `Launcher.launch_resident`). bar[0] counts the blocks arrived, bar[1] is
// the generation: the last block to arrive resets the count and moves the generation on, the
// others wait for that. Zeroed by the host before the launch. Writes before it are visible
// to every thread after it.
__device__ __forceinline__ void grid_barrier(unsigned int* bar)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile unsigned int* generation = bar + 1;
        unsigned int seen = *generation;
        __threadfence();
        if (atomicAdd(bar, 1u) == gridDim.x - 1) {
            atomicExch(bar, 0u);
            __threadfence();
            atomicAdd(bar + 1, 1u);
        } else {
            while (*generation == seen) __nanosleep(32);
        }
        __threadfence();
    }
    __syncthreads();
}

// The GPU's global clock in nanoseconds (the loop kernels' optional per-level stamps).
__device__ __forceinline__ u64 global_ns()
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// A loop kernel's per-level (per-sweep) counters sit in three slots, used in turn: the slot of
// step s is written during s, read by every thread right after the barrier that ends s, and
// zeroed during s + 1 for step s + 2, when no thread reads it any more.
__device__ __forceinline__ int slot_of(int step) { return step % 3; }

// The end of a loop kernel's step: a grid barrier after which every thread knows whether any
// thread of the grid passed `mine` true. flags[3] (the slots, zeroed by the host) and bar[2]
// as for grid_barrier; `step` (the same in every thread) moves on by one.
__device__ __forceinline__ bool grid_any(bool mine, unsigned int* flags, unsigned int* bar, int& step)
{
    const int s = slot_of(step);
    if (grid_thread() == 0) flags[slot_of(step + 1)] = 0;
    if (__syncthreads_or(mine) && threadIdx.x == 0) flags[s] = 1;
    grid_barrier(bar);
    ++step;
    return ((volatile unsigned int*)flags)[s] != 0;
}

// The index of this lane's item in a warp-aggregated append of the active lanes to *cnt.
__device__ __forceinline__ unsigned int warp_append(unsigned int* cnt)
{
    unsigned int mask = __activemask();
    int lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    unsigned int base = 0;
    if (lane == leader) base = atomicAdd(cnt, (unsigned int)__popc(mask));
    base = __shfl_sync(mask, base, leader);
    return base + __popc(mask & ((1u << lane) - 1u));
}

// The first of `mine` slots for this thread in a block-aggregated append to the queue counted
// by *cnt: one global atomic a block (shared-memory atomics inside it). Every thread of the
// block calls it. Where appends are scattered thinly over many warps (a pass over a sparse
// mask), warp_append's one atomic a warp and step piles up on the one counter.
__device__ __forceinline__ unsigned int block_reserve(unsigned int mine, unsigned int* cnt)
{
    __shared__ unsigned int total, base;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    unsigned int at = mine ? atomicAdd(&total, mine) : 0;
    __syncthreads();
    if (threadIdx.x == 0 && total) base = atomicAdd(cnt, total);
    __syncthreads();
    return base + at;                     // base is rewritten only after the next call's first barrier
}

// A block's appends to one global queue (counted by *cnt), gathered in shared memory and
// written out at flush with one global atomic; appends past the buffer's room go to the
// global queue a warp at a time. Declared __shared__; start() (thread 0) then a barrier
// before the first push; every thread of the block calls flush, which ends with a barrier.
// In a busy pass, warp-aggregated appends from every warp pile up on the one global counter
// (same-address atomics serialize at the L2); shared-memory ones do not.
template <typename T, int CAP>
struct BlockQueue {
    T buf[CAP];
    unsigned int len;
    __device__ void start() { if (threadIdx.x == 0) len = 0; }
    __device__ void push(T x, T* q, unsigned int* cnt)
    {
        unsigned int i = atomicAdd(&len, 1u);
        if (i < CAP) buf[i] = x;
        else q[warp_append(cnt)] = x;
    }
    __device__ void flush(T* q, unsigned int* cnt)
    {
        __shared__ unsigned int base;
        __syncthreads();
        unsigned int k = len < CAP ? len : CAP;
        if (threadIdx.x == 0 && k) base = atomicAdd(cnt, k);
        __syncthreads();
        for (unsigned int i = threadIdx.x; i < k; i += blockDim.x) q[base + i] = buf[i];
        __syncthreads();                  // buf, len and base are free again
    }
};

// for_each's pass that appends: for each i < count, pick(i, x) returns whether to append x
// (set by pick) to queue q (counted by *cnt). The rounds are the block's (every thread of it
// makes the same trips, as block_reserve needs), so a round's appends take one global atomic
// a block; the order within q is not defined.
template <typename T, typename Pick>
__device__ __forceinline__ void append_each(i64 count, T* q, unsigned int* cnt, Pick pick)
{
    for (i64 i0 = blockIdx.x * (i64)blockDim.x; i0 < count; i0 += grid_threads()) {
        const i64 i = i0 + threadIdx.x;
        T x{};
        const bool take = i < count && pick(i, x);
        const unsigned int at = block_reserve(take ? 1u : 0u, cnt);
        if (take) q[at] = x;
    }
}

// for_each_flagged's pass that appends: pick(i) for each flagged i returns 0, or 1 / 2 to
// append i to queue q1 / q2 (counted by *c1 / *c2). A round gives every thread of the block 16
// flags (the trip count is the block's, as block_reserve needs); slots are reserved a block a
// round. pick may clear flags[i]; the order within a queue is not defined.
template <typename Pick>
__device__ __forceinline__ void append_flagged(const unsigned char* flags, i64 count, i64* q1, unsigned int* c1,
                                               i64* q2, unsigned int* c2, Pick pick)
{
    const uint4* words = reinterpret_cast<const uint4*>(flags);
    const i64 nwords = (count + 15) >> 4;
    for (i64 c0 = blockIdx.x * (i64)blockDim.x; c0 < nwords; c0 += grid_threads()) {
        i64 c = c0 + threadIdx.x;
        unsigned int to1 = 0, to2 = 0;    // the 16 flags' picks, a bit each
        if (c < nwords) {
            uint4 f = words[c];
            unsigned int part[4] = {f.x, f.y, f.z, f.w};
            for (int k = 0; k < 4; ++k)
                for (unsigned int bits = part[k]; bits; bits &= bits - 1) {   // a set flag is its byte's low bit
                    int j = 4 * k + ((__ffs(bits) - 1) >> 3);
                    int to = pick((c << 4) + j);
                    to1 |= (to == 1) << j;
                    to2 |= (to == 2) << j;
                }
        }
        unsigned int at1 = block_reserve(__popc(to1), c1), at2 = block_reserve(__popc(to2), c2);
        for (; to1; to1 &= to1 - 1) q1[at1++] = (c << 4) + __ffs(to1) - 1;
        for (; to2; to2 &= to2 - 1) q2[at2++] = (c << 4) + __ffs(to2) - 1;
    }
}

// The smallest of a full warp's values (in lane 0; every lane calls it): 32- or 64-bit.
template <typename U>
__device__ __forceinline__ U warp_min(U m)
{
    for (int off = 16; off; off >>= 1) {
        U x = __shfl_down_sync(0xffffffffu, m, off);
        m = x < m ? x : m;
    }
    return m;
}
