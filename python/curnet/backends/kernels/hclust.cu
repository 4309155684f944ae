// Agglomerative clustering by the nearest-neighbour chain (Müllner 2011; the algorithm of
// fastcluster's and SciPy's NN_chain_core) on a square n x n float64 dissimilarity held on
// the device, with the Lance-Williams update of average, complete or single linkage.
//
// One block runs the whole clustering: each step of the chain is a scan of one row (the chain
// tip's distances to every live cluster) reduced to its minimum, and each merge rewrites one
// row and column. A step is O(n) work spread over the block's threads, and a block-wide
// barrier (__syncthreads) between steps costs far less than a kernel launch or a grid barrier
// a step would: the clustering of 20,000 genes is about 50,000 steps.
//
// The rules are fastcluster's (R's fastcluster::hclust, which WGCNA calls), and those of the
// host twin curnet.linkage.nn_chain_twin, so all give the same merges bit for bit, ties
// included: a chain starts at the lowest live cluster, and starts again there whenever a
// merge leaves at most one cluster on it; the tip's nearest neighbour is the previous chain
// element when it is as near as any, else the lowest index at the minimum; merging x and y
// keeps the cluster in the larger index. The merges come out in the order made (not sorted
// by height); the host sorts and labels them.

#define HC_LINK_AVERAGE 0
#define HC_LINK_COMPLETE 1
#define HC_LINK_SINGLE 2
#define HC_INF __longlong_as_double(0x7ff0000000000000ll)   // +inf (NVRTC has no INFINITY)
#define HC_NONE 0x7fffffff

// (value, index) pairs: the smaller value, then the smaller index, comes first.
__device__ __forceinline__ bool hc_before(double v, int k, double w, int j)
{
    return v < w || (v == w && k < j);
}

// The first (value, index) of the block, returned to every thread. Every thread calls it.
__device__ __forceinline__ void hc_block_argmin(double& v, int& k)
{
    __shared__ double wv[32];
    __shared__ int wk[32];
    for (int off = 16; off; off >>= 1) {
        double ov = __shfl_down_sync(0xffffffffu, v, off);
        int ok = __shfl_down_sync(0xffffffffu, k, off);
        if (hc_before(ov, ok, v, k)) { v = ov; k = ok; }
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) { wv[warp] = v; wk[warp] = k; }
    __syncthreads();
    if (warp == 0) {
        int warps = (blockDim.x + 31) >> 5;
        v = lane < warps ? wv[lane] : HC_INF;
        k = lane < warps ? wk[lane] : HC_NONE;
        for (int off = 16; off; off >>= 1) {
            double ov = __shfl_down_sync(0xffffffffu, v, off);
            int ok = __shfl_down_sync(0xffffffffu, k, off);
            if (hc_before(ov, ok, v, k)) { v = ov; k = ok; }
        }
        if (lane == 0) { wv[0] = v; wk[0] = k; }
    }
    __syncthreads();
    v = wv[0];
    k = wk[0];
    __syncthreads();                       // wv, wk free again for the next call
}

// The Lance-Williams update: the distance from the union of x and y to a third cluster,
// from its distances to each; average linkage weighs them by sx = nx / (nx + ny) and sy.
// Products and sums are rounded one by one (no fused multiply-add), as fastcluster and the
// host twin compute them.
__device__ __forceinline__ double hc_update(int method, double dxi, double dyi, double sx, double sy)
{
    if (method == HC_LINK_COMPLETE) return dxi > dyi ? dxi : dyi;
    if (method == HC_LINK_SINGLE) return dxi < dyi ? dxi : dyi;
    return __dadd_rn(__dmul_rn(sx, dxi), __dmul_rn(sy, dyi));
}

// A step's time is the latency of its loads, so the kernel keeps them few and overlapped:
// the live clusters are a bitset in shared memory (no global read before each distance), each
// thread issues HC_UNROLL independent loads of the row before it compares any (a row scan
// waits for a few memory round trips, not one an item), and a merge updates (and writes to
// the column) only the live clusters. On an H200 this took the clustering of 20,000 objects
// from 0.92 s to 0.71 s and of 40,000 from 3.54 s to 2.48 s (the same merges).
#define HC_UNROLL 8

__device__ __forceinline__ bool hc_live(const unsigned* live, i64 i)
{
    return (live[i >> 5] >> (i & 31)) & 1u;
}

// D: the n x n dissimilarities (row-major; overwritten). size: n cluster sizes, 1 each on
// entry, 0 once a cluster is merged away. chain: n ints of scratch. merge_a, merge_b,
// merge_h: the n - 1 merges as made (a < b, the clusters' indices, and the height).
// Launched with one block and (n + 31) / 32 words of dynamic shared memory (the live bitset).
// D is read and written by the block's threads in turn (a __syncthreads between): no
// __restrict__, so no read goes through the read-only cache.
extern "C" __global__ void __launch_bounds__(1024) nn_chain(double* D, i64 n, int method, double* size,
                                    int* __restrict__ chain, int* __restrict__ merge_a,
                                    int* __restrict__ merge_b, double* __restrict__ merge_h)
{
    extern __shared__ unsigned live[];
    __shared__ int s_len;
    const i64 words = (n + 31) >> 5;
    for (i64 w = threadIdx.x; w < words; w += blockDim.x) {
        int bits = (int)(n - w * 32 < 32 ? n - w * 32 : 32);
        live[w] = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
    }
    if (threadIdx.x == 0) s_len = 0;
    __syncthreads();
    const i64 stride = (i64)blockDim.x * HC_UNROLL;
    for (i64 merged = 0; merged < n - 1;) {
        int len = s_len;
        if (len == 0) {                    // a new chain from the lowest live cluster
            double v = HC_INF;
            int k = HC_NONE;
            for (i64 w = threadIdx.x; w < words; w += blockDim.x)
                if (live[w] && (int)(w * 32) < k) { v = 0; k = (int)(w * 32) + __ffs(live[w]) - 1; }
            hc_block_argmin(v, k);
            if (threadIdx.x == 0) chain[0] = k;
            len = 1;
        }
        __syncthreads();
        int x = chain[len - 1];
        int prev = len >= 2 ? chain[len - 2] : -1;
        const double* row = D + (i64)x * n;
        double best = HC_INF;
        int bk = HC_NONE;
        for (i64 base = threadIdx.x; base < n; base += stride) {
            double v[HC_UNROLL];
#pragma unroll
            for (int u = 0; u < HC_UNROLL; ++u) {
                i64 i = base + (i64)u * blockDim.x;
                v[u] = i < n ? row[i] : HC_INF;
            }
#pragma unroll
            for (int u = 0; u < HC_UNROLL; ++u) {
                i64 i = base + (i64)u * blockDim.x;
                if (i < n && i != x && hc_live(live, i) && hc_before(v[u], (int)i, best, bk)) {
                    best = v[u];
                    bk = (int)i;
                }
            }
        }
        hc_block_argmin(best, bk);
        int y = bk;
        double m = best;
        if (prev >= 0 && row[prev] <= m) { y = prev; m = row[prev]; }
        if (y != prev) {                   // the chain grows
            if (threadIdx.x == 0) { chain[len] = y; s_len = len + 1; }
            __syncthreads();
            continue;
        }
        int a = x < y ? x : y, b = x < y ? y : x;
        double na = size[a], nb = size[b];
        double sa = __ddiv_rn(na, __dadd_rn(na, nb)), sb = __ddiv_rn(nb, __dadd_rn(na, nb));
        const double* ra = D + (i64)a * n;
        double* rb = D + (i64)b * n;
        for (i64 base = threadIdx.x; base < n; base += stride) {
            double va[HC_UNROLL], vb[HC_UNROLL];
#pragma unroll
            for (int u = 0; u < HC_UNROLL; ++u) {
                i64 i = base + (i64)u * blockDim.x;
                bool on = i < n && i != a && i != b && hc_live(live, i);
                va[u] = on ? ra[i] : 0.0;
                vb[u] = on ? rb[i] : 0.0;
            }
#pragma unroll
            for (int u = 0; u < HC_UNROLL; ++u) {
                i64 i = base + (i64)u * blockDim.x;
                if (i < n && i != a && i != b && hc_live(live, i)) {
                    double d = hc_update(method, va[u], vb[u], sa, sb);
                    rb[i] = d;
                    D[i * n + b] = d;
                }
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            merge_a[merged] = a;
            merge_b[merged] = b;
            merge_h[merged] = m;
            size[a] = 0;
            size[b] = na + nb;
            live[a >> 5] &= ~(1u << (a & 31));
            s_len = len - 2 <= 1 ? 0 : len - 2;   // fastcluster: a lone cluster left restarts
        }
        __syncthreads();
        ++merged;
    }
}

// The square n x n float64 matrix of a condensed dissimilarity (SciPy's pdist order: row a's
// entries to columns a + 1 .. n - 1, so pair a < b at n a - a (a + 1) / 2 + b - a - 1), in one
// pass: each cell reads its pair's entry, the diagonal is 0, both triangles written at once.
// The writes are coalesced; the lower triangle's reads are strided, and still one kernel took
// a third of the time of a slice copy a row and a mirror (20,000 objects on an H200).
template <typename T>
__device__ __forceinline__ void hc_square(const T* __restrict__ cond, i64 n, double* __restrict__ D)
{
    for_each(n * n, [&](i64 k) {
        i64 r = k / n, c = k - r * n;
        i64 a = r < c ? r : c, b = r < c ? c : r;
        D[k] = r == c ? 0.0 : (double)cond[a * n - a * (a + 1) / 2 + (b - a - 1)];
    });
}

extern "C" __global__ void square_of_condensed_f64(const double* cond, i64 n, double* D) { hc_square(cond, n, D); }
extern "C" __global__ void square_of_condensed_f32(const float* cond, i64 n, double* D) { hc_square(cond, n, D); }
