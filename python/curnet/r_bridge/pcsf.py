"""R's prize-collecting Steiner forests (R/pcsf.R): cuRnet_pcsf and cuRnet_pcsf_rand on the
engine graph of R's igraph interactome (the one igraph conversion every cuRnet function
uses, R/igraph.R), the forest's tables as a Held."""
from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from ..graph import Graph
from .handoff import Held, progress_hook
from .session import run_on


def _strings(x) -> np.ndarray:
    """R's character vector: a list of str, or a str when of length one."""
    return np.atleast_1d(np.asarray(x, dtype=str))


def with_names(g: Graph, names: np.ndarray) -> Graph:
    """`g` with R's vertex names (R keeps a graph's names; the forest matches terminals and
    names its vertices by them): the same arrays, kept with `g` under the names' digest, so
    that R's interactome keeps one named graph and its device copy from call to call."""
    digest = hashlib.blake2b("\0".join(names.tolist()).encode(), digest_size=20).hexdigest()
    return g.cache(("names", digest), lambda: Graph(
        g.indptr, g.indices, g.weights, directed=g.directed, names=names, num_edges=g.num_edges,
        arc_edges=g.arc_edges))


def pcsf_for_r(g, vertex_names, terminals, prizes, w, b, mu, dummies=None, runs=None, noise=0.1,
               seed=None, progress=None, backend="auto", improve=True, dtype="float64") -> Held:
    """The interactome's engine graph and its vertex names, the terminals' names and prizes;
    runs=None is one forest (vertex name, prize, type; edges from, to, cost; objective,
    trees), else `runs` noisy runs' union (vertex and edge counts) with each run's objective."""
    from ..analyses.steiner_forest import pcsf, pcsf_rand
    g = with_names(g, _strings(vertex_names))
    prizes = (_strings(terminals).tolist(), np.atleast_1d(np.asarray(prizes, dtype=np.float64)))
    options = dict(w=float(w), b=float(b), mu=float(mu),
                   dummies=None if dummies is None else _strings(dummies).tolist(),
                   improve=bool(improve), dtype=dtype,
                   backend=run_on(backend, "pcsf"),
                   progress=progress_hook(progress), duplicates="last")
    done: Any
    if runs is None:
        done = f = pcsf(g, prizes, **options)
        out = {"vertices": f.vertex_table(), "edges": f.edge_table(), "objective": f.objective,
               "objective_terms": f.objective_terms, "trees": f.trees}
    else:
        done = u = pcsf_rand(g, prizes, runs=int(runs), noise=float(noise),
                             seed=None if seed is None else int(seed), **options)
        out = {"vertices": u.vertex_table(), "edges": u.edge_table(),
               "objectives": np.asarray(u.objectives, dtype=np.float64), "runs": u.runs}
    out.update(matched=done.matched, unmatched=done.unmatched,
               seconds={k: float(v) for k, v in done.seconds.items()},
               work={k: float(v) for k, v in done.work.items()})
    return Held(out)
