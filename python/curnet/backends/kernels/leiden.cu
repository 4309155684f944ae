// Leiden's and Louvain's moves (backends/cuda/leiden.py; NumPy twins: backends/cpu/leiden.py).
// One warp a vertex: the warp sums its arcs' weights by the community at their heads in an
// open-addressing table of its own (2 x degree slots at 2 x ptr[u], in global memory), then
// each lane scores the table's slots and the warp keeps the best. The gain and the noise are
// rounded step by step as NumPy rounds them (no fused multiply-add), so the twins agree.
// move_loop: a level's whole local moving; refine_loop: a level's whole refinement.

// splitmix64's finaliser over (seed, u, c): a uniform in (0, 1) (partitions.uniform's twin)
__device__ __forceinline__ double uniform_of(u64 seed, u64 u, u64 c)
{
    u64 x = seed + u * 0x9E3779B97F4A7C15ull + c * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x = x ^ (x >> 31);
    return __dmul_rn(__dadd_rn((double)(x >> 11), 0.5), 1.1102230246251565e-16);   // 2^-53
}

// The seed of round r of a level's local moving or refinement (partitions.round_seed's twin)
__device__ __forceinline__ u64 round_seed(u64 seed, int r)
{
    return seed + (u64)(r + 1) * 0x94D049BB133111EBull;
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

// The best move of vertex u (of degree > 0), the whole warp calling it; every lane gets the
// answer: the community to move to, or u's own (`a`) with gain 0. comm, total and target_ok
// are not __restrict__: the loop kernels write them between calls.
// bound, target_ok: may be null (local moving). beta 0: greedy (a move needs gain > 0);
// beta > 0: the move of largest gain / beta + Gumbel noise among gains >= 0, against staying.
__device__ __forceinline__ int warp_best_move(i64 u, int a, const i64* __restrict__ ptr,
                                              const int* __restrict__ idx, const double* __restrict__ w,
                                              const int* comm, const int* __restrict__ bound,
                                              const double* __restrict__ vsize, const double* total, double g,
                                              const unsigned char* target_ok, double beta, u64 seed,
                                              int* __restrict__ keys, double* __restrict__ vals, double& gain)
{
    const int lane = threadIdx.x & 31;
    const i64 start = ptr[u], deg = ptr[u + 1] - start;
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
    __syncwarp();                                      // the table is free for the next vertex
    bool move = beta > 0.0 ? (best_c != 0x7fffffff && best > gumbel_of(seed, (u64)u, (u64)a)) : best > 0.0;
    gain = move ? best_gain : 0.0;
    return move ? best_c : a;
}

// Sum of a double over the block, added to *sum once per block (every thread calls it).
__device__ __forceinline__ void block_sum(double value, double* sum)
{
    for (int off = 16; off; off >>= 1) value += __shfl_xor_sync(0xffffffffu, value, off);
    block_add<double>((threadIdx.x & 31) == 0 ? value : 0.0, sum);
}

// A level's local moving, every round in one cooperative launch (the rules and the NumPy
// twin: CpuMoves.local_moving). A bucket is three steps between grid barriers:
//   A. each vertex of the bucket (a warp each) takes its best move; a mover adds its weight
//      to its target's change and takes it from its community's (dtot, dcount);
//   B. the bucket's change of the quality: the weight inside communities from the movers'
//      arcs, the penalty from the communities that changed;
//   C. every thread reads the two sums and decides alike: the moves are kept (labels,
//      totals, the next round's vertices: the movers and their neighbours) or dropped (and
//      the share of a bucket that may move is halved); dtot and dcount are zeroed.
// The control state (quality, share, the round's start) is each thread's own copy, the same
// in every thread. A bucket's three sums sit in slot_of(bucket): zeroed a bucket before use.
// Arrays written here are not __restrict__ (read-only loads would miss other blocks' writes).
extern "C" __global__ void __launch_bounds__(256) move_loop(
    const i64* __restrict__ ptr, const int* __restrict__ idx, const double* __restrict__ w, i64 n,
    int* part, double* total, int* count, const double* __restrict__ vsize, double g,
    unsigned char* look_a, unsigned char* look_b, int* target, unsigned char* moving,
    double* dtot, int* dcount, int* __restrict__ keys, double* __restrict__ vals, double* sums,
    unsigned int* bar, double quality, double tolerance, u64 seed, int max_rounds, int buckets,
    double round_gain, double smallest_share, i64* stats)
{
    const int lane = threadIdx.x & 31;
    const i64 warp = grid_thread() >> 5, warps = grid_threads() >> 5;
    unsigned char* look = look_a;
    unsigned char* next_look = look_b;
    double share = 1.0;
    i64 k = 0, accepted = 0;
    int rounds = 0;
    for (int r = 0; r < max_rounds; ++r) {
        const u64 rseed = round_seed(seed, r);
        bool moved = false;
        const double round_start = quality;
        for (int b = 0; b < buckets; ++b, ++k) {
            volatile double* now = sums + 3 * slot_of((int)(k % 3));
            if (grid_thread() == 0) {
                double* later = sums + 3 * slot_of((int)((k + 1) % 3));
                later[0] = 0.0; later[1] = 0.0; later[2] = 0.0;
            }
            if (b == 0) for_each(n, [&](i64 i) { next_look[i] = 0; });
            // A: the bucket's moves
            double movers = 0.0;
            for (i64 u = warp; u < n; u += warps) {
                const int a = part[u];
                const bool movable = look[u] &&
                    (int)__dmul_rn(uniform_of(rseed, (u64)u, (u64)u), (double)buckets) == b &&
                    (share >= 1.0 || uniform_of(rseed + 1, (u64)u, (u64)u) < share);
                int t = a;
                if (movable && ptr[u + 1] > ptr[u]) {
                    double gn;
                    t = warp_best_move(u, a, ptr, idx, w, part, nullptr, vsize, total, g, nullptr, 0.0, 0,
                                       keys, vals, gn);
                }
                const bool mv = t != a && !(count[a] == 1 && count[t] == 1 && t > a);
                if (lane == 0) {
                    target[u] = t;
                    moving[u] = mv;
                    if (mv) {
                        const double su = vsize[u];
                        atomicAdd(dtot + t, su);
                        atomicAdd(dtot + a, -su);
                        atomicAdd(dcount + t, 1);
                        atomicAdd(dcount + a, -1);
                        movers += 1.0;
                    }
                }
            }
            block_sum(movers, (double*)now);
            grid_barrier(bar);
            if (now[0] == 0.0) continue;              // no mover (every thread reads alike)
            // B: the change of the quality (an arc between a mover and a vertex that stays
            // stands for its reverse arc too)
            double inside = 0.0, penalty = 0.0;
            for (i64 u = warp; u < n; u += warps) {
                if (!moving[u]) continue;
                const int ou = part[u], nu = target[u];
                for (i64 j = ptr[u] + lane; j < ptr[u + 1]; j += 32) {
                    const int v = idx[j];
                    const bool mv = moving[v];
                    const int ov = part[v], nv = mv ? target[v] : ov;
                    const double delta = (double)(nu == nv) - (double)(ou == ov);
                    inside = __dadd_rn(inside, __dmul_rn(__dmul_rn(w[j], delta), mv ? 1.0 : 2.0));
                }
            }
            for_each(n, [&](i64 c) {
                const double d = dtot[c];
                if (d == 0.0) return;
                const double t = total[c], nt = __dadd_rn(t, d);
                penalty = __dadd_rn(penalty, __dsub_rn(__dmul_rn(nt, nt), __dmul_rn(t, t)));
            });
            block_sum(inside, (double*)now + 1);
            block_sum(penalty, (double*)now + 2);
            grid_barrier(bar);
            // C: keep or drop the bucket's moves
            const double new_quality = __dadd_rn(quality, __dsub_rn(now[1], __dmul_rn(g, now[2])));
            const bool keep = new_quality > __dadd_rn(quality, tolerance);
            if (keep) {
                for (i64 u = warp; u < n; u += warps) {
                    if (!moving[u]) continue;
                    for (i64 j = ptr[u] + lane; j < ptr[u + 1]; j += 32) next_look[idx[j]] = 1;
                    if (lane == 0) { part[u] = target[u]; next_look[u] = 1; }
                }
                quality = new_quality;
                moved = true;
                ++accepted;
            } else {
                share *= 0.5;                          // the moves undid each other: fewer at once
            }
            for_each(n, [&](i64 c) {
                const double d = dtot[c];
                const int dc = dcount[c];
                if (d == 0.0 && dc == 0) return;
                if (keep) { total[c] = __dadd_rn(total[c], d); count[c] += dc; }
                dtot[c] = 0.0;
                dcount[c] = 0;
            });
            grid_barrier(bar);
        }
        ++rounds;
        if (!moved && (share == 1.0 || share < smallest_share)) break;
        if (moved && quality - round_start < round_gain * fabs(round_start)) break;
        if (moved) { unsigned char* t = look; look = next_look; next_look = t; }
    }
    if (grid_thread() == 0) { stats[0] = rounds; stats[1] = k; stats[2] = accepted; }
}

// A level's refinement, every round in one cooperative launch (the rules and the NumPy twin:
// CpuMoves.refine_moves). Sub-communities are named by vertex ids (sub starts as 0..n-1);
// `bound` is each vertex's community (a move stays inside it), `rest` the penalty weight of
// that community, `alone` the vertices that may still move, `total` and `cut` each
// sub-community's penalty weight and weight to the rest of its community. A round is four
// steps between grid barriers:
//   A. each vertex still alone (a warp each) draws its move among the well-connected
//      sub-communities of its community (Gumbel noise over gain / beta); every vertex marks
//      its target (or its own sub-community) as joined;
//   B. a vertex moves if its target is not its own and no vertex joins it; the movers counted;
//   C. (no mover: the refinement ends) the movers' arcs inside communities update the cuts,
//      their weights the totals; a mover and its target are no longer alone;
//   D. the movers take their targets; which sub-communities are well connected, for the next
//      round (ok), and joined zeroed.
extern "C" __global__ void __launch_bounds__(256) refine_loop(
    const i64* __restrict__ ptr, const int* __restrict__ idx, const double* __restrict__ w, i64 n,
    const int* __restrict__ bound, const double* __restrict__ vsize, const double* __restrict__ rest,
    double g, double beta, int* sub, unsigned char* alone, double* total, double* cut,
    unsigned char* ok, unsigned char* joined, unsigned char* moving, int* target,
    int* __restrict__ keys, double* __restrict__ vals, double* sums, unsigned int* bar, u64 seed,
    int max_rounds, i64* stats)
{
    const int lane = threadIdx.x & 31;
    const i64 warp = grid_thread() >> 5, warps = grid_threads() >> 5;
    // sub-community c is well connected: cut_c >= g S_c (S_community - S_c), NumPy's rounding
    auto well_connected = [&](i64 c) {
        ok[c] = cut[c] >= __dmul_rn(__dmul_rn(g, total[c]), __dsub_rn(rest[c], total[c]));
        joined[c] = 0;
    };
    for_each(n, well_connected);
    grid_barrier(bar);
    int rounds = 0;
    for (int r = 0; r < max_rounds; ++r) {
        ++rounds;
        const u64 rseed = round_seed(seed, r);
        volatile double* now = sums + slot_of(r);
        if (grid_thread() == 0) sums[slot_of(r + 1)] = 0.0;
        // A: the moves drawn
        for (i64 u = warp; u < n; u += warps) {
            const int a = sub[u];
            int t = a;
            if (alone[u] && ptr[u + 1] > ptr[u]) {
                double gn;
                t = warp_best_move(u, a, ptr, idx, w, sub, bound, vsize, total, g, ok, beta, rseed,
                                   keys, vals, gn);
            }
            if (lane == 0) { target[u] = t; joined[t] = 1; }
        }
        grid_barrier(bar);
        // B: who moves (a vertex being joined stays)
        double movers = 0.0;
        for_each(n, [&](i64 u) {
            const bool mv = target[u] != sub[u] && !joined[u];
            moving[u] = mv;
            if (mv) movers += 1.0;
        });
        block_sum(movers, (double*)now);
        grid_barrier(bar);
        if (now[0] == 0.0) break;                      // every thread reads alike
        // C: cuts and totals from the movers' arcs inside communities
        for (i64 u = warp; u < n; u += warps) {
            if (!moving[u]) continue;
            const int ou = sub[u], nu = target[u], bu = bound[u];
            for (i64 j = ptr[u] + lane; j < ptr[u + 1]; j += 32) {
                const int v = idx[j];
                if (bound[v] != bu) continue;
                const bool mv = moving[v];
                const int ov = sub[v], nv = mv ? target[v] : ov;
                const bool was_cut = ou != ov, is_cut = nu != nv;
                // u -> v counts in u's sub-community's cut; v -> u in v's, here when v stays
                if (is_cut) atomicAdd(cut + nu, w[j]);
                if (was_cut) atomicAdd(cut + ou, -w[j]);
                if (!mv && is_cut != was_cut) atomicAdd(cut + nv, is_cut ? w[j] : -w[j]);
            }
            if (lane == 0) {
                atomicAdd(total + nu, vsize[u]);
                atomicAdd(total + ou, -vsize[u]);
                alone[u] = 0;
                alone[nu] = 0;                         // joined: no longer alone
            }
        }
        grid_barrier(bar);
        // D: the moves made; the next round's well-connected sub-communities
        for_each(n, [&](i64 c) {
            if (moving[c]) sub[c] = target[c];
            well_connected(c);
        });
        grid_barrier(bar);
    }
    if (grid_thread() == 0) stats[0] = rounds;
}
