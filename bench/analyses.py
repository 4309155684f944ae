"""The benchmark analyses, one a command of `python -m bench` (bench/cli.py)."""

# One analysis a command: "module:function" (called with the remaining arguments), a module run
# as `python -m bench.<module>` would run it, or "Rscript FILE" (an R side run in Rscript).
ANALYSES = {
    "betweenness": ("betweenness:main", "betweenness beside igraph, networkit and NetworkX; Girvan-Newman (gn)"),
    "betweenness-profile": ("betweenness_profile:main", "GPU betweenness phase by phase (--phases, --account)"),
    "girvan-newman": ("girvan_newman:main", "Girvan-Newman on STRING sub-networks beside igraph"),
    "measures": ("measures:main", "closeness and distance_table beside python-igraph and R igraph"),
    "proximity": ("proximity:main", "network proximity of 100 sets on scNET, checked against SciPy"),
    "coexpression": ("coexpression:main", "co-expression networks, soft threshold and TOM beside WGCNA"),
    "dask": ("dask_jobs:main", "many-source jobs on a Dask cluster against the direct call"),
    "several-gpus": ("several_gpus:main", "jobs on one GPU, on cuda:all and through Dask (--with-r: R)"),
    "gpu-check": ("gpu_check:main", "the engine's GPU rows (PERFORMANCE.md targets), a table last"),
    "gpu-compare": ("compare:main", "two gpu-check JSON files row by row (exit 1 when slower)"),
    "gpu-accounts": ("gpu_accounts:main", "where the GPU time goes: levels, kernels, SCC phases"),
    "device-loops": ("device_loops:main", "device loops against a launch a level; ECL-SCC with --peers"),
    "cpu-scc": ("cpu_scc:main", "the CPU backend's SCC beside its parts, python-igraph and networkit"),
    "cpu-bfs": ("cpu_bfs:main", "the CPU backend's many-source BFS, its compiled pull beside the NumPy pull"),
    "graph-build": ("graph_build:main", "building a graph: argsort against the compiled counting sort, igraph beside"),
    "kernel-compiles": ("kernel_compiles:main", "what a first GPU call compiles, module by module"),
    "pcsf-calls": ("pcsf_calls:main", "curnet.pcsf / pcsf_rand call by call: split and work"),
    "pcsf": ("Rscript r_pcsf.R", "cuRnet_pcsf beside the PCSF package's PCSF() in R"),
    "r-results": ("Rscript r_results.R", "R end-to-end BFS, results kept and dropped"),
    "frontdoors": ("frontdoors", "the NetworkX backend and curnet.csgraph beside NetworkX and SciPy"),
    "communities": ("communities", "Leiden and Louvain beside python-igraph"),
    "propagation": ("propagation", "network propagation beside python-igraph"),
    "modules": ("modules", "hclust and blockwise_modules' steps beside SciPy and fastcluster"),
    "first-call": ("first_call", "a user's first call in fresh processes, from Python and R"),
}
