"""What moves a correlation: a row's fix and where two submissions differ.

* A fix puts a row's prediction at its truth on the submission's own scale: for Pearson
  the truth's standard score in the predictions' mean and spread, for the rank
  correlations the prediction value (of the predictions as given) at the truth's rank.
* The rank correlations are not sums over rows, so their fix first is greedy with an
  exact rescoring after each fix: the rows whose ranks are furthest apart are tried first,
  a fix is kept only when it improves the score.
* Where they differ (rank correlations): B's score minus B's score with one row's
  prediction taken from A, exact for every row up to EXACT_ROWS rows; beyond, for the
  rows the two files rank most differently (a few hundred at most, fewer on big files).
"""
from __future__ import annotations

import numpy as np

from ...core.attribution import as_fixlist, check_top, empty_fixes
from .correlation import correlation
from .ranks import midranks

EXACT_ROWS = 2000          # where they differ: every row rescored up to this many rows
WORK = 2 * 10 ** 7         # beyond: rows rescored x rows at most


def _cols(a):
    a = np.asarray(a, dtype=np.float64)
    return a.reshape(a.shape[0], -1)


def fixed_prediction(kind, truth, pred, rows=None):
    """A copy of ``pred`` with ``rows`` (None: all) at their truth on the predictions' scale."""
    t, p = _cols(truth), _cols(pred)
    out = p.copy()
    n = t.shape[0]
    sel = np.arange(n) if rows is None else np.asarray(rows, dtype=np.int64)
    for j in range(t.shape[1]):
        x, y = t[:, j], p[:, j]
        if kind == "pearson":
            sx = x.std()
            z = (x[sel] - x.mean()) / sx if sx > 0 else np.zeros(sel.size)
            out[sel, j] = y.mean() + y.std() * z
        else:
            at = np.clip(np.round(midranks(x)[sel]).astype(np.int64) - 1, 0, n - 1)
            out[sel, j] = np.sort(y)[at]
    return out.reshape(np.shape(pred))


def _apart(truth, pred):
    """(n,) how far apart each row's ranks are (summed over columns)."""
    t, p = _cols(truth), _cols(pred)
    return sum(np.abs(midranks(t[:, j]) - midranks(p[:, j])) for j in range(t.shape[1]))


def rank_fix_first(kind, truth, pred, top, tries=4):
    """FixList of the rows (positions) whose fixes improve the rank correlation most, greedy:
    the rows furthest apart first, each fix scored exactly and kept only if it helps."""
    top = check_top(top)
    base = correlation(truth, pred, kind).score
    if not np.isfinite(base):
        return empty_fixes(base, "the score is undefined")
    target = fixed_prediction(kind, truth, pred)
    p2, t2 = _cols(pred), _cols(target)
    movable = np.flatnonzero(np.any(p2 != t2, axis=1))
    if not movable.size:
        return empty_fixes(base, "every row is already at its truth's rank")
    order = movable[np.argsort(-_apart(truth, pred)[movable], kind="stable")]
    cur = np.array(pred, dtype=np.float64, copy=True)
    score, picks, after = base, [], []
    for i in order[:tries * top]:
        old = cur[i].copy()
        cur[i] = target[i]
        s = correlation(truth, cur, kind).score
        if np.isfinite(s) and s > score:
            picks.append(int(i))
            after.append(s)
            score = s
            if len(picks) == top:
                break
        else:
            cur[i] = old
    if not picks:
        return empty_fixes(base, "no fix of the rows furthest apart improves the score",
                           int(movable.size))
    return as_fixlist(np.array(picks), np.array(after), base, int(movable.size), True)


def rank_differ(kind, truth, a, b, unit="row"):
    """UnitDiffer of B against A: each delta is B's score minus B's with that row's
    prediction from A (rows whose predictions are equal are left out)."""
    from .differ import UnitDiffer
    a2, b2 = _cols(a), _cols(b)
    diff = np.flatnonzero(np.any(a2 != b2, axis=1))
    n = len(truth)
    if diff.size and n > EXACT_ROWS:
        keep = max(20, min(300, WORK // max(n, 1)))
        far = np.abs(_apart(truth, a) - _apart(truth, b))[diff]
        diff = np.sort(diff[np.argsort(-far, kind="stable")[:keep]])
    base = correlation(truth, b, kind).score
    cur = np.array(b, dtype=np.float64, copy=True)
    delta = np.empty(diff.size)
    for k, i in enumerate(diff.tolist()):
        old = cur[i].copy()
        cur[i] = np.asarray(a, dtype=np.float64)[i]
        delta[k] = base - correlation(truth, cur, kind).score
        cur[i] = old
    delta = np.where(np.isfinite(delta), delta, 0.0)
    order = np.argsort(-np.abs(delta), kind="stable")
    return UnitDiffer(diff[order].astype(np.int64), delta[order], int(n), True, unit)
