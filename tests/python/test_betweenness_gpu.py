"""Betweenness on the GPU (kernels/betweenness.cu) against the CPU backend's NumPy twins
(backends/cpu/brandes.py): each kernel on random blocks, and whole runs on random graphs.

Marked `gpu` and skipped without CuPy and a CUDA device (as test_gpu.py)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import curnet
from curnet.algorithms.betweenness.sweeps import shortest_path_dag
from curnet.backends import cuda_available, get_backend

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]

if cuda_available():
    import cupy as cp
else:  # pragma: no cover
    cp = None


@pytest.fixture(scope="module")
def gpu():
    return get_backend("cuda")


@pytest.fixture(scope="module")
def cpu():
    return get_backend("cpu")


@pytest.fixture(params=[1, 2], ids=["one source a lane", "two sources a lane"])
def lanes(request, gpu):
    """The path counts' pulls of int8 BFS levels with one or two sources a lane
    (BrandesSweeps.lane_sources; two only where a batch's kb is even)."""
    before = gpu.brandes.lane_sources
    gpu.brandes.lane_sources = request.param
    yield request.param
    gpu.brandes.lane_sources = before


def random_graph(rng, n, m, *, directed, weighted, dtype=np.float64, integer=True):
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = None
    if weighted:
        w = (rng.integers(1, 4, m) if integer else rng.random(m) + 0.05).astype(dtype)
    return curnet.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=dtype)


def close(a, b):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-9, atol=1e-9)


CASES = [(directed, weighted, dtype) for directed in (True, False) for weighted in (False, True)
         for dtype in (np.float32, np.float64) if weighted or dtype == np.float32]


@pytest.mark.parametrize("directed,weighted,dtype", CASES)
@pytest.mark.parametrize("kb", [70, 71])
def test_kernels_match_their_twins(gpu, cpu, lanes, directed, weighted, dtype, kb):
    """One batch: the DAG levels, sigma, delta a level at a time, and the arcs' dependencies
    (kb not a multiple of 32; odd, so two sources a lane do not apply)."""
    rng = np.random.default_rng(7)
    g = random_graph(rng, 300, 1500, directed=directed, weighted=weighted, dtype=dtype)
    ids = rng.choice(300, kb, replace=False).astype(np.int32)
    compare_kernels(gpu, cpu, g, ids, weighted, rng)


def hub_graph(rng, n, m, hub_arcs, *, directed, weighted, dtype=np.float64):
    """A random graph with a hub: vertex 0 with `hub_arcs` arcs out and in (several pieces of
    ARC_PIECE arcs), integer weights (ties) when weighted."""
    spokes = rng.integers(1, n, hub_arcs)
    src = np.r_[rng.integers(0, n, m), np.zeros(hub_arcs, np.int64), spokes]
    dst = np.r_[rng.integers(0, n, m), spokes, np.zeros(hub_arcs, np.int64)]
    w = rng.integers(1, 4, len(src)).astype(dtype) if weighted else None
    return curnet.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=dtype)


@pytest.mark.parametrize("directed,weighted,dtype", CASES)
def test_kernels_split_hub_lists_match_their_twins(gpu, cpu, lanes, directed, weighted, dtype):
    """A hub's arcs in several pieces (added atomically): the same blocks as the twins."""
    from curnet.backends.brandes import ARC_PIECE
    rng = np.random.default_rng(17)
    g = hub_graph(rng, 400, 1200, 3 * ARC_PIECE + 5, directed=directed, weighted=weighted, dtype=dtype)
    ids = rng.choice(400, 100, replace=False).astype(np.int32)
    compare_kernels(gpu, cpu, g, ids, weighted, rng)


@pytest.mark.parametrize("directed,weighted,dtype", CASES)
@pytest.mark.parametrize("cutoff", [None, 2])
def test_gpu_hub_runs_in_several_batches_match_cpu(gpu, cpu, directed, weighted, dtype, cutoff):
    """Whole runs on hub graphs, every source (reordered breadth-first) in batches of 64."""
    from curnet.backends.brandes import ARC_PIECE
    rng = np.random.default_rng(23)
    g = hub_graph(rng, 600, 2500, 2 * ARC_PIECE + 1, directed=directed, weighted=weighted, dtype=dtype)
    before = gpu.tuning.batch_limit
    gpu.tuning.batch_limit = 64
    try:
        for kwargs in ({}, {"endpoints": True}, {"targets": list(range(1, 600, 2))}):
            close(curnet.betweenness(g, cutoff=cutoff, backend="cuda", **kwargs),
                  curnet.betweenness(g, cutoff=cutoff, backend="cpu", **kwargs))
        close(curnet.edge_betweenness(g, cutoff=cutoff, backend="cuda"),
              curnet.edge_betweenness(g, cutoff=cutoff, backend="cpu"))
    finally:
        gpu.tuning.batch_limit = before


def compare_kernels(gpu, cpu, g, ids, weighted, rng, push=False, listed=False):
    """One batch: the DAG levels, sigma, the shares and dependencies a level at a time, and
    the arcs' dependencies, each kernel against its twin. `push` (BFS levels): every GPU level
    swept from the other end, and each level's arcs to walk against a count on the host.
    `listed` (BFS levels): the sweeps visit the tasks the batch's LevelIndex lists."""
    hc, hd = cpu.device_graph(g), gpu.device_graph(g)
    level_c, dist_c, index_c = shortest_path_dag(cpu, hc, ids, weighted, None)   # weighted: DagArcs
    level_d, dist_d, _ = shortest_path_dag(gpu, hd, ids, weighted, None)
    if weighted:     # the same distances on both sides, so the kernels are compared alone
        dist_d = cp.asarray(dist_c)
        level_d, _ = gpu.bc_levels(hd, dist_d)
    np.testing.assert_array_equal(cp.asnumpy(level_d), level_c)
    n, kb = level_c.shape
    index = gpu.bc_level_index(hd, level_d) if push or listed else None
    if push:
        reached = level_c >= 0
        want = np.bincount(level_c[reached], weights=np.repeat(np.diff(g.indptr), kb)[reached.ravel()],
                           minlength=128)
        np.testing.assert_array_equal(index.arcs, want.astype(np.int64))
    index = index if listed else None
    weight = rng.integers(0, 2, n).astype(np.float64)          # a random target set
    sig_c = np.zeros((n, kb))
    sig_c[ids, np.arange(kb)] = 1
    sig_d = cp.asarray(sig_c)
    deepest = int(level_c.max())
    for at in range(1, deepest + 1):
        cpu.bc_sigma_level(hc, level_c, dist_c, sig_c, at, index=index_c)
        gpu.bc_sigma_level(hd, level_d, dist_d, sig_d, at, push=push, index=index)
    close(cp.asnumpy(sig_d), sig_c)
    counts_c, counts_d = sig_c.copy(), sig_d.copy()
    sh_c, sh_d = np.zeros((n, kb)), cp.zeros((n, kb))
    for at in range(deepest, 0, -1):
        cpu.bc_delta_level(hc, level_c, dist_c, sig_c, sh_c, weight, at, index=index_c)
        gpu.bc_delta_level(hd, level_d, dist_d, sig_d, sh_d, cp.asarray(weight), at, push=push, index=index)
        close(cp.asnumpy(sh_d), sh_c)
    close(cp.asnumpy(sig_d), sig_c)
    arc_c, arc_d = np.zeros(g.num_arcs), cp.zeros(g.num_arcs)
    cpu.bc_edge_dependency(hc, level_c, dist_c, counts_c, sh_c, arc_c)
    gpu.bc_edge_dependency(hd, level_d, dist_d, counts_d, sh_d, arc_d)
    close(cp.asnumpy(arc_d), arc_c)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("hub", [False, True])
@pytest.mark.parametrize("push,listed", [(True, False), (True, True), (False, True)])
@pytest.mark.parametrize("tiles", [0, 32], ids=["one tile", "tiles of 32 or 64 sources"])
def test_pushed_and_listed_levels_match_their_twins(gpu, cpu, lanes, directed, hub, push, listed, tiles):
    """BFS levels swept from the other end (push: atomic adds from level at - 1 along out-arcs,
    or from level at + 1 along in-arcs) at every level, and sweeps that visit only the tasks
    their level's index lists (pulled or pushed), hub lists in several pieces or not, the
    lists in one launch or a launch a tile of sources (BrandesSweeps.tile_sources)."""
    from curnet.backends.brandes import ARC_PIECE
    rng = np.random.default_rng(29)
    if hub:
        g = hub_graph(rng, 400, 1200, 3 * ARC_PIECE + 5, directed=directed, weighted=False)
    else:
        g = random_graph(rng, 300, 1500, directed=directed, weighted=False)
    ids = rng.choice(len(g), 70, replace=False).astype(np.int32)     # kb not a multiple of 32
    before = gpu.brandes.tile_sources, gpu.brandes.tile_arcs
    gpu.brandes.tile_sources = {"sigma": 2 * tiles, "delta": tiles, "push": tiles}
    gpu.brandes.tile_arcs = 0                          # tiles at every level
    try:
        compare_kernels(gpu, cpu, g, ids, False, rng, push=push, listed=listed)
    finally:
        gpu.brandes.tile_sources, gpu.brandes.tile_arcs = before


def layered_graph(width, layers, *, directed):
    """Vertex 0, then `layers` layers of `width` vertices, each joined to every vertex of the
    next: a vertex of layer d has width ** (d - 1) shortest paths from vertex 0."""
    layer = [np.array([0])] + [1 + d * width + np.arange(width) for d in range(layers)]
    src = np.concatenate([np.repeat(a, len(b)) for a, b in zip(layer, layer[1:])])
    dst = np.concatenate([np.tile(b, len(a)) for a, b in zip(layer, layer[1:])])
    return curnet.Graph.from_edges(src, dst, directed=directed, num_vertices=1 + width * layers)


@pytest.mark.parametrize("directed", [False, True])
def test_narrowed_counts_give_the_same_counts(gpu, cpu, lanes, directed):
    """Path counts copied as float32 for the next level's level-free pull (NarrowCounts),
    forced at every level: before the last level's pull the block holds each count below 2^24
    and -1 above (the layered graph's counts reach 64^5 = 2^30 at level 6, 2^24 at level 5,
    so the pull reads the doubles there), 0 elsewhere, and the pull frees it; sigma is the same as the pulls' that test each neighbour's level, bit
    for bit where no hub's pieces add atomically (within 1e-9 on a hub graph), and the
    twins'."""
    from curnet.backends.brandes import ARC_PIECE
    rng = np.random.default_rng(31)
    graphs = (layered_graph(64, 6, directed=directed), random_graph(rng, 300, 1500, directed=directed, weighted=False),
              hub_graph(rng, 400, 1200, 3 * ARC_PIECE + 5, directed=directed, weighted=False))
    before = gpu.brandes.narrow_ratio
    for g in graphs:
        hg, hc = gpu.device_graph(g), cpu.device_graph(g)
        ids = np.r_[0, rng.choice(np.arange(1, len(g)), 69, replace=False)].astype(np.int32)
        level_d = shortest_path_dag(gpu, hg, ids, False, None).level
        level = cp.asnumpy(level_d)
        n, kb = level.shape
        deepest = int(level.max())
        sigma = {}
        for ratio in (None, 0):
            gpu.brandes.narrow_ratio = ratio
            try:
                index = gpu.bc_level_index(hg, level_d)
                sig = cp.zeros((n, kb))
                sig[cp.asarray(ids), cp.arange(kb)] = 1
                for at in range(1, deepest + 1):
                    if at == deepest:         # the copies before the last level's pull, which drops them
                        kept, copied = cp.asnumpy(index.narrow.block), set(index.narrow.levels)
                    gpu.bc_sigma_level(hg, level_d, None, sig, at, index=index)
                sigma[ratio] = cp.asnumpy(sig)
            finally:
                gpu.brandes.narrow_ratio = before
        assert copied == set(range(1, deepest)) and index.narrow.levels == set()
        on = (level >= 1) & (level < deepest)
        want = np.where(sigma[0] < 2 ** 24, sigma[0], -1).astype(np.float32)
        np.testing.assert_array_equal(kept, np.where(on, want, 0))
        assert (want[on] == -1).any() == (g is graphs[0])
        (close if g is graphs[2] else np.testing.assert_array_equal)(sigma[0], sigma[None])
        sig_c = np.zeros((n, kb))
        sig_c[ids, np.arange(kb)] = 1
        for at in range(1, deepest + 1):
            cpu.bc_sigma_level(hc, level, None, sig_c, at)
        close(sigma[0], sig_c)


@pytest.mark.parametrize("kb", [1, 70, 96])
def test_level_index_lists_each_levels_tasks(gpu, kb):
    """LevelIndex's bits and the task lists made from them (bc_level_tasks), against the same
    count on the host: for each level, the (piece, 32 or 64 sources) tasks with a lane there,
    and the (vertex, 32 or 64 sources) groups, of all groups or of a tile of them; a level past
    the bits (64) lists nothing, so its sweeps visit every task."""
    from curnet.backends.brandes import arc_pieces
    from curnet.backends.cuda.brandes import LISTED_LEVELS, pieces
    from curnet.backends.cuda.launch import NULL
    rng = np.random.default_rng(kb)
    g = curnet.Graph.from_edges(np.r_[rng.integers(0, 300, 900), np.arange(299, 379)],
                                np.r_[rng.integers(0, 300, 900), np.arange(300, 380)],
                                directed=False, num_vertices=400)       # a tail 80 levels deep
    hg = gpu.device_graph(g)
    ids = np.r_[379, rng.choice(400, kb - 1, replace=False)].astype(np.int32)
    level_d = shortest_path_dag(gpu, hg, ids, False, None).level
    level = cp.asnumpy(level_d)
    assert level_d.dtype == np.int8 and level.max() >= LISTED_LEVELS
    index = gpu.bc_level_index(hg, level_d)
    np.testing.assert_array_equal(index.entries, np.bincount(level[level >= 0], minlength=128))
    groups = (kb + 31) // 32
    padded = np.full((len(g), groups * 32), -1, np.int16)
    padded[:, :kb] = level
    held = padded.reshape(len(g), groups, 32)
    bits = sum((np.any(held == at, axis=2).astype(np.uint64) << np.uint64(at)) for at in range(LISTED_LEVELS))
    np.testing.assert_array_equal(cp.asnumpy(index.levels), bits)
    row, _ = arc_pieces(g.indptr)
    for lane in (1, 2):                 # tasks of 32 or 64 sources: the bits of 1 or 2 words OR'ed
        span = (kb + 32 * lane - 1) // (32 * lane) * 32 * lane
        wide = np.full((len(g), span), -1, np.int16)
        wide[:, :kb] = level
        held = wide.reshape(len(g), -1, 32 * lane)
        for at in (0, 1, 3, int(level.max())):
            total = held.shape[1]
            for (rows, count), (first, last) in itertools.product(((pieces(hg, True)[0], len(row)), (NULL, len(g))),
                                                                  ((0, None), (0, 1), (1, total))):
                tasks, ntasks = gpu.brandes._tasks(index, rows, count, kb, at, lane, first, last)
                if at >= LISTED_LEVELS:
                    assert (tasks, ntasks) == (NULL, NULL)
                    continue
                vertex = row if rows is not NULL else np.arange(len(g))
                on = np.any(held[vertex] == at, axis=2)
                on[:, :first] = False                    # a tile: groups first .. last - 1
                on[:, total if last is None else last:] = False
                want = np.flatnonzero(on.ravel())
                got = np.sort(cp.asnumpy(tasks[:int(ntasks[0])]))
                np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("directed,weighted,dtype", CASES)
@pytest.mark.parametrize("cutoff", [None, 2])
def test_gpu_betweenness_matches_cpu(gpu, cpu, directed, weighted, dtype, cutoff):
    rng = np.random.default_rng(11)
    for n, m in ((1, 0), (40, 100), (500, 3000)):
        g = random_graph(rng, n, m, directed=directed, weighted=weighted, dtype=dtype)
        for kwargs in ({}, {"normalized": True}, {"endpoints": True},
                       {"sources": list(range(0, n, 3)), "targets": list(range(1, n, 2)) or [0]},
                       {"k": max(1, n // 4), "seed": 3}):
            close(curnet.betweenness(g, cutoff=cutoff, backend="cuda", **kwargs),
                  curnet.betweenness(g, cutoff=cutoff, backend="cpu", **kwargs))
            kwargs.pop("endpoints", None)
            close(curnet.edge_betweenness(g, cutoff=cutoff, backend="cuda", **kwargs),
                  curnet.edge_betweenness(g, cutoff=cutoff, backend="cpu", **kwargs))


def test_gpu_batches_split_and_sum(gpu, cpu):
    """Many batches (a batch limit of 64 sources) sum to the one-batch result."""
    rng = np.random.default_rng(5)
    g = random_graph(rng, 2000, 10000, directed=True, weighted=False)
    whole = curnet.betweenness(g, backend="cuda")
    before = gpu.tuning.batch_limit
    gpu.tuning.batch_limit = 64
    try:
        close(curnet.betweenness(g, backend="cuda"), whole)
    finally:
        gpu.tuning.batch_limit = before
    close(whole, curnet.betweenness(g, backend="cpu"))


def test_gpu_float32_weights_find_ties(gpu):
    g = curnet.Graph.from_edges([0, 1, 0], [1, 2, 2], [0.1, 0.2, 0.3], directed=True)
    assert curnet.betweenness(g, backend="cuda").tolist() == [0.0, 0.5, 0.0]


@pytest.mark.parametrize("directed", [True, False])
def test_gpu_int8_and_int32_levels_match_cpu(gpu, cpu, directed):
    """BFS levels narrowed to int8 (a path of 100) and kept int32 (a path of 200: 199 levels)."""
    for length in (100, 200):
        g = curnet.Graph.from_edges(np.arange(length - 1), np.arange(1, length), directed=directed)
        close(curnet.betweenness(g, backend="cuda"), curnet.betweenness(g, backend="cpu"))
        close(curnet.edge_betweenness(g, backend="cuda"), curnet.edge_betweenness(g, backend="cpu"))


@pytest.mark.parametrize("weighted,dtype", [(False, np.float32), (True, np.float32), (True, np.float64)])
def test_gpu_folded_leaves_match_cpu(gpu, cpu, weighted, dtype):
    """Leaf sources folded into their neighbours' columns (an undirected hub graph with 400
    leaves hung on it, parallel leaf edges too), anchors spread over batches of 64: the
    multiplicities and corrections on the device give the CPU's sums; as many traversals."""
    from curnet.work import count_work
    rng = np.random.default_rng(29)
    hub = hub_graph(rng, 300, 900, 40, directed=False, weighted=weighted, dtype=dtype)
    src, dst, w = hub.edges()
    leaf_src = np.r_[np.arange(300, 700), np.arange(300, 320)]
    leaf_dst = np.r_[rng.integers(0, 300, 400), np.zeros(20, np.int64)]
    leaf_dst[-20:] = leaf_dst[:20]                  # the first 20 leaves' edges doubled
    lw = None if w is None else np.r_[w, rng.integers(1, 4, len(leaf_src)).astype(dtype)]
    g = curnet.Graph.from_edges(np.r_[src, leaf_src], np.r_[dst, leaf_dst], lw, directed=False,
                                num_vertices=700, dtype=dtype)
    before = gpu.tuning.batch_limit
    gpu.tuning.batch_limit = 64
    try:
        for kwargs in ({}, {"normalized": True}, {"sources": list(range(250, 700, 3)), "targets": list(range(0, 700, 2))},
                       {"k": 350, "seed": 4}):
            with count_work() as on_gpu:
                ours = curnet.betweenness(g, backend="cuda", **kwargs)
            with count_work() as on_cpu:
                close(ours, curnet.betweenness(g, backend="cpu", **kwargs))
            assert on_gpu["betweenness sources traversed"] == on_cpu["betweenness sources traversed"]
            assert on_gpu["betweenness leaf sources folded"] > 0
    finally:
        gpu.tuning.batch_limit = before


@pytest.mark.parametrize("directed", [False, True])
def test_breadth_first_rank_on_the_gpu_is_the_hosts(gpu, directed):
    """The batch order's ranks found on the GPU (algorithms.order.bfs_order over the device's
    arrays) equal the host's (the same search on NumPy, which test_betweenness.py holds to
    SciPy's order); the sources are then sorted by them."""
    from curnet.algorithms.betweenness.source_order import breadth_first_rank, near_sources_together
    for seed in range(6):
        rng = np.random.default_rng(seed)
        n, m = int(rng.integers(50, 3000)), int(rng.integers(0, 9000))
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        g = curnet.Graph.from_edges(src, dst, directed=directed, num_vertices=n)
        # another graph of the same arcs: the rank is kept with the graph, whichever device found it
        host = breadth_first_rank(curnet.Graph.from_edges(src, dst, directed=directed, num_vertices=n))
        on_gpu = breadth_first_rank(g, gpu)
        assert isinstance(on_gpu, np.ndarray) and np.array_equal(on_gpu, host)
        ids = rng.permutation(n).astype(np.int32)
        assert np.array_equal(near_sources_together(g, ids, gpu), ids[np.argsort(host[ids], kind="stable")])
