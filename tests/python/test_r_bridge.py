"""The R adapters' own logic (curnet.r_bridge), without R: modes (views kept on the graph),
targets, weak components, the session's record of the last call's backend, and negative cycles."""
import ctypes

import numpy as np
import pyarrow as pa
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, shortest_path

from curnet.r_bridge import graphs, handoff, session, traversals
from curnet.errors import NegativeCycleError
from curnet.graph import Graph


def address(a):
    return a.ctypes.data_as(ctypes.c_void_p).value


def random_graph(n=60, m=200, seed=1, weighted=True):
    rng = np.random.default_rng(seed)
    pairs = np.unique(rng.integers(0, n, m) * n + rng.integers(0, n, m))   # no parallel arcs: scipy
    s, d = pairs // n, pairs % n                                           # would add them up
    w = rng.uniform(0.5, 2.0, len(s)) if weighted else None
    return Graph.from_edges(s, d, w, directed=True, num_vertices=n, dtype=np.float64), s, d, w


def scipy_dist(n, s, d, w, mode, sources):
    w = np.ones(len(s)) if w is None else w
    a = sp.coo_matrix((w, (s, d)), shape=(n, n)).tocsr()
    if mode == "in":
        a = a.T.tocsr()
    return shortest_path(a, directed=mode != "all", indices=sources)


@pytest.mark.parametrize("mode", ["out", "in", "all"])
def test_modes_and_targets_agree_with_scipy(mode):
    g, s, d, w = random_graph()
    src = np.array([3, 0, 41], np.int32)
    targets = np.array([5, 0, 59, 5])
    dist = np.empty((3, len(targets)), order="F")
    pred = np.empty((3, len(targets)), np.int32, order="F")
    traversals.sssp_into(g, pa.array(src), address(dist), address(pred), backend="cpu", mode=mode,
                     targets=pa.array(targets.astype(np.int32)))
    want = scipy_dist(60, s, d, w, mode, src)[:, targets]
    np.testing.assert_allclose(dist, want)
    depth = np.empty((3, 60), np.int32, order="F")
    traversals.bfs_into(g, pa.array(src), address(depth), "integer", backend="cpu", mode=mode)
    hops = scipy_dist(60, s, d, None, mode, src)
    np.testing.assert_array_equal(np.where(depth == handoff.R_NA_INTEGER, np.inf, depth), hops)


def test_views_are_built_once_and_keep_names():
    g = Graph.from_edges(["a", "b"], ["b", "c"], directed=True)
    assert graphs.view(g, "out") is g
    assert graphs.view(g, "in") is graphs.view(g, "in")
    assert graphs.view(g, "all") is graphs.view(g, "all")
    assert list(graphs.view(g, "in").names) == ["a", "b", "c"]
    assert not graphs.view(g, "all").directed
    u = Graph.from_edges([0], [1], directed=False)
    assert graphs.view(u, "in") is u
    with pytest.raises(ValueError, match="mode must be 'out', 'in' or 'all'"):
        graphs.view(g, "both")


def test_bad_targets_are_refused():
    g, *_ = random_graph()
    out = np.empty((1, 1), order="F")
    with pytest.raises(ValueError, match="target id 60 is out of range"):
        traversals.bfs_into(g, pa.array([0], pa.int32()), address(out), "double", targets=pa.array([60], pa.int32()))
    with pytest.raises(ValueError, match="targets has 1 missing value"):
        traversals.bfs_into(g, pa.array([0], pa.int32()), address(out), "double", targets=pa.array([None], pa.int32()))


def test_weak_components_agree_with_scipy():
    g, s, d, _ = random_graph(200, 150, seed=7, weighted=False)
    labels = np.empty((1, 200), np.int32, order="F")
    traversals.scc_into(g, address(labels), "integer", mode="weak", backend="cpu")
    a = sp.coo_matrix((np.ones(len(s)), (s, d)), shape=(200, 200))
    k, want = connected_components(a, directed=True, connection="weak")
    assert labels.max() == k
    assert len(set(zip(labels[0].tolist(), want.tolist()))) == k     # the same partition
    strong = np.empty((1, 200), np.int32, order="F")
    traversals.scc_into(g, address(strong), "integer", backend="cpu")
    assert strong.max() == connected_components(a, directed=True, connection="strong")[0]
    # weights play no part: negative ones (refused on an undirected view) are fine here
    neg = Graph.from_edges([0, 1, 3], [1, 0, 2], [-1.0, 2.0, -5.0], directed=True, num_vertices=5)
    five = np.empty((1, 5), np.int32, order="F")
    traversals.scc_into(neg, address(five), "integer", mode="weak", backend="cpu")
    np.testing.assert_array_equal(five, [[1, 1, 2, 2, 3]])


def ran_on(call):
    """What `call` ran on, as R's engine_call takes it (session.begin_call / end_call)."""
    session.begin_call()
    try:
        call()
    finally:
        run = session.end_call()
    return run


def test_a_call_records_its_backend_and_why():
    g, *_ = random_graph()
    out = np.empty((1, 60), order="F")
    run = ran_on(lambda: traversals.bfs_into(g, pa.array([0], pa.int32()), address(out), "double", backend="cpu"))
    assert {k: run[k] for k in ("algorithm", "asked", "backend")} == {"algorithm": "bfs", "asked": "cpu", "backend": "cpu"}
    assert "why" not in run
    run = ran_on(lambda: traversals.bfs_into(g, pa.array([0], pa.int32()), address(out), "double"))
    assert run["asked"] == "auto"
    assert ("runs on CUDA" if run["backend"] == "cuda" else "runs on the CPU") in run["why"]
    # a call that ran no analysis records nothing; a call inside another keeps its own record
    assert ran_on(lambda: graphs.summary(g)) == {}
    inner = {}
    outer = ran_on(lambda: (inner.update(ran_on(lambda: traversals.scc_into(g, address(out), "double", backend="cpu"))),
                            traversals.bfs_into(g, pa.array([0], pa.int32()), address(out), "double", backend="cpu")))
    assert (inner["algorithm"], outer["algorithm"]) == ("scc", "bfs")
    # outside a call from R (Python's own callers) nothing is kept, and no record stays open
    traversals.bfs_into(g, pa.array([0], pa.int32()), address(out), "double", backend="cpu")
    assert session.end_call() == {} and session._open_calls == []


def test_an_unusable_backend_is_refused_and_the_record_closed():
    g, *_ = random_graph()
    out = np.empty((1, 60), order="F")
    with pytest.raises(ValueError, match="backend must be one of"):
        ran_on(lambda: traversals.bfs_into(g, pa.array([0], pa.int32()), address(out), "double", backend="gpu"))
    assert session._open_calls == []


def test_negative_cycle_raises_and_names_its_source():
    g = Graph.from_edges([0, 1, 2], [1, 2, 1], [1.0, -3.0, 1.0], directed=True, dtype=np.float64)
    dist = np.empty((1, 3), order="F")
    with pytest.raises(NegativeCycleError) as e:
        traversals.sssp_into(g, pa.array([0], pa.int32()), address(dist), backend="cpu")
    assert e.value.source == 0 and "reachable from source 0:" in str(e.value)   # R reads it there
    # reversed, vertex 0 reaches nothing
    traversals.sssp_into(g, pa.array([0], pa.int32()), address(dist), backend="cpu", mode="in")
    np.testing.assert_array_equal(dist, [[0, np.inf, np.inf]])


def test_check_result_fits_is_the_engines():
    from curnet.errors import OutputTooLargeError
    with pytest.raises(OutputTooLargeError, match="1,000,000 sources x 1,000,000 vertices needs"):
        handoff.check_result_fits(10**6, 10**6, 8)
    handoff.check_result_fits(10, 10, 8)


@pytest.mark.gpu
@pytest.mark.parametrize("mode", ["out", "in", "all"])
def test_cuda_backend_matches_cpu_through_the_bridge(mode):
    from curnet.backends import cuda_available
    if not cuda_available():
        pytest.skip("needs CuPy and a CUDA device")
    g, *_ = random_graph(3000, 12000, seed=5)
    src = pa.array(np.arange(0, 3000, 7, dtype=np.int32))
    targets = pa.array(np.arange(2999, 0, -13, dtype=np.int32))
    got = {}
    for backend in ("cpu", "cuda"):
        depth = np.empty((len(src), 3000), np.int32, order="F")
        run = ran_on(lambda: traversals.bfs_into(g, src, address(depth), "integer", backend=backend, mode=mode))
        assert run["backend"] == backend
        dist = np.empty((len(src), len(targets)), order="F")
        pred = np.empty((len(src), len(targets)), np.int32, order="F")
        traversals.sssp_into(g, src, address(dist), address(pred), backend=backend, mode=mode, targets=targets)
        weak = np.empty((1, 3000), np.int32, order="F")
        traversals.scc_into(g, address(weak), "integer", backend=backend, mode="weak")
        got[backend] = depth, dist, weak
    for a, b in zip(got["cpu"], got["cuda"]):
        np.testing.assert_allclose(a, b)
    run = ran_on(lambda: traversals.bfs_into(g, src, address(depth), "integer"))
    assert run["backend"] == "cuda" and "runs on CUDA" in run["why"]


def r_form_is_valid(pred, dist, sources, arcs, none, targets=None):
    """Predecessors as R gets them (1-based, `none` for none): each one an arc on a shortest
    path (dist[p] + w(p, v) == dist[v]), none exactly at the sources and unreachable vertices."""
    cols = np.arange(pred.shape[1]) if targets is None else np.asarray(targets)
    for i, s in enumerate(sources):
        for j, v in enumerate(cols):
            p = int(pred[i, j])
            if v == s or not np.isfinite(dist[i, v]):
                assert p == none
                continue
            assert p != none and (p - 1, v) in arcs
            np.testing.assert_allclose(dist[i, p - 1] + arcs[p - 1, v], dist[i, v], rtol=1e-6)


@pytest.mark.parametrize("none", [handoff.R_NA_INTEGER, 61])
@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def test_predecessors_reach_r_one_based(none, backend):
    from curnet.backends import cuda_available
    if backend == "cuda" and not cuda_available():
        pytest.skip("needs CuPy and a CUDA device")
    g, s, d, w = random_graph(60, 300, seed=3)
    arcs = {(int(a), int(b)): float(x) for a, b, x in zip(s, d, w)}
    src = np.array([3, 0, 41, 3], np.int32)
    ref = scipy_dist(60, s, d, w, "out", src)
    dist = np.empty((4, 60), order="F")
    pred = np.empty((4, 60), np.int32, order="F")
    traversals.sssp_into(g, pa.array(src), address(dist), address(pred), backend=backend, pred_none=none)
    np.testing.assert_allclose(dist, ref)
    r_form_is_valid(pred, ref, src, arcs, none)
    # igraph's form: the source is its own predecessor; with targets, every column of it
    targets = np.array([3, 5, 3, 0], np.int32)
    tpred = np.empty((4, 4), np.int32, order="F")
    tdist = np.empty((4, 4), order="F")
    traversals.sssp_into(g, pa.array(src), address(tdist), address(tpred), backend=backend, pred_none=none,
                     targets=pa.array(targets), source_self=True)
    for i, v in enumerate(src):
        for j, t in enumerate(targets):
            if t == v:
                assert tpred[i, j] == v + 1
            else:
                assert tpred[i, j] == pred[i, t] or (tpred[i, j] - 1, t) in arcs


def test_precision_choice_reaches_the_engine(tmp_path):
    src, dst = pa.array([0, 1], pa.int32()), pa.array([1, 2], pa.int32())
    w = pa.array([0.1, 0.2])
    assert graphs.graph_from_arrow(src, dst, w, True, 3).weights.dtype == np.float64
    single = graphs.graph_from_arrow(src, dst, w, True, 3, dtype="float32")
    assert single.weights.dtype == np.float32
    assert graphs.summary(single)["precision"] == "single"
    assert graphs.summary(graphs.graph_from_arrow(src, dst, w, True, 3))["precision"] == "double"
    table = pa.table({"from": ["a", "b"], "to": ["b", "c"], "weight": [0.1, 0.2]})
    assert graphs.graph_from_table(table, True, "weight").weights.dtype == np.float64
    assert graphs.graph_from_table(table, True, "weight", dtype="float32").weights.dtype == np.float32
    path = tmp_path / "g.tsv"
    path.write_text("a\tb\t0.1\nb\tc\t0.2\n")
    assert graphs.read_graph(str(path)).weights.dtype == np.float64
    assert graphs.read_graph(str(path), dtype="float32").weights.dtype == np.float32
    with pytest.raises(ValueError, match="beyond the float32 range"):
        graphs.graph_from_arrow(src, dst, pa.array([1.0, 1e39]), True, 3, dtype="float32")


@pytest.mark.gpu
def test_both_precisions_from_r_take_near_far_on_the_gpu():
    """Graphs from R, in double precision (R's numbers) and in single precision, take the
    near-far route on a GPU (no Bellman-Ford rounds), with distances within float32 rounding
    of each other and the same reached entries."""
    from curnet.backends import cuda_available, get_backend
    from curnet.work import count_work
    if not cuda_available():
        pytest.skip("needs CuPy and a CUDA device")
    rng = np.random.default_rng(9)
    n, m = 4000, 40000
    s, d = pa.array(rng.integers(0, n, m).astype(np.int32)), pa.array(rng.integers(0, n, m).astype(np.int32))
    w = pa.array(rng.uniform(0.1, 1.0, m))
    src = pa.array(np.arange(0, n, 40, dtype=np.int32))
    be = get_backend("cuda")
    got = {}
    for dtype in ("float64", "float32"):
        g = graphs.graph_from_arrow(s, d, w, False, n, dtype=dtype)
        with be.device_scope():
            method = be.sssp_method(be.device_graph(g), len(src), True)
        assert method == "near_far"
        dist = np.empty((len(src), n), order="F")
        pred = np.empty((len(src), n), np.int32, order="F")
        with count_work() as work:
            traversals.sssp_into(g, src, address(dist), address(pred), backend="cuda")
        assert work["sssp rounds"] == 0
        got[dtype] = dist, pred
    np.testing.assert_allclose(got["float32"][0], got["float64"][0], rtol=1e-6)
    assert ((got["float32"][1] == handoff.R_NA_INTEGER) == (got["float64"][1] == handoff.R_NA_INTEGER)).all()


def test_held_hands_arrays_to_r_and_keeps_the_rest_plain():
    """A Held: its arrays' places, R types and lengths, each written into the buffer R gives;
    everything else plain (None where an array goes)."""
    held = handoff.Held({"a": np.array([3, 1], np.int32), "t": {"x": np.arange(3, dtype=np.int64), "name": "s"},
                         "names": np.array(["u", "v"]), "k": np.float64(2.5)})
    assert held.arrays() == [[["a"], "integer", 2], [["t", "x"], "double", 3]]
    assert held.values() == {"a": None, "t": {"x": None, "name": "s"}, "names": ["u", "v"], "k": 2.5}
    ints, doubles = np.zeros(2, np.int32), np.zeros(3)
    held.into(0, [address(ints), 2])
    held.into(1, [address(doubles), 3])
    assert ints.tolist() == [3, 1] and doubles.tolist() == [0.0, 1.0, 2.0]


def test_pcsf_names_the_r_graph_once():
    """The interactome's engine graph (R's igraph conversion, no names) gets R's names once,
    kept with it: the same names give the same named graph (and its device copies)."""
    from curnet.r_bridge.pcsf import with_names
    g, *_ = random_graph(n=4, m=6)
    names = np.array(["a", "b", "c", "d"])
    named = with_names(g, names)
    assert named is with_names(g, names.copy()) and named.indices is g.indices
    assert named.name_index() == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert with_names(g, np.array(["a", "b", "c", "e"])) is not named


def test_betweenness_is_written_into_r_s_vector():
    from curnet.analyses.betweenness_centrality import betweenness
    from curnet.r_bridge.betweenness import betweenness_into
    g, *_ = random_graph()
    out = np.zeros(len(g))
    betweenness_into(g, "vertex", address(out), backend="cpu", weighted=True)
    np.testing.assert_allclose(out, betweenness(g, weighted=True, backend="cpu"), rtol=1e-12)
    some = np.zeros(2)
    betweenness_into(g, "vertex", [address(some), 2], pa.array([5, 0], pa.int32()), backend="cpu")
    np.testing.assert_allclose(some, betweenness(g, [5, 0], weighted=False, backend="cpu"), rtol=1e-12)


def held_arrays(held):
    """A Held's arrays, written into NumPy buffers as R's held_result() writes into R's vectors."""
    out = {}
    for i, (keys, r_type, length) in enumerate(held.arrays()):
        buf = np.empty(length, np.int32 if r_type == "integer" else np.float64)
        held.into(i, address(buf))
        out[tuple(keys)] = buf
    return out


def test_module_runs_are_held_by_their_caller():
    """cuRnet_blockwiseModules' steps take the run R holds: a second run started, stepped and
    finished between two steps of a first changes nothing of the first's result (the bridge
    keeps no run of its own), and each comes back as a Held of R's vectors."""
    from curnet.r_bridge import modules

    def expression(seed, genes=60, samples=24):
        rng = np.random.default_rng(seed)
        hubs = rng.normal(size=(samples, 3))
        x = hubs[:, rng.integers(0, 3, genes)] + 0.4 * rng.normal(size=(samples, genes))
        return pa.array(x.ravel(order="F"))                 # R's samples x genes, by columns

    def start(seed):
        return modules.modules_start(expression(seed), 24, 60, backend="cpu", min_module_size=5.0,
                                     color_seq=["turquoise", "blue", "brown", "yellow"])

    def tree_and_cut(run):
        (size,) = modules.modules_layout(run)["sizes"]
        diss = np.empty((size, size), order="F")
        tree = held_arrays(modules.modules_block_into(run, 0, (address(diss), diss.size)))
        assert tree[("merge",)].dtype == np.int32 and len(tree[("height",)]) == size - 1
        assert np.allclose(diss, diss.T) and np.all(np.diag(diss) == 0)
        labels = 1.0 + (np.argsort(np.argsort(tree[("order",)])) * 3 // size)   # three runs of the order
        return labels

    def finish(run, labels):
        modules.modules_block_labels(run, 0, pa.array(labels))
        held = modules.modules_finish(run)
        return held.values(), held_arrays(held)

    alone = start(1)
    alone_result = finish(alone, tree_and_cut(alone))
    first = start(1)
    labels = tree_and_cut(first)
    other = start(2)                                        # a second run between the first's steps
    other_result = finish(other, tree_and_cut(other))
    first_result = finish(first, labels)
    assert first_result[0] == alone_result[0]
    assert first_result[1].keys() == alone_result[1].keys()
    for key, values in alone_result[1].items():
        np.testing.assert_array_equal(first_result[1][key], values)
    assert first_result[0]["colors"] is not None and len(first_result[0]["colors"]) == 60
    # the two data sets differ, so a step that took the other run would show in the first's result
    assert not np.array_equal(other_result[1][("MEs",)], alone_result[1][("MEs",)])
