"""Which column holds the weights when the caller does not say."""
from __future__ import annotations

import warnings

from .errors import GraphFormatError


# Column names read as weights without being asked (case aside), as igraph reads `weight`: a
# third column of another name (an evidence count, a confidence score) is no length.
WEIGHT_NAMES = ("weight", "weights", "w", "distance", "dist", "length", "cost")


def weight_named(names) -> int | None:
    """The index of the first column whose name is weight-like, or None."""
    return next((i for i, n in enumerate(names) if str(n).strip().lower() in WEIGHT_NAMES), None)


def _weight_spec(weights, num_columns: int, third_is_number, path=None, names=None):
    """The weight column: an explicit spec; for None/True, a weight-like column when the columns
    have names (`names`), else column 2 when it holds numbers (the edge list's own layout)."""
    if weights is False:
        return None
    if weights is True and num_columns < 3:
        raise GraphFormatError(path, None, "weights=True but there is no third column")
    if weights is None or weights is True:
        if names is not None and num_columns > 2:
            named = weight_named(names)
            if named is not None or weights is True:
                return 2 if named is None else named
            if third_is_number():
                warnings.warn(f"column {names[2]!r} is not read as weights: only a weight-like name "
                              f"({', '.join(WEIGHT_NAMES)}) is; give weights={names[2]!r} to use it"
                              + (f" ({path})" if path else ""), stacklevel=5)
            return None
        return 2 if num_columns > 2 and (weights is True or third_is_number()) else None
    return weights
