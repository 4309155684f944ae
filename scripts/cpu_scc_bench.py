"""The CPU backend's strongly connected components on directed R-MAT, beside its previous
route and the CPU peers, every answer checked against the public call's labels.

    python scripts/cpu_scc_bench.py                  # R-MAT 20 (seed 1), medians of 5
    python scripts/cpu_scc_bench.py --scale 16 --reps 3 --no-peers

The graph is the peers benchmark's: generators.rmat_edges(scale, seed=1) taken as directed
arcs (parallel arcs and self-loops kept), its in-arcs built before timing. Rows:
  * public call `curnet.scc(g, backend="cpu")`: the first call on the graph (SciPy's strong
    components on the plain view: the reversed arcs in the graph's ids, repeats made
    self-loops), the second (it builds and keeps the degree-ordered view: each arc once,
    vertices in degree order, rows sorted) and the median of the calls after them; then the
    parts: the backend's host graph, each view and SciPy on it, canonical relabelling, and the
    first call as it was before (the ordered view built on the first call);
  * previous route: SciPy's strong components on the cheapest-arc CSR (HostGraph.scipy_matrix,
    built on the first call and kept) and np.unique relabelling, as the CPU backend did before;
  * python-igraph's connected_components(mode="strong") and, if importable, networkit's
    StronglyConnectedComponents.run() (a peer, not a dependency: install it apart, e.g.
    `pip install --target DIR networkit` and PYTHONPATH=DIR), each on its own graph
    built before timing.
Times are host-clock medians (min-max) in ms; prints one line a row and the machine.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

import curnet  # noqa: E402
from curnet.backends import get_backend  # noqa: E402
from curnet.generators import rmat_edges  # noqa: E402
from curnet.graph import Graph  # noqa: E402


def timed(fn, reps):
    """(median, min, max) ms of reps calls, and the last result."""
    ts, out = [], None
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        ts.append((time.perf_counter() - t) * 1e3)
    return (float(np.median(ts)), min(ts), max(ts)), out


def once(fn):
    t = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t) * 1e3, out


def unique_relabel(labels):
    """The previous canonical relabelling: np.unique's sort."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), np.int32)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int32)
    return rank[inverse.ravel()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-peers", action="store_true", help="leave out python-igraph and networkit")
    a = ap.parse_args(argv)
    from scipy.sparse import csgraph

    def row(name, t, note=""):
        med, lo, hi = t if isinstance(t, tuple) else (t, t, t)
        spread = f" ({lo:.0f}-{hi:.0f})" if hi > lo else ""
        print(f"{name:58s} {med:9.1f} ms{spread}  {note}", flush=True)

    src, dst, n = rmat_edges(a.scale, seed=1)
    g = Graph.from_edges(src, dst, directed=True, num_vertices=n)
    g.csc()
    be = get_backend("cpu")
    print(f"R-MAT {a.scale} directed (seed 1): {n:,} vertices, {g.num_arcs:,} arcs; {be.describe()}; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC", flush=True)

    first, labels = once(lambda: curnet.scc(g, backend="cpu"))
    row("cuRnet cpu, public call, first on the graph", first, "(plain view)")
    second, again = once(lambda: curnet.scc(g, backend="cpu"))
    row("cuRnet cpu, public call, second", second, "(builds the degree-ordered view)")
    assert np.array_equal(again, labels)
    t, again = timed(lambda: curnet.scc(g, backend="cpu"), a.reps)
    row(f"cuRnet cpu, public call, median of {a.reps} after", t, f"{labels.max() + 1:,} components")
    assert np.array_equal(again, labels)

    def strong(matrix):
        return csgraph.connected_components(matrix, directed=True, connection="strong")[1]

    g._device.clear()                          # the calls again, part by part
    t_host, hg = once(lambda: be.device_graph(g))
    t_plain, plain = once(hg.scc_plain_matrix)
    t_scipy_plain, raw = timed(lambda: strong(plain), a.reps)
    del plain
    t_canon, canon = timed(lambda: be.canonical_labels(raw), a.reps)
    assert np.array_equal(canon, labels)
    t_view, (ordered, order) = once(hg.scc_matrix)
    t_scipy, found = timed(lambda: strong(ordered), a.reps)
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
        t_host + t_view + t_scipy[0] + t_canon[0], f"now {first:.1f} ms")

    t_csr, old_matrix = once(hg.scipy_matrix)
    t_old, old = timed(lambda: csgraph.connected_components(old_matrix, directed=True,
                                                            connection="strong")[1], a.reps)
    t_uniq, old_labels = timed(lambda: unique_relabel(old), a.reps)
    assert np.array_equal(old_labels, labels)
    before = t_old[0] + t_uniq[0]
    row("previous route: cheapest-arc CSR (first call only)", t_csr)
    row("previous route: SciPy on the cheapest-arc CSR", t_old)
    row("previous route: np.unique relabelling", t_uniq)
    row("previous route, calls after the first (sum of medians)", before,
        f"now {t[0]:.1f} ms: {before / t[0]:.2f}x faster")
    row("previous route, first call (host graph + CSR + the above)", t_host + t_csr + before,
        f"now {first:.1f} ms")
    del old_matrix
    hg._scipy = None

    if a.no_peers:
        return 0
    try:
        import igraph as ig
        G = ig.Graph(n=n, edges=np.c_[src, dst], directed=True)
        ti, m = timed(lambda: G.connected_components(mode="strong").membership, max(1, a.reps // 2))
        same = np.array_equal(be.canonical_labels(np.asarray(m)), labels)
        row(f"python-igraph {ig.__version__} (1 thread)", ti,
            f"partition equal: {same}; cuRnet {ti[0] / t[0]:.2f}x its speed")
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

    def nk_run():
        sc = nk.components.StronglyConnectedComponents(N)
        t0 = time.perf_counter()
        sc.run()
        return (time.perf_counter() - t0) * 1e3, sc

    runs = [nk_run() for _ in range(a.reps)]
    ms = [r[0] for r in runs]
    same = np.array_equal(be.canonical_labels(np.asarray(runs[-1][1].getPartition().getVector())), labels)
    tn = (float(np.median(ms)), min(ms), max(ms))
    row(f"networkit {nk.__version__} run() ({nk.getMaxNumberOfThreads()} threads, "
        f"{N.numberOfEdges():,} edges)", tn, f"partition equal: {same}; cuRnet {tn[0] / t[0]:.2f}x its speed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
