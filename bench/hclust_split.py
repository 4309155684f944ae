"""Where a call of `cuRnet_hclust` / `curnet.hclust` on a condensed dissimilarity spends its
time: the steps of the GPU route of `curnet.analyses.linkage.hclust` (as `r_bridge.modules.
hclust_for_r` calls it from R), taken one at a time with the device drained after each, and
the whole call beside them. docs/modules.md reads the results.

    python -m bench.hclust_split --genes 20000 5000 10000 40000 --backend cuda [--steps-at 20000] --out F.json
    (from R: bench/r_hclust_split.R, which calls split_for_r over R's own dist)

The steps (timed_hclust): the condensed vector moved to the device, the n x n square made
from it by the backend's one kernel (hclust_square: kernels/hclust.cu), the checks (finite,
symmetric: linkage._check), the nearest-neighbour chain kernel, the merges copied back, R's
encoding (merge, height, order). They repeat linkage.hclust's GPU route line for line;
`same_tree` checks they made the whole call's tree. Two measurements beside them: the
expansion the route took before (a slice copy a row, then a tiled mirror), and the move from
page-locked host memory.

The Python comparison (main): for each size, 1 - TOM of bench.modules' planted modules
(genes x 100 samples) on the device and its condensed vector on the host (R's dist's
layout), then `curnet.hclust` of that vector (first call apart), the steps, the kernel alone,
and `curnet.hclust` of the device's square matrix (the route cuRnet_blockwiseModules takes).
The helpers `condensed_into` and `expression_into` write the same data into vectors R
allocated (bench/r_hclust_split.R, bench/r_modules_series.R)."""
from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np


class Clock:
    """Seconds between marks, the device drained before each reading."""

    def __init__(self, sync):
        self.sync, self.steps = sync, {}
        self.t = time.perf_counter()

    def __call__(self, name: str) -> None:
        self.sync()
        now = time.perf_counter()
        self.steps[name] = self.steps.get(name, 0.0) + now - self.t
        self.t = now


def device(backend: str):
    """(the backend's first member, its array module, its drain, its chain kernel). The CPU has
    no kernel: the NumPy twin stands in (small sizes only: to test the bench itself)."""
    from curnet.analyses.linkage import nn_chain_twin
    from curnet.backends import get_backend
    be = get_backend(backend).members[0]
    xp = be.xp
    sync = xp.cuda.Device().synchronize if xp is not np else (lambda: None)
    chain = be.hclust_chain() or nn_chain_twin
    return be, xp, sync, chain


def timed_hclust(d: np.ndarray, n: int, method: str, backend: str, clock: Clock):
    """linkage.hclust's GPU route of a condensed host vector `d`, a step at a time: R's
    (merge, height, order)."""
    from scipy.spatial.distance import squareform
    from curnet.analyses.linkage import _check, _lower_to_upper, r_encoding
    be, xp, _, chain = device(backend)
    expand = be.hclust_square() or (lambda v, n: squareform(v))     # the CPU: SciPy stands in
    with be.device_scope():
        dev = xp.asarray(d)
        clock("condensed vector to the device")
        square = expand(dev, n)
        clock("expansion: one kernel (hclust_square)")
        del dev
        _, exact = _check(xp, square)
        if not exact:
            _lower_to_upper(xp, square)
        clock("checks: finite, symmetric")
        a, b, h = chain(square, method)
        clock("nearest-neighbour chain kernel")
        asnumpy = getattr(xp, "asnumpy", np.asarray)
        a, b, h = asnumpy(a), asnumpy(b), asnumpy(h)
        clock("merges copied back")
        del square
        merge, height, order = r_encoding(a, b, h, n)
        clock("R's encoding (merge, height, order)")
    return merge, height, order


def split_for_r(address, n, method: str = "average", backend: str = "cuda"):
    """r_bridge.modules.hclust_for_r's work on R's dist at `address` (data_address), step by
    step: (the steps' seconds, the result in the plain lists R converts)."""
    from curnet.r_bridge.handoff import plain, r_array
    _, _, sync, _ = device(backend)
    clock = Clock(sync)
    n = int(n)
    d = r_array(address, (n * (n - 1) // 2,), "double")
    d.flags.writeable = False
    clock("the engine reads R's memory (r_array)")
    merge, height, order = timed_hclust(d, n, method, backend, clock)
    out = plain({"merge": merge.ravel(order="F"), "height": height, "order": order})
    clock("plain lists for reticulate (tolist)")
    return clock.steps, out


def expansion_row_copies(d, n: int, xp):
    """The condensed vector's square as the GPU route made it before hclust_square: each
    row's entries copied into the upper triangle (n - 1 slice copies), then mirrored a tile
    at a time."""
    from curnet.analyses.linkage import _lower_to_upper
    out = xp.zeros((n, n), dtype=np.float64)
    start = 0
    for i in range(n - 1):
        stop = start + n - 1 - i
        out[i, i + 1:] = d[start:stop]
        start = stop
    _lower_to_upper(xp, out.T)          # out.T's lower triangle is out's upper
    return out


def dissimilarity(n: int, backend: str):
    """1 - TOM of bench.modules' planted modules (n genes x 100 samples) on the device, as
    cuRnet_blockwiseModules' block makes it (power 6, unsigned network, signed TOM)."""
    from curnet.coexpression.modules.dissimilarity import block_dissimilarity
    from .modules import planted
    return block_dissimilarity(planted(n), "pearson", "unsigned", 6, "signed", "min", 1.0, backend)


def condensed_of(square, xp):
    """R's as.dist(square): the lower triangle by columns (SciPy's condensed order of the
    transpose), on the device."""
    n = square.shape[0]
    rows, cols = xp.triu_indices(n, 1)
    return square[cols, rows]


def condensed_into(address, n, backend: str = "cuda") -> None:
    """R's double vector (cuRnet:::data_address) filled with as.dist(1 - TOM) of the planted
    modules of n genes."""
    from curnet.r_bridge.handoff import r_array
    n = int(n)
    be, xp, sync, _ = device(backend)
    with be.device_scope():
        cond = condensed_of(dissimilarity(n, backend), xp)
        out = r_array(address, (n * (n - 1) // 2,), "double")
        if xp is np:
            out[...] = cond
        else:
            cond.get(out=out)


def expression_into(address, genes) -> None:
    """R's samples x genes double matrix filled with the planted modules of bench.modules."""
    from curnet.r_bridge.handoff import r_array
    from .modules import planted
    x = planted(int(genes))                        # genes x samples
    r_array(address, (x.shape[1], x.shape[0]), "double")[...] = x.T


def gpu_memory() -> dict:
    """The device's used bytes (cudaMemGetInfo) and what CuPy's pool holds, as floats: reticulate
    1.28 makes a Python int an R integer, which wraps above 2^31 (it did on the H200)."""
    import cupy as cp
    free, total = cp.cuda.runtime.memGetInfo()
    return {"device_used_bytes": float(total - free), "pool_bytes": float(cp.get_default_memory_pool().total_bytes())}


def free_pool() -> None:
    import cupy as cp
    cp.get_default_memory_pool().free_all_blocks()


def once(fn, *args, **kwargs):
    """fn(*args, **kwargs) and its seconds (the device drained by fn where it matters)."""
    t = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - t


def what_could_be(host: np.ndarray, square, n: int, xp, sync, expand) -> dict:
    """The package's one-kernel expansion and the former row copies, each checked against
    R's square, and the move to the device from page-locked memory (the host copy into it
    timed apart)."""
    row: dict = {"condensed_bytes": int(host.nbytes)}
    dev = xp.asarray(host)
    upper = xp.triu(square.T, 1)                         # as.dist reads the lower triangle

    def row_copies(v, m):
        return expansion_row_copies(v, m, xp)
    for name, fn in (("expansion_one_kernel", expand), ("expansion_row_copies", row_copies)):
        fn(dev[:3], 3)                                   # compiled apart
        sync()
        t = time.perf_counter()
        out = fn(dev, n)
        sync()
        row[name + "_s"] = time.perf_counter() - t
        row[name + "_same"] = bool((out == upper + upper.T).all())
        del out
    del upper, dev
    import cupy as cp
    pinned = cp.cuda.alloc_pinned_memory(host.nbytes)
    staged = np.frombuffer(pinned, dtype=np.float64, count=host.size)
    _, row["host_copy_to_pinned_s"] = once(np.copyto, staged, host)
    dev = xp.empty(host.size, dtype=np.float64)
    t = time.perf_counter()
    dev.set(staged)
    sync()
    row["pinned_to_device_s"] = time.perf_counter() - t
    return row


def compare_size(n: int, backend: str, steps: bool) -> dict:
    from curnet.analyses.linkage import hclust
    be, xp, sync, chain = device(backend)
    row: dict = {"genes": n, "samples": 100, "backend": backend}
    with be.device_scope():
        square, row["tom_s"] = once(lambda: (dissimilarity(n, backend), sync())[0])
        cond = condensed_of(square, xp)
        host = cond.get() if xp is not np else cond
        del cond
        sync()

        def whole(d, **kw):
            tree = hclust(d, "average", backend=backend, **kw)
            sync()
            return tree

        def kernel(d):
            out = chain(d, "average")
            sync()
            return out
        tree, row["hclust_condensed_host_s"] = once(whole, host)
        if steps:
            clock = Clock(sync)
            merge, height, _ = timed_hclust(host, n, "average", backend, clock)
            row["steps_s"] = clock.steps
            row["steps_sum_s"] = sum(clock.steps.values())
            row["same_tree"] = bool((merge == tree.merge).all() and (height == tree.height).all())
        work = square.copy()
        sync()
        _, row["kernel_s"] = once(kernel, work)
        work[...] = square
        sync()
        _, row["hclust_device_square_s"] = once(whole, work, overwrite=True)
        del work
        if steps and xp is not np:
            try:
                row.update(what_could_be(host, square, n, xp, sync, be.hclust_square()))
            except Exception as e:                  # kept in the row: the steps above still count
                row["what_could_be_failed"] = f"{type(e).__name__}: {e}"
    print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--genes", type=int, nargs="+", default=[500])
    p.add_argument("--backend", default="cpu")
    p.add_argument("--steps-at", type=int, default=20000,
                   help="the steps, the one-kernel expansion and the page-locked move at this size")
    p.add_argument("--out")
    args = p.parse_args(argv)
    from curnet.analyses.linkage import hclust
    from curnet.backends import get_backend
    report = {"machine": platform.node(), "backend": get_backend(args.backend).describe(),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": []}
    # the process's first call (CuPy's kernels of the checks and the chain compiled or loaded)
    _, report["first_call_s"] = once(hclust, np.linspace(0.1, 1, 64 * 63 // 2), backend=args.backend)
    for n in args.genes:
        report["rows"].append(compare_size(n, args.backend, steps=n == args.steps_at))
        if args.out:
            with open(args.out, "w") as f:
                json.dump(report, f, indent=1)
        if get_backend(args.backend).members[0].xp is not np:
            free_pool()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
