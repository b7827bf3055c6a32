"""Weighted ROC AUC (scikit-learn's ``roc_auc_score(sample_weight=w)``).

A positive-negative pair counts w_pos * w_neg, a tie one half of that:
AUC = sum over pairs ordered right / (W1 W0), with W1 and W0 the classes'
weight totals. Scores are sorted once per column; tied scores form groups
whose weights per class are summed, and each group's positives meet the
negative weight strictly below plus half the group's own. A column whose
positives or negatives weigh nothing is skipped (as a single-class column).

Leave-one-row-out values (the jackknife) come in closed form: a row's right
pairs are its weight times the other class's weight it outranks.
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError
from .ranking import AucResult, _truth_columns, decimal_codes


def check_weights(weights, n):
    w = np.asarray(weights, dtype=np.float64).ravel()
    if w.size != n:
        raise InputError(f"weights have {w.size} rows, scores {n}")
    if w.size and not (np.isfinite(w).all() and w.min() >= 0):
        raise InputError("weights must be finite and >= 0")
    return w


def weighted_u(y, s, w):
    """(U, W1, W0) of one column: U = sum of w_i w_j over ordered-right pairs, ties half.

    Scores that are short decimals (a CSV's) are counted by code (two weighted bincounts,
    no sort); others sort the smaller class and find each row of the other in it."""
    y = np.asarray(y, dtype=bool)
    w1, w0 = float(w[y].sum()), float(w[~y].sum())
    found = decimal_codes(s) if s.dtype == np.float64 else None
    if found is not None:
        codes, size = found
        c1 = np.bincount(codes, weights=np.where(y, w, 0.0), minlength=size)
        c0 = np.bincount(codes, weights=np.where(y, 0.0, w), minlength=size)
        below = np.cumsum(c0) - c0
        return float(np.einsum("i,i->", c1, below + 0.5 * c0)), w1, w0
    small = y if np.count_nonzero(y) <= y.size // 2 else ~y
    order = np.argsort(s[small])
    ss = s[small][order]
    if ss.size and not (np.isfinite(ss[0]) and np.isfinite(ss[-1])) or \
            not np.isfinite(s[~small]).all():
        bad = np.flatnonzero(~np.isfinite(s))
        raise InputError(f"scores have a value that is not finite at row {bad[0]} "
                         f"({bad.size} such value(s) in all)")
    cw = np.r_[0.0, np.cumsum(w[small][order])]
    # U is a sum over the other class's rows: searched in sorted order (searching rows in
    # their own order misses the cache at every step; 3x slower at 1M rows).
    x = s[~small]
    back = np.argsort(x)
    x, wx = x[back], w[~small][back]
    lo, hi = cw[np.searchsorted(ss, x, "left")], cw[np.searchsorted(ss, x, "right")]
    if small is y:       # the rows searched are negatives: the positives above them, ties half
        right = cw[-1] - hi + 0.5 * (hi - lo)
    else:                # the rows searched are positives: the negatives below them, ties half
        right = lo + 0.5 * (hi - lo)
    return float(np.einsum("i,i->", wx, right)), w1, w0


def weighted_roc_auc(truth, scores, weights) -> AucResult:
    """Weighted AUC: binary, one-vs-rest macro (multi-class) or column mean (multi-label).

    >>> round(weighted_roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [1, 2, 1, 1]).score, 6)
    0.666667
    """
    t, s, binary = _truth_columns(truth, scores, onehot=False)
    n, c = s.shape
    w = check_weights(weights, n)
    per = np.full(c, np.nan)
    pos = np.zeros(c, dtype=np.int64)
    neg = np.zeros(c, dtype=np.int64)
    for j in range(c):
        y = (t == j) if t.ndim == 1 else t[:, j]
        u, w1, w0 = weighted_u(y, np.ascontiguousarray(s[:, j]), w)
        pos[j], neg[j] = int(np.count_nonzero(y)), int(n - np.count_nonzero(y))
        if w1 > 0 and w0 > 0:
            per[j] = u / (w1 * w0)
    skipped = tuple(int(j) for j in np.flatnonzero(np.isnan(per)))
    reason = None
    if n == 0:
        reason = "no rows to score"
    elif len(skipped) == c:
        reason = ("one class holds all the weight: AUC needs both classes" if binary else
                  "every column's positives or negatives weigh nothing: AUC needs both")
    score = float("nan") if reason else float(np.nanmean(per))
    return AucResult(score, reason, per, pos, neg, skipped, np.zeros(c), int(n),
                     data=(truth, scores, w))


def weighted_wrong(y, s, w):
    """(n,) each row's weight of pairs it orders wrong (ties half), times its own weight,
    and (W1, W0): the weighted RowPairs of one column."""
    pos = y.astype(bool)
    out = np.zeros(s.size)
    w1, w0 = float(w[pos].sum()), float(w[~pos].sum())
    for mine, other, total in ((pos, ~pos, w0), (~pos, pos, w1)):
        o = np.argsort(s[other], kind="stable")
        so, cw = s[other][o], np.r_[0.0, np.cumsum(w[other][o])]
        x = s[mine]
        lo, hi = cw[np.searchsorted(so, x, "left")], cw[np.searchsorted(so, x, "right")]
        # a positive: the negatives above it; a negative: the positives below it
        worse = (total - hi) if mine is pos else lo
        out[mine] = w[mine] * (worse + 0.5 * (hi - lo))
    return out, w1, w0


def weighted_placements(y, s, w):
    """(n,) each row's right pairs' weight share (ties half) of the other class: the
    weighted structural components (the leave-one-out AUC's parts)."""
    pos = y.astype(bool)
    wrong, w1, w0 = weighted_wrong(y, s, w)
    out = np.full(s.size, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        own = np.where(pos, w0, w1) * w
        out = np.where(w > 0, (own - wrong) / np.where(w > 0, w, 1.0), 0.0)
    return out


def weighted_loo(truth, scores, weights):
    """(n,) weighted AUC with each row left out once (mean over the scored columns)."""
    t, s, _ = _truth_columns(truth, scores)
    n = t.shape[0]
    w = check_weights(weights, n)
    cols = [j for j in range(t.shape[1])
            if w[t[:, j]].sum() > 0 and w[~t[:, j]].sum() > 0]
    if not cols:
        return np.full(n, np.nan)
    out = np.zeros(n)
    for j in cols:
        y = t[:, j]
        r = weighted_placements(y, s[:, j], w)       # right weight of the other class, per row
        w1, w0 = float(w[y].sum()), float(w[~y].sum())
        u = float(np.dot(w[y], r[y]))
        with np.errstate(invalid="ignore", divide="ignore"):
            out += np.where(y, (u - w * r) / ((w1 - w) * w0), (u - w * r) / (w1 * (w0 - w)))
    return out / len(cols)
