"""Exceptions cuRnet raises beyond the built-in ValueError and TypeError, and `warn`, the one
way it warns."""
from __future__ import annotations

import os
import sys
from types import FrameType
import warnings

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message, category: type[Warning] = UserWarning) -> None:
    """warnings.warn pointing at the first caller outside cuRnet (the user's line), however
    many of the engine's calls lie between (a fixed stacklevel breaks when a route moves)."""
    frame: FrameType | None = sys._getframe(1)
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


class NegativeCycleError(ValueError):
    """A negative-weight cycle is reachable from a source, so shortest paths are undefined."""

    def __init__(self, source, source_name=None):
        self.source = int(source)
        self.source_name = source_name
        who = f"source {self.source}" + (f" ({source_name!r})" if source_name is not None else "")
        super().__init__(f"a negative-weight cycle is reachable from {who}: "
                         "shortest paths from it are undefined")

    def __reduce__(self):
        # pickled by its fields (it crosses processes on a Dask cluster), not by its message
        return type(self), (self.source, self.source_name)


class BackendUnavailableError(RuntimeError):
    """The backend asked for cannot run on this machine (e.g. backend='cuda' without a GPU)."""


class OutputTooLargeError(MemoryError):
    """A result would not fit in host memory; raised before allocating it."""
