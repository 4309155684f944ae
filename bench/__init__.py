"""cuRnet's benchmarks, one package: `python -m bench` (bench/README.md).

The suite: a declared matrix of graphs x algorithms x source counts x backends x
comparators, timed in layers (engine, engine + transfer, end to end from R), every measured
result checked against a comparator inside the run (bench/results/README.md). Beside it, one
module an analysis (`python -m bench NAME`), each timed with timing.py and written with
rows.py.
"""
