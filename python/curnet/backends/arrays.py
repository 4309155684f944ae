"""Helpers over whole arrays, written once for NumPy and CuPy (`xp`, the array module)."""
from __future__ import annotations

import numpy as np


def pred_has_cycle(xp, pred):
    """(k,) bool: row r's predecessor pointers contain a cycle (pointer doubling: after
    ceil(log2 n) + 1 squarings every acyclic chain has reached -1)."""
    anc = pred.astype(np.int32, copy=True)
    rows = xp.arange(pred.shape[0])[:, None]
    for _ in range(max(1, int(np.ceil(np.log2(max(pred.shape[1], 2))))) + 1):
        nxt = xp.where(anc >= 0, anc, 0)
        anc = xp.where(anc >= 0, anc[rows, nxt], -1)
    return (anc >= 0).any(axis=1)


def canonical_labels(labels: np.ndarray) -> np.ndarray:
    """Renumber any labelling so components are numbered in order of their smallest vertex."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), np.int32)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int32)
    return rank[inverse.ravel()]
