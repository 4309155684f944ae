"""Arguments renamed so that a concept has one name (docs/design.md, "Names"): the earlier
spelling still works where users may have it, and says the new one."""
from __future__ import annotations

from .errors import warn


def renamed(old: str, new: str) -> None:
    """Warn that `old` is deprecated for `new` (DeprecationWarning, pointing at the caller of
    the function that took `old`)."""
    warn(f"{old} is deprecated; use {new}", DeprecationWarning)
