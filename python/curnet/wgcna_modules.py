"""WGCNA's module detection (`blockwiseModules`): TOM on the device, average-linkage
clustering of 1 - TOM on the device, the Dynamic Tree Cut, module eigengenes, kME checks and
the merging of close modules, step for step as WGCNA 1.72 takes them.

`ModuleDetection` holds a run's state between its steps, so that a front door can cut each
block's tree with its own Dynamic Tree Cut (R: `dynamicTreeCut::cutreeHybrid`) between
`block_tree` and `set_block_labels`; `blockwise_modules` runs all steps with the Python
tree cut (`curnet.tree_cut`).

Steps (WGCNA's `blockwiseModules`):
1. `good_samples_genes`: genes with too many missing values or zero variance, and samples
   with too many missing genes, are left out (grey, NA eigengenes).
2. blocks: one block of every good gene when it fits (`max_block_size`, by default as many
   genes as the device's memory holds: three n x n float64 matrices); beyond that, genes are
   k-means clustered by correlation (WGCNA's number of centres, min(n / 20, 100 n /
   max_block_size); centres: random genes, then their members' sign-aligned mean, ten
   rounds), a cluster larger than `max_block_size` cut in pieces, and the blocks filled
   greedily: the largest piece left starts a block, and the pieces whose centres correlate
   best with the block's join it while they fit. WGCNA's projective k-means forms its blocks
   otherwise, so several blocks give other (approximate) modules.
3. each block: the adjacency and TOM on the device (curnet.coexpression's tiles), 1 - TOM in
   place, `curnet.linkage.hclust` there; the dissimilarity comes to the host for the cut.
4. each block's modules: eigengenes (the first right singular vector of the module's scaled
   expression, signed to agree with its average), genes with kME < `min_kme_to_stay` out,
   modules with fewer than `min_core_kme_size` genes of kME > `min_core_kme` dropped.
5. genes whose kME is better elsewhere by Fisher p-value ratio < `reassign_threshold`
   moved; `merge_close_modules` (eigengene dissimilarity below `merge_cut_height`), modules
   renumbered by size.

Missing values: WGCNA imputes them (impute.knn) for the eigengenes; this module does not
impute, and refuses expression with missing values left after step 1.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from . import coexpression as ce
from .backends import get_backend
from .linkage import Dendrogram, hclust

#: WGCNA's standard colours, first 34 (its labels2colors continues with R's named colours)
STANDARD_COLORS = (
    "turquoise", "blue", "brown", "yellow", "green", "red", "black", "pink", "magenta", "purple",
    "greenyellow", "tan", "salmon", "cyan", "midnightblue", "lightcyan", "grey60", "lightgreen",
    "lightyellow", "royalblue", "darkred", "darkgreen", "darkturquoise", "darkgrey", "orange",
    "darkorange", "white", "skyblue", "saddlebrown", "steelblue", "paleturquoise", "violet",
    "darkolivegreen", "darkmagenta")
GREY = "grey"
#: the matrices of n x n float64 a block holds at once on the device (adjacency, TOM, the
#: clustering's work copy)
BLOCK_MATRICES = 3


def labels2colors(labels, color_seq=STANDARD_COLORS) -> np.ndarray:
    """WGCNA's labels2colors for numeric labels: 0 grey, k the k-th colour (beyond the
    sequence: the sequence again with ".1", ".2", ...)."""
    labels = np.asarray(labels, dtype=np.int64)
    top = int(labels.max(initial=0))
    seq = list(color_seq)
    rep = 1
    while len(seq) < top:
        seq += [f"{c}.{rep}" for c in color_seq]
        rep += 1
    return np.array([GREY if v == 0 else seq[v - 1] for v in labels], dtype=object)


# -- 1. good samples and genes ---------------------------------------------------------------
def good_samples_genes(x: np.ndarray, min_fraction: float = 0.5, min_n_samples: int = 4,
                       min_n_genes: int = 4):
    """WGCNA's goodSamplesGenes on x (genes x samples): (good genes, good samples)."""
    genes, samples = x.shape
    finite = x[~np.isnan(x)]
    tol = 1e-10 * (np.abs(finite).max() if finite.size else 0.0)
    gg = np.ones(genes, dtype=bool)
    gs = np.ones(samples, dtype=bool)
    bad_g = bad_s = 0
    while True:
        ns = int(gs.sum())
        na = np.isnan(x[:, gs]).sum(axis=1)
        gg = gg & (ns - na >= min_n_samples)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)       # genes without two values: 0 below
            var = np.nanvar(x[np.ix_(gg, gs)], axis=1, ddof=1)
        var = np.where(np.isnan(var), 0.0, var)
        keep = (na[gg] < (1 - min_fraction) * ns) & (var > tol ** 2) & (ns - na[gg] >= min_n_samples)
        gg[np.flatnonzero(gg)] = keep
        if gg.sum() < min_n_genes:
            raise ValueError("too few genes with valid expression levels in the required number of samples "
                             f"(at least {min_n_genes} genes with {min_n_samples} values and non-zero variance)")
        ng = int(gg.sum())
        na_s = np.isnan(x[np.ix_(gg, gs)]).sum(axis=0)
        gs[np.flatnonzero(gs)] = (na_s < (1 - min_fraction) * ng) & (ng - na_s >= min_n_genes)
        if gs.sum() < min_n_samples:
            raise ValueError(f"too few samples with valid expression levels (at least {min_n_samples} "
                             "samples are needed)")
        changed = (~gg).sum() > bad_g or (~gs).sum() > bad_s
        bad_g, bad_s = int((~gg).sum()), int((~gs).sum())
        if not changed:
            return gg, gs


# -- 2. blocks ---------------------------------------------------------------------------------
def largest_block(device) -> int:
    """The most genes one block may hold on `device` (BLOCK_MATRICES n x n float64 matrices
    in 90% of its free memory; the host's available memory for the CPU)."""
    if device.xp is np:
        from .memory import available_host_memory
        free = available_host_memory()
    else:
        free = device.free_memory()
    return max(1, int(math.sqrt(0.9 * free / (BLOCK_MATRICES * 8))))


def form_blocks(z: np.ndarray, max_block_size: int, signed: bool, seed: int = 54321) -> np.ndarray:
    """Block numbers (1..B, the largest block first) of genes whose prepared rows are `z`
    (unit-norm, centred: dot products are correlations). See the module's notes, step 2."""
    n = z.shape[0]
    if n <= max_block_size:
        return np.ones(n, dtype=np.int64)
    k = max(2, int(min(n / 20, 100 * n / max_block_size)))
    rng = np.random.default_rng(seed)
    centres = z[rng.choice(n, size=k, replace=False)]
    for _ in range(10):
        r = z @ centres.T
        near = np.argmax(r if signed else np.abs(r), axis=1)
        sign = np.ones(n) if signed else np.sign(r[np.arange(n), near])
        for c in range(k):
            members = near == c
            if members.any():
                m = (z[members] * sign[members, None]).sum(axis=0)
                norm = np.linalg.norm(m)
                if norm > 0:
                    centres[c] = m / norm
    pieces = []                            # (members, centre) of at most max_block_size genes
    for c in range(k):
        members = np.flatnonzero(near == c)
        for s in range(0, len(members), max_block_size):
            pieces.append((members[s:s + max_block_size], centres[c]))
    pieces.sort(key=lambda p: len(p[0]), reverse=True)
    # blocks: the largest piece left starts one, then the pieces nearest its centre join
    # while they fit (the nearest clusters share a block, as WGCNA's pre-clustering merges them)
    block = np.zeros(n, dtype=np.int64)
    left = list(range(len(pieces)))
    b = 0
    while left:
        b += 1
        first = left.pop(0)
        members, centre = pieces[first]
        size, total = len(members), centre * len(members)
        block[members] = b
        while True:
            fits = [p for p in left if size + len(pieces[p][0]) <= max_block_size]
            if not fits:
                break
            r = np.array([pieces[p][1] @ total for p in fits])
            best = fits[int(np.argmax(r if signed else np.abs(r)))]
            left.remove(best)
            members, centre = pieces[best]
            block[members] = b
            size += len(members)
            total = total + centre * len(members) * (1 if signed or centre @ total >= 0 else -1)
    order = np.argsort(-np.bincount(block)[1:], kind="stable")  # renumber by size
    renumber = np.empty(len(order), dtype=np.int64)
    renumber[order] = np.arange(1, len(order) + 1)
    return renumber[block - 1]


# -- 3. a block's TOM and tree -------------------------------------------------------------------
def block_dissimilarity(x: np.ndarray, cor_type: str, network_type: str, power: float, tom_type: str,
                        tom_denom: str, max_p_outliers: float, backend: str):
    """1 - TOM of a block's genes (x: genes x samples) on the backend's device, as
    WGCNA's blockwiseModules computes its TOM: a device array (NumPy on the CPU)."""
    c = ce.Correlations(x, cor_type, max_p_outliers=max_p_outliers, backend=backend, warn=False)
    xp, n = c.xp, c.genes
    be = c.device
    with be.device_scope():
        ce.check_device(be, BLOCK_MATRICES * n * n * 8, f"a block of {n:,} genes (its adjacency, TOM and clustering)")
        a = xp.empty((n, n), dtype=np.float64)
        for rows in c.blocks():
            for cols in c.blocks():
                r = c.tile_of(rows, cols)
                if network_type == "unsigned" and tom_type == "signed":
                    a[rows[0]:rows[1], cols[0]:cols[1]] = xp.sign(r) * xp.abs(r) ** power
                else:
                    a[rows[0]:rows[1], cols[0]:cols[1]] = ce._adjacency_of(r, network_type, power, xp)
        a[xp.isnan(a)] = 0.0
        idx = xp.arange(n)
        a[idx, idx] = 1.0
        conn = xp.abs(a).sum(axis=1)
        tom = xp.empty((n, n), dtype=np.float64)
        side = max(1, c.tile // 2)
        for start in range(0, n, side):
            rows = (start, min(start + side, n))
            tom[rows[0]:rows[1]] = ce._tom_rows(a, conn, rows, tom_type, tom_denom, xp)
        del a
        if xp is np:
            np.subtract(1.0, tom, out=tom)
            np.fill_diagonal(tom, 0.0)
        else:
            from .backends.cuda.hclust import one_minus
            one_minus(tom)
    return tom


# -- 4. eigengenes and kME ---------------------------------------------------------------------------
def scale_rows(xp, x):
    """R's t(scale(t(x))) on the array module xp: each row centred and divided by its standard
    deviation (n - 1)."""
    c = x - x.mean(axis=1, keepdims=True)
    return c / xp.sqrt((c * c).sum(axis=1, keepdims=True) / (x.shape[1] - 1))


def eigengenes(xp, scaled, codes, k: int):
    """WGCNA's module eigengenes of k modules at once, on the array module xp (CuPy on a GPU):
    `scaled` the genes' scaled expression (genes x samples, `scale_rows`), `codes` each gene's
    module 0..k-1 or -1 (host ints). Returns samples x k: each module's first right singular
    vector (unit length), signed to correlate positively with the module's average scaled
    expression (WGCNA's align = "along average").

    Batched: the first right singular vector of a module's rows S is the top eigenvector of
    its Gram matrix S'S (samples x samples). Modules are stacked with zero rows up to the
    batch's largest (zero rows change no Gram matrix), largest first, so that a batch's
    padding at most doubles its rows; then one product and one `eigh` a batch."""
    codes = np.asarray(codes, dtype=np.int64)
    samples = scaled.shape[1]
    me = xp.zeros((samples, k))
    on = np.flatnonzero(codes >= 0)
    if k == 0 or on.size == 0:
        return me
    sizes = np.bincount(codes[on], minlength=k)
    members = on[np.argsort(codes[on], kind="stable")]            # genes grouped by module
    start = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    total = int(sizes.sum())
    by_size = np.argsort(-sizes, kind="stable")
    i = 0
    while i < k and sizes[by_size[i]] > 0:
        tallest = int(sizes[by_size[i]])
        j = i + 1
        while j < k and sizes[by_size[j]] > 0 and (j + 1 - i) * tallest <= max(total, tallest):
            j += 1
        batch = by_size[i:j]
        counts = sizes[batch]
        slot = np.repeat(np.arange(len(batch)), counts)
        row = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        genes = members[np.repeat(start[batch], counts) + row]
        pad = xp.zeros((len(batch), tallest, samples))
        pad[xp.asarray(slot), xp.asarray(row)] = scaled[xp.asarray(genes)]
        _, vectors = xp.linalg.eigh(xp.matmul(pad.transpose(0, 2, 1), pad))
        pc = vectors[:, :, -1]                                     # the largest eigenvalue's
        average = pad.sum(axis=1) / xp.asarray(counts, dtype=np.float64)[:, None]
        agree = ((average - average.mean(axis=1, keepdims=True))
                 * (pc - pc.mean(axis=1, keepdims=True))).sum(axis=1)
        me[:, xp.asarray(batch)] = xp.where((agree < 0)[:, None], -pc, pc).T
        i = j
    return me


def eigengene(x: np.ndarray) -> np.ndarray:
    """The module eigengene of one module's expression (genes x samples) on the host."""
    return eigengenes(np, scale_rows(np, np.asarray(x, dtype=np.float64)), np.zeros(len(x), dtype=np.int64), 1)[:, 0]


def factor_codes(labels: np.ndarray, exclude_grey: bool, grey):
    """(levels in R's factor order: numbers by value, names alphabetically; each label's
    level number, -1 for grey when excluded)."""
    levels, codes = np.unique(np.asarray(labels), return_inverse=True)
    levels = levels.tolist()
    codes = codes.astype(np.int64)
    if exclude_grey and grey in levels:
        g = levels.index(grey)
        levels.pop(g)
        codes = np.where(codes == g, -1, codes - (codes > g))
    return levels, codes


def module_eigengenes(xp, scaled, labels: np.ndarray, exclude_grey: bool, grey):
    """(names, eigengenes samples x modules, an array of xp) of every level of `labels` in
    R's factor order; `scaled` the labelled genes' scaled expression on xp."""
    levels, codes = factor_codes(labels, exclude_grey, grey)
    return levels, eigengenes(xp, scaled, codes, len(levels))


def correlation_with(x: np.ndarray, y: np.ndarray, cor_type: str, max_p_outliers: float) -> np.ndarray:
    """cor(genes, vectors) as WGCNA's corFnc: x genes x samples, y k x samples; genes x k."""
    zx, _ = ce.prepare(x, cor_type, max_p_outliers)
    zy, _ = ce.prepare(y, cor_type, max_p_outliers)
    return np.clip(zx @ zy.T, -1.0, 1.0)


def kme_of(xp, z, me, cor_type: str, max_p_outliers: float):
    """cor(genes, eigengenes) on xp: `z` the genes' prepared rows (ce.prepare, on xp), `me`
    eigengenes samples x k on xp (prepared on the host: k short vectors). genes x k."""
    zme, _ = ce.prepare(_host(me).T, cor_type, max_p_outliers)
    return xp.clip(z @ xp.asarray(zme).T, -1.0, 1.0)


def _host(a) -> np.ndarray:
    return a if isinstance(a, np.ndarray) else a.get()


def cor_pvalue_fisher(r: np.ndarray, n: int) -> np.ndarray:
    """WGCNA's corPvalueFisher (two-sided)."""
    from scipy.stats import norm
    with np.errstate(divide="ignore", invalid="ignore"):
        z = 0.5 * np.log((1 + r) / (1 - r)) * math.sqrt(n - 3)
    return 2 * norm.sf(np.abs(z))


def _me_order(me: np.ndarray, names: list, grey_last: bool, grey) -> list:
    """WGCNA's orderMEs / .clustOrder: the eigengenes in the order of the average-linkage
    dendrogram of 1 - cor (grey last when asked)."""
    def order_of(cols):
        if len(cols) < 2:
            return list(cols)
        d = 1 - np.corrcoef(me[:, cols].T)
        tree = hclust(d, "average", backend="cpu")
        return [cols[i - 1] for i in tree.order]
    idx = list(range(len(names)))
    if grey_last and grey in names:
        g = names.index(grey)
        return order_of([i for i in idx if i != g]) + [g]
    return order_of(idx)


def _relabel(labels: np.ndarray, mapping: dict) -> np.ndarray:
    """labels with each value v replaced by mapping.get(v, v) (one pass over the values)."""
    values, inverse = np.unique(labels, return_inverse=True)
    return np.array([mapping.get(v, v) for v in values.tolist()], dtype=object)[inverse]


def merge_close_modules(xp, scaled, labels: np.ndarray, cut_height: float, cor_type: str,
                        max_p_outliers: float, grey, color_seq):
    """WGCNA's mergeCloseModules(relabel = TRUE, iterate = TRUE) of the genes whose scaled
    expression is `scaled` (on xp: the eigengenes are found there): modules whose eigengenes'
    dissimilarity 1 - cor is below cut_height (average linkage of the eigengenes, cut at that
    height) merged, again until nothing merges, then renumbered by size. The modules' own
    tree (a few dozen eigengenes) is made on the host. (merged labels, eigengene names,
    eigengenes samples x modules on the host, grey last)."""
    labels = np.asarray(labels, dtype=object)
    while True:
        names, me = module_eigengenes(xp, scaled, labels, exclude_grey=True, grey=grey)
        me = _host(me)
        old = len(set(labels.tolist()))
        if len(names) < 2:
            merged = labels
            break
        order = _me_order(me, names, grey_last=False, grey=grey)
        names, me = [names[i] for i in order], me[:, order]
        diss = 1 - correlation_with(me.T, me.T, cor_type, max_p_outliers)
        tree = hclust(diss, "average", backend="cpu")
        branch = tree.cutree(len(names) - int((tree.height <= cut_height).sum()))
        # a branch's modules take the label of its first (in eigengene order)
        first = {b: names[int(np.flatnonzero(branch == b)[0])] for b in np.unique(branch).tolist()}
        merged = _relabel(labels, {v: first[b] for v, b in zip(names, branch.tolist())})
        new = len(set(merged.tolist()))
        if new < old:
            labels = merged
        else:
            break
    # relabel by size (ties: R's factor order), grey kept
    levels, sizes = np.unique(merged, return_counts=True)
    ranked = [levels[i] for i in np.argsort(-sizes, kind="stable")]
    out = _relabel(merged, dict(zip([v for v in ranked if v != grey], color_seq)))
    names, me = module_eigengenes(xp, scaled, out, exclude_grey=False, grey=grey)
    me = _host(me)
    order = _me_order(me, names, grey_last=True, grey=grey)
    return out, [names[i] for i in order], me[:, order]


# -- the run -------------------------------------------------------------------------------------------
class ModuleDetection:
    """One blockwiseModules run, step by step: construct (checks, good genes, blocks), then for
    each block `block_tree(b)` and `set_block_labels(b, labels)`, then `finish()`."""

    def __init__(self, expr, *, power=6, network_type="unsigned", tom_type="signed", tom_denom="min",
                 cor_type="pearson", max_p_outliers=1.0, max_block_size=None, blocks=None,
                 min_module_size=None, min_core_kme=0.5, min_core_kme_size=None, min_kme_to_stay=0.3,
                 reassign_threshold=1e-6, merge_cut_height=0.15, numeric_labels=False,
                 color_seq=STANDARD_COLORS, random_seed=54321, axis=0, names=None, backend="auto"):
        if not 1 <= power <= 30:
            raise ValueError(f"power must be between 1 and 30 (as in WGCNA), got {power}")
        if network_type not in ce.NETWORK_TYPES:
            raise ValueError(f"networkType must be one of {', '.join(map(repr, ce.NETWORK_TYPES))}, "
                             f"got {network_type!r}")
        if tom_type not in ce.TOM_TYPES:
            raise ValueError(f"TOMType must be one of {', '.join(map(repr, ce.TOM_TYPES))}, got {tom_type!r}")
        if tom_denom not in ce.TOM_DENOMS:
            raise ValueError(f"TOMDenom must be 'min' or 'mean', got {tom_denom!r}")
        if cor_type not in ("pearson", "bicor"):
            raise ValueError(f"corType must be 'pearson' or 'bicor', got {cor_type!r}")
        if not 0 <= max_p_outliers <= 1:
            raise ValueError(f"maxPOutliers must be between 0 and 1, got {max_p_outliers}")
        if not 0 <= merge_cut_height <= 1:
            raise ValueError(f"mergeCutHeight must be between 0 and 1, got {merge_cut_height}")
        e = ce.as_expression(expr, axis, names, min_samples=1)
        self.x_all, self.gene_names = e.values, e.names
        genes, samples = self.x_all.shape
        if samples < 4:
            raise ValueError(f"too few samples: {samples} (WGCNA needs at least 4; is the matrix transposed? "
                             "datExpr is samples x genes)")
        self.good_genes, self.good_samples = good_samples_genes(self.x_all)
        self.x = self.x_all[np.ix_(self.good_genes, self.good_samples)]
        if np.isnan(self.x).any():
            raise ValueError("the expression matrix has missing values that WGCNA would impute (impute.knn) for "
                             "the eigengenes; impute them (or drop those genes or samples) first")
        self.options = dict(power=float(power), network_type=network_type, tom_type=tom_type,
                            tom_denom=tom_denom, cor_type=cor_type, max_p_outliers=float(max_p_outliers))
        self.backend = backend
        self.device = get_backend(backend).members[0]
        self.xp = self.device.xp
        # the good genes' scaled expression (eigengenes) and prepared rows (kME) on the device
        z, _ = ce.prepare(self.x, cor_type, max_p_outliers)
        with self.device.device_scope():
            self.scaled = scale_rows(self.xp, self.xp.asarray(self.x))
            self.z = self.xp.asarray(z)
        self.min_module_size = min(20, genes / 2) if min_module_size is None else min_module_size
        self.min_core_kme = min_core_kme
        self.min_core_kme_size = self.min_module_size / 3 if min_core_kme_size is None else min_core_kme_size
        self.min_kme_to_stay = min_kme_to_stay
        self.reassign_threshold = reassign_threshold
        self.merge_cut_height = merge_cut_height
        self.numeric_labels = bool(numeric_labels)
        self.color_seq = tuple(color_seq)
        self.samples_all = samples
        if blocks is not None:
            blocks = np.asarray(blocks)
            if len(blocks) != genes:
                raise ValueError(f"blocks has {len(blocks)} entries for {genes} genes")
            good_blocks = blocks[self.good_genes]
        else:
            limit = largest_block(self.device) if max_block_size is None else int(max_block_size)
            if limit < 2:
                raise ValueError(f"maxBlockSize must be at least 2, got {limit}")
            z, _ = ce.prepare(self.x, "pearson")
            good_blocks = form_blocks(z, limit, signed=network_type != "unsigned", seed=random_seed)
        self.block_levels = sorted(set(good_blocks.tolist()))
        self.blocks = np.full(genes, np.nan)
        self.blocks[self.good_genes] = good_blocks
        good_idx = np.flatnonzero(self.good_genes)
        self.block_members = [np.flatnonzero(good_blocks == b) for b in self.block_levels]   # in x
        self.block_genes = [good_idx[m] for m in self.block_members]                          # in all genes
        if self.device.xp is not np:
            largest = max(len(m) for m in self.block_members)
            ce.check_device(self.device, BLOCK_MATRICES * largest * largest * 8,
                            f"a block of {largest:,} genes (its adjacency, TOM and clustering); "
                            "give a smaller maxBlockSize")
        self.dendrograms: list = [None] * len(self.block_levels)
        self.dissimilarity = None            # the last block's 1 - TOM on the host, for its cut
        self.all_labels = np.zeros(genes, dtype=np.int64)
        self.all_mes: list = []              # eigengene columns, samples (good) x 1
        self.all_label_index: list = []
        self.max_used_label = 0

    @property
    def n_blocks(self) -> int:
        return len(self.block_levels)

    def block_tree(self, b: int, out=None) -> Dendrogram:
        """Block b's (0-based) TOM and average-linkage tree on the device; its 1 - TOM is
        written into `out` (an n x n host array, any order, for the tree cut) or kept in
        `self.dissimilarity` when `out` is None."""
        xb = self.x[self.block_members[b]]
        diss = block_dissimilarity(xb, backend=self.backend, **self.options)
        with self.device.device_scope():
            if out is not None:
                out[...] = diss if diss.__class__ is np.ndarray else diss.get()
                self.dissimilarity = None
            else:
                self.dissimilarity = diss if diss.__class__ is np.ndarray else diss.get()
            tree = hclust(diss, "average", backend=self.backend, overwrite=True)
        self.dendrograms[b] = tree
        return tree

    def set_block_labels(self, b: int, labels) -> None:
        """Block b's tree cut (0 unassigned): WGCNA's kME checks, then the block's modules kept."""
        labels = np.asarray(labels, dtype=np.int64).copy()
        members = self.block_members[b]
        if len(labels) != len(members):
            raise ValueError(f"{len(labels)} labels for a block of {len(members)} genes")
        self.dissimilarity = None
        if not (labels > 0).any():
            return
        labels[labels > 0] += self.max_used_label
        self.max_used_label = int(labels.max())
        assigned = np.flatnonzero(labels != 0)
        xp = self.xp
        with self.device.device_scope():
            rows = xp.asarray(members[assigned])
            index, codes = factor_codes(labels[assigned], exclude_grey=False, grey=0)
            mes = eigengenes(xp, self.scaled[rows], codes, len(index))
            # each gene's kME: its correlation with its own module's eigengene
            zme, _ = ce.prepare(_host(mes).T, self.options["cor_type"], self.options["max_p_outliers"])
            own = _host(xp.clip((self.z[rows] * xp.asarray(zme)[xp.asarray(codes)]).sum(axis=1), -1.0, 1.0))
            mes = _host(mes)
        if self.options["network_type"] == "unsigned":
            own = np.abs(own)
        k = len(index)
        # WGCNA's checks, each module alone: too few core genes (kME > min_core_kme) drop the
        # module; genes with kME < min_kme_to_stay leave it, and then too few genes left drop it
        dropped = np.bincount(codes, weights=own > self.min_core_kme, minlength=k) < self.min_core_kme_size
        low = own < self.min_kme_to_stay
        has_low = np.bincount(codes, weights=low, minlength=k) > 0
        dropped |= has_low & (np.bincount(codes, weights=~low, minlength=k) < self.min_module_size)
        new = labels[assigned]
        new[low | dropped[codes]] = 0
        labels[assigned] = new
        keep = np.flatnonzero(~dropped)
        if not keep.size:
            return
        # the eigengenes as computed before the kME checks (WGCNA keeps them)
        self.all_mes += [mes[:, m] for m in keep]
        self.all_label_index += [index[m] for m in keep]
        good_idx = np.flatnonzero(self.good_genes)
        assigned = labels != 0
        self.all_labels[good_idx[members[assigned]]] = labels[assigned]

    def finish(self) -> dict:
        """Reassignment between modules, colours, merging of close modules: WGCNA's list."""
        good = self.all_labels[self.good_genes]
        if (good != 0).any():
            mes = np.column_stack(self.all_mes)
            prop = good[good != 0]
            ass_genes = np.flatnonzero(self.good_genes)[good != 0]
            with self.device.device_scope():
                kme = _host(kme_of(self.xp, self.z[self.xp.asarray(np.flatnonzero(good != 0))], mes,
                                   self.options["cor_type"], self.options["max_p_outliers"]))
            if self.options["network_type"] == "unsigned":
                kme = np.abs(kme)
            delete = []
            for m, level in enumerate(self.all_label_index):
                mod_genes = np.flatnonzero(prop == level)
                k_module = kme[mod_genes, m]
                k_best = kme[mod_genes].max(axis=1)
                candidates = k_module < k_best
                if candidates.any():
                    p_module = cor_pvalue_fisher(k_module[candidates], self.samples_all)
                    which_best = kme[mod_genes[candidates]].argmax(axis=1) + 1
                    p_best = cor_pvalue_fisher(k_best[candidates], self.samples_all)
                    with np.errstate(divide="ignore", invalid="ignore"):
                        ratio = p_best / p_module
                    move = np.isfinite(ratio) & (ratio < self.reassign_threshold)
                    if move.any():
                        # WGCNA 1.72 gives a moved gene the best eigengene's column number,
                        # not its label (the same while no module was dropped): kept as is
                        self.all_labels[ass_genes[mod_genes[candidates][move]]] = which_best[move]
                        if len(mod_genes) - move.sum() < self.min_module_size:
                            delete.append(m)
            if delete:
                gone = [self.all_label_index[m] for m in delete]
                self.all_labels[np.isin(self.all_labels, gone)] = 0
        all_labels = self.all_labels.copy()
        grey: int | str
        if self.numeric_labels:
            unmerged = all_labels.astype(object)
            grey, seq = 0, list(range(1, len(set(all_labels.tolist())) + 1))
        else:
            unmerged = labels2colors(all_labels, self.color_seq)
            grey = GREY
            n_new = len(set(unmerged[self.good_genes].tolist()))
            seq = list(labels2colors(np.arange(1, n_new + 1), self.color_seq))
        with self.device.device_scope():
            merged, names, mes = merge_close_modules(self.xp, self.scaled, unmerged[self.good_genes],
                                                     self.merge_cut_height, self.options["cor_type"],
                                                     self.options["max_p_outliers"], grey, seq)
        colors = unmerged.copy()
        colors[self.good_genes] = merged
        me_all = np.full((self.samples_all, len(names)), np.nan)
        me_all[self.good_samples] = mes
        if self.numeric_labels:
            colors, unmerged = colors.astype(np.int64), unmerged.astype(np.int64)
        else:
            colors, unmerged = colors.astype(str), unmerged.astype(str)
        return {"colors": colors, "unmergedColors": unmerged,
                "MEs": me_all, "ME_names": [f"ME{v}" for v in names],
                "goodSamples": self.good_samples, "goodGenes": self.good_genes,
                "dendrograms": self.dendrograms, "blockGenes": [g + 1 for g in self.block_genes],
                "blocks": self.blocks, "MEsOK": True}


def blockwise_modules(expr, *, power=6, network_type="unsigned", tom_type="signed", tom_denom="min",
                      cor_type="pearson", max_p_outliers=1.0, max_block_size=None, blocks=None,
                      deep_split=2, detect_cut_height=0.995, min_module_size=None, pam_stage=True,
                      pam_respects_dendro=True, min_core_kme=0.5, min_core_kme_size=None,
                      min_kme_to_stay=0.3, reassign_threshold=1e-6, merge_cut_height=0.15,
                      numeric_labels=False, axis=0, names=None, backend="auto", tree_cut=None) -> dict:
    """WGCNA's blockwiseModules on an expression matrix (genes x samples, axis=0; WGCNA's
    samples x genes: axis=1), with WGCNA's defaults. Returns WGCNA's list: colors,
    unmergedColors, MEs (samples x modules, named by ME_names), goodSamples, goodGenes,
    dendrograms (curnet.linkage.Dendrogram), blockGenes (1-based), blocks, MEsOK.
    `tree_cut(tree, dissimilarity, **options) -> labels` cuts a block's tree; by default
    `curnet.tree_cut.cutree_hybrid`."""
    run = ModuleDetection(expr, power=power, network_type=network_type, tom_type=tom_type,
                          tom_denom=tom_denom, cor_type=cor_type, max_p_outliers=max_p_outliers,
                          max_block_size=max_block_size, blocks=blocks, min_module_size=min_module_size,
                          min_core_kme=min_core_kme, min_core_kme_size=min_core_kme_size,
                          min_kme_to_stay=min_kme_to_stay, reassign_threshold=reassign_threshold,
                          merge_cut_height=merge_cut_height, numeric_labels=numeric_labels, axis=axis,
                          names=names, backend=backend)
    if tree_cut is None:
        from .tree_cut import cutree_hybrid as tree_cut
    for b in range(run.n_blocks):
        tree = run.block_tree(b)
        labels = tree_cut(tree, run.dissimilarity, cut_height=detect_cut_height,
                          min_cluster_size=run.min_module_size, deep_split=deep_split,
                          pam_stage=pam_stage, pam_respects_dendro=pam_respects_dendro)
        run.set_block_labels(b, labels)
    return run.finish()
