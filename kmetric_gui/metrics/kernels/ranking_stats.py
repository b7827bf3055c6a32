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

import numpy as np

from .ranking import _truth_columns, placements, roc_auc
from .ranking_boot import _Cells, auc_bootstrap
from ...core.resample import check_cancel, rng_of


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


class RankUnits:
    """AUC of one submission as the statistics layer sees it (see module doc)."""
    kind = "row"
    cells = None
    stats = None

    def __init__(self, truth, scores, weights=None):
        # weights: row weights (weighted AUC), or None
        self.truth, self.scores, self.weights = truth, scores, weights

    @property
    def n(self):
        return int(len(self.truth))

    @property
    def collapsed(self):
        return self

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
