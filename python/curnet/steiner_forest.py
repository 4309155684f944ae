"""Prize-collecting Steiner forest (PCSF): the MST-based heuristic of Akhmedov et al. (2017),
the method of the PCSF R package, on cuRnet's many-source shortest paths.

    forest = curnet.pcsf(g, {"SMAD2": 1.2, "TP53": 0.8}, w=2, b=1, mu=0.0005)
    union = curnet.pcsf_rand(g, prizes, n=10, r=0.1, seed=1)

The problem: an undirected network with positive edge costs, and prizes on some vertices
(the terminals). Find a forest that minimises

    edge costs + lost prizes + w x (number of trees),

where a terminal's prize is b x its value and every other vertex carries a hub penalty
mu x degree, paid when it is in the forest (its prize is -mu x degree).

The method, step by step:
1. A dummy root is joined to the terminals (or to `dummies`) by edges of cost w, and each
   edge's cost grows by the penalties of its endpoints (the adjusted costs).
2. Shortest paths on the adjusted graph from every terminal: one batched `sssp` call with
   predecessors. For each source only what the rest needs leaves the device: its distances
   to the terminals and the root, and the paths to them (`_TerminalPaths`).
3. Terminals whose prizes both cover their distance are clustered (the connected components
   of that relation); clusters of one or two terminals join the large cluster closest to
   them (distance minus both prizes).
4. A graph over the terminals and the root (root edges to every terminal, complete graphs
   within the clusters, weighted by distance), its minimum spanning tree, each tree edge
   expanded into its shortest path, and a second minimum spanning tree over those network
   edges with their original costs.
5. Pruning: rooted at the dummy root, a subtree is kept while its collected prize pays for
   the edge above it (the best pruning of a rooted tree).

improve=False runs these steps as the package does, its two spanning trees made as the
package's Boost Prim makes them (from the first vertex, a 4-ary heap, edges in the package's
order: _prim_tree), so that among equal costs (every root edge costs w, STRING's costs take
few distinct values) the same edges are kept and the forest is the package's, edge for edge.
Where two shortest paths cost the same, cuRnet's batched search may still take another than
the package's Dijkstra (docs/pcsf-package.md).

improve=True (the default) then tries two departures, each kept only where it lowers the
objective, so it is never worse than improve=False: (1) every dummy on the expanded tree is
offered its root edge and each tree hangs from the one whose pruned tree collects the most
(one re-rooting pass over the tree); (2) rounds in which the forest's vertices are spanned
again by a minimum spanning tree over every network edge among them (the package's second
tree sees only the edges of the expanded paths) and pruned again. On STRING they lower the
objective by 2-10%.

The objective as reported counts a Steiner vertex's hub penalty when it is in the forest and
a terminal's prize when it is not. The package's solver reports the same minus a constant
(it adds every vertex's prize, penalties included, left out of the forest), so both rank
forests alike.

Everything after the shortest paths is O(terminals^2 + forest size) NumPy and SciPy.
"""
from __future__ import annotations

import time
from typing import Any
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from .algorithms.sinks import Sink
from .algorithms.sssp import sssp_blocks
from .backends import get_backend
from .graph import Graph
from .progress import Progress
from .renamed import renamed
from .work import count_work

TERMINAL, STEINER = "Terminal", "Steiner"


class PCSFWarning(UserWarning):
    """Input that PCSF() takes quietly and cuRnet takes with a word (dummies outside the network)."""

# improve=True: at most this many rounds of re-spanning the forest's vertices (each round
# must lower the objective to go on; two or three do on STRING)
IMPROVE_ROUNDS = 10
# the shortest paths' float width (`dtype`): float64 decides as the package does (its Boost
# Dijkstra sums doubles); float32 lets a GPU take its near-far search (float32 weights only),
# the forest and its objective still costed in double. The earlier precision="double"/"single"
# (R's words) names the same two.
_PRECISIONS = {"double": np.float64, "single": np.float32}
# pcsf_rand on a GPU: the runs of one shortest-path call (see _runs_per_call). 2^27 entries
# is ~9 runs of 100 terminals on STRING (~1 GiB of near-far keys), 20 runs of 20 terminals.
RUN_CALL_ENTRIES = 2**27
RUN_CALL_SOURCES = 4096          # the CUDA backend's near-far batch (tuning.nf_max_sources)


# -- results ---------------------------------------------------------------------------
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
    objective_terms: dict = field(default_factory=dict)   # see _Problem.objective_terms
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
        return _names_at(self.vertices, self.names, ids)


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
        return {"from": _names_at(self.vertices, self.names, self.edge_from),
                "to": _names_at(self.vertices, self.names, self.edge_to), "count": self.edge_count}


def _names_at(vertices, names, ids) -> np.ndarray:
    """The names of `ids`, each one of the sorted `vertices` that `names` names."""
    return names[np.searchsorted(vertices, np.asarray(ids, dtype=np.int64))]


# -- the problem: prizes, dummies, adjusted costs -----------------------------------------
def _prize_table(prizes, duplicates="error"):
    """(names, values) from a mapping, a pandas Series, pairs, or a (names, values) tuple.
    A repeated name is an error, or with duplicates="last" takes its last prize (the PCSF
    package's reading), in the place of its first."""
    names: Any
    values: Any
    if hasattr(prizes, "index") and hasattr(prizes, "to_numpy"):          # pandas Series
        names, values = np.asarray(prizes.index), prizes.to_numpy()
    elif isinstance(prizes, dict):
        names, values = list(prizes.keys()), list(prizes.values())
    elif isinstance(prizes, tuple) and len(prizes) == 2:
        names, values = prizes
    else:
        pairs = list(prizes)
        names, values = [p[0] for p in pairs], [p[1] for p in pairs]
    names = np.asarray(names, dtype=object)
    try:
        values = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("prizes must be numbers") from None
    if len(names) != len(values):
        raise ValueError(f"{len(names)} terminal names but {len(values)} prizes")
    if len(names) == 0:
        raise ValueError("no terminals: give at least one (name, prize)")
    if any(n is None or (isinstance(n, float) and np.isnan(n)) or str(n) == "" for n in names):
        raise ValueError("every terminal needs a name (a missing or empty name was given)")
    names = names.astype(str)
    uniq, counts = np.unique(names, return_counts=True)
    if (counts > 1).any() and duplicates == "last":
        last = {name: v for name, v in zip(names.tolist(), values.tolist())}
        names = np.array(list(last), dtype=str)
        values = np.array(list(last.values()), dtype=np.float64)
    elif (counts > 1).any():
        dup = uniq[counts > 1]
        raise ValueError(f"terminal names are duplicated: {', '.join(map(_quoted, dup[:5].tolist()))}"
                         + (f" and {len(dup) - 5} more" if len(dup) > 5 else "")
                         + " (duplicates='last' takes the last prize of each, as the PCSF package does)")
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"prize of terminal {_quoted(names[i])} is {values[i]}: prizes must be finite numbers")
    if (values <= 0).any():
        i = int(np.flatnonzero(values <= 0)[0])
        raise ValueError(f"prize of terminal {_quoted(names[i])} is {values[i]:g}: prizes must be positive "
                         "(leave a gene with no signal out of the terminals)")
    return names, values


def _quoted(name) -> str:
    """A vertex or terminal name in a message, as the user wrote it (str, not a NumPy repr)."""
    return repr(str(name))


def _check_network(g: Graph):
    """The network's edges (src, dst, float64 cost), checked once and kept with the graph
    (a network is solved for many terminal sets; the checks sort its edges)."""
    if not isinstance(g, Graph):
        raise TypeError(f"the network must be a curnet.Graph, got {type(g).__name__}")
    return g.cache("pcsf: checked edges", lambda: _checked_edges(g))


def _checked_edges(g: Graph):
    if g.directed:
        raise ValueError("the PCSF needs an undirected network (Graph.from_edges(..., directed=False))")
    if g.names is None:
        raise ValueError("the network has no vertex names: terminals are matched by name")
    if not g.weighted:
        raise ValueError("the network has no edge costs: the PCSF needs a cost >= 0 on every edge")
    src, dst, cost = g.edges()
    cost = cost.astype(np.float64)
    if len(cost) == 0:
        raise ValueError("the network has no edges")
    # edges are named by their ends: a position would count from 0 here and from 1 in R
    bad = ~np.isfinite(cost) | (cost < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"the edge {_quoted(g.names[src[i]])} - {_quoted(g.names[dst[i]])} has cost {cost[i]:g}: "
                         f"edge costs must be finite numbers >= 0 ({int(bad.sum())} such edge(s))")
    loops = src == dst
    lo, hi = np.minimum(src, dst).astype(np.int64), np.maximum(src, dst).astype(np.int64)
    key = lo * len(g) + hi
    if loops.any() or len(np.unique(key)) != len(key):
        what = (f"a self-loop on {_quoted(g.names[src[np.flatnonzero(loops)[0]]])}" if loops.any()
                else "parallel edges (a pair of vertices joined twice)")
        raise ValueError(f"the network has {what}: simplify it first with curnet.interactome(), as the "
                         "PCSF package's construct_interactome() does (self-loops dropped, the costs of a "
                         "repeated pair summed)")
    return src.astype(np.int64), dst.astype(np.int64), cost


class _Problem:
    """The instance as the method sees it: node prizes, the dummy root (id n), the terminals
    in the package's order, the original and adjusted edge costs."""

    def __init__(self, g, prizes, w, b, mu, dummies, min_matched, duplicates="error"):
        for name, v, ok in (("w", w, w > 0), ("b", b, b > 0), ("mu", mu, mu >= 0)):
            if not np.isfinite(v) or not ok:
                raise ValueError(f"{name} = {v}: w and b must be positive, mu non-negative")
        self.g = g
        self.w, self.b, self.mu = float(w), float(b), float(mu)
        src, dst, cost = _check_network(g)
        names, values = _prize_table(prizes, duplicates)
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
                                 f"{', '.join(map(_quoted, missing[:3]))}): the root would reach no vertex")
            if missing:
                # PCSF() joins the root to such a name, a vertex of no other edge: it changes nothing
                warnings.warn(f"{len(missing)} of {len(dnames)} dummies are not in the network and are left out, "
                              f"as PCSF() does: {', '.join(map(_quoted, missing[:5]))}"
                              + (f" and {len(missing) - 5} more" if len(missing) > 5 else ""),
                              PCSFWarning, stacklevel=3)
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


# -- step 2: the batched shortest paths --------------------------------------------------------
class _TerminalPaths(Sink):
    """Per source, on the device: its distances to `targets[row]` (the terminals and the
    root of its copy) and the shortest paths to them, walked up the predecessors at once:
    hops[h, j, t] is the h-th vertex from target t back to source j (-1 past the source)."""

    def __init__(self, targets):
        self.targets = targets                              # (k, T + 1) vertex ids
        self.dist = np.empty(targets.shape, np.float64)
        self.hops = {}                                      # first_row -> (L, kb, T + 1)

    def consume(self, be, first_row, batch_ids, result) -> None:
        dist, pred = result                                 # (N, kb) each
        xp = be.xp
        kb = len(batch_ids)
        rows = slice(first_row, first_row + kb)
        cols = xp.arange(kb)[:, None]
        cur = xp.asarray(self.targets[rows])
        be.copy_to_host(dist[cur, cols], self.dist[rows])
        hops = [cur]
        while True:
            nxt = xp.where(cur >= 0, pred[xp.maximum(cur, 0), cols], -1)
            if not bool((nxt >= 0).any()):
                break
            hops.append(nxt)
            cur = nxt
        block = xp.stack(hops).astype(xp.int32)
        host = np.empty(block.shape, np.int32)
        be.copy_to_host(block.reshape(len(hops), -1), host.reshape(len(hops), -1))
        self.hops[first_row] = host

    def paths(self, rows, cols):
        """The paths of (rows[i], cols[i]) as an (L, len(rows)) array, -1 padded: only
        those leave the batches' blocks (a job of 1,000 terminals holds a million paths)."""
        firsts = np.array(sorted(self.hops))
        block = np.searchsorted(firsts, rows, side="right") - 1
        L = max(self.hops[f].shape[0] for f in firsts)
        out = np.full((L, len(rows)), -1, np.int32)
        for i in np.unique(block):
            h = self.hops[firsts[i]]
            mine = np.flatnonzero(block == i)
            out[:h.shape[0], mine] = h[:, rows[mine] - firsts[i], cols[mine]]
        return out


def _shortest_paths(P: _Problem, run_costs, backend, progress, dtype=np.float64):
    """Distances (runs, T, T + 1) and, for each run, its paths: path(a, b) gives the (L, m)
    paths from terminals a[i] to terminals (or the root, T) b[i] in the run's own vertex
    ids; for the runs whose adjusted costs are `run_costs`, one batched call over a graph
    that holds every run's copy side by side (no edge joins two copies)."""
    R, N = len(run_costs), P.n + 1
    T = len(P.terminals)
    offset = (np.arange(R, dtype=np.int64) * N)[:, None]
    big = P.run_graph(run_costs, dtype)
    local = np.append(P.terminals, P.root)
    targets = (local[None, :] + offset).reshape(R, 1, T + 1).repeat(T, axis=1).reshape(R * T, T + 1)
    sources = (P.terminals[None, :] + offset).ravel()
    sink = _TerminalPaths(targets)
    sssp_blocks(big, sources, sink, backend=backend, with_pred=True, progress=progress)

    def run_paths(run):
        def path(a, b):
            h = sink.paths(run * T + np.asarray(a), np.asarray(b))
            return np.where(h >= 0, h - run * N, -1)
        return path
    return sink.dist.reshape(R, T, T + 1), [run_paths(run) for run in range(R)]


# -- steps 3 to 5, on the host ----------------------------------------------------------------
def _clusters(S, ct):
    """Step 3: cluster member lists (ids into the terminals) after regrouping."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    close = (S <= np.minimum.outer(ct, ct)) & np.isfinite(S)
    np.fill_diagonal(close, False)
    _, label = csgraph.connected_components(sparse.csr_matrix(close), directed=False)
    # clusters numbered by their smallest member; members in increasing order
    _, first = np.unique(label, return_index=True)
    order = np.argsort(first)
    members = [list(np.flatnonzero(label == label[first[k]])) for k in order]
    large = [k for k, m in enumerate(members) if len(m) > 2]
    if not large:
        return members
    small = [k for k, m in enumerate(members) if len(m) <= 2]
    for k in small:
        for x in list(members[k]):
            cand = np.concatenate([members[j] for j in large])
            owner = np.repeat(large, [len(members[j]) for j in large])
            score = S[x, cand] - ct[x] - ct[cand]
            i = int(np.argmin(score))                       # the first of equal minima
            if np.isfinite(score[i]):
                members[owner[i]].append(x)
                members[k].remove(x)
    return members


def _terminal_tree(D, S, members):
    """Step 4a: the minimum spanning tree over the terminals (0..T-1) and the root (T): root
    edges to every terminal, complete graphs within clusters, in the package's order, spanned
    as the package's Prim spans them. Rows (a < b), in the order of the tree's vertices."""
    T = D.shape[0]
    a, b, w = [np.full(T, T)], [np.arange(T)], [D[:, T]]
    for m in members:
        if len(m) > 1:
            m = np.asarray(m)                  # the package's order: members, then those joined
            i, j = np.triu_indices(len(m), 1)
            a.append(m[i])
            b.append(m[j])
            w.append(S[m[i], m[j]])
    u, v = _prim_tree(np.concatenate(a), np.concatenate(b), np.concatenate(w), numbered=True)
    return np.minimum(u, v), np.maximum(u, v)


def _path_edges(path):
    """The edges of the expanded paths (columns of `path`, -1 padded) in the order the
    package meets them: path by path, along each path; a pair met again is left out."""
    u, v = path[:-1].T.ravel(), path[1:].T.ravel()       # column by column: path by path
    ok = v >= 0
    u, v = u[ok].astype(np.int64), v[ok].astype(np.int64)
    key = np.minimum(u, v) * (int(max(u.max(initial=0), v.max(initial=0))) + 1) + np.maximum(u, v)
    _, first = np.unique(key, return_index=True)
    first = np.sort(first)
    return u[first], v[first]


def _prim_tree(eu, ev, ew, numbered=False):
    """The spanning tree of the edges (eu[i], ev[i], weight ew[i]) that Boost's
    prim_minimum_spanning_tree finds when they are added to an adjacency_list in this order,
    as the PCSF package adds them: vertices numbered in order of first appearance (numbered:
    by their ids, 0..n-1), Prim from vertex 0, a 4-ary heap keyed on the weight of the edge
    reaching each vertex, a key replaced only by a strictly smaller one. Among equal weights
    (every root edge costs w) it keeps what Boost keeps, so the package's trees come out edge
    for edge. Tree edges (u, v) in the ids given, in the order of the tree's vertices;
    vertices Prim does not reach (cut off from vertex 0, or reached only by infinite weights)
    are left out, as Boost leaves them."""
    if len(eu) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    ends = np.column_stack([eu, ev]).ravel()
    ids, at = np.unique(ends, return_index=True)
    order = np.arange(len(ids)) if numbered else np.argsort(at, kind="stable")   # first appearance
    local = np.empty(len(ids), np.int64)
    local[order] = np.arange(len(ids))
    names = ids[order]
    lu, lv = local[np.searchsorted(ids, eu)].tolist(), local[np.searchsorted(ids, ev)].tolist()
    n = len(ids)
    adj: list[list] = [[] for _ in range(n)]
    for x, y, w in zip(lu, lv, np.asarray(ew, np.float64).tolist()):
        adj[x].append((y, w))
        adj[y].append((x, w))
    inf = float("inf")
    key, pred, color = [inf] * n, list(range(n)), [0] * n     # color: 0 white, 1 gray, 2 black
    heap: list = []
    where = [-1] * n

    def up(i):                                          # preserve_heap_property_up
        x, kx, j, moved = heap[i], key[heap[i]], i, 0
        while j > 0 and kx < key[heap[(j - 1) >> 2]]:
            j, moved = (j - 1) >> 2, moved + 1
        j = i
        for _ in range(moved):
            p = (j - 1) >> 2
            heap[j] = heap[p]
            where[heap[j]] = j
            j = p
        heap[j] = x
        where[x] = j

    def pop():                                          # pop, preserve_heap_property_down
        top = heap[0]
        where[top] = -1
        last = heap.pop()
        if not heap:
            return top
        heap[0], where[last] = last, 0
        i, kx, size = 0, key[last], len(heap)
        while 4 * i + 1 < size:
            first = 4 * i + 1
            best, kb = first, key[heap[first]]
            for c in range(first + 1, min(first + 4, size)):
                if key[heap[c]] < kb:
                    best, kb = c, key[heap[c]]
            if not kb < kx:
                break
            heap[i], heap[best] = heap[best], heap[i]
            where[heap[i]], where[heap[best]] = i, best
            i = best
        return top

    key[0], color[0] = 0.0, 1
    heap.append(0)
    where[0] = 0
    while heap:
        x = pop()
        for y, w in adj[x]:
            if color[y] == 0:                           # tree edge: relax, then push
                if w < key[y]:
                    key[y], pred[y] = w, x
                color[y] = 1
                heap.append(y)
                where[y] = len(heap) - 1
                up(len(heap) - 1)
            elif color[y] == 1 and w < key[y]:          # gray target: relax, decrease
                key[y], pred[y] = w, x
                up(where[y])
        color[x] = 2
    parent = np.asarray(pred)
    inner = np.flatnonzero(parent != np.arange(n))
    return names[inner].astype(np.int64), names[parent[inner]].astype(np.int64)


def _spanning_tree(w, a, b, n):
    """SciPy's minimum spanning tree of the edges (a, b) of weights w >= 0 over n vertices:
    (rows, cols, weights). SciPy reads a zero in a sparse matrix as no edge, so a zero
    weight (an edge of cost 0, as PCSF() accepts) stands in as a value below every positive
    one while the tree is made: the same order of weights, the same tree."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    w = np.asarray(w, np.float64)
    zero = w == 0
    if zero.any():
        positive = w[~zero]
        stand_in = positive.min() / 2 if len(positive) else 1.0
        w = np.where(zero, stand_in, w)
    tree = csgraph.minimum_spanning_tree(sparse.csr_matrix((w, (a, b)), shape=(n, n))).tocoo()
    data = np.asarray(tree.data)
    if zero.any():
        data = np.where(data == stand_in, 0.0, data)
    return tree.row, tree.col, data


def _levels(n, root, eu, ev):
    """BFS from root over the tree edges: (order, parent (-1 none), level bounds): the
    vertices at depth d are order[bounds[d]:bounds[d + 1]] (BFS lists them by depth)."""
    from scipy.sparse import csgraph   # lazily: csgraph imports scipy.linalg (~0.1 s)
    adj = sparse.csr_matrix((np.ones(len(eu)), (eu, ev)), shape=(n, n))
    order, parent = csgraph.breadth_first_order(adj, root, directed=False, return_predecessors=True)
    parent = np.where(parent < 0, -1, parent)
    depth = np.zeros(n, np.int64)
    above = parent.copy()
    while True:                                   # depth = the number of ancestors
        live = above >= 0
        if not live.any():
            break
        depth[live] += 1
        above[live] = parent[above[live]]
    dorder = depth[order]
    bounds = np.searchsorted(dorder, np.arange(int(dorder.max()) + 2)).tolist()
    return order, parent, bounds


def _prune(nv, root, eu, ev, ecost, prize, candidates, root_cost, reroot=True):
    """Step 5 on the spanning tree (eu, ev) over local vertices 0..nv-1 (root among them):
    with reroot, each tree under the root is first re-rooted at its best candidate (a vertex
    with a root edge of cost root_cost[v]); then pruned. Returns (kept vertex mask, parent
    array, cost of the edge above each vertex)."""
    order, parent, bounds, up, f = _collected(nv, root, eu, ev, ecost, prize)
    if reroot:
        eu, ev, ecost = _rerooted(nv, root, eu, ev, ecost, candidates, root_cost, order, parent, bounds, up, f)
        order, parent, bounds, up, f = _collected(nv, root, eu, ev, ecost, prize)
    keep = np.zeros(nv, bool)
    keep[root] = True
    for d in range(1, len(bounds) - 1):
        vs = order[bounds[d]:bounds[d + 1]]
        keep[vs] = keep[parent[vs]] & (f[vs] - up[vs] > 0)
    return keep, parent, up


def _collected(nv, root, eu, ev, ecost, prize):
    """The tree (eu, ev) rooted at root: (order, parent, level bounds, cost of the edge above
    each vertex, f), f[v] the prize v's subtree collects when each child subtree is kept
    while it pays for its edge (the package's price_collect)."""
    key = sparse.csr_matrix((ecost, (eu, ev)), shape=(nv, nv))
    key = key + key.T
    order, parent, bounds = _levels(nv, root, eu, ev)
    up = np.zeros(nv)
    vs = order[1:]
    up[vs] = np.asarray(key[vs, parent[vs]]).ravel()
    f = prize.copy()
    for d in range(len(bounds) - 2, 0, -1):
        vs = order[bounds[d]:bounds[d + 1]]
        np.add.at(f, parent[vs], np.maximum(f[vs] - up[vs], 0.0))
    return order, parent, bounds, up, f


def _rerooted(nv, root, eu, ev, ecost, candidates, root_cost, order, parent, bounds, up, f):
    """The tree's edges with each tree under the root hung from its best candidate: the one
    with the most collected prize left after paying its root edge."""
    # F[v] = the collected prize of the best subtree of v's tree that holds v
    F = f.copy()
    comp = np.full(nv, -1)
    if len(bounds) > 2:
        top = order[bounds[1]:bounds[2]]
        comp[top] = top
    for d in range(2, len(bounds) - 1):
        vs = order[bounds[d]:bounds[d + 1]]
        p = parent[vs]
        rest = F[p] - np.maximum(f[vs] - up[vs], 0.0)
        F[vs] = f[vs] + np.maximum(rest - up[vs], 0.0)
        comp[vs] = comp[p]
    # each tree's root edge: the candidate with the most left after paying for it; the
    # spanning tree's own choice on ties
    cand = np.flatnonzero(candidates & (comp >= 0))
    own = parent[cand] == root
    score = F[cand] - root_cost[cand]
    pick = np.lexsort((~own, -score, comp[cand]))
    cand, comp_c = cand[pick], comp[cand][pick]
    first = np.ones(len(cand), bool)
    first[1:] = comp_c[1:] != comp_c[:-1]
    chosen = cand[first]
    inner = (eu != root) & (ev != root)
    return (np.concatenate([eu[inner], np.full(len(chosen), root)]), np.concatenate([ev[inner], chosen]),
            np.concatenate([ecost[inner], root_cost[chosen]]))


def _solve_run(P: _Problem, D, paths, cost, improve=True):
    """Steps 3-5 for one run: D (T, T + 1) distances, paths(a, b) its shortest paths (see
    `_shortest_paths`), `cost` this run's (unadjusted) edge costs. Returns (vertex ids, edge
    from, edge to, edge cost, trees)."""
    T = len(P.terminals)
    Dt = D[:, :T]
    # a pair's distance as the package takes it: from the search of the earlier terminal
    S = np.where(np.triu(np.ones((T, T), bool), 1), Dt, Dt.T)
    np.fill_diagonal(S, 0.0)
    ct = P.prize[P.terminals]
    members = _clusters(S, ct)
    a, b = _terminal_tree(D, S, members)
    # expand each tree edge into its path (from the search of terminal a, a < b): from b to a
    path = paths(a, b)                                      # (L, edges)
    lo, hi = _path_edges(path)
    verts = np.unique(np.concatenate([lo, hi, [P.root]]))
    # the package's forest: the spanning tree of the paths' edges (its Prim, in its order),
    # pruned as it hangs
    tu, tv = _prim_tree(lo, hi, cost[P.lookup(np.minimum(lo, hi), np.maximum(lo, hi))])
    best = _span_and_prune(P, verts, np.minimum(tu, tv), np.maximum(tu, tv), cost, reroot=False)
    if not improve:
        return best
    # every dummy on the expanded tree offered its root edge, each tree re-rooted at its best
    # (see the module's notes); kept only where that lowers the objective
    extra = verts[P.is_dummy[verts]]
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
    lo2, hi2 = np.concatenate([lo, extra]), np.concatenate([hi, np.full(len(extra), P.root)])
    pairs = np.unique(np.minimum(lo2, hi2) * (P.n + 1) + np.maximum(lo2, hi2))
    candidates = [best, _span_and_prune(P, verts, pairs // (P.n + 1), pairs % (P.n + 1), cost)]
    for _ in range(IMPROVE_ROUNDS):
        # the best forest's vertices again, spanned over every network edge among them: a
        # spanning tree no heavier, pruned at best; kept while the objective falls
        best = min(candidates, key=lambda c: P.objective(c[0], c[3], c[4]))   # the first of equals
        inside = np.append(best[0], P.root)
        sub = P.edge_id[inside][:, inside].tocoo()
        upper = sub.row < sub.col
        again = _span_and_prune(P, np.sort(inside), inside[sub.row[upper]], inside[sub.col[upper]], cost)
        if P.objective(again[0], again[3], again[4]) >= P.objective(best[0], best[3], best[4]) - 1e-12:
            break
        candidates = [again]
    return min(candidates, key=lambda c: P.objective(c[0], c[3], c[4]))


def _span_and_prune(P: _Problem, verts, lo, hi, cost, reroot=True):
    """A minimum spanning tree of the edges (lo, hi) over `verts` (sorted, the root among
    them) with this run's costs, pruned (step 5), each tree re-rooted first with reroot.
    Returns (vertex ids, edge from, edge to, edge cost, trees)."""
    ecost = cost[P.lookup(lo, hi)]
    nv = len(verts)
    lu, lv = np.searchsorted(verts, lo), np.searchsorted(verts, hi)
    tu, tv, tc = _spanning_tree(ecost, lu, lv, nv)
    root = int(np.searchsorted(verts, P.root))
    root_cost = np.zeros(nv)
    has_root_edge = np.zeros(nv, bool)
    at_root = (lu == root) | (lv == root)
    other = np.where(lu == root, lv, lu)[at_root]
    root_cost[other] = ecost[at_root]
    has_root_edge[other] = True
    keep, parent, up = _prune(nv, root, tu, tv, tc, P.prize[verts], has_root_edge, root_cost, reroot)
    kept = np.flatnonzero(keep)
    kept = kept[kept != root]
    trees = int((parent[kept] == root).sum())
    inner = kept[parent[kept] != root]
    return verts[kept], verts[inner], verts[parent[inner]], up[inner], trees


def _forest(P: _Problem, vertices, e_from, e_to, e_cost, trees) -> Forest:
    order = np.argsort(vertices)
    vertices = vertices[order]
    terms = P.objective_terms(vertices, e_cost, trees)
    return Forest(vertices=vertices, names=P.g.names[vertices], prize=P.prize[vertices],
                  type=np.where(P.is_terminal[vertices], TERMINAL, STEINER),
                  edge_from=e_from, edge_to=e_to, edge_cost=e_cost, trees=trees,
                  objective=float(sum(terms.values())),
                  objective_terms=terms, matched=P.matched, unmatched=P.unmatched)


def _runs_per_call(backend, n_runs, terminals, n):
    """How many runs share one shortest-path call. The CPU: one (its Dijkstra fills a row
    as long as the whole call's graph for every source). A GPU: c runs' copies side by
    side, so that the per-call latency (near-far's iterations, the hand-off) is shared,
    but each of the c x T sources then owns a row over all c copies (near-far's keys, the
    predecessor pass over every copy's arcs), c - 1 of them unreachable: the call's work
    grows as c^2 x T x n. So c keeps c^2 x T x n within RUN_CALL_ENTRIES and c x T within
    near-far's batch (RUN_CALL_SOURCES)."""
    be = get_backend(backend)
    if getattr(be, "name", "") == "cpu":
        return 1
    c = int(np.sqrt(RUN_CALL_ENTRIES / max(terminals * n, 1)))
    return max(1, min(n_runs, c, RUN_CALL_SOURCES // max(terminals, 1)))


def _paths_dtype(dtype, precision) -> np.dtype:
    """The shortest paths' float width from `dtype`, or from the deprecated `precision`."""
    if precision is not None:
        renamed("precision=", "dtype=np.float64 or np.float32", stacklevel=4)
        if precision not in _PRECISIONS:
            raise ValueError(f"precision must be 'double' or 'single', got {precision!r}")
        return np.dtype(_PRECISIONS[precision])
    try:
        width = np.dtype(dtype)
    except TypeError:
        width = None
    if width not in (np.float64, np.float32):
        raise ValueError(f"dtype must be float64 or float32, got {dtype!r}")
    return width


def _share_of(overall: Progress):
    """A progress callback for one call, adding its sources to the whole job's count."""
    seen = [0]

    def report(done, total):
        overall.update(done - seen[0])
        seen[0] = done
    return report


# -- public --------------------------------------------------------------------------------
def interactome(network, *, parallel="sum") -> Graph:
    """The PCSF package's construct_interactome(): an undirected network with named vertices
    and edge costs, each self-loop dropped and each pair of vertices joined once, a repeated
    pair's costs summed (igraph's simplify(), which construct_interactome() calls, sums them;
    parallel="min" keeps the least). `network`: a curnet.Graph (undirected, named, weighted),
    or three columns (from, to, cost) as a tuple or a pandas DataFrame. Vertices keep their
    order (columns: first appearance in `from`, then in `to`, as the package's), a vertex of
    self-loops only included."""
    if parallel not in ("sum", "min"):
        raise ValueError(f"parallel must be 'sum' (the PCSF package's) or 'min', got {parallel!r}")
    if isinstance(network, Graph):
        if network.directed or network.names is None or not network.weighted:
            raise ValueError("interactome() takes an undirected graph with vertex names and edge costs")
        src, dst, cost = network.edges()
        names = np.asarray(network.names)
    else:
        if hasattr(network, "iloc"):                                   # pandas DataFrame
            if network.shape[1] != 3:
                raise ValueError(f"interactome() takes three columns (from, to, cost), not {network.shape[1]}")
            network = tuple(network.iloc[:, k].to_numpy() for k in range(3))
        if len(network) != 3:
            raise ValueError("interactome() takes three columns: from, to, cost")
        ends = [np.asarray(c, dtype=object) for c in network[:2]]
        if any(v is None or (isinstance(v, float) and np.isnan(v)) or str(v) == "" for c in ends for v in c):
            raise ValueError("every edge needs the names of both its ends (a missing or empty name was given)")
        both = np.concatenate(ends).astype(str)
        first, ids = np.unique(both, return_index=True, return_inverse=True)[1:]
        rank = np.empty(len(first), np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))   # names by first appearance
        ids = rank[ids]
        names = both[np.sort(first)]
        m = len(ends[0])
        src, dst = ids[:m], ids[m:]
        try:
            cost = np.asarray(network[2], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("the costs (third column) must be numbers") from None
        if len(cost) != m:
            raise ValueError(f"{m} edges but {len(cost)} costs")
    cost = np.asarray(cost, np.float64)
    bad = ~np.isfinite(cost) | (cost < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"the edge {_quoted(names[src[i]])} - {_quoted(names[dst[i]])} has cost {cost[i]:g}: "
                         f"edge costs must be finite numbers >= 0 ({int(bad.sum())} such edge(s))")
    n = len(names)
    keep = src != dst
    lo = np.minimum(src, dst)[keep].astype(np.int64)
    hi = np.maximum(src, dst)[keep].astype(np.int64)
    pairs, which = np.unique(lo * n + hi, return_inverse=True)
    if parallel == "sum":
        merged = np.bincount(which, weights=cost[keep], minlength=len(pairs))
    else:
        merged = np.full(len(pairs), np.inf)
        np.minimum.at(merged, which, cost[keep])
    return Graph.from_edges(pairs // n, pairs % n, merged, directed=False, num_vertices=n, names=names,
                            dtype=np.float64)


def pcsf(g, prizes, *, w=2.0, b=1.0, mu=0.0005, dummies=None, improve=True, backend="auto",
         progress=None, min_matched=0.05, duplicates="error", dtype=np.float64, precision=None) -> Forest:
    """The prize-collecting Steiner forest of `prizes` (terminal name -> value) on the
    undirected network `g` (named vertices, positive costs), by the PCSF package's method
    (see the module's notes). Terminals not in the network are left out (`unmatched`); an
    error if fewer than `min_matched` of them are in it. improve=False runs the package's
    method and gives its forest (see the module's notes for equal-cost shortest paths);
    improve=True (the default) then re-roots trees and spans the forest's vertices again over
    all the network's edges among them, each step kept only where it lowers the objective.
    Edges of cost 0 are taken; dummies outside the network are left out with a PCSFWarning,
    as PCSF() ignores them. A terminal named twice is an error
    unless duplicates="last" (its last prize, as the PCSF package reads them).
    dtype=np.float32 runs the shortest paths in float32 (see _PRECISIONS; precision="single",
    the earlier spelling, is deprecated)."""
    dtype = _paths_dtype(dtype, precision)
    t0 = time.perf_counter()
    P = _Problem(g, prizes, w, b, mu, dummies, min_matched, duplicates)
    t1 = time.perf_counter()
    with count_work() as work:
        D, H = _shortest_paths(P, [P.cost + P.penalty], backend, progress, dtype)
    t2 = time.perf_counter()
    vertices, ef, et, ec, trees = _solve_run(P, D[0], H[0], P.cost, improve)
    f = _forest(P, vertices, ef, et, ec, trees)
    f.seconds = {"setup": t1 - t0, "paths": t2 - t1, "host": time.perf_counter() - t2}
    f.work = dict(work)
    return f


def pcsf_rand(g, prizes, *, n=10, r=0.1, seed=None, w=2.0, b=1.0, mu=0.0005, dummies=None,
              improve=True, backend="auto", progress=None, min_matched=0.05,
              duplicates="error", dtype=np.float64, runs_per_call=None, precision=None) -> ForestUnion:
    """`n` forests, each on costs multiplied by (1 + U(0, r)) edge by edge (root edges keep
    cost w), and their union with each vertex's and edge's count of appearances. The runs'
    shortest paths are batched: on a GPU several runs a call (`runs_per_call`, by default
    from the call's size, see _runs_per_call: the call's graph holds that many copies of the
    network), on the CPU one a run. `dtype` as pcsf's."""
    dtype = _paths_dtype(dtype, precision)
    if int(n) != n or n < 1:
        raise ValueError(f"n = {n}: the number of runs must be a positive integer")
    if not np.isfinite(r) or r < 0:
        raise ValueError(f"r = {r}: the noise must be non-negative")
    n = int(n)
    t0 = time.perf_counter()
    P = _Problem(g, prizes, w, b, mu, dummies, min_matched, duplicates)
    rng = np.random.default_rng(seed)
    m = P.num_network_edges
    costs = []
    for _ in range(n):
        c = P.cost.copy()
        c[:m] = c[:m] * (1.0 + rng.uniform(0.0, r, m))
        costs.append(c)
    step = _runs_per_call(backend, n, len(P.terminals), P.n + 1) if runs_per_call is None else int(runs_per_call)
    if step < 1:
        raise ValueError(f"runs_per_call = {runs_per_call}: at least one run a call")
    overall = Progress(progress, n * len(P.terminals), "pcsf_rand")
    forests = []
    seconds = {"setup": time.perf_counter() - t0, "paths": 0.0, "host": 0.0}

    def solve_call(D, H, chunk):             # one call's runs: clustering, MSTs, pruning
        return [_forest(P, *_solve_run(P, D[i], H[i], c, improve)) for i, c in enumerate(chunk)]

    # A call's host steps run on a thread of their own while the next call's shortest paths
    # run (on a GPU, the host mostly waits for the device then); the forests keep run order.
    with count_work() as counts, ThreadPoolExecutor(1, thread_name_prefix="curnet-pcsf") as host:
        calls = []
        for start in range(0, n, step):
            chunk = costs[start:start + step]
            t1 = time.perf_counter()
            D, H = _shortest_paths(P, [c + P.penalty for c in chunk], backend, _share_of(overall), dtype)
            seconds["paths"] += time.perf_counter() - t1
            calls.append(host.submit(solve_call, D, H, chunk))
        t2 = time.perf_counter()
        for call in calls:
            forests.extend(call.result())
        seconds["host"] = time.perf_counter() - t2    # the host steps the paths did not hide
    counts["runs per call"] = step
    allv = np.concatenate([f.vertices for f in forests])
    verts, count = np.unique(allv, return_counts=True)
    N = P.n + 1
    keys = np.concatenate([np.minimum(f.edge_from, f.edge_to).astype(np.int64) * N
                           + np.maximum(f.edge_from, f.edge_to) for f in forests])
    ekeys, ecount = np.unique(keys, return_counts=True)
    return ForestUnion(vertices=verts, names=g.names[verts],
                       type=np.where(P.is_terminal[verts], TERMINAL, STEINER), count=count,
                       edge_from=ekeys // N, edge_to=ekeys % N, edge_count=ecount, runs=n,
                       objectives=np.array([f.objective for f in forests]), forests=forests,
                       seconds=seconds, work=dict(counts),
                       matched=P.matched, unmatched=P.unmatched)
