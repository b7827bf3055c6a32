"""Cut points that turn continuous predictions into ratings, and their optimizer.

rating = lo + searchsorted(cuts, x, side="right") with sorted cuts.

The optimizer sorts x once and keeps, per true class, the cumulative count of
rows below every candidate position. Moving one cut then changes only two
columns of the confusion matrix, so the kappa of every candidate position of
that cut is computed at once (a batch of K x K matrices), and coordinate
descent sweeps the cuts until no move improves kappa. It never returns cut
points worse than its start.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...core._checks import check_finite
from .kappa import as_ratings, kappa_from_confusion, weight_matrix

if TYPE_CHECKING:
    from collections.abc import Callable
    from numpy.typing import ArrayLike

MAX_CANDIDATES = 2048   # candidate values per cut (quantiles of x when there are more)


@dataclass(frozen=True)
class CutResult:
    cuts: np.ndarray        # (K-1,) sorted cut points
    kappa: float            # kappa with these cuts
    start_cuts: np.ndarray
    start_kappa: float
    sweeps: int
    evaluations: int        # candidate cut settings scored


def is_continuous(pred: ArrayLike) -> bool:
    """True when predictions hold non-integer values (they need cut points)."""
    pred = np.asarray(pred)
    return pred.dtype.kind == "f" and bool(np.any(pred != np.floor(pred)))


def rounding_cuts(lo: int, hi: int) -> np.ndarray:
    """Cuts equal to rounding half up: lo+0.5, lo+1.5, ..., hi-0.5."""
    return np.arange(lo, hi) + 0.5


def apply_cuts(x: ArrayLike, cuts: ArrayLike, lo: int = 0) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    cuts = np.asarray(cuts, dtype=np.float64)
    if cuts.size and np.any(np.diff(cuts) < 0):
        raise InputError("cut points must be sorted ascending")
    return lo + np.searchsorted(cuts, x, side="right")


def _batch_kappa(o, w, hist_true, n):
    """Kappa of a batch of confusion matrices o (B, K, K) sharing hist_true."""
    hist_pred = o.sum(axis=1)                                  # (B, K)
    num = np.einsum("bij,ij->b", o, w)
    den = np.einsum("i,ij,bj->b", hist_true, w, hist_pred) / n
    with np.errstate(invalid="ignore", divide="ignore"):
        k = 1.0 - num / den
    return np.where(den > 0, k, -np.inf)


def optimize_cuts(truth: ArrayLike, x: ArrayLike, *, weights: str = "quadratic",
                  min_rating: int | None = None, max_rating: int | None = None,
                  start: ArrayLike | None = None, max_sweeps: int = 50,
                  cancel: Callable[[], bool] | None = None) -> CutResult:
    """Cut points maximising weighted kappa of ratings(x) against truth."""
    t = as_ratings(truth, "truth")
    x = check_finite(np.asarray(x, dtype=np.float64).ravel(), "predictions")
    if t.size != x.size:
        raise InputError(f"truth and predictions differ in length: {t.size} vs {x.size}")
    if t.size == 0:
        raise InputError("no rows to optimise cut points on")
    lo = int(t.min()) if min_rating is None else int(min_rating)
    hi = int(t.max()) if max_rating is None else int(max_rating)
    k = hi - lo + 1
    if k < 2:
        raise InputError("cut points need at least two rating classes")
    outside = np.flatnonzero((t < lo) | (t > hi))
    if outside.size:      # they would silently count in no class (kappa 1.0 on imperfect data)
        shown = ", ".join(f"row {i + 1}: {t[i]}" for i in outside[:5])
        raise InputError(f"truth: {outside.size} rating(s) outside the declared range {lo}..{hi}: "
                         f"{shown}{', ...' if outside.size > 5 else ''}")
    start = rounding_cuts(lo, hi) if start is None else np.sort(np.asarray(start, float))
    if start.size != k - 1:
        raise InputError(f"expected {k - 1} cut points for ratings {lo}..{hi}, got {start.size}")

    order = np.argsort(x, kind="stable")
    xs, ts = x[order], t[order] - lo
    # Candidate cut values: midpoints between distinct x (thinned to quantiles).
    uniq = np.unique(xs)
    mids = (uniq[1:] + uniq[:-1]) / 2 if uniq.size > 1 else uniq
    if mids.size > MAX_CANDIDATES:
        mids = np.quantile(mids, np.linspace(0, 1, MAX_CANDIDATES))
    values = np.unique(np.concatenate((mids, start, [uniq[0] - 1.0, uniq[-1] + 1.0])))
    pos = np.searchsorted(xs, values, side="left")            # rows with x < value
    # cum[c, m]: rows of true class c among the m smallest x.
    cum = np.zeros((k, xs.size + 1), dtype=np.int64)
    for c in range(k):
        cum[c, 1:] = np.cumsum(ts == c)
    w = weight_matrix(k, weights)
    hist_true = cum[:, -1].astype(np.float64)
    n = float(xs.size)
    cur = np.searchsorted(values, start)                       # indices into values

    def confusion(idx):
        # columns: rows between consecutive cuts; idx (..., K-1) value indices
        edges = np.concatenate((np.zeros(idx.shape[:-1] + (1,), int), pos[idx],
                                np.full(idx.shape[:-1] + (1,), xs.size)), axis=-1)
        c = cum[:, edges]                                      # (K, ..., K+1)
        o = np.diff(c, axis=-1)                                # (K, ..., K)
        return np.moveaxis(o, 0, -2).astype(np.float64)        # (..., K, K)

    best = _batch_kappa(confusion(cur[None, :]), w, hist_true, n)[0]
    start_kappa = best
    evals, sweeps = 1, 0
    for sweeps in range(1, max_sweeps + 1):
        improved = False
        for i in range(k - 1):
            if cancel is not None and cancel():
                from ...errors import Cancelled
                raise Cancelled("cut point search")
            a = cur[i - 1] if i > 0 else 0
            b = cur[i + 1] if i < k - 2 else values.size - 1
            cand = np.arange(a, b + 1)
            batch = np.repeat(cur[None, :], cand.size, axis=0)
            batch[:, i] = cand
            scores = _batch_kappa(confusion(batch), w, hist_true, n)
            evals += cand.size
            j = int(np.argmax(scores))
            if scores[j] > best + 1e-12:
                best, cur[i], improved = scores[j], cand[j], True
        if not improved:
            break
    cuts = values[cur]
    # Report kappa exactly as apply_cuts + kappa would compute it.
    final = kappa_from_confusion(confusion(cur[None, :])[0], weights=weights).score
    return CutResult(cuts, float(final), start, float(start_kappa), sweeps, evals)
