"""Kappa's exact fix gains and greedy "fix first" order (core/attribution.py's greedy).

Kappa works on the K x K counts only: every row of cell (i, j) has the same
gain, so the greedy runs over cells and the m-th pick of a cell takes that
cell's m-th row in file order.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.attribution import (FixList, as_fixlist, check_top, empty_fixes, greedy_types,
                                 nth_in_groups)
from .kappa import as_ratings, weighted_kappa

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from .kappa import KappaResult


def _kappa_terms(result):
    """(num, den, per-cell change of num, per-cell change of den) for one fix."""
    w, r = result.weights, result.hist_true
    n = result.n
    u = r @ w                               # u[j] = sum_a r_a W[a, j]
    d_num = -w                              # W[i, i] = 0 replaces W[i, j]
    d_den = (u[:, None] - u[None, :]) / n   # column j loses a row, column i gains it
    return result.numerator, result.denominator, d_num, d_den


def truth_one_class(result):
    cls = np.flatnonzero(result.hist_true)
    if cls.size == 1:
        return (f"every truth is rating {result.labels[cls[0]]}: kappa is 0 (or undefined) "
                "whatever the predictions, so no fix can move it")
    return None


def kappa_gain_map(result: KappaResult) -> np.ndarray:
    """Exact change of kappa from moving one row of cell (i, j) to (i, i).

    Returns a K x K float array: 0 on the diagonal, nan where the cell is
    empty or the kappa after the move is undefined (and everywhere when the
    score itself is undefined or the truth has one class).
    """
    k = result.observed.shape[0]
    out = np.full((k, k), np.nan)
    if result.undefined_reason or truth_one_class(result) or k == 0:
        return out
    num, den, d_num, d_den = _kappa_terms(result)
    with np.errstate(invalid="ignore", divide="ignore"):
        den2 = den + d_den
        after = np.where(den2 > 0, 1.0 - (num + d_num) / den2, np.nan)
    out = np.where(result.observed > 0, after - result.score, np.nan)
    np.fill_diagonal(out, 0.0)
    return out


def _kappa_score(stats):
    num, den = stats[..., 0], stats[..., 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, 1.0 - num / den, np.nan)


def kappa_greedy_cells(result, top):
    """Greedy fix order over cells: (truth index, prediction index, score after) arrays.

    Indices are into result.labels. Empty arrays when there are no gains
    (see ``kappa_no_gain_reason``).
    """
    top = check_top(top)
    k = result.observed.shape[0]
    if kappa_no_gain_reason(result):
        z = np.zeros(0, dtype=np.int64)
        return z, z, np.zeros(0)
    num, den, d_num, d_den = _kappa_terms(result)
    counts = result.observed.astype(np.int64).copy()
    np.fill_diagonal(counts, 0)
    deltas = np.stack([d_num.ravel(), d_den.ravel()], axis=1)
    picks, after = greedy_types([num, den], deltas, counts.ravel(), _kappa_score, top)
    return picks // k, picks % k, after


def kappa_no_gain_reason(result):
    """Why a kappa has no gains (undefined score, one truth class), or None."""
    return result.undefined_reason or truth_one_class(result)


def kappa_fix_first(y_true: ArrayLike, y_pred: ArrayLike, *, top: int = 10, weights: str = "quadratic",
                    min_rating: int | None = None, max_rating: int | None = None,
                    result: KappaResult | None = None) -> FixList:
    """Rows in greedy "fix first" order: fixing a row sets its prediction to its truth.

    ``result`` (the KappaResult of these rows, same range) saves one pass.

    >>> f = kappa_fix_first([0, 1, 2, 2], [0, 2, 2, 0], top=2)
    >>> f.units.tolist(), [round(s, 4) for s in f.score_after]
    ([3, 1], [0.8, 1.0])
    """
    top = check_top(top)
    t = as_ratings(y_true, "truth")
    p = as_ratings(y_pred, "predictions")
    if result is None:
        result = weighted_kappa(t, p, weights=weights, min_rating=min_rating,
                                max_rating=max_rating)
    k = result.observed.shape[0]
    n_err = int(result.observed.sum() - np.trace(result.observed))
    reason = kappa_no_gain_reason(result)
    if reason:
        return empty_fixes(result.score, reason, n_err)
    ti, pj, after = kappa_greedy_cells(result, top)
    lo = int(result.labels[0])

    def cells(a, b):
        c = (t[a:b].astype(np.int64) - lo) * k + (p[a:b] - lo)
        c[t[a:b] == p[a:b]] = -1            # diagonal rows are never picked
        return c
    cells.size = t.size
    rows = nth_in_groups(cells, ti * k + pj)
    return as_fixlist(rows, after, result.score, n_err)

