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
    held_out: tuple = ()      # HeldOut checks of the best alpha (analysis/comparison.py)

    def oriented(self, higher_is_better):
        """The curve with its best point picked in the metric's direction."""
        if bool(higher_is_better) == self.higher_is_better:
            return self
        return _curve(self.alphas, self.scores, higher_is_better)


@dataclass(frozen=True)
class HeldOut:
    """The best alpha of one part of the rows, scored on the other part."""
    fit_on: str               # "Public", "half 1", ...
    held: str
    alpha: float              # best alpha on ``fit_on`` (nan if none)
    score: float              # the blend at that alpha on ``held``
    a_score: float            # A alone on ``held``
    b_score: float            # B alone on ``held``
    higher_is_better: bool = True

    @property
    def gain(self):
        """The held-out blend against the better of A and B alone there (> 0: it helps)."""
        best = max(self.a_score, self.b_score) if self.higher_is_better else \
            min(self.a_score, self.b_score)
        return (self.score - best) if self.higher_is_better else (best - self.score)

    def words(self):
        if not np.isfinite(self.alpha):
            return f"no α could be fitted on {self.fit_on}"
        g = self.gain
        verdict = ("better than either alone" if g > 0 else
                   "no better than the better one alone" if np.isfinite(g) else "undefined")
        return (f"α = {self.alpha:.2f} fitted on {self.fit_on} → {self.score:.4f} on "
                f"{self.held} (A {self.a_score:.4f}, B {self.b_score:.4f}): {verdict}")


def held_out_checks(parts, names, higher_is_better=True):
    """HeldOut of each part's best alpha on the other: ``parts`` two BlendCurves over the
    same alphas (one per part of the rows), ``names`` their names."""
    out = []
    for k in (0, 1):
        fit, held = parts[k].oriented(higher_is_better), parts[1 - k]
        if np.isfinite(fit.best_alpha):
            g = int(np.flatnonzero(fit.alphas == fit.best_alpha)[0])
            score = float(held.scores[g])
        else:
            score = float("nan")
        out.append(HeldOut(names[k], names[1 - k], fit.best_alpha, score,
                           float(held.scores[-1]), float(held.scores[0]), bool(higher_is_better)))
    return tuple(out)


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
