"""Module membership (WGCNA's blockwiseModules, step 4): each module's eigengene, each gene's
kME (its correlation with the eigengenes), and WGCNA's kME checks and reassignment that
decide which genes stay in their module, leave it, or move to another.

Eigengenes and kME run on the backend's array module (`xp`, NumPy on the CPU, CuPy on a
GPU), all modules at once; the checks' bookkeeping is on the host."""
from __future__ import annotations

import math

import numpy as np

from ..correlations import prepare


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
    zx, _ = prepare(x, cor_type, max_p_outliers)
    zy, _ = prepare(y, cor_type, max_p_outliers)
    return np.clip(zx @ zy.T, -1.0, 1.0)


def kme_of(device, z, me, cor_type: str, max_p_outliers: float):
    """cor(genes, eigengenes) on the device: `z` the genes' prepared rows (`prepare`, on the
    device), `me` eigengenes samples x k there (prepared on the host: k short vectors).
    genes x k, on the device."""
    xp = device.xp
    zme, _ = prepare(device.to_host(me).T, cor_type, max_p_outliers)
    return xp.clip(z @ xp.asarray(zme).T, -1.0, 1.0)


def own_kme(device, z, me, codes: np.ndarray, cor_type: str, max_p_outliers: float) -> np.ndarray:
    """Each gene's kME in its own module, on the host: the correlation of its prepared row
    (`z`, on the device) with the eigengene (`me`, samples x k there) of its module `codes`."""
    xp = device.xp
    zme, _ = prepare(device.to_host(me).T, cor_type, max_p_outliers)
    return device.to_host(xp.clip((z * xp.asarray(zme)[xp.asarray(codes)]).sum(axis=1), -1.0, 1.0))


def kme_checks(kme: np.ndarray, codes: np.ndarray, k: int, min_core_kme: float, min_core_kme_size: float,
               min_kme_to_stay: float, min_module_size: float):
    """WGCNA's checks of a block's modules, each module alone, from each gene's kME in its own
    module (`codes` 0..k-1): too few core genes (kME > min_core_kme) drop the module; genes
    with kME < min_kme_to_stay leave it, and then too few genes left drop it.
    (the genes that leave, the modules dropped)."""
    dropped = np.bincount(codes, weights=kme > min_core_kme, minlength=k) < min_core_kme_size
    low = kme < min_kme_to_stay
    has_low = np.bincount(codes, weights=low, minlength=k) > 0
    dropped |= has_low & (np.bincount(codes, weights=~low, minlength=k) < min_module_size)
    return low, dropped


def cor_pvalue_fisher(r: np.ndarray, n: int) -> np.ndarray:
    """WGCNA's corPvalueFisher (two-sided)."""
    from scipy.stats import norm
    with np.errstate(divide="ignore", invalid="ignore"):
        z = 0.5 * np.log((1 + r) / (1 - r)) * math.sqrt(n - 3)
    return 2 * norm.sf(np.abs(z))


def reassign(labels: np.ndarray, kme: np.ndarray, module_labels: list, samples: int, threshold: float,
             min_module_size: float) -> np.ndarray:
    """WGCNA's reassignment of the assigned genes (`labels`, none 0): `kme` their kME with
    every module's eigengene (genes x modules, the modules' labels `module_labels`). A gene
    whose kME is better elsewhere by a Fisher p-value ratio below `threshold` moves; a module
    left with fewer than `min_module_size` genes by the moves is deleted (its genes 0).
    The genes' new labels."""
    new = labels.copy()
    delete = []
    for m, level in enumerate(module_labels):
        mod_genes = np.flatnonzero(labels == level)
        k_module = kme[mod_genes, m]
        k_best = kme[mod_genes].max(axis=1)
        candidates = k_module < k_best
        if candidates.any():
            p_module = cor_pvalue_fisher(k_module[candidates], samples)
            which_best = kme[mod_genes[candidates]].argmax(axis=1) + 1
            p_best = cor_pvalue_fisher(k_best[candidates], samples)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = p_best / p_module
            move = np.isfinite(ratio) & (ratio < threshold)
            if move.any():
                # WGCNA 1.72 gives a moved gene the best eigengene's column number, not its
                # label (the same while no module was dropped): kept as is
                new[mod_genes[candidates][move]] = which_best[move]
                if len(mod_genes) - move.sum() < min_module_size:
                    delete.append(m)
    if delete:
        new[np.isin(new, [module_labels[m] for m in delete])] = 0
    return new
