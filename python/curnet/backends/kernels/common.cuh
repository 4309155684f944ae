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
    for (i64 i = grid_thread(); i < total; i += grid_threads()) {
        int q = find_entry(incl, qlen, i);
        visit(q, i - (q ? incl[q - 1] : 0));
    }
}

// Block-wide sum of one value per thread, added to *total once per block.
__device__ __forceinline__ void block_add(unsigned int value, unsigned int* total)
{
    __shared__ unsigned int part;
    if (threadIdx.x == 0) part = 0;
    __syncthreads();
    if (value) atomicAdd(&part, value);
    __syncthreads();
    if (threadIdx.x == 0 && part) atomicAdd(total, part);
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
