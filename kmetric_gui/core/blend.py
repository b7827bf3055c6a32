"""Blend curves: the score of alpha*A + (1-alpha)*B for many alpha at once.

Each blend is the float array ``a * A + (1 - a) * B`` a plain loop would
score; the curve equals scoring every such array.

A metric's ``blend`` hook scores the blends (its own vectorised curve in
metrics/kernels/, or one score per alpha) and ``blend_curve`` picks the best.
"""
from dataclasses import dataclass

import numpy as np

from ..errors import InputError


@dataclass(frozen=True)
class BlendCurve:
    alphas: np.ndarray        # (G,) weight of A (1: A alone, 0: B alone)
    scores: np.ndarray        # (G,) score of each blend (nan: undefined)
    best_alpha: float         # first alpha with the best score (nan if none defined)
    best_score: float
    higher_is_better: bool = True   # which way "best" is

    def oriented(self, higher_is_better):
        """The curve with its best point picked in the metric's direction."""
        if bool(higher_is_better) == self.higher_is_better:
            return self
        return _curve(self.alphas, self.scores, higher_is_better)


def check_alphas(alphas):
    a = np.asarray(alphas, dtype=np.float64).ravel()
    if a.size == 0 or not np.isfinite(a).all() or (a < 0).any() or (a > 1).any():
        raise InputError("blend weights must be finite numbers from 0 to 1")
    if (np.diff(a) <= 0).any():
        raise InputError("blend weights must be strictly increasing")
    return a


def _curve(alphas, scores, higher_is_better=True):
    """The curve, its best point the first alpha with the highest (or lowest) score."""
    ok = np.isfinite(scores)
    hib = bool(higher_is_better)
    if not ok.any():
        return BlendCurve(alphas, scores, float("nan"), float("nan"), hib)
    pick = np.argmax if hib else np.argmin
    g = int(np.flatnonzero(ok)[pick(scores[ok])])
    return BlendCurve(alphas, scores, float(alphas[g]), float(scores[g]), hib)


def blend_curve(alphas, scores, higher_is_better=True):
    """A BlendCurve from scores a metric computed at each alpha (any metric's blend hook)."""
    return _curve(check_alphas(alphas), np.asarray(scores, dtype=np.float64), higher_is_better)
