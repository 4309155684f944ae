"""Bad input gives a clear ValueError / TypeError naming the problem."""
import numpy as np
import pandas as pd
import pytest

import curnet

G = curnet.Graph.from_edges(["a", "b"], ["b", "c"], [1.0, 2.0])


@pytest.mark.parametrize("call, exc, words", [
    (lambda: curnet.bfs(G, ["zz"]), ValueError, "'zz'"),
    (lambda: curnet.bfs(G, [7]), ValueError, "out of range"),
    (lambda: curnet.bfs(G, [-1]), ValueError, "out of range"),
    (lambda: curnet.sssp(G, []), ValueError, "no sources"),
    (lambda: curnet.sssp_dists(G, np.array([], dtype=np.int64)), ValueError, "no sources"),
    (lambda: curnet.bfs(G, [0.5]), TypeError, "integer"),
    (lambda: curnet.bfs(G, ["a", None]), ValueError, "missing"),
    (lambda: curnet.bfs(G, [0], backend="opencl"), ValueError, "backend"),
    (lambda: curnet.bfs(G, [0], out=np.zeros((2, 3), np.int32)), ValueError, "shape"),
    (lambda: curnet.bfs(G, [0], out=np.zeros((1, 3), np.int8)), TypeError, "int32"),
    (lambda: curnet.Graph.from_edges([0, 1], [1]), ValueError, "length"),
    (lambda: curnet.Graph.from_edges([0, 1], [1, 2], [1.0]), ValueError, "length"),
    (lambda: curnet.Graph.from_edges([0], [1], [np.nan]), ValueError, "finite"),
    (lambda: curnet.Graph.from_edges([0], [1], [np.inf]), ValueError, "finite"),
    (lambda: curnet.Graph.from_edges([0], [1], ["0.5"]), TypeError, "numeric"),
    (lambda: curnet.Graph.from_edges([0], [1], [-1.0], directed=False), ValueError, "undirected"),
    (lambda: curnet.Graph.from_edges([0.0], [1.0]), TypeError, "floating"),
    (lambda: curnet.Graph.from_edges([0, np.nan], [1, 2]), ValueError, "NaN"),
    (lambda: curnet.Graph.from_edges([-3], [1]), ValueError, "negative"),
    (lambda: curnet.Graph.from_edges([2**31], [1]), ValueError, "int32"),
    (lambda: curnet.Graph.from_edges([0, 5], [1, 2], num_vertices=3), ValueError, "out of range"),
    (lambda: curnet.Graph.from_edges(pd.Series(["a", None]), ["b", "c"]), ValueError, "missing"),
    (lambda: curnet.Graph.from_edges(["a"], ["q"], names=["a", "b"]), ValueError, "'q'"),
    (lambda: curnet.Graph.from_edges([0], [1], dtype=np.int32), TypeError, "float32"),
    (lambda: curnet.Graph.from_edges(np.zeros((2, 2), int), np.zeros((2, 2), int)), ValueError, "one-dimensional"),
])
def test_bad_input_is_named(call, exc, words):
    with pytest.raises(exc, match=None) as e:
        call()
    assert words.lower() in str(e.value).lower(), str(e.value)


def test_names_on_an_unnamed_graph():
    g = curnet.Graph.from_edges([0], [1])
    with pytest.raises(ValueError, match="no vertex names"):
        curnet.bfs(g, ["a"])


def test_cuda_without_a_gpu_is_an_error_not_a_fallback(monkeypatch):
    monkeypatch.setenv("CURNET_DISABLE_CUDA", "1")
    from curnet.backends import _instances
    monkeypatch.setattr("curnet.backends._instances", {k: v for k, v in _instances.items() if k != "cuda"})
    with pytest.raises(curnet.BackendUnavailableError, match="no usable GPU"):
        curnet.bfs(G, [0], backend="cuda")


def test_auto_says_which_backend_it_used(monkeypatch, caplog):
    monkeypatch.setenv("CURNET_DISABLE_CUDA", "1")
    monkeypatch.setattr("curnet.backends._instances", {})
    with caplog.at_level("INFO", logger="curnet"):
        curnet.bfs(G, [0], backend="auto")
    assert "cpu" in caplog.text.lower()
    assert curnet.info()["auto_backend"] == "cpu"


def test_result_too_large_for_host_memory_is_refused_before_allocating(monkeypatch):
    monkeypatch.setattr("curnet.memory.available_host_memory", lambda: 1000)
    with pytest.raises(curnet.OutputTooLargeError, match="GiB"):
        curnet.bfs(G, [0, 1, 2] * 100)


def test_repeated_sources_repeat_rows():
    d = curnet.bfs(G, ["a", "a", "c"], backend="cpu")
    assert d.tolist() == [[0, 1, 2], [0, 1, 2], [-1, -1, 0]]


def test_available_host_memory_is_the_kernels_mem_available():
    """Read through a kept descriptor (one pread a call), the same number as a plain read of
    /proc/meminfo, call after call; and unknown (a large number) where the file lacks it."""
    from curnet import memory
    with open("/proc/meminfo") as f:
        line = next(x for x in f if x.startswith("MemAvailable:"))
    plain = int(line.split()[1]) * 1024
    got = [memory.available_host_memory() for _ in range(3)]
    # MemAvailable moves while the machine runs: within 1 GiB of the plain read
    assert all(abs(x - plain) < 2**30 for x in got)
    assert memory._meminfo_fd is not None


def test_available_host_memory_unknown_is_large(monkeypatch):
    from curnet import memory
    monkeypatch.setattr(memory, "_meminfo", lambda: b"MemTotal:  100 kB\n")
    assert memory.available_host_memory() == 1 << 62
    def refused():
        raise OSError("no /proc here")
    monkeypatch.setattr(memory, "_meminfo", refused)
    assert memory.available_host_memory() == 1 << 62
