"""The CPU backend's batch scheduling (as `cuda/batches.py` is the CUDA backend's): batches
run on parallel threads, and each batch gets a share of the threads for the vertex ranges its
levels are cut into (`bfs.balanced_ranges`), so a lone batch uses all of them."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor


class ThreadPlan:
    """`workers` threads: the batches' pool (`map_batches`) and the level pool
    (`over_ranges`), with the calling thread's share of them (`level_threads`)."""

    def __init__(self, workers: int):
        self.workers = workers
        # the threads the calling thread's batch may use inside a level (see map_batches)
        self._share = threading.local()
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def level_threads(self) -> int:
        return getattr(self._share, "threads", 1)

    def over_ranges(self, fn, ranges) -> None:
        """fn(a, b) for each range, on the backend's pool when there are several."""
        if len(ranges) == 1:
            fn(*ranges[0])
            return
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="curnet-cpu-level")
        for f in [self._pool.submit(fn, a, b) for a, b in ranges]:
            f.result()

    def map_batches(self, fn, batches, parallel: bool = True):
        """Run `fn` on each batch, several at a time when `parallel` (for work that releases
        the GIL: NumPy's gathers and reductions do, SciPy's Dijkstra does not)."""
        if not parallel or self.workers == 1 or len(batches) == 1:
            # one batch at a time: its levels may use every thread (a 64-source BFS is one
            # batch: measured on one core of 16 before, docs/peers.md)
            run = self._with_threads(fn, self.workers if parallel else 1)
            for b in batches:
                yield run(b)
            return
        run = self._with_threads(fn, max(1, self.workers // min(len(batches), self.workers)))
        with ThreadPoolExecutor(self.workers) as pool:
            futures = [pool.submit(run, b) for b in batches]
            try:
                for f in futures:
                    yield f.result()
            except BaseException:  # KeyboardInterrupt included: drop the batches not started
                for f in futures:
                    f.cancel()
                raise

    def _with_threads(self, fn, threads: int):
        def run(batch):
            before = self.level_threads()
            self._share.threads = threads
            try:
                return fn(batch)
            finally:
                self._share.threads = before
        return run
