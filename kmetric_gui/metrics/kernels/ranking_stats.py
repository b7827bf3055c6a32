"""AUC's statistics: it is not a sum over rows, so it brings its own draws.

``RankUnits`` stands where ``resample.Units`` stands for additive metrics:
``resample.bootstrap`` and ``shakeup.shakeup`` ask it for replicates and
split scores (``replicates``, ``split_scores``); its jackknife is in closed
form from the placements (leaving a positive out removes n0 times its
placement from U). ``AucPairs`` is the paired engine of ``kmetric compare``:
bootstrap on the same row draws for every submission, jackknife, a
permutation test that swaps the two submissions' within-file ranks row by
row (AUC depends on ranks only, so scales need not match), and splits.
"""
from __future__ import annotations

from functools import cached_property
from statistics import NormalDist

import numpy as np

from .ranking import _truth_columns, placements, roc_auc
from .ranking_boot import _Cells, auc_bootstrap
from ...core.intervals import Interval, check_level
from ...core.resample import check_cancel, rng_of

SCORE_BELOW = 50     # auto: the score interval while the rarer class has fewer rows than this


def _kept(t):
    return [j for j in range(t.shape[1]) if t[:, j].any() and not t[:, j].all()]


def loo_auc(truth, scores):
    """(n,) AUC with each row left out once (mean over the scored columns)."""
    t, s, _ = _truth_columns(truth, scores)
    n = t.shape[0]
    cols = _kept(t)
    if not cols:
        return np.full(n, np.nan)
    out = np.zeros(n)
    for j in cols:
        y = t[:, j]
        v = placements(y, s[:, j])
        n1, n0 = int(y.sum()), int((~y).sum())
        u = v[y].sum() * n0
        with np.errstate(invalid="ignore", divide="ignore"):
            out += np.where(y, (u - n0 * v) / ((n1 - 1) * n0), (u - n1 * v) / (n1 * (n0 - 1)))
    return out / len(cols)


def _split_aucs(truth, subs, k, splits, seed, cancel=None, weights=None):
    """(splits, S, 2): AUC of each submission on Public (k random rows) and Private."""
    from .ranking_boot import _both
    cols = []
    for scores in subs:
        t, s, _ = _truth_columns(truth, scores)
        kept = [j for j in range(t.shape[1]) if _both(t[:, j], weights)]
        cols.append([_Cells(t[:, j], np.ascontiguousarray(s[:, j]), weights) for j in kept])
    n = len(truth) if not hasattr(truth, "shape") else truth.shape[0]
    rng = rng_of(seed)
    out = np.full((splits, len(subs), 2), np.nan)
    totals = [[np.bincount(c.cell, weights, minlength=c.cells) for c in group] for group in cols]
    for r in range(splits):
        check_cancel(cancel)
        pub = rng.choice(n, k, replace=False, shuffle=False)
        for i, group in enumerate(cols):
            if not group:
                continue
            a = np.zeros(2)
            for c, tot in zip(group, totals[i]):
                pc = np.bincount(c.cell[pub], None if weights is None else weights[pub],
                                 minlength=c.cells).astype(np.float64)
                a += c.auc(np.stack([pc, tot - pc]))
            out[r, i] = a / len(group)
    return out


def mann_whitney_variance(theta, n1, n0):
    """Variance of the AUC at value ``theta`` with n1 positives and n0 negatives: Hanley &
    McNeil's (1982) formula under their exponential model, with n1 - 1 and n0 - 1 both
    replaced by (n1 + n0) / 2 - 1 (Newcombe 2006, part 2, method 5): it needs no
    variance estimated from the few rows of the rarer class."""
    t = np.asarray(theta, dtype=np.float64)
    half = (n1 + n0) / 2.0 - 1.0
    return t * (1 - t) / (n1 * n0) * (1 + half * (1 - t) / (2 - t) + half * t / (1 + t))


def score_interval(theta, n1, n0, level=0.95):
    """(low, high): every AUC value t with |theta - t| <= z sqrt(variance at t) (a score
    interval: the variance is the candidate value's, so it has width at theta = 0 or 1)."""
    z = NormalDist().inv_cdf(0.5 + check_level(level) / 2.0)

    def inside(t):
        return (theta - t) ** 2 <= z * z * mann_whitney_variance(t, n1, n0)

    def edge(a, b):              # a inside, b outside: bisect to the boundary
        for _ in range(60):
            mid = 0.5 * (a + b)
            a, b = (mid, b) if inside(mid) else (a, mid)
        return a
    low = 0.0 if inside(0.0) else edge(theta, 0.0)
    high = 1.0 if inside(1.0) else edge(theta, 1.0)
    return float(low), float(high)


class RankUnits:
    """AUC of one submission as the statistics layer sees it (see module doc)."""
    kind = "row"
    cells = None
    stats = None
    rare_below = SCORE_BELOW                # cautions: resampling's limit (core/cautions.py)
    holds_with_few = ("score",)             # ... which the score interval does not have
    minority_words = "rows in the rarer class of a scored column (positives or negatives)"

    def __init__(self, truth, scores, weights=None):
        # weights: row weights (weighted AUC), or None
        self.truth, self.scores, self.weights = truth, scores, weights

    @property
    def n(self):
        return int(len(self.truth))

    @property
    def collapsed(self):
        return self

    @cached_property
    def _counts(self):
        """(positives, negatives) per scored column, and whether it is one binary column."""
        t, s, binary = _truth_columns(self.truth, self.scores)
        keep = _kept(t)
        pos = t[:, keep].sum(axis=0)
        return pos, t.shape[0] - pos, binary and s.shape[1] == 1

    @property
    def minority(self):
        """Rows of the rarer class in the scored column that has fewest (None: none scored)."""
        pos, neg, _ = self._counts
        return int(np.minimum(pos, neg).min()) if pos.size else None

    def take(self, rows):
        """The RankUnits of rows ``rows`` (the coverage check's simulated datasets)."""
        return RankUnits(np.asarray(self.truth)[rows], np.asarray(self.scores)[rows])

    def auto_choice(self):
        """(method, why) for ``--ci-method auto``: the score interval for one column with a
        rare class (measured: bench/coverage.py), else the percentile bootstrap."""
        pos, neg, single = self._counts
        rare = self.minority
        if single and rare is not None and rare < SCORE_BELOW:
            return "score", f"fewer than {SCORE_BELOW} rows in the rarer class"
        return "percentile", f"{self.n:,} rows"

    def placement_units(self):
        """Additive Units of the AUC's first-order (Hajek) form, for the calibrated
        interval's levels: per row of each scored column (is positive, its placement if
        positive, is negative, its placement if negative); a column's score is
        mean positive placement + mean negative placement - its AUC, which is its AUC on
        these rows and moves as the AUC does to first order on resampled ones."""
        from ...core.resample import Units
        t, s, _ = _truth_columns(self.truth, self.scores)
        keep = _kept(t)
        if not keep:
            return None
        cols, aucs = [], []
        for j in keep:
            y = t[:, j]
            v = placements(y, s[:, j])
            cols += [y, np.where(y, v, 0.0), ~y, np.where(y, 0.0, v)]
            aucs.append(float(v[y].mean()))
        stats = np.column_stack(cols).astype(np.float64)
        aucs = np.array(aucs)
        c = len(keep)

        def score(sums):
            x = np.asarray(sums, dtype=np.float64).reshape(-1, c, 4)
            with np.errstate(invalid="ignore", divide="ignore"):
                per = x[..., 1] / x[..., 0] + x[..., 3] / x[..., 2] - aucs
            per[(x[..., 0] == 0) | (x[..., 2] == 0)] = np.nan
            return per.mean(axis=1)
        return Units(stats, score, None, "row", mergeable=False)

    def score_interval(self, level=0.95):
        """The score Interval of one binary column, or None (several columns, no AUC)."""
        pos, neg, single = self._counts
        theta = self.point()
        if not single or not pos.size or not np.isfinite(theta):
            return None
        n1, n0 = int(pos[0]), int(neg[0])
        low, high = score_interval(theta, n1, n0, level)
        se = float(np.sqrt(mann_whitney_variance(theta, n1, n0)))
        return Interval(low, high, se, check_level(level), "score", 0, 0)

    def point(self):
        return _auc(self.truth, self.scores, self.weights)

    def replicates(self, replicates, seed=0, cancel=None):
        return auc_bootstrap(self.truth, [self.scores], replicates, seed, cancel,
                             weights=self.weights)[:, 0]

    def jackknife(self):
        return _loo(self.truth, self.scores, self.weights), None

    def split_scores(self, n_public, splits, seed=0, cancel=None):
        """(public (S,), private (S,)) AUCs over random splits with n_public rows in Public."""
        got = _split_aucs(self.truth, [self.scores], n_public, splits, seed, cancel,
                          self.weights)
        return got[:, 0, 0], got[:, 0, 1]


def _auc(truth, scores, weights):
    if weights is None:
        return roc_auc(truth, scores).score
    from .weighted_auc import weighted_roc_auc
    return weighted_roc_auc(truth, scores, weights).score


def _loo(truth, scores, weights):
    if weights is None:
        return loo_auc(truth, scores)
    from .weighted_auc import weighted_loo
    return weighted_loo(truth, scores, weights)


def _ranks(scores):
    """Mid-ranks scaled to (0, 1] per column: AUC is unchanged, scales become comparable."""
    s = np.asarray(scores, dtype=np.float64)
    flat = s.reshape(s.shape[0], -1)
    out = np.empty_like(flat)
    for j in range(flat.shape[1]):
        col = flat[:, j]
        srt = np.sort(col)
        out[:, j] = (np.searchsorted(srt, col, "left") + np.searchsorted(srt, col, "right") + 1) \
            / (2.0 * col.size)
    return out.reshape(s.shape)


class AucPairs:
    """Paired statistics of several submissions' AUC on one truth (core.compare's engine API)."""

    def __init__(self, truth, submissions, weights=None):
        self.truth = truth
        self.subs = list(submissions)
        self.n = int(len(truth))
        self.weights = weights          # row weights (weighted AUC), or None
        self._boot = {}

    def scores(self):
        return np.array([_auc(self.truth, s, self.weights) for s in self.subs])

    def bootstrap(self, replicates, seed):
        key = (replicates, seed)
        if key not in self._boot:
            self._boot[key] = auc_bootstrap(self.truth, self.subs, replicates, seed,
                                            weights=self.weights)
        return self._boot[key]

    def single_bootstrap(self, i, replicates, seed):
        return self.bootstrap(replicates, seed)[:, i]

    def pair_bootstrap(self, i, j, replicates, seed):
        return self.bootstrap(replicates, seed)[:, [i, j]]

    def single_jackknife(self, i):
        return _loo(self.truth, self.subs[i], self.weights), None

    def pair_jackknife(self, i, j):
        return (_loo(self.truth, self.subs[j], self.weights)
                - _loo(self.truth, self.subs[i], self.weights)), None

    def permutation(self, i, j, permutations, seed):
        """Delta (j - i) after swapping the two submissions' ranks on random rows."""
        a, b = _ranks(self.subs[i]), _ranks(self.subs[j])
        rng = np.random.default_rng([seed, 1])
        out = np.empty(permutations)
        for r in range(permutations):
            swap = rng.random(self.n) < 0.5
            if a.ndim == 2:
                swap = swap[:, None]
            out[r] = (_auc(self.truth, np.where(swap, a, b), self.weights)
                      - _auc(self.truth, np.where(swap, b, a), self.weights))
        return out

    def splits(self, i, j, n_public, splits, seed):
        got = _split_aucs(self.truth, [self.subs[i], self.subs[j]], n_public, splits, [seed, 2],
                          weights=self.weights)
        return np.column_stack([got[:, 0, 0], got[:, 1, 0], got[:, 0, 1], got[:, 1, 1]])
