"""R's adapters for Leiden and Louvain (R/leiden.R): cuRnet_cluster_leiden,
cuRnet_cluster_louvain and cuRnet_cluster_sweep over curnet.analyses.community_detection. Vectors
arrive as plain R vectors (reticulate), results go back as a Held (its arrays into vectors R
allocates; 0-based memberships, R adds 1)."""
from __future__ import annotations

import numpy as np

from .handoff import Held
from .session import run_on


def _vector(x, dtype):
    return None if x is None else np.asarray(x, dtype=dtype).ravel()


def _seed(seed):
    return None if seed is None else int(seed)


def leiden_for_r(g, objective="cpm", resolution=1.0, beta=0.01, initial=None, n_iterations=2,
                 vertex_weights=None, seed=None, backend="auto") -> Held:
    from ..analyses.community_detection.partitions import leiden, modularity
    p = leiden(g, objective=objective, resolution=float(resolution), beta=float(beta),
               n_iterations=int(n_iterations), initial=_vector(initial, np.float64),
               vertex_weights=_vector(vertex_weights, np.float64), seed=_seed(seed),
               backend=run_on(backend, "cluster_leiden"))
    q_mod = p.quality if objective == "modularity" and vertex_weights is None else \
        modularity(g, p.membership, backend="cpu")
    return Held({"membership": p.membership, "quality": p.quality, "modularity": q_mod})


def louvain_for_r(g, resolution=1.0, seed=None, backend="auto") -> Held:
    from ..analyses.community_detection.partitions import louvain
    p = louvain(g, resolution=float(resolution), seed=_seed(seed), backend=run_on(backend, "cluster_louvain"))
    return Held({"membership": p.membership, "quality": p.quality})


def sweep_for_r(g, method="leiden", objective="modularity", resolutions=(1.0,), seeds=(1,), beta=0.01,
                n_iterations=2, threshold=0.5, backend="auto") -> Held:
    from ..analyses.community_detection.partitions import leiden, louvain
    resolutions = [float(r) for r in np.atleast_1d(resolutions)]
    seeds = [int(s) for s in np.atleast_1d(seeds)]
    be = run_on(backend, "cluster_sweep")
    if method == "leiden":
        s = leiden(g, objective=objective, beta=float(beta), n_iterations=int(n_iterations),
                   resolutions=resolutions, seeds=seeds, backend=be)
    else:
        s = louvain(g, resolutions=resolutions, seeds=seeds, backend=be)
    consensus = s.consensus(threshold=float(threshold), seed=seeds[0], backend=be)
    profile = s.profile()
    return Held({"memberships": s.memberships.ravel(order="F"), "runs": int(s.memberships.shape[0]),
                 "quality": s.quality, "resolution": s.resolution,
                 "seed": np.asarray(s.seed, np.int32), "consensus": consensus.membership,
                 "consensus_modularity": consensus.quality,
                 "profile": profile})
