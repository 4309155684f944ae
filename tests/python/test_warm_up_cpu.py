"""`curnet warm-up` compiles the CPU backend's Numba routines into Numba's on-disk cache, so a
fresh process's first compiled call loads them instead of compiling (docs/first-call.md).
Counted, not timed: the routines a fresh process compiled (Numba's cache misses) and loaded
(its cache hits), the files in the cache folder; the calls' results against SciPy's and
against a ring of cliques' own communities."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from curnet.backends import kernel_cache
from curnet.cli import main, warm_up

PYTHON = Path(__file__).resolve().parents[2] / "python"

# A user's first compiled calls, in a fresh process, on graphs other than the warm-up's: a
# large graph's build, SCC and shortest paths (the thresholds lowered: a graph of 2^23 arcs is the
# compiled routes' size),
# Girvan-Newman (hops, then lengths), Leiden and Louvain (unweighted) on 8 5-cliques in a ring, in R's
# float64. Prints what Numba compiled and loaded, and the results.
FIRST_CALLS = """
import json
import numpy as np
import curnet
from curnet import graph
from curnet.backends.cpu import scc as cpu_scc, sssp as cpu_sssp
from curnet.cli.warm_up import numba_routines
cpu_scc.COMPILED_MIN_ARCS = graph.COMPILED_SORT_MIN_ARCS = cpu_sssp.COMPILED_DIJKSTRA_MIN_WORK = 0
rng = np.random.default_rng(7)
n = 3000
src, dst = rng.integers(0, n, 4 * n), rng.integers(0, n, 4 * n)
g = curnet.Graph.from_edges(src, dst, directed=True, num_vertices=n, dtype=np.float64)
labels = curnet.scc(g, backend="cpu")
cliques, k = [], 5
for c in range(8):
    cliques += [(c * k + i, c * k + j) for i in range(k) for j in range(i + 1, k)] + [(c * k, (c * k + k) % 40)]
a, b = np.array(cliques).T
ring = curnet.Graph.from_edges(a, b, 0.5 + (a % 3), directed=False, dtype=np.float64)
dist, pred = curnet.sssp(g, [0, 1], backend="cpu")
found = {"scc": labels.tolist(), "dist": np.where(np.isinf(dist), -1, dist).tolist(),
         "girvan-newman": curnet.girvan_newman(ring, weighted=False, backend="cpu").membership.tolist(),
         "girvan-newman weighted": curnet.girvan_newman(ring, weighted=True, backend="cpu").membership.tolist(),
         "leiden": curnet.leiden(ring, weighted=False, seed=3, backend="cpu").membership.tolist(),
         "louvain": curnet.louvain(ring, weighted=False, seed=3, backend="cpu").membership.tolist()}
stats = [d.stats for d in numba_routines().values()]
print(json.dumps({"compiled": sum(sum(s.cache_misses.values()) for s in stats),
                  "loaded": sum(sum(s.cache_hits.values()) for s in stats),
                  "src": src.tolist(), "dst": dst.tolist(), **found}))
"""


def run(args, cache, **env) -> subprocess.CompletedProcess:
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=900,
                         env={**os.environ, "PYTHONPATH": str(PYTHON), "NUMBA_CACHE_DIR": str(cache), **env})
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def cache_files(folder) -> int:
    return sum(len(files) for _, _, files in os.walk(folder))


@pytest.mark.slow
def test_the_warm_up_fills_numba_cache_and_a_fresh_first_call_loads_from_it(tmp_path):
    pytest.importorskip("numba")
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components, shortest_path
    cache = tmp_path / "numba"
    # the CLI as cuRnet_install() runs it, on a machine without a usable GPU: the CPU's routes only
    done = run(["-m", "curnet.cli", "warm-up"], cache, CURNET_DISABLE_CUDA="1",
               CURNET_KERNEL_CACHE=str(tmp_path / "kernels"))
    report = json.loads(done.stdout)
    assert report["failed"] == {} and report["gpu"] is False and report["compiled"] == 0
    assert list(report)[-1] == "failed"        # cuRnet_install's warning shows the output's tail
    cpu = report["cpu"]
    # every routine of backends/cpu/compiled*.py compiled (on one thread the searches never fan out)
    import numba
    assert cpu["not reached"] == ([] if numba.get_num_threads() > 1 else ["compiled_brandes.search_shares"])
    assert cpu["compiled"] >= cpu["routines"] > 0 and cpu["loaded"] == 0
    assert all(folder.startswith(str(cache)) for folder in cpu["cache"])
    assert "no usable GPU" in done.stderr
    files = cache_files(cache)
    assert files >= cpu["routines"]           # an index and a compiled object a signature

    first = json.loads(run(["-c", FIRST_CALLS], cache).stdout)
    assert first["compiled"] == 0 and first["loaded"] > 0
    assert cache_files(cache) == files
    n = len(first["scc"])
    adjacency = csr_matrix((np.ones(len(first["src"])), (first["src"], first["dst"])), shape=(n, n))
    _, oracle = connected_components(adjacency, directed=True, connection="strong")
    assert len(set(zip(first["scc"], oracle.tolist()))) == len(set(oracle.tolist())) == len(set(first["scc"]))
    assert len(set(first["scc"])) < n         # a component larger than one vertex was found
    hops = shortest_path(adjacency, directed=True, unweighted=True, indices=[0, 1])
    assert first["dist"] == np.where(np.isinf(hops), -1, hops).tolist()
    cliques = [v // 5 for v in range(40)]     # each 5-clique its own community
    for name in ("girvan-newman", "girvan-newman weighted", "leiden", "louvain"):
        assert first[name] == cliques, name


def test_without_numba_the_warm_up_says_so_and_compiles_nothing(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "numba", None)      # `import numba` raises ImportError
    monkeypatch.setenv(kernel_cache.ENV, str(tmp_path))
    assert main(["warm-up", "--backend", "cpu"]) == 0
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert report["cpu"] == {"numba": None, "compiled": 0, "loaded": 0} and report["failed"] == {}
    assert list(report)[-1] == "failed"
    assert "Numba is not installed" in out.err
    assert "GPU" not in out.err                          # --backend cpu: the GPU is not looked for


def test_numba_routines_lists_each_routine_of_the_compiled_modules_once():
    pytest.importorskip("numba")
    routines = warm_up.numba_routines()
    modules = {name.split(".")[0] for name in routines}
    assert {"compiled_brandes", "compiled_scc", "compiled_leiden", "compiled_sort", "compiled_sssp"} <= modules
    assert len({id(d) for d in routines.values()}) == len(routines)
    assert all(d.stats.cache_path is not None for d in routines.values())   # cache=True on each
