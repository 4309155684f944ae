"""Module labels as WGCNA names them: its standard colours and `labels2colors`."""
from __future__ import annotations

import numpy as np

#: WGCNA's standard colours, first 34 (its labels2colors continues with R's named colours)
STANDARD_COLORS = (
    "turquoise", "blue", "brown", "yellow", "green", "red", "black", "pink", "magenta", "purple",
    "greenyellow", "tan", "salmon", "cyan", "midnightblue", "lightcyan", "grey60", "lightgreen",
    "lightyellow", "royalblue", "darkred", "darkgreen", "darkturquoise", "darkgrey", "orange",
    "darkorange", "white", "skyblue", "saddlebrown", "steelblue", "paleturquoise", "violet",
    "darkolivegreen", "darkmagenta")
GREY = "grey"


def labels2colors(labels, color_seq=STANDARD_COLORS) -> np.ndarray:
    """WGCNA's labels2colors for numeric labels: 0 grey, k the k-th colour (beyond the
    sequence: the sequence again with ".1", ".2", ...)."""
    labels = np.asarray(labels, dtype=np.int64)
    top = int(labels.max(initial=0))
    seq = list(color_seq)
    rep = 1
    while len(seq) < top:
        seq += [f"{c}.{rep}" for c in color_seq]
        rep += 1
    return np.array([GREY if v == 0 else seq[v - 1] for v in labels], dtype=object)
