"""A structure-aware fuzzer for every file reader (issue 6), with a fixed budget.

test_io.py's fuzz test throws random tokens and bytes at the readers; here each example is a
valid file of a random graph in one format (optionally gzipped), which must read back as that
graph, and then a few mutations of it (bytes dropped, replaced or inserted, lines repeated or
lost, truncation), which must give either a well-formed graph or a clean error naming the file.
"""
import gzip
import io

import numpy as np
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

import curnet
from curnet.io import GraphFormatError, read_graph

FORMATS = ["tsv", "csv", "snap", "mtx", "dimacs", "metis", "parquet", "arrow"]
EXT = {"tsv": ".tsv", "csv": ".csv", "snap": ".txt", "mtx": ".mtx", "dimacs": ".gr",
       "metis": ".graph", "parquet": ".parquet", "arrow": ".arrow"}
BUDGET = settings(max_examples=120, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@st.composite
def edge_lists(draw, fmt):
    """(n, u, v, w): 0-based edges; weights (quarters) or None; what the format can hold."""
    n = draw(st.integers(1, 12))
    if fmt == "metis":      # simple undirected graph: no self-loops, no repeated edges
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=15)) if pairs else []
        u = np.array([p[0] for p in chosen], np.int64)
        v = np.array([p[1] for p in chosen], np.int64)
    else:
        m = draw(st.integers(0 if fmt in ("mtx", "dimacs") else 1, 20))
        u = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
        v = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    weighted = fmt == "dimacs" or draw(st.booleans())
    w = None
    if weighted:
        lo = 1 if fmt == "metis" else -8
        w = np.array(draw(st.lists(st.integers(lo, 40), min_size=len(u), max_size=len(u))), float)
        if fmt != "metis":
            w = w / 4
    return n, u, v, w


def render(fmt, n, u, v, w) -> bytes:
    def num(x):
        return repr(float(x))
    rows = range(len(u))
    if fmt in ("tsv", "csv", "snap"):
        sep = {"tsv": "\t", "csv": ",", "snap": " "}[fmt]
        lines = [sep.join([str(u[i]), str(v[i])] + ([num(w[i])] if w is not None else [])) for i in rows]
        return ("# a comment\n" + "\n".join(lines) + "\n").encode()
    if fmt == "mtx":
        field = "real" if w is not None else "pattern"
        lines = [f"%%MatrixMarket matrix coordinate {field} general", "% a comment", f"{n} {n} {len(u)}"]
        lines += [f"{u[i] + 1} {v[i] + 1}" + (f" {num(w[i])}" if w is not None else "") for i in rows]
        return ("\n".join(lines) + "\n").encode()
    if fmt == "dimacs":
        lines = ["c a comment", f"p sp {n} {len(u)}"] + [f"a {u[i] + 1} {v[i] + 1} {num(w[i])}" for i in rows]
        return ("\n".join(lines) + "\n").encode()
    if fmt == "metis":
        adj = [[] for _ in range(n)]
        for i in rows:
            wt = [] if w is None else [str(int(w[i]))]
            adj[u[i]].append(" ".join([str(v[i] + 1)] + wt))
            adj[v[i]].append(" ".join([str(u[i] + 1)] + wt))
        header = f"{n} {len(u)}" + (" 001" if w is not None else "")
        return ("% a comment\n" + "\n".join([header] + [" ".join(a) for a in adj]) + "\n").encode()
    cols = {"src": pa.array(u, pa.int64()), "dst": pa.array(v, pa.int64())}
    if w is not None:
        cols["w"] = pa.array(w)
    table, buf = pa.table(cols), io.BytesIO()
    (pq.write_table if fmt == "parquet" else feather.write_feather)(table, buf)
    return buf.getvalue()


def read(tmp_path, fmt, data, compress):
    path = tmp_path / ("fuzz" + EXT[fmt] + (".gz" if compress else ""))
    path.write_bytes(gzip.compress(data, mtime=0) if compress else data)
    return path, read_graph(path, "snap" if fmt == "snap" else None, ids="index")


def arcs(g):
    w = g.weights.tolist() if g.weighted else [None] * g.num_arcs
    return sorted(zip(g.edge_sources().tolist(), g.indices.tolist(), w))


def well_formed(g):
    n = len(g)
    assert g.indptr[0] == 0 and g.indptr[-1] == g.num_arcs and (np.diff(g.indptr) >= 0).all()
    assert g.num_arcs == (g.num_edges if g.directed else 2 * g.num_edges)
    if g.num_arcs:
        assert 0 <= g.indices.min() and g.indices.max() < n
    if g.weighted:
        assert np.isfinite(g.weights).all()


@pytest.mark.parametrize("fmt", FORMATS)
@BUDGET
@given(data=st.data(), compress=st.booleans())
def test_valid_files_read_back_as_their_graph(tmp_path, fmt, data, compress):
    n, u, v, w = data.draw(edge_lists(fmt))
    _, g = read(tmp_path, fmt, render(fmt, n, u, v, w), compress)
    undirected = fmt == "metis"
    expected = curnet.Graph.from_edges(u, v, w, directed=not undirected, num_vertices=n)
    assert g.directed == (not undirected)
    assert arcs(g) == arcs(expected)
    if fmt in ("mtx", "dimacs", "metis"):        # these formats declare the vertex count
        assert len(g) == n


MUTATION_TOKENS = [b"0", b"1", b"-1", b"7", b"1.5", b"x", b"nan", b"inf", b"-", b"%", b"#", b"c", b"a",
                   b"p", b"\n", b" ", b"\t", b",", b"\r\n", b"\xff", b"1e6", b"2147483648", b"99999999999"]


@st.composite
def mutations(draw, data: bytes):
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["drop", "replace", "insert", "truncate", "repeat line", "drop line"]))
        at = draw(st.integers(0, max(len(out) - 1, 0)))
        if kind == "drop":
            del out[at:at + draw(st.integers(1, 8))]
        elif kind == "replace" and out:
            out[at] = draw(st.sampled_from(b"0123456789 \t\n,.-ax%#\xff\x00"))
        elif kind == "insert":
            out[at:at] = draw(st.sampled_from(MUTATION_TOKENS))
        elif kind == "truncate":
            del out[at:]
        else:
            lines = bytes(out).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "repeat line":
                lines.insert(i, lines[i])
            else:
                del lines[i]
            out = bytearray(b"\n".join(lines))
    return bytes(out)


@pytest.mark.parametrize("fmt", FORMATS)
@BUDGET
@given(data=st.data(), compress=st.booleans())
def test_mutated_files_give_a_graph_or_a_clean_error(tmp_path, fmt, data, compress):
    n, u, v, w = data.draw(edge_lists(fmt))
    mutated = data.draw(mutations(render(fmt, n, u, v, w)))
    try:
        path, g = read(tmp_path, fmt, mutated, compress)
    except GraphFormatError as e:
        event("clean error")
        assert "fuzz" + EXT[fmt] in str(e), str(e)
        return
    event("a graph")
    well_formed(g)
