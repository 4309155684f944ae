"""`curnet.pcsf_rand`: the PCSF package's PCSF_rand, `runs` forests on noisy costs and their
union. A call's runs are batched into one shortest-path job (their copies of the network side
by side, `_runs_per_call` of them), and a call's host steps run while the next call's paths
do."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...backends import get_backend
from ...progress import Progress
from ...renamed import renamed
from ...work import count_work
from .host_steps import solve_run
from .inputs import paths_dtype
from .problem import Problem
from .results import STEINER, TERMINAL, ForestUnion, make_forest
from .terminal_paths import paths_between_terminals


# pcsf_rand on a GPU: the runs of one shortest-path call (see _runs_per_call). 2^27 entries
# is ~9 runs of 100 terminals on STRING (~1 GiB of near-far keys), 20 runs of 20 terminals.
RUN_CALL_ENTRIES = 2**27
RUN_CALL_SOURCES = 4096          # the CUDA backend's near-far batch (tuning.nf_max_sources)


def pcsf_rand(g, prizes, *, runs=10, noise=0.1, seed=None, w=2.0, b=1.0, mu=0.0005, dummies=None,
              improve=True, backend="auto", progress=None, min_matched=0.05,
              duplicates="error", dtype=np.float64, runs_per_call=None, precision=None,
              n=None, r=None) -> ForestUnion:
    """`runs` forests, each on costs multiplied by (1 + U(0, noise)) edge by edge (root edges
    keep cost w), and their union with each vertex's and edge's count of appearances. The
    runs' shortest paths are batched: on a GPU several runs a call (`runs_per_call`, by
    default from the call's size, see _runs_per_call: the call's graph holds that many copies
    of the network), on the CPU one a run. `dtype` as pcsf's. `n` and `r` (PCSF_rand's names,
    which R's cuRnet_pcsf_rand keeps) are deprecated spellings of `runs` and `noise`."""
    dtype = paths_dtype(dtype, precision)
    if n is not None:
        renamed("n=", "runs=")
        runs = n
    if r is not None:
        renamed("r=", "noise=")
        noise = r
    if int(runs) != runs or runs < 1:
        raise ValueError(f"runs = {runs}: the number of runs must be a positive integer")
    if not np.isfinite(noise) or noise < 0:
        raise ValueError(f"noise = {noise}: the noise must be non-negative")
    runs = int(runs)
    t0 = time.perf_counter()
    P = Problem(g, prizes, w, b, mu, dummies, min_matched, duplicates)
    rng = np.random.default_rng(seed)
    m = P.num_network_edges
    costs = []
    for _ in range(runs):
        c = P.cost.copy()
        c[:m] = c[:m] * (1.0 + rng.uniform(0.0, noise, m))
        costs.append(c)
    step = _runs_per_call(backend, runs, len(P.terminals), P.n + 1) if runs_per_call is None else int(runs_per_call)
    if step < 1:
        raise ValueError(f"runs_per_call = {runs_per_call}: at least one run a call")
    overall = Progress(progress, runs * len(P.terminals), "pcsf_rand")
    forests = []
    seconds = {"setup": time.perf_counter() - t0, "paths": 0.0, "host": 0.0}

    def solve_call(D, H, chunk):             # one call's runs: clustering, MSTs, pruning
        return [make_forest(P, *solve_run(P, D[i], H[i], c, improve)) for i, c in enumerate(chunk)]

    # A call's host steps run on a thread of their own while the next call's shortest paths
    # run (on a GPU, the host mostly waits for the device then); the forests keep run order.
    with count_work() as counts, ThreadPoolExecutor(1, thread_name_prefix="curnet-pcsf") as host:
        calls = []
        for start in range(0, runs, step):
            chunk = costs[start:start + step]
            t1 = time.perf_counter()
            D, H = paths_between_terminals(P, [c + P.penalty for c in chunk], backend, _share_of(overall), dtype)
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
                       edge_from=ekeys // N, edge_to=ekeys % N, edge_count=ecount, runs=runs,
                       objectives=np.array([f.objective for f in forests]), forests=forests,
                       seconds=seconds, work=dict(counts),
                       matched=P.matched, unmatched=P.unmatched)


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


def _share_of(overall: Progress):
    """A progress callback for one call, adding its sources to the whole job's count."""
    seen = [0]

    def report(done, total):
        overall.update(done - seen[0])
        seen[0] = done
    return report
