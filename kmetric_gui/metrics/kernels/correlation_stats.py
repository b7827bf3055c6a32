"""Statistics of the rank correlations (Spearman's rho, Kendall's tau-b): they are not sums
over rows, so every replicate is ranked again, exactly.

A replicate is a weight per row (how often a bootstrap draw took it, or 1/0 for the
rows of a Public or Private part), and the correlation of the weighted rows is the
correlation of the data with each row repeated that often:

* Spearman: a tie group's mid-rank in the replicate is (weight of the groups below)
  + (its weight + 1) / 2; the weighted Pearson r of those mid-ranks. One sort per
  column, then O(n) a replicate.
* Kendall: the weighted discordant pairs (sum of w_i w_j over inversions) from the
  inversion wavelet's kept level orders (metrics/kernels/ranks.py ``Levels``), tie
  pairs from the groups' weights. O(n log n) a replicate.

Draws are the ones ``core.resample.bootstrap`` makes (``resample_indices`` gives them),
so scipy on a replicate's rows gives the same number. Leave-one-out values
(the jackknife, for BCa) are closed forms of each row's concordant and discordant
counts and of prefix sums over tie groups.
"""
from __future__ import annotations

import numpy as np

from ...core.compare import swap_mask
from ...core.resample import check_cancel, check_replicates, index_blocks, rng_of
from .column_correlation import column_correlation
from .ranks import Levels, left_greater, pair_order, rank


def _groups_in(order, group):
    """Starts of the runs of equal ``group`` values along ``order`` (sorted by group)."""
    g = group[order]
    return np.flatnonzero(np.r_[True, g[1:] != g[:-1]])


class _Spearman:
    def __init__(self, x, y, rx=None):
        self.n = x.size
        self.rx = rx if rx is not None else rank(x)
        self.ry = rank(y)
        self.ox = self.rx.order
        self.xstarts = self.rx.starts[:-1]
        self.gy = self.ry.group[self.ox]           # y group of each row, in x order

    def weighted(self, w):
        wx = np.take(w, self.ox, mode="clip")
        big = np.add.reduceat(wx, self.xstarts)
        wy = np.bincount(self.gy, weights=wx, minlength=self.ry.groups)
        total = big.sum()
        m = (total + 1) / 2.0
        ax = np.cumsum(big) - big + (big + 1) / 2.0 - m
        ay = np.cumsum(wy) - wy + (wy + 1) / 2.0 - m
        # einsum, not BLAS: its threads spin on a busy machine (48 ms a call here)
        sxx = float(np.einsum("i,i,i->", big, ax, ax))
        syy = float(np.einsum("i,i,i->", wy, ay, ay))
        if not (sxx > 0 and syy > 0):
            return float("nan")
        sxy = float(np.einsum("i,i,i->", wx, np.repeat(ax, self.rx.sizes),
                              np.take(ay, self.gy, mode="clip")))
        return float(np.clip(sxy / np.sqrt(sxx * syy), -1.0, 1.0))

    def loo(self):
        """(n,) rho with each row left out, by row."""
        n, rx, ry = self.n, self.rx, self.ry
        m = (n + 1) / 2.0
        dx, dy = rx.midranks - m, ry.midranks - m
        sxx_i, syy_i = _squares_without(rx, m), _squares_without(ry, m)
        sxy = float(np.einsum("i,i->", dx, dy))
        cross = (sxy - dx * dy + 0.5 * _below_above(rx, dy) + 0.5 * _below_above(ry, dx)
                 + 0.25 * _signs(rx, ry))
        with np.errstate(invalid="ignore", divide="ignore"):
            out = cross / np.sqrt(sxx_i * syy_i)
        return np.where((sxx_i > 1e-9) & (syy_i > 1e-9), np.clip(out, -1.0, 1.0), np.nan)


def _squares_without(r, m):
    """(n,) sum of squared (mid-rank - mean) over the other rows once each row is left out:
    groups below it move half a rank up relative to the new mean, its own keeps its place,
    groups above move half down."""
    s, d = r.sizes.astype(np.float64), r.mid - m
    p0, p1, p2 = (np.r_[0.0, np.cumsum(v)] for v in (s, s * d, s * d * d))
    g = r.group
    below = p2[g] + p1[g] + p0[g] / 4.0
    above = (p2[-1] - p2[g + 1]) - (p1[-1] - p1[g + 1]) + (p0[-1] - p0[g + 1]) / 4.0
    return below + (s[g] - 1) * d[g] ** 2 + above


def _below_above(r, values):
    """(n,) sum of ``values`` over rows in lower groups of r minus over higher groups."""
    per = np.bincount(r.group, weights=values, minlength=r.groups)
    p = np.r_[0.0, np.cumsum(per)]
    g = r.group
    return p[g] - (p[-1] - p[g + 1])


def _signs(rx, ry):
    """(n,) concordant minus discordant pairs of each row (strict in both columns)."""
    con, dis = _pair_counts(rx, ry)
    return con - dis


def _pair_counts(rx, ry):
    """(concordant, discordant) pairs of each row (n,), by row."""
    n = rx.n
    order, q = pair_order(rx, ry)
    lg = left_greater(q).astype(np.float64)
    pos = np.arange(n, dtype=np.float64)
    dis_pos = 2 * lg + q - pos
    gx, gy = rx.group[order], ry.group[order]
    new = np.r_[True, (gx[1:] != gx[:-1]) | (gy[1:] != gy[:-1])]
    jid = np.cumsum(new) - 1
    jsize = np.bincount(jid)[jid]
    tied = (rx.sizes[gx] - 1) + (ry.sizes[gy] - 1) - (jsize - 1)
    con_pos = (n - 1) - dis_pos - tied
    con, dis = np.empty(n), np.empty(n)
    con[order], dis[order] = con_pos, dis_pos
    return con, dis


class _Kendall:
    def __init__(self, x, y, rx=None):
        self.n = x.size
        self.rx = rx if rx is not None else rank(x)
        self.ry = rank(y)
        self.order, self.q = pair_order(self.rx, self.ry)
        self._levels = None
        o = self.order
        self.xstarts = _groups_in(o, self.rx.group)
        self.gy = self.ry.group[o]
        gx = self.rx.group[o]
        self.jstarts = np.flatnonzero(np.r_[True, (gx[1:] != gx[:-1]) | (self.gy[1:] != self.gy[:-1])])

    @property
    def levels(self):
        if self._levels is None:                 # made on the first replicate only
            self._levels = Levels(self.q)
        return self._levels

    def weighted(self, w):
        wo = np.take(w, self.order, mode="clip")
        total = float(wo.sum())
        pairs = total * (total - 1) / 2.0

        def ties(weights):
            return float(np.einsum("i,i->", weights, weights - 1)) / 2.0
        xt = ties(np.add.reduceat(wo, self.xstarts))
        yt = ties(np.bincount(self.gy, weights=wo, minlength=self.ry.groups))
        jt = ties(np.add.reduceat(wo, self.jstarts))
        if not (pairs - xt > 0 and pairs - yt > 0):
            return float("nan")
        s = pairs - xt - yt + jt - 2.0 * self.levels.count(wo)
        return float(np.clip(s / np.sqrt(pairs - xt) / np.sqrt(pairs - yt), -1.0, 1.0))

    def loo(self):
        n = self.n
        _, dis = _pair_counts(self.rx, self.ry)
        xt_all, yt_all = self.rx.tie_pairs(), self.ry.tie_pairs()
        jsizes = np.diff(np.r_[self.jstarts, n])
        jt_all = int((jsizes * (jsizes - 1) // 2).sum())
        jsize = np.empty(n)
        jsize[self.order] = np.repeat(jsizes, jsizes)
        m = n - 1
        pairs = m * (m - 1) / 2.0
        xt = xt_all - (self.rx.sizes[self.rx.group] - 1)
        yt = yt_all - (self.ry.sizes[self.ry.group] - 1)
        jt = jt_all - (jsize - 1)
        d = dis.sum() / 2.0 - dis
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (pairs - xt - yt + jt - 2 * d) / np.sqrt((pairs - xt) * (pairs - yt))
        return np.where((pairs - xt > 0) & (pairs - yt > 0), np.clip(out, -1.0, 1.0), np.nan)


_ENGINES = {"spearman": _Spearman, "kendall": _Kendall}


def _columns(t):
    return [t] if t.ndim == 1 else [t[:, j] for j in range(t.shape[1])]


class _Set:
    """Each column of each submission, the truth's ranks shared."""

    def __init__(self, kind, truth, subs):
        self.kind = kind
        tcols = _columns(np.asarray(truth, dtype=np.float64))
        ranked = [rank(c) for c in tcols]
        self.cols = [[_ENGINES[kind](x, y, r) for x, y, r in zip(tcols, _columns(np.asarray(
            s, dtype=np.float64)), ranked)] for s in subs]
        self.n = tcols[0].size

    def weighted(self, w):
        """(S,) each submission's mean over columns for row weights w."""
        return np.array([np.mean([c.weighted(w) for c in cols]) for cols in self.cols])

    def loo(self, i):
        return np.mean([c.loo() for c in self.cols[i]], axis=0)

    def replicates(self, replicates, seed=0, cancel=None):
        """(B, S) on ``core.resample.bootstrap``'s draws."""
        b = check_replicates(replicates)
        n = self.n
        out = np.full((b, len(self.cols)), np.nan)
        if n == 0:
            return out
        counts = None
        for r0, r, u0, idx in index_blocks(rng_of(seed), n, b):
            check_cancel(cancel)
            for k in range(r):
                if u0 == 0:
                    counts = np.zeros(n)
                counts += np.bincount(idx[k], minlength=n)
                if u0 + idx.shape[1] == n:
                    out[r0 + k] = self.weighted(counts)
        return out

    def split_scores(self, n_public, splits, seed, cancel=None, salt=None):
        """(S', subs, 2): Public and Private scores of random splits with n_public rows."""
        rng = np.random.default_rng([seed, salt]) if salt is not None else rng_of(seed)
        out = np.empty((splits, len(self.cols), 2))
        base = np.arange(self.n) < n_public
        for s in range(splits):
            check_cancel(cancel)
            mask = (rng.permuted(base) if salt is not None else _subset(rng, self.n, n_public))
            w = mask.astype(np.float64)
            out[s, :, 0] = self.weighted(w)
            out[s, :, 1] = self.weighted(1.0 - w)
        return out


def _subset(rng, n, k):
    mask = np.zeros(n, dtype=bool)
    mask[rng.choice(n, k, replace=False, shuffle=False)] = True
    return mask


class RankCorrelationUnits:
    """A rank correlation as the statistics layer sees it (``core.resample.bootstrap``
    and ``core.shakeup.shakeup`` ask it for replicates and split scores)."""
    kind = "row"
    cells = None
    stats = None

    def __init__(self, kind, truth, pred):
        self.metric_kind, self.truth, self.pred = kind, truth, pred
        self._set = None

    @property
    def set(self):
        if self._set is None:
            self._set = _Set(self.metric_kind, self.truth, [self.pred])
        return self._set

    @property
    def n(self):
        return int(len(self.truth))

    @property
    def collapsed(self):
        return self

    def point(self):
        t, p = np.asarray(self.truth, float), np.asarray(self.pred, float)
        return float(np.mean([column_correlation(self.metric_kind, x, y)
                              for x, y in zip(_columns(t), _columns(p))]))

    def replicates(self, replicates, seed=0, cancel=None):
        return self.set.replicates(replicates, seed, cancel)[:, 0]

    def jackknife(self):
        return self.set.loo(0), None

    def split_scores(self, n_public, splits, seed=0, cancel=None):
        got = self.set.split_scores(n_public, splits, seed, cancel)
        return got[:, 0, 0], got[:, 0, 1]


def _within_ranks(values):
    """Mid-ranks scaled to (0, 1] per column: the order kept, scales made comparable."""
    v = np.asarray(values, dtype=np.float64)
    cols = [rank(c).midranks / max(v.shape[0], 1) for c in _columns(v)]
    return cols[0] if v.ndim == 1 else np.column_stack(cols)


class RankCorrelationPairs:
    """Paired statistics of several submissions on one truth (core.compare's engine API):
    the same row weights for every submission in each replicate and split."""

    def __init__(self, kind, truth, submissions):
        self.kind, self.truth = kind, np.asarray(truth, dtype=np.float64)
        self.subs = [np.asarray(s, dtype=np.float64) for s in submissions]
        self.n = int(self.truth.shape[0])
        self.set = _Set(kind, self.truth, self.subs)
        self._boot = {}

    def scores(self):
        return np.array([RankCorrelationUnits(self.kind, self.truth, s).point() for s in self.subs])

    def bootstrap(self, replicates, seed):
        key = (replicates, seed)
        if key not in self._boot:
            self._boot[key] = self.set.replicates(replicates, seed)
        return self._boot[key]

    def single_bootstrap(self, i, replicates, seed):
        return self.bootstrap(replicates, seed)[:, i]

    def pair_bootstrap(self, i, j, replicates, seed):
        return self.bootstrap(replicates, seed)[:, [i, j]]

    def single_jackknife(self, i):
        return self.set.loo(i), None

    def pair_jackknife(self, i, j):
        return self.set.loo(j) - self.set.loo(i), None

    def permutation(self, i, j, permutations, seed):
        """Delta (j - i) after swapping the two submissions' within-file ranks on random
        rows (the correlations depend on ranks or scale-free values only)."""
        a, b = _within_ranks(self.subs[i]), _within_ranks(self.subs[j])
        rng = np.random.default_rng([seed, 1])
        out = np.empty(permutations)
        for r in range(permutations):
            swap = swap_mask(rng, self.n).astype(bool)
            if a.ndim == 2:
                swap = swap[:, None]
            pa, pb = np.where(swap, b, a), np.where(swap, a, b)
            out[r] = (RankCorrelationUnits(self.kind, self.truth, pb).point()
                      - RankCorrelationUnits(self.kind, self.truth, pa).point())
        return out

    def splits(self, i, j, n_public, splits, seed):
        got = self.set.split_scores(n_public, splits, seed, salt=2)
        return np.column_stack([got[:, i, 0], got[:, j, 0], got[:, i, 1], got[:, j, 1]])
