"""Scores that are a function of means of per-row statistics.

Many scores are means over rows of one number per row (a per-row loss, an
error, a query's precision), or one per row and column. Their ``Units``
carry those numbers and a count column, so a resample of rows is a resample
of sums and the score of a replicate is exact: mean = sum / count, or the
root of it.
"""
from __future__ import annotations

import numpy as np

from .resample import Units


def _with_count(values):
    v = np.asarray(values, dtype=np.float64)
    v = v.reshape(v.shape[0], -1)
    return np.column_stack([v, np.ones(v.shape[0])])


def _mean(sums):
    with np.errstate(invalid="ignore", divide="ignore"):
        out = sums[:, :-1] / sums[:, -1:]
    out[sums[:, -1] == 0] = np.nan
    return out


def _root(mean_sq):
    # Sums made by subtraction (Private = all - Public) can end a rounding error below 0.
    return np.sqrt(np.maximum(mean_sq, 0.0))


def mean_units(values, kind="row"):
    """Units whose score is the mean of ``values`` (n,)."""
    return Units(_with_count(values), lambda sums: _mean(sums)[:, 0], None, kind)


def root_mean_units(values, kind="row"):
    """Units whose score is sqrt(mean of ``values``) (squared errors -> their root mean)."""
    return Units(_with_count(values), lambda sums: _root(_mean(sums)[:, 0]), None, kind)


def column_root_mean_units(values, kind="row"):
    """Units whose score is the mean over columns of sqrt(column mean):
    ``values`` (n, C) squared errors -> the mean of the columns' root mean errors."""
    return Units(_with_count(values), lambda sums: _root(_mean(sums)).mean(axis=1), None, kind)


def fix_first(stats, fixed, score_fn, top, higher_is_better=True):
    """Rows in "fix first" order for a score of summed per-row statistics.

    stats, fixed: (n, m) each row's statistics now and once its prediction is
    right; score_fn: sums (R, m) -> (R,). Rows are taken by the gain of fixing
    each alone (exact greedy for a score of one sum, e.g. a mean or its root);
    ``score_after`` is exact along that order, and gains are improvements in
    the metric's direction.
    """
    from .attribution import FixList, check_top, empty_fixes
    top = check_top(top)
    s = np.asarray(stats, dtype=np.float64)
    s = s.reshape(s.shape[0], -1)
    with np.errstate(over="ignore", invalid="ignore"):    # an overflowing sum: undefined below
        delta = np.asarray(fixed, dtype=np.float64).reshape(s.shape) - s
        total = s.sum(axis=0)
        score = float(score_fn(total[None, :])[0])
    changed = np.flatnonzero(np.any(delta != 0, axis=1))
    if not np.isfinite(score):
        return empty_fixes(score, "the score is undefined", int(changed.size))
    if not changed.size:
        return empty_fixes(score, "every row is already right")
    single = np.empty(changed.size)
    step = max(1, (1 << 18) // max(s.shape[1], 1))
    for a in range(0, changed.size, step):
        single[a:a + step] = score_fn(total[None, :] + delta[changed[a:a + step]])
    gain = single - score if higher_is_better else score - single
    gain = np.where(np.isfinite(gain), gain, -np.inf)
    keep = gain > 0
    if not keep.any():
        return empty_fixes(score, "no single fix improves the score", int(changed.size))
    cand, g = changed[keep], gain[keep]
    order = cand[np.argsort(-g, kind="stable")][:top]
    after = score_fn(total[None, :] + np.cumsum(delta[order], axis=0))
    steps = np.diff(np.r_[score, after])
    return FixList(order.astype(np.int64), steps if higher_is_better else -steps, after, score,
                   int(changed.size))
