"""The R package cuRnet driven from Python through rpy2, compared with the engine's own results.

R runs embedded in this process, and reticulate binds to this same Python, so the
R package's engine is the `curnet` imported here.
"""
import ctypes
import os
import sys

import numpy as np
import pytest

os.environ.setdefault("RETICULATE_PYTHON", sys.executable)
ro = pytest.importorskip("rpy2.robjects")
from rpy2.rinterface_lib.embedded import RRuntimeError  # noqa: E402

import curnet  # noqa: E402



def _eval_holding_the_gil():
    """R evaluation that keeps the GIL. rpy2 calls R through cffi, which releases the GIL;
    reticulate 1.28's finalizers then free Python objects without it and abort the process.
    ctypes.PyDLL calls keep the GIL, so R_tryEval goes through it."""
    from rpy2 import rinterface as ri
    from rpy2.rinterface_lib import _rinterface_capi as capi, conversion, openrlib

    lib = ctypes.PyDLL(os.path.join(ro.r("R.home('lib')")[0], "libR.so"))
    lib.R_tryEval.restype = ctypes.c_void_p
    lib.R_tryEval.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    ffi = openrlib.ffi

    def address(obj):
        return int(ffi.cast("uintptr_t", obj.__sexp__._cdata))

    def evaluate(code):
        call = ri.parse(code)[0]
        failed = ctypes.c_int(0)
        result = lib.R_tryEval(address(call), address(ri.globalenv), ctypes.byref(failed))
        if failed.value:
            raise RRuntimeError(capi._geterrmessage())
        return ro.conversion.get_conversion().rpy2py(
            conversion._cdata_to_rinterface(ffi.cast("SEXP", result)))
    return evaluate


_evaluate = _eval_holding_the_gil()


def R(code):
    """Evaluates R code and returns its value (also when invisible). A gc() first, with the GIL
    held: rpy2 then keeps the value through cffi calls that allocate with the GIL released, and
    a collection there would run reticulate's finalizers without it (see above)."""
    return _evaluate(f"{{invisible(gc(FALSE)); ({code})}}")


if not R('requireNamespace("cuRnet", quietly = TRUE)')[0]:
    pytest.skip("the R package cuRnet is not installed (scripts/r-setup.sh)", allow_module_level=True)
R("suppressPackageStartupMessages(library(cuRnet))")
R("options(cuRnet.progress = FALSE)")
if not R("cuRnet_available()")[0]:
    pytest.skip("cuRnet's engine is not available to R", allow_module_level=True)


@pytest.fixture(scope="module", autouse=True)
def _skip_r_exit_finalizers():
    yield
    # rpy2 ends R at exit with the GIL released, and reticulate's exit finalizers then
    # touch Python objects and abort the interpreter; this process needs no R shutdown.
    import atexit
    from rpy2 import rinterface
    atexit.unregister(rinterface.endr)
    R("unlink(tempdir(), recursive = TRUE)")


def put(name, make, *args):
    """Assigns make(*args) to R's global `name`. rpy2 makes the vector and assigns it through
    cffi, with the GIL released: a gc() first, through R(), leaves a collection there nothing to
    finalize (see R)."""
    R("invisible(NULL)")
    ro.globalenv[name] = make(*args)


def r_edges(src, dst, weights=None, names=None):
    """Puts a data frame of edges into R's global `edges`: names[src], names[dst], weight."""
    names = np.asarray(names if names is not None else [f"v{i}" for i in range(max(src.max(), dst.max()) + 1)])
    # vectors are assigned through put(); data.frame() runs through R() (see above)
    put("from_", ro.StrVector, names[src].tolist())
    put("to_", ro.StrVector, names[dst].tolist())
    if weights is None:
        R("edges <- data.frame(from = from_, to = to_)")
    else:
        put("w_", ro.FloatVector, weights.tolist())
        R("edges <- data.frame(from = from_, to = to_, weight = w_)")
    return names


def matrix(expr):
    """An R numeric matrix as a NumPy array (R is column-major)."""
    put("m_", R, expr)
    return np.asarray(R("m_")).reshape(tuple(R("dim(m_)")), order="F")


def random_graph(n, m, seed, weighted=False):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.uniform(0.1, 2.0, m) if weighted else None
    return src, dst, w


@pytest.mark.parametrize("directed", [True, False])
def test_bfs_matches_engine(directed):
    src, dst, _ = random_graph(300, 900, seed=1)
    names = r_edges(src, dst)
    R(f"g <- cuRnet_graph(edges, directed = {'TRUE' if directed else 'FALSE'})")
    order = np.asarray(R("g$names"))       # R numbers vertices by first appearance
    g = curnet.Graph.from_edges(names[src], names[dst], directed=directed, names=order)
    sources = order[[0, 5, 17, 5]]
    put("s", ro.StrVector, sources.tolist())
    got = matrix("cuRnet_bfs(g, s)")
    want = curnet.bfs(g, sources.tolist()).astype(float)
    want[want < 0] = np.inf
    np.testing.assert_array_equal(got, want)
    got_int = matrix("cuRnet_bfs(g, s, integer = TRUE)")
    np.testing.assert_array_equal(got_int[np.isfinite(want)], want[np.isfinite(want)])
    assert list(R("rownames(cuRnet_bfs(g, s))")) == sources.tolist()


def test_sssp_and_dists_match_engine():
    src, dst, w = random_graph(200, 1000, seed=2, weighted=True)
    names = r_edges(src, dst, w, names=[f"gene {i}/x" for i in range(200)])
    R("g <- cuRnet_graph(edges)")
    order = np.asarray(R("g$names"))
    g = curnet.Graph.from_edges(names[src], names[dst], w, names=order, dtype=np.float64)
    sources = order[:8].tolist()
    put("s", ro.StrVector, sources)
    dist, pred = curnet.sssp(g, sources)
    np.testing.assert_allclose(matrix("cuRnet_sssp(g, s)$distances"), dist, rtol=1e-12)
    np.testing.assert_allclose(matrix("cuRnet_sssp_dists(g, s)"), dist, rtol=1e-12)
    # predecessors: R's names are the engine's ids, translated
    r_pred = np.asarray(R("cuRnet_sssp(g, s)$predecessors")).reshape(dist.shape, order="F")
    r_idx = matrix("cuRnet_sssp(g, s, predecessors = 'index')$predecessors")
    has = pred >= 0
    assert np.array_equal(r_pred == "", ~has)
    # predecessors are valid shortest-path parents (the choice itself may differ)
    idx = np.where(has, np.nan_to_num(r_idx, nan=0).astype(int) - 1, -1)
    np.testing.assert_array_equal(r_pred[has], order[idx[has]])
    best = {}
    position = {name: i for i, name in enumerate(order.tolist())}
    for a, b, c in zip(names[src], names[dst], w):
        key = (position[a], position[b])
        best[key] = min(best.get(key, np.inf), c)
    for i, j in zip(*np.nonzero(has)):
        assert dist[i, idx[i, j]] + best[(idx[i, j], j)] == pytest.approx(dist[i, j])


def test_scc_matches_engine():
    src, dst, _ = random_graph(500, 800, seed=3)
    names = r_edges(src, dst)
    R("g <- cuRnet_graph(edges)")
    order = np.asarray(R("g$names"))
    g = curnet.Graph.from_edges(names[src], names[dst], names=order)
    cc = matrix("cuRnet_scc(g)")
    assert cc.shape == (1, len(order))
    np.testing.assert_array_equal(cc[0], curnet.scc(g) + 1)
    assert list(R("colnames(cuRnet_scc(g))")) == order.tolist()


def test_distances_matches_engine_on_igraph_graph():
    R("set.seed(4)")
    R("ig <- igraph::sample_gnp(120, 0.04, directed = TRUE)")
    el = np.asarray(R("igraph::as_edgelist(ig)")).reshape(-1, 2, order="F").astype(int) - 1
    g = curnet.Graph.from_edges(el[:, 0], el[:, 1], num_vertices=120)
    got = matrix("cuRnet_distances(ig, 1:6, mode = 'out')")
    want = curnet.bfs(g, list(range(6))).astype(float)
    want[want < 0] = np.inf
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, matrix("igraph::distances(ig, 1:6, mode = 'out')"))


def test_errors_reach_python_with_the_engine_message():
    r_edges(np.array([0, 1]), np.array([1, 2]), np.array([1.0, -1.0]))
    with pytest.raises(RRuntimeError, match="not in the graph: 'zz'"):
        R("cuRnet_bfs(cuRnet_graph(edges), 'zz')")
    with pytest.raises(RRuntimeError, match="negative weight"):
        R("cuRnet_graph(edges, directed = FALSE)")
    R("cuRnet_sssp(cuRnet_graph(edges), 'v0')")  # directed: fine


def test_info_reports_this_engine():
    assert R("cuRnet_info()$curnet")[0] == curnet.__version__
    assert R("cuRnet_info()$backend")[0] == curnet.info()["backend"]
