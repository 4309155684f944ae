"""curnet.leiden / curnet.louvain on the CPU against python-igraph and NetworkX: modularity
recomputed by both, every Leiden community connected, planted partitions recovered (ARI),
igraph's median quality over seeds matched within 0.2%, and the edge cases and errors."""
from __future__ import annotations

import numpy as np
import pytest

import curnet
from oracles import planted
from curnet.backends.cpu.leiden import CpuMoves
from curnet.backends.partitions import level_graph
from leiden_levels import level_quality, moving_start, random_arcs, refine_start

ig = pytest.importorskip("igraph")
nx = pytest.importorskip("networkx")


def to_igraph(g):
    src, dst, w = g.edges()
    G = ig.Graph(n=len(g), edges=np.c_[src, dst].tolist())
    if w is not None:
        G.es["weight"] = w.astype(float).tolist()
    return G


def to_nx(g):
    src, dst, w = g.edges()
    G = nx.MultiGraph()
    G.add_nodes_from(range(len(g)))
    for i, (u, v) in enumerate(zip(src.tolist(), dst.tolist())):
        G.add_edge(u, v, weight=1.0 if w is None else float(w[i]))
    return G


def assert_connected(G, membership):
    for c in np.unique(membership):
        members = np.flatnonzero(membership == c).tolist()
        assert G.induced_subgraph(members).is_connected(), f"community {c} is not connected"


def ari(a, b):
    return ig.compare_communities(a.tolist(), b.tolist(), method="adjusted_rand")


def check(g, p, resolution=1.0):
    """The reported modularity is igraph's and NetworkX's; communities are connected."""
    G = to_igraph(g)
    w = "weight" if g.weighted else None
    assert p.quality == pytest.approx(G.modularity(p.membership.tolist(), weights=w,
                                                   resolution=resolution), abs=1e-9)
    groups = [set(np.flatnonzero(p.membership == c).tolist()) for c in range(p.n_communities)]
    assert p.quality == pytest.approx(nx.community.modularity(to_nx(g), groups, weight="weight",
                                                              resolution=resolution), abs=1e-9)
    assert sorted(np.unique(p.membership)) == list(range(p.n_communities))
    if p.algorithm == "leiden":
        assert_connected(G, p.membership)


def cpm(G, membership, resolution):
    """igraph's CPM quality: (2 x the weight inside communities - resolution x sum of the
    squared community sizes) / 2m."""
    m = np.asarray(membership)
    ends = np.array(G.get_edgelist()).reshape(-1, 2)
    inside = 2.0 * np.sum(m[ends[:, 0]] == m[ends[:, 1]])
    return (inside - resolution * np.sum(np.bincount(m) ** 2.0)) / (2.0 * G.ecount())


def igraph_median(G, algorithm, seeds, **kw):
    import random
    out = []
    for s in seeds:
        random.seed(s)
        ig.set_random_number_generator(random)
        r = (G.community_leiden(objective_function="modularity", n_iterations=-1, **kw)
             if algorithm == "leiden" else G.community_multilevel(**kw))
        out.append(G.modularity(r.membership, weights=kw.get("weights")))
    return float(np.median(out))


@pytest.mark.parametrize("algorithm", ["leiden", "louvain"])
def test_planted_partition_quality_and_recovery(algorithm):
    g, truth = planted(8, 40, 0.3, 0.02, seed=1)
    G = to_igraph(g)
    run = curnet.leiden if algorithm == "leiden" else curnet.louvain
    kw = {"n_iterations": -1} if algorithm == "leiden" else {}
    ours = [run(g, seed=s, backend="cpu", **kw) for s in range(5)]
    for p in ours:
        check(g, p)
    theirs = igraph_median(G, algorithm, range(5))
    assert np.median([p.quality for p in ours]) >= theirs - 0.002 * abs(theirs)
    assert np.median([ari(p.membership, truth) for p in ours]) >= 0.95


def test_real_network_string_sample():
    """STRING's sample (the datasets layer): Leiden's median modularity over seeds within
    0.2% of igraph's (skipped where the sample cannot be fetched)."""
    from curnet import datasets
    try:
        g = datasets.load("string_sample", weights=None)
    except Exception as e:     # no network and no cache
        pytest.skip(f"string_sample unavailable: {e}")
    G = to_igraph(g)
    ours = [curnet.leiden(g, seed=s, n_iterations=-1, backend="cpu") for s in range(3)]
    assert_connected(G, ours[0].membership)
    assert ours[0].quality == pytest.approx(G.modularity(ours[0].membership.tolist()), abs=1e-9)
    theirs = igraph_median(G, "leiden", range(3))
    assert np.median([p.quality for p in ours]) >= theirs - 0.002 * theirs


def test_weighted_graph_against_igraph():
    g0, truth = planted(5, 30, 0.3, 0.05, seed=4)
    src, dst, _ = g0.edges()
    rng = np.random.default_rng(0)
    w = np.where(truth[src] == truth[dst], rng.uniform(1, 3, len(src)), rng.uniform(0.1, 0.5, len(src)))
    g = curnet.Graph.from_edges(src, dst, w, directed=False, num_vertices=len(g0), dtype=np.float64)
    G = to_igraph(g)
    p = curnet.leiden(g, seed=0, n_iterations=-1, backend="cpu")
    check(g, p)
    assert p.quality >= igraph_median(G, "leiden", range(3), weights="weight") * 0.998
    unweighted = curnet.leiden(g, weighted=False, seed=0, backend="cpu")
    assert unweighted.quality == pytest.approx(to_igraph(g0).modularity(unweighted.membership.tolist()))


def test_cpm_against_igraph_quality():
    """CPM: igraph's reported quality for our membership, resolutions 0 and 1 included."""
    g, _ = planted(4, 25, 0.4, 0.05, seed=2)
    G = to_igraph(g)
    for resolution in (0.0, 0.05, 1.0):
        p = curnet.leiden(g, objective="cpm", resolution=resolution, seed=0, backend="cpu")
        r = G.community_leiden(objective_function="cpm", resolution=resolution, n_iterations=2)
        assert r.quality == pytest.approx(cpm(G, r.membership, resolution), abs=1e-9)  # the formula is igraph's
        assert p.quality == pytest.approx(cpm(G, p.membership, resolution), abs=1e-9)
        assert p.quality >= r.quality - 0.002 * abs(r.quality)
        assert_connected(G, p.membership)
    # resolution 0: every connected component one community; 1: no edge is worth a pair
    comps = np.array(G.connected_components().membership)
    zero = curnet.leiden(g, objective="cpm", resolution=0.0, seed=0, backend="cpu")
    assert zero.membership.tolist() == comps.tolist()
    one = curnet.leiden(g, objective="cpm", resolution=1.0, seed=0, backend="cpu")
    assert one.quality <= 0 and one.sizes().max() <= 2


def test_edge_cases():
    empty = curnet.Graph.from_edges([], [], directed=False, num_vertices=4)
    p = curnet.leiden(empty, seed=0, backend="cpu")
    assert p.membership.tolist() == [0, 1, 2, 3] and np.isnan(p.quality)
    assert curnet.louvain(empty, backend="cpu").membership.tolist() == [0, 1, 2, 3]
    one = curnet.Graph.from_edges([], [], directed=False, num_vertices=1)
    assert curnet.leiden(one, backend="cpu").membership.tolist() == [0]
    nothing = curnet.Graph.from_edges([], [], directed=False, num_vertices=0)
    assert len(curnet.leiden(nothing, backend="cpu").membership) == 0
    # two triangles, an isolated vertex, a self-loop and a doubled edge
    src = [0, 1, 2, 3, 4, 5, 0, 0, 3]
    dst = [1, 2, 0, 4, 5, 3, 0, 1, 4]
    g = curnet.Graph.from_edges(src, dst, directed=False, num_vertices=7)
    for run in (curnet.leiden, curnet.louvain):
        p = run(g, seed=0, backend="cpu")
        check(g, p)
        assert p.membership.tolist() == [0, 0, 0, 1, 1, 1, 2]


def test_seeds_reproducible_and_initial_membership():
    g, truth = planted(6, 30, 0.25, 0.04, seed=3)
    a = curnet.leiden(g, seed=7, backend="cpu")
    b = curnet.leiden(g, seed=7, backend="cpu")
    assert a.membership.tolist() == b.membership.tolist() and a.quality == b.quality
    start = curnet.leiden(g, initial=truth, n_iterations=1, seed=0, backend="cpu")
    assert start.quality >= to_igraph(g).modularity(truth.tolist()) - 1e-12
    check(g, start)


def test_errors():
    d = curnet.Graph.from_edges([0, 1], [1, 2], directed=True)
    with pytest.raises(ValueError, match="only implemented for undirected"):
        curnet.leiden(d, backend="cpu")
    with pytest.raises(ValueError, match="undirected graphs only"):
        curnet.louvain(d, backend="cpu")
    g = curnet.Graph.from_edges([0, 1], [1, 2], directed=False)
    with pytest.raises(ValueError, match="length 2, but the graph has 3"):
        curnet.leiden(g, initial=[0, 1], backend="cpu")
    with pytest.raises(ValueError, match="objective"):
        curnet.leiden(g, objective="surprise", backend="cpu")
    with pytest.raises(ValueError, match="non-negative"):
        curnet.louvain(g, resolution=-1, backend="cpu")
    with pytest.raises(ValueError, match="beta"):
        curnet.leiden(g, beta=0, backend="cpu")
    with pytest.raises(ValueError, match="no edge weights"):
        curnet.leiden(g, weighted=True, backend="cpu")
    with pytest.raises(ValueError, match="vertex_weights"):
        curnet.leiden(g, objective="cpm", vertex_weights=[1, 2], backend="cpu")


def test_best_moves_rules():
    """The NumPy primitive alone: the best neighbouring community, ties to the smaller id,
    no move without a gain, bound and target_ok honoured."""
    # a path 0-1-2-3 with weights 1, 2, 1: vertex 1 prefers 2's community
    src = np.array([0, 1, 1, 2, 2, 3])
    dst = np.array([1, 0, 2, 1, 3, 2])
    w = np.array([1.0, 1, 2, 2, 1, 1])
    lg = level_graph(np, src, dst, w, 4)
    comm = np.arange(4, dtype=np.int32)
    ones = np.ones(4)
    total = ones.copy()
    target, gain = CpuMoves().best_moves(lg, comm, None, ones, total, 0.0, np.ones(4, bool), None, 0.0, 1)
    assert target.tolist() == [1, 2, 1, 2] and gain.tolist() == [1, 2, 2, 1]
    target, _ = CpuMoves().best_moves(lg, comm, None, ones, total, 5.0, np.ones(4, bool), None, 0.0, 1)
    assert target.tolist() == [0, 1, 2, 3]                   # the penalty outweighs every arc
    bound = np.array([0, 0, 1, 1], np.int32)
    target, _ = CpuMoves().best_moves(lg, comm, bound, ones, total, 0.0, np.ones(4, bool), None, 0.0, 1)
    assert target.tolist() == [1, 0, 3, 2]
    ok = np.array([True, False, True, True])
    target, _ = CpuMoves().best_moves(lg, comm, None, ones, total, 0.0, np.ones(4, bool), ok, 0.0, 1)
    assert target.tolist() == [0, 2, 3, 2]


def test_cli_communities(tmp_path, capsys):
    from curnet.cli import main
    net = tmp_path / "net.tsv"
    net.write_text("a\tb\na\tc\nb\tc\nd\te\ne\tf\nd\tf\nc\td\n")
    out = tmp_path / "comm.tsv"
    assert main(["communities", str(net), "--undirected", "--no-header", "--backend", "cpu",
                 "--out", str(out)]) in (0, None)
    lines = out.read_text().split("\n")
    assert lines[0] == "vertex\tcommunity"
    got = dict(line.split("\t") for line in lines[1:] if line)
    assert got["a"] == got["b"] == got["c"] != got["d"] == got["e"] == got["f"]
    assert main(["communities", str(net), "--undirected", "--no-header", "--backend", "cpu",
                 "--method", "louvain", "--resolution", "0.5", "1", "--seed", "1", "2",
                 "--out", str(out)]) in (0, None)
    assert len(out.read_text().strip().split("\n")) == 1 + 4 * 6
    assert main(["communities", str(net), "--no-header", "--backend", "cpu"]) == 2   # directed
    assert "undirected" in capsys.readouterr().err


def test_sweep_consensus_and_profile():
    g, truth = planted(5, 30, 0.3, 0.03, seed=8)
    G = to_igraph(g)
    s = curnet.leiden(g, resolutions=[0.5, 1.0, 2.0], seeds=[1, 2, 3], backend="cpu")
    assert s.memberships.shape == (9, len(g))
    assert s.resolution.tolist() == [0.5] * 3 + [1.0] * 3 + [2.0] * 3 and s.seed == [1, 2, 3] * 3
    for row, q, r in zip(s.memberships, s.quality, s.resolution):
        assert q == pytest.approx(G.modularity(row.tolist(), resolution=r), abs=1e-9)
        assert_connected(G, row)
    one = curnet.leiden(g, resolution=1.0, seed=2, backend="cpu")
    assert s.memberships[4].tolist() == one.membership.tolist()     # on the CPU: the same run alone
    src, dst, _ = g.edges()
    share = s.coassignment()
    assert share == pytest.approx((s.memberships[:, src] == s.memberships[:, dst]).mean(axis=0))
    consensus = s.consensus()
    assert ari(consensus.membership, truth) >= 0.95
    assert consensus.quality == pytest.approx(G.modularity(consensus.membership.tolist()), abs=1e-9)
    profile = s.profile()
    assert profile["resolution"].tolist() == [0.5, 1.0, 2.0]
    assert profile["communities"][0] <= profile["communities"][2]    # more communities at higher resolution
    louvain_runs = curnet.louvain(g, seeds=[1, 2], backend="cpu")
    assert louvain_runs.memberships.shape == (2, len(g))


def test_sweep_runs_as_copies_match_their_objective():
    """A sweep as one run over copies of the graph (a GPU's way, forced here): each row's
    quality is igraph's for its own resolution, CPM with vertex weights and Louvain included,
    its communities are connected, the sweep is reproducible and its medians are the single
    runs'; a negative resolution (no copies) runs one at a time."""
    from curnet.analyses.community_detection.sweeps import sweep
    g, _ = planted(4, 25, 0.3, 0.04, seed=3)
    G = to_igraph(g)
    vw = np.random.default_rng(0).integers(1, 4, len(g)).astype(float)
    kw = dict(algorithm="leiden", objective="cpm", weighted=None, beta=0.01, n_iterations=2, initial=None,
              backend="cpu", as_copies=True)
    s = sweep(g, resolutions=[0.0, 0.05, 0.3], seeds=[4, 5], vertex_weights=vw, **kw)
    again = sweep(g, resolutions=[0.0, 0.05, 0.3], seeds=[4, 5], vertex_weights=vw, **kw)
    assert np.array_equal(again.memberships, s.memberships)          # reproducible from its seeds
    alone = [curnet.leiden(g, objective="cpm", resolution=0.05, seed=x, vertex_weights=vw, backend="cpu").quality
             for x in (4, 5)]
    assert np.median(s.quality[2:4]) >= np.median(alone) - 0.002 * abs(np.median(alone))
    for row, q, r in zip(s.memberships, s.quality, s.resolution):
        sizes = np.bincount(row, weights=vw)
        inside = sum(G.es[e]["weight"] if "weight" in G.es.attributes() else 1 for e in range(G.ecount())
                     if row[G.es[e].source] == row[G.es[e].target])
        assert q == pytest.approx((2 * inside - r * (sizes ** 2).sum()) / (2 * G.ecount()), abs=1e-9)
        assert_connected(G, row)
    assert len(set(s.memberships[0])) == len(G.connected_components())   # CPM at 0: the components
    lv = sweep(g, algorithm="louvain", objective="modularity", resolutions=[0.5, 1.5], seeds=[1, 2],
               weighted=None, beta=0.01, n_iterations=1, initial=None, vertex_weights=None, backend="cpu",
               as_copies=True)
    for row, q, r in zip(lv.memberships, lv.quality, lv.resolution):
        assert q == pytest.approx(G.modularity(row.tolist(), resolution=r), abs=1e-9)
    neg = sweep(g, resolutions=[-0.1], seeds=[1], vertex_weights=None, **kw)
    assert neg.memberships.max() == 0                     # a negative CPM resolution: one community


@pytest.mark.parametrize("seed", range(6))
def test_compiled_local_moving_matches_numpy(seed):
    """cpu/compiled_leiden.py (Numba) against the NumPy twin of a level's local moving on random
    levels: the same labels and the same rounds, buckets and kept buckets (integer weights)."""
    from curnet.backends.cpu import compiled_leiden
    if not compiled_leiden.available():
        pytest.skip("needs Numba")
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(5, 400))
    lg = level_graph(np, *random_arcs(rng, n, int(rng.integers(n, 6 * n))), n)
    start = moving_start(rng, lg, modularity=seed % 2 == 1)
    moves = CpuMoves()
    want, want_total, want_stats = moves.numpy_local_moving(lg, *start, seed)
    got, got_total, got_stats = moves.local_moving(lg, *start, seed)
    np.testing.assert_array_equal(got_stats, want_stats)
    np.testing.assert_array_equal(got, want)
    vsize, gamma, quality = start[1], start[4], start[5]
    assert want_stats[2] > 0 and level_quality(lg, want, vsize, gamma) > quality
    # the totals the moves kept are the new labels' (integer sizes: exact)
    np.testing.assert_array_equal(want_total, np.bincount(want, weights=vsize, minlength=n))
    np.testing.assert_array_equal(got_total, want_total)


@pytest.mark.parametrize("seed", range(6))
def test_compiled_refinement_matches_numpy(seed):
    """cpu/compiled_leiden.py's refinement (Numba) against the NumPy twin on random levels and
    partitions: the same sub-communities and rounds, each inside its community."""
    from curnet.backends.cpu import compiled_leiden
    if not compiled_leiden.available():
        pytest.skip("needs Numba")
    rng = np.random.default_rng(400 + seed)
    n = int(rng.integers(5, 400))
    lg = level_graph(np, *random_arcs(rng, n, int(rng.integers(n, 6 * n))), n)
    start = refine_start(rng, lg, modularity=seed % 2 == 1)
    moves = CpuMoves()
    want, want_stats = moves.numpy_refine_moves(lg, *start, seed)
    got, got_stats = moves.refine_moves(lg, *start, seed)
    np.testing.assert_array_equal(got_stats, want_stats)
    np.testing.assert_array_equal(got, want)
    part = start[0]
    assert len(np.unique(want)) < n and (part[want] == part).all()


@pytest.mark.parametrize("seed", range(6))
def test_compiled_aggregation_matches_numpy(seed):
    """cpu/compiled_leiden.py's next level against partitions.aggregate: the same arrays, bit for
    bit, on random levels with real weights and vertex sizes (each sum taken in the same order)."""
    from curnet.backends.cpu import compiled_leiden
    from curnet.backends.partitions import aggregate
    if not compiled_leiden.available():
        pytest.skip("needs Numba")
    rng = np.random.default_rng(500 + seed)
    n = int(rng.integers(1, 400))
    m = int(rng.integers(0, 5 * n + 1))
    src, dst, w = rng.integers(0, n, m), rng.integers(0, n, m), rng.random(m)
    lg = level_graph(np, np.r_[src, dst], np.r_[dst, src], np.r_[w, w], n, rng.random(n))
    labels = np.unique(rng.integers(0, int(rng.integers(1, n + 1)), n), return_inverse=True)[1].astype(np.int32)
    k = int(labels.max()) + 1
    want, got = aggregate(np, lg, labels, k), compiled_leiden.aggregate(lg, labels, k)
    assert got.n == want.n == k
    for name in ("ptr", "src", "idx", "w", "inner", "strength", "size"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
        assert getattr(got, name).dtype == getattr(want, name).dtype


@pytest.mark.parametrize("seed", range(6))
def test_compiled_community_sums_match_numpy(seed):
    """cpu/compiled_leiden.py's sums a level starts from against partitions.community_sums: the
    same arrays, bit for bit, on random levels with real weights, inner weights and sizes."""
    from curnet.backends.cpu import compiled_leiden
    from curnet.backends.partitions import aggregate, community_sums
    if not compiled_leiden.available():
        pytest.skip("needs Numba")
    rng = np.random.default_rng(600 + seed)
    n = int(rng.integers(1, 400))
    m = int(rng.integers(0, 5 * n + 1))
    src, dst, w = rng.integers(0, n, m), rng.integers(0, n, m), rng.random(m)
    lg = level_graph(np, np.r_[src, dst], np.r_[dst, src], np.r_[w, w], n, rng.random(n))
    if seed % 2:                         # a coarse level: inner weights from merged vertices
        merged = rng.integers(0, max(1, n // 3), n)
        lg = aggregate(np, lg, np.unique(merged, return_inverse=True)[1].astype(np.int32),
                       len(np.unique(merged)))
    labels = rng.integers(0, int(rng.integers(1, lg.n + 1)), lg.n).astype(np.int32)
    vsize = lg.strength if seed % 3 else lg.size
    want = community_sums(np, lg, labels, vsize, lg.n)
    got = compiled_leiden.community_sums(lg, labels, vsize, lg.n)
    assert len(got) == len(want) == 4
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype == np.float64
    assert (want[2] > 0).any() and want[2].sum() == lg.n


@pytest.mark.parametrize("seed", range(6))
def test_compiled_pieces_match_scipy(seed):
    """cpu/compiled_leiden.py's connected pieces of communities against SciPy's components:
    the same pieces, each named by its smallest vertex."""
    from curnet.backends.cpu import compiled_leiden
    if not compiled_leiden.available():
        pytest.skip("needs Numba")
    rng = np.random.default_rng(700 + seed)
    n = int(rng.integers(2, 400))
    lg = level_graph(np, *random_arcs(rng, n, int(rng.integers(0, 2 * n))), n)
    labels = rng.integers(0, int(rng.integers(1, 6)), n).astype(np.int32)
    want = CpuMoves().scipy_pieces(lg, labels)
    got = compiled_leiden.pieces(lg, labels)
    pairs = np.unique(np.c_[want, got], axis=0)          # each piece of one side is one of the other's
    assert len(pairs) == len(np.unique(want)) == len(np.unique(got))
    smallest = np.full(n, n)
    np.minimum.at(smallest, got, np.arange(n))
    assert (smallest[got] == got).all()
    assert (labels[got] == labels).all()                 # a piece lies inside its community


@pytest.mark.parametrize("symmetric", [True, False])
def test_compiled_aggregation_orders_rows_on_any_level(symmetric):
    """The compiled next level reads its rows' order from a transpose where every arc's reverse
    is an arc, and orders the rows by a second transpose otherwise (one-way arcs): the same
    arrays as partitions.aggregate either way."""
    from curnet.backends.cpu import compiled_leiden
    from curnet.backends.partitions import aggregate
    if not compiled_leiden.available():
        pytest.skip("needs Numba")
    rng = np.random.default_rng(800)
    n, m = 300, 1200
    src, dst, w = rng.integers(0, n, m), rng.integers(0, n, m), rng.random(m)
    if symmetric:
        src, dst, w = np.r_[src, dst], np.r_[dst, src], np.r_[w, w]
    lg = level_graph(np, src, dst, w, n)
    labels = np.unique(rng.integers(0, 80, n), return_inverse=True)[1].astype(np.int32)
    k = int(labels.max()) + 1
    want, got = aggregate(np, lg, labels, k), compiled_leiden.aggregate(lg, labels, k)
    for name in ("ptr", "src", "idx", "w", "inner", "strength", "size"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name))


def test_sweep_batches_sized_by_free_memory():
    """A sweep's batches of copies are sized from the device's free memory: with room for two
    copies, six runs go in three batches, each row still its own run (igraph's quality for its
    resolution, communities connected)."""
    from curnet.analyses.community_detection import sweeps
    from curnet.analyses.community_detection.runs import level_on
    from curnet.backends import get_backend
    g, _ = planted(4, 25, 0.3, 0.04, seed=3)
    G = to_igraph(g)
    device = get_backend("cpu").members[0]
    lg = level_on(device, np, g, None)
    room = int(2.5 * sweeps.ARC_BYTES * len(lg.idx) / sweeps.BATCH_MEMORY_SHARE)
    assert sweeps.runs_per_batch(room, len(lg.idx), lg.n) == 2
    assert sweeps.runs_per_batch(0, len(lg.idx), lg.n) == 1
    assert sweeps.runs_per_batch(10**15, 10, 2**30) == 1        # two copies' ids would pass int32
    batches = []
    iterate = sweeps.iterate

    def counted(prim, big, *args):
        batches.append(big.n // len(g))
        return iterate(prim, big, *args)
    sweeps.iterate = counted
    try:
        rows, quality = sweeps.batched_runs(device.partition_primitives(), lg, algorithm="leiden",
                                            objective="modularity", resolutions=[0.5, 1.0, 2.0], seeds=[1, 2],
                                            beta=0.01, n_iterations=2, initial=None, free_bytes=room)
    finally:
        sweeps.iterate = iterate
    assert batches == [2, 2, 2] and rows.shape == (6, len(g))
    for row, q, r in zip(rows, quality, [0.5, 0.5, 1.0, 1.0, 2.0, 2.0]):
        assert q == pytest.approx(G.modularity(row.tolist(), resolution=r), abs=1e-9)
        assert_connected(G, row)
