"""The error a malformed graph file raises."""
from __future__ import annotations


class GraphFormatError(ValueError):
    """A file that breaks its format; the message names the file and, where known, the line."""

    def __init__(self, path, line, problem):
        self.path, self.line, self.problem = str(path), line, problem
        where = self.path if line is None else f"{self.path}, line {line}"
        super().__init__(f"{where}: {problem}")

    def __reduce__(self):
        return type(self), (self.path, self.line, self.problem)
