"""The networks the analyses share, read where a GPU machine without network finds them:
scNET from the checkout's .data/H_sapiens.net (else curnet.datasets' cache), PCSF's STRING
from shared/pcsf (in the checkout, beside it, or /work/shared)."""
from __future__ import annotations

import os

import numpy as np

from curnet.graph import Graph

from .rows import REPO

ROOT = str(REPO)
SCNET_FILE = os.path.join(ROOT, ".data", "H_sapiens.net")


def load_scnet(weighted: bool = True, dtype=np.float64) -> Graph:
    """scNET, weights 1 - score + 1e-6 (the distance of a scored edge) or none."""
    if os.path.exists(SCNET_FILE):
        import pyarrow.csv as pv
        t = pv.read_csv(SCNET_FILE, read_options=pv.ReadOptions(column_names=["a", "b", "s", "z"]),
                        parse_options=pv.ParseOptions(delimiter="\t"))
        w = (1.0 - t["s"].to_numpy() + 1e-6).astype(dtype) if weighted else None
        return Graph.from_edges(t["a"].to_numpy().astype(str), t["b"].to_numpy().astype(str), w,
                                directed=False, dtype=dtype)
    from curnet import datasets
    return datasets.load("scnet", weights="distance" if weighted else None, dtype=dtype)


def string_file() -> str:
    """PCSF's STRING: shared/ in the checkout (a GPU machine's copy) or beside it."""
    for base in (os.path.join(ROOT, "shared"), os.path.join(ROOT, "..", "shared"), "/work/shared"):
        path = os.path.join(base, "pcsf", "string_pcsf.tsv.gz")
        if os.path.exists(path):
            return path
    return os.path.join(ROOT, "..", "shared", "pcsf", "string_pcsf.tsv.gz")


def load_string(path: str):
    """STRING as PCSF's construct_interactome builds it (undirected, simplified, the smallest
    cost of repeated pairs): (python-igraph Graph with a `cost` edge attribute, curnet Graph)."""
    import igraph as ig
    import pandas as pd
    t = pd.read_csv(path, sep="\t")
    names, ids = np.unique(np.r_[t["from"].astype(str), t["to"].astype(str)], return_inverse=True)
    m = len(t)
    G = ig.Graph(n=len(names), edges=np.c_[ids[:m], ids[m:]].tolist(), directed=False)
    G.es["cost"] = t["cost"].astype(float).tolist()
    G.simplify(multiple=True, loops=True, combine_edges="min")
    G.vs["name"] = names.tolist()
    e = np.array(G.get_edgelist())
    g = Graph.from_edges(e[:, 0], e[:, 1], G.es["cost"], directed=False, num_vertices=G.vcount(),
                         names=names, dtype=np.float64)
    return G, g
