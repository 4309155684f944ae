"""Betweenness by Brandes' algorithm over batches of sources, by job (the package exports
nothing: import from its modules):

    driver.py            brandes_sums: the sums over a job's sources, batch by batch on every device
    sweeps.py            one batch: its shortest-path DAGs, then the backend's level sweeps
    graph_reductions.py  the graph traversed: isolated vertices left out, leaves folded
    twins.py             twin sources (the same neighbours) folded into one column
    source_order.py      the sources in breadth-first order (batches, Dask chunks)
"""
