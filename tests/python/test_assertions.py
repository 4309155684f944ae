"""A guard on the tests themselves: an assertion whose two sides both read a field that may be
missing (`a.get(k) == b.get(k)`, `getattr(a, k, None) == getattr(b, k, None)`) compares None
with None when neither has it, and passes whatever the results. (The R suite's guard:
tests/testthat/test-assertions.R.)"""
from __future__ import annotations

import re
from pathlib import Path

MAYBE_MISSING = r"(\.get\([^()]*\)|getattr\([^()]*,\s*None\))"
BOTH_SIDES_MAYBE_MISSING = re.compile(rf"\bassert\b.*{MAYBE_MISSING}\s*==\s*[\w.\[\]\"']*{MAYBE_MISSING}")


def test_the_scan_finds_a_comparison_of_two_maybe_missing_fields():
    assert BOTH_SIDES_MAYBE_MISSING.search('    assert got.get("merges") == want.get("merges")')
    assert BOTH_SIDES_MAYBE_MISSING.search("    assert getattr(a, f, None) == getattr(b, f, None)")
    assert not BOTH_SIDES_MAYBE_MISSING.search('    assert got["merges"] == want["merges"]')
    assert not BOTH_SIDES_MAYBE_MISSING.search("    assert got.get(k) == 3")


def test_no_test_compares_two_maybe_missing_fields():
    here = Path(__file__).resolve()
    files = [f for f in here.parent.glob("test_*.py") if f != here]
    assert len(files) > 10
    hits = [f"{f.name}:{i}: {line.strip()}" for f in files
            for i, line in enumerate(f.read_text().splitlines(), 1) if BOTH_SIDES_MAYBE_MISSING.search(line)]
    assert hits == [], "\n".join(hits)
