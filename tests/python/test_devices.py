"""The split of a many-source job over several devices (algorithms.common.over_devices).

On a machine without GPUs the split runs over two CPU backends: the same threads, shares,
progress and error handling as over two GPUs (the GPU version is in test_gpu.py)."""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from scipy.sparse import csgraph

import curnet
from curnet import generators
from curnet.algorithms.bfs import bfs
from curnet.algorithms import common
from curnet.algorithms.common import over_devices
from curnet.algorithms.sssp import sssp, sssp_dists
from curnet.backends import get_backend
from curnet.backends.cpu import CPUBackend
from curnet.errors import NegativeCycleError


class TwoCPUs:
    """Two CPU backends standing where a multi-GPU backend's members stand."""

    def __init__(self):
        self.members = [CPUBackend(), CPUBackend()]

    def host_result(self, shape, dtype):
        return self.members[0].host_result(shape, dtype)


@pytest.fixture
def two(monkeypatch):
    be = TwoCPUs()
    for mod in (sys.modules["curnet.algorithms.bfs"], sys.modules["curnet.algorithms.sssp"],
                sys.modules["curnet.algorithms.betweenness.driver"]):
        monkeypatch.setattr(mod, "get_backend", lambda name: be if name == "two" else get_backend(name))
    return be


def test_shares_give_the_whole_result(two):
    g = generators.rmat(10, seed=3, weighted=True)
    sources = np.random.default_rng(0).integers(0, len(g), 37)
    assert np.array_equal(bfs(g, sources, backend="two"), bfs(g, sources, backend="cpu"))
    d2, p2 = sssp(g, sources, backend="two")
    d1, _ = sssp(g, sources, backend="cpu")
    assert np.array_equal(d1, d2)
    ref = csgraph.dijkstra(CPUBackend().device_graph(g).scipy_matrix(), indices=sources)
    np.testing.assert_allclose(d2, ref, rtol=1e-5)
    assert np.array_equal(sssp_dists(g, sources, backend="two"), d1)
    # both members worked, each on the graph of its own
    assert all(m.device_graph(g) is not None for m in two.members)


def test_betweenness_pieces_give_the_whole_sum(two):
    g = generators.rmat(9, seed=4)
    one = curnet.betweenness(g, backend="cpu", progress=False)
    both = curnet.betweenness(g, backend="two", progress=False)
    np.testing.assert_allclose(both, one, rtol=1e-12)
    e1 = curnet.edge_betweenness(g, backend="cpu", progress=False)
    np.testing.assert_allclose(curnet.edge_betweenness(g, backend="two", progress=False), e1, rtol=1e-12)


def test_a_device_that_ends_early_takes_the_next_piece():
    """Pieces are taken, not dealt: while one device is held up in its first piece, the other
    takes every remaining piece, and each piece runs once."""
    be = TwoCPUs()
    taken: dict = {}
    slow_started, release = threading.Event(), threading.Event()
    lock = threading.Lock()

    def work(member, first, ids, report):
        # the GPUs' threads hand the interpreter lock over often while they run
        assert sys.getswitchinterval() == pytest.approx(common.SWITCH_INTERVAL)
        with lock:
            slow = not taken or taken.get(id(member)) == "slow"
            taken.setdefault(id(member), "slow" if slow else "fast")
            taken.setdefault("pieces", []).append((taken[id(member)], first, len(ids)))
            done = len(taken["pieces"]) == 8
        if slow:
            slow_started.set()
            assert release.wait(timeout=60)
        else:
            assert slow_started.wait(timeout=60)
            if done:
                release.set()
        report(len(ids))

    class Bar:
        total = 0

        def update(self, done):
            Bar.total += done

    before = sys.getswitchinterval()
    over_devices(be, np.arange(100), work, Bar(), piece_size=13)     # 8 pieces of 13 or fewer
    assert sys.getswitchinterval() == before
    pieces = taken["pieces"]
    assert [who for who, _, _ in pieces].count("slow") == 1
    assert sorted(first for _, first, _ in pieces) == [0, 13, 26, 39, 52, 65, 78, 91]
    assert sum(size for _, _, size in pieces) == 100 and Bar.total == 100


@pytest.mark.parametrize("k, devices, piece_size, width", [
    (506_756, 2, 4096, 4096),    # R-MAT 20 exact on two H200s: was 4,086 and 4,087 alternating
    (60_392, 2, 4096, 3776),     # 65,536 sampled sources: 16 pieces, the last 3,752
    (506_756, 2, 2944, 2944),    # on two H100s (batches of 2,944)
    (1000, 2, None, 512),        # BFS and SSSP: one piece a device
    (37, 2, None, 19),           # a small job is not rounded up onto one device
    (100, 2, 13, 13),
])
def test_piece_width(k, devices, piece_size, width):
    assert common.piece_width(k, devices, piece_size) == width


def test_pieces_are_aligned_and_within_a_batch():
    rng = np.random.default_rng(5)
    for _ in range(500):
        k, devices = int(rng.integers(1, 200_000)), int(rng.integers(1, 5))
        size = int(rng.integers(1, 200)) * 32
        w = common.piece_width(k, devices, size)
        assert 1 <= w <= size
        assert w % common.PIECE_ALIGN == 0 or w <= common.PIECE_ALIGN or w == size
        # never more pieces than a round of batches on every device
        assert -(-k // w) <= devices * -(-k // (devices * size))


def test_progress_is_reported_from_the_calling_thread(two):
    g = generators.rmat(9, seed=1)
    for m in two.members:
        m.batch_limit = 4
    seen = []
    caller = threading.get_ident()
    bfs(g, np.arange(40), backend="two", progress=lambda done, total: seen.append((done, total, threading.get_ident())))
    assert seen and seen[-1][:2] == (40, 40)
    assert all(t == caller for _, _, t in seen)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)


def test_an_error_in_one_share_stops_the_job(two):
    # a negative cycle reachable only from the last source (in the second share)
    n = 50
    src = list(range(n - 1)) + [n, n + 1, n + 2]
    dst = list(range(1, n)) + [n + 1, n + 2, n]
    w = [1.0] * (n - 1) + [1.0, 1.0, -5.0]
    g = curnet.Graph.from_edges(src, dst, w, num_vertices=n + 3)
    with pytest.raises(NegativeCycleError) as e:
        sssp(g, list(range(10)) + [n], backend="two")
    assert e.value.source == n
    # the graph and the backends stay usable
    d, _ = sssp(g, [0], backend="two")
    assert d[0, n - 1] == n - 1


def test_an_interrupt_stops_every_share(two):
    g = generators.rmat(9, seed=2)
    for m in two.members:
        m.batch_limit = 2
    calls = []

    def interrupt(done, total):
        calls.append(done)
        if len(calls) == 1:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        bfs(g, np.arange(64), backend="two", progress=interrupt)
    alive = [t.name for t in threading.enumerate() if t.name.startswith("curnet-gpu")]
    assert alive == []
    assert np.array_equal(bfs(g, np.arange(8), backend="two"), bfs(g, np.arange(8), backend="cpu"))


def test_backend_names():
    with pytest.raises(ValueError, match="cuda:all"):
        get_backend("gpu")


def test_folded_leaves_split_over_pieces(two):
    """Leaf sources folded into their neighbours' columns, the columns cut into pieces over two
    devices: each anchor's correction is added once; igraph's sums, all sources and a subset."""
    import igraph as ig
    rng = np.random.default_rng(8)
    core = rng.integers(0, 60, (150, 2))
    leaves = np.c_[np.arange(60, 160), rng.integers(0, 80, 100)]      # some leaves hang on leaves
    edges = np.r_[core, leaves]
    g = curnet.Graph.from_edges(edges[:, 0], edges[:, 1], directed=False, num_vertices=165)
    G = ig.Graph(n=165, edges=edges.tolist())
    np.testing.assert_allclose(curnet.betweenness(g, backend="two", progress=False), G.betweenness(), rtol=1e-9)
    sources, targets = list(range(50, 165, 2)), list(range(0, 165, 3))
    np.testing.assert_allclose(curnet.betweenness(g, sources=sources, targets=targets, backend="two", progress=False),
                               G.betweenness(sources=sources, targets=targets), rtol=1e-9, atol=1e-12)


def test_jobs_at_once_restore_the_switch_interval_after_the_last():
    """Two multi-device jobs overlapping in time (threads of one process): the interval stays
    lowered until the later of them ends, then is Python's own again."""
    be = TwoCPUs()
    before = sys.getswitchinterval()
    inner_done = threading.Event()
    seen = []

    class Bar:
        def update(self, done):
            pass

    def inner(member, first, ids, report):
        report(len(ids))

    def outer(member, first, ids, report):
        if first == 0:
            over_devices(be, np.arange(10), inner, Bar())    # starts and ends inside the outer job
            inner_done.set()
        assert inner_done.wait(timeout=60)
        seen.append(sys.getswitchinterval())
        report(len(ids))

    over_devices(be, np.arange(20), outer, Bar())
    assert seen and all(s == pytest.approx(common.SWITCH_INTERVAL) for s in seen)
    assert sys.getswitchinterval() == before
