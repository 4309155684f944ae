// Reductions of a batch's BFS depth block, one pass over it (algorithms/reductions.py).
// The block holds n rows (vertices) and kb columns (sources); depth < 0 is unreachable.
// Their NumPy twins are curnet.backends.arrays.depth_stats / depth_histogram.
// (common.cuh is put in front of this file by the loader.)

// Per column j, over the rows v whose depth x has mindist <= x <= upto:
//   count[j] += 1, total[j] += x, inverse[j] += 1 / x (x > 0), and farthest[j] = the largest
//   key (x << 32) | (0xffffffff - v): the largest depth, then its first row.
// Element (v, j) is d[v * row_stride + j * col_stride]. Threads of a block take adjacent
// columns (coalesced for a (n, kb) C-ordered block); grid.y cuts the rows into pieces, whose
// partial results meet in the atomics.
extern "C" __global__ void depth_stats(const int* __restrict__ d, long long n, int kb,
                                       long long row_stride, long long col_stride, int mindist, int upto,
                                       unsigned long long* count, double* total, double* inverse,
                                       unsigned long long* farthest)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= kb) return;
    const long long rows = (n + gridDim.y - 1) / gridDim.y;
    const long long v0 = (long long)blockIdx.y * rows;
    const long long v1 = v0 + rows < n ? v0 + rows : n;
    unsigned long long c = 0, best = 0;
    double t = 0.0, inv = 0.0;
    const int* col = d + (long long)j * col_stride;
    for (long long v = v0; v < v1; ++v) {
        const int x = col[v * row_stride];
        if (x < 0 || x < mindist || x > upto) continue;
        ++c;
        t += (double)x;
        if (x > 0) inv += 1.0 / (double)x;
        const unsigned long long key = ((unsigned long long)x << 32) | (0xffffffffull - (unsigned long long)v);
        if (key > best) best = key;
    }
    if (c == 0) return;
    atomicAdd(count + j, c);
    atomicAdd(total + j, t);
    atomicAdd(inverse + j, inv);
    atomicMax(farthest + j, best);
}

// How many entries of the block lie at each depth: hist[0] the unreachable (< 0), hist[x] for
// 1 <= x < bins, hist[bins] those at bins or deeper (the caller then counts another way);
// depth 0 (the sources themselves) is not counted. Threads and rows as in depth_stats; each
// block counts in shared memory first, so the global atomics are bins a block, not one an entry.
extern "C" __global__ void depth_histogram(const int* __restrict__ d, long long n, int kb,
                                           long long row_stride, long long col_stride, int bins,
                                           unsigned long long* hist)
{
    extern __shared__ unsigned int local[];          // bins + 1 counters
    for (int b = threadIdx.x; b <= bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < kb) {
        const long long rows = (n + gridDim.y - 1) / gridDim.y;
        const long long v0 = (long long)blockIdx.y * rows;
        const long long v1 = v0 + rows < n ? v0 + rows : n;
        const int* col = d + (long long)j * col_stride;
        for (long long v = v0; v < v1; ++v) {
            const int x = col[v * row_stride];
            if (x != 0) atomicAdd(&local[x < 0 ? 0 : (x < bins ? x : bins)], 1u);
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b <= bins; b += blockDim.x)
        if (local[b]) atomicAdd(hist + b, (unsigned long long)local[b]);
}
