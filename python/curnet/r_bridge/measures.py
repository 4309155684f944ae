"""R's distance-based measures (R/measures.R): one of curnet.analyses.measures by name, its arrays
for R's vectors and its counts as R's numbers, in a Held."""
from __future__ import annotations

import numpy as np

from .handoff import Held, progress_hook
from .session import run_on


def measure(g, name, vertices=None, progress=None, backend="auto", **options) -> Held:
    """curnet.analyses.measures.`name` over 0-based `vertices` (R's Arrow ids; None: all vertices).
    The result is `value` (an array or a number), or `values` (a tuple's items); arrays and
    counts as doubles (counts of vertex pairs outgrow R's integers)."""
    from ..analyses import measures
    if name not in measures.__all__:
        raise ValueError(f"unknown measure {name!r}")
    if vertices is not None:
        options["vertices"] = vertices
    result = getattr(measures, name)(g, backend=run_on(backend, name), progress=progress_hook(progress),
                                     **options)

    def for_r(x):
        if isinstance(x, np.ndarray):
            return x.astype(np.float64, copy=False)
        return float(x) if isinstance(x, (int, np.integer)) and not isinstance(x, bool) else x
    if isinstance(result, tuple):
        return Held({"values": {str(i): for_r(x) for i, x in enumerate(result)}})
    return Held({"value": for_r(result)})
