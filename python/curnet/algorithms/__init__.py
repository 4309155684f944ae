"""The algorithm drivers: each validates, batches the sources, calls the backend's primitives.

    bfs.py     bfs, bfs_blocks: many-source BFS (joint bit traversal)
    sssp.py    sssp, sssp_dists, sssp_blocks: shortest paths (Dijkstra, near-far, Bellman-Ford)
    scc.py     scc: strongly connected components
    betweenness/  brandes_sums (betweenness/driver.py): Brandes' algorithm over batches of sources
    sinks.py, reductions.py, common.py, order.py, supersource.py: what they share

Import a driver by its module's path (`from curnet.algorithms.bfs import bfs`; the public
name is `curnet.bfs`): nothing is exported here, since a function `bfs` in this package
would hide its module `curnet.algorithms.bfs`.
"""
