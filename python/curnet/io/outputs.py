"""Tables written a piece at a time: TSV or Parquet (one or more row groups a piece), so a
result larger than host memory streams to disk, and Ctrl-C leaves a valid file."""
from __future__ import annotations

import contextlib
from typing import Any
import os
import signal
import threading

import numpy as np
import pyarrow as pa

FORMATS = (".parquet", ".tsv", ".txt")


def check_path(path: str) -> None:
    """The one check of an --out file, made before any work: a known format, in an existing
    directory this process can write (an hour's run must not end in a failed open)."""
    path = str(path)
    if not path.endswith(FORMATS):
        raise ValueError(f"--out must end in .tsv, .txt or .parquet, got {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--out {path!r}: no directory {folder!r}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"--out {path!r}: directory {folder!r} is not writable")


def write_stdout(table: pa.Table) -> None:
    """A table as TSV on stdout (a command's result without --out), header first."""
    import sys

    import pyarrow.csv as pc
    sys.stdout.write("\t".join(table.column_names) + "\n")
    sys.stdout.flush()
    pc.write_csv(table, sys.stdout.buffer, pc.WriteOptions(delimiter="\t", quoting_style="none",
                                                           include_header=False))
    sys.stdout.buffer.flush()


def write_table(table: pa.Table, out) -> None:
    """A command's result: to `out` (TSV or Parquet, see TableWriter), or TSV on stdout."""
    import sys
    if not out:
        write_stdout(table)
        return
    with TableWriter(out) as w:
        w.write(table)
    print(f"wrote {w.rows:,} rows to {out}", file=sys.stderr)


class TableWriter:
    """Appends pyarrow tables (one schema) to `path`; `close()` finishes the file (the
    Parquet footer). Used as a context manager, the file is finished on any exit."""

    def __init__(self, path: str):
        check_path(path)
        self.path, self.rows = str(path), 0
        self._sink: Any = None        # a ParquetWriter or a binary file, opened at the first write
        self._parquet = self.path.endswith(".parquet")

    def write(self, table: pa.Table) -> None:
        if self._sink is None:
            if self._parquet:
                import pyarrow.parquet as pq
                self._sink = pq.ParquetWriter(self.path, table.schema)
            else:
                self._sink = open(self.path, "wb")   # pyarrow quotes header names; write them plainly
                self._sink.write(("\t".join(table.column_names) + "\n").encode())
        if self._parquet:
            self._sink.write_table(table)
        else:
            import pyarrow.csv as pc
            pc.write_csv(table, self._sink, pc.WriteOptions(delimiter="\t", quoting_style="none",
                                                            include_header=False))
            self._sink.flush()
        self.rows += table.num_rows

    def close(self) -> None:
        if self._sink is not None:
            self._sink.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def long_columns(g, ids, values, pred, kind) -> dict:
    """The one long format of a traversal's result block (rows: the sources `ids`): one row per
    reachable (source, target) pair, vertices by name where the graph has names, else as int32
    ids; the value column named `bfs` or `sssp` (`kind` "bfs", "sssp" or "sssp_dists"), and
    with `pred` a `predecessor` column (names or ids, as the others; null for a source)."""
    reached = values >= 0 if kind == "bfs" else np.isfinite(values)
    r, v = np.nonzero(reached)
    label = (lambda x: g.names[x]) if g.names is not None else (lambda x: x)
    cols = {"source": label(ids[r]), "target": label(v.astype(np.int32)),
            ("bfs" if kind == "bfs" else "sssp"): values[r, v]}
    if pred is not None:
        p = pred[r, v]
        cols["predecessor"] = pa.array(label(np.maximum(p, 0)), mask=p < 0)
    return cols


def to_table(cols: dict) -> pa.Table:
    return pa.table({k: v if isinstance(v, pa.Array) else np.asarray(v) for k, v in cols.items()})


@contextlib.contextmanager
def interrupts_between_writes():
    """Ctrl-C as usual, except while a piece is being written: then it is held until the
    piece is complete (so the file ends on a whole row group). Yields a context manager to
    wrap each write in. Outside the main thread (no signal handlers there) it does nothing."""
    state = {"writing": False, "pending": False}

    @contextlib.contextmanager
    def writing():
        state["writing"] = True
        try:
            yield
        finally:
            state["writing"] = False
        if state["pending"]:
            state["pending"] = False
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield contextlib.nullcontext
        return

    def handler(signum, frame):
        if state["writing"]:
            state["pending"] = True
        else:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield writing
    finally:
        signal.signal(signal.SIGINT, previous)
