// Leiden's and Louvain's moves (backends/cuda/leiden.py; NumPy twin: backends/cpu/leiden.py).
// One warp a vertex: the warp sums its arcs' weights by the community at their heads in an
// open-addressing table of its own (2 x degree slots at 2 x ptr[u], in global memory), then
// each lane scores the table's slots and the warp keeps the best. The gain and the noise are
// rounded step by step as NumPy rounds them (no fused multiply-add), so the twins agree.

// splitmix64's finaliser over (seed, u, c): a uniform in (0, 1) (partitions.uniform's twin)
__device__ __forceinline__ double uniform_of(u64 seed, u64 u, u64 c)
{
    u64 x = seed + u * 0x9E3779B97F4A7C15ull + c * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x = x ^ (x >> 31);
    return __dmul_rn(__dadd_rn((double)(x >> 11), 0.5), 1.1102230246251565e-16);   // 2^-53
}

__device__ __forceinline__ double gumbel_of(u64 seed, u64 u, u64 c)
{
    return -log(-log(uniform_of(seed, u, c)));
}

// k_uc - k_ua - g s_u (S_c - S_a + s_u), each step rounded (partitions.py's gain)
__device__ __forceinline__ double move_gain(double kuc, double kua, double g, double su, double tc, double ta)
{
    return __dsub_rn(__dsub_rn(kuc, kua), __dmul_rn(__dmul_rn(g, su), __dadd_rn(__dsub_rn(tc, ta), su)));
}

// bound, target_ok: may be null (local moving). beta 0: greedy (a move needs gain > 0);
// beta > 0: the move of largest gain / beta + Gumbel noise among gains >= 0, against staying.
extern "C" __global__ void best_moves(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                      const double* __restrict__ w, const int* __restrict__ comm,
                                      const int* __restrict__ bound, const double* __restrict__ vsize,
                                      const double* __restrict__ total, double g,
                                      const unsigned char* __restrict__ movable,
                                      const unsigned char* __restrict__ target_ok, double beta, u64 seed,
                                      i64 n, int* __restrict__ keys, double* __restrict__ vals,
                                      int* __restrict__ target, double* __restrict__ gain)
{
    const int lane = threadIdx.x & 31;
    const i64 warps = grid_threads() >> 5;
    for (i64 u = grid_thread() >> 5; u < n; u += warps) {
        const int a = comm[u];
        const i64 start = ptr[u], deg = ptr[u + 1] - start;
        if (!movable[u] || deg == 0) {
            if (lane == 0) { target[u] = a; gain[u] = 0.0; }
            continue;
        }
        int* K = keys + 2 * start;
        double* V = vals + 2 * start;
        const i64 cap = 2 * deg;
        for (i64 s = lane; s < cap; s += 32) { K[s] = -1; V[s] = 0.0; }
        __syncwarp();
        const int bu = bound ? bound[u] : 0;
        for (i64 j = start + lane; j < start + deg; j += 32) {
            int v = idx[j];
            if (bound && bound[v] != bu) continue;
            int c = comm[v];
            i64 h = (i64)(((unsigned int)c * 2654435761u) % (u64)cap);
            while (true) {
                int old = atomicCAS(&K[h], -1, c);
                if (old == -1 || old == c) { atomicAdd(&V[h], w[j]); break; }
                if (++h == cap) h = 0;
            }
        }
        __syncwarp();
        double kua = 0.0;                                  // u's weight to its own community
        for (i64 s = lane; s < cap; s += 32)
            if (K[s] == a) kua = V[s];
        for (int off = 16; off; off >>= 1) kua += __shfl_xor_sync(0xffffffffu, kua, off);
        const double su = vsize[u], ta = total[a];
        double best = __longlong_as_double((long long)0xfff0000000000000ull), best_gain = 0.0;   // -inf (NVRTC has no INFINITY)
        int best_c = 0x7fffffff;
        for (i64 s = lane; s < cap; s += 32) {
            int c = K[s];
            if (c < 0 || c == a || (target_ok && !target_ok[c])) continue;
            double gn = move_gain(V[s], kua, g, su, total[c], ta);
            double score = gn;
            if (beta > 0.0) {
                if (gn < 0.0) continue;
                score = __dadd_rn(__ddiv_rn(gn, beta), gumbel_of(seed, (u64)u, (u64)c));
            }
            if (score > best || (score == best && c < best_c)) { best = score; best_c = c; best_gain = gn; }
        }
        for (int off = 16; off; off >>= 1) {
            double ob = __shfl_xor_sync(0xffffffffu, best, off);
            double og = __shfl_xor_sync(0xffffffffu, best_gain, off);
            int oc = __shfl_xor_sync(0xffffffffu, best_c, off);
            if (ob > best || (ob == best && oc < best_c)) { best = ob; best_c = oc; best_gain = og; }
        }
        if (lane == 0) {
            bool move = beta > 0.0 ? (best_c != 0x7fffffff && best > gumbel_of(seed, (u64)u, (u64)a))
                                   : best > 0.0;
            target[u] = move ? best_c : a;
            gain[u] = move ? best_gain : 0.0;
        }
        __syncwarp();                                      // the table is free for the next vertex
    }
}
