"""`curnet.pcsf`: one prize-collecting Steiner forest, the method's steps in a row, each
timed (`Forest.seconds`) and its work counted (`Forest.work`)."""
from __future__ import annotations

import time

import numpy as np

from ...work import count_work
from .host_steps import solve_run
from .inputs import paths_dtype
from .problem import Problem
from .results import Forest, make_forest
from .terminal_paths import paths_between_terminals


def pcsf(g, prizes, *, w=2.0, b=1.0, mu=0.0005, dummies=None, improve=True, backend="auto",
         progress=None, min_matched=0.05, duplicates="error", dtype=np.float64, precision=None) -> Forest:
    """The prize-collecting Steiner forest of `prizes` (terminal name -> value) on the
    undirected network `g` (named vertices, positive costs), by the PCSF package's method
    (see the package's notes). Terminals not in the network are left out (`unmatched`); an
    error if fewer than `min_matched` of them are in it. improve=False runs the package's
    method and gives its forest (see the package's notes for equal-cost shortest paths);
    improve=True (the default) then re-roots trees and spans the forest's vertices again over
    all the network's edges among them, each step kept only where it lowers the objective.
    Edges of cost 0 are taken; dummies outside the network are left out with a PCSFWarning,
    as PCSF() ignores them. A terminal named twice is an error
    unless duplicates="last" (its last prize, as the PCSF package reads them).
    dtype=np.float32 runs the shortest paths in float32 (see inputs.paths_dtype; precision="single",
    the earlier spelling, is deprecated)."""
    dtype = paths_dtype(dtype, precision)
    t0 = time.perf_counter()
    P = Problem(g, prizes, w, b, mu, dummies, min_matched, duplicates)
    t1 = time.perf_counter()
    with count_work() as work:
        D, H = paths_between_terminals(P, [P.cost + P.penalty], backend, progress, dtype)
    t2 = time.perf_counter()
    vertices, ef, et, ec, trees = solve_run(P, D[0], H[0], P.cost, improve)
    f = make_forest(P, vertices, ef, et, ec, trees)
    f.seconds = {"setup": t1 - t0, "paths": t2 - t1, "host": time.perf_counter() - t2}
    f.work = dict(work)
    return f
