"""ROC AUC from its rank statistic (Mann-Whitney U), with DeLong's variance.

AUC = P(score of a positive > score of a negative) + 0.5 P(equal): tied
scores count one half, which is exactly what scikit-learn's trapezoidal
``roc_auc_score`` gives. Scoring counts, for every positive, the negatives
below it: from integer codes for short decimals, else (many rows) by sorting
the smaller class only and finding each other row's place through a table of
buckets by value (``_buckets``), else by sorting each class (``searchsorted``
on sorted keys). The counts are integers, so the score is exact up to the one
final division.

Layouts: binary (truth (n,) 0/1, scores (n,)); multi-class (truth (n,) class
codes 0..C-1, scores (n, C)): one-vs-rest, macro mean; multi-label (truth
(n, C) 0/1, scores (n, C)): mean of the columns' AUCs. A column with a single
class has no AUC: it is skipped and named, as Kaggle's column-wise AUC
metrics do; when every column is skipped the score is undefined.

AUC is not a sum over rows, so its bootstrap is a weighted rank statistic:
rows are sorted once, a replicate's row multiplicities (``ranking_boot``)
give the weighted U from cumulative counts in O(n).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ...errors import InputError
from . import _buckets
from ...core._checks import as_numeric


@dataclass(frozen=True)
class AucResult:
    """AUC of each column and their mean (binary: one column)."""
    score: float                    # nan when undefined
    undefined_reason: "str | None"
    per_column: np.ndarray          # (C,) AUC; nan for a skipped column
    positives: np.ndarray           # (C,) positive rows per column
    negatives: np.ndarray           # (C,) negative rows per column
    skipped: tuple = ()             # columns with a single class (no AUC)
    tied_pairs: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (C,) positive-negative ties
    n: int = 0
    higher_is_better: bool = True
    # the inputs as given: AUC's statistics resample the rows themselves
    data: tuple = field(default=(), repr=False, compare=False)


def _truth_columns(truth, scores, onehot=True):
    """(truth bool (n, C), scores float (n, C), binary) after layout checks; with
    ``onehot`` False, multi-class truth stays (n,) class codes."""
    t = as_numeric(truth, "truth")
    s = as_numeric(scores, "scores")
    if s.ndim == 1:
        if t.ndim != 1 or t.shape != s.shape:
            raise InputError(f"truth and scores differ in shape: {t.shape} vs {s.shape}")
        return _as_binary(t, "truth")[:, None], _real(s)[:, None], True
    if s.ndim != 2:
        raise InputError(f"scores must be 1-D or 2-D; got {s.ndim}-D")
    n, c = s.shape
    if t.ndim == 1:
        if t.shape[0] != n:
            raise InputError(f"truth has {t.shape[0]} rows, scores {n}")
        codes = _class_codes(t, c)
        if not onehot:
            return codes, _real(s), False
        onehot = np.zeros((n, c), dtype=bool)
        onehot[np.arange(n), codes] = True
        return onehot, _real(s), False
    if t.shape != s.shape:
        raise InputError(f"truth and scores differ in shape: {t.shape} vs {s.shape}")
    return _as_binary(t, "truth"), _real(s), False


def _real(s):
    """float32 stays float32 (compared exactly as it is; sorts faster), others float64."""
    return s if s.dtype == np.float32 else s.astype(np.float64, copy=False)


def _as_binary(t, what):
    if t.dtype == np.bool_:
        return t
    if t.size and not (t.min() >= 0 and t.max() <= 1 and
                       (t.dtype.kind in "iu" or np.array_equal(t, np.round(t)))):
        bad = np.flatnonzero(~((t.ravel() == 0) | (t.ravel() == 1)))[0]
        raise InputError(f"{what} must be 0 or 1; found {t.ravel()[bad].item()!r} at flat position {bad}")
    return t.astype(bool)


def _class_codes(t, c):
    if t.size and not (t.min() >= 0 and t.max() < c and
                       (t.dtype.kind in "iu" or np.array_equal(t, np.round(t)))):
        bad = np.flatnonzero(~((t >= 0) & (t < c) & (t == np.round(t))))[0]
        raise InputError(f"truth class codes must be integers 0..{c - 1}; "
                         f"found {t[bad].item()!r} at row {bad}")
    return t.astype(np.intp)


def _check_finite_sorted(sorted_parts, scores, col):
    for part in sorted_parts:
        if part.size and not (np.isfinite(part[0]) and np.isfinite(part[-1])):
            bad = np.flatnonzero(~np.isfinite(scores))
            v = scores[bad[0]]
            kind = "NaN" if np.isnan(v) else "an infinite value"
            where = f"row {bad[0]}" + ("" if col is None else f", column {col}")
            raise InputError(f"scores have {kind} at {where} ({bad.size} such value(s) in all)")


SAMPLE = 1024          # values that must all be short decimals before the whole column is tried
MAX_DECIMALS = 9


def decimal_codes(s):
    """(codes (n,) int64 from 0, count of codes) when every score is a decimal of at
    most MAX_DECIMALS digits after the point (as a CSV with fixed decimals gives) and
    the codes span fewer than n + 2**20 values; else None.

    code = round(s * 10**d) - min: when code / 10**d gives back every score exactly,
    equal scores get equal codes and order is kept, so counting codes ranks exactly.
    """
    n = s.size
    if n < SAMPLE or s.dtype != np.float64:
        return None
    probe = s[:: max(1, n // SAMPLE)][:SAMPLE]
    for d in range(MAX_DECIMALS + 1):
        scale = 10.0 ** d
        if np.array_equal(np.rint(probe * scale) / scale, probe):
            break
    else:
        return None
    k = np.multiply(s, scale)
    np.rint(k, out=k)
    lo, hi = k.min(), k.max()
    if not (np.isfinite(lo) and np.isfinite(hi) and hi - lo < n + (1 << 20)):
        return None                 # the count table stays within the input's size
    back = np.divide(k, scale)
    exact = np.array_equal(back, s)
    del back
    if not exact:
        return None
    k -= lo
    return k.astype(np.int64), int(hi - lo) + 1


def counted_u(y, codes, size):
    """binary_u from integer codes that rank the scores: one bincount, no sort."""
    codes *= 2                                     # codes are this call's own
    codes += y
    both = np.bincount(codes, minlength=2 * size).reshape(size, 2)
    c0, c1 = both[:, 0], both[:, 1]
    n0, n1 = int(c0.sum()), int(c1.sum())
    if n1 == 0 or n0 == 0:
        return 0, n1, n0, 0
    below = np.cumsum(c0) - c0                     # negatives under each code
    ties = int(np.dot(c1, c0))
    return 2 * int(np.dot(c1, below)) + ties, n1, n0, ties


def binary_u(y, s, col=None):
    """(2U, positives, negatives, tied pairs) of one column: integers, exact."""
    found = decimal_codes(s)
    if found is not None:
        return counted_u(y, *found)
    found = _buckets.table_u(y, s)    # one sort (the smaller class) and table look-ups
    return sorted_u(y, s, col) if found is None else found


def sorted_u(y, s, col=None):
    """binary_u by sorting each class and counting with searchsorted."""
    s1, s0 = s[y], s[~y]          # copies already: sorted in place
    s1.sort()
    s0.sort()
    _check_finite_sorted((s1, s0), s, col)
    n1, n0 = s1.size, s0.size
    if n1 == 0 or n0 == 0:
        return 0, n1, n0, 0
    lo = np.searchsorted(s0, s1, "left")
    below = int(lo.sum())
    tie = s0[np.minimum(lo, n0 - 1)] == s1
    ties = 0
    if tie.any():
        hi = np.searchsorted(s0, s1[tie], "right")
        ties = int((hi - lo[tie]).sum())
    return 2 * below + ties, n1, n0, ties


def roc_auc(truth, scores) -> AucResult:
    """ROC AUC: binary, one-vs-rest macro (multi-class) or column mean (multi-label).

    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).score
    0.75
    """
    t, s, binary = _truth_columns(truth, scores, onehot=False)
    n, c = s.shape
    u2s = [0] * c
    pos = np.zeros(c, dtype=np.int64)
    neg = np.zeros(c, dtype=np.int64)
    tied = np.zeros(c, dtype=np.int64)
    columns = np.ascontiguousarray(s.T)          # one pass; each column then contiguous
    for j in range(c):
        y = (t == j) if t.ndim == 1 else t[:, j]   # class codes (multi-class) or 0/1 columns
        u2s[j], pos[j], neg[j], tied[j] = binary_u(y, columns[j], None if binary else j)
    return auc_from_counts(u2s, pos, neg, tied, n, binary, (truth, scores))


def auc_from_counts(u2s, pos, neg, tied, n, binary, data=()):
    """AucResult of each column's 2U (twice the Mann-Whitney count, ties one), positives,
    negatives and tied pairs over ``n`` rows (the numbers ``roc_auc`` counts)."""
    c = len(pos)
    per = np.full(c, np.nan)
    for j in range(c):
        n1, n0 = int(pos[j]), int(neg[j])
        if n1 and n0:
            per[j] = int(u2s[j]) / (2.0 * n1 * n0)
    skipped = tuple(int(j) for j in np.flatnonzero(np.isnan(per)))
    reason = None
    if n == 0:
        reason = "no rows to score"
    elif len(skipped) == c:
        only = "positive" if pos[0] else "negative"
        reason = (f"every row is {only}: AUC needs both classes" if binary else
                  "every column has a single class: AUC needs positives and negatives")
    score = float("nan") if reason else float(np.nanmean(per))
    return AucResult(score, reason, per, np.asarray(pos, dtype=np.int64),
                     np.asarray(neg, dtype=np.int64), skipped, np.asarray(tied, dtype=np.int64),
                     int(n), data=data)


# --- per-row placements and DeLong ------------------------------------------

def placements(y, s):
    """(n,) DeLong's structural components in row order.

    A positive row gets the share of negatives it outranks (ties one half);
    a negative row the share of positives that outrank it. The mean over the
    positives, and over the negatives, is the AUC.
    """
    y = _as_binary(np.asarray(y), "truth")
    s = np.asarray(s, dtype=np.float64)
    n1 = int(np.count_nonzero(y))
    n0 = s.size - n1
    out = np.full(s.size, np.nan)
    if n1 == 0 or n0 == 0:
        return out
    found = decimal_codes(s)
    if found is not None:           # counts per code: no sort at all
        codes, size = found
        c1 = np.bincount(codes[y], minlength=size)
        c0 = np.bincount(codes[~y], minlength=size)
        b1, b0 = np.cumsum(c1) - c1, np.cumsum(c0) - c0
        pos = (2 * b0 + c0) / (2.0 * n0)             # the same sums as the searches below
        neg = (2 * n1 - 2 * b1 - c1) / (2.0 * n1)
        return np.where(y, pos[codes], neg[codes])
    # Search sorted keys, then put the answers back in row order: searching the rows in
    # their own order misses the cache at every step (5M rows: 10 s against 1 s).
    sp, sn = s[y], s[~y]
    op, on = np.argsort(sp), np.argsort(sn)
    s1, s0 = sp[op], sn[on]
    vp = np.empty(n1)
    vp[op] = (np.searchsorted(s0, s1, "left") + np.searchsorted(s0, s1, "right")) / (2.0 * n0)
    vn = np.empty(n0)
    vn[on] = (2 * n1 - np.searchsorted(s1, s0, "right")
              - np.searchsorted(s1, s0, "left")) / (2.0 * n1)
    out[y] = vp
    out[~y] = vn
    return out


@dataclass(frozen=True)
class DelongResult:
    """AUCs of one or two submissions with DeLong's (co)variance."""
    auc: np.ndarray          # (S,)
    covariance: np.ndarray   # (S, S)
    level: float = 0.95
    low: np.ndarray = field(default_factory=lambda: np.zeros(0))   # (S,) normal interval
    high: np.ndarray = field(default_factory=lambda: np.zeros(0))
    delta: float = float("nan")        # auc[1] - auc[0] (two submissions)
    delta_se: float = float("nan")
    delta_low: float = float("nan")
    delta_high: float = float("nan")
    z: float = float("nan")
    p_value: float = float("nan")      # two-sided, H0: equal AUCs


def delong(truth, *scores, level=0.95) -> DelongResult:
    """DeLong, DeLong & Clarke-Pearson (1988): variance of one AUC, or of two
    AUCs on the same rows and the paired test of their difference (binary)."""
    y = _as_binary(np.asarray(truth), "truth").ravel()
    if not scores:
        raise InputError("delong needs at least one score vector")
    v = np.array([placements(y, np.asarray(s, dtype=np.float64).ravel()) for s in scores])
    n1, n0 = int(y.sum()), int((~y).sum())
    z_level = NormalDist().inv_cdf(0.5 + level / 2.0)
    k = len(scores)
    if n1 < 2 or n0 < 2:
        nan = np.full(k, np.nan)
        return DelongResult(nan, np.full((k, k), np.nan), level, nan, nan)
    v10, v01 = v[:, y], v[:, ~y]
    auc = v10.mean(axis=1)
    cov = np.atleast_2d(np.cov(v10)) / n1 + np.atleast_2d(np.cov(v01)) / n0
    se = np.sqrt(np.diag(cov))
    out = dict(auc=auc, covariance=cov, level=level, low=auc - z_level * se,
               high=auc + z_level * se)
    if k == 2:
        d = float(auc[1] - auc[0])
        var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
        dse = math.sqrt(max(var, 0.0))
        out.update(delta=d, delta_se=dse, delta_low=d - z_level * dse, delta_high=d + z_level * dse)
        if dse > 0:
            zz = d / dse
            out.update(z=zz, p_value=math.erfc(abs(zz) / math.sqrt(2.0)))
        elif d == 0:
            out.update(p_value=1.0)
    return DelongResult(**out)
