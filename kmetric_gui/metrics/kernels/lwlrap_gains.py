"""LwLRAP: per-class share of the score, per-class and per-sample gains of a perfect ranking.

The overall score is (sum of all positives' precisions) / P with P fixed by
the truth, so fixing a sample (its true labels ranked above every false
label: each of its precisions becomes 1) gains (n_pos - sum of precisions) / P
whatever else was fixed: the greedy order is the gains sorted.

Fixing a class j ranks it perfectly in every sample: first where it is a
true label, last where it is not. That changes other labels' precisions
too: a true j that was below a positive k now sits above it (rank and hits
of k grow by one); a false j at or above k drops below it (k's rank shrinks
by one).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

import numpy as np

from ...core.attribution import FixList, check_top, empty_fixes
from .lwlrap import TIES, _check_inputs, lwlrap
from ...core._checks import check_option

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from .lwlrap import LwlrapResult

_BLOCK = 1 << 22  # elements per (positives x classes) block


@dataclass(frozen=True)
class LwlrapClassGains:
    share: np.ndarray     # (C,) per-class lwlrap x class weight (sums to the score)
    gain: np.ndarray      # (C,) score change if the class were ranked perfectly
    score: float


def sample_gains(result: LwlrapResult) -> np.ndarray:
    """(N,) gain of ranking each sample perfectly (0 for samples with no positive)."""
    n = result.sample_scores.size
    if result.n_positives == 0:
        return np.zeros(n)
    npos = np.bincount(result.positive_rows, minlength=n)
    hits = np.bincount(result.positive_rows, weights=result.precisions, minlength=n)
    return (npos - hits) / result.n_positives


def lwlrap_fix_first(result: LwlrapResult, top: int = 10) -> FixList:
    """Samples in greedy order (largest gain first, lower index on ties)."""
    top = check_top(top)
    if result.undefined_reason:
        return empty_fixes(result.score, result.undefined_reason)
    n = result.sample_scores.size
    npos = np.bincount(result.positive_rows, minlength=n)
    hits = np.bincount(result.positive_rows, weights=result.precisions, minlength=n)
    missing = npos - hits
    fixable = np.flatnonzero(missing > 1e-12)
    order = fixable[np.argsort(-missing[fixable], kind="stable")][:top]
    total = float(result.precisions.sum())
    p = result.n_positives
    after = (total - np.cumsum(hits[order]) + np.cumsum(npos[order])) / p
    prev = np.concatenate(([result.score], after[:-1]))
    return FixList(order.astype(np.int64), after - prev, after, result.score, int(fixable.size))


def lwlrap_class_gains(truth: ArrayLike, scores: ArrayLike, *, ties: str = "worst",
                       result: LwlrapResult | None = None) -> LwlrapClassGains:
    """Per-class share and the exact gain of ranking each class perfectly."""
    check_option("ties", ties, TIES)
    t, s = _check_inputs(truth, scores)
    if result is None:
        result = lwlrap(t, s, ties=ties)
    c = t.shape[1]
    share = result.per_class * result.class_weights
    p = result.n_positives
    if p == 0:
        return LwlrapClassGains(share, np.full(c, np.nan), result.score)
    rows, cols = result.positive_rows, result.positive_classes
    ranks = result.ranks
    hits = np.rint(result.precisions * ranks)
    moved = np.zeros(c)
    col_idx = np.arange(c)
    step = max(1, _BLOCK // max(c, 1))
    for a in range(0, p, step):
        r, j = rows[a:a + step], cols[a:a + step]
        srow = s[r]
        sj = s[r, j][:, None]
        if ties == "worst":
            above = srow >= sj
        else:
            above = (srow > sj) | ((srow == sj) & (col_idx[None, :] >= j[:, None]))
        tr = t[r]
        h, rk = hits[a:a + step], ranks[a:a + step].astype(np.float64)
        base = h / rk
        # The change of k's precision depends only on k, not on which j moved.
        rise = (h + 1) / (rk + 1) - base                 # a true class below k moves above it
        drop = h / np.maximum(rk - 1, 1) - base          # a false class at or above k moves below it
        moved += rise @ (tr & ~above) + drop @ (~tr & above)
    own = np.bincount(cols, weights=1.0 - result.precisions, minlength=c)
    return LwlrapClassGains(share, (own + moved) / p, result.score)
