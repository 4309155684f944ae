"""Warnings raised in the engine while R runs a call, kept for R to raise as R warnings.

R's engine_call opens a record before the call (`begin`) and takes it after (`end`): every
warning of the call, NumPy's RuntimeWarnings and the engine's own categories alike, comes
back as (category, message) pairs instead of being printed by Python to the console, where
R's suppressWarnings() and tryCatch() cannot reach it. Records nest (an engine call made
from an R callback inside another keeps its own)."""
from __future__ import annotations

import warnings

_records: list = []


def begin() -> None:
    """Start recording the warnings of one engine call, every one of them (none is shown once
    and then filtered out, as Python's default filters do)."""
    record = warnings.catch_warnings(record=True)
    caught = record.__enter__()
    warnings.simplefilter("always")
    _records.append((record, caught))


def end() -> list:
    """Stop the innermost record: its warnings as [category name, message] pairs, in order."""
    if not _records:
        return []
    record, caught = _records.pop()
    record.__exit__(None, None, None)
    return [[w.category.__name__, str(w.message)] for w in caught]
