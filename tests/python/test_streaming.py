"""bfs_batches / sssp_batches and the CLI's streamed --out: blocks against SciPy, early stops
and interrupts that leave no thread behind, bounded memory and valid files after Ctrl-C."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import curnet
from curnet import Graph
from curnet.backends import get_backend
from curnet.errors import NegativeCycleError

ROOT = Path(__file__).resolve().parents[2]


def random_graph(seed, n, m, *, directed=True, weighted=False):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.uniform(0.1, 2.0, m) if weighted else None
    return Graph.from_edges(src, dst, w, directed=directed, num_vertices=n, dtype=np.float64)


def scipy_dist(g, sources, unweighted):
    w = np.ones(g.num_arcs) if g.weights is None else g.weights.astype(np.float64)
    a = sp.csr_matrix((w, g.indices, g.indptr), shape=(len(g), len(g)))
    return csgraph.shortest_path(a, directed=True, indices=sources, unweighted=unweighted)


def stream_threads():
    return [t for t in threading.enumerate() if t.name == "curnet-stream"]


@pytest.fixture
def small_batches(monkeypatch):
    """Several batches (and so several worker threads) on small graphs."""
    monkeypatch.setattr(type(get_backend("cpu")), "bfs_batch_size", lambda self, n, k: 7)
    monkeypatch.setattr(type(get_backend("cpu")), "sssp_batch_size", lambda self, n, k, d: 5)


@pytest.mark.parametrize("seed", range(3))
def test_bfs_batches_cover_every_source_once(small_batches, seed):
    g = random_graph(seed, 60, 150, directed=seed != 1)
    sources = np.random.default_rng(seed).integers(0, 60, 40)      # repeats kept, as rows
    want = dict(zip(sources.tolist(), scipy_dist(g, sources, unweighted=True)))
    seen = []
    for ids, block in curnet.bfs_batches(g, sources, backend="cpu"):
        assert block.shape == (len(ids), 60) and block.dtype == np.int32
        for sid, row in zip(ids.tolist(), block):
            np.testing.assert_array_equal(np.where(row < 0, np.inf, row), want[sid])
        seen += ids.tolist()
    assert sorted(seen) == sorted(sources.tolist())      # each row once, repeats included
    assert not stream_threads()


def test_sssp_batches_distances_and_predecessors(small_batches):
    g = random_graph(7, 80, 300, weighted=True)
    sources = np.arange(0, 80, 3)
    got = {}
    for ids, (dist, pred) in curnet.sssp_batches(g, sources, backend="cpu", with_pred=True):
        for sid, drow, prow in zip(ids.tolist(), dist, pred):
            got[sid] = (drow, prow)
    assert sorted(got) == sources.tolist()
    want = scipy_dist(g, sources, unweighted=False)
    w = sp.csr_matrix((g.weights, g.indices, g.indptr), shape=(80, 80)).tocoo()
    cheapest = {}
    for u, v, x in zip(w.row, w.col, w.data):
        cheapest[(u, v)] = min(x, cheapest.get((u, v), np.inf))
    for s, drow in zip(sources, want):
        d, p = got[int(s)]
        np.testing.assert_allclose(d, drow)
        for v in np.flatnonzero(np.isfinite(drow)):
            if v == s:
                assert p[v] == -1
            else:   # a valid predecessor: an arc into v that attains v's distance
                assert d[p[v]] + cheapest[(p[v], v)] == pytest.approx(d[v])
    for _, (dist, pred) in curnet.sssp_batches(g, [0], backend="cpu"):
        assert pred is None


def test_early_stop_leaves_no_thread_running(small_batches):
    g = random_graph(3, 200, 800)
    stream = curnet.bfs_batches(g, np.arange(200), backend="cpu", max_pending=1)
    first_ids, _ = next(stream)
    assert len(first_ids) == 7 and stream_threads()
    stream.close()
    assert not stream_threads()
    for ids, _ in curnet.bfs_batches(g, np.arange(200), backend="cpu"):
        break                       # a `break` closes the generator once it is collected
    del ids
    import gc
    gc.collect()
    assert not stream_threads()


def test_interrupt_in_the_consumer_stops_the_producer(small_batches):
    g = random_graph(4, 200, 800)
    done = []
    with pytest.raises(KeyboardInterrupt):
        for ids, _ in curnet.bfs_batches(g, np.arange(200), backend="cpu",
                                         progress=lambda d, t: done.append(d)):
            if len(done) == 2:
                raise KeyboardInterrupt
    assert not stream_threads()
    assert done == [7, 14]          # progress is reported as blocks are handed over


def test_producer_error_reaches_the_consumer():
    g = Graph.from_edges([0, 1, 2], [1, 2, 1], [1.0, -3.0, 1.0], directed=True)
    with pytest.raises(NegativeCycleError):
        list(curnet.sssp_batches(g, [0], backend="cpu"))
    assert not stream_threads()
    with pytest.raises(ValueError, match="max_pending"):
        list(curnet.bfs_batches(g, [0], backend="cpu", max_pending=0))


# -- the CLI -------------------------------------------------------------------

def write_ring_graph(path: Path, n: int, extra: int, seed: int = 0) -> None:
    """A ring (every vertex has an edge, so --fraction 1 takes them all) plus random chords."""
    rng = np.random.default_rng(seed)
    src = np.r_[np.arange(n), rng.integers(0, n, extra)]
    dst = np.r_[(np.arange(n) + 1) % n, rng.integers(0, n, extra)]
    with open(path, "w") as f:
        f.write("from\tto\n")
        f.write("\n".join(f"{a}\t{b}" for a, b in zip(src, dst)))
        f.write("\n")


def cli(*args, threads="2", **kw):
    code = ("import resource, sys\nfrom curnet.cli import main\nrc = main(sys.argv[1:])\n"
            "print('maxrss_kib', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
            "sys.exit(rc)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), CURNET_THREADS=threads)
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def peak_rss(stderr: str) -> int:
    return int(stderr.split("maxrss_kib")[-1].split()[0]) * 1024


def check_file_against_scipy(path: Path, graph_file: Path, n: int) -> int:
    """Every row of the file against SciPy's BFS, reading a record batch at a time; returns
    how many sources the file holds complete."""
    edges = np.loadtxt(graph_file, skiprows=1, dtype=np.int64)
    a = sp.csr_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    rows_per_source = np.zeros(n, np.int64)
    reachable = {}
    for batch in pq.ParquetFile(path).iter_batches(batch_size=1 << 20):
        s = batch.column("source").to_numpy()
        t = batch.column("target").to_numpy()
        d = batch.column("bfs").to_numpy()
        u = np.unique(s)
        want = csgraph.shortest_path(a, directed=True, unweighted=True, indices=u)
        np.testing.assert_array_equal(d, want[np.searchsorted(u, s), t])
        rows_per_source += np.bincount(s, minlength=n)
        for x, row in zip(u, want):
            reachable[int(x)] = int(np.isfinite(row).sum())
    for x, count in reachable.items():
        assert rows_per_source[x] == count, f"source {x}: {rows_per_source[x]} rows, {count} reachable"
    return len(reachable)


@pytest.mark.slow
def test_cli_streams_an_all_pairs_job_larger_than_its_memory(tmp_path):
    n = 12000
    graph_file = tmp_path / "ring.tsv"
    write_ring_graph(graph_file, n, 2 * n)
    out = tmp_path / "all.parquet"
    base = cli("bfs", str(graph_file), "--ids-as-index", "--backend", "cpu", "--sources", "0", "--out", str(tmp_path / "one.parquet"),
               threads="1")
    _, err = base.communicate(timeout=600)
    assert base.returncode == 0, err
    baseline = peak_rss(err)
    # one worker thread: the blocks in flight are then one computing, one queued, one being
    # written (about 75 MB here); with more threads each adds a block (and allocator slack)
    job = cli("bfs", str(graph_file), "--ids-as-index", "--backend", "cpu", "--fraction", "1", "--out", str(out), threads="1")
    _, err = job.communicate(timeout=600)
    assert job.returncode == 0, err
    matrix = n * n * 4                 # the int32 depth matrix the job never holds
    assert peak_rss(err) - baseline < matrix / 2, (peak_rss(err), baseline, matrix)
    assert pq.ParquetFile(out).metadata.num_row_groups > 1
    assert check_file_against_scipy(out, graph_file, n) == n


def test_cli_ctrl_c_leaves_a_valid_file_of_finished_row_groups(tmp_path):
    n = 9000
    graph_file = tmp_path / "ring.tsv"
    write_ring_graph(graph_file, n, 2 * n, seed=1)
    out = tmp_path / "part.parquet"
    job = cli("bfs", str(graph_file), "--ids-as-index", "--backend", "cpu", "--fraction", "1", "--out", str(out))
    deadline = time.monotonic() + 300
    while not (out.exists() and out.stat().st_size > 1 << 16):   # a piece is on its way to disk
        assert job.poll() is None and time.monotonic() < deadline, job.stderr.read()
        time.sleep(0.05)
    job.send_signal(signal.SIGINT)
    _, err = job.communicate(timeout=300)
    assert job.returncode == 130, err
    assert "interrupted" in err
    meta = pq.ParquetFile(out).metadata
    assert meta.num_row_groups >= 1 and meta.num_rows > 0
    complete = check_file_against_scipy(out, graph_file, n)
    assert 0 < complete < n


@pytest.mark.gpu
def test_bfs_and_sssp_batches_gpu_match_cpu():
    g = curnet.generators.rmat(12, seed=3)
    sources = np.arange(0, len(g), 5)
    rows = {}
    for ids, block in curnet.bfs_batches(g, sources, backend="cuda"):
        assert isinstance(block, np.ndarray) and block.shape == (len(ids), len(g))
        rows.update(zip(ids.tolist(), block))
    got = np.array([rows[s] for s in sources.tolist()])
    np.testing.assert_array_equal(got, curnet.bfs(g, sources, backend="cpu"))
    gw = random_graph(5, 3000, 20000, weighted=True)
    rows = {}
    for ids, (dist, _) in curnet.sssp_batches(gw, np.arange(0, 3000, 7), backend="cuda"):
        assert isinstance(dist, np.ndarray)
        rows.update(zip(ids.tolist(), dist))
    want = curnet.sssp_dists(gw, np.arange(0, 3000, 7), backend="cpu")
    np.testing.assert_allclose(np.array([rows[s] for s in range(0, 3000, 7)]), want, rtol=1e-6)
