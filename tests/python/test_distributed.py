"""curnet.distributed on a LocalCluster of 2 CPU worker processes: results equal to the
single-process calls, a worker killed mid-job, Ctrl-C, Parquet streaming, errors."""
import gc
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import CancelledError
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed")

import curnet
from curnet import distributed as cd
from curnet.algorithms.betweenness.source_order import chunk_order
from curnet.errors import BackendUnavailableError, NegativeCycleError

HANG_GUARD_S = 300


@pytest.fixture(autouse=True)
def hang_guard():
    """A stuck cluster fails its test after minutes instead of blocking CI."""
    def stuck(signum, frame):
        raise TimeoutError(f"test still running after {HANG_GUARD_S} s: the cluster hangs")
    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(HANG_GUARD_S)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(autouse=True)
def own_shared_dir(monkeypatch):
    """Each test's shared-memory results in a folder of its own under SHARED_DIR, so that a
    check for files left behind sees this test's only (another run on the host, such as a
    second checkout's tests, writes beside it)."""
    try:
        path = tempfile.mkdtemp(prefix="test-shared-", dir=cd.SHARED_DIR)
    except OSError:             # no such folder here: the tests that need it say so
        yield
        return
    monkeypatch.setattr(cd, "SHARED_DIR", path)
    yield
    shutil.rmtree(path, ignore_errors=True)


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster():
    c = cd.local_cluster(workers=2)
    yield c
    c.close()


@pytest.fixture(scope="module")
def engine(cluster):
    e = cd.ClusterEngine(cluster)
    yield e
    # closed before the cluster: a client left open tries to reconnect for 30 s after the
    # scheduler is gone, and a thread of it still running at exit can crash the interpreter
    e.client.close()


def random_graph(n, m, seed, *, directed=True, negative=False):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.uniform(0.1, 2.0, m)
    if negative:   # every arc forward (a DAG), some negative: no negative cycle
        src, dst = np.minimum(src, dst), np.maximum(src, dst) + 1
        w = w - 0.5
    return curnet.Graph.from_edges(src, dst, w, directed=directed, num_vertices=n + negative, dtype=np.float64)


@pytest.mark.parametrize("seed,directed,negative", [(0, True, False), (1, False, False), (2, True, True)])
def test_equal_to_single_process(engine, seed, directed, negative):
    g = random_graph(300, 1500, seed, directed=directed, negative=negative)   # 301 vertices if negative
    sources = np.random.default_rng(seed).integers(0, len(g), 90)      # repeats kept
    for chunk, shared in ((None, None), (7, False), (11, True)):
        opts = dict(chunk_size=chunk, shared_memory=shared)   # rows through /dev/shm or the network
        np.testing.assert_array_equal(engine.bfs(g, sources, backend="cpu", **opts),
                                      curnet.bfs(g, sources, backend="cpu"))
        dist, pred = engine.sssp(g, sources, backend="cpu", **opts)
        dist1, pred1 = curnet.sssp(g, sources, backend="cpu")
        np.testing.assert_array_equal(dist, dist1)
        np.testing.assert_array_equal(pred, pred1)   # the same CPU code on each chunk: same predecessors
        np.testing.assert_array_equal(engine.sssp_dists(g, sources, **opts), dist1)
    assert not [f for f in os.listdir(cd.SHARED_DIR) if f.startswith("curnet-")]   # nothing left behind


def open_memory_files() -> list:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if "curnet-result" in os.readlink(f"/proc/self/fd/{fd}"):
                found.append(fd)
        except OSError:          # the listing's own descriptor, gone by now
            pass
    return found


def test_shared_memory_routes(engine, monkeypatch):
    """Rows reach the caller through SHARED_DIR when it has room, else through a memory file
    (memfd) the workers open by /proc path (a container's /dev/shm is small), else the network."""
    g = random_graph(200, 900, 5)
    sources = np.arange(0, 200, 3)
    want = curnet.bfs(g, sources, backend="cpu")
    np.testing.assert_array_equal(engine.bfs(g, sources, backend="cpu", chunk_size=9), want)
    assert engine.route == f"shared memory ({cd.SHARED_DIR})"
    monkeypatch.setattr(cd, "SHARED_DIR", "/nonexistent-curnet-shm")       # no room there
    np.testing.assert_array_equal(engine.bfs(g, sources, backend="cpu", chunk_size=9), want)
    assert engine.route == "shared memory (memfd)"
    dist, pred = engine.sssp(g, sources, backend="cpu", chunk_size=9, shared_memory=True)
    np.testing.assert_array_equal(dist, curnet.sssp_dists(g, sources, backend="cpu"))
    del dist, pred                          # the results are the mappings: they hold the memory
    gc.collect()
    assert not open_memory_files()                                          # nothing else holds it
    monkeypatch.setattr(cd, "available_host_memory", lambda: 0)             # no room anywhere
    np.testing.assert_array_equal(engine.bfs(g, sources, backend="cpu", chunk_size=9), want)
    assert engine.route == "network"
    with pytest.raises(cd.ClusterError, match="shared_memory=True"):
        engine.bfs(g, sources, backend="cpu", shared_memory=True)


def test_into_callers_buffer_and_names(engine):
    g = curnet.Graph.from_edges(["a", "b", "c", "d"], ["b", "c", "a", "e"], directed=True)
    want = curnet.bfs(g, ["c", "a", "e"], unreachable=np.inf, out=np.zeros((3, 5)))
    for shared in (True, False):
        out = np.zeros((3, 5), dtype=np.float64, order="C")
        got = engine.bfs(g, ["c", "a", "e"], out=out, unreachable=np.inf, chunk_size=1, shared_memory=shared)
        assert got is out
        np.testing.assert_array_equal(out, want)


def test_module_calls_and_default_client(cluster):
    g = random_graph(100, 400, 3)
    np.testing.assert_array_equal(cd.bfs(g, np.arange(20), cluster=cluster), curnet.bfs(g, np.arange(20)))
    np.testing.assert_array_equal(cd.sssp_dists(g, np.arange(20), cluster=cd.connect(cluster)),
                                  curnet.sssp_dists(g, np.arange(20)))


def test_reduction_on_workers(engine):
    g = random_graph(250, 1000, 4, directed=False)
    sources = np.arange(0, 250, 2)
    eccentricity = cd.per_source("bfs", lambda g, ids, d: np.where(d >= 0, d, 0).max(axis=1))
    depths = curnet.bfs(g, sources)
    np.testing.assert_array_equal(engine.reduce(g, sources, eccentricity, chunk_size=9),
                                  np.where(depths >= 0, depths, 0).max(axis=1))
    reach = cd.per_source("sssp_dists", lambda g, ids, d: np.isfinite(d).sum(axis=1))
    np.testing.assert_array_equal(engine.reduce(g, sources, reach, chunk_size=16),
                                  np.isfinite(curnet.sssp_dists(g, sources)).sum(axis=1))
    # with predecessors: how many vertices each source's shortest-path tree passes through
    inner = cd.per_source("sssp", lambda g, ids, dp: np.array([len(np.unique(p[p >= 0])) for p in dp[1]]))
    pred = curnet.sssp(g, sources)[1]
    np.testing.assert_array_equal(engine.reduce(g, sources, inner, chunk_size=16),
                                  [len(np.unique(p[p >= 0])) for p in pred])


def test_graph_read_by_each_worker(engine, tmp_path):
    rng = np.random.default_rng(5)
    src, dst = rng.integers(0, 80, 300), rng.integers(0, 80, 300)
    path = tmp_path / "g.tsv"
    path.write_text("".join(f"v{s}\tv{d}\t{w:.3f}\n" for s, d, w in zip(src, dst, rng.uniform(1, 2, 300))))
    local = curnet.read_graph(str(path))
    names = local.names[:30]
    np.testing.assert_array_equal(engine.sssp_dists(cd.GraphFile(path), names, chunk_size=4),
                                  curnet.sssp_dists(local, names))
    assert engine.release(cd.GraphFile(path)) >= 1        # the workers that read it drop it
    assert engine.release(cd.GraphFile(path)) == 0


def test_parquet_streamed_in_source_order(engine, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    g = random_graph(150, 600, 6)
    sources = np.arange(149, 49, -1)
    path = tmp_path / "dist.parquet"
    rows = engine.to_parquet(g, sources, path, "sssp", chunk_size=8)
    f = pq.ParquetFile(path)
    assert f.metadata.num_row_groups == -(-len(sources) // 8)
    table = f.read().to_pydict()
    assert rows == len(table["source"])
    dist, pred = curnet.sssp(g, sources)
    r, v = np.nonzero(np.isfinite(dist))
    np.testing.assert_array_equal(table["source"], sources[r])        # in source order
    np.testing.assert_array_equal(table["target"], v)
    np.testing.assert_array_equal(table["sssp"], dist[r, v])
    # a source's own row has no predecessor: null, as the CLI writes it
    np.testing.assert_array_equal([-1 if x is None else x for x in table["predecessor"]], pred[r, v])


@pytest.mark.network
def test_real_network(engine):
    from curnet import datasets
    g = datasets.load("scnet", weights="distance")     # fetched once, cached (test_real_networks.py too)
    sources = np.random.default_rng(0).choice(np.flatnonzero(g.out_degree() > 0), 96, replace=False)
    np.testing.assert_array_equal(engine.bfs(g, sources), curnet.bfs(g, sources))
    np.testing.assert_array_equal(engine.sssp_dists(g, sources[:24], chunk_size=5),
                                  curnet.sssp_dists(g, sources[:24]))


def test_negative_cycle_named(engine):
    g = curnet.Graph.from_edges([0, 1, 2, 3], [1, 2, 1, 0], [1.0, -2.0, 1.0, 1.0], directed=True)
    with pytest.raises(NegativeCycleError) as e:
        engine.sssp_dists(g, [3, 0], chunk_size=1)
    assert e.value.source in (3, 0)


@pytest.mark.parametrize("shared", [True, False])
def test_worker_killed_mid_job(cluster, engine, shared):
    g = random_graph(2000, 12000, 7)
    sources = np.arange(0, 2000, 20)
    engine.client.wait_for_workers(2, timeout=120)
    victim = sorted(engine.client.run(os.getpid).values())[0]
    killed = []

    def kill_once(done, total):
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    dist, pred = engine.sssp(g, sources, progress=kill_once, chunk_size=1, shared_memory=shared)
    assert killed and killed[0] < len(sources)          # it died with chunks left to run
    want_dist, want_pred = curnet.sssp(g, sources)
    np.testing.assert_array_equal(dist, want_dist)
    np.testing.assert_array_equal(pred, want_pred)
    assert victim not in engine.client.run(os.getpid).values()
    engine.client.wait_for_workers(2, timeout=120)       # the nanny restarted it


def broadcast_of(engine, g):
    """The future of g's broadcast to the engine's workers (shipping.scattered's)."""
    from curnet.distributed import shipping
    return shipping._broadcast[g][id(engine.client)][1]


def test_a_lost_graph_is_sent_again(engine, caplog, monkeypatch):
    """The broadcast graph gone mid-job (as when the worker that held its last copy dies; here
    the caller cancels it, which cancels every chunk sent with it, finished ones too): the job
    sends the graph again with the chunks not yet here, and its result is whole. A later job,
    whose chunks name the graph the workers keep, is not stopped by the loss. A graph lost more
    than RESENDS times (here 0) stops the job, and the client stays usable."""
    from curnet.distributed import jobs
    g = random_graph(1500, 9000, 9)
    sources = np.arange(0, 1500, 10)
    losses = []

    def lose_graph(done, total):            # once a job, with chunks left
        if not losses and done < total:
            engine.client.cancel(broadcast_of(engine, g))
            losses.append(done)

    with caplog.at_level("WARNING", logger="curnet"):
        got = engine.sssp_dists(g, sources, progress=lose_graph, chunk_size=1)
    assert losses and losses[0] < len(sources)
    np.testing.assert_array_equal(got, curnet.sssp_dists(g, sources))
    assert caplog.text.count("sending it again") == 1
    # a later job's chunks carry the graph's name alone: the workers hold their copies, so
    # losing the broadcast mid-job stops nothing
    losses.clear()
    caplog.clear()
    with caplog.at_level("WARNING", logger="curnet"):
        got = engine.sssp_dists(g, sources, progress=lose_graph, chunk_size=1)
    assert losses
    np.testing.assert_array_equal(got, curnet.sssp_dists(g, sources))
    assert "sending it again" not in caplog.text
    # a graph lost more than RESENDS times stops the job (a new graph: its chunks go with it)
    g = random_graph(1500, 9000, 10)
    losses.clear()
    monkeypatch.setattr(jobs, "RESENDS", 0)
    with pytest.raises(CancelledError):
        engine.sssp_dists(g, sources, progress=lose_graph, chunk_size=1)
    assert len(losses) == 1
    np.testing.assert_array_equal(engine.sssp_dists(g, sources[:10]), curnet.sssp_dists(g, sources[:10]))


def test_workers_keep_their_copies_between_jobs(engine):
    """Dask keeps one replica of data that no queued task needs, so seconds after a job the
    broadcast graph is on one worker only; the next job's chunks name the graph and run on both
    workers from their own copies, and nothing is sent (the broadcast stays on one worker)."""
    from distributed import get_task_stream
    if not engine.client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.extensions["amm"].running):
        pytest.skip("Dask's active memory manager is off on this cluster: no replica is dropped")
    g = random_graph(1500, 9000, 14)
    sources = np.arange(0, 1500, 10)
    want = curnet.sssp_dists(g, sources)
    np.testing.assert_array_equal(engine.sssp_dists(g, sources, chunk_size=8), want)
    future = broadcast_of(engine, g)
    deadline = time.monotonic() + 60
    while len(engine.client.who_has(future)[future.key]) > 1 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert len(engine.client.who_has(future)[future.key]) == 1      # Dask dropped a replica
    with get_task_stream(client=engine.client) as stream:
        np.testing.assert_array_equal(engine.sssp_dists(g, sources, chunk_size=8), want)
    ran_on = {t["worker"] for t in stream.data if str(t["key"]).startswith("curnet-")}
    assert len(ran_on) == 2
    assert len(engine.client.who_has(future)[future.key]) == 1      # and the graph was not sent again


def test_release_frees_the_workers_copies(engine):
    """release(g): the broadcast is gone from the cluster and no worker keeps a copy; a later
    job on g sends it again."""
    from curnet.distributed import shipping
    g = random_graph(800, 5000, 16)
    sources = np.arange(0, 800, 10)
    want = curnet.sssp_dists(g, sources)
    np.testing.assert_array_equal(engine.sssp_dists(g, sources, chunk_size=8), want)
    key = broadcast_of(engine, g).key
    assert all(engine.client.run(lambda: key in shipping._worker_graphs).values())   # both ran chunks
    assert engine.release(g) == 2
    assert not any(engine.client.run(lambda: key in shipping._worker_graphs).values())
    deadline = time.monotonic() + 30
    while engine.client.run_on_scheduler(lambda dask_scheduler: key in dask_scheduler.tasks):
        assert time.monotonic() < deadline, "the released broadcast is still on the scheduler"
        time.sleep(0.1)
    assert engine.release(g) == 0                          # nothing left to free
    np.testing.assert_array_equal(engine.sssp_dists(g, sources, chunk_size=8), want)
    assert broadcast_of(engine, g).key != key              # sent again


def test_a_worker_without_a_copy_gets_the_graph(engine):
    """A worker that holds no copy of the graph (one that joined or restarted after it was
    sent; here their copies are dropped) is sent its chunk again with the graph."""
    from curnet.distributed import shipping
    g = random_graph(800, 5000, 15)
    sources = np.arange(0, 800, 10)
    want = curnet.sssp_dists(g, sources)
    np.testing.assert_array_equal(engine.sssp_dists(g, sources, chunk_size=8), want)
    engine.client.run(shipping._worker_graphs.clear)
    np.testing.assert_array_equal(engine.sssp_dists(g, sources, chunk_size=8), want)
    assert all(n >= 1 for n in engine.client.run(lambda: len(shipping._worker_graphs)).values())


def curnet_tasks(client):
    return client.run_on_scheduler(
        lambda dask_scheduler: [k for k in dask_scheduler.tasks if str(k).startswith("curnet-")])


def test_ctrl_c_cancels_and_client_stays_usable(engine):
    g = random_graph(1500, 9000, 8)
    sources = np.arange(0, 1500, 10)

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        engine.sssp_dists(g, sources, progress=interrupt, chunk_size=1)
    deadline = time.monotonic() + 60
    while curnet_tasks(engine.client) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert curnet_tasks(engine.client) == []
    np.testing.assert_array_equal(engine.sssp_dists(g, sources[:10]), curnet.sssp_dists(g, sources[:10]))


def test_gpu_job_on_cpu_workers_names_the_worker(engine):
    from curnet.backends import cuda_available
    if cuda_available():
        pytest.skip("this machine has a GPU")
    workers = engine.client.scheduler_info()["workers"]
    with pytest.raises(BackendUnavailableError) as e:
        engine.bfs(random_graph(20, 40, 9), [0, 1], backend="cuda")
    assert any(address in str(e.value) for address in workers)
    assert "backend='cuda'" in str(e.value)


def test_bad_backend_name(engine):
    with pytest.raises(ValueError, match="backend must be"):
        engine.bfs(random_graph(20, 40, 9), [0], backend="gpu")


def test_unreachable_scheduler_errors_within_timeout():
    with socket.socket() as s:      # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(cd.ClusterError, match="cannot reach the Dask scheduler"):
        cd.connect(f"tcp://127.0.0.1:{port}", timeout=3)


def test_no_cluster_given():
    import distributed
    try:
        distributed.default_client()
    except ValueError:
        with pytest.raises(cd.ClusterError, match="no Dask cluster"):
            cd.connect(None)
    else:
        pytest.skip("a default client exists in this process")


def test_cli_cluster_and_scheduler(tmp_path):
    """`curnet cluster` prints its address; `curnet bfs --scheduler` streams Parquet from it."""
    pq = pytest.importorskip("pyarrow.parquet")
    from curnet.cli import main, pick_sources
    rng = np.random.default_rng(10)
    path = tmp_path / "g.tsv"
    path.write_text("".join(f"g{s}\tg{d}\n" for s, d in zip(rng.integers(0, 60, 200), rng.integers(0, 60, 200))))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    proc = subprocess.Popen([sys.executable, "-m", "curnet.cli", "cluster", "--workers", "2"],
                            stdout=subprocess.PIPE, text=True, env=env)
    try:
        address = proc.stdout.readline().strip()
        assert address.startswith("tcp://")
        out = tmp_path / "depths.parquet"
        assert main(["bfs", str(path), "--fraction", "1", "--scheduler", address, "--out", str(out)]) == 0
        got = pq.read_table(out).to_pydict()
        g = curnet.read_graph(str(path))
        sources = pick_sources(g, 1.0, 0)
        depths = curnet.bfs(g, sources)
        r, v = np.nonzero(depths >= 0)
        np.testing.assert_array_equal(got["source"], g.names[sources[r]])
        np.testing.assert_array_equal(got["target"], g.names[v])
        np.testing.assert_array_equal(got["bfs"], depths[r, v])
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.gpu
def test_local_cuda_cluster_equals_direct_call():
    """One worker per GPU (dask-cuda): the GPU result equals the direct GPU call."""
    pytest.importorskip("dask_cuda")
    g = curnet.generators.rmat(14, seed=3)
    sources = np.arange(0, len(g), 16)
    with cd.local_cluster(gpu=True) as cl:
        engine = cd.ClusterEngine(cl)
        want = curnet.bfs(g, sources, backend="cuda")
        np.testing.assert_array_equal(engine.bfs(g, sources, backend="cuda"), want)        # one chunk
        for shared in (True, False):      # chunks of rows: pitched into shared memory, or sent
            np.testing.assert_array_equal(
                engine.bfs(g, sources, backend="cuda", chunk_size=192, shared_memory=shared), want)
        dist, pred = engine.sssp(g, sources[:200], backend="cuda", chunk_size=64)
        np.testing.assert_allclose(dist, curnet.sssp_dists(g, sources[:200], backend="cpu"), rtol=1e-5)
        assert ((pred >= 0) | ~np.isfinite(dist) | (dist == 0)).all()    # a predecessor wherever reached
        with pytest.raises(BackendUnavailableError, match="Dask worker .*cuda:7"):
            engine.bfs(g, sources, backend="cuda:7")      # no such GPU on the worker


@pytest.mark.gpu
def test_gpu_workers_results_through_device_memory():
    """GPU workers on the caller's host keep each chunk on their GPU and the caller copies it
    (CUDA IPC): equal to the direct call for bfs, sssp and sssp_dists, several chunks a worker,
    a caller's float64 `out` (-1 or Inf where unreachable); every chunk released on the workers
    afterwards, and the graph's device arrays once it is released."""
    pytest.importorskip("dask_cuda")
    from curnet.distributed import device_gather
    g = curnet.generators.rmat(13, seed=5, weighted=True)
    sources = np.arange(0, len(g), 7)
    with cd.local_cluster(gpu=True) as cl:
        engine = cd.ClusterEngine(cl)
        want = curnet.bfs(g, sources, backend="cuda")
        np.testing.assert_array_equal(engine.bfs(g, sources, backend="cuda"), want)
        assert engine.route == "device memory (CUDA IPC)"
        out = np.zeros((len(sources), len(g)), np.float64, order="F")
        engine.bfs(g, sources, backend="cuda", out=out, chunk_size=100)
        np.testing.assert_array_equal(out, want)
        # R's numeric matrix: float64, Inf where unreachable (the workers' blocks in that dtype)
        engine.bfs(g, sources, backend="cuda", out=out, unreachable=np.inf, chunk_size=100)
        assert np.isinf(out).any()
        np.testing.assert_array_equal(out, np.where(want < 0, np.inf, want))
        dist, pred = engine.sssp(g, sources[:300], backend="cuda", chunk_size=64)
        wd, _ = curnet.sssp(g, sources[:300], backend="cuda")
        np.testing.assert_array_equal(dist, wd)
        reached = np.isfinite(dist) & (pred >= 0)
        rows, cols = np.nonzero(reached)
        assert rows.size and (dist[rows, pred[rows, cols]] <= dist[rows, cols]).all()
        np.testing.assert_array_equal(engine.sssp_dists(g, sources, backend="cuda", chunk_size=128),
                                      curnet.sssp_dists(g, sources, backend="cuda"))
        held = engine.client.run(lambda: (len(device_gather._held), device_gather._held_bytes[0]))
        assert all(h == (0, 0) for h in held.values()), held
        # release(g): the workers' copies and their device arrays go back to the GPU
        def pool_used():
            import cupy
            return cupy.get_default_memory_pool().used_bytes()
        before = sum(engine.client.run(pool_used).values())
        assert engine.release(g) >= 1
        after = sum(engine.client.run(pool_used).values())
        assert before - after >= g.indices.nbytes, (before, after)


def test_sources_per_chunk_sizing():
    worker = {"nthreads": 2, "host": 8 << 30, "device": None}
    assert cd.sources_per_chunk([worker, worker], 10_000, 1000, 4) == 576          # 4 chunks a thread, 64-aligned
    assert cd.sources_per_chunk([dict(worker, nthreads=1)], 3820, 1000, 4) == 3820  # one thread: one chunk
    assert cd.sources_per_chunk([worker, worker], 10_000, 1000, 4, chunks_per_thread=2) == 1216
    gpu = dict(worker, nthreads=1, device=1 << 30)                           # 1 GiB of device memory left
    # the caller copies each chunk itself: 4 chunks even for one thread (64-aligned), so copies overlap
    assert cd.sources_per_chunk([dict(worker, nthreads=1)], 1000, 100, 4, overlap=True) == 192
    assert cd.sources_per_chunk([gpu, worker], 100_000, 1 << 20, 4) == 64           # a quarter GiB / 4 MiB rows
    with pytest.raises(MemoryError, match="does not fit"):
        cd.sources_per_chunk([dict(worker, host=1 << 20)], 10, 1 << 20, 8)


def test_per_vertex_reduction_runs_its_own_traversal(engine):
    g = random_graph(200, 900, 11)
    reach = cd.per_vertex(lambda g, ids, backend: (curnet.bfs(g, ids, backend=backend) >= 0).sum(axis=1))
    np.testing.assert_array_equal(engine.reduce(g, None, reach, chunk_size=16),
                                  (curnet.bfs(g, np.arange(200)) >= 0).sum(axis=1))


def test_measures_on_workers(engine):
    measures = pytest.importorskip("curnet.analyses.measures")
    g = random_graph(200, 900, 12, directed=False)
    for name, kwargs in (("closeness", {}), ("eccentricity", {}), ("harmonic_centrality", {"mode": "out"})):
        np.testing.assert_allclose(engine.reduce(g, None, cd.measure(name, **kwargs), chunk_size=30),
                                   getattr(measures, name)(g, **kwargs), rtol=1e-6)


def test_gpu_cluster_without_dask_cuda_is_a_clear_error():
    try:
        import dask_cuda  # noqa: F401
    except ImportError:
        with pytest.raises(BackendUnavailableError, match="needs dask-cuda"):
            cd.local_cluster(gpu=True)
    else:
        pytest.skip("dask-cuda is installed")


def test_engine_writes_a_row_block_of_a_fortran_matrix():
    """What a worker does with the shared result: the engine writes rows a..b of a larger
    Fortran-ordered matrix in place and leaves the other rows alone."""
    g = random_graph(120, 500, 13)
    sources = np.arange(0, 120, 3)
    full = np.full((len(sources), len(g)), -7, dtype=np.int32, order="F")
    curnet.bfs(g, sources[10:25], out=full[10:25])
    np.testing.assert_array_equal(full[10:25], curnet.bfs(g, sources[10:25]))
    assert (full[:10] == -7).all() and (full[25:] == -7).all()
    dist = np.full((len(sources), len(g)), -7.0, order="F")
    pred = np.full((len(sources), len(g)), -7, dtype=np.int32, order="F")
    curnet.sssp(g, sources[:9], out_dist=dist[:9], out_pred=pred[:9])
    want = curnet.sssp(g, sources[:9])
    np.testing.assert_array_equal(dist[:9], want[0])
    np.testing.assert_array_equal(pred[:9], want[1])
    with pytest.raises(ValueError, match="contiguous"):
        curnet.bfs(g, sources[:5], out=full[::2][:5])       # every other row: not a block


def test_betweenness_partials_summed_on_the_caller(engine):
    g = random_graph(200, 900, 13, directed=False)
    np.testing.assert_allclose(engine.reduce(g, None, cd.betweenness(), chunk_size=30),
                               curnet.betweenness(g), rtol=1e-9)
    np.testing.assert_allclose(engine.reduce(g, None, cd.betweenness(edges=True, normalized=True), chunk_size=30),
                               curnet.edge_betweenness(g, normalized=True), rtol=1e-9)
    np.testing.assert_allclose(engine.reduce(g, np.arange(0, 200, 3), cd.betweenness(), chunk_size=16),
                               curnet.betweenness(g, sources=np.arange(0, 200, 3)), rtol=1e-9)
    # the chunks take the sources in algorithms.betweenness.source_order.chunk_order (tests in
    # test_betweenness_leaves.py), other reductions as given
    ids = np.arange(200, dtype=np.int32)
    ordered = cd.betweenness().order(g, ids)
    assert np.array_equal(ordered, chunk_order(g, ids, fold=True)) and not np.array_equal(ordered, ids)
    assert np.array_equal(cd.betweenness(cutoff=2).order(g, ids), chunk_order(g, ids, fold=False))
    assert np.array_equal(cd.measure("closeness").order(g, ids), ids)
    # two chunks a worker thread (each chunk prepares its sources and ends in a part-filled batch)
    from curnet.distributed.jobs import Job
    big = random_graph(3000, 9000, 5, directed=False)
    job = Job(engine.client, big, np.arange(3000), None, "cpu", None, reduction=cd.betweenness())
    threads = sum(r["nthreads"] for r in job.resources.values())
    assert threads > 1 and len(job.bounds) == 2 * threads
    # ... cut to equal numbers of columns (a leaf source folds into its anchor's), never
    # parting a leaf from its anchor's column
    from curnet.algorithms.betweenness.graph_reductions import opens_column
    cost = opens_column(big, job.ids)
    assert 0 < cost.sum() < len(job.ids)
    per_chunk = [cost[a:b].sum() for a, b in job.bounds]
    assert max(per_chunk) - min(per_chunk) <= 1 and [b for _, b in job.bounds][-1] == len(job.ids)
    assert all(cost[a] == 1 for a, _ in job.bounds)       # each chunk starts with a column of its own
    np.testing.assert_allclose(engine.reduce(big, None, cd.betweenness()), curnet.betweenness(big), rtol=1e-9)
    # sources that reach nothing are left out; with none left, one empty chunk gives zeros
    bare = curnet.Graph.from_edges(np.array([0]), np.array([1]), num_vertices=4, directed=False)
    assert engine.reduce(bare, [2, 3], cd.betweenness()).tolist() == [0.0] * 4
