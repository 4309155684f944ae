"""Progress reporting for many-source jobs: a bar on stderr, or the caller's callback."""
from __future__ import annotations

import sys
import time


class Progress:
    """`progress` is None (a bar on a terminal once a job runs past two seconds), False, True,
    or a callable(done, total) called after each batch."""

    def __init__(self, progress, total: int, label: str):
        self.total, self.label, self.done = total, label, 0
        self.callback = progress if callable(progress) else None
        self.bar = progress is True or (progress is None and sys.stderr.isatty())
        self.forced = progress is True
        self.start = time.perf_counter()

    def update(self, n: int) -> None:
        self.done += n
        if self.callback is not None:
            self.callback(self.done, self.total)
        elif self.bar and (self.forced or time.perf_counter() - self.start > 2.0):
            self._draw()

    def _draw(self) -> None:
        frac = self.done / max(self.total, 1)
        filled = int(30 * frac)
        elapsed = time.perf_counter() - self.start
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] "
                         f"{self.done}/{self.total} sources, {elapsed:.1f} s")
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()
