"""Prize-collecting Steiner forest (PCSF): the MST-based heuristic of Akhmedov et al. (2017),
the method of the PCSF R package, on cuRnet's many-source shortest paths.

    forest = curnet.pcsf(g, {"SMAD2": 1.2, "TP53": 0.8}, w=2, b=1, mu=0.0005)
    union = curnet.pcsf_rand(g, prizes, runs=10, noise=0.1, seed=1)

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
order: `spanning_trees.prim_tree`), so that among equal costs (every root edge costs w,
STRING's costs take few distinct values) the same edges are kept and the forest is the
package's, edge for edge.
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

The package, a module a job, in the order a call takes them: `inputs` (the network, prizes
and float width checked; `interactome()`), `problem` (step 1: prizes, the dummy root, the
adjusted costs, the rooted graph of a call's runs), `terminal_paths` (step 2), `host_steps`
(steps 3 to 5 and the improving rounds, one run), over `spanning_trees` (the package's Prim
order, SciPy's MST) and `pruning` (step 5); `results` (`Forest`, `ForestUnion`);
`single_run` (`pcsf`) and `random_runs` (`pcsf_rand`), the public calls.
"""
from .host_steps import IMPROVE_ROUNDS
from .inputs import PCSFWarning, interactome
from .random_runs import RUN_CALL_ENTRIES, RUN_CALL_SOURCES, pcsf_rand
from .results import STEINER, TERMINAL, Forest, ForestUnion
from .single_run import pcsf

__all__ = ["pcsf", "pcsf_rand", "interactome", "Forest", "ForestUnion", "PCSFWarning",
           "TERMINAL", "STEINER", "IMPROVE_ROUNDS", "RUN_CALL_ENTRIES", "RUN_CALL_SOURCES"]
