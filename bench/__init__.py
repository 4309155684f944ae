"""cuRnet's benchmark suite: `python -m bench` (see bench/results/README.md).

A declared matrix of graphs x algorithms x source counts x backends x
comparators, timed in layers (engine, engine + transfer, end to end from R),
every measured result checked against a comparator inside the run.
"""
