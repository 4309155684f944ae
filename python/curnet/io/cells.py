"""Finding the first bad value of a column (for an error that names its line)."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def _first_nonfinite(values: np.ndarray):
    bad = np.flatnonzero(~np.isfinite(values))
    return int(bad[0]) if len(bad) else None


def _first_failure(arr, typ) -> int:
    """Index of the first element that does not cast to `typ` (some element is known not to)."""
    lo, hi = 0, len(arr)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            pc.cast(arr.slice(lo, mid - lo), typ)
            lo = mid
        except pa.ArrowInvalid:
            hi = mid
    return lo
