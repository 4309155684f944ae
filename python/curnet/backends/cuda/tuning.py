"""The CUDA backend's knobs, one `CudaTuning` on each backend (`get_backend("cuda").tuning`).
Tests and benchmarks change them on the backend they run; the measurements behind the
defaults are in docs/gpu-notes.md."""
from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class CudaTuning:
    # Sources per batch at most (None: as device memory allows); benchmarks and tests lower it.
    batch_limit: int | None = None
    # map_batches copies batch i to the host while batch i + 1 computes (False: in turn).
    overlap_batches: bool = True
    # Arcs per thread in the many-source pull expansion: balances R-MAT hubs across threads.
    expand_chunk: int = 32
    # Vertices with more arcs than this get a warp each in label propagation (SCC).
    heavy_degree: int = 128
    # Edge classes for shortest paths (kernels/sssp.cu), directed graphs only: arcs into a
    # sink do not queue it, arcs into a vertex of in-degree 1 write without an atomic.
    edge_classes: bool = True
    # A one-source BFS (or a Bellman-Ford batch) past this many levels (rounds) is a
    # long-diameter graph: it is finished on the host, and later calls on the graph go there.
    long_levels: int = 2048
    # The joint BFS traversal pushes (top-down) a level whose frontier's out-arcs are fewer
    # than m / push_alpha (0: always pull).
    push_alpha: int = 14
    # The one-source direction-optimizing BFS (bfs_one) turns bottom-up when the frontier's
    # out-arcs pass the unexplored arcs / bfs_one_alpha, and top-down again when a level
    # finds fewer than n / bfs_one_beta vertices (Beamer et al.'s rule; beta his constant).
    # Alpha 56, not his 14: one H200, R-MAT 22, 16 sources, 14 / 28 / 56: engine mean 0.80 /
    # 0.77 / 0.71 ms, median 0.64 / 0.67 / 0.68 ms, slowest source 1.76 / 1.81 / 1.00 ms (the
    # slow two switched to bottom-up a level late), public call median 1.24 / 1.21 / 1.20 ms;
    # SCC, whose pivot searches run this BFS, R-MAT 22 2.01 / 2.00 / 1.99 ms, mouse liver
    # 1.52 / 1.45 / 1.50 ms (bench/results/nearfar_ab_alpha_h200_2026-12-03k.json).
    bfs_one_alpha: int = 56
    bfs_one_beta: int = 24
    # The one-source BFS's level loop and SCC's propagation sweeps run on the device, in one
    # cooperative launch each (kernels bfs_one_loop, propagate_loop): the host waits once
    # instead of once a level. False: a launch a level and a host synchronisation each (the
    # route they are measured against in docs/gpu-notes.md).
    device_loops: bool = True
    # SCC on graphs of at most this many arcs runs in one cooperative launch (scc_whole: the
    # driver's trims, pivot and colouring with no host read between); larger graphs take the
    # driver over the primitives, whose direction-optimizing pivot searches scale better.
    scc_one_launch_arcs: int = 1 << 20
    # The loop kernels on a small graph take a thread a vertex (at least a block a
    # multiprocessor) instead of every resident block: fewer blocks at each grid barrier.
    loop_blocks_fit: bool = True
    # In bfs_one_loop's top-down levels, a frontier vertex of more out-arcs than this gets a
    # team of blocks instead of a warp (a hub alone: the whole grid).
    bfs_one_heavy: int = 1024
    # In bfs_one_loop's bottom-up levels, an unvisited vertex of more in-arcs than this is
    # searched by a whole warp instead of its own thread (0: every vertex by its thread).
    # Off: on R-MAT 22 (H200) every threshold tried was slower, 32 / 64 / 256 arcs 0.715 /
    # 0.695 / 0.666 ms a search against 0.639 ms off (docs/gpu-notes.md).
    bfs_one_warp_list: int = 0
    # Bytes of per-level new bits a joint traversal keeps before writing them into the depths
    # (None: an eighth of free device memory, at most 4 GiB).
    level_bytes: int | None = None
    # Near-far SSSP: non-negative weights, batches of at most nf_max_sources sources.
    # Entries with more arcs than nf_heavy are spread over the grid; the host reads the queue
    # counts every nf_sync_every iterations; past nf_max_iters the batch finishes on the host.
    # Delta = nf_delta_factor x 32 x mean weight / mean out-degree (Davidson et al.'s rule).
    # 0.125 (0.5 before 2026-12-02): on one H200, batches of 32 / 256 / 1,024 R-MAT 20 sources
    # 35-40% faster, one R-MAT 22 source 12.6 against 19.7 ms (fewer arcs scanned again: 3.1x
    # the arcs against 4.4x), one R-MAT 20 source 6.6 against 5.5 ms
    # (bench/results/gpu_accounts_{widths,iterations}_h200_2026-12-02h.json). With settle
    # iterations (arcs past the bucket relaxed once) 0.125 stays the best width measured for
    # one R-MAT 22 source and for every batch (gpu_accounts_iterations_h200_2026-12-02k.json,
    # gpu_accounts_widths_h200_2026-12-02j.json).
    nf_max_sources: int = 4096
    nf_heavy: int = 256
    # A lane of near-far's relaxation walks at least nf_lane_arcs_min of the heavy entries'
    # arcs (and at most 16): fewer where an iteration's heavy arcs are few against the grid's
    # lanes, so its chains of dependent relaxations stay short. 16: a fixed 512 arcs a warp,
    # the route before (2026-12-03).
    nf_lane_arcs_min: int = 1
    # Lanes that walk a light entry's row together (a power of two up to 32). One H200
    # (nearfar_ab_lanes_h200_2026-12-03f.json), 4 / 8 / 16 / 32 lanes: one R-MAT 22 source
    # 12.4 / 12.8 / 13.6 / 14.7 ms, R-MAT 20 batches of 256 sources 655 / 693 / 749 / 756 ms.
    nf_light_lanes: int = 4
    nf_sync_every: int = 8
    nf_max_iters: int = 8192
    nf_delta_factor: float = 0.125
    # The width doubles for batches of at most nf_wide_max_arcs arcs (sources x arcs) and
    # halves for batches of at least nf_narrow_min_arcs (NearFar.delta). On one H200
    # (nearfar_ab_tunings_h200_2026-12-03i.json), factor 0.25 / 0.125 / 0.0625: R-MAT 16
    # (2^21 arcs) one / 32 sources 1.80 / 2.20 / 2.92 and 8.8 / 10.6 / 12.7 ms; one R-MAT 20
    # source (2^25) 4.3 / 5.0 / 6.4 ms; one R-MAT 22 source (2^27) 14.2 / 12.2 / 12.6 ms;
    # R-MAT 20 batches of 32 / 256 / 1,024 sources (2^30 / 2^33 / 2^35) 86 / 78 / 79,
    # 770 / 652 / 622 and 3,529 / 3,039 / 2,856 ms. The rule against 0.125 everywhere, one
    # call (nearfar_ab_width_rule_h200_2026-12-03j.json): R-MAT 16 one / 32 sources 1.89 /
    # 8.88 against 2.25 / 10.66 ms, one R-MAT 20 source 4.06 against 4.42, R-MAT 20 batches
    # of 32 / 256 / 1,024 76 / 623 / 2,859 against 77 / 654 / 3,048, one R-MAT 22 source
    # 11.8 against 12.4 ms (the same width there: run to run).
    nf_wide_max_arcs: int = 1 << 26
    nf_narrow_min_arcs: int = 1 << 32
    # Near-far launches its first nf_graph_after groups of nf_sync_every iterations kernel by
    # kernel, then captures one group as a CUDA graph and replays it (one launch a group
    # instead of four or five an iteration). A large number: never (the route measured against). On
    # one H200 (bench/results/nearfar_ab_graph_h200_2026-12-03a.json), one source: R-MAT 16
    # 2.32 ms from the first group, 2.47 after it, 4.53 never; R-MAT 22 15.2 against 16.0.
    nf_graph_after: int = 0
    # Near-far's iterations run in one cooperative launch (kernels/sssp.cu nf_loop: an
    # iteration's kernels as phases between grid barriers, one host wait a search) for batches
    # of at most nf_loop_max_arcs arcs (sources x arcs), in groups of nf_sync_every iterations
    # replayed from a CUDA graph above (0: never in one launch). On one H200
    # (bench/results/nearfar_ab_lean_calls_h200_2026-12-04f.log), one launch against groups in
    # one process: one R-MAT 22 source (2^27 arcs) 10.87 against 12.54 ms, R-MAT 16 one / 32
    # sources 1.58 / 8.58 against 1.96 / 9.16 ms, R-MAT 20 32 sources (2^30) 75.8 against 78.7;
    # at 256 and 1,024 R-MAT 20 sources (2^33, 2^35) one launch was 2-5% slower (its resident
    # grid is smaller than the relaxation's), so they stay in groups. Measured before the
    # block-aggregated appends (2026-12-04 15:04 UTC: one R-MAT 22 source 7.8-8.4 ms in one
    # launch, 256 / 1,024 R-MAT 20 sources 432-435 / 2,066-2,073 ms in groups); not measured again.
    nf_loop_max_arcs: int = 1 << 31
    # Near-far's heavy entries relax only their row's range for the iteration (one binary
    # search a row an iteration: the head in a near iteration, the tail in a settle one) in
    # batches of at least nf_ranges_min_arcs arcs (sources x arcs), their whole rows below.
    # On one H200 (nearfar_ab_{old,new}_h200_2026-12-03c.json), ranges against rows: one R-MAT
    # 22 source (2^27 arcs) 12.2 against 14.6 ms, R-MAT 20 batches of 32 / 256 / 1,024 sources
    # 86 / 696 / 3,277 against 95 / 813 / 3,826 ms; but one R-MAT 20 source (2^25) 5.5
    # against 4.4 ms and R-MAT 16 (2^21) one / 32 sources 3.0 / 15.6 against 2.4 / 12.4 ms.
    # The rule itself, run (nearfar_ab_rule_h200_2026-12-03d.json): R-MAT 22 one source 12.6 ms,
    # R-MAT 20 32 sources 85 ms, R-MAT 16 32 sources 12.9 ms (ranges 15.9).
    nf_ranges_min_arcs: int = 1 << 27
    # Device -> host copies of at least stage_min bytes go through stage_buffers pinned
    # buffers of stage_chunk bytes, copied out by stage_threads host threads (0 chunk: off).
    # stage_pitched: a batch's rows of a larger matrix (a share of a multi-GPU job, or one of
    # several batches) are staged too, a chunk of whole rows at a time (False: through a
    # temporary host copy, the path measured against in docs/gpu-notes.md).
    stage_min: int = 16 << 20
    # A public call's new result of pinned_result_min to pinned_result_max bytes is pinned
    # host memory, which the copy back reaches directly (one R-MAT 22 column of depths, 16.8
    # MB: 0.33 ms into pinned memory against 1.61 ms into a fresh pageable array through the
    # staging, gpu_accounts_floors_h200_2026-12-02.json); max 0: never. Larger results stay
    # pageable: pinned memory cannot be paged out, and CuPy's pinned pool keeps what it has
    # allocated. Smaller ones too: their pageable copies are short, and pinning memory afresh
    # (a caller keeping every result) costs more than it saves.
    # Pinned results alive at once hold at most pinned_live_max bytes (the next are pageable
    # until some are freed): pinning afresh costs more than the copy saves (16 MiB: 8.3 ms on
    # the H200's host, gpu_accounts_public_pinned_h200_2026-12-03g.json), so a caller keeping
    # every result pays it a few times, not at every call.
    pinned_result_min: int = 4 << 20
    pinned_result_max: int = 64 << 20
    pinned_live_max: int = 128 << 20
    stage_pitched: bool = True
    stage_chunk: int = 32 << 20
    stage_buffers: int = 3
    stage_threads: int = field(default_factory=lambda: max(1, min(8, os.cpu_count() or 1)))
