"""The Leiden tests' inputs (test_leiden.py, test_leiden_gpu.py): random levels and the
partitions a level's local moving and refinement start from."""
from __future__ import annotations

import numpy as np

from curnet.backends.partitions import community_sums, quality_of


def level_quality(lg, labels, vsize, gamma: float) -> float:
    """2m times the quality of `labels` on level lg (NumPy arrays), from the live sums."""
    inner, total, _, _ = community_sums(np, lg, labels, vsize, lg.n)
    return quality_of(inner, total, gamma)
