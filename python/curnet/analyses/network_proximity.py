"""Network proximity between vertex sets (Guney et al., Nat. Commun. 2016; separation from
Menche et al., Science 2015), with a degree-preserving reference distribution.
Distances run from the module to the set (the same both ways on undirected graphs, the
networks these measures were made for).

For a set T (e.g. a drug's targets) and a set S (e.g. a disease module), d(s, t) the
shortest-path distance from s to t (hops by default, as in the paper):

* closest     d_c = mean over t in T of min over s in S of d(s, t)
* shortest    d_s = mean over t of the mean over s of d(s, t)
* kernel      d_k = -mean over t of ln(mean over s of exp(-(d(s, t) + 1)))
* centre      d_cc = mean over t of d(centre(S), t), centre(S) the member of S with the
              smallest sum of distances to S (the first such, in S's order)
* separation  s_TS = <d_TS> - (<d_TT> + <d_SS>) / 2, <d_XX> the mean distance of each
              member of X to its nearest other member, <d_TS> the mean over the members
              of both sets of the distance to the nearest member of the other set
              (a set of one vertex has no nearest other member: its separation is NaN)

Vertices with no path between them are at distance inf, which makes the measures inf or
NaN: as in the paper, use the network's largest component.

Reference: `n_random` pairs of random sets, each vertex replaced by one drawn from its
degree bin (vertices of similar degree, at least `bin_size` a bin, as the paper's code
bins them), seeded. z = (d - mean) / sd of the reference values; the empirical p-value is
(1 + #{reference <= d}) / (1 + n_random) (small distances are the significant side).

With a list of sets, the module's reference sets are drawn once and shared by every set
(each set's own are drawn after them, in list order).

Speed: every distance any measure or reference set can ask for lies between two vertices
of the degree bins the sets touch. One many-source traversal from that pool of vertices
keeps the pool's columns of each batch (a |pool| x |pool| matrix: int16 hops where they
fit, else int32; float32 weighted); every set, every reference set and every measure is
then a gather from that matrix, on the device. Several query sets against one module
share the traversal. On an undirected graph d(s, t) = d(t, s) and the same matrix serves
both directions; on a directed graph rows are the module side (d from S to T).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..algorithms.bfs import bfs_blocks
from ..algorithms.common import check_fits, primary
from ..algorithms.sinks import Sink
from ..algorithms.sssp import sssp_blocks
from ..backends import get_backend
from ..sources import resolve_sources

MEASURES = ("closest", "shortest", "kernel", "centre", "separation")
# Reference sets reduced at once (bounds the gathered (chunk, |S|, |T|) temporaries).
REFERENCE_ENTRIES = 1 << 24


@dataclass
class Proximity:
    """The proximity of one set to the module: per measure, the observed value, the
    reference distribution's mean and sd, the z-score and the empirical p-value."""
    n_set: int
    n_module: int
    distance: dict = field(default_factory=dict)
    mean: dict = field(default_factory=dict)
    sd: dict = field(default_factory=dict)
    z: dict = field(default_factory=dict)
    p_value: dict = field(default_factory=dict)
    reference: dict = field(default_factory=dict)   # measure -> (n_random,) values


def degree_bins(degree: np.ndarray, bin_size: int = 100) -> np.ndarray:
    """Bin id of each vertex: consecutive degrees grouped until a bin holds `bin_size`
    vertices; a short last bin joins the one before (the binning of Guney et al.'s code)."""
    if bin_size < 1:
        raise ValueError(f"bin_size must be at least 1, got {bin_size}")
    values, counts = np.unique(degree, return_counts=True)
    bin_of_value = np.empty(len(values), dtype=np.int64)
    b, filled = 0, 0
    for i, c in enumerate(counts):
        bin_of_value[i] = b
        filled += c
        if filled >= bin_size:
            b, filled = b + 1, 0
    if filled and b > 0:                      # a short last bin: merge it into the previous
        bin_of_value[bin_of_value == b] = b - 1
    return bin_of_value[np.searchsorted(values, degree)]


def reference_sets(members: np.ndarray, bins: np.ndarray, n_random: int, rng) -> np.ndarray:
    """(n_random, len(members)) vertex ids: each member replaced by a uniform draw of its own
    bin, no vertex twice in a set (each bin's picks a uniform subset of its vertices). Where a
    bin's picks are few beside its vertices, a set's picks there are drawn with replacement
    and the sets with a repeat drawn again (exact: an accepted draw is a uniform draw of
    distinct vertices); other bins sort a random key for each of their vertices and each set
    (for every bin, that took ~1 s for 1,000 sets of 200 on STRING; this, ~12 ms)."""
    out = np.empty((n_random, len(members)), dtype=np.int64)
    order = np.argsort(bins, kind="stable")
    starts = np.searchsorted(bins[order], np.arange(bins.max() + 2))
    member_bins = bins[members]
    for b in np.unique(member_bins):
        where = np.flatnonzero(member_bins == b)
        pool = order[starts[b]:starts[b + 1]]
        m = len(where)
        if m * (m - 1) <= 4 * len(pool):        # a draw has no repeat with chance >= ~e^-2
            picks = rng.integers(0, len(pool), (n_random, m))
            again = _with_repeats(picks)
            while again.size:
                picks[again] = rng.integers(0, len(pool), (again.size, m))
                again = again[_with_repeats(picks[again])]
        else:
            picks = np.argsort(rng.random((n_random, len(pool))), axis=1)[:, :m]
        out[:, where] = pool[picks]
    return out


def _with_repeats(picks: np.ndarray) -> np.ndarray:
    """The rows of picks that hold a value twice."""
    if picks.shape[1] < 2:
        return np.zeros(0, dtype=np.int64)
    s = np.sort(picks, axis=1)
    return np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))


def proximity(g, sets, module, *, measures=("closest",), n_random=1000, bin_size=100, seed=0,
              weighted=False, backend="auto"):
    """Proximity of one or several vertex sets to a module, with z-scores.

    Parameters
    ----------
    g : Graph
    sets : vertex ids or names, a list of such sets, or a dict of them by name
        The query set(s) T (e.g. drug targets). A list of lists gives a list of results,
        a dict ({"drug": [...], ...}, R's named list) a dict of results by the same names,
        all from one traversal.
    module : vertex ids or names
        The set S (e.g. disease genes).
    measures : sequence of str or "all"
        Among "closest", "shortest", "kernel", "centre", "separation".
    n_random : int
        Reference set pairs (0: no reference; z and p are then NaN).
    bin_size : int
        The fewest vertices a degree bin holds.
    seed : int
    weighted : bool
        Use the graph's weights as lengths (default: hops, as in the paper).
    backend : str

    Returns
    -------
    Proximity, or a list of Proximity for a list of sets.

    Examples
    --------
    >>> import curnet
    >>> g = curnet.generators.path(6, directed=False)
    >>> r = curnet.proximity(g, [0, 1], [4, 5], measures="all", n_random=0, backend="cpu")
    >>> r.distance["closest"], r.distance["shortest"], r.distance["separation"]
    (3.5, 4.0, 2.5)
    """
    measures = MEASURES if measures == "all" else tuple([measures] if isinstance(measures, str) else measures)
    bad = [m for m in measures if m not in MEASURES]
    if bad or not measures:
        raise ValueError(f"measures must be among {', '.join(MEASURES)} (or 'all'), got {bad or measures}")
    if n_random < 0:
        raise ValueError(f"n_random must be 0 or more, got {n_random}")
    if isinstance(sets, dict):
        if not sets:
            raise ValueError("sets is an empty dict: give at least one named set")
        results = proximity(g, list(sets.values()), module, measures=measures, n_random=n_random,
                            bin_size=bin_size, seed=seed, weighted=weighted, backend=backend)
        return dict(zip(sets.keys(), results))
    be = get_backend(backend)
    many = _is_list_of_sets(sets)
    query = [_members(g, s, "set") for s in (sets if many else [sets])]
    mod = _members(g, module, "module")
    rng = np.random.default_rng(seed)
    bins = degree_bins(g.oriented("all").out_degree(), bin_size)
    refs_mod = reference_sets(mod, bins, n_random, rng) if n_random else None
    refs = [reference_sets(q, bins, n_random, rng) if n_random else None for q in query]
    # every vertex a distance may be asked of: the bins the sets touch (the sets themselves
    # when there is no reference)
    touched = np.unique(np.concatenate([bins[mod]] + [bins[q] for q in query]))
    pool = (np.flatnonzero(np.isin(bins, touched)) if n_random
            else np.unique(np.concatenate([mod] + query))).astype(np.int32)
    dist = pool_distances(g, pool, weighted and g.weighted, backend)
    xp = primary(be).xp
    d = xp.asarray(dist)
    at = np.full(len(g), -1, dtype=np.int64)
    at[pool] = np.arange(len(pool))
    results = []
    for q, ref in zip(query, refs):
        r = Proximity(n_set=len(q), n_module=len(mod))
        observed = _measures(xp, d, at[mod][None], at[q][None], measures)
        reference = (_measures_chunked(xp, d, at[refs_mod], at[ref], measures) if n_random
                     else {m: np.empty(0) for m in measures})
        for m in measures:
            obs, ref_m = float(observed[m][0]), reference[m]
            r.distance[m], r.reference[m] = obs, ref_m
            if n_random:
                with np.errstate(invalid="ignore"):     # inf distances (several components)
                    mu, sd = float(ref_m.mean()), float(ref_m.std())
                r.mean[m], r.sd[m] = mu, sd
                r.z[m] = (obs - mu) / sd if sd > 0 else float("nan")
                r.p_value[m] = float((1 + np.sum(ref_m <= obs)) / (1 + n_random))
            else:
                r.mean[m] = r.sd[m] = r.z[m] = r.p_value[m] = float("nan")
        results.append(r)
    return results if many else results[0]


def as_columns(results, names) -> dict:
    """Results as a table's columns, one row a set and measure (the CLI's and R's form)."""
    cols: dict[str, list] = {k: [] for k in ("set", "measure", "distance", "z", "p_value", "mean", "sd", "n_set",
                                             "n_module")}
    for name, r in zip(names, results):
        for m in r.distance:
            for k, v in (("set", name), ("measure", m), ("distance", r.distance[m]), ("z", r.z[m]),
                         ("p_value", r.p_value[m]), ("mean", r.mean[m]), ("sd", r.sd[m]),
                         ("n_set", r.n_set), ("n_module", r.n_module)):
                cols[k].append(v)
    return cols


def _is_list_of_sets(sets) -> bool:
    return (isinstance(sets, (list, tuple)) and len(sets) > 0
            and all(not isinstance(s, (str, bytes)) and np.ndim(s) == 1 for s in sets))


def _members(g, vertices, what: str) -> np.ndarray:
    ids = resolve_sources(g, vertices)
    uniq = np.unique(ids)
    if len(uniq) != len(ids):
        raise ValueError(f"the {what} names a vertex twice")
    return ids.astype(np.int64)


class _PoolSink(Sink):
    """Keeps each batch's columns of the pool vertices: rows of a host (pool, pool) matrix
    (hops: the dtype's largest value where unreached, so minima need no conversion)."""

    def __init__(self, pool, out):
        self.pool, self.out = pool, out

    def consume(self, be, first_row, batch_ids, result) -> None:
        xp = be.xp
        block = result[0] if isinstance(result, tuple) else result      # (n, kb)
        part = block[xp.asarray(self.pool)].T                           # (kb, pool)
        if self.out.dtype.kind != "f":
            part = xp.where(part < 0, np.iinfo(self.out.dtype).max, part)
        self.out[first_row:first_row + len(batch_ids)] = be.to_host(part.astype(self.out.dtype))


def pool_distances(g, pool: np.ndarray, weighted: bool, backend: str) -> np.ndarray:
    """(pool, pool) distances from each pool vertex to each: float32 for weights (inf
    unreached), else hops as int16 where they fit (int32 beyond), the dtype's largest value
    where unreached."""
    k = len(pool)
    dtype = np.dtype(np.float32 if weighted else np.int16 if len(g) < np.iinfo(np.int16).max else np.int32)
    check_fits(dtype.itemsize * k * k, f"the distances among {k:,} vertices")
    out = np.empty((k, k), dtype=dtype)
    if weighted:
        sssp_blocks(g, pool, _PoolSink(pool, out), backend=backend, with_pred=False, progress=False)
    else:
        bfs_blocks(g, pool, _PoolSink(pool, out), backend=backend, unreachable=-1, progress=False)
    return out


def _lengths(xp, x):
    """Distances read from the pool matrix as float64 (sums stay exact), inf where unreached."""
    if x.dtype.kind == "f":
        return x.astype(xp.float64)
    return xp.where(x == np.iinfo(x.dtype).max, xp.inf, x.astype(xp.float64))


def _measures_chunked(xp, d, mod_sets, q_sets, measures) -> dict:
    r = len(mod_sets)
    per_set = max(len(mod_sets[0]) * max(len(q_sets[0]), len(mod_sets[0])), 1)
    step = max(1, REFERENCE_ENTRIES // per_set)
    parts = [_measures(xp, d, mod_sets[i:i + step], q_sets[i:i + step], measures)
             for i in range(0, r, step)]
    return {m: np.concatenate([p[m] for p in parts]) for m in measures}


def _measures(xp, d, S, T, measures) -> dict:
    """Each measure for R set pairs at once: S (R, |S|), T (R, |T|) row/column positions
    in `d`; d[s, t] is the distance from s to t."""
    # sets in different components: inf - inf (separation), log(0) (kernel: inf, as it should)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _measures_of(xp, d, xp.asarray(S), xp.asarray(T), measures)


def _measures_of(xp, d, S, T, measures) -> dict:
    out = {}
    st = d[S[:, :, None], T[:, None, :]]                   # (R, |S|, |T|), the matrix's dtype
    if "closest" in measures or "separation" in measures:
        to_t = _lengths(xp, st.min(axis=1))                # each t's nearest module vertex
    if "closest" in measures:
        out["closest"] = to_t.mean(axis=1)
    if "shortest" in measures or "kernel" in measures:
        lengths = _lengths(xp, st)
        if "shortest" in measures:
            out["shortest"] = lengths.mean(axis=(1, 2))
        if "kernel" in measures:
            out["kernel"] = -xp.log(xp.exp(-(lengths + 1)).mean(axis=1)).mean(axis=1)
        del lengths
    if "centre" in measures:
        ss = _lengths(xp, d[S[:, :, None], S[:, None, :]])  # (R, |S|, |S|): from u to s
        centre = xp.argmin(ss.sum(axis=2), axis=1)          # first minimum: S's order
        rows = xp.arange(len(S))
        out["centre"] = _lengths(xp, d[S[rows, centre][:, None], T]).mean(axis=1)
    if "separation" in measures:
        def nearest_other(X):                               # mean distance to the nearest other member
            if X.shape[1] < 2:
                return xp.full(len(X), xp.nan)
            xx = _lengths(xp, d[X[:, :, None], X[:, None, :]])
            i = xp.arange(X.shape[1])
            xx[:, i, i] = xp.inf
            return xx.min(axis=2).mean(axis=1)
        to_s = _lengths(xp, st.min(axis=2))
        d_ts = (to_t.sum(axis=1) + to_s.sum(axis=1)) / (S.shape[1] + T.shape[1])
        out["separation"] = d_ts - (nearest_other(S) + nearest_other(T)) / 2
    host = {}
    for m, v in out.items():
        host[m] = np.asarray(v.get() if hasattr(v, "get") else v, dtype=np.float64)
    return host
