"""The CPU backend's strongly connected components on directed R-MAT, beside its previous
route and the CPU peers, every answer checked against the public call's labels.

    python -m bench cpu-scc                  # R-MAT 20 (seed 1), medians of 5
    python -m bench cpu-scc --scale 16 --reps 3 --no-peers
    python -m bench cpu-scc --chain 3000000      # a deep graph: 3 M 2-cycles in a chain, and a ring
    NUMBA_NUM_THREADS=2 python -m bench cpu-scc --scale 18 --json bench/results/x.json

The graph is the peers benchmark's: generators.rmat_edges(scale, seed=1) taken as directed
arcs (parallel arcs and self-loops kept), or with --chain a deep one (chain_of_two_cycles);
its in-arcs built before timing. Rows:
  * public call `curnet.scc(g, backend="cpu")`, which takes the compiled route (trim, peel,
    Tarjan over the CPU's threads: backends/cpu/compiled_scc.py) from scc.COMPILED_MIN_ARCS
    arcs with Numba installed, else SciPy: the first call on the graph (SciPy's strong
    components on the plain view: the reversed arcs in the graph's ids, repeats made
    self-loops), the second (it builds and keeps the degree-ordered view: each arc once,
    vertices in degree order, rows sorted) and the median of the calls after them; then the
    parts: the backend's host graph, each view and SciPy on it, canonical relabelling, and the
    first call as it was before (the ordered view built on the first call);
  * the compiled route on its own (where Numba imports, whatever the graph's size): its
    first run in the process (Numba's import and cached code loaded, unless the public
    call took the route), the median of the runs after, and that median with the searches'
    level limit lifted (compiled_scc.PEEL_MAX_LEVELS: a deep search hands over to Tarjan);
  * previous route: SciPy's strong components on the cheapest-arc CSR (HostGraph.scipy_matrix,
    built on the first call and kept) and np.unique relabelling, as the CPU backend did before;
  * python-igraph's connected_components(mode="strong") and, if importable, networkit's
    StronglyConnectedComponents.run() (a peer, not a dependency: install it apart, e.g.
    `pip install --target DIR networkit` and PYTHONPATH=DIR), each on its own graph
    built before timing.
Times are host-clock medians (min-max) in ms; prints one line a row and the machine, and
writes the rows to --json (default $OUT/cpu_scc.json when OUT is set).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys

import numpy as np

import curnet
from curnet.backends import get_backend
from curnet.backends.cpu import scc as cpu_scc
from curnet.backends.cpu.routes import compiled_module
from curnet.generators import rmat_edges
from curnet.graph import Graph

from . import rows as results
from .timing import Times, timed


# The settings that decide the compiled route's threads and how they wait (OpenMP threads
# that spin while another process holds the cores cost the compiled route ~3x on the
# 2-core machine: bench/results/cpu_scc_2026-12-02.md); recorded with the rows.
THREAD_SETTINGS = ("NUMBA_NUM_THREADS", "NUMBA_THREADING_LAYER", "OMP_WAIT_POLICY")


def unique_relabel(labels):
    """The previous canonical relabelling: np.unique's sort."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), np.int32)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int32)
    return rank[inverse.ravel()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench cpu-scc", description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--chain", type=int, default=None, metavar="PAIRS",
                    help="instead of R-MAT: PAIRS 2-cycles chained as a path, beside a ring (a deep graph)")
    ap.add_argument("--no-peers", action="store_true", help="leave out python-igraph and networkit")
    ap.add_argument("--json", default=results.default_out("cpu_scc.json"), help="the rows as JSON (bench/rows.py)")
    a = ap.parse_args(argv)
    rows: list = []
    from scipy.sparse import csgraph

    graph = (f"R-MAT {a.scale} directed (seed 1)" if a.chain is None
             else f"{a.chain:,} 2-cycles in a chain beside a 200,000-vertex ring")

    def ms(t: Times) -> float:
        return t.median * 1e3

    def row(name, t, note=""):
        med, lo, hi = t.ms() if isinstance(t, Times) else (t, t, t)
        spread = f" ({lo:.0f}-{hi:.0f})" if hi > lo else ""
        print(f"{name:58s} {med:9.1f} ms{spread}  {note}", flush=True)
        rows.append({"row": name.strip(), "median_ms": med, "min_ms": lo, "max_ms": hi, "note": note})
        results.write(a.json, rows, quiet=True, graph=graph,
                      environment={k: os.environ.get(k) for k in THREAD_SETTINGS})

    src, dst, n = rmat_edges(a.scale, seed=1) if a.chain is None else chain_of_two_cycles(a.chain)
    g = Graph.from_edges(src, dst, directed=True, num_vertices=n)
    g.csc()
    be = get_backend("cpu")
    print(f"{graph}: {n:,} vertices, {g.num_arcs:,} arcs; {be.describe()}; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; "
          + ", ".join(f"{k}={os.environ.get(k, '(unset)')}" for k in THREAD_SETTINGS), flush=True)

    labels, first = timed(lambda: curnet.scc(g, backend="cpu"))
    compiled = compiled_module("compiled_scc", g.num_arcs, cpu_scc.COMPILED_MIN_ARCS) is not None
    route = "compiled route" if compiled else "SciPy"
    row("cuRnet cpu, public call, first on the graph", first,
        "(compiled route, Numba loaded)" if compiled else "(SciPy, plain view)")
    again, second = timed(lambda: curnet.scc(g, backend="cpu"))
    row("cuRnet cpu, public call, second", second,
        "(compiled route)" if compiled else "(SciPy, builds the degree-ordered view)")
    assert np.array_equal(again, labels)
    again, t = timed(lambda: curnet.scc(g, backend="cpu"), a.reps)
    row(f"cuRnet cpu, public call, median of {a.reps} after", t, f"{labels.max() + 1:,} components ({route})")
    assert np.array_equal(again, labels)
    t_compiled = compiled_rows(be.device_graph(g), be, labels, a.reps, row)

    def strong(matrix):
        return csgraph.connected_components(matrix, directed=True, connection="strong")[1]

    g._device.clear()                          # the calls again, part by part
    hg, t_host = timed(lambda: be.device_graph(g))
    plain, t_plain = timed(hg.scc_plain_matrix)
    raw, t_scipy_plain = timed(lambda: strong(plain), a.reps)
    del plain
    canon, t_canon = timed(lambda: be.canonical_labels(raw), a.reps)
    assert np.array_equal(canon, labels)
    (ordered, order), t_view = timed(hg.scc_matrix)
    found, t_scipy = timed(lambda: strong(ordered), a.reps)
    raw = np.empty(n, np.int32)
    raw[order] = found
    assert np.array_equal(be.canonical_labels(raw), labels)
    row("  part: host graph (CSR/CSC arrays, first call only)", t_host)
    row("  part: plain view (first call)", t_plain)
    row("  part: SciPy strong components on the plain view", t_scipy_plain)
    row("  part: degree-ordered view (second call, kept)", t_view)
    row("  part: SciPy strong components on the ordered view", t_scipy)
    row("  part: canonical relabelling", t_canon)
    row("before: first call building the ordered view (sum of the parts)",
        ms(t_host) + ms(t_view) + ms(t_scipy) + ms(t_canon), f"now {ms(first):.1f} ms")

    old_matrix, t_csr = timed(hg.scipy_matrix)
    old, t_old = timed(lambda: csgraph.connected_components(old_matrix, directed=True,
                                                            connection="strong")[1], a.reps)
    old_labels, t_uniq = timed(lambda: unique_relabel(old), a.reps)
    assert np.array_equal(old_labels, labels)
    before = ms(t_old) + ms(t_uniq)
    row("previous route: cheapest-arc CSR (first call only)", t_csr)
    row("previous route: SciPy on the cheapest-arc CSR", t_old)
    row("previous route: np.unique relabelling", t_uniq)
    row("previous route, calls after the first (sum of medians)", before,
        f"now {ms(t):.1f} ms: {before / ms(t):.2f}x faster")
    row("previous route, first call (host graph + CSR + the above)", ms(t_host) + ms(t_csr) + before,
        f"now {ms(first):.1f} ms")
    del old_matrix
    hg._scipy = None

    if a.no_peers:
        return 0
    try:
        import igraph as ig
        G = ig.Graph(n=n, edges=np.c_[src, dst], directed=True)
        m, ti = timed(lambda: G.connected_components(mode="strong").membership, max(1, a.reps // 2))
        same = np.array_equal(be.canonical_labels(np.asarray(m)), labels)
        row(f"python-igraph {ig.__version__} (1 thread)", ti,
            f"partition equal: {same}; cuRnet {ms(ti) / ms(t):.2f}x its speed")
        del G
    except ImportError:
        print("python-igraph: not installed")
    try:
        import networkit as nk
    except ImportError:
        print("networkit: not importable (a peer: install it apart to compare)")
        return 0
    nk.setNumberOfThreads(os.cpu_count())
    key = np.unique(src.astype(np.int64) * n + dst)        # its edge-list reader merges parallel arcs
    N = nk.GraphFromCoo((np.ones(len(key)), (key // n, key % n)), n=n, directed=True)

    tn, sc = Times(), None
    for _ in range(a.reps):                 # run() alone timed, each on a new object
        sc = nk.components.StronglyConnectedComponents(N)
        tn += timed(sc.run)[1]
    same = np.array_equal(be.canonical_labels(np.asarray(sc.getPartition().getVector())), labels)
    versus = f"; the compiled route {ms(tn) / ms(t_compiled):.2f}x" if t_compiled is not None else ""
    row(f"networkit {nk.__version__} run() ({nk.getMaxNumberOfThreads()} threads, "
        f"{N.numberOfEdges():,} edges)", tn,
        f"partition equal: {same}; cuRnet {ms(tn) / ms(t):.2f}x its speed{versus}")
    return 0


def chain_of_two_cycles(pairs: int, ring: int = 200_000):
    """(src, dst, n): 2-cycles 2i <-> 2i+1 chained 2i+1 -> 2i+2, beside a directed ring (every
    search from a pair is as deep as the chain after it; tests/python/test_robustness.py's graph)."""
    a = np.arange(pairs, dtype=np.int64) * 2
    cycle = np.arange(ring) + 2 * pairs
    return (np.r_[a, a + 1, a[:-1] + 1, cycle, a[-1] + 1], np.r_[a + 1, a, a[1:], np.roll(cycle, -1), cycle[0]],
            2 * pairs + ring)


def compiled_rows(hg, be, labels, reps, row):
    """The compiled route's rows (its first run in the process, then the median of `reps`),
    each answer checked against the public call's; its Times, None without Numba."""
    from curnet.backends.cpu import compiled_scc
    if not compiled_scc.available():
        print("compiled route: Numba not importable (the public call takes SciPy's)")
        return None
    arcs = (hg.out_ptr, hg.out_idx, hg.in_ptr, hg.in_src)
    raw, t_first = timed(lambda: compiled_scc.scc_labels(*arcs))
    assert np.array_equal(be.canonical_labels(raw), labels)
    raw, t = timed(lambda: compiled_scc.scc_labels(*arcs), reps)
    assert np.array_equal(be.canonical_labels(raw), labels)
    threads = compiled_scc.numba.get_num_threads()
    row(f"compiled route, first run in the process ({threads} threads)", t_first,
        "(Numba's import and code load, unless the public call took the route)")
    row(f"compiled route, median of {reps} ({threads} threads)", t, "(labels before canonical numbering)")
    saved, compiled_scc.PEEL_MAX_LEVELS = compiled_scc.PEEL_MAX_LEVELS, 1 << 62
    try:
        raw, t_deep = timed(lambda: compiled_scc.scc_labels(*arcs), reps)
    finally:
        compiled_scc.PEEL_MAX_LEVELS = saved
    assert np.array_equal(be.canonical_labels(raw), labels)
    row(f"compiled route, searches never stopped, median of {reps}", t_deep,
        f"(PEEL_MAX_LEVELS {saved} lifted: the route before 2026-12-03)")
    return t


if __name__ == "__main__":
    sys.exit(main())
