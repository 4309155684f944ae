"""curnet.pcsf / pcsf_rand on small random networks: the result is a forest of the network,
its objective recomputed here from the graph alone, the exact optimum by brute force over
vertex sets (the gap reported), pcst_fast (Goemans-Williamson) as a second comparator, the
seeded noise runs, and bad input. The package's own forests on STRING: test_pcsf_package.py."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import curnet
from curnet.backends import cuda_available
import curnet.analyses.steiner_forest.problem as problem_module
import curnet.analyses.steiner_forest.random_runs as runs_module
import curnet.analyses.steiner_forest.terminal_paths as paths_module
from curnet.analyses.steiner_forest import pcsf, pcsf_rand


def random_instance(seed, n=9, p=0.35, terminals=4):
    """A connected random network with named vertices, costs in [0.2, 2), prizes in [0.5, 4)."""
    rng = np.random.default_rng(seed)
    while True:
        upper = np.triu(rng.random((n, n)) < p, 1)
        u, v = np.nonzero(upper)
        A = sp.csr_matrix((np.ones(len(u)), (u, v)), shape=(n, n))
        if len(u) and csgraph.connected_components(A, directed=False)[0] == 1:
            break
    cost = np.round(rng.uniform(0.2, 2.0, len(u)), 3)
    names = np.array([f"v{i}" for i in range(n)])
    g = curnet.Graph.from_edges(names[u], names[v], cost, directed=False, names=names, dtype=np.float64)
    chosen = rng.choice(n, terminals, replace=False)
    prizes = {names[i]: float(np.round(rng.uniform(0.5, 4.0), 3)) for i in chosen}
    return g, (u, v, cost), prizes


def objective_from_graph(n, edges, names, prizes, forest_vertices, forest_edges, w, b, mu):
    """The objective, from the network's edge list and the forest alone: costs of its edges,
    w per tree (its connected components), lost prizes, mu x degree per Steiner vertex."""
    u, v, cost = edges
    deg = np.bincount(np.concatenate([u, v]), minlength=n)
    ends = {frozenset((a, c)): x for a, c, x in zip(u, v, cost)}
    ids = {s: i for i, s in enumerate(names)}
    verts = {ids[s] for s in forest_vertices}
    total = sum(ends[frozenset((ids[a], ids[c]))] for a, c in forest_edges)
    loc = {x: i for i, x in enumerate(sorted(verts))}
    if verts:
        A = sp.csr_matrix((np.ones(len(forest_edges)),
                           ([loc[ids[a]] for a, _ in forest_edges], [loc[ids[c]] for _, c in forest_edges])),
                          shape=(len(verts), len(verts)))
        trees = csgraph.connected_components(A, directed=False)[0]
    else:
        trees = 0
    lost = sum(b * p for s, p in prizes.items() if ids[s] not in verts)
    hubs = sum(mu * deg[x] for x in verts if names[x] not in prizes)
    return total + w * trees + lost + hubs, trees


def brute_force_optimum(n, edges, names, prizes, w, b, mu):
    """The exact optimum: every vertex set S, its best forest being the minimum spanning
    tree of S's induced network plus a root joined to S's terminals by edges of cost w."""
    u, v, cost = edges
    deg = np.bincount(np.concatenate([u, v]), minlength=n)
    prize = np.array([b * prizes.get(s, 0.0) for s in names])
    is_term = np.array([s in prizes for s in names])
    best = prize.sum()                                     # the empty forest
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            S = np.array(S)
            if not is_term[S].any():
                continue
            inside = np.zeros(n, bool)
            inside[S] = True
            keep = inside[u] & inside[v]
            loc = -np.ones(n, int)
            loc[S] = np.arange(size)
            r = size
            tu = np.concatenate([loc[u[keep]], np.full(is_term[S].sum(), r)])
            tv = np.concatenate([loc[v[keep]], loc[S[is_term[S]]]])
            tc = np.concatenate([cost[keep], np.full(is_term[S].sum(), w)])
            A = sp.csr_matrix((tc, (tu, tv)), shape=(size + 1, size + 1))
            if csgraph.connected_components(A, directed=False)[0] != 1:
                continue
            value = (csgraph.minimum_spanning_tree(A).sum() + prize[~inside].sum()
                     + mu * deg[S[~is_term[S]]].sum())
            best = min(best, value)
    return best


def check_forest(g, edges, f, prizes, w, b, mu):
    """The result is a forest of the network with the counts it reports; its objective
    matches the one recomputed from the graph."""
    names = g.names
    ft = f.edge_table()
    fe = list(zip(ft["from"], ft["to"]))
    u, v, cost = edges
    net = {frozenset((names[a], names[c])): x for a, c, x in zip(u, v, cost)}
    for (a, c), x in zip(fe, ft["cost"]):
        assert net[frozenset((a, c))] == pytest.approx(x)
    verts = set(f.names.tolist())
    assert {x for e in fe for x in e} <= verts
    assert len(fe) == len(verts) - f.trees                 # a forest: |E| = |V| - trees, and
    value, trees = objective_from_graph(len(g), edges, names, prizes, verts, fe, w, b, mu)
    assert trees == f.trees                                # ... as many components as trees
    assert f.objective == pytest.approx(value, rel=1e-12)
    for name, kind in zip(f.names, f.type):
        assert kind == ("Terminal" if name in prizes else "Steiner")
    return value


@pytest.mark.parametrize("seed", range(12))
def test_small_random_networks_against_the_exact_optimum(seed):
    g, edges, prizes = random_instance(seed)
    w, b, mu = 1.5, 1.0, 0.05
    f = pcsf(g, prizes, w=w, b=b, mu=mu, backend="cpu")
    value = check_forest(g, edges, f, prizes, w, b, mu)
    best = brute_force_optimum(len(g), edges, g.names, prizes, w, b, mu)
    assert value >= best - 1e-9
    print(f"seed {seed}: cuRnet {value:.4f}, optimum {best:.4f}, gap {100 * (value / best - 1):.2f}%")


def test_gap_to_the_optimum_and_pcst_fast_reported():
    """Over 30 instances (mu = 0: pcst_fast takes no negative prizes): cuRnet's and
    pcst_fast's objectives, the same objective (a root joined to the terminals by cost-w
    edges, pcst_fast's rooted tree being the forest plus that root), against the optimum."""
    pcst_fast = pytest.importorskip("pcst_fast").pcst_fast
    w, b = 1.5, 1.0
    gaps, gw_gaps, pkg_gaps = [], [], []
    for seed in range(100, 130):
        g, edges, prizes = random_instance(seed, n=10, terminals=5)
        f = pcsf(g, prizes, w=w, b=b, mu=0.0, backend="cpu")
        ours = check_forest(g, edges, f, prizes, w, b, 0.0)
        plain = check_forest(g, edges, pcsf(g, prizes, w=w, b=b, mu=0.0, improve=False, backend="cpu"),
                             prizes, w, b, 0.0)
        assert ours <= plain + 1e-12
        best = brute_force_optimum(len(g), edges, g.names, prizes, w, b, 0.0)
        u, v, cost = edges
        n = len(g)
        term = np.array([g.name_index()[s] for s in prizes])
        eu = np.concatenate([u, np.full(len(term), n)])
        ev = np.concatenate([v, term])
        ec = np.concatenate([cost, np.full(len(term), w)])
        pz = np.zeros(n + 1)
        pz[term] = [b * prizes[s] for s in prizes]
        gv, ge = pcst_fast(np.column_stack([eu, ev]).astype(np.int64), pz, ec.astype(np.float64), n, 1, "strong", 0)
        kept = [i for i in ge if eu[i] != n and ev[i] != n]
        # the forest's vertices: pcst_fast's, and every end of its kept edges (some builds
        # leave an edge's end out of the vertex list)
        fv = {g.names[x] for x in gv if x != n} | {g.names[x] for i in kept for x in (eu[i], ev[i])}
        gw, _ = objective_from_graph(n, edges, g.names, prizes, fv,
                                     [(g.names[eu[i]], g.names[ev[i]]) for i in kept], w, b, 0.0)
        assert gw >= best - 1e-9 and ours >= best - 1e-9
        gaps.append(ours / best - 1)
        pkg_gaps.append(plain / best - 1)
        gw_gaps.append(gw / best - 1)
    gaps, gw_gaps, pkg_gaps = np.array(gaps), np.array(gw_gaps), np.array(pkg_gaps)
    print(f"\n30 instances: cuRnet optimal in {(gaps < 1e-9).sum()}, mean gap {100 * gaps.mean():.2f}%, "
          f"worst {100 * gaps.max():.2f}%; the package's method (improve=False) optimal in "
          f"{(pkg_gaps < 1e-9).sum()}, mean gap {100 * pkg_gaps.mean():.2f}%, worst {100 * pkg_gaps.max():.2f}%; pcst_fast optimal in {(gw_gaps < 1e-9).sum()}, "
          f"mean gap {100 * gw_gaps.mean():.2f}%, worst {100 * gw_gaps.max():.2f}%")
    assert (gaps < 1e-9).sum() >= 15                     # the heuristic is usually exact here


def test_a_disconnected_network_gives_trees_in_each_part():
    names = np.array(list("abcdef"))
    g = curnet.Graph.from_edges(["a", "b", "d", "e"], ["b", "c", "e", "f"], [0.5, 0.5, 0.5, 0.5],
                                directed=False, dtype=np.float64)
    f = pcsf(g, {"a": 3.0, "c": 3.0, "d": 3.0, "f": 3.0}, w=2, mu=0.0, backend="cpu")
    assert f.trees == 2 and sorted(f.names) == sorted(names)
    assert f.objective == pytest.approx(4 * 0.5 + 2 * 2)


def test_a_terminal_alone_is_a_tree_of_one_vertex_when_its_prize_pays_the_root_edge():
    g = curnet.Graph.from_edges(["a", "b"], ["b", "c"], [5.0, 5.0], directed=False, dtype=np.float64)
    f = pcsf(g, {"a": 3.0, "c": 1.0}, w=2, mu=0.0, backend="cpu")
    assert f.names.tolist() == ["a"] and f.trees == 1 and len(f.edge_from) == 0
    assert f.objective == pytest.approx(2 + 1.0)


def test_unmatched_terminals_are_left_out_and_reported():
    g, edges, prizes = random_instance(3)
    f = pcsf(g, {**prizes, "nope": 1.0}, backend="cpu")
    assert f.unmatched == ["nope"] and f.matched == len(prizes)
    assert f.objective == pytest.approx(pcsf(g, prizes, backend="cpu").objective)


def test_prizes_in_several_shapes_agree():
    g, _, prizes = random_instance(5)
    pd = pytest.importorskip("pandas")
    a = pcsf(g, prizes, backend="cpu")
    for shape in (pd.Series(prizes), (list(prizes), list(prizes.values())), list(prizes.items())):
        assert pcsf(g, shape, backend="cpu").objective == a.objective


def test_dummies_restrict_the_root_edges():
    g = curnet.Graph.from_edges(["a", "b", "c"], ["b", "c", "d"], [0.5, 0.5, 0.5], directed=False,
                                dtype=np.float64)
    f = pcsf(g, {"a": 3.0, "d": 3.0}, w=2, mu=0.0, dummies=["a"], backend="cpu")
    assert f.trees == 1 and sorted(f.names) == ["a", "b", "c", "d"]


# -- pcsf_rand ----------------------------------------------------------------------------------
def union_key(u):
    return (u.names.tolist(), u.count.tolist(), u.edge_from.tolist(), u.edge_to.tolist(), u.edge_count.tolist())


def test_pcsf_rand_is_reproducible_with_a_seed():
    g, _, prizes = random_instance(7, n=12, terminals=5)
    a = pcsf_rand(g, prizes, runs=6, noise=0.5, seed=11, backend="cpu")
    b = pcsf_rand(g, prizes, runs=6, noise=0.5, seed=11, backend="cpu")
    assert union_key(a) == union_key(b)
    assert a.runs == 6 and len(a.forests) == 6 and a.count.max() <= 6


def test_pcsf_rand_without_noise_is_n_copies_of_pcsf():
    g, _, prizes = random_instance(8, n=12, terminals=5)
    f = pcsf(g, prizes, backend="cpu")
    u = pcsf_rand(g, prizes, runs=4, noise=0.0, seed=1, backend="cpu")
    assert u.names.tolist() == f.names.tolist() and (u.count == 4).all()
    assert (u.edge_count == 4).all() and len(u.edge_from) == len(f.edge_from)
    assert np.allclose(u.objectives, f.objective)


def test_pcsf_rand_runs_batched_in_one_call_equal_runs_one_by_one(monkeypatch):
    """The GPU's route (every run's copy side by side in one shortest-path call), taken here
    on the CPU, gives the runs' forests one call each gives."""
    g, _, prizes = random_instance(9, n=12, terminals=5)
    one = pcsf_rand(g, prizes, runs=5, noise=0.3, seed=4, backend="cpu")
    monkeypatch.setattr(runs_module, "_runs_per_call", lambda backend, n, *size: n)
    calls = []
    real = paths_module.sssp_blocks
    monkeypatch.setattr(paths_module, "sssp_blocks", lambda *a, **k: calls.append(1) or real(*a, **k))
    joint = pcsf_rand(g, prizes, runs=5, noise=0.3, seed=4, backend="cpu")
    assert len(calls) == 1
    assert union_key(one) == union_key(joint)
    assert np.allclose(one.objectives, joint.objectives)


def test_runs_per_call_caps_the_batched_copies(monkeypatch):
    g, _, prizes = random_instance(10, n=12, terminals=5)
    calls = []
    real = paths_module.sssp_blocks
    monkeypatch.setattr(paths_module, "sssp_blocks", lambda *a, **k: calls.append(1) or real(*a, **k))
    a = pcsf_rand(g, prizes, runs=5, noise=0.3, seed=2, backend="cpu", runs_per_call=2)
    assert len(calls) == 3
    assert union_key(a) == union_key(pcsf_rand(g, prizes, runs=5, noise=0.3, seed=2, backend="cpu"))


def test_gpu_runs_per_call_bounds_the_copies_work(monkeypatch):
    """On a GPU each source's row spans all the call's copies: the runs a call keep
    runs^2 x terminals x vertices within RUN_CALL_ENTRIES and runs x terminals within one
    near-far batch, and never exceed the runs asked for."""
    class Gpu:
        name = "cuda"
    monkeypatch.setattr(runs_module, "get_backend", lambda backend: Gpu())
    for runs, terminals, n in [(100, 100, 15406), (20, 20, 15406), (100, 1000, 15406), (3, 5, 100),
                               (100, 4000, 50)]:
        c = runs_module._runs_per_call("cuda", runs, terminals, n)
        assert 1 <= c <= runs
        assert c == 1 or (c * c * terminals * n <= runs_module.RUN_CALL_ENTRIES
                          and c * terminals <= runs_module.RUN_CALL_SOURCES)
        # the largest such count: one more run would pass a bound
        more = c + 1
        assert more > runs or more * more * terminals * n > runs_module.RUN_CALL_ENTRIES \
            or more * terminals > runs_module.RUN_CALL_SOURCES
    assert runs_module._runs_per_call("cuda", 100, 100, 15406) == 9
    monkeypatch.setattr(runs_module, "get_backend", lambda backend: type("Cpu", (), {"name": "cpu"})())
    assert runs_module._runs_per_call("cpu", 100, 100, 15406) == 1


def test_float32_paths_still_give_a_forest_costed_in_double():
    g, edges, prizes = random_instance(4, n=10, terminals=5)
    f = pcsf(g, prizes, mu=0.05, dtype=np.float32, backend="cpu")
    check_forest(g, edges, f, prizes, 2.0, 1.0, 0.05)
    assert f.objective == pytest.approx(pcsf(g, prizes, mu=0.05, backend="cpu").objective, rel=1e-6)
    for bad in (np.float16, "half", np.int32):
        with pytest.raises(ValueError, match="dtype must be float64 or float32"):
            pcsf(g, prizes, dtype=bad)


def same_tables(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(np.asarray(a[k]), np.asarray(b[k])) for k in a)


@pytest.mark.parametrize("precision, dtype", [("single", np.float32), ("double", np.float64)])
def test_precision_is_a_deprecated_alias_of_dtype(precision, dtype):
    """The float width's one name is dtype (docs/design.md, "Names"); precision="double"/"single"
    still works, warns, and gives the same forests as the dtype it names."""
    g, edges, prizes = random_instance(5, n=12, terminals=5)
    with pytest.warns(DeprecationWarning, match="precision= is deprecated; use dtype="):
        old = pcsf(g, prizes, mu=0.05, precision=precision, backend="cpu")
    new = pcsf(g, prizes, mu=0.05, dtype=dtype, backend="cpu")
    assert same_tables(old.edge_table(), new.edge_table()) and old.objective == new.objective
    with pytest.warns(DeprecationWarning, match="precision="):
        old_u = pcsf_rand(g, prizes, runs=3, seed=1, precision=precision, backend="cpu")
    new_u = pcsf_rand(g, prizes, runs=3, seed=1, dtype=dtype, backend="cpu")
    assert same_tables(old_u.edge_table(), new_u.edge_table())
    assert np.array_equal(old_u.objectives, new_u.objectives)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="precision"):
        pcsf(g, prizes, precision="half")


# -- bad input ----------------------------------------------------------------------------------
def small():
    return curnet.Graph.from_edges(["a", "b"], ["b", "c"], [1.0, 1.0], directed=False, dtype=np.float64)


@pytest.mark.parametrize("prizes, message", [
    ({}, "no terminals"),
    ({"a": float("nan")}, "finite"),
    ({"a": -1.0}, "positive"),
    ({"a": 0.0}, "positive"),
    ((["a", "a"], [1.0, 2.0]), "duplicated"),
    ({"x": 1.0, "y": 2.0}, "none of the 2 terminals"),
    ((["a"] + [f"x{i}" for i in range(30)], [1.0] * 31), "only 1 of 31"),
    ((["a", None], [1.0, 1.0]), "needs a name"),
])
def test_bad_prizes_are_refused(prizes, message):
    with pytest.raises(ValueError, match=message):
        pcsf(small(), prizes, backend="cpu")


@pytest.mark.parametrize("costs, message", [([-1.0, 1.0], "negative weight"),
                                            ([np.nan, 1.0], "must be finite")])
def test_bad_costs_are_refused(costs, message):
    """Negative and missing costs, by the undirected Graph (a zero cost is taken, as PCSF()
    takes it: test_pcsf_inputs.py)."""
    with pytest.raises(ValueError, match=message):
        g = curnet.Graph.from_edges(["a", "b"], ["b", "c"], costs, directed=False, dtype=np.float64)
        pcsf(g, {"a": 1.0}, backend="cpu")


def test_bad_networks_are_refused():
    with pytest.raises(ValueError, match="no vertex names"):
        pcsf(curnet.Graph.from_edges([0, 1], [1, 2], [1.0, 1.0], directed=False), {"a": 1.0})
    with pytest.raises(ValueError, match="undirected"):
        pcsf(curnet.Graph.from_edges(["a"], ["b"], [1.0]), {"a": 1.0})
    with pytest.raises(ValueError, match="no edge costs"):
        pcsf(curnet.Graph.from_edges(["a"], ["b"], directed=False), {"a": 1.0})
    with pytest.raises(ValueError, match="parallel"):
        pcsf(curnet.Graph.from_edges(["a", "b"], ["b", "a"], [1.0, 1.0], directed=False), {"a": 1.0})
    with pytest.raises(ValueError, match="self-loop"):
        pcsf(curnet.Graph.from_edges(["a", "b"], ["b", "b"], [1.0, 1.0], directed=False), {"a": 1.0})
    with pytest.raises(TypeError, match="curnet.Graph"):
        pcsf("network.tsv", {"a": 1.0})
    with pytest.raises(ValueError, match="none of the dummies is in the network"):
        pcsf(small(), {"a": 1.0}, dummies=["zz"])
    with pytest.raises(ValueError, match="w and b must be positive"):
        pcsf(small(), {"a": 1.0}, w=0)
    with pytest.raises(ValueError, match="runs = 0: the number of runs"):
        pcsf_rand(small(), {"a": 1.0}, runs=0)
    with pytest.raises(ValueError, match="noise = -0.1: the noise"):
        pcsf_rand(small(), {"a": 1.0}, noise=-0.1)


# -- the GPU (skipped without one) --------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")
@pytest.mark.parametrize("seed", range(3))
def test_the_gpu_gives_the_cpu_forest(seed):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, 2000, (2, 9000))
    key = np.unique(np.minimum(u, v) * 2000 + np.maximum(u, v))
    key = key[key // 2000 != key % 2000]
    names = np.array([f"g{i}" for i in range(2000)])
    g = curnet.Graph.from_edges(names[key // 2000], names[key % 2000], rng.uniform(0.1, 1.0, len(key)),
                                directed=False, names=names, dtype=np.float64)
    terms = rng.choice(g.names[g.out_degree() > 0], 60, replace=False)
    prizes = dict(zip(terms, rng.uniform(0.2, 3.0, 60)))
    cpu, gpu = pcsf(g, prizes, backend="cpu"), pcsf(g, prizes, backend="cuda")
    assert gpu.objective == pytest.approx(cpu.objective, rel=1e-9)
    rc = pcsf_rand(g, prizes, runs=4, noise=0.1, seed=seed, backend="cpu")
    rg = pcsf_rand(g, prizes, runs=4, noise=0.1, seed=seed, backend="cuda")   # one call for all 4 runs
    assert np.allclose(rc.objectives, rg.objectives, rtol=1e-9)
    # float32 paths (near-far): still a forest of the network, its objective costed in double
    single = pcsf(g, prizes, backend="cuda", dtype=np.float32)
    check_forest(g, g.edges(), single, prizes, 2.0, 1.0, 0.0005)


# -- the command line ---------------------------------------------------------------------------
def test_the_pcsf_command_writes_the_forest(tmp_path):
    from curnet.cli import main
    g, (u, v, cost), prizes = random_instance(2, n=12, terminals=5)
    net = tmp_path / "net.tsv"
    net.write_text("from\tto\tcost\n" + "".join(f"{g.names[a]}\t{g.names[c]}\t{float(x)!r}\n" for a, c, x in zip(u, v, cost)))
    pz = tmp_path / "prizes.tsv"
    pz.write_text("gene\tprize\n" + "".join(f"{k}\t{float(x)!r}\n" for k, x in prizes.items()) + "nope\t1.0\n")
    out, verts = tmp_path / "forest.tsv", tmp_path / "vertices.tsv"
    assert main(["pcsf", str(net), str(pz), "--backend", "cpu", "--mu", "0.01", "--out", str(out),
                 "--vertices-out", str(verts)]) == 0
    f = pcsf(g, prizes, mu=0.01, backend="cpu")
    rows = [line.split("\t") for line in out.read_text().splitlines()]
    assert rows[0] == ["from", "to", "cost"] and len(rows) - 1 == len(f.edge_from)
    assert {frozenset(r[:2]) for r in rows[1:]} == set(map(frozenset, zip(*list(f.edge_table().values())[:2])))
    assert len(verts.read_text().splitlines()) - 1 == len(f.vertices)
    assert main(["pcsf", str(net), str(pz), "--backend", "cpu", "--runs", "3", "--noise", "0",
                 "--out", str(out)]) == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()]
    assert rows[0] == ["from", "to", "count"] and {r[2] for r in rows[1:]} <= {"3"}
    pz.write_text("a\tb\tc\n")
    assert main(["pcsf", str(net), str(pz), "--backend", "cpu"]) == 2


def test_n_and_r_are_deprecated_spellings_of_runs_and_noise():
    """pcsf_rand's number of runs is runs= and its noise noise= (the CLI's --runs, --noise);
    PCSF_rand's n= and r= still work, warn, and give the same union."""
    g, edges, prizes = random_instance(5, n=12, terminals=5)
    with pytest.warns(DeprecationWarning, match="^n= is deprecated; use runs="):
        old = pcsf_rand(g, prizes, n=3, seed=1, backend="cpu")
    with pytest.warns(DeprecationWarning, match="^r= is deprecated; use noise="):
        old_noise = pcsf_rand(g, prizes, runs=3, r=0.4, seed=1, backend="cpu")
    for before, now in ((old, pcsf_rand(g, prizes, runs=3, seed=1, backend="cpu")),
                        (old_noise, pcsf_rand(g, prizes, runs=3, noise=0.4, seed=1, backend="cpu"))):
        assert before.runs == now.runs == 3
        assert same_tables(before.edge_table(), now.edge_table())
        assert np.array_equal(before.objectives, now.objectives)
    assert not np.array_equal(old.objectives, old_noise.objectives)     # r reached the noise


def test_the_pcsf_command_takes_the_float_width_as_dtype(tmp_path, monkeypatch):
    """pcsf's --dtype (the one name of the float width) reaches pcsf's dtype, float64 unless
    given, and the forest written is the engine's at that width."""
    import curnet.analyses.steiner_forest as sf
    from curnet.cli import main
    g, (u, v, cost), prizes = random_instance(3, n=12, terminals=5)
    net, pz, out = tmp_path / "net.tsv", tmp_path / "prizes.tsv", tmp_path / "forest.tsv"
    net.write_text("".join(f"{g.names[a]}\t{g.names[c]}\t{float(x)!r}\n" for a, c, x in zip(u, v, cost)))
    pz.write_text("".join(f"{k}\t{float(x)!r}\n" for k, x in prizes.items()))
    widths = []
    engine = sf.pcsf
    monkeypatch.setattr(sf, "pcsf", lambda *a, **k: widths.append(np.dtype(k["dtype"])) or engine(*a, **k))
    for given in ([], ["--dtype", "float32"]):
        assert main(["pcsf", str(net), str(pz), "--backend", "cpu", "--out", str(out)] + given) == 0
    assert widths == [np.float64, np.float32]
    f = engine(g, prizes, backend="cpu", dtype=np.float32)
    rows = [line.split("\t") for line in out.read_text().splitlines()][1:]
    assert {frozenset(r[:2]) for r in rows} == set(map(frozenset, zip(*list(f.edge_table().values())[:2])))


def test_an_isolated_terminal_and_parts_without_a_dummy():
    """A terminal without edges is a tree of its own when its prize pays for the root edge;
    with dummies, the parts of the network that reach none of them are left out (prizes lost)."""
    names = np.array(list("abcdefgz"))
    g = curnet.Graph.from_edges(list("abdef"), list("bcefg"), [0.5] * 5, directed=False, names=names,
                                dtype=np.float64)
    prizes = {"a": 3.0, "c": 3.0, "d": 3.0, "g": 3.0, "z": 5.0}
    f = pcsf(g, prizes, mu=0.0, backend="cpu")
    assert f.trees == 3 and f.names.tolist() == names.tolist()
    assert f.objective == pytest.approx(1.0 + 1.5 + 3 * 2.0)
    f = pcsf(g, prizes, mu=0.0, dummies=["a"], backend="cpu")
    assert f.names.tolist() == ["a", "b", "c"] and f.objective == pytest.approx(1.0 + 2.0 + 11.0)


def test_the_time_split_is_reported():
    g, _, prizes = random_instance(6)
    f = pcsf(g, prizes, backend="cpu")
    u = pcsf_rand(g, prizes, runs=2, backend="cpu")
    for s in (f.seconds, u.seconds):
        assert set(s) == {"setup", "paths", "host"} and all(v >= 0 for v in s.values())


def test_rooted_and_run_graphs_are_laid_out_as_from_edges_lays_them_out():
    """The rooted network, shifted from the network's CSR without a sort, equals
    Graph.from_edges of the network's edges then the root edges; the runs' graph tiles it
    with each run's costs, as from_edges of the runs' copies side by side would."""
    rng = np.random.default_rng(5)
    n, m = 30, 70
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = src != dst
    pairs = np.unique(np.sort(np.column_stack([src[keep], dst[keep]]), axis=1), axis=0)
    flip = rng.random(len(pairs)) < 0.5                      # either orientation, as given
    src, dst = np.where(flip, pairs[:, 1], pairs[:, 0]), np.where(flip, pairs[:, 0], pairs[:, 1])
    m = len(src)
    g = curnet.Graph.from_edges(src, dst, rng.uniform(0.1, 1, m), directed=False, num_vertices=n,
                                dtype=np.float64)
    dummies = np.array([7, 2, 19, 11])
    indptr, indices, arc_edge = problem_module._rooted_csr(g, dummies, m)
    ref = curnet.Graph.from_edges(np.concatenate([src, np.full(len(dummies), n)]), np.concatenate([dst, dummies]),
                                  directed=False, num_vertices=n + 1)
    assert np.array_equal(indptr, ref.indptr) and np.array_equal(indices, ref.indices)
    assert np.array_equal(arc_edge, ref.arc_edges)

    names = np.array([f"v{i}" for i in range(n)])
    named = curnet.Graph.from_edges(src, dst, rng.uniform(0.1, 1, m), directed=False, names=names,
                                    dtype=np.float64)
    P = problem_module.Problem(named, {"v7": 1.0, "v2": 2.0, "v19": 0.5}, 2, 1, 0.01, None, 0.05)
    costs = [P.cost * (1 + rng.uniform(0, 0.2, len(P.cost))) for _ in range(3)]
    big = P.run_graph(costs, np.float64)
    N, k = n + 1, len(P.dummies)
    offsets = np.repeat(np.arange(3) * N, m + k)
    ref = curnet.Graph.from_edges(np.tile(np.concatenate([src, np.full(k, n)]), 3) + offsets,
                                  np.tile(np.concatenate([dst, P.dummies]), 3) + offsets,
                                  np.concatenate(costs), directed=False, num_vertices=3 * N, dtype=np.float64)
    assert np.array_equal(big.indptr, ref.indptr) and np.array_equal(big.indices, ref.indices)
    assert np.array_equal(big.weights, ref.weights)
