"""PCSF's results: `Forest` (one forest, `curnet.pcsf`), `ForestUnion` (the union of
`pcsf_rand`'s runs), and `make_forest`, the Forest of one run's kept vertices and edges."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .problem import Problem


TERMINAL, STEINER = "Terminal", "Steiner"


@dataclass
class Forest:
    """One prize-collecting Steiner forest. Vertices are network ids (`names` their names);
    `prize` is each vertex's prize as the method uses it (b x value for terminals, the hub
    penalty -mu x degree for Steiner vertices); edges carry their network cost. A terminal
    whose prize pays for its root edge alone is a tree of one vertex and no edge."""
    vertices: np.ndarray
    names: np.ndarray
    prize: np.ndarray
    type: np.ndarray
    edge_from: np.ndarray
    edge_to: np.ndarray
    edge_cost: np.ndarray
    trees: int                 # trees of one terminal (no edge) included
    objective: float           # the sum of objective_terms
    objective_terms: dict = field(default_factory=dict)   # see Problem.objective_terms
    matched: int = 0
    unmatched: list = field(default_factory=list)
    # where the call's time went: "setup" (checks, prizes, costs), "paths" (the batched
    # shortest paths and their hand-off), "host" (clustering, trees, pruning, improving; in
    # pcsf_rand the part left after the last call's paths, the rest ran beside them)
    seconds: dict = field(default_factory=dict)
    # the engine's counted work in the call (curnet.work): which shortest-path route ran
    work: dict = field(default_factory=dict)

    def vertex_table(self) -> dict:
        return {"name": self.names, "prize": self.prize, "type": self.type}

    def edge_table(self) -> dict:
        return {"from": self.names_of(self.edge_from), "to": self.names_of(self.edge_to),
                "cost": self.edge_cost}

    def names_of(self, ids) -> np.ndarray:
        return names_at(self.vertices, self.names, ids)


@dataclass
class ForestUnion:
    """The union of `runs` forests (pcsf_rand): each vertex's and edge's count of runs."""
    vertices: np.ndarray
    names: np.ndarray
    type: np.ndarray
    count: np.ndarray
    edge_from: np.ndarray
    edge_to: np.ndarray
    edge_count: np.ndarray
    runs: int
    objectives: np.ndarray     # each run's objective under its own perturbed costs
    forests: list              # each run's Forest
    matched: int = 0
    unmatched: list = field(default_factory=list)
    seconds: dict = field(default_factory=dict)   # as Forest's, over all runs
    work: dict = field(default_factory=dict)      # as Forest's, over all runs

    def vertex_table(self) -> dict:
        return {"name": self.names, "count": self.count, "type": self.type}

    def edge_table(self) -> dict:
        return {"from": names_at(self.vertices, self.names, self.edge_from),
                "to": names_at(self.vertices, self.names, self.edge_to), "count": self.edge_count}


def names_at(vertices, names, ids) -> np.ndarray:
    """The names of `ids`, each one of the sorted `vertices` that `names` names."""
    return names[np.searchsorted(vertices, np.asarray(ids, dtype=np.int64))]


def make_forest(P: Problem, vertices, e_from, e_to, e_cost, trees) -> Forest:
    order = np.argsort(vertices)
    vertices = vertices[order]
    terms = P.objective_terms(vertices, e_cost, trees)
    return Forest(vertices=vertices, names=P.g.names[vertices], prize=P.prize[vertices],
                  type=np.where(P.is_terminal[vertices], TERMINAL, STEINER),
                  edge_from=e_from, edge_to=e_to, edge_cost=e_cost, trees=trees,
                  objective=float(sum(terms.values())),
                  objective_terms=terms, matched=P.matched, unmatched=P.unmatched)
