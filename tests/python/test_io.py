"""Tests for curnet.io: every reader, its errors, Arrow inputs, and a fuzz test."""
import gzip
import os
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from curnet.graph import Graph
from curnet import io
from curnet.io import FORMATS, GraphFormatError, from_arrow

DATA = Path(__file__).parent / "data" / "io"


def read_graph(path, *args, **kw):
    """Most tests here check each format's own vertex numbering: they read numeric ids as
    indices (ids="index"); the default, ids as names, has its own tests."""
    kw.setdefault("ids", "index")
    return io.read_graph(path, *args, **kw)


def arcs(g: Graph):
    """Sorted (src, dst, weight) triples of the stored arcs, names resolved when present."""
    s = g.edge_sources()
    d = g.indices
    if g.names is not None:
        s, d = g.names[s], g.names[d]
    w = g.weights.tolist() if g.weighted else [None] * len(d)
    return sorted(zip(np.asarray(s).tolist(), np.asarray(d).tolist(), w))


def write(tmp_path, name, text, compress=False):
    path = tmp_path / name
    data = text.encode() if isinstance(text, str) else text
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


def gz_copy(tmp_path, src: Path) -> Path:
    out = tmp_path / (src.name + ".gz")
    out.write_bytes(gzip.compress(src.read_bytes()))
    return out


def assert_format_error(path, line, *words, **kw):
    with pytest.raises(GraphFormatError) as info:
        read_graph(path, **kw)
    msg = str(info.value)
    assert os.path.basename(str(path)) in msg
    if line is not None:
        assert f"line {line}" in msg and info.value.line == line
    for word in words:
        assert word in msg
    return msg


# -- edge lists -------------------------------------------------------------------
def test_tsv_weighted_with_comments_and_blank_lines():
    g = read_graph(DATA / "weighted.tsv")
    assert (len(g), g.num_edges, g.directed) == (4, 4, True)
    assert g.weights.dtype == np.float32
    assert arcs(g) == [(0, 1, 1.5), (0, 3, 4.0), (1, 2, 2.0), (2, 0, 0.5)]
    np.testing.assert_array_equal(g.indptr, [0, 2, 3, 4, 4])


def test_tsv_options_undirected_unweighted_float64():
    g = read_graph(DATA / "weighted.tsv", directed=False, weights=False)
    assert (g.directed, g.weighted, g.num_edges, g.num_arcs) == (False, False, 4, 8)
    g = read_graph(DATA / "weighted.tsv", dtype=np.float64)
    assert g.weights.dtype == np.float64


def test_csv_header_detected_with_names():
    g = read_graph(DATA / "named.csv")
    assert list(g.names) == ["TP53", "MDM2", "CDKN1A"]
    assert arcs(g) == [("MDM2", "CDKN1A", pytest.approx(0.4)), ("TP53", "CDKN1A", pytest.approx(0.7)),
                       ("TP53", "MDM2", pytest.approx(0.9))]


def test_csv_columns_by_name_and_index():
    by_name = read_graph(DATA / "header_cols.csv", src="gene_b", dst="gene_a", weights="score")
    assert arcs(by_name) == [("B", "A", 3.0), ("C", "B", 1.0)]
    by_index = read_graph(DATA / "header_cols.csv", src=1, dst=0, weights=2, header=True)
    assert arcs(by_index) == arcs(by_name)
    # weights=None: the numeric third column is the weights whatever its name, with a note
    with pytest.warns(io.WeightColumnNote, match="^column 'score' read as the weights .*weights=False for hops"):
        assert arcs(read_graph(DATA / "header_cols.csv")) == [("A", "B", 3.0), ("B", "C", 1.0)]


def test_csv_unknown_column_name():
    with pytest.raises(ValueError, match="nope"):
        read_graph(DATA / "header_cols.csv", src="nope", weights=False)


def test_header_true_on_numeric_ids(tmp_path):
    p = write(tmp_path, "h.csv", "from,to\n1,2\n2,3\n")
    g = read_graph(p, header=True)
    assert (len(g), arcs(g)) == (4, [(1, 2, None), (2, 3, None)])
    assert g.names is None  # the header-stripped id columns are integers again


def test_no_header_names_and_string_third_column(tmp_path):
    # third column is not numeric: weights=None leaves it out; header=None sees no header
    p = write(tmp_path, "sif.tsv", "A\tpp\tB\nB\tpp\tC\n")
    g = read_graph(p, dst=2)
    assert arcs(g) == [("A", "B", None), ("B", "C", None)]
    assert read_graph(p, header=False, weights=False).names.tolist() == ["A", "B", "pp"]


def test_header_false_keeps_first_line(tmp_path):
    p = write(tmp_path, "e.csv", "a,b\nc,d\n")
    assert read_graph(p, header=False).num_edges == 2
    assert read_graph(p, header=True).num_edges == 1


def test_whitespace_separated_txt():
    g = read_graph(DATA / "spaces.txt")
    assert (len(g), arcs(g)) == (4, [(0, 1, None), (1, 2, None), (2, 3, None)])


def test_explicit_delimiter_and_comment(tmp_path):
    p = write(tmp_path, "e.txt", "% c\n0;1;2\n1;2;3\n")
    g = read_graph(p, delimiter=";", comment="%")
    assert arcs(g) == [(0, 1, 2.0), (1, 2, 3.0)]


def test_gzip_edge_list(tmp_path):
    g = read_graph(gz_copy(tmp_path, DATA / "weighted.tsv"))
    assert arcs(g) == arcs(read_graph(DATA / "weighted.tsv"))
    # gzip magic is detected even without the .gz name
    p = write(tmp_path, "plain_name.tsv", (DATA / "weighted.tsv").read_bytes(), compress=True)
    assert read_graph(p).num_edges == 4


def test_snap():
    g = read_graph(DATA / "snap.txt", "snap")
    assert (len(g), g.directed, g.weighted) == (3, True, False)
    assert arcs(g) == [(0, 1, None), (0, 2, None), (1, 2, None), (2, 0, None)]


def test_snap_weighted_gzip(tmp_path):
    p = write(tmp_path, "s.txt.gz", "# c\n1 2 0.5\n2  3\t1.5\n", compress=True)
    g = read_graph(p, format="SNAP", directed=False)
    assert (g.directed, g.num_edges) == (False, 2)
    assert arcs(g) == [(1, 2, 0.5), (2, 1, 0.5), (2, 3, 1.5), (3, 2, 1.5)]


def test_snap_rejects_edge_list_options():
    with pytest.raises(ValueError, match="src"):
        read_graph(DATA / "snap.txt", "snap", src=1)


# -- Matrix Market ----------------------------------------------------------------
def test_mtx_general_real():
    g = read_graph(DATA / "general.mtx")
    assert (len(g), g.num_edges, g.directed) == (3, 3, True)
    assert arcs(g) == [(0, 1, 1.0), (1, 2, 2.5), (2, 0, -1.0)]


def test_mtx_pattern_symmetric_is_undirected(tmp_path):
    g = read_graph(DATA / "pattern_sym.mtx")
    assert (len(g), g.num_edges, g.directed, g.weighted) == (4, 3, False, False)
    assert [(s, d) for s, d, _ in arcs(g) if s != d] == [(0, 1), (1, 0), (1, 2), (2, 1)]
    directed = read_graph(gz_copy(tmp_path, DATA / "pattern_sym.mtx"), directed=True)
    assert directed.directed
    assert arcs(directed) == [(0, 1, None), (1, 0, None), (1, 2, None), (2, 1, None), (3, 3, None)]


def test_mtx_integer_and_weights_true_on_pattern(tmp_path):
    p = write(tmp_path, "i.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n")
    assert arcs(read_graph(p)) == [(0, 1, 7.0)]
    assert_format_error(DATA / "pattern_sym.mtx", None, "no edge weights", weights=True)


# -- DIMACS -----------------------------------------------------------------------
def test_dimacs():
    g = read_graph(DATA / "tiny.gr")
    assert (len(g), g.num_edges, g.directed) == (4, 5, True)
    assert arcs(g) == [(0, 1, 3.0), (0, 2, 10.0), (1, 2, 4.0), (2, 3, 5.0), (3, 0, 6.0)]


# -- METIS ------------------------------------------------------------------------
def test_metis_unweighted_cycle():
    g = read_graph(DATA / "cycle.graph")
    assert (len(g), g.num_edges, g.directed, g.weighted) == (4, 4, False, False)
    np.testing.assert_array_equal(g.indptr, [0, 2, 4, 6, 8])
    assert arcs(g) == sorted([(0, 1, None), (1, 0, None), (1, 2, None), (2, 1, None),
                              (2, 3, None), (3, 2, None), (0, 3, None), (3, 0, None)])


def test_metis_edge_and_vertex_weights():
    g = read_graph(DATA / "weighted.graph")
    assert (len(g), g.num_edges) == (3, 2)
    assert arcs(g) == [(0, 1, 7.0), (1, 0, 7.0), (1, 2, 8.0), (2, 1, 8.0)]
    d = read_graph(DATA / "weighted.graph", directed=True)
    assert d.directed and arcs(d) == arcs(g)


def test_metis_isolated_vertex_blank_line():
    g = read_graph(DATA / "isolated.graph")
    assert (len(g), g.num_edges) == (3, 1)
    np.testing.assert_array_equal(g.out_degree(), [1, 1, 0])


# -- Parquet / Arrow IPC ----------------------------------------------------------
EDGE_TABLE = pa.table({"a": ["x", "y", "z"], "b": ["y", "z", "x"], "w": [1.0, 2.0, 3.0]})


@pytest.mark.parametrize("name,writer", [
    ("e.parquet", pq.write_table),
    ("e.feather", feather.write_feather),
    ("e.arrow", lambda t, p: feather.write_feather(t, p, compression="uncompressed")),
])
def test_parquet_and_arrow_files(tmp_path, name, writer):
    path = tmp_path / name
    writer(EDGE_TABLE, str(path))
    g = read_graph(path)
    assert arcs(g) == [("x", "y", 1.0), ("y", "z", 2.0), ("z", "x", 3.0)]
    g = read_graph(gz_copy(tmp_path, path), src="b", dst="a", weights=False, directed=False)
    assert (g.directed, g.weighted, g.num_edges) == (False, False, 3)


def test_arrow_ipc_stream(tmp_path):
    path = tmp_path / "s.ipc"
    with pa.OSFile(str(path), "wb") as f, pa.ipc.new_stream(f, EDGE_TABLE.schema) as w:
        w.write_table(EDGE_TABLE)
    assert read_graph(path).num_edges == 3


# -- from_arrow -------------------------------------------------------------------
def test_from_arrow_table_zero_copy():
    t = pa.table({"s": pa.array([0, 1, 2], pa.int32()), "d": pa.array([1, 2, 0], pa.int32()),
                  "w": pa.array([0.5, 1.5, 2.5], pa.float32())})
    g = from_arrow(t, "s", "d", "w")
    assert arcs(g) == [(0, 1, 0.5), (1, 2, 1.5), (2, 0, 2.5)]
    assert from_arrow(t.to_batches()[0]).num_edges == 3
    assert not from_arrow(t).weighted


def test_from_arrow_polars_and_pandas():
    pl = pytest.importorskip("polars")
    pd = pytest.importorskip("pandas")
    expected = [("a", "b", 1.0), ("b", "c", 2.0)]
    df = pl.DataFrame({"u": ["a", "b"], "v": ["b", "c"], "w": [1.0, 2.0]})
    assert arcs(from_arrow(df, "u", "v", "w")) == expected
    pdf = pd.DataFrame({"u": ["a", "b"], "v": ["b", "c"], "w": [1.0, 2.0]})
    assert arcs(from_arrow(pdf, 0, 1, 2)) == expected
    g = from_arrow(pl.DataFrame({"u": [0, 1], "v": [1, 2]}), directed=False)
    assert (g.directed, len(g), g.num_arcs) == (False, 3, 4)


def test_from_arrow_capsule_only_object():
    class Capsule:  # only the PyCapsule stream interface
        def __arrow_c_stream__(self, requested_schema=None):
            return EDGE_TABLE.__arrow_c_stream__(requested_schema)

    assert from_arrow(Capsule(), weight="w").num_edges == 3


def test_from_arrow_errors():
    with pytest.raises(TypeError):
        from_arrow([1, 2, 3])
    with pytest.raises(ValueError, match="out of range"):
        from_arrow(EDGE_TABLE, 0, 7)


# -- errors -----------------------------------------------------------------------
MALFORMED = [
    ("bad_field.tsv", "0\t1\t1.0\n1\t2\t2.0\n2\tx\t1\n0\t1\n", 4, "expected 3 fields"),
    ("bad_weight.csv", "0,1,1.0\n1,2,abc\n", 2, "'abc'"),
    ("missing.csv", "# c\n0,1,1.0\n\n1,2,\n", 4, "missing"),
    ("inf.tsv", "0\t1\t1\n1\t2\tinf\n", 2, "not finite"),
    ("bad.snap", "# c\n0 1\n1 2 3\n", 3, "fields"),
    ("badid.snap", "0 1\n1 z\n", 2, "'z'"),
    ("nobanner.mtx", "3 3 1\n1 2 1\n", 1, "MatrixMarket"),
    ("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "coordinate"),
    ("range.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n3 1 1\n", 4, "outside 1..2"),
    ("short.mtx", "%%MatrixMarket matrix coordinate real general\n%c\n2 2 3\n1 2 1\n2 1 1\n", 3, "declares 3"),
    ("long.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n2 1\n", 4, "more entries"),
    ("width.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 1\n", 4, "3 fields"),
    ("value.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 x1\n", 3, "'x1'"),
    ("count.gr", "c x\np sp 3 3\na 1 2 1\na 2 3 1\n", 2, "declares 3 arcs"),
    ("type.gr", "p sp 3 1\nc ok\nx 1 2 1\n", 3, "unknown line type"),
    ("noprob.gr", "c x\na 1 2 1\n", 2, "problem line"),
    ("arc.gr", "p sp 3 2\na 1 2 1\na 2 3\n", 3, "arc line"),
    ("range.gr", "p sp 3 1\na 1 4 1\n", 2, "outside 1..3"),
    ("count.graph", "3 3\n2\n1 3\n2\n", 1, "declares 3 edges"),
    ("lines.graph", "%c\n3 1\n2\n1\n\n4\n", 6, "more vertex lines"),
    ("fewlines.graph", "4 1\n2\n1\n", 1, "declares 4 vertices"),
    ("asym.graph", "3 2\n2 3\n1\n2\n", 2, "vertex 1 lists 3, but vertex 3 does not"),
    ("pairs.graph", "2 1 1\n2 5\n1\n", 3, "pairs"),
    ("header.graph", "% c\nthree 2\n", 2, "'three'"),
    ("loop.graph", "2 1\n1\n2\n", 2, "itself"),
]


@pytest.mark.parametrize("name,text,line,words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_names_file_and_line(tmp_path, name, text, line, words):
    fmt = "snap" if name.endswith(".snap") else None
    p = write(tmp_path, name, text)
    assert_format_error(p, line, words, format=fmt)
    gz = write(tmp_path, name + ".gz", text, compress=True)
    assert_format_error(gz, line, words, format=fmt)


def test_error_is_value_error_and_picklable(tmp_path):
    import pickle
    e = GraphFormatError("f.mtx", 3, "bad")
    assert isinstance(e, ValueError) and str(e) == "f.mtx, line 3: bad"
    assert str(pickle.loads(pickle.dumps(e))) == str(e)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothere.tsv"):
        read_graph(tmp_path / "nothere.tsv")


@pytest.mark.parametrize("name", ["e.tsv", "e.mtx", "e.gr", "e.graph", "e.parquet", "e.csv.gz"])
def test_empty_file(tmp_path, name):
    assert_format_error(write(tmp_path, name, ""), None, "empty")


def test_only_comments_is_empty(tmp_path):
    assert_format_error(write(tmp_path, "c.tsv", "# just\n# comments\n"), None, "empty")
    assert_format_error(write(tmp_path, "c.graph", "% just\n"), None, "empty")
    assert_format_error(write(tmp_path, "c.txt", "#x\n\n"), None, "empty", format="snap")


def test_truncated_gzip(tmp_path):
    data = gzip.compress((DATA / "tiny.gr").read_bytes())
    p = write(tmp_path, "t.gr.gz", data[: len(data) // 2])
    msg = assert_format_error(p, None, "gzip")
    assert "truncated" in msg


def test_not_gzip_despite_name(tmp_path):
    assert_format_error(write(tmp_path, "x.tsv.gz", "0\t1\n"), None, "gzip")


def test_unknown_format(tmp_path):
    p = write(tmp_path, "x.xyz", "0 1\n")
    with pytest.raises(ValueError) as info:
        read_graph(p)
    assert all(fmt in str(info.value) for fmt in FORMATS)
    with pytest.raises(ValueError, match="known formats"):
        read_graph(DATA / "tiny.gr", format="pajek")


def test_corrupt_parquet(tmp_path):
    assert_format_error(write(tmp_path, "x.parquet", b"PAR1garbage"), None, "parquet")


def test_non_utf8_text(tmp_path):
    assert_format_error(write(tmp_path, "u.gr", b"p sp 2 1\na 1 2 \xff\n"), 2, "UTF-8")


# -- scale: a vectorised path, not a per-line Python loop ----------------------------
def python_lines_traced(fn, limit):
    """fn() under a line tracer of this thread: the number of Python lines it executed.
    Raises as soon as `limit` is passed, so a per-line loop fails at once."""
    count = [0]

    def tracer(frame, event, arg):
        if event == "line":
            count[0] += 1
            if count[0] > limit:
                raise AssertionError(f"more than {limit:,} Python lines: a per-line loop?")
        return tracer
    sys.settrace(tracer)
    try:
        result = fn()
    finally:
        sys.settrace(None)
    return result, count[0]


def test_million_line_edge_list_is_fast(tmp_path):
    rng = np.random.default_rng(1)
    m = 1_000_000
    u, v = rng.integers(0, 50_000, m), rng.integers(0, 50_000, m)
    w = rng.integers(1, 100, m)
    snap, gr = tmp_path / "big.txt", tmp_path / "big.gr"
    np.savetxt(snap, np.column_stack([u, v, w]), fmt="%d")
    np.savetxt(gr, np.column_stack([u + 1, v + 1, w]), fmt="a %d %d %d", header=f"p sp 50000 {m}",
               comments="")
    for path, fmt in ((snap, "snap"), (snap, "tsv"), (gr, None)):
        # a million lines parsed by pyarrow and NumPy: the Python lines run do not grow with m
        g, lines = python_lines_traced(lambda: read_graph(path, fmt), limit=20_000)
        assert g.num_edges == m and g.weights.sum() == pytest.approx(w.sum(), rel=1e-6)


# -- fuzz -------------------------------------------------------------------------
EXTENSIONS = [".tsv", ".csv", ".txt", ".edges", ".net", ".mtx", ".gr", ".graph", ".parquet",
              ".arrow", ".feather", ".ipc", ".tsv.gz", ".mtx.gz", ".gr.gz", ".graph.gz"]
TOKENS = st.sampled_from(["0", "1", "2", "3", "17", "-1", "1.5", "x", "nan", "a", "p", "sp", "c",
                          "#", "%", "%%MatrixMarket", "matrix", "coordinate", "real", "pattern",
                          "symmetric", "general", "011", ",", "\t", " ", '"', "é", ""])
LINES = st.lists(st.lists(TOKENS, max_size=6).map(" ".join), max_size=12).map("\n".join)
CONTENT = st.one_of(st.binary(max_size=300), LINES.map(str.encode),
                    LINES.map(lambda s: gzip.compress(s.encode())))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=CONTENT, ext=st.sampled_from(EXTENSIONS), fmt=st.sampled_from([None, None, "snap"]))
def test_fuzz_never_crashes(tmp_path, content, ext, fmt):
    path = tmp_path / ("fuzz" + ext)
    path.write_bytes(content)
    try:
        g = read_graph(path, fmt)
    except (ValueError, TypeError, FileNotFoundError):
        return
    assert isinstance(g, Graph)
    assert len(g.indptr) == len(g) + 1 and g.indptr[-1] == g.num_arcs


@pytest.mark.parametrize("text,line,words", [
    ("# c\n0,1\n-1,2\n", 3, "negative src id -1"),
    ("0,1\n1,2.5\n", 2, "dst id 2.5 is not an integer"),
    ("0,1\n1,\xff\n", 2, "UTF-8"),
])
def test_csv_bad_ids(tmp_path, text, line, words):
    p = write(tmp_path, "ids.csv", text.encode("latin-1") if "\xff" in text else text)
    assert_format_error(p, line, words)


def test_graph_errors_name_the_file(tmp_path):
    p = write(tmp_path, "n.csv", "0,1\n1,5\n")
    assert_format_error(p, None, "num_vertices", num_vertices=3)


# -- ids="names": numeric ids are vertex names (what R's cuRnet_graph(file) asks for) -----
def _edges_by_name(g):
    """The graph's arcs as (name, name, weight) triples, independent of vertex numbering."""
    src = np.repeat(np.arange(len(g)), np.diff(g.indptr))
    w = g.weights if g.weighted else np.ones(len(g.indices))
    return sorted(zip(g.names[src].tolist(), g.names[g.indices].tolist(), np.asarray(w).tolist()))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(1, 9)),
                min_size=1, max_size=30),
       st.sampled_from(["tsv", "csv", "snap", "parquet"]))
def test_ids_as_names_keep_each_id_as_its_name(tmp_path, edges, fmt):
    u, v, w = (np.array(c) for c in zip(*edges))
    path = tmp_path / f"g.{'parquet' if fmt == 'parquet' else 'csv' if fmt == 'csv' else 'txt'}"
    if fmt == "parquet":
        pq.write_table(pa.table({"a": u, "b": v, "w": w.astype(float)}), path)
    else:
        sep = "," if fmt == "csv" else "\t" if fmt == "tsv" else " "
        path.write_text("".join(f"{a}{sep}{b}{sep}{c}\n" for a, b, c in edges))
    g = read_graph(path, format="snap" if fmt == "snap" else None, ids="names")
    first_seen = list(dict.fromkeys(np.column_stack([u, v]).ravel().tolist()))
    assert len(g) == len(set(first_seen))                       # no gaps up to the largest id
    assert sorted(g.names.tolist()) == sorted(str(x) for x in set(first_seen))
    assert _edges_by_name(g) == sorted((str(a), str(b), float(c)) for a, b, c in edges)
    # the default numbering: the same arcs between vertices 0..max id
    plain = read_graph(path, format="snap" if fmt == "snap" else None)
    assert len(plain) == max(first_seen) + 1 and plain.names is None


def test_ids_as_names_with_header_and_in_numbered_formats(tmp_path):
    csv = tmp_path / "h.csv"
    csv.write_text("source,target,score\n7157,4193,0.5\n4193,10,1.5\n")
    g = read_graph(csv, ids="names", weights="score")
    assert g.names.tolist() == ["7157", "4193", "10"] and g.weighted
    mtx = tmp_path / "g.mtx"
    mtx.write_text("%%MatrixMarket matrix coordinate pattern general\n4 4 2\n3 1\n1 2\n")
    g = read_graph(mtx, ids="names")
    assert g.names is None                                      # positions, as scipy.io.mmread
    assert arcs(g) == [(0, 1, None), (2, 0, None)]
    with pytest.raises(ValueError, match='ids must be "names" or "index"'):
        read_graph(mtx, ids="position")


def test_bridge_arrow_table_ids_as_names():
    from curnet.r_bridge import graphs
    t = pa.table({"from": [7157, 4193], "to": [4193, 10], "weight": [1.0, 2.0]})
    g = graphs.graph_from_table(t, True, "weight", id_names=True)
    assert g.names.tolist() == ["7157", "4193", "10"] and g.weighted
    assert graphs.graph_from_table(t, True, "weight").names is None


def test_ids_in_files_are_names_by_default(tmp_path):
    """One rule with R's cuRnet_graph and the `curnet` command: a file of Entrez ids is three
    vertices, not 7,158; ids="index" asks for the engine's numbering."""
    path = tmp_path / "entrez.tsv"
    path.write_text("7157\t4193\n4193\t10\n")
    g = io.read_graph(path)
    assert len(g) == 3 and g.names.tolist() == ["7157", "4193", "10"]
    assert len(io.read_graph(path, ids="index")) == 7158
    mtx = tmp_path / "g.mtx"
    mtx.write_text("%%MatrixMarket matrix coordinate pattern general\n4 4 2\n3 1\n1 2\n")
    assert io.read_graph(mtx).names is None                     # a numbered format names none
    assert io.read_graph(mtx, ids="index").names is None


def test_the_numeric_third_column_is_the_weights_whatever_its_name(tmp_path):
    """cuRnet's rule since 2017 (`from to score`): a weight-like name anywhere, else the third
    column when it holds numbers, named in a WeightColumnNote; weights=False for hops."""
    evidence = write(tmp_path, "reg.csv", "tf,target,evidence\nA,B,0\nB,C,3\n")
    with pytest.warns(io.WeightColumnNote, match="'evidence'") as said:
        assert arcs(io.read_graph(evidence)) == [("A", "B", 0.0), ("B", "C", 3.0)]
    assert [w.message.column for w in said if w.category is io.WeightColumnNote] == ["evidence"]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", io.WeightColumnNote)     # asked for: no note
        assert not io.read_graph(evidence, weights=False).weighted
        assert arcs(io.read_graph(evidence, weights="evidence")) == [("A", "B", 0.0), ("B", "C", 3.0)]
    text = write(tmp_path, "t.csv", "tf,target,kind\nA,B,pp\nB,C,pd\n")
    assert not io.read_graph(text).weighted                    # a third column of text: no weights
    named = write(tmp_path, "w.csv", "a,b,kind,Weight\nA,B,pp,0.5\nB,C,pd,3\n")
    assert arcs(io.read_graph(named)) == [("A", "B", 0.5), ("B", "C", 3.0)]     # any position
    assert arcs(io.read_graph(write(tmp_path, "n.tsv", "A\tB\t2\nB\tC\t3\n"))) == [
        ("A", "B", 2.0), ("B", "C", 3.0)]                       # no header: the layout src dst weight
    pq.write_table(pa.table({"a": ["A"], "b": ["B"], "evidence": [2.0]}), tmp_path / "e.parquet")
    with pytest.warns(io.WeightColumnNote, match="'evidence'"):
        assert arcs(io.read_graph(tmp_path / "e.parquet")) == [("A", "B", 2.0)]
    pq.write_table(pa.table({"a": ["A"], "b": ["B"], "kind": ["pp"]}), tmp_path / "k.parquet")
    assert not io.read_graph(tmp_path / "k.parquet").weighted
    pq.write_table(pa.table({"a": ["A"], "b": ["B"], "distance": [2.0]}), tmp_path / "d.parquet")
    assert io.read_graph(tmp_path / "d.parquet").weighted


def test_a_header_of_two_column_labels_is_detected_and_said(tmp_path):
    """"gene1 gene2" over columns of names: the number rule cannot see it."""
    path = write(tmp_path, "genes.tsv", "gene1\tgene2\nTP53\tMDM2\nMDM2\tATM\n")
    with pytest.warns(UserWarning, match=r"first line \(gene1, gene2\) is read as a header"):
        g = io.read_graph(path)
    assert g.names.tolist() == ["TP53", "MDM2", "ATM"] and g.num_edges == 2
    assert io.read_graph(path, header=False).num_edges == 3
    for first in ("source\ttarget", "Protein_A\tprotein_b", "from\tto"):
        with pytest.warns(UserWarning, match="read as a header"):
            assert io.read_graph(write(tmp_path, "h.tsv", first + "\nA\tB\nB\tC\n")).num_edges == 2
    # label-like words that are vertices elsewhere in the file make an edge
    edge = write(tmp_path, "e.tsv", "gene1\tgene2\ngene2\tgene3\n")
    assert io.read_graph(edge).num_edges == 2
    assert io.read_graph(write(tmp_path, "p.tsv", "TP53\tMDM2\nMDM2\tATM\n")).num_edges == 2


def test_cuRnet_2017_csv_from_to_score_gives_weighted_distances(tmp_path):
    """cuRnet 2017's README file (`from to score`, a header, abs() of the score): read by
    read_graph, the score is the length; distances equal SciPy's on the same weights."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra
    import curnet
    rng = np.random.default_rng(17)
    n = 40
    pairs = {(int(a), int(b)) for a, b in rng.integers(0, n, (200, 2)) if a != b}
    u, v = np.array(sorted(pairs)).T
    score = np.round(rng.uniform(0.01, 1, len(u)), 3)
    lines = ["from\tto\tscore"] + [f"g{a}\tg{b}\t{w}" for a, b, w in zip(u, v, score)]
    path = write(tmp_path, "my_file.tsv", "\n".join(lines) + "\n")
    with pytest.warns(io.WeightColumnNote, match="'score'"):
        g = io.read_graph(path)
    assert g.weighted
    pos = {name: i for i, name in enumerate(g.names.tolist())}
    at = [pos[f"g{i}"] for i in range(n) if f"g{i}" in pos]
    ids = np.array([int(name[1:]) for name in g.names.tolist()])
    want = dijkstra(csr_matrix((score, (u, v)), shape=(n, n)), indices=ids[:5])[:, ids]
    got = curnet.sssp_dists(g, np.arange(5), backend="cpu")
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    assert len(at) == len(g)


# SciPy's own Matrix Market examples (scipy/io/tests/test_mmio.py), and files scipy.io.mmwrite
# writes: cuRnet's vertices are mmread's 0-based positions, integer sources index them.
SCIPY_MTX_EXAMPLES = ["_general_example", "_symmetric_example", "_symmetric_pattern_example",
                      "_empty_lines_example", "_32bit_integer_sparse_example",
                      "_64bit_integer_sparse_general_example"]


def _same_as_csgraph(path):
    """read_graph(path) against scipy.io.mmread + csgraph, for sources [0, 1, 2] as ints."""
    import scipy.io
    from scipy.sparse import csgraph
    import curnet
    A = scipy.io.mmread(path)
    try:
        g = io.read_graph(path, dtype=np.float64)
    except GraphFormatError as e:      # an undirected negative edge: SciPy sees a negative cycle
        assert "negative weight" in str(e)
        with pytest.raises(csgraph.NegativeCycleError):
            csgraph.shortest_path(A, method="BF")
        return
    assert g.names is None and len(g) == A.shape[0]
    sources = [0, 1, 2][:len(g)]
    hops = curnet.bfs(g, sources, backend="cpu")
    want_hops = csgraph.shortest_path(A, unweighted=True, indices=sources)
    np.testing.assert_array_equal(np.where(hops < 0, np.inf, hops), want_hops)
    try:
        want = csgraph.shortest_path(A, method="BF", indices=sources)
    except csgraph.NegativeCycleError:
        with pytest.raises(curnet.NegativeCycleError):
            curnet.sssp(g, sources, backend="cpu")
        return
    dist, _ = curnet.sssp(g, sources, backend="cpu")
    np.testing.assert_allclose(dist, want, rtol=1e-12)
    np.testing.assert_allclose(curnet.sssp_dists(g, sources, backend="cpu"), want, rtol=1e-12)


@pytest.mark.parametrize("example", SCIPY_MTX_EXAMPLES)
def test_scipy_matrix_market_examples_index_as_mmread(tmp_path, example):
    mmio = pytest.importorskip("scipy.io.tests.test_mmio")
    _same_as_csgraph(write(tmp_path, "g.mtx", getattr(mmio, example)))


@pytest.mark.parametrize("symmetric", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mmwrite_files_index_as_mmread(tmp_path, seed, symmetric):
    import scipy.io
    import scipy.sparse as sp
    n = 30
    A = sp.random(n, n, density=0.08, random_state=seed, format="coo")
    A.data = np.round(A.data * 9 + 0.5, 3)
    if symmetric:
        A = sp.triu(A + A.T, k=1).tocoo()
        A = A + A.T
    path = tmp_path / "g.mtx"
    scipy.io.mmwrite(path, A, symmetry="symmetric" if symmetric else "general")
    _same_as_csgraph(path)


def test_dimacs_and_metis_vertices_are_positions(tmp_path):
    """DIMACS and METIS number vertices from 1: vertex k of the file is position k-1."""
    import curnet
    gr = write(tmp_path, "g.gr", "p sp 4 3\na 1 2 5\na 2 4 1\na 4 3 2\n")
    g = io.read_graph(gr, dtype=np.float64)
    assert g.names is None
    assert curnet.sssp_dists(g, [0, 1], backend="cpu").tolist() == [[0, 5, 8, 6], [np.inf, 0, 3, 1]]
    metis = write(tmp_path, "g.graph", "4 3\n2\n1 3\n2 4\n3\n")
    g = io.read_graph(metis)
    assert g.names is None
    assert curnet.bfs(g, [3], backend="cpu").tolist() == [[3, 2, 1, 0]]
