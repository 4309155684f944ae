"""What a first GPU call compiles, on a machine whose CuPy kernel cache is empty: each of
curnet's kernel modules timed alone, then the first betweenness calls on STRING (hops exact,
1,000 weighted sources) with the time CuPy spends compiling its own kernels in them.

    python -m bench kernel-compiles [STRING file]

Needs CuPy and a GPU, and python-igraph (the STRING loader of bench/betweenness.py). Kernels
are kept in cuRnet's kernel cache (backends/kernel_cache.py), so a second run on the same
machine finds everything compiled: run it with CURNET_KERNEL_CACHE set to an empty folder, or
on a fresh machine. `curnet warm-up` fills the cache for every analysis (docs/first-call.md).
"""
import cProfile
import io
import os
import pstats
import sys

import numpy as np

import curnet
from curnet.backends import kernel_cache
from curnet.backends.cuda.launch import KERNEL_DIR, compiled_module, counting_compiles

from .networks import load_string, string_file
from . import rows as results
from .timing import cuda_sync, once

MODULES = sorted(f[:-3] for f in os.listdir(KERNEL_DIR) if f.endswith(".cu"))


def main(argv=None):
    """argv: [STRING file]; the rows go to $OUT/kernel_compiles.json when OUT is set."""
    argv = sys.argv[1:] if argv is None else argv
    rows: list = []
    cache = kernel_cache.use()
    print(f"kernel cache {cache}: {kernel_cache.cached_kernels(cache)} kernels before")
    total = 0.0
    for module in MODULES:
        for cooperative in (False, True):
            _, took = once(compiled_module(module, cooperative).compile)
            total += took
            rows.append({"row": f"module {module}, cooperative={cooperative}", "seconds": took})
            print(f"  module {module:12s} cooperative={cooperative!s:5s} {took:6.2f} s", flush=True)
    print(f"curnet's modules, all: {total:.2f} s")

    _, g = load_string(argv[0] if argv else string_file())
    sources = np.sort(np.random.default_rng(6).choice(len(g), 1000, replace=False))
    profile = cProfile.Profile()

    def first_calls():
        profile.enable()
        with counting_compiles() as tally:
            curnet.betweenness(g, weighted=False, backend="cuda")
            curnet.betweenness(g, weighted=True, sources=sources, backend="cuda")
            cuda_sync()
        profile.disable()
        return tally
    tally, t = once(first_calls)
    print(f"first betweenness calls (hops exact, weighted 1000), curnet's modules compiled: "
          f"{t:.2f} s, {tally.count} kernels compiled in them ({tally.seconds:.2f} s)")
    rows.append({"row": "first betweenness calls (hops exact, weighted 1000)", "seconds": t,
                 "kernels_compiled": tally.count, "compile_seconds": tally.seconds})
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats("compiler.py", 6)
    print(out.getvalue()[-3000:])
    _, t = once(lambda: curnet.betweenness(g, weighted=False, backend="cuda"), sync=cuda_sync)
    print(f"again, hops exact: {t:.3f} s")
    rows.append({"row": "again, hops exact", "seconds": t})
    results.write(results.default_out("kernel_compiles.json"), rows, kernel_cache=str(cache))
    return 0


if __name__ == "__main__":
    main()
