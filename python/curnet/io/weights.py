"""Which column holds the weights when the caller does not say.

The rule (one for R's data frames, files, Arrow tables and the `curnet` command, see
docs/ids.md): a column with a weight-like name (WEIGHT_NAMES, igraph's `weight` among them),
else the third column when it holds numbers, whatever its name, as cuRnet has read edge
lists since 2017 (`from to score`). A third column taken by its place, not its name, is said
in one line (WeightColumnNote), since a score or an evidence count then becomes a length."""
from __future__ import annotations


from ..columns import WEIGHT_NAMES
from ..errors import warn
from .errors import GraphFormatError


class WeightColumnNote(UserWarning):
    """A third column read as the weights by its place: the note names it (`column`), and
    R and the `curnet` command say it again in their own words."""

    def __init__(self, column, path=None):
        self.column = column
        super().__init__(f"column {column!r} read as the weights (the third column, as cuRnet "
                         f"reads an edge list); weights=False for hops, weights='name' for "
                         f"another column" + (f" ({path})" if path else ""))


def weight_named(names) -> int | None:
    """The index of the first column whose name is weight-like, or None."""
    return next((i for i, n in enumerate(names) if str(n).strip().lower() in WEIGHT_NAMES), None)


def _weight_spec(weights, num_columns: int, third_is_number, path=None, names=None):
    """The weight column: an explicit spec; for None/True, a weight-like column when the columns
    have names (`names`), else column 2 when it holds numbers (with a note naming it when it
    has a name), or for True column 2 in any case."""
    if weights is False:
        return None
    if weights is True and num_columns < 3:
        raise GraphFormatError(path, None, "weights=True but there is no third column")
    if weights is not None and weights is not True:
        return weights
    named = weight_named(names) if names is not None else None
    if named is not None:
        return named
    if num_columns < 3 or not (weights is True or third_is_number()):
        return None
    if names is not None and weights is None:
        warn(WeightColumnNote(str(names[2]), path), WeightColumnNote)
    return 2
