// curnet CUDA backend: frontier Bellman-Ford kernels.
// Self-contained (no includes) so that NVRTC (CuPy RawModule) and nvcc both compile it.
//
// float32: distance and predecessor packed in one 64-bit word, (ordered(dist) << 32) | pred,
// updated together by one atomicMin. ordered() maps floats to unsigned ints preserving
// their order, negatives included, so negative weights work. A candidate is tried only
// when its distance is strictly smaller than the one read, as the CPU twin does.

typedef unsigned long long u64;
typedef long long i64;

__device__ __forceinline__ unsigned int f2o(float f)
{
    unsigned int b = __float_as_uint(f);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
__device__ __forceinline__ float o2f(unsigned int o)
{
    return __uint_as_float((o & 0x80000000u) ? (o & 0x7fffffffu) : ~o);
}
__device__ __forceinline__ u64 d2o(double d)
{
    u64 b = (u64)__double_as_longlong(d);
    return (b & 0x8000000000000000ULL) ? ~b : (b | 0x8000000000000000ULL);
}
__device__ __forceinline__ double o2d(u64 o)
{
    return __longlong_as_double((long long)((o & 0x8000000000000000ULL) ? (o & 0x7fffffffffffffffULL) : ~o));
}

// Which (entry q, arc a) edge-thread i handles: queue entries are r * n + u, incl the
// inclusive sum of their out-degrees.
__device__ __forceinline__ int find_entry(const i64* __restrict__ incl, i64 qlen, i64 i)
{
    i64 lo = 0, hi = qlen - 1;
    while (lo < hi) {
        i64 mid = (lo + hi) >> 1;
        if (incl[mid] > i) hi = mid; else lo = mid + 1;
    }
    return (int)lo;
}

// Elementwise conversions between (dist, pred) and the packed or ordered forms.
extern "C" __global__ void pack_f32(const float* __restrict__ dist, const int* __restrict__ pred,
                                    i64 count, u64* key)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x)
        key[i] = ((u64)f2o(dist[i]) << 32) | (unsigned int)pred[i];
}
extern "C" __global__ void unpack_f32(const u64* __restrict__ key, i64 count, float* dist, int* pred)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x) {
        u64 k = key[i];
        dist[i] = o2f((unsigned int)(k >> 32));
        if (pred) pred[i] = (int)(unsigned int)(k & 0xffffffffu);
    }
}
extern "C" __global__ void to_ordered_f32(const float* __restrict__ dist, i64 count, unsigned int* o)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x)
        o[i] = f2o(dist[i]);
}
extern "C" __global__ void from_ordered_f32(const unsigned int* __restrict__ o, i64 count, float* dist)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x)
        dist[i] = o2f(o[i]);
}
extern "C" __global__ void to_ordered_f64(const double* __restrict__ dist, i64 count, u64* o)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x)
        o[i] = d2o(dist[i]);
}
extern "C" __global__ void from_ordered_f64(const u64* __restrict__ o, i64 count, double* dist)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x)
        dist[i] = o2d(o[i]);
}

// float32 with predecessors: one round over the active entries' out-arcs.
extern "C" __global__ void relax_packed_f32(const i64* __restrict__ entries, const i64* __restrict__ incl,
                                            i64 qlen, i64 total, i64 n,
                                            const i64* __restrict__ ptr, const int* __restrict__ idx,
                                            const float* __restrict__ w, int has_w,
                                            u64* key, unsigned char* next_active)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < total; i += (i64)gridDim.x * blockDim.x) {
        int q = find_entry(incl, qlen, i);
        i64 e = entries[q];
        i64 r = e / n;
        int u = (int)(e - r * n);
        i64 a = ptr[u] + (i - (q ? incl[q - 1] : 0));
        int v = idx[a];
        float cand = o2f((unsigned int)(key[e] >> 32)) + (has_w ? w[a] : 1.0f);
        unsigned int co = f2o(cand);
        i64 ev = r * n + v;
        if (co < (unsigned int)(key[ev] >> 32)) {
            u64 nk = ((u64)co << 32) | (unsigned int)u;
            if (nk < atomicMin(&key[ev], nk)) next_active[ev] = 1;
        }
    }
}

// float32, distances only (non-negative weights: no cycle search needs predecessors).
extern "C" __global__ void relax_dist_f32(const i64* __restrict__ entries, const i64* __restrict__ incl,
                                          i64 qlen, i64 total, i64 n,
                                          const i64* __restrict__ ptr, const int* __restrict__ idx,
                                          const float* __restrict__ w, int has_w,
                                          unsigned int* od, unsigned char* next_active)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < total; i += (i64)gridDim.x * blockDim.x) {
        int q = find_entry(incl, qlen, i);
        i64 e = entries[q];
        i64 r = e / n;
        int u = (int)(e - r * n);
        i64 a = ptr[u] + (i - (q ? incl[q - 1] : 0));
        int v = idx[a];
        unsigned int co = f2o(o2f(od[e]) + (has_w ? w[a] : 1.0f));
        i64 ev = r * n + v;
        if (co < od[ev] && co < atomicMin(&od[ev], co)) next_active[ev] = 1;
    }
}

// float64 (and float64 distances only): Jacobi rounds, exactly the CPU twin's rule.
// Phase 1: od = min(od, ordered(prev[u] + w)) over the active arcs.
extern "C" __global__ void relax_f64_min(const i64* __restrict__ entries, const i64* __restrict__ incl,
                                         i64 qlen, i64 total, i64 n,
                                         const i64* __restrict__ ptr, const int* __restrict__ idx,
                                         const double* __restrict__ w, int has_w,
                                         const u64* __restrict__ prev, u64* od)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < total; i += (i64)gridDim.x * blockDim.x) {
        int q = find_entry(incl, qlen, i);
        i64 e = entries[q];
        i64 r = e / n;
        int u = (int)(e - r * n);
        i64 a = ptr[u] + (i - (q ? incl[q - 1] : 0));
        i64 ev = r * n + idx[a];
        u64 co = d2o(o2d(prev[e]) + (has_w ? w[a] : 1.0));
        if (co < prev[ev]) atomicMin(&od[ev], co);
    }
}
// Phase 2: among the arcs attaining a lowered entry's new distance, the smallest tail.
extern "C" __global__ void relax_f64_pred(const i64* __restrict__ entries, const i64* __restrict__ incl,
                                          i64 qlen, i64 total, i64 n,
                                          const i64* __restrict__ ptr, const int* __restrict__ idx,
                                          const double* __restrict__ w, int has_w,
                                          const u64* __restrict__ prev, const u64* __restrict__ od,
                                          int* best)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < total; i += (i64)gridDim.x * blockDim.x) {
        int q = find_entry(incl, qlen, i);
        i64 e = entries[q];
        i64 r = e / n;
        int u = (int)(e - r * n);
        i64 a = ptr[u] + (i - (q ? incl[q - 1] : 0));
        i64 ev = r * n + idx[a];
        u64 co = d2o(o2d(prev[e]) + (has_w ? w[a] : 1.0));
        if (co < prev[ev] && co == od[ev]) atomicMin(&best[ev], u);
    }
}
// Phase 3: lowered entries take their new predecessor and are active next round.
extern "C" __global__ void relax_f64_finish(const u64* __restrict__ prev, const u64* __restrict__ od,
                                            const int* __restrict__ best, i64 count, int* pred,
                                            unsigned char* next_active)
{
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x) {
        if (od[i] < prev[i]) {
            next_active[i] = 1;
            if (pred) pred[i] = best[i];
        }
    }
}
