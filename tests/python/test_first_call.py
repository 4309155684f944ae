"""A first call loads only what it needs, and a warmed kernel cache makes it compile nothing
(docs/first-call.md). Work bounds, not seconds: which modules a fresh interpreter imported,
how many kernels a fresh process compiled."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import curnet
from curnet.backends import kernel_cache

PYTHON = Path(__file__).resolve().parents[2] / "python"
HEAVY = ("scipy", "pyarrow", "pandas", "cupy", "dask", "distributed", "networkx")


def fresh(code: str, **env) -> str:
    """Run `code` in a new interpreter on this checkout's engine; its stdout."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(PYTHON), **env})
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def loaded_after(code: str, **env) -> set:
    """The top-level packages, and curnet's modules, that `code` left in sys.modules."""
    out = fresh(code + "\nimport json, sys; print(json.dumps(sorted(sys.modules)))", **env)
    names = json.loads(out.strip().splitlines()[-1])
    return {n.split(".")[0] for n in names} | {n for n in names if n.startswith("curnet.")}


def test_import_curnet_loads_numpy_and_the_graph_only():
    loaded = loaded_after("import curnet")
    assert "numpy" in loaded and "curnet.graph" in loaded
    assert loaded.isdisjoint(HEAVY)
    # nor the engine's heavier parts: readers, datasets, drivers, analyses
    assert loaded.isdisjoint({"curnet.io", "curnet.datasets", "curnet.algorithms", "curnet.backends",
                              "curnet.coexpression", "curnet.analyses.steiner_forest", "curnet.analyses.measures"})


def test_each_export_is_its_module_s_object_at_first_use():
    out = fresh("""
import importlib, json, curnet
bad = [n for n, m in curnet.EXPORTS.items() if getattr(curnet, n) is not getattr(importlib.import_module(m), n)]
from curnet import *
print(json.dumps([bad, sorted(set(curnet.__all__) - set(dir(curnet)))]))
""")
    assert json.loads(out.strip().splitlines()[-1]) == [[], []]
    assert set(curnet.EXPORTS) <= set(curnet.__all__)
    assert curnet.datasets.__name__ == "curnet.datasets"       # subpackages by attribute, as before
    with pytest.raises(AttributeError, match="no attribute 'no_such_export'"):
        curnet.no_such_export


# R's export of an integer or double vector (src/handoff.c: the Arrow C data interface over R's
# memory, NA as nulls), made here with ctypes so that the engine reads it as it comes from R,
# without pyarrow in the process. `released`: the exports whose release the engine called.
R_EXPORT = r"""
import ctypes, gc, numpy as np
class Schema(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_char_p),
                ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64), ("children", ctypes.c_void_p),
                ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p), ("private_data", ctypes.c_void_p)]
class Array(ctypes.Structure):
    _fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
                ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64),
                ("buffers", ctypes.POINTER(ctypes.c_void_p)), ("children", ctypes.c_void_p),
                ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p), ("private_data", ctypes.c_void_p)]
released, exports = [], []
@ctypes.CFUNCTYPE(None, ctypes.POINTER(Array))
def release_array(a, released=released):     # also at exit, after the globals went
    released.append(a.contents.private_data)
    a.contents.release = None
@ctypes.CFUNCTYPE(None, ctypes.POINTER(Schema))
def release_schema(s):
    s.contents.release = None
def r_export(values, missing=()):
    values = np.ascontiguousarray(values)
    validity = None
    if missing:
        valid = np.ones(len(values), bool)
        valid[list(missing)] = False
        validity = np.packbits(valid, bitorder="little")
    buffers = (ctypes.c_void_p * 2)(None if validity is None else validity.ctypes.data,
                                    values.ctypes.data if len(values) else None)
    schema = Schema(format=b"i" if values.dtype == np.int32 else b"g", name=b"", flags=2,
                    release=ctypes.cast(release_schema, ctypes.c_void_p))
    array = Array(length=len(values), null_count=len(missing), n_buffers=2, buffers=buffers,
                  release=ctypes.cast(release_array, ctypes.c_void_p), private_data=len(exports) + 1)
    exports.append((values, validity, buffers, schema, array))
    return ctypes.addressof(array), ctypes.addressof(schema)
"""
R_ENTRY = "import curnet.r_bridge.session, curnet.r_bridge.handoff, curnet.r_bridge.graphs, curnet.r_bridge.traversals"


def test_r_s_entry_loads_no_scipy_arrow_gpu_or_cluster_module():
    """What R's bridge() and the first cuRnet_graph / cuRnet_bfs import before any work: the
    drivers and adapters; SciPy, pyarrow, CuPy, NetworkX and Dask at their first use only."""
    loaded = loaded_after(R_ENTRY)
    assert {"curnet.r_bridge.session", "curnet.algorithms.bfs", "curnet.backends"} <= loaded
    assert loaded.isdisjoint(HEAVY)
    assert loaded.isdisjoint({"curnet.io", "curnet.datasets", "curnet.coexpression"})


def test_r_s_first_graph_and_bfs_on_the_cpu_load_no_arrow_gpu_or_cluster_module():
    """R's path, as R takes it: a graph from R's exported id columns, its summary and the
    weight-column names, one BFS; R's vectors read without pyarrow, and given back to R."""
    out = fresh(R_EXPORT + R_ENTRY + """
import json, sys
from curnet.r_bridge import graphs, handoff, session, traversals
n = 2000
src = handoff.import_numbers(*r_export(np.arange(n, dtype=np.int32)))
dst = handoff.import_numbers(*r_export((np.arange(n, dtype=np.int32) + 1) % n))
assert isinstance(src, np.ndarray) and src.dtype == np.int32 and not src.flags.writeable
g = graphs.graph_from_arrow(src, dst, None, False, n)
summary, weight_names = graphs.summary(g), list(graphs.WEIGHT_NAMES)
before_bfs = sorted(sys.modules)
depth = np.empty((1, n), np.int32, order="F")
session.begin_call()
traversals.bfs_into(g, handoff.import_numbers(*r_export(np.array([0], np.int32))),
                    [depth.ctypes.data, n], "integer", backend="cpu")
session.end_call()
held = sorted(released)
del src, dst, g
gc.collect()
print(json.dumps([before_bfs, sorted(sys.modules), depth[0].tolist(), summary["m"], weight_names, held,
                  sorted(released)]))
""", CURNET_DISABLE_CUDA="1")
    before_bfs, after, depth, m, weight_names, held, released = json.loads(out.strip().splitlines()[-1])
    tops = lambda names: {n.split(".")[0] for n in names} | {n for n in names if n.startswith("curnet.")}
    # the graph: neither pyarrow, SciPy nor the readers' package (whose weight names R reads)
    assert tops(before_bfs).isdisjoint(HEAVY) and "curnet.io" not in tops(before_bfs)
    assert weight_names == list(curnet.io.WEIGHT_NAMES)
    # the BFS: SciPy's one-source BFS (the CPU's route), still no pyarrow, GPU or cluster module
    assert "scipy" in tops(after)
    assert tops(after).isdisjoint({"pyarrow", "pandas", "cupy", "dask", "distributed", "networkx"})
    assert m == 2000 and depth == [min(v, 2000 - v) for v in range(2000)]
    # the sources' export released after the call; the columns' when the graph and views went
    assert held == [3] and released == [1, 2, 3]


def test_r_s_vectors_with_na_or_none_arrive_as_the_engine_checks_them():
    out = fresh(R_EXPORT + """
import json
from curnet.r_bridge import graphs, handoff
with_na = handoff.import_numbers(*r_export(np.array([0, -2147483648, 2], np.int32), missing=[1]))
try:
    graphs.graph_from_arrow(with_na, handoff.import_numbers(*r_export(np.array([1, 2, 0], np.int32))),
                            None, True, 3)
    said = None
except ValueError as e:
    said = str(e)
empty = handoff.import_numbers(*r_export(np.array([], np.float64)))
weights = handoff.import_numbers(*r_export(np.array([0.5, 1.5])))
print(json.dumps([type(with_na).__module__, said, empty.dtype.str, empty.size, 3 in released,
                  weights.tolist(), weights.dtype.str]))
""")
    kind, said, empty_dtype, empty_size, empty_released, weights, weights_dtype = json.loads(
        out.strip().splitlines()[-1])
    assert kind.startswith("pyarrow")          # R's NA as Arrow's nulls, which the checks name
    assert said == "src has 1 missing value(s) (NA/null)"
    assert (empty_dtype, empty_size, empty_released) == ("<f8", 0, True)
    assert (weights, weights_dtype) == ([0.5, 1.5], "<f8")


def test_the_kernel_cache_folder_follows_its_rule(monkeypatch, tmp_path):
    for name in (kernel_cache.ENV, "CUPY_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    writable = tmp_path / "env" / "share" / "curnet" / "kernel-cache"
    monkeypatch.setattr(kernel_cache, "environment_folder", lambda: str(writable))
    assert kernel_cache.cache_dir() == str(writable)          # inside the environment, made on use
    # an environment where the folder cannot be made (here: under a file): the user's cache
    (tmp_path / "a-file").write_text("")
    monkeypatch.setattr(kernel_cache, "environment_folder", lambda: str(tmp_path / "a-file" / "kernel-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert kernel_cache.cache_dir() == str(tmp_path / "xdg" / "curnet" / "kernel-cache")
    # the user's CUPY_CACHE_DIR is left alone; CURNET_KERNEL_CACHE wins over it
    monkeypatch.setenv("CUPY_CACHE_DIR", str(tmp_path / "cupy"))
    assert kernel_cache.use() == str(tmp_path / "cupy")
    monkeypatch.setenv(kernel_cache.ENV, str(tmp_path / "mine"))
    assert kernel_cache.use() == str(tmp_path / "mine")
    assert os.environ["CUPY_CACHE_DIR"] == str(tmp_path / "mine")   # what CuPy reads at each compile
    assert kernel_cache.cached_kernels() == 0
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "0123_2.cubin").write_bytes(b"x")
    (tmp_path / "mine" / "tmpabc").write_bytes(b"x")                # a write in progress is not a kernel
    assert kernel_cache.cached_kernels() == 1


def test_warm_up_without_a_gpu_compiles_nothing_and_says_why(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "numba", None)     # the CPU's routes: test_warm_up_cpu.py
    monkeypatch.setenv("CURNET_DISABLE_CUDA", "1")
    monkeypatch.setenv(kernel_cache.ENV, str(tmp_path))
    from curnet.cli import main
    assert main(["warm-up"]) == 0
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert report["gpu"] is False and report["compiled"] == 0 and report["cache"] == str(tmp_path)
    assert "no usable GPU (disabled by CURNET_DISABLE_CUDA)" in out.err


COMPILES_IN_A_STEP = """
import json, sys
from curnet.cli import warm_up
from curnet.backends import kernel_cache
from curnet.backends.cuda.launch import counting_compiles
graphs = warm_up._graphs()
with counting_compiles() as tally:
    dict(warm_up.STEPS)[sys.argv[1]](graphs, "cuda")
print(json.dumps({"compiled": tally.count, "files": kernel_cache.cached_kernels()}))
"""


def compiles_in_fresh_process(step: str, cache) -> dict:
    out = subprocess.run([sys.executable, "-c", COMPILES_IN_A_STEP, step], capture_output=True, text=True,
                         timeout=600, env={**os.environ, "PYTHONPATH": str(PYTHON),
                                           kernel_cache.ENV: str(cache)})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.gpu
@pytest.mark.parametrize("step", ["kernel modules", "traversals"])
def test_a_warmed_kernel_cache_makes_a_fresh_process_compile_nothing(tmp_path, step):
    """cuRnet's RawModules and CuPy's generated kernels are loaded from the cache folder."""
    cold = compiles_in_fresh_process(step, tmp_path)          # an empty cache: all compiled, all kept
    assert cold["compiled"] > 0
    assert cold["files"] >= cold["compiled"]
    warm = compiles_in_fresh_process(step, tmp_path)          # the same calls in a new process
    assert warm == {"compiled": 0, "files": cold["files"]}


@pytest.mark.gpu
def test_counting_compiles_sees_a_compile_and_not_a_cached_load(tmp_path, monkeypatch):
    monkeypatch.setenv(kernel_cache.ENV, str(tmp_path))
    kernel_cache.use()
    import cupy as cp
    from curnet.backends.cuda.launch import counting_compiles
    source = "extern \"C\" __global__ void k(int* x) { x[threadIdx.x] += %d; }" % os.getpid()
    with counting_compiles() as first:
        cp.RawModule(code=source).get_function("k")
    with counting_compiles() as second:
        cp.RawModule(code=source).get_function("k")          # CuPy's disk cache: no compile
    assert (first.count, second.count) == (1, 0)
    assert kernel_cache.cached_kernels(str(tmp_path)) >= 1


def test_a_python_row_of_the_first_call_bench_runs_no_r(monkeypatch):
    """bench/first_call.py --row python-bfs builds its command without R (the GPU machine sets R up
    while the Python rows run); only the floors row asks Rscript for reticulate's probe."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("first_call", PYTHON.parent / "bench" / "first_call.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    ran = []
    monkeypatch.setattr(bench, "fresh", lambda cmd, *a, **k: ran.append(cmd) or (0.0, 0.0, ""))
    for row in ("python-bfs", "python-betweenness"):
        (cmd,) = bench.row_cmds(row, "cuda").values()
        assert cmd[0] == sys.executable
    assert ran == []
    floors = bench.row_cmds("floors", "cpu")
    assert ran and ran[0][0] == "Rscript" and "R alone (Rscript -e 0)" in floors


def _first_call_bench():
    import importlib.util
    spec = importlib.util.spec_from_file_location("first_call", PYTHON.parent / "bench" / "first_call.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_a_first_call_bench_row_past_its_limit_is_cut_with_all_it_started(tmp_path):
    """A row over its limit is stopped with the processes it started (an Rscript under the
    row's Python), so the rows after it get their time."""
    bench = _first_call_bench()
    pid_file = tmp_path / "child"
    status, _ = bench.run_limited(["bash", "-c", f"sleep 60 & echo $! > {pid_file}; wait"], 2)
    assert status is None
    child = int(pid_file.read_text())
    gone = False
    for _ in range(100):                   # the kill is sent; the child is reaped by init
        try:
            os.kill(child, 0)
            state = Path(f"/proc/{child}/stat").read_text().split()[2]
            gone = state == "Z"
        except (ProcessLookupError, FileNotFoundError):
            gone = True
        if gone:
            break
        time.sleep(0.05)
    assert gone
    assert bench.run_limited([sys.executable, "-c", "print('done')"], 60) == (0, "done\n")


def test_the_first_call_bench_reads_r_s_steps_and_says_each_row(tmp_path):
    bench = _first_call_bench()
    said = ["library(cuRnet)                              wall     11 ms  cpu     38 ms",
            "the engine's R entry (curnet.r_bridge.session) wall    152 ms  cpu    150 ms"]
    steps = [[m.group(1), int(m.group(2)), int(m.group(3))] for m in map(bench.STEP_LINE.match, said) if m]
    assert steps == [["library(cuRnet)", 11, 38], ["the engine's R entry (curnet.r_bridge.session)", 152, 150]]
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"row": "R steps", "backend": "cuda", "steps_runs": [
        {"wall": 1.0, "cpu": 0.9, "steps": steps}]}) + "\n" + json.dumps(
        {"row": "warm-up", "backend": "cuda", "failed": "cut at its limit of 60 s", "output": ""}) + "\n")
    lines = bench.summary_lines(str(rows))
    assert lines[0] == "R steps [cuda] library(cuRnet): 11 ms (cpu 38)"
    assert lines[2] == "R steps [cuda] R's start and exit (the process less its steps): 837 ms"
    assert lines[-1] == "warm-up [cuda]: cut at its limit of 60 s"


# A first betweenness in a fresh process, leaves folded (undirected, no cutoff): a star's
# leaves on a ring. Prints [the modules left after it, the stack that first imported each of
# WATCHED (if any), CuPy's elementwise accelerators (None without CuPy), the scores].
WATCHED = ("scipy.sparse", "scipy.sparse.csgraph", "cupyx.linalg", "cupyx.scipy.sparse")
FIRST_BETWEENNESS = """
import json, sys, traceback
import numpy as np
stacks = {}

class Watch:
    def find_spec(self, name, path=None, target=None):
        if name in %r and name not in stacks:
            stacks[name] = "".join(line for line in traceback.format_stack()[:-1]
                                   if "importlib" not in line)
        return None

sys.meta_path.insert(0, Watch())
import curnet
n = 40
ring = np.arange(30, dtype=np.int32)
src = np.r_[ring, ring[:10]]
dst = np.r_[(ring + 1) %% 30, np.arange(30, 40, dtype=np.int32)]
g = curnet.Graph.from_edges(src, dst, weights=np.r_[np.linspace(1, 2, 30), np.ones(10)],
                            directed=False, num_vertices=n)
scores = curnet.betweenness(g, directed=False, weighted=%s, backend=sys.argv[1])
cupy = sys.modules.get("cupy")
accelerators = [int(a) for a in cupy._core.get_elementwise_accelerators()] if cupy is not None else None
print(json.dumps([sorted(sys.modules), stacks, accelerators, np.asarray(scores).tolist()]))
"""


def first_betweenness(backend: str, weighted: bool, **env) -> tuple:
    out = subprocess.run([sys.executable, "-c", FIRST_BETWEENNESS % (WATCHED, weighted), backend],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(PYTHON), **env})
    assert out.returncode == 0, out.stderr[-3000:]
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


def ring_with_leaves_betweenness(weighted: bool) -> np.ndarray:
    """The oracle: NetworkX's betweenness of FIRST_BETWEENNESS's graph (unnormalised)."""
    import networkx as nx
    g = nx.Graph()
    for v in range(30):
        g.add_edge(v, (v + 1) % 30, weight=1 + v / 29)
    for v in range(10):
        g.add_edge(v, 30 + v, weight=1.0)
    bc = nx.betweenness_centrality(g, normalized=False, weight="weight" if weighted else None)
    return np.array([bc[v] for v in range(40)])


def test_a_first_unweighted_betweenness_on_the_cpu_imports_no_csgraph():
    """The leaf fold's components are NumPy's (docs/first-call.md: SciPy's csgraph cost a first
    call ~0.1 s). The CPU's level products still use scipy.sparse, its weighted DAGs SciPy's
    Dijkstra (csgraph): steps that need them."""
    loaded, stacks, _, scores = first_betweenness("cpu", False, CURNET_DISABLE_CUDA="1")
    assert "scipy.sparse.csgraph" not in loaded, stacks.get("scipy.sparse.csgraph")
    assert {"cupy", "cupyx"}.isdisjoint(loaded)
    np.testing.assert_allclose(scores, ring_with_leaves_betweenness(False), atol=1e-9)


@pytest.mark.gpu
@pytest.mark.parametrize("weighted", [True, False])
def test_a_first_gpu_betweenness_imports_no_csgraph(weighted):
    """A fresh process's first GPU betweenness, as R's cuRnet_betweenness calls it: the leaf
    fold's components are NumPy's, so SciPy's csgraph (~0.1 s) is not imported. CuPy itself
    still loads the whole cupyx package, and with it scipy.sparse (~0.45 s on the H200), at
    its first device nonzero (cp.flatnonzero of the upload's heavy rows, with CuPy's default
    accelerators: seen on the H200, docs/first-call.md); the test names those modules' first
    importer in its failure message only. A failure prints the stack that imported each."""
    loaded, stacks, accelerators, scores = first_betweenness("cuda", weighted, CUPY_ACCELERATORS="cub")
    assert "cupy" in loaded
    assert "scipy.sparse.csgraph" not in loaded, f"accelerators {accelerators}\n" + "\n".join(
        f"{name} first imported at:\n{stacks.get(name)}" for name in WATCHED if name in loaded)
    np.testing.assert_allclose(scores, ring_with_leaves_betweenness(weighted), atol=1e-9)
