"""The CPU backend's compiled strong components (backends/cpu/compiled_scc.py) against SciPy's
and against partitions known by construction; the public call forced onto that route."""
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from scipy.sparse import csgraph, csr_matrix

pytest.importorskip("numba")

import curnet  # noqa: E402
import oracles  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.backends.arrays import canonical_labels  # noqa: E402
from curnet.backends.cpu import compiled_scc  # noqa: E402
from curnet.backends.cpu import scc as cpu_scc  # noqa: E402
from curnet.generators import rmat  # noqa: E402
from curnet.work import count_work  # noqa: E402
from strategies import graphs  # noqa: E402
from test_algorithms import scc_shaped_graphs  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))     # the repository: bench/
from bench.cpu_scc import chain_of_two_cycles  # noqa: E402


def compiled(g):
    hg = get_backend("cpu").device_graph(g)
    labels = compiled_scc.scc_labels(hg.out_ptr, hg.out_idx, hg.in_ptr, hg.in_src)
    assert labels.dtype == np.int32 and len(labels) == len(g)
    # each component is labelled with one of its own vertices
    assert (labels[labels] == labels).all()
    return canonical_labels(labels)


@given(graphs(max_vertices=40))
def test_compiled_matches_scipy_on_random_graphs(g):
    np.testing.assert_array_equal(compiled(g), oracles.canonical(oracles.scc_partition(g)))


@given(scc_shaped_graphs())
def test_compiled_matches_scipy_on_cycles_chains_loops_and_repeats(g):
    np.testing.assert_array_equal(compiled(g), oracles.canonical(oracles.scc_partition(g)))


def layered_components(seed, sizes, small=300, tails=2000):
    """A graph with known components: strongly connected blocks of `sizes` (a ring and random
    chords each), `small` cycles of 1-5 vertices (a lone vertex has a self-loop or not), arcs
    only from earlier to later blocks, and `tails` chain vertices hanging into and out of the
    blocks (each its own component: the trim's work); the ids shuffled."""
    rng = np.random.default_rng(seed)
    sizes = list(sizes) + list(rng.integers(1, 6, small))
    block = np.repeat(np.arange(len(sizes)), sizes)
    starts = np.r_[0, np.cumsum(sizes)]
    src, dst = [], []
    for b, (lo, hi) in enumerate(zip(starts[:-1], starts[1:])):
        ring = np.arange(lo, hi)
        if hi - lo > 1 or rng.random() < 0.5:
            src.append(ring)
            dst.append(np.roll(ring, -1))
        chords = 3 * (hi - lo) if hi - lo > 5 else 0
        src.append(rng.integers(lo, hi, chords))
        dst.append(rng.integers(lo, hi, chords))
    n_blocks = starts[-1]
    a, b = rng.integers(0, n_blocks, (2, 4 * n_blocks))     # forward arcs between blocks
    cross = block[a] != block[b]
    src.append(np.minimum(a, b)[cross])
    dst.append(np.maximum(a, b)[cross])
    chain = np.arange(n_blocks, n_blocks + tails)               # chains: into blocks, out of them
    half = tails // 2
    src += [chain[:half - 1], rng.integers(0, n_blocks, 1), chain[half:-1], chain[-1:]]
    dst += [chain[1:half], chain[:1], chain[half + 1:], rng.integers(0, n_blocks, 1)]
    n = n_blocks + tails
    expected = np.r_[block, len(sizes) + np.arange(tails)]
    perm = rng.permutation(n)                                   # vertex i becomes perm[i]
    src, dst = perm[np.concatenate(src)], perm[np.concatenate(dst)]
    labels = np.empty(n, np.int64)
    labels[perm] = expected
    return curnet.Graph.from_edges(src, dst, directed=True, num_vertices=n), labels


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compiled_finds_several_large_components_and_the_small_ones(seed):
    """Several peels (each block at least a tenth of what is left), then Tarjan's search over
    the small cycles; the blocks' frontiers grow past the serial push to the threads' pushes
    and the bottom-up levels."""
    g, expected = layered_components(seed, sizes=[3000, 2000, 1500, 1000])
    labels = compiled(g)
    np.testing.assert_array_equal(labels, oracles.canonical(expected))
    np.testing.assert_array_equal(labels, oracles.canonical(oracles.scc_partition(g)))


def test_compiled_on_a_long_cycle_beside_a_long_chain():
    """20,000 levels a search: one vertex a level."""
    k = 20_000
    ring = np.arange(k)
    chain = np.arange(k, 2 * k)
    g = curnet.Graph.from_edges(np.r_[ring, chain[:-1], ring[:1]], np.r_[np.roll(ring, -1), chain[1:], chain[:1]],
                                directed=True, num_vertices=2 * k)
    np.testing.assert_array_equal(compiled(g), np.r_[np.zeros(k, int), np.arange(1, k + 1)])


def test_compiled_on_an_undirected_graph_gives_its_connected_components():
    g = rmat(10, edge_factor=1, seed=3, directed=False)
    n, parts = csgraph.connected_components(oracles.scipy_matrix(g), directed=False)
    assert n > 1
    np.testing.assert_array_equal(compiled(g), oracles.canonical(parts))


@pytest.mark.parametrize("max_levels", [1, 3])
def test_a_search_past_its_levels_hands_the_rest_to_tarjan(monkeypatch, max_levels):
    """Peels whose searches stop at PEEL_MAX_LEVELS leave the alive vertices to Tarjan's
    search: the same partition, on a chain of 2-cycles beside a ring (every search deep) and
    on the layered graph (peels, then the stop)."""
    monkeypatch.setattr(compiled_scc, "PEEL_MAX_LEVELS", max_levels)
    src, dst, n = chain_of_two_cycles(3000, ring=500)
    g = curnet.Graph.from_edges(src, dst, directed=True, num_vertices=n)
    np.testing.assert_array_equal(compiled(g), oracles.canonical(oracles.scc_partition(g)))
    layered, expected = layered_components(9, sizes=[2000, 1000, 500], small=100, tails=300)
    np.testing.assert_array_equal(compiled(layered), oracles.canonical(expected))


@given(graphs(max_vertices=40))
def test_compiled_matches_scipy_when_every_search_stops_at_one_level(g):
    saved = compiled_scc.PEEL_MAX_LEVELS
    compiled_scc.PEEL_MAX_LEVELS = 1
    try:
        np.testing.assert_array_equal(compiled(g), oracles.canonical(oracles.scc_partition(g)))
    finally:
        compiled_scc.PEEL_MAX_LEVELS = saved


def test_reach_levels_are_breadth_first_depths():
    """The searches' levels (serial, threaded and bottom-up levels mixed) are BFS depths inside
    the alive vertices, both ways."""
    g = rmat(12, seed=4, directed=True)
    hg = get_backend("cpu").device_graph(g)
    rng = np.random.default_rng(4)
    alive = rng.random(len(g)) < 0.9
    pivot = int(np.argmax(np.where(alive, np.diff(hg.out_ptr), -1)))
    keep = alive[hg.out_src] & alive[hg.out_idx]
    inside = csr_matrix((np.ones(keep.sum()), (hg.out_src[keep], hg.out_idx[keep])), shape=(len(g), len(g)))
    threads = compiled_scc.numba.get_num_threads()
    for matrix, arcs in ((inside, (hg.out_ptr, hg.out_idx, hg.in_ptr, hg.in_src)),
                         (inside.T.tocsr(), (hg.in_ptr, hg.in_src, hg.out_ptr, hg.out_idx))):
        depth = csgraph.shortest_path(matrix, unweighted=True, indices=pivot)
        expected = np.where(np.isinf(depth), -1, depth).astype(np.int32)
        level, whole = compiled_scc._reach(*arcs, alive, int(alive.sum()), pivot, threads, 1 << 20)
        np.testing.assert_array_equal(level, expected)
        assert whole and level.max() > 3
        # stopped after 2 levels: the levels reached so far, and no further
        cut, whole = compiled_scc._reach(*arcs, alive, int(alive.sum()), pivot, threads, 2)
        assert not whole
        np.testing.assert_array_equal(cut, np.where(expected <= 2, expected, -1))


def test_public_call_takes_the_compiled_route_from_its_threshold(monkeypatch):
    g, expected = layered_components(5, sizes=[2000, 1000], small=50, tails=100)
    arcs = g.num_arcs
    monkeypatch.setattr(cpu_scc, "COMPILED_MIN_ARCS", arcs + 1)
    with count_work() as below:
        labels = curnet.scc(g, backend="cpu")
    monkeypatch.setattr(cpu_scc, "COMPILED_MIN_ARCS", arcs)
    with count_work() as at:
        assert np.array_equal(curnet.scc(g, backend="cpu"), labels)
    assert below == {"scc whole-graph runs": 1}, below
    assert at == {"scc whole-graph runs": 1, "scc compiled runs": 1}, at
    np.testing.assert_array_equal(labels, oracles.canonical(expected))


def test_public_call_keeps_scipys_route_without_numba(monkeypatch):
    g, expected = layered_components(6, sizes=[500], small=20, tails=50)
    monkeypatch.setattr(cpu_scc, "COMPILED_MIN_ARCS", 0)
    monkeypatch.setattr(compiled_scc, "available", lambda: False)
    with count_work() as work:
        labels = curnet.scc(g, backend="cpu")
    assert work == {"scc whole-graph runs": 1}, work
    np.testing.assert_array_equal(labels, oracles.canonical(expected))


@pytest.mark.parametrize("threads", [1, 2, 3, 7, 64])
def test_gather_lists_a_depth_in_id_order_whatever_the_threads(threads):
    """A bottom-up level's vertices gathered as the next frontier: each thread's slice listed
    at its start, then moved together (more slices than vertices included)."""
    level = np.random.default_rng(threads).integers(-1, 4, 50).astype(np.int32)
    for depth in range(-1, 5):
        expected = np.flatnonzero(level == depth)
        got = compiled_scc._gather(level, depth, threads)
        np.testing.assert_array_equal(got[:len(expected)], expected)
