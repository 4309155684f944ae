// curnet CUDA backend: shortest-path kernels, frontier Bellman-Ford and near-far
// (common.cuh comes first).
//
// float32 with non-negative weights: distance and predecessor packed in one 64-bit word,
// (ordered(dist) << 32) | pred, updated together by one atomicMin (see offer_packed).
// ordered() maps floats to unsigned ints preserving their order, negatives included.
// float64, and float32 where zero or negative weights meet predecessors: Jacobi rounds in
// three phases, the CPU twin's rule exactly.

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

// Elementwise conversions between (dist, pred) and the packed or ordered forms.
extern "C" __global__ void pack_f32(const float* __restrict__ dist, const int* __restrict__ pred,
                                    i64 count, u64* key)
{
    for_each(count, [&](i64 i) {
        key[i] = ((u64)f2o(dist[i]) << 32) | (unsigned int)pred[i];
    });
}
extern "C" __global__ void unpack_f32(const u64* __restrict__ key, i64 count, float* dist, int* pred)
{
    for_each(count, [&](i64 i) {
        u64 k = key[i];
        dist[i] = o2f((unsigned int)(k >> 32));
        if (pred) pred[i] = (int)(unsigned int)(k & 0xffffffffu);
    });
}
extern "C" __global__ void to_ordered_f32(const float* __restrict__ dist, i64 count, unsigned int* o)
{
    for_each(count, [&](i64 i) {
        o[i] = f2o(dist[i]);
    });
}
extern "C" __global__ void from_ordered_f32(const unsigned int* __restrict__ o, i64 count, float* dist)
{
    for_each(count, [&](i64 i) {
        dist[i] = o2f(o[i]);
    });
}
extern "C" __global__ void to_ordered_f64(const double* __restrict__ dist, i64 count, u64* o)
{
    for_each(count, [&](i64 i) {
        o[i] = d2o(dist[i]);
    });
}
extern "C" __global__ void from_ordered_f64(const u64* __restrict__ o, i64 count, double* dist)
{
    for_each(count, [&](i64 i) {
        dist[i] = o2d(o[i]);
    });
}

// Edge classes: where `flagged`, the arc array carries the head's class in its top two bits
// (built once per graph, for graphs under 2^30 vertices), so no extra load reads it.
#define CLASS_SINK 1     // bit 30: a head without out-arcs is never queued (nothing to relax)
#define CLASS_IN_ONE 2   // bit 31: a head with one in-arc is written by that arc's thread alone, no atomic
#define ORD_INF 0xff800000u   // f2o(+inf)

// Offer (dist co, tail u) to the packed entry *slot; true when its distance was lowered.
// Predecessors are deterministic: where the arc lengthens the path (cand > du), the whole
// word is compared, so among equal distances the smallest tail wins whatever the order of
// arrival. Where it does not (a zero or negative weight, or a step lost to float rounding),
// only a strictly smaller distance replaces the word: a tie taken there could close a cycle
// of predecessors between vertices at equal distance.
__device__ __forceinline__ bool offer_packed(u64* slot, unsigned int co, int u, bool lengthens,
                                             unsigned int cls)
{
    u64 nk = ((u64)co << 32) | (unsigned int)u;
    u64 cur = *slot;
    if (cls & CLASS_IN_ONE) {
        if (co >= (unsigned int)(cur >> 32)) return false;
        *slot = nk;
        return true;
    }
    if (lengthens && co < ORD_INF) {
        if (!(nk < cur)) return false;
        return co < (unsigned int)(atomicMin(slot, nk) >> 32);
    }
    while (co < (unsigned int)(cur >> 32)) {
        u64 seen = atomicCAS(slot, cur, nk);
        if (seen == cur) return true;
        cur = seen;
    }
    return false;
}

// A min-offer of an ordered distance; true when it lowered *slot. CLASS_IN_ONE heads have
// one writer: no atomic.
template <typename O>
__device__ __forceinline__ bool offer_min(O* slot, O co, unsigned int cls)
{
    if (cls & CLASS_IN_ONE) {
        if (co >= *slot) return false;
        *slot = co;
        return true;
    }
    return co < *slot && co < atomicMin(slot, co);
}

// float32 with predecessors: one round over the active entries' out-arcs.
extern "C" __global__ void relax_packed_f32(const i64* __restrict__ entries, const i64* __restrict__ incl,
                                            i64 qlen, i64 total, i64 n,
                                            const i64* __restrict__ ptr, const int* __restrict__ idx,
                                            const float* __restrict__ w, int has_w,
                                            int flagged, u64* key, unsigned char* next_active)
{
    relax_arcs(entries, incl, qlen, total, n, ptr, idx, w, has_w, flagged,
               [&](i64 e, i64 rn, int u, int v, float wa, unsigned int cls) {
        float du = o2f((unsigned int)(key[e] >> 32));
        float cand = du + wa;
        if (offer_packed(&key[rn + v], f2o(cand), u, cand > du, cls) && !(cls & CLASS_SINK))
            next_active[rn + v] = 1;
    });
}

// float32, distances only (non-negative weights: no cycle search needs predecessors).
extern "C" __global__ void relax_dist_f32(const i64* __restrict__ entries, const i64* __restrict__ incl,
                                          i64 qlen, i64 total, i64 n,
                                          const i64* __restrict__ ptr, const int* __restrict__ idx,
                                          const float* __restrict__ w, int has_w,
                                          int flagged, unsigned int* od, unsigned char* next_active)
{
    relax_arcs(entries, incl, qlen, total, n, ptr, idx, w, has_w, flagged,
               [&](i64 e, i64 rn, int u, int v, float wa, unsigned int cls) {
        i64 ev = rn + v;
        if (offer_min(&od[ev], f2o(o2f(od[e]) + wa), cls) && !(cls & CLASS_SINK)) next_active[ev] = 1;
    });
}

// Jacobi rounds (float64; float32 where zero or negative weights meet predecessors):
// exactly the CPU twin's rule, so predecessors are deterministic. O is the ordered form of
// T (u32 for float, u64 for double); to_ord / from_ord convert.
__device__ __forceinline__ unsigned int to_ord(float f) { return f2o(f); }
__device__ __forceinline__ u64 to_ord(double d) { return d2o(d); }
__device__ __forceinline__ float from_ord(unsigned int o) { return o2f(o); }
__device__ __forceinline__ double from_ord(u64 o) { return o2d(o); }

// Phase 1: od = min(od, ordered(prev[u] + w)) over the active arcs.
template <typename T, typename O>
__device__ void jacobi_min(const i64* __restrict__ entries, const i64* __restrict__ incl, i64 qlen,
                           i64 total, i64 n, const i64* __restrict__ ptr, const int* __restrict__ idx,
                           const T* __restrict__ w, int has_w, const O* __restrict__ prev, O* od)
{
    relax_arcs(entries, incl, qlen, total, n, ptr, idx, w, has_w, 0,      // plain arc heads here
               [&](i64 e, i64 rn, int u, int v, T wa, unsigned int) {
        O co = to_ord((T)(from_ord(prev[e]) + wa));
        if (co < prev[rn + v]) atomicMin(&od[rn + v], co);
    });
}
// Phase 2: among the arcs attaining a lowered entry's new distance, the smallest tail.
template <typename T, typename O>
__device__ void jacobi_pred(const i64* __restrict__ entries, const i64* __restrict__ incl, i64 qlen,
                            i64 total, i64 n, const i64* __restrict__ ptr, const int* __restrict__ idx,
                            const T* __restrict__ w, int has_w, const O* __restrict__ prev,
                            const O* __restrict__ od, int* best)
{
    relax_arcs(entries, incl, qlen, total, n, ptr, idx, w, has_w, 0,      // plain arc heads here
               [&](i64 e, i64 rn, int u, int v, T wa, unsigned int) {
        O co = to_ord((T)(from_ord(prev[e]) + wa));
        if (co < prev[rn + v] && co == od[rn + v]) atomicMin(&best[rn + v], u);
    });
}
// Phase 3: lowered entries take their new predecessor and are active next round.
template <typename O>
__device__ void jacobi_finish(const O* __restrict__ prev, const O* __restrict__ od,
                              const int* __restrict__ best, i64 count, int* pred,
                              unsigned char* next_active)
{
    for_each(count, [&](i64 i) {
        if (od[i] < prev[i]) {
            next_active[i] = 1;
            if (pred) pred[i] = best[i];
        }
    });
}

#define JACOBI_KERNELS(SUFFIX, T, O)                                                               \
extern "C" __global__ void relax_jacobi_min_##SUFFIX(const i64* entries, const i64* incl, i64 qlen, \
        i64 total, i64 n, const i64* ptr, const int* idx, const T* w, int has_w, const O* prev, O* od) \
{                                                                                                  \
    jacobi_min<T, O>(entries, incl, qlen, total, n, ptr, idx, w, has_w, prev, od);                   \
}                                                                                                  \
extern "C" __global__ void relax_jacobi_pred_##SUFFIX(const i64* entries, const i64* incl, i64 qlen,\
        i64 total, i64 n, const i64* ptr, const int* idx, const T* w, int has_w, const O* prev,       \
        const O* od, int* best)                                                                    \
{                                                                                                  \
    jacobi_pred<T, O>(entries, incl, qlen, total, n, ptr, idx, w, has_w, prev, od, best);            \
}                                                                                                  \
extern "C" __global__ void relax_jacobi_finish_##SUFFIX(const O* prev, const O* od, const int* best,\
        i64 count, int* pred, unsigned char* next_active)                                          \
{                                                                                                  \
    jacobi_finish<O>(prev, od, best, count, pred, next_active);                                     \
}
JACOBI_KERNELS(f32, float, unsigned int)
JACOBI_KERNELS(f64, double, u64)

// ---- near-far (Delta-stepping with one threshold per batch), non-negative weights ----
// Entries e = r * n + v as above. The key of an entry is one of three forms (the NfKey
// structs below): the packed float32 (dist, pred) word, the ordered float32 distance, or
// the ordered float64 distance (u64: non-negative doubles order as their bits do, so one
// 64-bit atomicMin lowers it; its predecessors come afterwards, nf_pred_* below).
// Queues are built on the device (appends gathered a block at a time, BlockQueue and
// append_flagged; the few heavy entries warp-aggregated) and
// every counter lives on the device, the iteration's number included (cnt[NF_ITER], moved on
// by nf_heavy_scan, the iteration's first kernel), so the host launches several iterations
// between synchronisations, and replays them from a captured CUDA graph (NearFar.run).
// Iteration it reads the queues of slot it % 3 (counts cnt[slot] light,
// cnt[3 + slot] heavy) from buffers it % 2, and appends to slot (it + 1) % 3. An entry is
// queued at most once per iteration (stamp[e] = the iteration it is queued for). An entry
// lowered to a distance >= the threshold is only flagged (far) and gathered when the near
// queue runs dry: threshold = max(smallest far distance, threshold) + delta.
// Arcs that land past the threshold are relaxed once a bucket, not at each relaxation of
// their tail (Delta-stepping's heavy arcs, by where they land rather than by weight): a near
// iteration relaxes only the arcs with du + w < threshold and appends each entry it relaxes
// for the first time in the bucket to the settle queues (sl, sh: counts cnt[NF_SETTLE],
// cnt[NF_SETTLE + 3]; `marked` says who is in them); when the near queue runs dry the next
// iteration settles: it relaxes those entries' other arcs, from their final distances, and
// flags the far entries. Each iteration's mode is cnt[NF_MODE + (it & 1)] (1: settle), set by
// the iteration before.
// Rows come in ascending weight (NearFar.rows_by_weight), so a light entry's near lanes stop
// at their first arc past the threshold.
// Light entries (degree <= heavy_deg) get a group of lanes (nf_light_lanes, 4); heavy ones
// are spread over the whole grid, one arc a lane: their rows, or where `ranges` (large batches) each heavy
// entry's range of its row (nf_heavy_ranges: the arcs landing before the threshold in a near
// iteration, the others in a settle iteration, one binary search in the ascending row), the
// inclusive sum of their arc counts (nf_heavy_scan), and the load-balanced advance over it,
// walked a warp's chunk (32 to 512 arcs, by the iteration's arcs; one find_entry a chunk). An iteration's
// kernels: [nf_heavy_ranges], nf_heavy_scan, nf_relax, nf_far_min, nf_far_gather.

// The key forms: K the stored word, T the distance, O its ordered form (what thresholds and
// the far minimum compare); ord(K) -> O, to_ord(T) -> O, dist(O) -> T, offer(...).
struct NfPacked32 {
    typedef u64 K;
    typedef float T;
    typedef unsigned int O;
    static __device__ __forceinline__ O ord(K k) { return (O)(k >> 32); }
    static __device__ __forceinline__ O to_ord(T d) { return f2o(d); }
    static __device__ __forceinline__ T dist(O o) { return o2f(o); }
    static __device__ __forceinline__ bool offer(K* slot, O co, int u, bool lengthens, unsigned int cls)
    {
        return offer_packed(slot, co, u, lengthens, cls);
    }
};
struct NfDist32 {
    typedef unsigned int K;
    typedef float T;
    typedef unsigned int O;
    static __device__ __forceinline__ O ord(K k) { return k; }
    static __device__ __forceinline__ O to_ord(T d) { return f2o(d); }
    static __device__ __forceinline__ T dist(O o) { return o2f(o); }
    static __device__ __forceinline__ bool offer(K* slot, O co, int, bool, unsigned int cls)
    {
        return offer_min(slot, co, cls);
    }
};
struct NfDist64 {
    typedef u64 K;
    typedef double T;
    typedef u64 O;
    static __device__ __forceinline__ O ord(K k) { return k; }
    static __device__ __forceinline__ O to_ord(T d) { return d2o(d); }
    static __device__ __forceinline__ T dist(O o) { return o2d(o); }
    static __device__ __forceinline__ bool offer(K* slot, O co, int, bool, unsigned int cls)
    {
        return offer_min(slot, co, cls);
    }
};

#define NF_MODE 6          // cnt[6 + (it & 1)]: 1 when iteration it is a settle iteration
#define NF_SETTLE 8        // the settle queues' counts, light cnt[8] and heavy cnt[11]
#define NF_ITER 12         // the iteration running; the host starts it at -1
#define NF_BLOCK_QUEUE 1024   // a block's buffered appends an iteration, to each of two queues (nf_relax)

// The queue an entry goes to: 0 none (no out-arcs), 1 light, 2 heavy (degree > heavy_deg).
__device__ __forceinline__ int nf_queue_of(i64 ev, i64 n, const i64* __restrict__ ptr, int heavy_deg)
{
    i64 v = ev % n;
    i64 deg = ptr[v + 1] - ptr[v];
    return deg == 0 ? 0 : deg > heavy_deg ? 2 : 1;
}

typedef BlockQueue<i64, NF_BLOCK_QUEUE> NfLightQueue;

// Entry ev into a pair of queues by its row's degree (none without out-arcs): a light one
// through the block's buffer, a heavy one (few) by a warp-aggregated append.
__device__ __forceinline__ void nf_push(i64 ev, i64 n, const i64* __restrict__ ptr, int heavy_deg,
                                        NfLightQueue& light, i64* lq, unsigned int* lcnt, i64* hq,
                                        unsigned int* hcnt)
{
    int to = nf_queue_of(ev, n, ptr, heavy_deg);
    if (to == 2) hq[warp_append(hcnt)] = ev;
    else if (to == 1) light.push(ev, lq, lcnt);
}

// Arc a of u (distance du) in row rn: skipped unless it lands on this iteration's side of
// the threshold (near: below it; settle: at or past it); true when offered.
template <typename P, typename Enqueue>
__device__ __forceinline__ bool nf_arc(typename P::K* key, i64 rn, int u, const int* __restrict__ idx, i64 a,
                                       typename P::T du, typename P::T wa, typename P::T thr, bool settle,
                                       int next_it, int* stamp, unsigned char* far, int flagged,
                                       Enqueue& enqueue)
{
    typename P::T c = du + wa;
    if ((c < thr) == settle) return false;
    unsigned int cls;
    int v = head_of(idx[a], flagged, cls);
    if (v == u) return false;            // weights are non-negative here
    i64 ev = rn + v;
    if (!P::offer(&key[ev], P::to_ord(c), u, c > du, cls) || (cls & CLASS_SINK)) return true;
    if (c < thr) {
        if (atomicExch(&stamp[ev], next_it) != next_it) {
            far[ev] = 0;
            enqueue(ev);
        }
    } else {
        far[ev] = 1;
    }
    return true;
}

// Where `ranges`, an iteration's first kernel (nf_heavy_scan moves cnt[NF_ITER] on after it,
// so the iteration is cnt[NF_ITER] + 1 here): for each heavy entry q of the iteration, its row's arcs this
// iteration relaxes, from hstart[q], their count into hincl[q]. Rows ascend by weight, so a
// near iteration's are the row's head (landing before the threshold) and a settle
// iteration's its tail: one binary search a row. A near iteration puts the entry into the
// settle queues here (it may relax none of its arcs); a settle iteration takes it out.
template <typename P>
__device__ void nf_heavy_ranges(const i64* __restrict__ hq_cur, unsigned int* cnt, const typename P::T* thr_box,
                                i64 n, const i64* __restrict__ ptr, const typename P::T* __restrict__ w, int has_w,
                                const typename P::K* key, unsigned char* marked, i64* sl, i64* sh, int heavy_deg,
                                i64* hstart, i64* hincl)
{
    typedef typename P::T T;
    int it = (int)(cnt[NF_ITER] + 1u);
    bool settle = cnt[NF_MODE + (it & 1)] != 0;
    const i64* hq = settle ? sh : hq_cur;
    T thr = thr_box[it & 1];
    for_each(cnt[3 + (settle ? NF_SETTLE : it % 3)], [&](i64 q) {
        i64 e = hq[q];
        i64 u = e % n, lo = ptr[u], hi = ptr[u + 1];
        T du = P::dist(P::ord(key[e]));
        i64 cut = du + (T)1 < thr ? hi : lo;            // the row's first arc landing at or past thr
        if (has_w) {
            i64 a = lo, b = hi;
            while (a < b) {
                i64 mid = (a + b) >> 1;
                if (du + w[mid] < thr) a = mid + 1; else b = mid;
            }
            cut = a;
        }
        if (settle) {
            marked[e] = 0;
            hstart[q] = cut;
            hincl[q] = hi - cut;
        } else {
            if (!marked[e]) {             // a heavy entry: into the heavy settle queue
                marked[e] = 1;
                sh[warp_append(&cnt[NF_SETTLE + 3])] = e;
            }
            hstart[q] = lo;
            hincl[q] = cut - lo;
        }
    });
}

template <typename P>
__device__ void nf_relax(const i64* __restrict__ lq_cur, const i64* __restrict__ hq_cur,
                         int ranges, const i64* __restrict__ hstart, const i64* __restrict__ hincl,
                         unsigned int* cnt, int it,
                         const typename P::T* thr_box, i64 n, const i64* __restrict__ ptr,
                         const int* __restrict__ idx, const typename P::T* __restrict__ w, int has_w,
                         int flagged, typename P::K* key, int* stamp, unsigned char* far,
                         unsigned char* marked, i64* sl, i64* sh, i64* lq_next, i64* hq_next, int heavy_deg,
                         int lane_min, int light_shift, typename P::O* minbox, int* gate, u64* offers)
{
    typedef typename P::T T;
    int cur = it % 3, nxt = (it + 1) % 3, old = (it + 2) % 3;
    i64 tid = blockIdx.x * (i64)blockDim.x + threadIdx.x;
    i64 nthreads = (i64)gridDim.x * blockDim.x;
    bool settle = cnt[NF_MODE + (it & 1)] != 0;
    if (settle) {                   // the bucket's entries, in the settle queues
        lq_cur = sl;
        hq_cur = sh;
        cur = NF_SETTLE;
    }
    // light entries go to the next queue and the settle queue through the block's buffers
    // (BlockQueue), heavy ones (few) straight to the global queues
    __shared__ NfLightQueue near_q, settle_q;
    near_q.start();
    settle_q.start();
    __syncthreads();
    auto enqueue_next = [&](i64 ev) {
        nf_push(ev, n, ptr, heavy_deg, near_q, lq_next, &cnt[nxt], hq_next, &cnt[3 + nxt]);
    };
    // an entry this near iteration relaxes: into the settle queues, once a bucket (a heavy one
    // in nf_heavy_ranges where `ranges`)
    auto to_settle = [&](i64 e) {
        if (settle) marked[e] = 0;
        else if (!marked[e]) {
            marked[e] = 1;
            nf_push(e, n, ptr, heavy_deg, settle_q, sl, &cnt[NF_SETTLE], sh, &cnt[NF_SETTLE + 3]);
        }
    };
    if (tid == 0) {                 // the slot two iterations ahead, and this iteration's far boxes
        cnt[old] = 0;
        cnt[3 + old] = 0;
        *minbox = ~(typename P::O)0;
        *gate = 0;
    }
    T thr = thr_box[it & 1];
    int next_it = it + 1;
    u64 offered = 0;
    // heavy entries: their rows or ranges (nf_heavy_ranges), one arc a lane over the whole grid, a warp
    // taking a chunk of consecutive arcs (16 a lane at most, fewer where the iteration's
    // arcs are few, down to lane_min); one (broadcast) binary search a chunk, then each lane
    // steps its entry forward (advance_chunks)
    unsigned int hlen = cnt[3 + cur];
    if (hlen) {
        i64 rn = 0, a0 = 0;
        int u = 0;
        T du = 0;
        advance_chunks(hincl, (i64)hlen, hincl[hlen - 1], lane_min, 16,
            [&](int q) {                  // this lane's entry changed: its row, tail, first arc, distance
                i64 e = hq_cur[q];
                rn = (e / n) * n;
                u = (int)(e - rn);
                a0 = ranges ? hstart[q] : ptr[u];
                du = P::dist(P::ord(key[e]));
            },
            [&](int q, i64 offset) {
                i64 a = a0 + offset;
                if (!ranges && offset == 0) to_settle(hq_cur[q]);
                offered += nf_arc<P>(key, rn, u, idx, a, du, has_w ? w[a] : (T)1, thr, settle, next_it, stamp,
                                     far, flagged, enqueue_next);
            });
    }
    // light entries: a group of 2^light_shift lanes an entry (nf_light_lanes)
    unsigned int llen = cnt[cur];
    const int lanes = 1 << light_shift;
    i64 group = tid >> light_shift, ngroups = nthreads >> light_shift;
    int sub = (int)(tid & (lanes - 1));
    for (i64 q = group; q < llen; q += ngroups) {
        i64 e = lq_cur[q];
        i64 r = e / n;
        int u = (int)(e - r * n);
        T du = P::dist(P::ord(key[e]));
        if (sub == 0) to_settle(e);
        // rows ascend by weight: a near iteration walks a row up to its first arc landing past
        // the threshold, a settle iteration down from its end to its last arc landing before it
        i64 start = ptr[u], end = ptr[u + 1];
        for (i64 step = sub; step < end - start; step += lanes) {
            i64 a = settle ? end - 1 - step : start + step;
            T wa = has_w ? w[a] : (T)1;
            if ((du + wa < thr) == settle) break;
            offered += nf_arc<P>(key, r * n, u, idx, a, du, wa, thr, settle, next_it, stamp,
                                 far, flagged, enqueue_next);
        }
    }
    near_q.flush(lq_next, &cnt[nxt]);
    settle_q.flush(sl, &cnt[NF_SETTLE]);
    if (offers) block_add(offered, offers);     // only while the host counts the work
}

// After a near iteration whose next near queue is empty: the next iteration settles
// (cnt[NF_MODE + ((it + 1) & 1)] = 1). After a settle iteration (no near entries follow one):
// the smallest far distance into *minbox (gate set).
template <typename P>
__device__ void nf_far_min(unsigned int* cnt, int it, const typename P::K* key,
                           const unsigned char* far, i64 count, typename P::O* minbox, int* gate)
{
    typedef typename P::O O;
    int nxt = (it + 1) % 3;
    bool settled = cnt[NF_MODE + (it & 1)] != 0;
    bool near_left = cnt[nxt] || cnt[3 + nxt];
    if (grid_thread() == 0) cnt[NF_MODE + ((it + 1) & 1)] = !settled && !near_left;
    if (!settled || near_left) return;
    if (grid_thread() == 0) {
        *gate = 1;
        cnt[NF_SETTLE] = cnt[NF_SETTLE + 3] = 0;      // settled: the queues are free again
    }
    const O none = ~(O)0;
    O m = none;
    for_each_flagged(far, count, [&](i64 e) { O o = P::ord(key[e]); m = o < m ? o : m; });
    m = warp_min(m);
    if ((threadIdx.x & 31) == 0 && m != none) atomicMin(minbox, m);
}

// Gated: the new threshold into thr_box[(it + 1) & 1]; far entries under it are queued.
template <typename P>
__device__ void nf_far_gather(unsigned int* cnt, int it, typename P::T* thr_box, typename P::T delta,
                              const typename P::K* key, unsigned char* far, int* stamp, i64 count, i64 n,
                              const i64* ptr, int heavy_deg, i64* lq_next, i64* hq_next,
                              const typename P::O* minbox, const int* gate)
{
    typedef typename P::T T;
    i64 tid = grid_thread();
    T thr = thr_box[it & 1];
    int nxt = (it + 1) % 3;
    if (!*gate || *minbox == ~(typename P::O)0) {
        if (tid == 0) thr_box[(it + 1) & 1] = thr;
        return;
    }
    T lo = P::dist(*minbox);
    T nthr = (lo > thr ? lo : thr) + delta;
    if (tid == 0) thr_box[(it + 1) & 1] = nthr;
    append_flagged(far, count, lq_next, &cnt[nxt], hq_next, &cnt[3 + nxt], [&](i64 e) {
        if (P::dist(P::ord(key[e])) >= nthr) return 0;
        far[e] = 0;
        return atomicExch(&stamp[e], it + 1) != it + 1 ? nf_queue_of(e, n, ptr, heavy_deg) : 0;
    });
}

#define NF_KERNELS(SUFFIX, P)                                                                      \
extern "C" __global__ void nf_heavy_ranges_##SUFFIX(const i64* hq_cur, unsigned int* cnt,           \
        const P::T* thr_box, i64 n, const i64* ptr, const P::T* w, int has_w, const P::K* key,        \
        unsigned char* marked, i64* sl, i64* sh, int heavy_deg, i64* hstart, i64* hincl)             \
{                                                                                                  \
    nf_heavy_ranges<P>(hq_cur, cnt, thr_box, n, ptr, w, has_w, key, marked, sl, sh, heavy_deg,     \
                       hstart, hincl);                                                             \
}                                                                                                  \
extern "C" __global__ void nf_relax_##SUFFIX(const i64* lq_cur, const i64* hq_cur, int ranges,     \
        const i64* hstart, const i64* hincl,                                                       \
        unsigned int* cnt, const P::T* thr_box, i64 n, const i64* ptr, const int* idx,         \
        const P::T* w, int has_w, int flagged, P::K* key, int* stamp, unsigned char* far,              \
        unsigned char* marked, i64* sl, i64* sh, i64* lq_next, i64* hq_next, int heavy_deg,           \
        int lane_min, int light_shift, P::O* minbox, int* gate, u64* offers)                       \
{                                                                                                  \
    nf_relax<P>(lq_cur, hq_cur, ranges, hstart, hincl, cnt, (int)cnt[NF_ITER], thr_box, n, ptr, idx, w, has_w, flagged, key, stamp,  \
                far, marked, sl, sh, lq_next, hq_next, heavy_deg, lane_min, light_shift, minbox,  \
                gate, offers);                                                                     \
}                                                                                                  \
extern "C" __global__ void nf_far_min_##SUFFIX(unsigned int* cnt, const P::K* key,                 \
        const unsigned char* far, i64 count, P::O* minbox, int* gate)                                 \
{                                                                                                  \
    nf_far_min<P>(cnt, (int)cnt[NF_ITER], key, far, count, minbox, gate);                                         \
}                                                                                                  \
extern "C" __global__ void nf_far_gather_##SUFFIX(unsigned int* cnt, P::T* thr_box,                \
        P::T delta, const P::K* key, unsigned char* far, int* stamp, i64 count, i64 n, const i64* ptr, \
        int heavy_deg, i64* lq_next, i64* hq_next, const P::O* minbox, const int* gate)               \
{                                                                                                  \
    nf_far_gather<P>(cnt, (int)cnt[NF_ITER], thr_box, delta, key, far, stamp, count, n, ptr, heavy_deg, lq_next,  \
                     hq_next, minbox, gate);                                                        \
}
NF_KERNELS(packed, NfPacked32)
NF_KERNELS(dist, NfDist32)
NF_KERNELS(dist64, NfDist64)

// float64 predecessors, from near-far's finished distances (the ordered keys; a packed
// word has no room for a double and an id). Over every (row, arc) pair, kb * m items, the
// arcs in CSC order (in_src tail, in_dst head) so each item reads the arrays in a stream.
// Pass 1, nf_pred_tight_f64: best[e] = the smallest tail u of an arc u -> v attaining v's
// distance and lengthening the path (du < du + w == dv): the packed word's rule, so near-far
// gives the same predecessors in both precisions. best starts at PRED_NONE.
// nf_pred_open_f64 turns best into predecessors: -1 for sources and unreached entries,
// PRED_OPEN for a reached entry that no lengthening arc attains (a zero weight, or a
// weight lost to rounding: its distance equals its tight tails'), counted into *open.
// Adoption rounds (nf_pred_adopt_f64 + nf_pred_adopt_finish) settle the open entries: an open
// v takes the smallest tail u of an arc attaining dv whose own entry was settled (a source,
// or pred >= 0) when the round began. Links made in a round point to entries settled
// before it, so no cycle closes; each round settles at least the open entries next to
// settled ones along tight arcs (every reached entry has such a chain from its source).
#define PRED_NONE 0x7fffffff
#define PRED_OPEN (-2)
#define ORD_INF64 0xfff0000000000000ULL   // d2o(+inf)

extern "C" __global__ void nf_pred_tight_f64(const u64* __restrict__ key, i64 kb, i64 n, i64 m,
                                             const int* __restrict__ in_src, const int* __restrict__ in_dst,
                                             const double* __restrict__ w, int has_w, int* best)
{
    for_each(kb * m, [&](i64 i) {
        i64 r = i / m, a = i - r * m;
        i64 rn = r * n;
        int u = in_src[a], v = in_dst[a];
        u64 ou = key[rn + u];
        if (ou == ORD_INF64) return;
        double du = o2d(ou);
        double c = du + (has_w ? w[a] : 1.0);
        if (c > du && c == o2d(key[rn + v])) atomicMin(&best[rn + v], u);
    });
}

extern "C" __global__ void nf_pred_open_f64(const u64* __restrict__ key, const int* __restrict__ ids,
                                            i64 kb, i64 n, int* pred, unsigned int* open)
{
    unsigned int mine = 0;
    for_each(kb * n, [&](i64 e) {
        if (pred[e] != PRED_NONE) return;
        i64 r = e / n;
        bool reached_other = key[e] != ORD_INF64 && e - r * n != ids[r];
        pred[e] = reached_other ? PRED_OPEN : -1;
        mine += reached_other;
    });
    block_add(mine, open);
}

extern "C" __global__ void nf_pred_adopt_f64(const u64* __restrict__ key, const int* __restrict__ ids,
                                             i64 kb, i64 n, i64 m,
                                             const int* __restrict__ in_src, const int* __restrict__ in_dst,
                                             const double* __restrict__ w, int has_w,
                                             const int* __restrict__ pred, int* cand)
{
    for_each(kb * m, [&](i64 i) {
        i64 r = i / m, a = i - r * m;
        i64 rn = r * n;
        int u = in_src[a], v = in_dst[a];
        if (pred[rn + v] != PRED_OPEN || !(pred[rn + u] >= 0 || u == ids[r])) return;
        double c = o2d(key[rn + u]) + (has_w ? w[a] : 1.0);
        if (c == o2d(key[rn + v])) atomicMin(&cand[rn + v], u);
    });
}

extern "C" __global__ void nf_pred_adopt_finish(int* cand, i64 count, int* pred, unsigned int* adopted)
{
    unsigned int mine = 0;
    for_each(count, [&](i64 e) {
        if (cand[e] == PRED_NONE) return;
        pred[e] = cand[e];
        cand[e] = PRED_NONE;
        ++mine;
    });
    block_add(mine, adopted);
}


// The heavy entries iteration `it` relaxes (the heavy queue of slot it % 3, or the heavy
// settle queue sh where it settles), and count(q) the arcs of entry q it relaxes: its
// out-degree, or where `ranges` the count nf_heavy_ranges wrote into hincl[q].
struct NfHeavyArcs {
    const i64* hq;
    i64 len, n;
    const i64* ptr;
    int ranges;
    const i64* hincl;
    __device__ NfHeavyArcs(const i64* hq_cur, const i64* sh, const unsigned int* cnt, int it, i64 n_,
                           const i64* ptr_, int ranges_, const i64* hincl_)
        : n(n_), ptr(ptr_), ranges(ranges_), hincl(hincl_)
    {
        bool settle = cnt[NF_MODE + (it & 1)] != 0;
        hq = settle ? sh : hq_cur;
        len = cnt[3 + (settle ? NF_SETTLE : it % 3)];
    }
    __device__ i64 operator()(i64 q) const
    {
        if (ranges) return hincl[q];
        i64 u = hq[q] % n;
        return ptr[u + 1] - ptr[u];
    }
};

// One block, before nf_relax: moves cnt[NF_ITER] on to the iteration it runs, then the
// inclusive sum of the arc counts of the iteration's heavy entries (NfHeavyArcs) into hincl.
// Each thread sums a stretch, the block scans the stretches' sums, each thread rewrites its
// stretch.
extern "C" __global__ void nf_heavy_scan(const i64* __restrict__ hq, const i64* __restrict__ sh,
                                         unsigned int* cnt, i64 n, const i64* __restrict__ ptr,
                                         int ranges, i64* hincl)
{
    __shared__ i64 part[1024];
    __shared__ int running;
    if (threadIdx.x == 0) running = (int)(cnt[NF_ITER] += 1u);
    __syncthreads();
    int it = running;
    NfHeavyArcs arcs(hq, sh, cnt, it, n, ptr, ranges, hincl);
    if (arcs.len == 0) return;
    i64 lo, hi;
    i64 run = stretch_sums(part, 0, arcs.len, arcs, lo, hi);
    for (i64 q = lo; q < hi; ++q) {
        run += arcs(q);
        hincl[q] = run;
    }
}

// The loop's heavy scan: nf_heavy_scan's inclusive sums over the whole grid (one block's
// thread stretches would be 400 entries long in a settle iteration of 10^5 heavy entries).
// Each block sums a contiguous share of the iteration's heavy entries into sums[block], and
// after a grid barrier writes its share's inclusive sums from the shares before it. All
// blocks read the same queue length (written before the last barrier), so they skip the
// barrier together when it is 0; it is returned. cnt[NF_ITER] moves on to `it`, as the scan
// kernel does.
__device__ i64 nf_heavy_scan_grid(const i64* __restrict__ hq, const i64* __restrict__ sh, unsigned int* cnt,
                                   int it, i64 n, const i64* __restrict__ ptr, int ranges, i64* hincl,
                                   i64* sums, unsigned int* bar)
{
    __shared__ i64 part[256];           // blockDim: the loop's 256 threads
    if (grid_thread() == 0) cnt[NF_ITER] = (unsigned int)it;
    NfHeavyArcs arcs(hq, sh, cnt, it, n, ptr, ranges, hincl);
    i64 len = arcs.len;
    if (len == 0) return 0;
    int t = threadIdx.x, T = blockDim.x;
    i64 share = (len + gridDim.x - 1) / gridDim.x;
    i64 b0 = blockIdx.x * share < len ? blockIdx.x * share : len;
    i64 b1 = b0 + share < len ? b0 + share : len;
    i64 lo, hi;
    i64 before = stretch_sums(part, b0, b1, arcs, lo, hi);    // within the block's share
    if (t == T - 1) sums[blockIdx.x] = part[T - 1];
    grid_barrier(bar);
    i64 shares = 0;                     // the shares of the blocks before this one
    for (i64 j = t; j < blockIdx.x; j += T) shares += sums[j];
    part[t] = shares;
    __syncthreads();
    for (int off = T / 2; off; off >>= 1) {
        if (t < off) part[t] += part[t + off];
        __syncthreads();
    }
    i64 run = part[0] + before;
    for (i64 q = lo; q < hi; ++q) {
        run += arcs(q);
        hincl[q] = run;
    }
    return len;
}

// Near-far's iterations in one cooperative launch (NearFar.run, batches of at most
// CudaTuning.nf_loop_max_arcs arcs): an
// iteration's kernels become phases between grid barriers (the scan over the grid), so an
// iteration pays its barriers instead of its launches and the drains of their grids, and the
// host waits once a search. Queues alternate between the a and b buffers by the iteration's
// parity, as the host's groups do. It runs a search from its first iteration (the host
// starts cnt[NF_ITER] at -1; the iteration number is the loop's own, since the scan moves
// the counter on while other blocks may not have read it). Barriers only where a phase reads
// what another block wrote: the far phases run only where a bucket ends (a settle iteration
// leaving no near entries); elsewhere they would only carry the mode and threshold on, which
// every block writes for itself instead (the same values), so the next iteration starts
// without a barrier, and the scan's barrier is skipped where there are no heavy entries:
// an iteration without heavy entries or a bucket's end pays one barrier. It stops when the
// next queues and the settle queues are empty, or before iteration max_it (the host then
// finishes on its long route). The check after the relaxation's barrier may meet the next
// iteration's first writes (cnt[NF_ITER], the oldest slot's reset, settle-queue appends, which
// only happen while work is left): none of them can turn a search that is not done into one
// that reads done, so every block leaves at the same iteration. Four blocks a multiprocessor,
// as nf_relax gets (53-60 registers): 64 registers at most.
// stamps (NF_STAMPS entries an iteration, or nullptr; benchmarks): the GPU's clock in ns at the
// iteration's start, the relaxation's start and end and the iteration's end, the entries the
// iteration relaxes (light, heavy), 1 where it settles, 1 where it ends a bucket.
#define NF_STAMPS 8
template <typename P>
__device__ void nf_loop(i64* lq_a, i64* lq_b, i64* hq_a, i64* hq_b, int ranges, i64* hstart, i64* hincl,
                        unsigned int* cnt, typename P::T* thr_box, typename P::T delta, i64 n, i64 count,
                        const i64* __restrict__ ptr, const int* __restrict__ idx,
                        const typename P::T* __restrict__ w, int has_w, int flagged, typename P::K* key,
                        int* stamp, unsigned char* far, unsigned char* marked, i64* sl, i64* sh,
                        int heavy_deg, int lane_min, int light_shift, typename P::O* minbox, int* gate,
                        u64* offers, int max_it, i64* sums, unsigned int* bar, u64* stamps)
{
    for (int it = 0; it < max_it; ++it) {
        u64* st = stamps != nullptr && grid_thread() == 0 ? stamps + NF_STAMPS * (i64)it : nullptr;
        if (st) st[0] = global_ns();
        bool odd = it & 1;
        i64 *lq_cur = odd ? lq_b : lq_a, *lq_next = odd ? lq_a : lq_b;
        i64 *hq_cur = odd ? hq_b : hq_a, *hq_next = odd ? hq_a : hq_b;
        if (ranges) {
            nf_heavy_ranges<P>(hq_cur, cnt, thr_box, n, ptr, w, has_w, key, marked, sl, sh, heavy_deg,
                               hstart, hincl);
            grid_barrier(bar);
        }
        if (nf_heavy_scan_grid(hq_cur, sh, cnt, it, n, ptr, ranges, hincl, sums, bar)) grid_barrier(bar);
        if (st) {
            bool settles = cnt[NF_MODE + (it & 1)] != 0;
            int q = settles ? NF_SETTLE : it % 3;
            st[1] = global_ns();
            st[4] = cnt[q];
            st[5] = cnt[3 + q];
            st[6] = settles;
        }
        nf_relax<P>(lq_cur, hq_cur, ranges, hstart, hincl, cnt, it, thr_box, n, ptr, idx, w, has_w, flagged,
                    key, stamp, far, marked, sl, sh, lq_next, hq_next, heavy_deg, lane_min, light_shift,
                    minbox, gate, offers);
        grid_barrier(bar);
        if (st) st[2] = global_ns();
        int slot = (it + 1) % 3;
        bool settled = cnt[NF_MODE + (it & 1)] != 0, near_left = cnt[slot] || cnt[3 + slot];
        if (settled && !near_left) {        // the bucket ends: the next one from the far entries
            nf_far_min<P>(cnt, it, key, far, count, minbox, gate);
            grid_barrier(bar);
            nf_far_gather<P>(cnt, it, thr_box, delta, key, far, stamp, count, n, ptr, heavy_deg, lq_next,
                             hq_next, minbox, gate);
            grid_barrier(bar);
        } else {                            // nf_far_min's mode and nf_far_gather's threshold, a block each
            if (threadIdx.x == 0) {
                cnt[NF_MODE + ((it + 1) & 1)] = !settled && !near_left;
                thr_box[(it + 1) & 1] = thr_box[it & 1];
            }
            __syncthreads();
        }
        if (st) {
            st[3] = global_ns();
            st[7] = settled && !near_left;
        }
        if (!cnt[slot] && !cnt[3 + slot] && !cnt[NF_SETTLE] && !cnt[NF_SETTLE + 3]) return;
    }
}

#define NF_LOOP(SUFFIX, P)                                                                         \
extern "C" __global__ void __launch_bounds__(256, 4) nf_loop_##SUFFIX(                            \
        i64* lq_a, i64* lq_b, i64* hq_a, i64* hq_b, int ranges, i64* hstart, i64* hincl,            \
        unsigned int* cnt, P::T* thr_box, P::T delta, i64 n, i64 count,                               \
        const i64* ptr, const int* idx, const P::T* w, int has_w, int flagged, P::K* key, int* stamp,  \
        unsigned char* far, unsigned char* marked, i64* sl, i64* sh, int heavy_deg, int lane_min,     \
        int light_shift, P::O* minbox, int* gate, u64* offers, int max_it, i64* sums, unsigned int* bar, \
        u64* stamps)                                                                               \
{                                                                                                  \
    nf_loop<P>(lq_a, lq_b, hq_a, hq_b, ranges, hstart, hincl, cnt, thr_box, delta, n, count, ptr, idx, w, \
               has_w, flagged, key, stamp, far, marked, sl, sh, heavy_deg, lane_min, light_shift,     \
               minbox, gate, offers, max_it, sums, bar, stamps);                                   \
}
NF_LOOP(packed, NfPacked32)
NF_LOOP(dist, NfDist32)
NF_LOOP(dist64, NfDist64)
