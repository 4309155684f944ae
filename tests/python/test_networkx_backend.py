"""cuRnet's NetworkX backend against NetworkX itself.

- NetworkX's own tests for the modules the backend covers, run with the backend active
  (NETWORKX_TEST_BACKEND=curnet, fallback to NetworkX on for what cuRnet does not implement),
  in a subprocess that sees the package's entry points;
- each function on random graphs (hypothesis) and on a real network, against NetworkX's result;
- conversion, caching, can_run/should_run, and get_info() not importing the engine or CuPy;
(The GPU runs of these functions: tests/python/test_frontdoors_gpu.py.)
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, strategies as st

import _curnet_nx
import curnet.nx as backend
from curnet.nx import algorithms as A
from curnet.nx.graph import from_networkx, to_networkx

ROOT = Path(__file__).resolve().parents[2]

# NetworkX's test modules for the functions the backend implements.
NX_TEST_MODULES = [
    "networkx.algorithms.shortest_paths.tests.test_unweighted",
    "networkx.algorithms.shortest_paths.tests.test_weighted",
    "networkx.algorithms.shortest_paths.tests.test_generic",
    "networkx.algorithms.traversal.tests.test_bfs",
    "networkx.algorithms.components.tests.test_strongly_connected",
    "networkx.algorithms.centrality.tests.test_closeness_centrality",
    "networkx.algorithms.tests.test_distance_measures",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality_subset",
    "networkx.algorithms.link_analysis.tests.test_pagerank",
    "networkx.algorithms.community.tests.test_louvain",
    "networkx.algorithms.community.tests.test_leiden",
    "networkx.algorithms.community.tests.test_quality",
]


# -- the backend made visible to a subprocess ----------------------------------------
@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder whose metadata registers the entry points of setup.py (none if an install
    already does), so `import networkx` in a subprocess finds the backend without installing."""
    folder = tmp_path_factory.mktemp("site")
    if not entry_points(group="networkx.backends", name="curnet"):
        subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(folder)],
                       cwd=ROOT, check=True, capture_output=True)
    return folder


def run_python(site: Path, code: str, cwd: Path, env: dict | None = None, timeout=600):
    path = os.pathsep.join([str(ROOT / "python"), str(site)])
    full_env = {**os.environ, "PYTHONPATH": path, **(env or {})}
    return subprocess.run([sys.executable, *code], cwd=cwd, env=full_env, capture_output=True,
                          text=True, timeout=timeout)


def test_get_info_imports_neither_engine_nor_cupy(site, tmp_path):
    code = textwrap.dedent("""
        import sys
        import networkx as nx
        info = nx.utils.backends.backend_info["curnet"]
        assert set(info["functions"]) == set(__import__("_curnet_nx").FUNCTIONS), info
        assert nx.config.backends.curnet.backend in ("auto", "cpu", "cuda")
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("curnet", "cupy", "cupyx"))
        assert not loaded, loaded
        print("ok")
    """)
    r = run_python(site, ["-c", code], tmp_path, env={"CURNET_NX_BACKEND": "cpu"})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_networkx_own_tests_with_backend(site, tmp_path):
    """NetworkX's test modules with every call to a function cuRnet implements converted and
    run by cuRnet; the log shows each of those functions was dispatched to it."""
    log = tmp_path / "dispatch.log"
    (tmp_path / "dispatch_log.py").write_text(
        "import logging\n"
        f"logging.basicConfig(filename={str(log)!r}, level=logging.DEBUG, format='%(message)s')\n")
    env = {"NETWORKX_TEST_BACKEND": "curnet", "NETWORKX_FALLBACK_TO_NX": "True",
           "CURNET_NX_BACKEND": "cpu",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), str(site), str(tmp_path)])}
    r = run_python(site, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "dispatch_log",
                          "-rfExX", "--pyargs", *NX_TEST_MODULES], tmp_path, env=env)
    summary = r.stdout.strip().splitlines()[-1]
    assert r.returncode == 0, r.stdout[-5000:] + r.stderr[-2000:]
    # each expected failure marked (strict: one that passed would have failed the run); NetworkX
    # marks some of its own tests xfail too
    xfails = [line for line in r.stdout.splitlines() if line.startswith("XFAIL")]
    for key in backend.EXPECTED_TEST_FAILURES:
        assert any(key.rpartition("::")[2] in line for line in xfails), (key, summary)
    dispatched = set(re.findall(r"Using backend 'curnet' for call to '(\w+)'", log.read_text()))
    assert dispatched == set(_curnet_nx.FUNCTIONS), set(_curnet_nx.FUNCTIONS) - dispatched


# -- random graphs against NetworkX ----------------------------------------------
NODE_KINDS = st.sampled_from(["int", "str", "tuple"])


@st.composite
def nx_graphs(draw, *, negative=False, max_nodes=14):
    directed = draw(st.booleans())
    multi = draw(st.booleans())
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}[directed, multi]
    n = draw(st.integers(1, max_nodes))
    kind = draw(NODE_KINDS)
    label = {"int": lambda i: i * 7 % 101, "str": lambda i: f"g{i}", "tuple": lambda i: (i, "x")}[kind]
    order = draw(st.permutations(range(n)))
    G = cls()
    G.add_nodes_from(label(i) for i in order)
    m = draw(st.integers(0, 3 * n))
    integer = draw(st.booleans())
    pot = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    for _ in range(m):
        u, v = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if draw(st.integers(0, 9)) == 0:
            G.add_edge(label(u), label(v))                       # no weight: NetworkX's default 1
            continue
        w = draw(st.integers(0, 9)) if integer else draw(st.integers(0, 36)) / 4
        if negative and directed:
            w = w + pot[u] - pot[v] if pot[u] >= pot[v] else w   # potentials: no negative cycle
        G.add_edge(label(u), label(v), weight=w)
    return G


def same_lengths(got: dict, want: dict) -> None:
    """{source: {node: length}} equal up to float rounding."""
    assert got.keys() == want.keys()
    for s in want:
        assert got[s] == pytest.approx(want[s])


def uniform_weight_type(G) -> bool:
    return len({type(d.get("weight", 1)) for *_, d in G.edges(data=True)}) <= 1


def convert(G, weighted=True):
    return from_networkx(G, "weight" if weighted else None, 1)


def some_nodes(G, k=3):
    return list(G)[:k]


@given(nx_graphs(), st.sampled_from([None, 0, 1, 2.5]))
def test_unweighted_lengths(G, cutoff):
    cg = convert(G, weighted=False)
    for s in some_nodes(G):
        assert A.single_source_shortest_path_length(cg, s, cutoff) == \
            nx.single_source_shortest_path_length(G, s, cutoff)
        assert A.descendants_at_distance(cg, s, 2) == nx.descendants_at_distance(G, s, 2)
        assert A.single_source_shortest_path(cg, s, cutoff) == nx.single_source_shortest_path(G, s, cutoff)
    assert dict(A.all_pairs_shortest_path_length(cg, cutoff)) == \
        dict(nx.all_pairs_shortest_path_length(G, cutoff))
    sources = some_nodes(G, 2)
    assert list(A.bfs_layers(cg, sources)) == list(nx.bfs_layers(G, sources))


def check_path(G, path, source, length):
    """A valid path from source whose weight (smallest of parallel edges) is `length`."""
    assert path[0] == source
    total = 0
    for u, v in zip(path, path[1:]):
        data = G[u][v]
        w = min(d.get("weight", 1) for d in data.values()) if G.is_multigraph() else data.get("weight", 1)
        total += w
    assert total == pytest.approx(length)


@given(nx_graphs(), st.sampled_from([None, 0, 2, 4.5]))
def test_dijkstra(G, cutoff):
    cg = convert(G)
    for s in some_nodes(G):
        got = A.single_source_dijkstra_path_length(cg, s, cutoff)
        want = nx.single_source_dijkstra_path_length(G, s, cutoff)
        assert got == pytest.approx(want)
        if uniform_weight_type(G):                              # ints stay ints
            assert all(type(got[v]) is type(want[v]) for v in want)
        paths = A.single_source_dijkstra_path(cg, s, cutoff)
        assert paths.keys() == want.keys()
        for v, p in paths.items():
            check_path(G, p, s, want[v])
    same_lengths(dict(A.all_pairs_dijkstra_path_length(cg, cutoff)),
                 dict(nx.all_pairs_dijkstra_path_length(G, cutoff)))
    sources = set(some_nodes(G, 2))
    assert A.multi_source_dijkstra_path_length(cg, sources, cutoff) == \
        pytest.approx(nx.multi_source_dijkstra_path_length(G, sources, cutoff))


def nx_outcome(f, *args):
    try:
        return f(*args)
    except nx.NetworkXUnbounded:
        return "unbounded"


@given(nx_graphs(negative=True))
def test_bellman_ford_and_johnson(G):
    cg = convert(G)
    assert A.negative_edge_cycle(cg) == nx.negative_edge_cycle(G)
    for s in some_nodes(G):
        want = nx_outcome(nx.single_source_bellman_ford_path_length, G, s)
        got = nx_outcome(A.single_source_bellman_ford_path_length, cg, s)
        assert got == (want if want == "unbounded" else pytest.approx(want))
        want = nx_outcome(nx.bellman_ford_predecessor_and_distance, G, s)
        got = nx_outcome(A.bellman_ford_predecessor_and_distance, cg, s)
        if want == "unbounded":
            assert got == want
        else:
            assert got[1] == pytest.approx(want[1])
            assert {v: sorted(map(str, p)) for v, p in got[0].items()} == \
                {v: sorted(map(str, p)) for v, p in want[0].items()}
    want = nx_outcome(lambda: dict(nx.all_pairs_bellman_ford_path_length(G)))
    got = nx_outcome(lambda: dict(A.all_pairs_bellman_ford_path_length(cg)))
    if want == "unbounded":
        assert got == want
    else:
        same_lengths(got, want)
    want = nx_outcome(nx.johnson, G)
    got = nx_outcome(A.johnson, cg)
    if want == "unbounded":
        assert got == want
    else:
        assert got.keys() == want.keys()
        for s, paths in got.items():
            assert paths.keys() == want[s].keys()
            lengths = nx.single_source_bellman_ford_path_length(G, s)
            for v, p in paths.items():
                check_path(G, p, s, lengths[v])


@given(nx_graphs())
def test_strong_components(G):
    if not G.is_directed():
        G = nx.MultiDiGraph(G) if G.is_multigraph() else nx.DiGraph(G)
    cg = convert(G, weighted=False)
    got = list(A.strongly_connected_components(cg))
    assert sorted(map(sorted, map(lambda c: map(str, c), got))) == \
        sorted(map(sorted, map(lambda c: map(str, c), nx.strongly_connected_components(G))))
    assert A.number_strongly_connected_components(cg) == nx.number_strongly_connected_components(G)
    assert A.is_strongly_connected(cg) == nx.is_strongly_connected(G)


# -- errors, conversion, dispatch decisions --------------------------------------
def test_errors_match_networkx():
    G = nx.path_graph(4, create_using=nx.DiGraph)
    cg = convert(G)
    for ours, theirs, args in [
            (A.single_source_shortest_path_length, nx.single_source_shortest_path_length, (99,)),
            (A.single_source_dijkstra_path_length, nx.single_source_dijkstra_path_length, (99,)),
            (A.single_source_bellman_ford_path_length, nx.single_source_bellman_ford_path_length, (99,)),
            (A.descendants_at_distance, nx.descendants_at_distance, (99, 1)),
            (A.multi_source_dijkstra_path_length, nx.multi_source_dijkstra_path_length, (set(),))]:
        with pytest.raises(Exception) as want:
            theirs(G, *args)
        with pytest.raises(type(want.value), match=re.escape(str(want.value))):
            ours(cg, *args)
    with pytest.raises(nx.NetworkXPointlessConcept):
        A.is_strongly_connected(convert(nx.DiGraph()))
    U = nx.Graph([(0, 1, {"weight": -1}), (1, 2, {"weight": 2})])
    with pytest.raises(nx.NetworkXUnbounded):
        A.single_source_bellman_ford_path_length(convert(U), 2)
    with pytest.raises(NotImplementedError, match="negative weights"):
        A.single_source_dijkstra_path_length(convert(U), 0)


def test_conversion_keeps_nodes_weights_and_order():
    G = nx.MultiDiGraph()
    G.add_edge(("a", 1), "b", weight=5)
    G.add_edge(("a", 1), "b", weight=2)          # parallel: the smaller counts
    G.add_edge("b", 3)                           # missing weight: the default
    cg = from_networkx(G, "weight", 7)
    assert cg.nodes == [("a", 1), "b", 3] and cg.is_directed() and cg.is_multigraph()
    assert cg.graph.weights.tolist() == [2.0, 7.0] and cg.integral
    back = to_networkx(cg)
    assert list(back.edges(data=True)) == [(("a", 1), "b", {"weight": 2}), ("b", 3, {"weight": 7})]
    with pytest.raises(NotImplementedError, match="real numbers"):
        from_networkx(nx.Graph([(0, 1, {"weight": "heavy"})]), "weight")
    with pytest.raises(NotImplementedError, match="non-finite"):
        from_networkx(nx.Graph([(0, 1, {"weight": float("inf")})]), "weight")
    assert backend.convert_from_nx(G, edge_attrs=None, name="bfs_layers").graph.weights is None


def test_can_run_and_should_run():
    G = nx.gnm_random_graph(200, 600, seed=1)
    assert backend.can_run("all_pairs_dijkstra_path_length", (G,), {}) is True
    why = backend.can_run("single_source_dijkstra_path_length", (G, 0), {"weight": lambda u, v, d: 1})
    assert isinstance(why, str) and "function" in why
    assert isinstance(backend.can_run("hits", (G,), {}), str)
    assert backend.should_run("all_pairs_shortest_path_length", (G,), {}) is True
    assert "too small" in backend.should_run("all_pairs_shortest_path_length", (nx.path_graph(5),), {})
    assert "converting" in backend.should_run("single_source_shortest_path_length", (G, 0), {})
    G.__networkx_cache__.setdefault("backends", {})["curnet"] = {"key": convert(G)}
    assert backend.should_run("single_source_shortest_path_length", (G, 0), {}) is True


def test_dispatch_converts_once_and_caches_on_the_graph(site, tmp_path):
    code = textwrap.dedent("""
        import networkx as nx
        import curnet.nx.graph as conv
        calls = []
        real = conv.from_networkx
        conv.from_networkx = lambda *a, **k: calls.append(1) or real(*a, **k)
        import curnet.nx
        curnet.nx.from_networkx = conv.from_networkx
        nx.config.warnings_to_ignore.add("cache")
        G = nx.les_miserables_graph()
        a = dict(nx.all_pairs_dijkstra_path_length(G, backend="curnet"))
        b = nx.single_source_dijkstra_path_length(G, "Valjean", backend="curnet")
        assert a == dict(nx.all_pairs_dijkstra_path_length(G)) and b == a["Valjean"]
        assert len(calls) == 1, calls
        cached = G.__networkx_cache__["backends"]["curnet"]
        assert any(isinstance(v, conv.CurnetGraph) for v in cached.values())
        G.add_edge("Valjean", "Napoleon", weight=0.5)     # NetworkX clears the cache
        c = nx.single_source_dijkstra_path_length(G, "Valjean", backend="curnet")
        assert c["Napoleon"] == 0.5 and len(calls) == 2
        print("ok")
    """)
    r = run_python(site, ["-c", code], tmp_path, env={"CURNET_NX_BACKEND": "cpu"})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


# -- a real network ------------------------------------------------------------
@pytest.mark.network
def test_scnet_against_networkx():
    from curnet import datasets
    e = datasets.load_edges("scnet")
    names = e["names"].tolist()
    G = nx.Graph()
    G.add_weighted_edges_from(zip((names[i] for i in e["src"].tolist()), (names[i] for i in e["dst"].tolist()),
                                  (1.0 - e["score"]).tolist()))
    cg, cu = convert(G), convert(G, weighted=False)
    rng = np.random.default_rng(0)
    for s in rng.choice(list(G), 3, replace=False).tolist():
        assert A.single_source_shortest_path_length(cu, s) == nx.single_source_shortest_path_length(G, s)
        assert A.single_source_dijkstra_path_length(cg, s) == pytest.approx(
            nx.single_source_dijkstra_path_length(G, s))
    first = dict(zip(range(2), A.all_pairs_shortest_path_length(cu)))
    for _, (s, lengths) in first.items():
        assert lengths == nx.single_source_shortest_path_length(G, s)


# -- distance measures (reduced on the device) -------------------------------------
@given(nx_graphs(), st.booleans(), st.booleans())
def test_measures_against_networkx(G, weighted, wf):
    cg = convert(G, weighted=weighted)
    w = "weight" if weighted else None
    assert A.closeness_centrality(cg, distance=w, wf_improved=wf) == \
        pytest.approx(nx.closeness_centrality(G, distance=w, wf_improved=wf))
    first = next(iter(G))
    assert A.closeness_centrality(cg, first, distance=w) == pytest.approx(nx.closeness_centrality(G, first, distance=w))
    try:
        want = nx.eccentricity(G, weight=w)
    except nx.NetworkXError as e:
        with pytest.raises(nx.NetworkXError, match=re.escape(str(e))):
            A.eccentricity(cg, weight=w)
        return
    assert A.eccentricity(cg, weight=w) == pytest.approx(want)
    assert A.eccentricity(cg, first, weight=w) == pytest.approx(want[first])
    assert A.diameter(cg, weight=w) == pytest.approx(nx.diameter(G, weight=w))
    assert A.radius(cg, weight=w) == pytest.approx(nx.radius(G, weight=w))


# -- a weighted conversion never answers an unweighted call ------------------------
# Each dispatched function, called so that it reads no weights (weight/distance None, or a
# function without one). NetworkX hands a cached weighted conversion to calls that ask for no
# edge attribute, so each must pick its weights by its own argument.
UNWEIGHTED_CALLS = {
    "single_source_shortest_path_length": (("a",), {}),
    "all_pairs_shortest_path_length": ((), {}),
    "bfs_layers": (("a",), {}),
    "descendants_at_distance": (("a", 2), {}),
    "single_source_shortest_path": (("a",), {}),
    "single_source_dijkstra_path_length": (("a",), {"weight": None}),
    "single_source_dijkstra_path": (("a",), {"weight": None}),
    "all_pairs_dijkstra_path_length": ((), {"weight": None}),
    "multi_source_dijkstra_path_length": (({"a", "d"},), {"weight": None}),
    "single_source_bellman_ford_path_length": (("a",), {"weight": None}),
    "all_pairs_bellman_ford_path_length": ((), {"weight": None}),
    "bellman_ford_predecessor_and_distance": (("a",), {"weight": None}),
    "negative_edge_cycle": ((), {"weight": None}),
    "johnson": ((), {"weight": None}),
    "strongly_connected_components": ((), {}),
    "number_strongly_connected_components": ((), {}),
    "is_strongly_connected": ((), {}),
    "closeness_centrality": ((), {"distance": None}),
    "eccentricity": ((), {}),
    "diameter": ((), {}),
    "radius": ((), {}),
    "betweenness_centrality": ((), {"weight": None}),
    "pagerank": ((), {"weight": None}),
    "edge_betweenness_centrality": ((), {"weight": None}),
    "betweenness_centrality_subset": ((["a"], ["d"]), {"weight": None}),
    "louvain_communities": ((), {"weight": None}),
    "leiden_communities": ((), {"weight": None}),
    "modularity": (([{"a", "b"}, {"c", "d"}],), {"weight": None}),
}


def test_every_function_call_lists_its_unweighted_call():
    assert set(UNWEIGHTED_CALLS) == set(_curnet_nx.FUNCTIONS)


def test_weighted_conversion_does_not_leak_into_unweighted_calls(site, tmp_path):
    code = textwrap.dedent(f"""
        import networkx as nx
        nx.config.warnings_to_ignore.add("cache")
        CALLS = {UNWEIGHTED_CALLS!r}

        def plain(name, value):
            if name in ("single_source_shortest_path", "single_source_dijkstra_path"):
                return {{v: len(p) for v, p in value.items()}}     # equal-length paths may differ
            if name == "johnson":
                return {{s: {{v: len(p) for v, p in d.items()}} for s, d in value.items()}}
            if name == "strongly_connected_components":
                return sorted(sorted(c) for c in value)
            if name == "bfs_layers":
                return [sorted(layer) for layer in value]
            if name == "pagerank":                                    # power iteration: 1e-6 apart
                return {{v: round(x, 4) for v, x in value.items()}}
            if name in ("all_pairs_shortest_path_length", "all_pairs_dijkstra_path_length",
                        "all_pairs_bellman_ford_path_length"):
                return dict(value)
            return value

        # a cycle a-b-c-d-a with a shortcut and a negative edge: weighted and unweighted
        # answers differ for every function that reads weights
        G = nx.DiGraph()
        G.add_weighted_edges_from([("a", "b", 5), ("b", "c", 5), ("a", "c", 20), ("c", "d", 1),
                                   ("d", "a", 1), ("d", "b", -7)])
        assert nx.negative_edge_cycle(G, backend="curnet")          # the weighted conversion
        bad = []
        for name, (args, kwargs) in CALLS.items():
            if name in ("louvain_communities", "leiden_communities", "modularity"):
                continue             # undirected graphs only: tests/python/test_leiden_nx.py
            f = getattr(nx, name)
            want = plain(name, f(G, *args, **kwargs, backend="networkx"))
            got = plain(name, f(G, *args, **kwargs, backend="curnet"))
            if got != want:
                bad.append((name, got, want))
        assert not bad, bad
        # the issue's case: undirected, after a weighted all-pairs call
        U = nx.Graph()
        U.add_weighted_edges_from([("a", "b", 5.), ("b", "c", 5.), ("a", "c", 20.), ("c", "d", 1.)])
        dict(nx.all_pairs_dijkstra_path_length(U, backend="curnet"))
        assert nx.eccentricity(U, backend="curnet") == {{"a": 2, "b": 2, "c": 1, "d": 2}}
        assert nx.eccentricity(U, weight="weight", backend="curnet") == {{"a": 11., "b": 6., "c": 10., "d": 11.}}
        print("ok")
    """)
    r = run_python(site, ["-c", code], tmp_path, env={"CURNET_NX_BACKEND": "cpu"})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


def test_diameter_under_backend_priority_after_a_weighted_call(site, tmp_path):
    """NETWORKX_BACKEND_PRIORITY=curnet: nx.diameter (and NetworkX's own diameter, whose inner
    eccentricity dispatches to cuRnet) count hops after a weighted call cached its conversion."""
    code = textwrap.dedent("""
        import random
        import networkx as nx
        nx.config.warnings_to_ignore.add("cache")
        G = nx.watts_strogatz_graph(200, 4, 0.1, seed=1)
        rng = random.Random(1)
        for u, v in G.edges:
            G[u][v]["weight"] = rng.uniform(1, 5)
        H = G.copy()
        H.__networkx_cache__ = None
        want = nx.diameter(H, backend="networkx")
        dict(nx.all_pairs_dijkstra_path_length(G))                  # dispatched: weighted
        assert "curnet" in G.__networkx_cache__["backends"]
        got = (nx.diameter(G), nx.diameter(G, backend="networkx"), nx.radius(G))
        assert got == (want, want, nx.radius(H, backend="networkx")), (got, want)
        weighted = nx.diameter(G, weight="weight"), nx.diameter(H, weight="weight", backend="networkx")
        assert abs(weighted[0] - weighted[1]) < 1e-9 and weighted[0] > want, weighted
        print("ok")
    """)
    r = run_python(site, ["-c", code], tmp_path,
                   env={"CURNET_NX_BACKEND": "cpu", "NETWORKX_BACKEND_PRIORITY": "curnet"})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


def test_sampled_betweenness_takes_every_seed_networkx_takes(site, tmp_path):
    """k sampled sources, dispatched with each seed type NetworkX's py_random_state takes
    (None and np.random: the global generators, seeded alike before each call; an int; a
    RandomState, whose wrapper samples a NumPy array; a Generator; a random.Random): the same
    sources as NetworkX's for the same seed, so the same estimates."""
    code = textwrap.dedent("""
        import random
        import numpy as np
        import networkx as nx
        nx.config.warnings_to_ignore.add("cache")
        seeds = {"None": lambda: None, "np.random": lambda: np.random, "int": lambda: 7,
                 "RandomState": lambda: np.random.RandomState(7),
                 "Generator": lambda: np.random.default_rng(7), "Random": lambda: random.Random(7)}
        graphs = [nx.gnm_random_graph(40, 120, seed=1),
                  nx.relabel_nodes(nx.gnm_random_graph(30, 70, seed=2, directed=True), lambda i: f"g{i}")]
        for G in graphs:
            for name, seed in seeds.items():
                for f in (nx.betweenness_centrality, nx.edge_betweenness_centrality):
                    results = []
                    for backend in ("networkx", "curnet"):
                        random.seed(3); np.random.seed(3)
                        results.append(f(G, k=9, seed=seed(), backend=backend))
                    want, got = results
                    assert got.keys() == want.keys(), (name, f.__name__)
                    bad = [x for x in want if abs(got[x] - want[x]) > 1e-12]
                    assert not bad, (name, f.__name__, bad[:3])
                    assert any(want.values())
        print("ok")
    """)
    r = run_python(site, ["-c", code], tmp_path, env={"CURNET_NX_BACKEND": "cpu"})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]
