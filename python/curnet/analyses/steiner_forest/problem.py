"""Step 1 of the method: the instance as it sees it (`Problem`): node prizes and hub
penalties, the dummy root (id n) joined to the terminals or the dummies, the terminals in the
package's order, the original and adjusted edge costs, the rooted network's CSR and the graph
of a call's runs side by side (`Problem.run_graph`), and the objective."""
from __future__ import annotations


import numpy as np
from scipy import sparse

from ...errors import warn
from ...graph import Graph
from .inputs import PCSFWarning, check_network, prize_table, quoted


class Problem:
    """The instance as the method sees it: node prizes, the dummy root (id n), the terminals
    in the package's order, the original and adjusted edge costs."""

    def __init__(self, g, prizes, w, b, mu, dummies, min_matched, duplicates="error"):
        for name, v, ok in (("w", w, w > 0), ("b", b, b > 0), ("mu", mu, mu >= 0)):
            if not np.isfinite(v) or not ok:
                raise ValueError(f"{name} = {v}: w and b must be positive, mu non-negative")
        self.g = g
        self.w, self.b, self.mu = float(w), float(b), float(mu)
        src, dst, cost = check_network(g)
        names, values = prize_table(prizes, duplicates)
        index = g.name_index()
        found = np.array([s in index for s in names.tolist()])
        self.unmatched = names[~found].tolist()
        self.matched = int(found.sum())
        if self.matched == 0:
            raise ValueError(f"none of the {len(names)} terminals is a vertex of the network "
                             f"(first: {', '.join(map(repr, names[:3].tolist()))}): check the names")
        if self.matched < min_matched * len(names):
            raise ValueError(f"only {self.matched} of {len(names)} terminals "
                             f"({100 * self.matched / len(names):.3g}%) are in the network: check the names")
        n = len(g)
        self.n, self.root = n, n
        term_ids = np.array([index[s] for s in names[found].tolist()], dtype=np.int64)
        degree = g.out_degree().astype(np.float64)
        c = np.append(-self.mu * degree, 0.0)
        c[term_ids] = self.b * values[found]
        self.prize = c
        self.is_terminal = np.zeros(n + 1, bool)
        self.is_terminal[term_ids] = True

        if dummies is None:
            dummy_ids = term_ids
        else:
            dnames = list(dict.fromkeys(str(s) for s in dummies))       # a repeat is one root edge
            if len(dnames) == 0:
                raise ValueError("dummies is empty: give None to join the root to the terminals")
            missing = [s for s in dnames if s not in index]
            if len(missing) == len(dnames):
                raise ValueError("none of the dummies is in the network (first: "
                                 f"{', '.join(map(quoted, missing[:3]))}): the root would reach no vertex")
            if missing:
                # PCSF() joins the root to such a name, a vertex of no other edge: it changes nothing
                warn(f"{len(missing)} of {len(dnames)} dummies are not in the network and are left out, "
                              f"as PCSF() does: {', '.join(map(quoted, missing[:5]))}"
                              + (f" and {len(missing) - 5} more" if len(missing) > 5 else ""),
                              PCSFWarning)
            dummy_ids = np.array([index[s] for s in dnames if s in index], dtype=np.int64)
        self.dummies = dummy_ids
        self.is_dummy = np.zeros(n + 1, bool)
        self.is_dummy[dummy_ids] = True

        # the package's vertex order (its tie-breaks follow it): the root, the dummies, then
        # the network's vertices as its edge list first names them
        rank = g.cache("pcsf: first appearances", lambda: _first_appearances(src, dst, n)) + len(dummy_ids)
        rank[dummy_ids] = np.arange(len(dummy_ids))
        self.terminals = term_ids[np.argsort(rank[term_ids], kind="stable")]

        # edges: the network's, then the root edges (cost w); ids index `self.cost`
        self.src = np.concatenate([src, np.full(len(dummy_ids), n)])
        self.dst = np.concatenate([dst, dummy_ids])
        self.cost = np.concatenate([cost, np.full(len(dummy_ids), self.w)])
        self.num_network_edges = len(src)
        neg = np.minimum(c, 0.0)
        self.penalty = np.abs(neg[self.src] + neg[self.dst])
        self.indptr, self.indices, self.arc_edge = _rooted_csr(g, dummy_ids, len(src))
        # (u, v) -> edge id + 1, both orientations: the rooted CSR itself
        self.edge_id = sparse.csr_matrix((self.arc_edge + 1, self.indices, self.indptr), shape=(n + 1, n + 1),
                                         copy=True)
        self.edge_id.sort_indices()

    def run_graph(self, run_costs, dtype) -> Graph:
        """The graph of the runs' shortest paths: one copy of the rooted network per run (run
        r's vertices are r x (n + 1) + v), arc weights from the run's adjusted costs (edge
        ids as `self.cost`). Tiled from the rooted CSR: no sort of the runs' arcs."""
        R, N, A, M = len(run_costs), self.n + 1, len(self.indices), len(self.cost)
        if R * N > np.iinfo(np.int32).max or R * A > np.iinfo(np.int32).max:
            raise ValueError(f"{R} runs of a network of {N:,} vertices and {A:,} arcs do not fit one "
                             "shortest-path call (int32 ids): give runs_per_call")
        starts = (np.arange(R, dtype=np.int64) * A)[:, None] + self.indptr[None, :-1]
        indptr = np.append(starts.ravel(), R * A).astype(np.int32)
        indices = (self.indices[None, :] + (np.arange(R, dtype=np.int32) * N)[:, None]).ravel()
        weights = np.stack([np.asarray(c, dtype)[self.arc_edge] for c in run_costs]).ravel()
        return Graph(indptr, indices, weights, directed=False, num_edges=R * M)

    def lookup(self, u, v) -> np.ndarray:
        """Edge ids of the vertex pairs (u[i], v[i]), all of which are edges."""
        if len(u) == 0:
            return np.zeros(0, np.int64)
        return np.asarray(self.edge_id[u, v]).ravel().astype(np.int64) - 1

    def objective(self, vertices, edge_cost, trees) -> float:
        """Edge costs + w x trees + lost terminal prizes + the hub penalties of the Steiner
        vertices in the forest (the sum of objective_terms)."""
        return float(sum(self.objective_terms(vertices, edge_cost, trees).values()))

    def objective_terms(self, vertices, edge_cost, trees) -> dict:
        """The objective's parts: "edges" (their costs), "trees" (w x trees, trees of one
        terminal included), "lost_prizes" (of the terminals left out), "hub_penalties" (mu x
        degree of the Steiner vertices in the forest)."""
        inside = np.zeros(self.n + 1, bool)
        inside[vertices] = True
        c = self.prize[:-1]
        return {"edges": float(np.sum(edge_cost)), "trees": self.w * trees,
                "lost_prizes": float(c[self.is_terminal[:-1] & ~inside[:-1]].sum()),
                "hub_penalties": float(-c[~self.is_terminal[:-1] & inside[:-1]].sum())}


def _first_appearances(src, dst, n):
    """Each vertex's first position in the edge list (src[0], dst[0], src[1], ...), vertices
    on no edge after all the others in id order."""
    ends = np.column_stack([src, dst]).ravel()
    first = np.full(n, len(ends), dtype=np.int64)
    np.minimum.at(first, ends, np.arange(len(ends)))
    return np.where(first < len(ends), first, len(ends) + np.arange(n))


def _rooted_csr(g: Graph, dummies, m):
    """The CSR (indptr, indices, arc's edge id) of the network plus the dummy root (vertex n)
    joined to each dummy by edge m + i, laid out as Graph.from_edges lays out the network's
    edges followed by the root edges: each dummy's row ends with its root arc, the root's
    row lists the dummies in order. Made by shifting the network's arcs (no sort)."""
    n = len(g)
    deg = np.diff(g.indptr).astype(np.int64)
    grown = deg.copy()
    grown[dummies] += 1
    indptr = np.zeros(n + 2, np.int64)
    np.cumsum(np.append(grown, len(dummies)), out=indptr[1:])
    indices = np.empty(indptr[-1], np.int32)
    arc_edge = np.empty(indptr[-1], np.int64)
    at = np.arange(len(g.indices)) + np.repeat(indptr[:n] - g.indptr[:-1], deg)
    indices[at] = g.indices
    arc_edge[at] = g.arc_edges
    root_edges = m + np.arange(len(dummies))
    indices[indptr[dummies + 1] - 1] = n
    arc_edge[indptr[dummies + 1] - 1] = root_edges
    indices[indptr[n]:] = dummies
    arc_edge[indptr[n]:] = root_edges
    return indptr, indices, arc_edge
