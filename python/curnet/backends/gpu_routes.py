"""Which shortest-path route a GPU batch takes, decided from the graph's facts alone.

Free of CuPy, so the CPU tests check the decisions; the CUDA backend's `sssp_method` asks
`near_far_suits` (backends/cuda/near_far.py runs the route)."""
from __future__ import annotations

import numpy as np


def near_far_suits(weight_dtype, min_weight: float, n: int, m: int, kb: int, with_pred: bool,
                   max_sources: int) -> bool:
    """Near-far for a batch of kb sources: non-negative weights, at most max_sources sources,
    a queue entry r * n + v within 32-bit counts. float64 (R's numbers) keeps the distance in
    one 64-bit word and finds predecessors after the distances (zero weights included);
    float32 packs (distance, predecessor) in one word, where a zero weight's ties need
    Bellman-Ford's deterministic Jacobi rounds, so predecessors want positive weights there.
    Negative weights (a cycle search needs Bellman-Ford's rounds) never take near-far."""
    if m == 0 or kb > max_sources or kb * n >= 2**31 or not min_weight >= 0:
        return False
    dtype = np.dtype(weight_dtype)
    if dtype == np.float64:
        return True
    if dtype == np.float32:
        return min_weight > 0 if with_pred else True
    return False
