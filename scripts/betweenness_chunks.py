"""What a Dask chunk of betweenness costs beyond its sources, on one GPU and no Dask: R-MAT 20
(seed 1) from 65,536 sampled sources, the reduction's chunk function (distributed.betweenness)
on the whole breadth-first order, then on 8 and 16 chunks of it run in turn. Also the source
order's search on the GPU (search_rank) against SciPy's on the host, and the memory pool's
peak. Needs CuPy and a GPU.

    PYTHONPATH=python python3 scripts/betweenness_chunks.py
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import cupy as cp  # noqa: E402

from curnet import distributed, generators  # noqa: E402
from curnet.algorithms import brandes  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.sources import sample_sources  # noqa: E402


def main():
    g = generators.rmat(20, seed=1)
    reduction = distributed.betweenness()
    t = time.perf_counter()
    order = reduction.order(g, sample_sources(g, 65536, seed=1))
    print(f"order on the caller: {time.perf_counter() - t:.2f} s, {len(order)} sources", flush=True)
    reduction.chunk(g, order[:64], "cuda")                 # compiles the kernels, prepares the graph
    dev = get_backend("cuda")
    core, _ = brandes.without_leaves(brandes.with_arcs_only(g)[0])
    hg = dev.device_graph(core)
    for what in ("search_rank on the GPU", "again"):
        t = time.perf_counter()
        rank = brandes.search_rank(cp, hg.in_src, hg.in_dst, len(core), brandes.busiest_vertex(core), False)
        cp.cuda.runtime.deviceSynchronize()
        print(f"{what} ({core.num_arcs:,} arcs): {time.perf_counter() - t:.3f} s", flush=True)
    t = time.perf_counter()
    host = brandes._breadth_first_rank(core)
    print(f"SciPy on the host: {time.perf_counter() - t:.3f} s; both a permutation: "
          f"{np.array_equal(np.sort(rank.get()), np.sort(host))}", flush=True)
    pool = cp.get_default_memory_pool()
    for _ in range(2):
        pool.free_all_blocks()
        t = time.perf_counter()
        whole = reduction.chunk(g, order, "cuda")[0]
        print(f"whole order in one chunk: {time.perf_counter() - t:.2f} s; pool held "
              f"{pool.total_bytes() / 2**30:.1f} GiB, batch {dev.bc_batch_size(len(core), len(core), False)} "
              f"x {len(core)} rows", flush=True)
    for pieces in (8, 16):
        total, each = 0, []
        for part in np.array_split(order, pieces):
            t = time.perf_counter()
            total = total + reduction.chunk(g, part, "cuda")[0]
            each.append(time.perf_counter() - t)
        print(f"{pieces} chunks in turn: {sum(each):.2f} s ({', '.join(f'{x:.2f}' for x in each)}); max rel "
              f"diff {np.max(np.abs(total - whole) / np.maximum(np.abs(whole), 1e-300)):.1e}", flush=True)


if __name__ == "__main__":
    main()
