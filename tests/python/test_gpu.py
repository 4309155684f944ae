"""The CUDA backend against its NumPy twins and against scipy.sparse.csgraph.

Every test here is marked `gpu` and skipped when CuPy or a CUDA device is missing.
Run on a GPU machine with `scripts/gpu-check.sh` (or `pytest -m gpu tests/python/test_gpu.py`).
"""
from __future__ import annotations

import contextlib
import gc
import os
import time

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from curnet.backends import cuda_available, get_backend
from curnet.errors import NegativeCycleError
from curnet.graph import Graph
from curnet import generators
from curnet.algorithms.bfs import bfs
from curnet.algorithms.scc import scc
from curnet.algorithms.sssp import sssp, sssp_dists
from curnet.algorithms.scc import canonical_labels
from curnet.backends.arrays import tight_predecessors
from oracles import check_predecessors, check_preds_exact, f64_graph

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")]

if cuda_available():
    import cupy as cp
else:  # pragma: no cover
    cp = None

SCNET = os.path.join(os.path.dirname(__file__), "..", "..", ".data", "H_sapiens.net")


@pytest.fixture(scope="module")
def gpu():
    return get_backend("cuda")


@pytest.fixture(scope="module")
def cpu():
    return get_backend("cpu")


def random_graph(rng, n, m, *, directed=True, weighted=False, negative=False, dtype=np.float32):
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = None
    if weighted:
        w = rng.random(m).astype(dtype) + dtype(0.01)
        if negative:   # negative arcs only forward in id order: no cycles through them
            neg = (src < dst) & (rng.random(m) < 0.3)
            w[neg] = -rng.random(int(neg.sum())).astype(dtype)
            keep = (src < dst) | (w > 0)
            src, dst, w = src[keep], dst[keep], w[keep]
            # all positive arcs go forward too, so the graph is a DAG
            fwd = src < dst
            src, dst, w = src[fwd], dst[fwd], w[fwd]
    return Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=dtype)


def scipy_matrix(g):
    w = g.weights if g.weights is not None else np.ones(len(g.indices))
    return sp.csr_matrix((w.astype(np.float64), g.indices, g.indptr), shape=(len(g), len(g)))


def scipy_depths(g, sources):
    d = csgraph.shortest_path(scipy_matrix(g), method="D", directed=True, unweighted=True, indices=sources)
    return np.where(np.isinf(d), -1, d).astype(np.int32)


def check_preds(g, sources, dist, pred, rtol=1e-5):
    """pred is a valid shortest-path tree for dist: tight arcs, no cycles."""
    assert not get_backend("cpu").pred_has_cycle(np.asarray(pred)).any()
    m = scipy_matrix(g).tocoo()
    best = {}
    for u, v, w in zip(m.row.tolist(), m.col.tolist(), m.data.tolist()):
        best[(u, v)] = min(best.get((u, v), np.inf), w)
    for r, s in enumerate(sources):
        assert pred[r, s] == -1
        for v in np.flatnonzero(pred[r] >= 0)[:300].tolist():
            u = int(pred[r, v])
            assert (u, v) in best
            assert abs(dist[r, u] + best[(u, v)] - dist[r, v]) <= rtol * (1 + abs(dist[r, v]))
        assert np.all((pred[r] >= 0) | np.isinf(dist[r]) | (np.arange(len(g)) == s))


def dev(hg_or_a):
    return cp.asarray(hg_or_a)


def gpu_relax(gpu, hg, dist, pred, active, jacobi=False):
    """One GPU Bellman-Ford round on (dist, pred) arrays, in place: the CPU twin's `relax`
    contract, through the backend's own batch state (sp_relax / sp_finish). float64 (and
    float32 with `jacobi`) takes Jacobi rounds, float32 the packed word."""
    bf = gpu.bf_strategy
    track = pred is not None
    if dist.dtype == np.float64 or jacobi:
        state = bf.state(dist, pred if track else cp.full(dist.shape, -1, np.int32), "jacobi", [])
    else:
        state = bf.state(dist, pred, "packed32" if track else "dist32", [])
    nxt = gpu.sp_relax(hg, state, active)
    d, p = gpu.sp_finish(state, track)
    dist[...] = d
    if track:
        pred[...] = p
    return nxt


# -- primitives against their NumPy twins --------------------------------------------------

@pytest.mark.parametrize("k", [1, 5, 64, 65, 200])
@pytest.mark.parametrize("directed", [True, False])
def test_bits_primitives(gpu, cpu, k, directed):
    rng = np.random.default_rng(k + directed)
    g = random_graph(rng, 300, 1500, directed=directed)
    hc, hd = cpu.device_graph(g), gpu.device_graph(g)
    sources = rng.integers(0, 300, k).astype(np.int32)
    seen_c = cpu.seed_bits(300, sources)
    seen_g = gpu.bfs_strategy.seed_bits(300, sources)
    assert np.array_equal(seen_c, seen_g.get())
    assert np.array_equal(cpu.padding_bits(k), gpu.bfs_strategy.padding_bits(k).get())
    # random frontier and seen words, some rows full
    W = seen_c.shape[1]
    frontier = rng.integers(0, 2**63, (300, W), dtype=np.uint64) & rng.integers(0, 2**63, (300, W), dtype=np.uint64)
    frontier[rng.random(300) < 0.5] = 0
    seen = rng.integers(0, 2**63, (300, W), dtype=np.uint64)
    seen[rng.random(300) < 0.2] = np.uint64(0xFFFFFFFFFFFFFFFF)
    new_c = cpu.expand_bits(hc, frontier, seen)
    strategy = gpu.bfs_strategy                  # the traversal's own expand (pull) path
    amask = strategy.active_words(dev(frontier))
    new_g = cp.zeros((300, W), np.uint64)
    strategy.expand(hd, dev(frontier), dev(seen), amask, new_g)
    assert np.array_equal(new_c, new_g.get())
    # depths written from one level's bits (the traversal's flush): level 3 at each set bit
    bits = np.unpackbits(new_c.view(np.uint8), axis=1, bitorder="little")[:, :k].view(bool)
    for dtype in (np.int32, np.int64, np.float32, np.float64):
        depth_c = np.where(bits, 3, -1).astype(dtype)
        depth_g = cp.full((300, k), -1, dtype)
        strategy.flush_depths({"pending": [(3, new_g)], "flushed": True, "seen": new_g,
                               "unreachable": -1}, depth_g)
        assert np.array_equal(depth_c, depth_g.get())


@pytest.mark.parametrize("chunk", [8, 256])
def test_bits_expand_stops_at_a_full_word(gpu, cpu, monkeypatch, chunk):
    """The pull stops reading a run's arcs once the head's seen word and the bits gathered
    cover it. Hubs whose in-arcs span many chunks (8 arcs a chunk: the shared runs' atomics)
    and dense frontier words fill words early; the new bits equal the NumPy twin's, the
    padding of the last word (130 sources) counted as seen."""
    monkeypatch.setattr(gpu.tuning, "expand_chunk", chunk)
    rng = np.random.default_rng(chunk)
    n, k = 3000, 130
    hubs = rng.integers(0, n, 3000)
    src = np.r_[np.arange(n), np.arange(n), rng.integers(0, n, len(hubs))]
    dst = np.r_[np.zeros(n, np.int64), np.full(n, 7), hubs]
    g = Graph.from_edges(src, dst, directed=True, num_vertices=n)
    W = (k + 63) // 64
    ones = np.iinfo(np.uint64).max
    frontier = rng.integers(0, ones, (n, W), dtype=np.uint64, endpoint=True)
    frontier[rng.random(n) < 0.3] = 0
    frontier[rng.random(n) < 0.05] = ones
    seen = rng.integers(0, ones, (n, W), dtype=np.uint64, endpoint=True) & rng.integers(0, ones, (n, W), dtype=np.uint64, endpoint=True)
    seen |= cpu.padding_bits(k)
    new_c = cpu.expand_bits(cpu.device_graph(g), frontier, seen)
    strategy = gpu.bfs_strategy
    new_g = cp.zeros((n, W), np.uint64)
    strategy.expand(gpu.device_graph(g), cp.asarray(frontier), cp.asarray(seen),
                    strategy.active_words(cp.asarray(frontier)), new_g)
    assert np.array_equal(new_c, new_g.get())
    assert new_c[0].any() and new_c[7].any()


@pytest.mark.parametrize("dtype,jacobi", [(np.float32, False), (np.float32, True), (np.float64, True)])
@pytest.mark.parametrize("with_pred", [True, False])
def test_relax_twin(gpu, cpu, dtype, jacobi, with_pred):
    """Jacobi rounds (float64; float32 where zero or negative weights meet predecessors) equal
    the twin's round by round, predecessors included; packed float32 rounds are chaotic (a
    tail lowered in a round may relax its arcs with the new value), so they are compared at
    convergence."""
    rng = np.random.default_rng(7)
    g = random_graph(rng, 200, 1200, weighted=True, dtype=dtype)
    hc, hd = cpu.device_graph(g), gpu.device_graph(g)
    kb = 3
    dist = np.where(rng.random((kb, 200)) < 0.5, (rng.random((kb, 200)) * 3).astype(dtype), np.inf).astype(dtype)
    pred = np.where(np.isfinite(dist), rng.integers(0, 200, (kb, 200)), -1).astype(np.int32)
    active = np.isfinite(dist) & (rng.random((kb, 200)) < 0.5)
    dc, pc, ac = dist.copy(), pred.copy(), active.copy()
    dg, pg, ag = cp.asarray(dist), cp.asarray(pred), cp.asarray(active)
    for _ in range(500):
        ac = cpu.relax(hc, dc, pc, ac)
        ag = gpu_relax(gpu, hd, dg, pg if with_pred else None, ag, jacobi=jacobi)
        if jacobi:
            assert np.array_equal(dc, dg.get())
            assert np.array_equal(ac, ag.get())
            if with_pred:
                assert np.array_equal(pc, pg.get())
        if not ac.any() and not bool(ag.any()):
            break
    assert not ac.any() and not bool(ag.any())
    assert np.array_equal(dc, dg.get())
    if with_pred:
        pgh, lowered = pg.get(), dc < dist
        assert np.array_equal(pc[~lowered], pgh[~lowered])
        coo = scipy_matrix(g).tocoo()
        best = {}
        for u, v, w in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()):
            best[(u, v)] = min(best.get((u, v), np.inf), w)
        for r, v in zip(*np.nonzero(lowered)):
            u = int(pgh[r, v])
            assert dtype(dc[r, u] + dtype(best[(u, v)])) == dc[r, v]


def test_cuda_backends_have_the_whole_contract(gpu):
    from contract_names import missing
    assert missing(gpu) == [] and hasattr(gpu, "near_far")
    assert gpu.members == [gpu]
    assert gpu.to_host(gpu.xp.arange(3)).tolist() == [0, 1, 2]


def test_pred_has_cycle_twin(gpu, cpu):
    rng = np.random.default_rng(3)
    pred = rng.integers(-1, 50, (6, 50)).astype(np.int32)
    pred[0] = -1
    pred[1] = np.r_[-1, np.arange(49)]          # a chain: no cycle
    assert np.array_equal(cpu.pred_has_cycle(pred), gpu.pred_has_cycle(cp.asarray(pred)).get())


@pytest.mark.parametrize("seed", range(3))
def test_scc_primitives_twin(gpu, cpu, seed):
    rng = np.random.default_rng(seed)
    g = random_graph(rng, 400, 900, directed=True)
    # add heavy vertices so the warp-per-vertex kernel runs
    hub_src = np.r_[np.zeros(300, np.int32), rng.integers(0, 400, 300).astype(np.int32)]
    hub_dst = np.r_[rng.integers(0, 400, 300).astype(np.int32), np.ones(300, np.int32)]
    g = Graph.from_edges(np.r_[g.edge_sources(), hub_src], np.r_[g.indices, hub_dst], directed=True,
                         num_vertices=400)
    hc, hd = cpu.device_graph(g), gpu.device_graph(g)
    alive = rng.random(400) < 0.8
    for passes in (1, 2, 8, 1000):
        assert np.array_equal(cpu.trim(hc, alive, passes), gpu.trim(hd, cp.asarray(alive), passes).get())
    values = np.where(rng.random(400) < 0.1, rng.integers(0, 1000, 400), -1).astype(np.int32)
    colors = rng.integers(0, 3, 400).astype(np.int32)
    for backward in (False, True):
        for col in (None, colors):
            a = cpu.propagate_max(hc, values, alive, col, backward=backward)
            b = gpu.propagate_max(hd, cp.asarray(values), cp.asarray(alive),
                                  None if col is None else cp.asarray(col), backward=backward)
            assert np.array_equal(a, b.get())


@pytest.mark.parametrize("seed", range(3))
def test_bfs_one_backward_twin(gpu, cpu, seed):
    """One-source BFS along the arcs and against them (SCC's pivot searches), on the GPU,
    its CPU twin and SciPy (the transposed matrix), with hubs so bottom-up levels run."""
    rng = np.random.default_rng(seed)
    n = [300, 5000, 20000][seed]
    g = random_graph(rng, n, 4 * n, directed=True)
    hub = np.r_[np.zeros(n // 2, np.int32), rng.integers(0, n, n // 2).astype(np.int32)]
    g = Graph.from_edges(np.r_[g.edge_sources(), hub], np.r_[g.indices, hub[::-1]], directed=True, num_vertices=n)
    hc, hd = cpu.device_graph(g), gpu.device_graph(g)
    a = scipy_matrix(g)
    for s in rng.integers(0, n, 4).tolist() + [0]:
        for backward in (False, True):
            ref = csgraph.shortest_path(a.T if backward else a, unweighted=True, indices=s)
            ref = np.where(np.isinf(ref), -1, ref).astype(np.int32)
            assert np.array_equal(gpu.bfs_one(hd, s, backward).get(), ref)
            assert np.array_equal(cpu.bfs_one(hc, s, backward), ref)
            column = cp.full(n, 7, np.int32)             # the public call's route: into its block
            assert gpu.bfs_one(hd, s, backward, out=column) is column
            assert np.array_equal(column.get(), ref)


@pytest.mark.parametrize("alpha,beta", [(1, 24), (10**6, 10**6), (2, 1), (14, 24)])
def test_bfs_one_direction_knobs(gpu, monkeypatch, alpha, beta):
    """CudaTuning.bfs_one_alpha / bfs_one_beta steer the direction switches (mostly top-down,
    bottom-up from the first wide level on, switching back at once, the defaults); the depths
    are SciPy's whatever they say, both ways along the arcs."""
    monkeypatch.setattr(gpu.tuning, "bfs_one_alpha", alpha)
    monkeypatch.setattr(gpu.tuning, "bfs_one_beta", beta)
    g = generators.rmat(13, seed=6, directed=True)
    hd, a = gpu.device_graph(g), scipy_matrix(g)
    for s in np.random.default_rng(6).choice(np.flatnonzero(np.diff(g.indptr) > 0), 3).tolist():
        for backward in (False, True):
            ref = csgraph.shortest_path(a.T if backward else a, unweighted=True, indices=s)
            assert np.array_equal(gpu.bfs_one(hd, s, backward).get(), np.where(np.isinf(ref), -1, ref))


@pytest.mark.parametrize("backward", [False, True])
def test_bottom_up_levels_look_only_at_vertices_left_open(gpu, monkeypatch, backward):
    """With every level bottom-up (alpha and beta past any frontier), the first level looks at
    the vertices with in-arcs and each later one only at those the level before left
    unvisited: the vertices looked at, counted on the device, are exactly that sum (and the
    depths SciPy's). Isolated vertices and a second component make the lists shorter than n."""
    monkeypatch.setattr(gpu.tuning, "bfs_one_alpha", 10**6)
    monkeypatch.setattr(gpu.tuning, "bfs_one_beta", 10**6)
    rng = np.random.default_rng(11)
    g0 = generators.rmat(12, seed=3, directed=True)
    n = len(g0) + 500                                  # 500 isolated vertices past R-MAT's
    extra = np.arange(len(g0) + 100, len(g0) + 140, dtype=np.int32)   # a 40-cycle apart
    g = Graph.from_edges(np.r_[g0.edge_sources(), extra], np.r_[g0.indices, np.roll(extra, 1)],
                         directed=True, num_vertices=n)
    hd, a = gpu.device_graph(g), scipy_matrix(g)
    up = np.diff(g.indptr) if backward else np.diff(g.csc()[0])    # in-degree along the search
    for s in rng.choice(np.flatnonzero((np.diff(g.csc()[0] if backward else g.indptr) > 0)[:len(g0)]), 3):
        ref = csgraph.shortest_path(a.T if backward else a, unweighted=True, indices=int(s))
        ref = np.where(np.isinf(ref), -1, ref).astype(np.int64)
        before = dict(gpu.stats)
        assert np.array_equal(gpu.bfs_one(hd, int(s), backward).get(), ref)
        grew = {k: gpu.stats.get(k, 0) - before.get(k, 0) for k in gpu.stats}
        last = int(ref.max()) + 1                       # the level that finds nothing
        assert grew["bfs_one_pull_levels"] == last and grew["bfs_one_push_levels"] == 0
        with_in = up > 0
        expected = int(with_in.sum()) + sum(int((with_in & ((ref >= level) | (ref < 0))).sum())
                                            for level in range(2, last + 1))
        assert grew["bfs_one_pull_vertices"] == expected < last * n


@pytest.mark.parametrize("seed", range(4))
def test_device_loops_match_the_host_loops(gpu, monkeypatch, seed):
    """The one-source BFS, SCC's propagation and its trimming with their loops on the device
    (one cooperative launch each) against the per-level launches: equal depths, values and
    trimmed sets, one launch a call, the same number of trimming passes, and as many levels
    as the deepest vertex's depth (+1, the level that finds nothing)."""
    rng = np.random.default_rng(seed)
    if seed < 2:
        n = [2000, 30000][seed]
        g = random_graph(rng, n, 3 * n, directed=True)
        hub = np.r_[np.zeros(n // 3, np.int32), rng.integers(0, n, n // 3).astype(np.int32)]
        g = Graph.from_edges(np.r_[g.edge_sources(), hub], np.r_[g.indices, hub[::-1]], directed=True,
                             num_vertices=n)
    else:
        g = [generators.rmat(14, seed=seed, directed=True), generators.grid(40, 60)][seed - 2]
    hd, n = gpu.device_graph(g), len(g)
    for s in rng.integers(0, n, 3).tolist():
        for backward in (False, True):
            monkeypatch.setattr(gpu.tuning, "device_loops", False)
            ref = gpu.bfs_one(hd, s, backward).get()
            monkeypatch.setattr(gpu.tuning, "device_loops", True)
            for warp_list in (1, 64):         # bottom-up lists by the warp (past 1 or 64 arcs)
                monkeypatch.setattr(gpu.tuning, "bfs_one_warp_list", warp_list)
                assert np.array_equal(gpu.bfs_one(hd, s, backward).get(), ref)
            monkeypatch.setattr(gpu.tuning, "bfs_one_warp_list", 0)
            before = dict(gpu.stats)
            got = gpu.bfs_one(hd, s, backward).get()
            assert np.array_equal(got, ref)
            grew = {k: gpu.stats.get(k, 0) - before.get(k, 0) for k in gpu.stats}
            assert grew["bfs_one_loop_launches"] == 1
            assert grew["bfs_one_levels"] == got.max()
            assert grew["bfs_one_push_levels"] + grew["bfs_one_pull_levels"] == got.max() + 1
    alive = cp.asarray(rng.random(n) < 0.9)
    values = cp.asarray(np.where(rng.random(n) < 0.05, rng.integers(0, 10**6, n), -1).astype(np.int32))
    colors = cp.asarray(rng.integers(0, 2, n).astype(np.int32))
    for backward in (False, True):
        for col in (None, colors):
            monkeypatch.setattr(gpu.tuning, "device_loops", False)
            ref = gpu.propagate_max(hd, values, alive, col, backward=backward).get()
            monkeypatch.setattr(gpu.tuning, "device_loops", True)
            before = gpu.stats.get("propagate_loop_launches", 0)
            assert np.array_equal(gpu.propagate_max(hd, values, alive, col, backward=backward).get(), ref)
            assert gpu.stats["propagate_loop_launches"] == before + 1
    for passes in (1, 3, 8, 10**6):
        monkeypatch.setattr(gpu.tuning, "device_loops", False)
        before = gpu.stats.get("trim_passes", 0)
        ref = gpu.trim(hd, alive, passes).get()
        host_passes = gpu.stats["trim_passes"] - before
        monkeypatch.setattr(gpu.tuning, "device_loops", True)
        before = (gpu.stats.get("trim_loop_launches", 0), gpu.stats["trim_passes"])
        assert np.array_equal(gpu.trim(hd, alive, passes).get(), ref)
        assert gpu.stats["trim_loop_launches"] == before[0] + 1
        assert gpu.stats["trim_passes"] - before[1] == host_passes <= passes


@pytest.mark.parametrize("pull", [True, False])
def test_bfs_loop_block_buffers_overflow(gpu, monkeypatch, pull):
    """The one-source BFS loop buffers a block's light-queue and open-list appends in shared
    memory (kernels/bfs.cu BFS_BLOCK_QUEUE entries a block and queue; common.cuh BlockQueue)
    and sends the rest to the global queue. The source reaches h vertices, each with a leaf of
    its own, and h more vertices form a cycle it cannot reach: a level finds (or, bottom-up,
    leaves) more than twice a block's room in every block. Pulling, level 1 finds the h and
    leaves the cycle, level 2 looks only at those it left; pushing (alpha 0), level 2 walks
    the light queue level 1 wrote. Depths are known exactly; the bottom-up levels looked at
    exactly the vertices they should."""
    import re
    from curnet.backends.cuda.launch import kernel_source, resident
    room = int(re.search(r"#define BFS_BLOCK_QUEUE (\d+)", kernel_source("bfs")).group(1))
    h = 3_000_000
    assert h // resident("bfs", "bfs_one_loop") > 2 * room
    if not pull:
        monkeypatch.setattr(gpu.tuning, "bfs_one_alpha", 0)
    monkeypatch.setattr(gpu.tuning, "device_loops", True)
    reached, cycle, leaves = 1 + np.arange(h), 1 + h + np.arange(h), 1 + 2 * h + np.arange(h)
    src = np.concatenate([np.zeros(h, np.int64), reached, cycle])
    dst = np.concatenate([reached, leaves, np.roll(cycle, 1)])
    g = Graph.from_edges(src, dst, directed=True, num_vertices=1 + 3 * h)
    want = np.concatenate([[0], np.ones(h), np.full(h, -1), np.full(h, 2)]).astype(np.int32)
    hd = gpu.device_graph(g)
    before = dict(gpu.stats)
    assert np.array_equal(gpu.bfs_one(hd, 0).get(), want)
    grew = {k: gpu.stats.get(k, 0) - before.get(k, 0) for k in gpu.stats}
    assert grew["bfs_one_loop_launches"] == 1
    # pulling, level 1 looks at every vertex with in-arcs (3h), levels 2 and 3 at those left
    # unvisited (the cycle and the leaves, then the cycle)
    assert grew.get("bfs_one_pull_vertices", 0) == (6 * h if pull else 0)
    assert grew.get("bfs_one_pull_levels", 0) == (3 if pull else 0)


def test_device_loop_past_the_level_limit(gpu, monkeypatch):
    """A one-source BFS on the device stops at tuning.long_levels, marks the graph
    long-diameter and finishes on the host, as the host loop does."""
    monkeypatch.setattr(gpu.tuning, "long_levels", 100)
    g = generators.path(500, directed=True)
    hd = gpu.device_graph(g)
    assert np.array_equal(gpu.bfs_one(hd, 0).get(), np.arange(500))
    assert hd.long_diameter


@pytest.fixture(params=["one launch", "driver"])
def scc_route(gpu, request, monkeypatch):
    """SCC by each route of the CUDA backend: every graph in one launch (scc_whole), or none
    (the driver over the primitives); the test's scc calls are checked to have taken it."""
    one = request.param == "one launch"
    monkeypatch.setattr(gpu.tuning, "scc_one_launch_arcs", 1 << 40 if one else 0)
    before = gpu.stats.get("scc_one_launch_runs", 0)
    yield request.param
    ran = gpu.stats.get("scc_one_launch_runs", 0) - before
    assert ran > 0 if one else ran == 0


def test_scc_route_by_size(gpu, monkeypatch):
    """Graphs of at most tuning.scc_one_launch_arcs arcs take the one launch, larger the driver."""
    hd = gpu.device_graph(generators.cycle(10))            # 10 arcs
    assert gpu.scc_method(hd) == "native"
    monkeypatch.setattr(gpu.tuning, "scc_one_launch_arcs", 9)
    assert gpu.scc_method(hd) == "reachability"
    monkeypatch.setattr(gpu.tuning, "scc_one_launch_arcs", 10)
    monkeypatch.setattr(gpu.tuning, "device_loops", False)   # no cooperative launches at all
    assert gpu.scc_method(hd) == "reachability"


def test_scc_one_launch_against_scipy(gpu):
    """scc_whole's labels on seeded random digraphs of every shape the driver meets (sparse and
    dense, hubs past heavy_degree both ways, chains of small cycles, self-loops): each vertex
    labelled with a vertex of its own component (which carries its own id), the partition
    SciPy's, and the colouring rounds counted."""
    rng = np.random.default_rng(11)
    rounds = 0
    for case in range(40):
        n = int(rng.integers(1, [40, 400, 3000][case % 3] + 1))
        m = int(n * rng.choice([0.5, 1.0, 1.5, 3.0]))
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        if case % 4 == 1:                       # hubs: a warp a vertex in both sweeps
            hubs = rng.integers(0, n, 2)
            k = 3 * gpu.tuning.heavy_degree
            src = np.r_[src, np.full(k, hubs[0]), rng.integers(0, n, k)]
            dst = np.r_[dst, rng.integers(0, n, k), np.full(k, hubs[1])]
        if case % 4 == 2:                       # a chain of 3-cycles joined one way: many rounds
            chain = np.arange(n - 1)
            src = np.r_[src[: m // 8], chain, chain[chain % 3 == 2]]
            dst = np.r_[dst[: m // 8], chain + 1, chain[chain % 3 == 2] - 2]
        g = Graph.from_edges(src.astype(np.int32), dst.astype(np.int32), directed=True, num_vertices=n)
        hd = gpu.device_graph(g)
        before = gpu.stats.get("scc_one_launch_rounds", 0)
        labels = gpu.scc_strategy.labels_in_one_launch(hd).get()
        rounds += gpu.stats["scc_one_launch_rounds"] - before
        _, ref = csgraph.connected_components(scipy_matrix(g), directed=True, connection="strong")
        assert np.array_equal(labels[labels], labels), case
        assert np.array_equal(canonical_labels(labels), canonical_labels(ref)), case
    assert rounds > 0                           # the colouring ran, not only trims and the pivot


def test_scc_one_launch_past_its_step_limit(gpu, monkeypatch):
    """Past tuning.long_levels steps scc_whole gives up (None) and the driver takes the graph."""
    g = generators.path(300, directed=True)
    g = Graph.from_edges(np.r_[g.edge_sources(), 299], np.r_[g.indices, 0], directed=True, num_vertices=300)
    ref = canonical_labels(np.zeros(300, np.int32))          # one cycle of 300
    monkeypatch.setattr(gpu.tuning, "long_levels", 4096)
    hd = gpu.device_graph(g)
    assert np.array_equal(canonical_labels(gpu.scc_strategy.labels_in_one_launch(hd).get()), ref)
    monkeypatch.setattr(gpu.tuning, "long_levels", 3)
    assert gpu.scc_strategy.labels_in_one_launch(hd) is None
    before = gpu.stats.get("scc_one_launch_runs", 0)
    assert np.array_equal(scc(g, backend="cuda"), ref)
    assert gpu.stats["scc_one_launch_runs"] == before + 1


def test_scc_on_long_chains_with_device_loops(gpu, scc_route):
    """Deep graphs (the case the device loops are for): many levels and sweeps, one launch each."""
    rng = np.random.default_rng(9)
    n = 3000
    # a chain of small cycles joined one way, and a long cycle: components of 3 and of 1,000
    chain = np.arange(n - 1, dtype=np.int32)
    back = chain[chain % 3 == 2]
    src = np.r_[chain, back, np.arange(n, n + 1000, dtype=np.int32)]
    dst = np.r_[chain + 1, back - 2, np.r_[np.arange(n + 1, n + 1000), n].astype(np.int32)]
    perm = rng.permutation(n + 1000).astype(np.int32)
    g = Graph.from_edges(perm[src], perm[dst], directed=True, num_vertices=n + 1000)
    _, ref = csgraph.connected_components(scipy_matrix(g), directed=True, connection="strong")
    assert np.array_equal(scc(g, backend="cuda"), canonical_labels(ref))


# -- algorithms against scipy.sparse.csgraph ------------------------------------------------

@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("n,m,k", [(50, 100, 10), (1000, 5000, 130), (3000, 4000, 1), (5000, 60000, 70)])
def test_bfs_random(gpu, directed, n, m, k):
    rng = np.random.default_rng(n + m + k)
    g = random_graph(rng, n, m, directed=directed)
    sources = rng.integers(0, n, k)
    got = bfs(g, sources, backend="cuda")
    assert np.array_equal(got, scipy_depths(g, sources))
    assert np.array_equal(got, bfs(g, sources, backend="cpu"))


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.float32])
def test_bfs_out_buffer(gpu, dtype):
    rng = np.random.default_rng(11)
    g = random_graph(rng, 500, 2000)
    sources = rng.integers(0, 500, 100)
    for order in ("C", "F"):
        out = np.full((100, 500), 7, dtype=dtype, order=order)
        bfs(g, sources, backend="cuda", out=out, unreachable=np.nan if dtype != np.int64 else -1)
        ref = scipy_depths(g, sources).astype(np.float64)
        if dtype != np.int64:
            ref[ref < 0] = np.nan
        assert np.array_equal(out.astype(np.float64), ref, equal_nan=True)


@pytest.mark.parametrize("scale,directed", [(12, False), (14, True), (16, False)])
def test_bfs_rmat(gpu, scale, directed):
    g = generators.rmat(scale, seed=scale, directed=directed)
    rng = np.random.default_rng(scale)
    deg = np.diff(g.indptr)
    sources = rng.choice(np.flatnonzero(deg > 0), 100)
    assert np.array_equal(bfs(g, sources, backend="cuda"), scipy_depths(g, sources))
    for s in sources[:3]:
        assert np.array_equal(bfs(g, [s], backend="cuda"), scipy_depths(g, [s]))


@pytest.mark.slow
def test_bfs_rmat20(gpu):
    g = generators.rmat(20, seed=1)
    rng = np.random.default_rng(1)
    sources = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), 128)
    got = bfs(g, sources, backend="cuda")
    ref = scipy_depths(g, sources[:8])
    assert np.array_equal(got[:8], ref)
    assert np.array_equal(got, bfs(g, sources, backend="cpu"))
    for s in sources[:2]:
        assert np.array_equal(bfs(g, [s], backend="cuda"), scipy_depths(g, [s]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("directed", [True, False])
def test_sssp_random(gpu, dtype, directed):
    rng = np.random.default_rng(5)
    g = random_graph(rng, 2000, 16000, directed=directed, weighted=True, dtype=dtype)
    sources = rng.integers(0, 2000, 40)
    ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=sources)
    dist, pred = sssp(g, sources, backend="cuda")
    assert dist.dtype == dtype
    np.testing.assert_allclose(dist, ref, rtol=1e-5)
    check_preds(g, sources, dist, pred)
    d2 = sssp_dists(g, sources, backend="cuda")
    np.testing.assert_allclose(d2, ref, rtol=1e-5)
    np.testing.assert_allclose(sssp_dists(g, sources, backend="cpu"), d2, rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sssp_negative_weights(gpu, dtype):
    rng = np.random.default_rng(9)
    g = random_graph(rng, 800, 8000, weighted=True, negative=True, dtype=dtype)
    assert g.weights.min() < 0
    sources = rng.integers(0, 800, 20)
    ref = csgraph.bellman_ford(scipy_matrix(g), directed=True, indices=sources)
    dist, pred = sssp(g, sources, backend="cuda")
    np.testing.assert_allclose(dist, ref, rtol=1e-4, atol=1e-4)
    check_preds(g, sources, dist, pred, rtol=1e-4)
    np.testing.assert_allclose(sssp_dists(g, sources, backend="cuda"), ref, rtol=1e-4, atol=1e-4)


def test_sssp_negative_cycle(gpu):
    # 0 -> 1 -> 2 -> 0 with total weight -1, reachable from 3 but not from 4
    g = Graph.from_edges([3, 0, 1, 2, 4], [0, 1, 2, 0, 5], [1.0, 1.0, 1.0, -3.0, 1.0], num_vertices=6)
    with pytest.raises(NegativeCycleError) as e:
        sssp(g, [4, 3], backend="cuda")
    assert e.value.source == 3
    with pytest.raises(NegativeCycleError):
        sssp_dists(g, [3], backend="cuda")
    d, p = sssp(g, [4], backend="cuda")
    assert d[0, 5] == 1 and p[0, 5] == 4


@pytest.mark.parametrize("scale", [12, 16])
def test_sssp_rmat(gpu, scale):
    g = generators.rmat(scale, seed=scale, weighted=True)
    rng = np.random.default_rng(scale)
    sources = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), 16)
    ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=sources)
    dist, pred = sssp(g, sources, backend="cuda")
    np.testing.assert_allclose(dist, ref, rtol=1e-5)
    check_preds(g, sources, dist, pred)


@pytest.mark.parametrize("seed", range(4))
def test_scc_random(gpu, seed, scc_route):
    rng = np.random.default_rng(seed)
    n = [30, 500, 3000, 20000][seed]
    g = random_graph(rng, n, int(n * [1.0, 1.5, 2.0, 1.2][seed]), directed=True)
    _, ref = csgraph.connected_components(scipy_matrix(g), directed=True, connection="strong")
    got = scc(g, backend="cuda")
    assert np.array_equal(got, canonical_labels(ref))
    assert np.array_equal(got, scc(g, backend="cpu"))


@pytest.mark.parametrize("scale", [12, 16])
def test_scc_rmat(gpu, scale, scc_route):
    g = generators.rmat(scale, seed=scale, directed=True)
    _, ref = csgraph.connected_components(scipy_matrix(g), directed=True, connection="strong")
    assert np.array_equal(scc(g, backend="cuda"), canonical_labels(ref))


def test_structured_graphs(gpu):
    for g in (generators.cycle(1000), generators.star(500), generators.grid(30, 40),
              generators.path(2000, directed=False)):
        sources = [0, len(g) - 1]
        assert np.array_equal(bfs(g, sources, backend="cuda"), scipy_depths(g, sources))
        _, ref = csgraph.connected_components(scipy_matrix(g), directed=True, connection="strong")
        assert np.array_equal(scc(g, backend="cuda"), canonical_labels(ref))


# -- real network ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def scnet():
    if not os.path.exists(SCNET):
        pytest.skip("scNET human network not in .data/H_sapiens.net")
    import pyarrow.csv as pv
    t = pv.read_csv(SCNET, read_options=pv.ReadOptions(column_names=["a", "b", "s", "z"]),
                    parse_options=pv.ParseOptions(delimiter="\t"))
    a = t["a"].to_numpy().astype(str)
    b = t["b"].to_numpy().astype(str)
    w = (1.0 - t["s"].to_numpy() + 1e-6).astype(np.float32)
    return Graph.from_edges(a, b, w, directed=False)


def test_scnet(gpu, scnet):
    g = scnet
    rng = np.random.default_rng(0)
    sources = rng.choice(len(g), 400, replace=False)
    assert np.array_equal(bfs(g, sources, backend="cuda"), bfs(g, sources, backend="cpu"))
    dist, pred = sssp(g, sources[:50], backend="cuda")
    ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=sources[:50])
    np.testing.assert_allclose(dist, ref, rtol=1e-5)
    check_preds(g, sources[:50], dist, pred)
    assert np.array_equal(scc(g, backend="cuda"), scc(g, backend="cpu"))


# -- robustness (issue 6) --------------------------------------------------------------------

@contextlib.contextmanager
def pool_room(gpu, g, room: int):
    """CuPy's pool limited to `room` bytes above what it holds with `g` on the device. Earlier
    tests' garbage that holds device arrays is collected first: collected during the run
    instead, it would free memory under the limit and the batch might fit after all."""
    pool = cp.get_default_memory_pool()
    gpu.device_graph(g)
    gc.collect()
    pool.free_all_blocks()
    old = pool.get_limit()
    pool.set_limit(size=pool.used_bytes() + room)
    try:
        yield
    finally:
        pool.set_limit(size=old)


def test_oom_rebatches(gpu, monkeypatch):
    g = generators.rmat(14, seed=3)
    sources = np.random.default_rng(0).integers(0, len(g), 2048)
    ref = bfs(g, sources, backend="cpu")
    splits = gpu.stats.get("splits", 0)
    # 2,048 sources x 16,384 vertices of int32 depth = 128 MiB: the limit leaves room for ~1/4
    monkeypatch.setattr(type(gpu), "bfs_batch_size", lambda self, n, k: k)
    with pool_room(gpu, g, 48 * 2**20):
        got = bfs(g, sources, backend="cuda")
    assert gpu.stats.get("splits", 0) > splits          # the batch ran out of memory and was split
    assert np.array_equal(got, ref)


def test_cuda_error_is_python_exception(gpu):
    from curnet.backends.cuda.launch import KernelError, launch
    with pytest.raises(KernelError, match="seed_bits"):
        launch("bfs", "seed_bits", 10, (cp.zeros(1, np.int32), np.int32(0), np.int32(1),
                                         cp.zeros(1, np.uint64)), threads=4096)
    g = generators.grid(10, 10)
    assert np.array_equal(bfs(g, [0], backend="cuda"), scipy_depths(g, [0]))


def test_long_path(gpu, caplog):
    from curnet.work import count_work
    g = generators.path(1_000_000, weighted=True)
    # work bounds, not seconds: at most max_joint_levels joint levels, then one traversal a source
    bounds = {"bfs joint levels": get_backend("cuda").max_joint_levels, "bfs one-source runs": 2}
    with caplog.at_level("WARNING", logger="curnet"), count_work(bounds=bounds) as work:
        d = bfs(g, [0, 10], backend="cuda")
    assert "long-diameter graph" in caplog.text and "on the host" in caplog.text   # said, not silent
    assert work["bfs one-source runs"] == 2, work
    assert d[0, -1] == 999_999 and d[1, -1] == 999_989 and d[1, 0] == -1
    with count_work(bounds={"sssp rounds": 0}) as work:
        dist = sssp_dists(g, [0], backend="cuda")
    assert work["dijkstra sources"] == 1, work      # finished by the host's Dijkstra, once
    assert dist[0, -1] == 999_999


def test_determinism(gpu):
    g = generators.rmat(14, seed=5, weighted=True)
    sources = np.arange(0, 16384, 97)
    a, b = bfs(g, sources, backend="cuda"), bfs(g, sources, backend="cuda")
    assert np.array_equal(a, b)
    d1, _ = sssp(g, sources[:20], backend="cuda")
    d2, _ = sssp(g, sources[:20], backend="cuda")
    assert np.array_equal(d1, d2)
    assert np.array_equal(scc(g, backend="cuda"), scc(g, backend="cuda"))


def test_info(gpu):
    info = gpu.info()
    assert info["backend"] == "cuda" and "GiB" in info["device_memory"] and info["cupy"]


@pytest.mark.parametrize("k", [1, 70, 300])
def test_bfs_writes_every_entry(gpu, monkeypatch, k):
    """output_block does not fill on the GPU: poison it and check every entry is written."""
    monkeypatch.setattr(type(gpu), "output_block",
                        lambda self, view, fill: cp.full(view.shape, 12345, dtype=view.dtype))
    rng = np.random.default_rng(k)
    g = random_graph(rng, 3000, 3500, directed=True)      # many unreachable pairs
    sources = rng.integers(0, 3000, k)
    assert np.array_equal(bfs(g, sources, backend="cuda"), scipy_depths(g, sources))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("kb,ld", [(64, 64), (200, 200), (90, 90), (128, 131), (1024, 1024)])
def test_bfs_depth_flush_against_numpy(gpu, dtype, kb, ld):
    """The traversal's flush writes depths from several levels' disjoint new bits, 16 bytes a
    lane where every row starts on a 16-byte boundary and holds whole vectors (kb 64, 200,
    1,024; 90 for 8-byte entries), else an entry a lane (90 for 4-byte entries, a row pitch of
    131): the first flush writes every entry (`unreachable` where its levels reached none), a
    later one only those its levels reached; the columns past kb are left alone."""
    rng = np.random.default_rng(kb + ld)
    n, nums = 300, [1, 2, 3, 5, 8, 13]
    W = (kb + 63) // 64
    level = rng.integers(-1, len(nums), (n, kb))          # -1: no level reaches (v, s)
    level[rng.random(n) < 0.2] = 4                         # some rows wholly at one level

    def bits_at(i):
        b = np.zeros((n, W * 64), bool)
        b[:, :kb] = level == i
        return cp.asarray(np.packbits(b, axis=1, bitorder="little").view(np.uint64))
    block = cp.full((n, ld), 7, dtype)
    depth = block[:, :kb]
    st = {"pending": [(nums[i], bits_at(i)) for i in range(3)], "flushed": False, "seen": bits_at(0),
          "unreachable": -1}
    gpu.bfs_strategy.flush_depths(st, depth)
    want = np.where(level < 3, np.array(nums)[np.maximum(level, 0)], -1)
    want[level < 0] = -1
    assert np.array_equal(depth.get(), want.astype(dtype))
    st["pending"] = [(nums[i], bits_at(i)) for i in range(3, len(nums))]
    gpu.bfs_strategy.flush_depths(st, depth)
    want = np.where(level >= 0, np.array(nums)[np.maximum(level, 0)], -1)
    assert np.array_equal(depth.get(), want.astype(dtype))
    assert (block[:, kb:] == 7).all()


def test_bfs_flushes_levels_in_pieces(gpu, monkeypatch):
    """Levels of new bits past the budget are flushed to the depths in pieces."""
    monkeypatch.setattr(gpu.tuning, "level_bytes", 3 * 800 * 2 * 8)   # ~3 levels a piece
    g = generators.grid(4, 200)                            # ~200 levels
    sources = np.arange(0, 800, 9)
    got = bfs(g, sources, backend="cuda")
    assert np.array_equal(got, scipy_depths(g, sources))


# -- near-far SSSP, push levels, staged copies (issue 3, second round) ----------------------

@pytest.mark.parametrize("lanes", [(1, 8), (16, 8), (4, 32), (1, 1)])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("heavy", [256, 4])
def test_near_far_twin(gpu, cpu, monkeypatch, directed, heavy, lanes):
    """near_far equals Bellman-Ford's float32 fixed point exactly, scipy within rounding;
    a tiny heavy threshold sends most entries through the grid-wide heavy path. `lanes`: the
    heavy arcs a lane walks at least (the default 1, and 16: fixed chunks), and the lanes a
    light entry's row is walked by."""
    from curnet.algorithms.sssp import bellman_ford
    monkeypatch.setattr(gpu.tuning, "nf_heavy", heavy)
    monkeypatch.setattr(gpu.tuning, "nf_lane_arcs_min", lanes[0])
    monkeypatch.setattr(gpu.tuning, "nf_light_lanes", lanes[1])
    for seed, (n, m, kb, factor) in enumerate([(2000, 16000, 1, 1.0), (3000, 20000, 5, 0.1),
                                                (500, 8000, 3, 8.0), (4000, 5000, 2, 1.0)]):
        monkeypatch.setattr(gpu.tuning, "nf_delta_factor", factor)
        rng = np.random.default_rng(100 + seed)
        g = random_graph(rng, n, m, directed=directed, weighted=True)
        w = g.weights.copy()
        w[rng.random(len(w)) < 0.05] = 0          # zero-weight arcs too
        g = Graph.from_edges(g.edge_sources(), g.indices, w, directed=True, num_vertices=n)
        hd = gpu.device_graph(g)
        ids = rng.integers(0, n, kb).astype(np.int32)
        assert gpu.nf_strategy.suits(hd, kb, False) and not gpu.nf_strategy.suits(hd, kb, True)
        ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=ids)
        for with_pred in (True, False):
            d, p = gpu.near_far(hd, ids, with_pred)
            d = d.get()
            np.testing.assert_allclose(d, ref, rtol=1e-5)
            bd, _ = bellman_ford(gpu, hd, ids, False)
            assert np.array_equal(d, bd.get())
            if with_pred:
                check_preds(g, ids, d, p.get())
        np.testing.assert_allclose(sssp_dists(g, ids, backend="cuda"), sssp_dists(g, ids, backend="cpu"),
                                   rtol=1e-5)


def test_near_far_light_lanes_checked(gpu, monkeypatch):
    monkeypatch.setattr(gpu.tuning, "nf_light_lanes", 12)
    g = generators.rmat(8, seed=1, weighted=True)
    with pytest.raises(ValueError, match="nf_light_lanes must be a power of two up to 32, not 12"):
        gpu.near_far(gpu.device_graph(g), np.array([0], np.int32), False)


def test_near_far_width_by_batch_arcs(gpu, monkeypatch):
    """The bucket width: Davidson et al.'s rule x nf_delta_factor, doubled for a batch of few
    arcs (sources x arcs), halved for one of very many; each width's distances are Dijkstra's."""
    g = generators.rmat(10, seed=3, weighted=True)
    n, m = len(g), len(g.indices)
    monkeypatch.setattr(gpu.tuning, "nf_wide_max_arcs", 2 * m)
    monkeypatch.setattr(gpu.tuning, "nf_narrow_min_arcs", 8 * m)
    hd = gpu.device_graph(g)
    rule = 32 * float(np.mean(g.weights)) / (m / n) * gpu.tuning.nf_delta_factor
    widths = {kb: gpu.nf_strategy.delta(hd, kb) for kb in (1, 2, 3, 7, 8, 20)}
    expected = {1: 2 * rule, 2: 2 * rule, 3: rule, 7: rule, 8: rule / 2, 20: rule / 2}
    assert widths == pytest.approx(expected, rel=1e-6)
    rng = np.random.default_rng(7)
    for kb in (1, 4, 12):
        ids = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), kb, replace=False).astype(np.int32)
        dist, _ = gpu.near_far(hd, ids, False)
        ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=ids)
        np.testing.assert_allclose(gpu.to_host(dist), ref, rtol=1e-5)


def test_near_far_rmat_and_grid(gpu):
    grid = generators.grid(120, 150)
    gw = Graph.from_edges(grid.edge_sources(), grid.indices,
                          np.random.default_rng(5).random(len(grid.indices)).astype(np.float32),
                          directed=True, num_vertices=len(grid))
    for g in (generators.rmat(14, seed=2, weighted=True), gw):
        rng = np.random.default_rng(2)
        ids = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), 4).astype(np.int32)
        hd = gpu.device_graph(g)
        ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=ids)
        dist, pred = sssp(g, ids, backend="cuda")
        np.testing.assert_allclose(dist, ref, rtol=1e-5)
        check_preds(g, ids, dist, pred)
        assert not hd.long_diameter


@pytest.mark.parametrize("ranges", [False, True])
@pytest.mark.parametrize("f64", [False, True])
def test_near_far_relaxes_arcs_past_the_bucket_once(gpu, monkeypatch, f64, ranges):
    """Arcs landing past the bucket's threshold wait for their tail's final distance (a settle
    iteration): every arc out of a reached vertex is offered a distance at least once, and
    at the default width the search offers few more than that (counted on the device); with
    heavy entries' whole rows or (`ranges`) their rows' range for the iteration."""
    from curnet.work import count_work
    monkeypatch.setattr(gpu.tuning, "nf_ranges_min_arcs", 0 if ranges else 1 << 62)
    g = generators.rmat(14, seed=2, weighted=True)
    if f64:
        g = Graph.from_edges(g.edge_sources(), g.indices, g.weights, directed=True, num_vertices=len(g),
                             dtype=np.float64)
    ids = np.array([int(np.argmax(np.diff(g.indptr)))], np.int32)
    hd = gpu.device_graph(g)
    with count_work() as work:
        dist, _ = gpu.near_far(hd, ids, False)
    dist = dist.get()
    np.testing.assert_allclose(dist, csgraph.dijkstra(scipy_matrix(g), directed=True, indices=ids), rtol=1e-5)
    tails = np.repeat(np.arange(len(g)), np.diff(g.indptr))
    needed = int(np.count_nonzero(np.isfinite(dist[0])[tails] & (g.indices != tails)))
    offered = work["sssp near-far arc relaxations"]
    assert needed <= offered <= 1.5 * needed, (offered, needed)
    assert work["sssp near-far iterations"] >= 2
    # the rows it walks: each vertex's own arcs, in ascending weight
    heads, w, flagged = gpu.nf_strategy.rows_by_weight(hd)
    heads, w = heads.get() & (0x3FFFFFFF if flagged else -1), w.get()
    assert w.dtype == g.weights.dtype
    same_row = tails[1:] == tails[:-1]
    assert np.all(w[1:][same_row] >= w[:-1][same_row])
    assert sorted(zip(tails, heads, w)) == sorted(zip(tails, g.indices, g.weights))

@pytest.mark.parametrize("ranges", [False, True])
@pytest.mark.parametrize("with_pred", [False, True])
def test_near_far_replays_iterations_from_a_graph(gpu, monkeypatch, with_pred, ranges):
    """Groups of iterations replayed from a captured CUDA graph give what the same iterations
    launched kernel by kernel give: the distances, the predecessors and the iteration count;
    and the replays happen (counted), from the first group or after it. Heavy entries relax
    their whole rows or (`ranges`) their rows' range for the iteration."""
    from curnet.work import count_work
    monkeypatch.setattr(gpu.tuning, "nf_ranges_min_arcs", 0 if ranges else 1 << 62)
    monkeypatch.setattr(gpu.tuning, "nf_loop_max_arcs", 0)      # groups, not one launch
    g = generators.rmat(14, seed=5, weighted=True)
    ids = np.random.default_rng(6).choice(np.flatnonzero(np.diff(g.indptr) > 0), 3, replace=False).astype(np.int32)
    hd = gpu.device_graph(g)
    ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=ids)
    runs = {}
    for after in (10**9, 0, 1):
        monkeypatch.setattr(gpu.tuning, "nf_graph_after", after)
        replays = gpu.stats.get("nf_graph_groups", 0)
        with count_work() as work:
            dist, pred = gpu.near_far(hd, ids, with_pred)
        groups = work["sssp near-far iterations"] // gpu.tuning.nf_sync_every
        assert groups >= 3      # enough groups that both replaying routes replay some
        assert gpu.stats.get("nf_graph_groups", 0) - replays == (0 if after == 10**9 else groups - after)
        runs[after] = (dist.get(), None if pred is None else pred.get(), work["sssp near-far iterations"])
    np.testing.assert_allclose(runs[10**9][0], ref, rtol=1e-5)
    for after in (0, 1):
        assert np.array_equal(runs[after][0], runs[10**9][0])
        assert runs[after][2] == runs[10**9][2]
        if with_pred:
            assert np.array_equal(runs[after][1], runs[10**9][1])
            check_preds_exact(g, ids, runs[after][0], runs[after][1])


@pytest.mark.parametrize("f64", [False, True])
@pytest.mark.parametrize("ranges", [False, True])
def test_near_far_loop_equals_replay(gpu, monkeypatch, f64, ranges):
    """Near-far's iterations in one cooperative launch (nf_loop) give what the replayed groups
    give: the distances, the predecessors (checked exact) and no more iterations, in one launch
    a search, for batches of at most nf_loop_max_arcs arcs; stopped at nf_max_iters, the search
    finishes on the long route (SciPy's float64 Dijkstra: its predecessors valid to rounding)."""
    from curnet.work import count_work
    monkeypatch.setattr(gpu.tuning, "nf_ranges_min_arcs", 0 if ranges else 1 << 62)
    g = generators.rmat(14, seed=5, weighted=True)
    if f64:
        g = Graph.from_edges(g.edge_sources(), g.indices, g.weights, directed=True, num_vertices=len(g),
                             dtype=np.float64)
    ids = np.random.default_rng(6).choice(np.flatnonzero(np.diff(g.indptr) > 0), 3, replace=False).astype(np.int32)
    hd = gpu.device_graph(g)
    ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=ids)
    for with_pred in (False, True):
        runs = {}
        for loop in (0, 1):     # the batch's arcs one past the limit, then at it
            monkeypatch.setattr(gpu.tuning, "nf_loop_max_arcs", len(ids) * hd.m - 1 + loop)
            loops = gpu.stats.get("nf_loops", 0)
            with count_work() as work:
                dist, pred = gpu.near_far(hd, ids, with_pred)
            assert gpu.stats.get("nf_loops", 0) - loops == loop
            runs[loop] = (dist.get(), None if pred is None else pred.get(), work["sssp near-far iterations"])
        np.testing.assert_allclose(runs[1][0], ref, rtol=1e-5)
        assert np.array_equal(runs[1][0], runs[0][0])
        assert 8 <= runs[1][2] <= runs[0][2]
        if with_pred:
            assert np.array_equal(runs[1][1], runs[0][1])
            check_preds_exact(g, ids, runs[1][0], runs[1][1])
    monkeypatch.setattr(gpu.tuning, "nf_max_iters", 4)
    with count_work() as work:
        dist, pred = gpu.near_far(hd, ids, True)
    assert work["sssp near-far iterations"] == 4 and work["sssp per-source runs"] == len(ids)
    np.testing.assert_allclose(gpu.to_host(dist), ref, rtol=1e-5)
    check_predecessors(g, ids, gpu.to_host(dist), gpu.to_host(pred))


def test_near_far_loop_stamps(gpu, monkeypatch):
    """The one-launch loop's clock stamps (benchmarks): a row an iteration run, the clock
    ascending through the phases and iterations, the first iteration relaxing the source alone,
    every reached entry relaxed at least once, bucket ends only in settle iterations; refused for
    a batch run in groups."""
    from curnet.work import count_work
    from curnet.backends.cuda.near_far import NF_STAMPS
    g = generators.rmat(14, seed=5, weighted=True)
    hd = gpu.device_graph(g)
    s = int(np.flatnonzero(np.diff(g.indptr) > 0)[0])
    stamps = cp.zeros(NF_STAMPS * gpu.tuning.nf_max_iters, np.uint64)
    with count_work() as work:
        dist, _ = gpu.nf_strategy.run(hd, np.array([s], np.int32), False, stamps=stamps)
    st = cp.asnumpy(stamps).reshape(-1, NF_STAMPS).astype(np.int64)
    ran = st[:, 0] != 0
    assert ran.sum() == work["sssp near-far iterations"] >= 8 and ran[:ran.sum()].all()
    st = st[ran]
    assert (np.diff(st[:, :4], axis=1) >= 0).all() and (st[1:, 0] >= st[:-1, 3]).all()
    assert st[0, 4] + st[0, 5] == 1
    assert st[:, 4:6].sum() >= np.isfinite(dist.get()).sum()
    assert set(np.unique(st[:, 6:8])) <= {0, 1} and st[:, 7].sum() >= 1 and not (st[:, 7] & (1 - st[:, 6])).any()
    monkeypatch.setattr(gpu.tuning, "nf_loop_max_arcs", 0)
    with pytest.raises(ValueError, match="one launch"):
        gpu.nf_strategy.run(hd, np.array([s], np.int32), False, stamps=stamps)


@pytest.mark.parametrize("in_one_launch", [False, True])
def test_near_far_block_buffers_overflow(gpu, monkeypatch, in_one_launch):
    """Near-far's relaxation buffers a block's appends in shared memory (kernels/sssp.cu
    NF_BLOCK_QUEUE entries a block and queue; common.cuh BlockQueue) and sends the rest
    straight to the global queue. Two sources reach 2,000 shared vertices, each with 200 leaves
    of its own that all lead to one sink: in the second iteration a block's 64 light entries
    (4 lanes each) append 12,800 entries, past the buffer, and the third relaxes 800,000
    entries into the settle queue. Distances and predecessors are known exactly."""
    import re
    from curnet.backends.cuda.launch import kernel_source
    room = int(re.search(r"#define NF_BLOCK_QUEUE (\d+)", kernel_source("sssp")).group(1))
    width, fan = 2000, 200
    monkeypatch.setattr(gpu.tuning, "nf_light_lanes", 4)
    monkeypatch.setattr(gpu.tuning, "nf_delta_factor", 1e6)       # one bucket: every offer near
    assert (256 // 4) * fan > room and fan <= gpu.tuning.nf_heavy < width
    a = 2 + np.arange(width)
    leaves = 2 + width + np.arange(width * fan)
    sink = 2 + width + width * fan
    src = np.concatenate([np.zeros(width, np.int64), np.ones(width, np.int64), np.repeat(a, fan), leaves])
    dst = np.concatenate([a, a, leaves, np.full(len(leaves), sink)])
    g = Graph.from_edges(src, dst, directed=True, num_vertices=sink + 1)
    ids = np.array([0, 1], np.int32)
    monkeypatch.setattr(gpu.tuning, "nf_loop_max_arcs", 1 << 31 if in_one_launch else 0)
    want_dist = np.full((2, sink + 1), np.inf, np.float32)
    want_pred = np.full((2, sink + 1), -1, np.int32)
    for r in (0, 1):
        want_dist[r, [r]] = 0
        want_dist[r, a], want_dist[r, leaves], want_dist[r, sink] = 1, 2, 3
        want_pred[r, a], want_pred[r, leaves], want_pred[r, sink] = r, np.repeat(a, fan), leaves[0]
    hd = gpu.device_graph(g)
    loops = gpu.stats.get("nf_loops", 0)
    for with_pred in (True, False):
        dist, pred = gpu.near_far(hd, ids, with_pred)
        assert np.array_equal(dist.get(), want_dist)
        if with_pred:
            assert np.array_equal(pred.get(), want_pred)
    assert gpu.stats.get("nf_loops", 0) - loops == (2 if in_one_launch else 0)


def test_near_far_long_falls_back(gpu, monkeypatch):
    monkeypatch.setattr(gpu.tuning, "nf_max_iters", 64)
    g = generators.path(5000, weighted=True)
    dist, pred = sssp(g, [0], backend="cuda")
    assert dist[0, -1] == 4999 and pred[0, -1] == 4998
    assert gpu.device_graph(g).long_diameter


def test_bfs_push_levels(gpu, monkeypatch):
    """Top-down first levels (sources only) and pull levels give scipy's depths."""
    g = generators.rmat(13, seed=4, directed=True)
    rng = np.random.default_rng(4)
    sources = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), 200)
    ref = scipy_depths(g, sources)
    before = gpu.stats.get("push_levels", 0)
    assert np.array_equal(bfs(g, sources, backend="cuda"), ref)
    assert gpu.stats.get("push_levels", 0) > before
    monkeypatch.setattr(gpu.tuning, "push_alpha", 0)
    assert np.array_equal(bfs(g, sources, backend="cuda"), ref)
    monkeypatch.setattr(gpu.tuning, "push_alpha", 10**9)      # push whenever possible
    g2 = random_graph(np.random.default_rng(8), 2000, 9000, directed=False)
    s2 = np.arange(0, 2000, 7)
    assert np.array_equal(bfs(g2, s2, backend="cuda"), scipy_depths(g2, s2))


@pytest.mark.parametrize("order", ["C", "F"])
def test_staged_copy(gpu, monkeypatch, order):
    """Large device -> host copies through pinned chunks land byte for byte (odd sizes)."""
    from curnet.backends.cuda import transfers
    monkeypatch.setattr(gpu.tuning, "stage_min", 1 << 10)
    monkeypatch.setattr(gpu.tuning, "stage_chunk", 1 << 16)
    a = cp.asarray(np.random.default_rng(1).integers(-2**31, 2**31 - 1, (777, 1001), dtype=np.int32))
    if order == "F":
        a = cp.asfortranarray(a)
    out = np.full(a.shape, 7, np.int32, order=order)
    transfers.get_into(a, out, gpu.tuning)
    assert np.array_equal(out, a.get())
    # a batch's rows of a larger F-ordered matrix: contiguous rows, a pitch between them; they
    # are staged straight into place (no temporary host copy)
    big = np.full((2000, 1001), 7, np.int32, order="F")
    block = cp.ascontiguousarray(a.T)                 # (1001, 777), as a traversal writes it

    def no_temporary(*args):
        raise AssertionError("a pitched block went through a temporary host copy")
    with monkeypatch.context() as m:
        m.setattr(transfers, "host_copy", no_temporary)
        transfers.get_into(block, big[300:1077].T, gpu.tuning)
    assert np.array_equal(big[300:1077], a.get()) and (big[:300] == 7).all() and (big[1077:] == 7).all()
    # the same through the temporary copy (stage_pitched off), the path it replaced
    big[:] = 7
    monkeypatch.setattr(gpu.tuning, "stage_pitched", False)
    transfers.get_into(block, big[300:1077].T, gpu.tuning)
    assert np.array_equal(big[300:1077], a.get()) and (big[:300] == 7).all() and (big[1077:] == 7).all()
    monkeypatch.setattr(gpu.tuning, "stage_pitched", True)
    g = generators.rmat(12, seed=1)
    src = np.arange(0, 4096, 5)
    assert np.array_equal(bfs(g, src, backend="cuda"), scipy_depths(g, src))
    monkeypatch.setattr(gpu.tuning, "batch_limit", 128)   # several batches: each into its rows
    assert np.array_equal(bfs(g, src, backend="cuda"), scipy_depths(g, src))


# -- cross-batch overlap: batch i's host copy while batch i + 1 computes (issue 3, Memory) -----

def slow_copies(monkeypatch, seconds=0.02):
    """Make every device -> host copy slow, so batches really overlap their copies."""
    from curnet.backends.cuda import transfers
    real = transfers.get_into

    def slow(block, view, tuning):
        time.sleep(seconds)
        real(block, view, tuning)
    monkeypatch.setattr(transfers, "get_into", slow)


def test_small_results_are_pinned_and_copied_straight_in(gpu, monkeypatch):
    """A public call's result within [pinned_result_min, pinned_result_max] bytes is pinned host
    memory, and the copy back goes straight into it (counted); others are pageable and staged.
    Both give the CPU backend's depths and distances, and valid predecessors."""
    from curnet.backends.cuda.transfers import pinned
    from curnet.work import count_work
    rng = np.random.default_rng(41)
    g = random_graph(rng, 5000, 40000, weighted=True)
    one, many = [17], rng.integers(0, 5000, 40)
    want = {k: (bfs(g, s, backend="cpu"), sssp_dists(g, s, backend="cpu")) for k, s in (("one", one), ("many", many))}
    monkeypatch.setattr(gpu.tuning, "stage_min", 1 << 10)      # what is not pinned is staged
    monkeypatch.setattr(gpu.tuning, "stage_chunk", 1 << 16)
    for least, most, is_pinned in ((0, 64 << 20, True), (0, 0, False), (1 << 20, 64 << 20, False)):
        monkeypatch.setattr(gpu.tuning, "pinned_result_min", least)   # these results: 20-800 kB
        monkeypatch.setattr(gpu.tuning, "pinned_result_max", most)
        for key, sources in (("one", one), ("many", many)):
            with count_work() as work:
                depth = bfs(g, sources, backend="cuda")
                dist, pred = sssp(g, sources, backend="cuda")
            assert pinned(depth) is is_pinned and pinned(dist) is is_pinned and pinned(pred) is is_pinned
            assert depth.flags.f_contiguous and depth.flags.writeable
            assert np.array_equal(depth, want[key][0])
            assert np.allclose(dist, want[key][1], rtol=1e-5) and np.array_equal(np.isinf(dist), np.isinf(want[key][1]))
            check_preds(g, sources, dist, pred)
            # one source: the depth column, the distances and the predecessors straight in (a
            # batch's rows of a many-source result have a pitch, so those are staged)
            if key == "one" or not is_pinned:
                assert work["pinned direct copies"] == (3 if is_pinned else 0), dict(work)
            else:
                assert work["pinned direct copies"] >= 1, dict(work)
    assert not pinned(np.empty(1000)) and not pinned(np.empty(0))


def test_pinned_results_alive_are_bounded(gpu, monkeypatch):
    """The pinned results alive at once stay within pinned_live_max: past it a result is
    pageable; a result freed (its views too) makes room again. Every result is the CPU's."""
    from curnet.backends.cuda.transfers import pinned
    g = random_graph(np.random.default_rng(42), 5000, 20000)
    want = bfs(g, [3], backend="cpu")
    gc.collect()
    live0 = gpu.pinned_results.live                 # results other tests still hold, if any
    monkeypatch.setattr(gpu.tuning, "pinned_result_min", 0)
    monkeypatch.setattr(gpu.tuning, "pinned_live_max", live0 + 2 * want.nbytes)
    kept = [bfs(g, [3], backend="cuda") for _ in range(3)]
    assert [pinned(a) for a in kept] == [True, True, False]
    assert all(np.array_equal(a, want) for a in kept)
    assert gpu.pinned_results.live == live0 + 2 * want.nbytes
    view = kept[0][:, :10]
    del kept[0]
    assert not pinned(bfs(g, [3], backend="cuda"))      # its view keeps the first alive
    del view
    again = bfs(g, [3], backend="cuda")
    assert pinned(again) and np.array_equal(again, want)
    del kept, again
    assert gpu.pinned_results.live == live0                   # every pinned result freed


@pytest.mark.parametrize("stage", [False, True])
def test_batches_overlap_bfs(gpu, monkeypatch, stage):
    if stage:                                   # pinned chunks from the copy thread
        monkeypatch.setattr(gpu.tuning, "stage_min", 1 << 10)
        monkeypatch.setattr(gpu.tuning, "stage_chunk", 1 << 16)
    slow_copies(monkeypatch)
    monkeypatch.setattr(gpu.tuning, "batch_limit", 64)
    rng = np.random.default_rng(21)
    g = random_graph(rng, 3000, 9000, directed=True)
    sources = rng.integers(0, 3000, 300)
    ref = scipy_depths(g, sources)
    seen = []
    got = bfs(g, sources, backend="cuda", progress=lambda done, total: seen.append(done))
    assert np.array_equal(got, ref)
    assert seen == [64, 128, 192, 256, 300]
    for order, dtype in (("C", np.int64), ("F", np.float32)):
        out = np.full((300, 3000), 7, dtype=dtype, order=order)
        bfs(g, sources, backend="cuda", out=out)
        assert np.array_equal(out, ref)
    assert gpu.batches.call.copies is None


def test_batches_overlap_sssp(gpu, monkeypatch):
    slow_copies(monkeypatch)
    rng = np.random.default_rng(22)
    g = random_graph(rng, 2000, 12000, weighted=True)
    sources = rng.integers(0, 2000, 170)
    monkeypatch.setattr(gpu.tuning, "overlap_batches", False)
    ref_d, ref_p = sssp(g, sources, backend="cuda")
    monkeypatch.setattr(gpu.tuning, "overlap_batches", True)
    monkeypatch.setattr(gpu.tuning, "batch_limit", 40)
    seen = []
    dist, pred = sssp(g, sources, backend="cuda", progress=lambda done, total: seen.append(done))
    assert seen == [40, 80, 120, 160, 170]
    assert np.array_equal(dist, ref_d) and np.array_equal(pred, ref_p)
    out = np.empty((170, 2000), np.float64)     # C-ordered, another dtype: the transposing path
    assert np.array_equal(sssp_dists(g, sources, backend="cuda", out=out), ref_d)


def test_batches_overlap_errors(gpu, monkeypatch):
    """An error in a later batch, or KeyboardInterrupt from the progress callback, propagates;
    no copy is left running and the next call works."""
    slow_copies(monkeypatch)
    monkeypatch.setattr(gpu.tuning, "batch_limit", 2)
    g = Graph.from_edges([3, 0, 1, 2, 4], [0, 1, 2, 0, 5], [1.0, 1.0, 1.0, -3.0, 1.0], num_vertices=6)
    with pytest.raises(NegativeCycleError) as e:
        sssp(g, [4, 5, 4, 3], backend="cuda")
    assert e.value.source == 3 and gpu.batches.call.copies is None

    def interrupt(done, total):
        if done > 64:
            raise KeyboardInterrupt
    rng = np.random.default_rng(23)
    g2 = random_graph(rng, 2000, 6000)
    s2 = rng.integers(0, 2000, 256)
    monkeypatch.setattr(gpu.tuning, "batch_limit", 64)
    with pytest.raises(KeyboardInterrupt):
        bfs(g2, s2, backend="cuda", progress=interrupt)
    assert gpu.batches.call.copies is None
    assert np.array_equal(bfs(g2, s2, backend="cuda"), scipy_depths(g2, s2))


def test_batches_overlap_oom(gpu, monkeypatch):
    """Several batches, each too large for the pool: split while the previous copy is queued."""
    slow_copies(monkeypatch, 0.005)
    g = generators.rmat(14, seed=3)
    sources = np.random.default_rng(0).integers(0, len(g), 2048)
    ref = bfs(g, sources, backend="cpu")
    splits = gpu.stats.get("splits", 0)
    monkeypatch.setattr(type(gpu), "bfs_batch_size", lambda self, n, k: 1024)   # 2 x 64 MiB
    with pool_room(gpu, g, 48 * 2**20):
        got = bfs(g, sources, backend="cuda")
    assert gpu.stats.get("splits", 0) > splits
    assert np.array_equal(got, ref)


def test_two_threads_share_one_backend(gpu, monkeypatch):
    """Two threads calling one backend at once, each with several overlapped batches (copies
    queued on the shared copy thread) and Bellman-Ford rounds (the last active set): each
    call keeps its own state, so both get their own exact results, repeatedly."""
    import threading
    from curnet.algorithms.sssp import bellman_ford
    slow_copies(monkeypatch, 0.002)
    monkeypatch.setattr(gpu.tuning, "batch_limit", 32)
    monkeypatch.setattr(gpu.tuning, "stage_min", 1 << 10)      # staged copies from both threads
    monkeypatch.setattr(gpu.tuning, "stage_chunk", 1 << 16)
    rng = np.random.default_rng(31)
    graphs = [random_graph(rng, 2500, 12000, weighted=True), random_graph(rng, 1800, 9000, weighted=True,
                                                                        negative=True)]
    sources = [rng.integers(0, len(g), 150) for g in graphs]
    want = [(scipy_depths(g, s), csgraph.bellman_ford(scipy_matrix(g), directed=True, indices=s[:40]))
            for g, s in zip(graphs, sources)]
    barrier = threading.Barrier(2)
    errors = []

    def work(i):
        g, s = graphs[i], sources[i]
        hd = gpu.device_graph(g)
        try:
            barrier.wait()
            for _ in range(3):
                assert np.array_equal(bfs(g, s, backend="cuda"), want[i][0])
                dist, pred = sssp(g, s[:40], backend="cuda")
                np.testing.assert_allclose(dist, want[i][1], rtol=1e-4, atol=1e-4)
                check_preds(g, s[:40], dist, pred, rtol=1e-4)
                d, _ = bellman_ford(gpu, hd, s[:8], False)
                np.testing.assert_allclose(d.get(), want[i][1][:8], rtol=1e-4, atol=1e-4)
            assert gpu.batches.call.copies is None
        except BaseException as e:          # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads)
    if errors:
        raise errors[0]


# -- deterministic predecessors, vertex classes (issue 3, third round) -----------------------

def min_tight_tails(g, sources, dist):
    """For each (row, vertex): the smallest tail u of an arc u -> v with dist[u] + w == dist[v]
    in the graph's float arithmetic (-1 where none); what the GPU's tie rule must pick."""
    tails = g.edge_sources()
    heads = g.indices
    w = g.weights if g.weights is not None else np.ones(len(heads), np.float32)
    out = np.full(dist.shape, np.iinfo(np.int32).max, np.int64)
    for r, s in enumerate(sources):
        tight = (dist[r, tails] + w == dist[r, heads]) & np.isfinite(dist[r, heads]) & (heads != s)
        np.minimum.at(out[r], heads[tight], tails[tight])
    out[out == np.iinfo(np.int32).max] = -1
    return out


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weights", ["unweighted", "1or2"])
@pytest.mark.parametrize("route", ["near-far", "bellman-ford"])
def test_sssp_predecessors_deterministic(gpu, monkeypatch, directed, weights, route):
    """Many equal-distance ties (hop counts, weights 1 or 2): the predecessor is the smallest
    tight tail, the same on every run, by near-far and by Bellman-Ford."""
    if route == "bellman-ford":
        monkeypatch.setattr(gpu.tuning, "nf_max_sources", 0)
    src, dst, n = generators.rmat_edges(13, seed=11)
    w = np.random.default_rng(1).integers(1, 3, len(src)).astype(np.float32) if weights == "1or2" else None
    g = Graph.from_edges(src, dst, w, directed=directed, num_vertices=n)
    sources = np.random.default_rng(2).choice(np.flatnonzero(np.diff(g.indptr) > 0), 12, replace=False)
    d1, p1 = sssp(g, sources, backend="cuda")
    for _ in range(3):
        g._device.clear()
        d2, p2 = sssp(g, sources, backend="cuda")
        assert np.array_equal(d1, d2) and np.array_equal(p1, p2)
    check_preds(g, sources, d1, p1)
    assert np.array_equal(p1, min_tight_tails(g, sources, d1))
    np.testing.assert_allclose(d1, csgraph.dijkstra(scipy_matrix(g), directed=True, indices=sources),
                               rtol=1e-6)


@pytest.mark.parametrize("kind", ["zero", "negative"])
def test_sssp_jacobi_routes_deterministic(gpu, kind):
    """float32 with zero or negative weights and predecessors: Jacobi rounds, valid, acyclic,
    identical run to run, equal to the CPU twin's frontier Bellman-Ford round for round."""
    from curnet.algorithms.sssp import bellman_ford
    rng = np.random.default_rng(21)
    if kind == "zero":
        g = random_graph(rng, 3000, 24000, weighted=True)
        w = g.weights.copy()
        w[rng.random(len(w)) < 0.3] = 0
        g = Graph.from_edges(g.edge_sources(), g.indices, w, num_vertices=3000)
    else:
        g = random_graph(rng, 1500, 15000, weighted=True, negative=True)
    sources = rng.integers(0, len(g), 16)
    runs = [sssp(g, sources, backend="cuda") for _ in range(3)]
    for d, p in runs[1:]:
        assert np.array_equal(d, runs[0][0]) and np.array_equal(p, runs[0][1])
    d, p = runs[0]
    ref = csgraph.bellman_ford(scipy_matrix(g), directed=True, indices=sources)
    np.testing.assert_allclose(d, ref, rtol=1e-4, atol=1e-4)
    check_preds(g, sources, d, p, rtol=1e-4)
    cpu = get_backend("cpu")
    dc, pc = bellman_ford(cpu, cpu.device_graph(g), sources, True)
    assert np.array_equal(d, dc) and np.array_equal(p, pc)


@pytest.mark.parametrize("directed", [True, False])
def test_edge_classes_change_nothing(gpu, monkeypatch, directed):
    """Arcs into sinks and into in-degree-1 heads skip work, self-loops are skipped: the same
    distances and predecessors as without the classes, on a graph with many of each."""
    import curnet.backends.cuda as cuda_mod
    from curnet.algorithms.sssp import bellman_ford
    from curnet.backends.cuda.sssp import class_heads
    rng = np.random.default_rng(5)
    n = 5000
    src = np.r_[rng.integers(0, n, 12000), np.arange(0, n, 7), rng.integers(0, n // 2, 3000)]
    dst = np.r_[rng.integers(0, n // 2, 12000), np.arange(0, n, 7), n // 2 + np.arange(3000) % (n // 2)]
    w = (rng.random(len(src)) + 0.01).astype(np.float32)
    g = Graph.from_edges(src, dst, w, directed=directed, num_vertices=n)
    hd = gpu.device_graph(g)
    heads, flagged = class_heads(hd, gpu.tuning)
    if not directed:                                    # classes are for directed graphs only
        assert flagged == 0
        return
    heads = heads.get().view(np.uint32)
    assert flagged and np.array_equal(heads & 0x3FFFFFFF, g.indices)
    cls = heads >> 30                                   # the class of each arc's head
    out_deg, in_deg = np.diff(g.indptr), np.bincount(g.indices, minlength=n)
    assert np.array_equal(cls & cuda_mod.CLASS_SINK > 0, out_deg[g.indices] == 0)
    assert np.array_equal(cls & cuda_mod.CLASS_IN_ONE > 0, in_deg[g.indices] == 1)
    assert (cls & cuda_mod.CLASS_SINK).sum() > 100 and (cls & cuda_mod.CLASS_IN_ONE).sum() > 100
    sources = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), 8, replace=False)
    with_classes = [bellman_ford(gpu, hd, sources, True), gpu.near_far(hd, sources, True),
                    (gpu.near_far(hd, sources, False)[0], None)]
    monkeypatch.setattr(gpu.tuning, "edge_classes", False)
    g._device.clear()
    hp = gpu.device_graph(g)
    assert class_heads(hp, gpu.tuning)[1] == 0
    without = [bellman_ford(gpu, hp, sources, True), gpu.near_far(hp, sources, True),
               (gpu.near_far(hp, sources, False)[0], None)]
    ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=sources)
    for (d1, p1), (d2, p2) in zip(with_classes, without):
        assert cp.array_equal(d1, d2)
        np.testing.assert_allclose(d1.get(), ref, rtol=1e-5)
        if p1 is not None:
            assert cp.array_equal(p1, p2)
            check_preds(g, sources, d1.get(), p1.get())


# -- several GPUs (skipped on a one-GPU machine) ---------------------------------------------

def test_backend_names_pick_gpus(gpu):
    count = cp.cuda.runtime.getDeviceCount()
    assert get_backend("cuda:0").device.id == 0
    with pytest.raises(ValueError, match=f"has {count} GPU"):
        get_backend(f"cuda:{count}")
    g = generators.rmat(10, seed=4)
    assert np.array_equal(bfs(g, [0, 5, 9], backend="cuda:0"), scipy_depths(g, [0, 5, 9]))


def test_split_on_one_gpu(gpu, monkeypatch):
    """The several-GPU split with both shares on GPU 0 (a one-GPU machine runs it too): each
    share's batches are staged straight into its rows of the caller's matrix, as on several
    GPUs; the result equals the one-backend call and SciPy's."""
    from curnet import backends
    from curnet.backends.cuda import MultiCUDABackend, CudaTuning, transfers

    def no_temporary(*args):
        raise AssertionError("a share's rows went through a temporary host copy")
    monkeypatch.setattr(transfers, "host_copy", no_temporary)
    tuning = CudaTuning(batch_limit=128, stage_min=1 << 10, stage_chunk=1 << 16)
    split = MultiCUDABackend([0, 0], tuning)
    # a contract.Backend, not a device: its primitives are its members'
    from contract_names import missing
    from curnet.backends.contract import Backend
    assert missing(split, Backend) == [] and not hasattr(split, "device_graph")
    assert split.tuning is tuning and all(m.tuning is tuning for m in split.members)
    monkeypatch.setitem(backends._instances, "cuda:0,0", split)
    ran = []                                          # which member ran each share
    for m in split.members:
        monkeypatch.setattr(m, "map_batches", lambda fn, b, *a, m=m, real=m.map_batches, **kw:
                            ran.append(m) or real(fn, b, *a, **kw))
    g = generators.rmat(14, seed=6, weighted=True)
    sources = np.random.default_rng(6).choice(np.flatnonzero(np.diff(g.indptr) > 0), 700, replace=False)
    want = scipy_depths(g, sources)
    for order, dtype in (("F", np.int32), ("C", np.int32), ("F", np.float32)):
        out = np.full((700, len(g)), 7, dtype=dtype, order=order)
        bfs(g, sources, backend="cuda:0,0", out=out)
        assert np.array_equal(out, want)
    d1, p1 = sssp(g, sources[:300], backend="cuda")
    d2, p2 = sssp(g, sources[:300], backend="cuda:0,0")
    assert np.array_equal(d1, d2) and np.array_equal(p1, p2)
    assert {id(m) for m in ran} == {id(m) for m in split.members}


@pytest.mark.skipif(cp is None or cp.cuda.runtime.getDeviceCount() < 2, reason="needs two GPUs")
def test_several_gpus_split_sources(gpu):
    g = generators.rmat(16, seed=6, weighted=True)
    sources = np.random.default_rng(6).choice(np.flatnonzero(np.diff(g.indptr) > 0), 700, replace=False)
    multi = get_backend("cuda:all")
    assert len(multi.members) == cp.cuda.runtime.getDeviceCount()
    assert np.array_equal(bfs(g, sources, backend="cuda:all"), bfs(g, sources, backend="cuda"))
    assert {f"cuda:{m.device.id}" for m in multi.members} <= set(g._device)
    d1, p1 = sssp(g, sources[:300], backend="cuda")
    d2, p2 = sssp(g, sources[:300], backend="cuda:all")
    assert np.array_equal(d1, d2) and np.array_equal(p1, p2)      # deterministic predecessors
    assert np.array_equal(sssp_dists(g, sources[:300], backend="cuda:all"), d1)
    assert np.array_equal(scc(g, backend="cuda:all"), scc(g, backend="cuda"))
    # an error in the second GPU's share reaches the caller, and the next call works
    n = len(g)
    neg = Graph.from_edges(np.r_[g.edge_sources(), n, n + 1, n + 2], np.r_[g.indices, n + 1, n + 2, n],
                           np.r_[g.weights, 1, 1, -5].astype(np.float32), num_vertices=n + 3)
    with pytest.raises(NegativeCycleError) as e:
        sssp(neg, np.r_[sources[:50], n], backend="cuda:all")
    assert e.value.source == n
    assert np.array_equal(bfs(g, sources[:64], backend="cuda:all"), bfs(g, sources[:64], backend="cuda"))


# -- float64 near-far: R's double-precision weights (issue 27) -------------------------------

@pytest.mark.parametrize("kind", ["real", "ties", "zeros", "tiny"])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("heavy", [256, 4])
def test_near_far_f64_equals_dijkstra(gpu, monkeypatch, kind, directed, heavy):
    """float64 near-far: distances equal SciPy's Dijkstra bit for bit (and float64 Bellman-Ford's
    Jacobi rounds), at any Delta; predecessors exact, acyclic, the smallest lengthening tight
    tail where one exists (the float32 packed word's rule), adoption rounds only where zero or
    rounded-away weights leave ties."""
    from curnet.algorithms.sssp import bellman_ford
    monkeypatch.setattr(gpu.tuning, "nf_heavy", heavy)
    for seed, (n, m, kb, factor) in enumerate([(2000, 16000, 1, 1.0), (3000, 20000, 7, 0.1),
                                                (500, 8000, 3, 8.0), (4000, 5000, 2, 1.0)]):
        monkeypatch.setattr(gpu.tuning, "nf_delta_factor", factor)
        rng = np.random.default_rng(300 + seed)
        g = f64_graph(rng, n, m, directed=directed, kind=kind)
        hd = gpu.device_graph(g)
        ids = rng.integers(0, n, kb).astype(np.int32)
        assert gpu.sssp_method(hd, kb, True) == "near_far" and gpu.sssp_method(hd, kb, False) == "near_far"
        ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=ids)
        rounds_before = gpu.stats.get("nf_pred_rounds", 0)
        d, p = gpu.near_far(hd, ids, True)
        d, p = d.get(), p.get()
        assert d.dtype == np.float64 and np.array_equal(d, ref)
        check_preds_exact(g, ids, d, p)
        assert np.array_equal(p, tight_predecessors(d, ids, g.edge_sources(), g.indices, g.weights))
        adopted = gpu.stats.get("nf_pred_rounds", 0) - rounds_before
        if kind in ("real", "ties"):       # every tie broken by a lengthening arc: no adoption
            assert adopted == 0
            assert np.array_equal(p, min_tight_tails(g, ids, d))
        d2, none = gpu.near_far(hd, ids, False)
        assert none is None and np.array_equal(d2.get(), ref)
        d3, p3 = gpu.near_far(hd, ids, True)         # the same on every run
        assert np.array_equal(d3.get(), d) and np.array_equal(p3.get(), p)
        bd, _ = bellman_ford(gpu, hd, ids, False)
        assert np.array_equal(bd.get(), d)
    if kind in ("zeros", "tiny"):      # the adoption rounds ran (ties only zero/tiny weights reach)
        assert gpu.stats.get("nf_pred_rounds", 0) > 0


@pytest.mark.parametrize("directed", [True, False])
def test_sssp_f64_takes_near_far(gpu, directed):
    """sssp / sssp_dists on float64 weights (R's numbers): near-far, no Bellman-Ford round;
    distances equal SciPy's exactly, in float64; negative weights still take Bellman-Ford."""
    from curnet.work import count_work
    rng = np.random.default_rng(17)
    g = generators.rmat(12, seed=3, directed=directed, weighted=True, dtype=np.float64)
    sources = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), 24, replace=False)
    ref = csgraph.dijkstra(scipy_matrix(g), directed=True, indices=sources)
    with count_work() as work:
        dist, pred = sssp(g, sources, backend="cuda")
        d2 = sssp_dists(g, sources, backend="cuda")
    assert work["sssp rounds"] == 0
    assert dist.dtype == np.float64 and np.array_equal(dist, ref) and np.array_equal(d2, ref)
    check_preds_exact(g, sources, dist, pred)
    assert np.array_equal(pred, tight_predecessors(dist, sources, g.edge_sources(), g.indices, g.weights))
    neg = random_graph(rng, 300, 3000, weighted=True, negative=True, dtype=np.float64)
    assert gpu.sssp_method(gpu.device_graph(neg), 4, False) == "bellman_ford"


def test_near_far_f64_long_falls_back(gpu, monkeypatch):
    monkeypatch.setattr(gpu.tuning, "nf_max_iters", 64)
    src = np.arange(4999)
    g = Graph.from_edges(src, src + 1, np.full(4999, 0.5), num_vertices=5000, dtype=np.float64)
    dist, pred = sssp(g, [0], backend="cuda")
    assert dist.dtype == np.float64 and dist[0, -1] == 2499.5 and pred[0, -1] == 4998
    assert gpu.device_graph(g).long_diameter
