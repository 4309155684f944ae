"""The tools cuRnet is compared with, each behind one call: run(algorithm, sources).

Every comparator returns the result in cuRnet's conventions so any of them can
serve as the reference a cuRnet result is checked against:

* bfs:        (k, n) int32 hop counts, -1 unreachable;
* sssp:       ((k, n) float64 distances, inf unreachable; (k, n) int32 predecessors or None);
* sssp_dists: (k, n) float64 distances;
* scc:        (n,) int32 labels (any numbering; checked as a partition).

The timed part of each call is the library's own call (its native output);
the conversion to cuRnet's conventions happens after the clock stops.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from .matrix import NETWORKX, PY_IGRAPH, SCIPY

HERE = Path(__file__).resolve().parent


class Unavailable(Exception):
    """The comparator's library or program is not installed here."""


def edge_arrays(g):
    """The graph's edges (not arcs): undirected graphs keep u <= v once (self-loops once)."""
    src = g.edge_sources()
    dst = g.indices
    w = g.weights
    if not g.directed:
        keep = src < dst
        loops = src == dst
        # a self-loop of an undirected graph is stored twice: keep every other one
        loop_idx = np.flatnonzero(loops)[::2]
        keep[loop_idx] = True
        src, dst = src[keep], dst[keep]
        w = None if w is None else w[keep]
    return src, dst, w


# -- scipy.sparse.csgraph ------------------------------------------------------------
class Scipy:
    name = SCIPY

    def __init__(self, g):
        import scipy
        import scipy.sparse as sp
        from scipy.sparse import csgraph
        self.version = scipy.__version__
        self.cs = csgraph
        n = len(g)
        w = np.ones(g.num_arcs) if g.weights is None else g.weights.astype(np.float64)
        # duplicate arcs stay separate entries: csgraph relaxes each (the cheapest wins)
        self.a = sp.csr_matrix((w, g.indices, g.indptr), shape=(n, n))
        self._canonical = None

    def canonical(self):
        """Duplicates summed: scipy's strong connected_components loops forever on a CSR
        with duplicate entries (scipy 1.17.1, checked on R-MAT), so SCC gets this copy."""
        if self._canonical is None:
            self._canonical = self.a.copy()
            self._canonical.sum_duplicates()
        return self._canonical

    def supports(self, algorithm, g) -> bool:
        return True

    def call(self, algorithm, sources):
        cs = self.cs
        if algorithm == "bfs":
            return cs.shortest_path(self.a, method="D", directed=True, unweighted=True, indices=sources)
        if algorithm == "sssp":
            return cs.dijkstra(self.a, directed=True, indices=sources, return_predecessors=True)
        if algorithm == "sssp_dists":
            return cs.dijkstra(self.a, directed=True, indices=sources)
        if algorithm == "scc":
            return cs.connected_components(self.canonical(), directed=True, connection="strong")[1]
        raise ValueError(algorithm)

    def convert(self, algorithm, raw):
        if algorithm == "bfs":
            return _depths(raw)
        if algorithm == "sssp":
            d, p = raw
            return d, np.where(p < 0, -1, p).astype(np.int32)
        if algorithm == "sssp_dists":
            return raw
        return np.asarray(raw, dtype=np.int32)


def _depths(a):
    a = np.asarray(a, dtype=np.float64)
    out = np.full(a.shape, -1, dtype=np.int32)
    fin = np.isfinite(a)
    out[fin] = a[fin].astype(np.int32)
    return out


# -- python-igraph -----------------------------------------------------------------------
class PyIgraph:
    name = PY_IGRAPH

    def __init__(self, g):
        try:
            import igraph
        except ImportError as e:
            raise Unavailable(f"python-igraph not installed ({e})") from None
        self.version = igraph.__version__
        src, dst, w = edge_arrays(g)
        t = time.perf_counter()
        self.g = igraph.Graph(n=len(g), edges=np.column_stack([src, dst]).tolist(), directed=g.directed)
        self.w = None if w is None else w.astype(np.float64).tolist()
        self.build_s = time.perf_counter() - t

    def supports(self, algorithm, g) -> bool:
        return True

    def call(self, algorithm, sources):
        src = [] if sources is None else [int(s) for s in sources]
        if algorithm == "bfs":
            return self.g.distances(source=src, mode="out")
        if algorithm in ("sssp", "sssp_dists"):
            # python-igraph has no many-source predecessors: distances() for both
            return self.g.distances(source=src, weights=self.w, mode="out", algorithm="dijkstra")
        if algorithm == "scc":
            return self.g.connected_components(mode="strong").membership
        raise ValueError(algorithm)

    def convert(self, algorithm, raw):
        if algorithm == "bfs":
            return _depths(raw)
        if algorithm == "sssp":
            return np.asarray(raw, dtype=np.float64), None
        if algorithm == "sssp_dists":
            return np.asarray(raw, dtype=np.float64)
        return np.asarray(raw, dtype=np.int32)


# -- networkx (small graphs only) ----------------------------------------------------------
class NetworkX:
    name = NETWORKX
    MAX_ARCS = 300_000

    def __init__(self, g):
        try:
            import networkx as nx
        except ImportError as e:
            raise Unavailable(f"networkx not installed ({e})") from None
        self.nx = nx
        self.version = nx.__version__
        self.n = len(g)
        G = nx.DiGraph() if g.directed else nx.Graph()
        G.add_nodes_from(range(len(g)))
        src, dst, w = edge_arrays(g)
        if w is None:
            G.add_edges_from(zip(src.tolist(), dst.tolist()))
        else:
            # parallel edges: keep the cheapest (nx.Graph keeps one edge per pair)
            order = np.argsort(-w.astype(np.float64), kind="stable")
            G.add_weighted_edges_from(zip(src[order].tolist(), dst[order].tolist(),
                                          w[order].astype(np.float64).tolist()))
        self.G = G

    def supports(self, algorithm, g) -> bool:
        return g.num_arcs <= self.MAX_ARCS

    def call(self, algorithm, sources):
        nx, G = self.nx, self.G
        if algorithm == "bfs":
            return [nx.single_source_shortest_path_length(G, int(s)) for s in sources]
        if algorithm == "sssp":
            return [nx.dijkstra_predecessor_and_distance(G, int(s)) for s in sources]
        if algorithm == "sssp_dists":
            return [nx.single_source_dijkstra_path_length(G, int(s)) for s in sources]
        if algorithm == "scc":
            if G.is_directed():
                return list(nx.strongly_connected_components(G))
            return list(nx.connected_components(G))
        raise ValueError(algorithm)

    def _matrix(self, dicts, fill, dtype):
        out = np.full((len(dicts), self.n), fill, dtype=dtype)
        for i, d in enumerate(dicts):
            if d:
                out[i, list(d.keys())] = list(d.values())
        return out

    def convert(self, algorithm, raw):
        if algorithm == "bfs":
            return self._matrix(raw, -1, np.int32)
        if algorithm == "sssp":
            return self._matrix([d for _, d in raw], np.inf, np.float64), None
        if algorithm == "sssp_dists":
            return self._matrix(raw, np.inf, np.float64)
        labels = np.empty(self.n, np.int32)
        for i, comp in enumerate(raw):
            labels[list(comp)] = i
        return labels


PYTHON_COMPARATORS = {SCIPY: Scipy, PY_IGRAPH: PyIgraph, NETWORKX: NetworkX}


# -- R igraph (and cuRnet's R package) through Rscript ------------------------------------
def rscript() -> str | None:
    return shutil.which("Rscript")


def r_versions() -> dict:
    """R and R igraph versions, and whether the cuRnet R package is installed."""
    exe = rscript()
    if exe is None:
        return {"R": None}
    code = ("cat(R.version.string, '\\n'); "
            "cat(if (requireNamespace('igraph', quietly=TRUE)) as.character(packageVersion('igraph')) "
            "else 'none', '\\n'); "
            "cat(if (requireNamespace('cuRnet', quietly=TRUE)) as.character(packageVersion('cuRnet')) "
            "else 'none', '\\n')")
    try:
        res = subprocess.run([exe, "-e", code], capture_output=True, text=True, timeout=60)
        lines = [ln.strip() for ln in res.stdout.splitlines()]
        return {"R": lines[0], "R igraph": None if lines[1] == "none" else lines[1],
                "cuRnet (R)": None if lines[2] == "none" else lines[2]}
    except Exception as e:  # pragma: no cover - R broken
        return {"R": f"unusable ({e})"}


def write_graph_bin(g, path: Path) -> None:
    """Edges for R: int32 n, int32 m, int32 directed, int32 weighted, src[m], dst[m], float64 w[m]."""
    src, dst, w = edge_arrays(g)
    with open(path, "wb") as f:
        np.array([len(g), len(src), int(g.directed), int(w is not None)], np.int32).tofile(f)
        src.astype(np.int32).tofile(f)
        dst.astype(np.int32).tofile(f)
        if w is not None:
            w.astype(np.float64).tofile(f)


def run_r(script: str, g, tasks: list, *, workdir: Path, timeout: int = 1800,
          extra_env: dict | None = None) -> dict:
    """Run bench/<script> on the graph with the given tasks; returns its JSON answer.

    tasks: dicts with id, algorithm, sources (0-based ids), single (bool),
    max_runs. The script writes {"build_s": .., "tasks": {id: {"times": [..],
    "checksum": [..], "note": ..}}} as JSON.
    """
    exe = rscript()
    if exe is None:
        raise Unavailable("Rscript not on PATH")
    workdir.mkdir(parents=True, exist_ok=True)
    gpath = workdir / "graph.bin"
    if not gpath.exists():
        write_graph_bin(g, gpath)
    spec = {"graph": str(gpath), "tasks": []}
    for t in tasks:
        spath = workdir / f"sources_{t['id']}.bin"
        np.asarray(t["sources"], np.int32).tofile(spath)
        spec["tasks"].append({k: v for k, v in t.items() if k != "sources"}
                             | {"sources": str(spath), "k": len(t["sources"])})
    spec_path = workdir / f"spec_{script}.json"
    out_path = workdir / f"out_{script}.json"
    spec_path.write_text(json.dumps(spec))
    env = dict(os.environ, **(extra_env or {}))
    res = subprocess.run([exe, str(HERE / script), str(spec_path), str(out_path)],
                         capture_output=True, text=True, timeout=timeout, env=env)
    if res.returncode != 0 or not out_path.exists():
        raise RuntimeError(f"Rscript {script} failed (exit {res.returncode}): "
                           f"{(res.stderr or res.stdout)[-1500:]}")
    return json.loads(out_path.read_text())


# R igraph on an undirected edge list: the script's arguments are the edge file (int32 pairs,
# 0-based), n, m and the output file; the analysis' code follows with the graph in `g`
R_READ_GRAPH = r"""
suppressPackageStartupMessages(library(igraph))
a <- commandArgs(TRUE); n <- as.integer(a[2]); m <- as.integer(a[3])
con <- file(a[1], "rb"); e <- readBin(con, "integer", 2 * m); close(con)
g <- add_edges(make_empty_graph(n, directed = FALSE), e + 1L)
"""


def r_igraph_on_edges(r_code: str, edges: np.ndarray, n: int) -> tuple[np.ndarray, list[str]]:
    """Run R_READ_GRAPH + r_code in Rscript on `edges` ((m, 2), 0-based): the doubles the code
    wrote to its output file (a[4]) and the words it printed last (its own timing, say)."""
    with tempfile.TemporaryDirectory() as tmp:
        edge_file, result, script = (os.path.join(tmp, x) for x in ("edges.bin", "result.bin", "igraph.R"))
        np.ascontiguousarray(edges, np.int32).tofile(edge_file)
        with open(script, "w") as f:
            f.write(R_READ_GRAPH + r_code)
        out = subprocess.run(["Rscript", script, edge_file, str(n), str(len(edges)), result],
                             check=True, capture_output=True, text=True)
        return np.fromfile(result, np.float64), out.stdout.split()


def r_igraph_vertex_values(g, r_call: str) -> tuple[np.ndarray, float]:
    """A value a vertex from R igraph's `r_call` on the undirected graph `g`'s edges (its
    weights left out), and the call's seconds timed inside R (the graph's building left out)."""
    src, dst, _ = edge_arrays(g)
    code = (f't <- proc.time()[["elapsed"]]\nv <- {r_call}\nt <- proc.time()[["elapsed"]] - t\n'
            'con <- file(a[4], "wb"); writeBin(as.double(v), con); close(con)\ncat(t, "\\n")\n')
    values, printed = r_igraph_on_edges(code, np.c_[src, dst], len(g))
    return values, float(printed[-1])


def checksum(algorithm, result) -> list:
    """What R reports for its results, computed the same way here: [sum of finite, count non-finite]."""
    if algorithm == "scc":
        labels = np.asarray(result)
        return [float(len(np.unique(labels))), float(np.bincount(
            np.unique(labels, return_inverse=True)[1].ravel()).max())]
    a = result[0] if algorithm == "sssp" else result
    a = np.asarray(a, dtype=np.float64)
    if algorithm == "bfs":
        a = np.where(a < 0, np.inf, a)
    fin = np.isfinite(a)
    return [float(a[fin].sum()), float((~fin).sum())]


def make_tmpdir(prefix="curnet-bench-") -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix))
