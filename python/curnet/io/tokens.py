"""The whitespace tokenizer of the line formats (SNAP, Matrix Market, DIMACS, METIS): fields per
line, numbers parsed in bulk, errors that name the line."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .cells import _first_failure, _first_nonfinite
from .errors import GraphFormatError


@dataclass
class _Rows:
    """The non-comment lines of a text file, split into whitespace-separated tokens."""
    path: str
    lines: np.ndarray   # 1-based line number of each row
    starts: np.ndarray  # row i's tokens are tokens[starts[i]:starts[i + 1]]
    tokens: pa.Array    # strings

    def __len__(self):
        return len(self.lines)

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.starts)

    def error(self, row, problem) -> GraphFormatError:
        return GraphFormatError(self.path, int(self.lines[row]), problem)

    def tail(self, k: int) -> "_Rows":
        return _Rows(self.path, self.lines[k:], self.starts[k:] - self.starts[k],
                     self.tokens.slice(self.starts[k]))

    def head(self, k: int) -> "_Rows":
        return _Rows(self.path, self.lines[:k], self.starts[:k + 1], self.tokens.slice(0, self.starts[k]))

    def require_counts(self, ok, expected: str):
        bad = np.flatnonzero(~ok(self.counts))
        if len(bad):
            r = bad[0]
            raise self.error(r, f"expected {expected}, got {self.counts[r]} field(s)")

    def field(self, j) -> pa.Array:
        """Field j (as text) of every row; rows must have more than j fields."""
        return self.tokens.take(pa.array(self.starts[:-1] + j, pa.int64()))

    def text(self, row, j) -> str:
        return self.tokens[int(self.starts[row]) + j].as_py()

    def numbers(self, token_index, typ, what) -> np.ndarray:
        """Tokens at `token_index` as NumPy numbers; a bad one raises naming its line."""
        col = self.tokens.take(pa.array(token_index, pa.int64()))
        try:
            out = pc.cast(col, typ).to_numpy()
        except pa.ArrowInvalid:
            i = _first_failure(col, typ)
            kind = "an integer" if pa.types.is_integer(typ) else "a number"
            raise self.error(self.row_of(token_index[i]), f"{what} {col[i].as_py()!r} is not {kind}") from None
        bad = _first_nonfinite(out) if out.dtype.kind == "f" else None
        if bad is not None:
            raise self.error(self.row_of(token_index[bad]), f"{what} {col[bad].as_py()!r} is not finite")
        return out

    def column(self, j, typ, what) -> np.ndarray:
        return self.numbers(self.starts[:-1] + j, typ, what)

    def row_of(self, token: int) -> int:
        return int(np.searchsorted(self.starts, token, side="right") - 1)

    def ids(self, j, n, what) -> np.ndarray:
        """1-based vertex ids in field j, checked against 1..n, as 0-based int64."""
        return self.check_ids(self.column(j, pa.int64(), what), n, what, np.arange(len(self)))

    def check_ids(self, ids, n, what, rows) -> np.ndarray:
        bad = np.flatnonzero((ids < 1) | (ids > n))
        if len(bad):
            i = bad[0]
            raise self.error(rows[i], f"{what} {ids[i]} is outside 1..{n}")
        return ids - 1


def _rows(data: bytes, path: str, comments, keep_empty=False) -> _Rows:
    """Split the text into lines and tokens with Arrow kernels; drop comment (and blank) lines."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    raw = pa.array(lines, pa.binary())
    try:
        text = raw.cast(pa.string())
    except pa.ArrowInvalid:
        raise GraphFormatError(path, _first_failure(raw, pa.string()) + 1, "not valid UTF-8 text") from None
    text = pc.ascii_trim_whitespace(text)
    nonempty = pc.greater(pc.binary_length(text), 0)
    is_comment = pa.array(np.zeros(len(text), bool))
    for prefix in comments:
        is_comment = pc.or_(is_comment, pc.starts_with(text, prefix))
    keep = pc.invert(is_comment) if keep_empty else pc.and_(nonempty, pc.invert(is_comment))
    kept_nonempty = nonempty.filter(keep).to_numpy(zero_copy_only=False)
    split = pc.ascii_split_whitespace(text.filter(keep).filter(kept_nonempty))
    counts = np.zeros(len(kept_nonempty), np.int64)
    counts[kept_nonempty] = pc.list_value_length(split).to_numpy()
    starts = np.concatenate([[0], np.cumsum(counts)])
    line_numbers = np.flatnonzero(keep.to_numpy(zero_copy_only=False)) + 1
    return _Rows(path, line_numbers, starts, pc.list_flatten(split))
