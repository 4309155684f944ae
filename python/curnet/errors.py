"""Exceptions cuRnet raises beyond the built-in ValueError and TypeError."""


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
