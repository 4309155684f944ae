"""Brandes' sweeps over a batch's shortest-path DAGs: what both backends' sweeps share, the
block layout, when an arc is on a DAG (`on_path`) and the arc pieces of the GPU's tasks. The
NumPy twins (the reference) are in `cpu/brandes.py`, the kernels' launches in `cuda/brandes.py`.

A batch of kb sources is described by (n, kb) blocks, a vertex's sources together:

* ``level[v, j]``: v's level in source j's shortest-path DAG, -1 where v is not reached
  (int32; int8 for BFS levels below 127, as the driver narrows them). For
  BFS it is the hop depth; for weighted graphs the largest number of arcs on a shortest path
  from the source (`dag_levels`), so each DAG arc goes from a lower level to a higher one;
* ``dist[v, j]``: the distance (weighted graphs only, None for BFS);
* ``sigma[v, j]``: the number of shortest paths (float64: counts overflow integers);
* ``delta[v, j]``: the dependency of source j on v.

An arc u -> v (weight w) is on source j's DAG when both ends are reached and
  BFS:      level[v, j] == level[u, j] + 1,
  weighted: dist[u, j] + w equals dist[v, j] by igraph's relative-epsilon comparison
            (`on_path`), the sum taken in float64. Float64 graphs use igraph's epsilon
            (1e-10); float32 distances carry float32 rounding, so theirs is 2^-22 (a few
            float32 ulps). Integer weights (below 2^24) are exact either way.
Parallel arcs are distinct paths (igraph's count); self-loops are never on a shortest path.
"""
from __future__ import annotations

import numpy as np

# igraph's IGRAPH_SHORTEST_PATH_EPSILON: distances whose difference is below this fraction of
# the sum of their magnitudes are equal (igraph_cmp_epsilon in its core/math/utils.c).
TIE_EPSILON = 1e-10
# float32 distances (rounded once each from the solver's sums): a few float32 ulps
TIE_EPSILON_FLOAT32 = 2.0 ** -22


def tie_epsilon(dtype) -> float:
    return TIE_EPSILON if np.dtype(dtype) == np.float64 else TIE_EPSILON_FLOAT32


# Arcs a GPU thread scans for one (vertex, source) entry in a level sweep: a longer adjacency
# list (a hub: STRING has one of 9,289 arcs, R-MAT 20 ones of ~10^5) is cut into pieces of at
# most this many arcs, each a thread of its own, so no warp walks a hub's whole list serially.
ARC_PIECE = 256


def arc_pieces(ptr, size: int = ARC_PIECE):
    """The pieces of a CSR with offsets `ptr` (n + 1): (row int32, start int64), one piece per
    `size` arcs of each row (none for a row without arcs), in row order; piece i covers arcs
    start[i] .. min(start[i] + size, ptr[row[i] + 1]). The kernels of kernels/betweenness.cu
    run a thread per (piece, source)."""
    ptr = np.asarray(ptr, np.int64)
    deg = np.diff(ptr)
    count = (deg + size - 1) // size
    row = np.repeat(np.arange(len(deg), dtype=np.int32), count)
    first = np.cumsum(count) - count
    start = ptr[:-1][row] + (np.arange(len(row), dtype=np.int64) - first[row]) * size
    return row, start


def on_path(xp, reach, dist_v, eps=TIE_EPSILON):
    """Whether the length `reach` = dist[u] + w of a path through arc u -> v equals dist[v]:
    igraph's igraph_cmp_epsilon(reach, dist_v, eps) == 0 (dist_v = 0 never is: positive
    weights; an infinite one never is)."""
    with np.errstate(invalid="ignore"):
        return (reach == dist_v) | (xp.abs(reach - dist_v) < eps * (xp.abs(reach) + xp.abs(dist_v)))

