"""Confidence intervals from bootstrap replicates: percentile and BCa.

Replicates whose score is undefined (nan) are left out of the quantiles but
counted: ``Interval.undefined`` says how many, ``replicates`` is the total.
Quantiles use linear interpolation (``numpy.quantile``'s default), and BCa
follows Efron & Tibshirani 14.3 as ``scipy.stats.bootstrap(method="BCa")``
does, so both agree with scipy on the same replicates.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ..errors import InputError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

METHODS = ("percentile", "bca")
CHOICES = ("auto", "percentile", "bca", "calibrated", "studentised", "score")   # what a user may ask for
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Interval:
    """A two-sided interval and the replicates it came from."""
    low: float            # nan when no replicate (or the BCa correction) is defined
    high: float
    se: float             # standard deviation of the defined replicates (ddof=1)
    level: float          # e.g. 0.95
    method: str           # "percentile", "bca", "calibrated", "studentised" or "score"
    replicates: int       # all replicates drawn, defined or not
    undefined: int        # replicates whose score was undefined (nan)
    notes: tuple = ()     # further warnings (e.g. measured coverage below nominal)
    coverage: "dict | None" = None   # {"measured", "simulations"} of a coverage check
    groups: "int | None" = None      # groups resampled whole, when rows are grouped

    @property
    def warnings(self):
        """What the two numbers alone would hide, in words (never a bare interval)."""
        return edge_warnings(self) + list(self.notes)

    @property
    def too_narrow(self):
        """No interval, or a warning that it is likely too narrow (core/cautions.py)."""
        return not (np.isfinite(self.low) and np.isfinite(self.high)) or any(
            w.startswith("too narrow likely") for w in self.warnings)

    def to_dict(self, seed=None):
        """The JSON ``ci`` object of DESIGN.md (nan -> None)."""
        out = {"level": self.level, "low": _num(self.low), "high": _num(self.high),
               "se": _num(self.se), "method": self.method, "replicates": self.replicates,
               "seed": seed, "undefined_replicates": self.undefined, "warnings": self.warnings,
               "too_narrow_likely": self.too_narrow}
        if self.coverage is not None:
            out["coverage"] = dict(self.coverage)
        if self.groups is not None:
            out["groups"] = self.groups
        return out


def no_interval(level, method, why):
    """An interval not made, and why (no replicate drawn: ``replicates`` 0)."""
    nan = float("nan")
    return Interval(nan, nan, nan, float(level), method, 0, 0, notes=(why,))


def min_replicates(level):
    """Fewest replicates that leave at least one replicate beyond each end of a
    two-sided interval at ``level`` (below it the ends are just the extremes)."""
    return int(np.ceil(2.0 / (1.0 - float(level)) - 1e-9))


def edge_warnings(iv):
    """Warnings of an interval: too few replicates for its level, an undefined share,
    zero width."""
    out = []
    defined = iv.replicates - iv.undefined
    level = f"{100 * iv.level:g}%"
    need = min_replicates(iv.level)
    if 0 < defined < need:
        out.append(f"too few replicates for a {level} interval: {defined:,} defined, at least "
                   f"{need:,} needed (its ends are only the extreme replicates)")
    if iv.undefined:
        share = iv.undefined / iv.replicates
        text = (f"{iv.undefined:,} of {iv.replicates:,} replicates ({100 * share:.1f}%) have an "
                "undefined score and are left out")
        if defined == 0:
            text += "; no replicate is defined, so there is no interval"
        elif 2 * iv.undefined >= iv.replicates:
            text = "too narrow likely: " + text
            text += "; the interval rests on a minority of the replicates"
        out.append(text)
    if np.isfinite(iv.low) and iv.low == iv.high:
        out.append(f"too narrow likely: zero width: every replicate used gave {iv.low:.6g}; the "
                   "sample shows no spread here, which is not certainty about the population value")
    return out


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def check_level(level):
    level = float(level)
    if not 0.0 < level < 1.0:
        raise InputError(f"confidence level must be between 0 and 1 (exclusive); got {level}")
    return level


def _defined(values):
    v = np.asarray(values, dtype=np.float64).ravel()
    ok = np.isfinite(v)
    return v[ok], int(v.size), int(v.size - ok.sum())


def standard_error(values):
    """Sample standard deviation (ddof=1) of the defined replicates; nan if < 2."""
    v, _, _ = _defined(values)
    return float(v.std(ddof=1)) if v.size > 1 else float("nan")


def percentile_interval(values: ArrayLike, level: float = 0.95) -> Interval:
    """Percentile interval: the (1-level)/2 and (1+level)/2 quantiles.

    >>> percentile_interval(np.arange(101.0), 0.9).low
    5.0
    """
    level = check_level(level)
    v, b, bad = _defined(values)
    alpha = (1.0 - level) / 2.0
    low, high = _quantiles(v, alpha, 1.0 - alpha)
    return Interval(low, high, standard_error(v), level, "percentile", b, bad)


def bca_interval(values: ArrayLike, point: float, jackknife_values: ArrayLike, level: float = 0.95,
                 jackknife_weights: ArrayLike | None = None) -> Interval:
    """Bias-corrected and accelerated interval.

    values: the bootstrap replicates; point: the score on all units;
    jackknife_values: the score with each unit left out once (for cells of
    identical units pass each cell's value once and its size in
    ``jackknife_weights``). Undefined jackknife values are left out of the
    acceleration. When the correction is undefined (every replicate on one
    side of the point, or no spread) low and high are nan.
    """
    level = check_level(level)
    v, b, bad = _defined(values)
    se = standard_error(v)
    nan = float("nan")
    if v.size == 0 or not np.isfinite(point):
        return Interval(nan, nan, se, level, "bca", b, bad)
    # Bias correction: where the point falls among the replicates (mid-rank).
    frac = (np.count_nonzero(v < point) + np.count_nonzero(v <= point)) / (2.0 * v.size)
    if not 0.0 < frac < 1.0:
        return Interval(nan, nan, se, level, "bca", b, bad)
    z0 = _NORMAL.inv_cdf(frac)
    a = acceleration(jackknife_values, jackknife_weights)
    if not np.isfinite(a):
        return Interval(nan, nan, se, level, "bca", b, bad)
    za = _NORMAL.inv_cdf((1.0 - level) / 2.0)
    qs = []
    for z in (za, -za):
        num = z0 + z
        qs.append(_NORMAL.cdf(z0 + num / (1.0 - a * num)))
    low, high = _quantiles(v, *qs)
    return Interval(low, high, se, level, "bca", b, bad)


def acceleration(jackknife_values, weights=None):
    """BCa acceleration from leave-one-out values (weights: copies of each)."""
    j = np.asarray(jackknife_values, dtype=np.float64).ravel()
    w = np.ones_like(j) if weights is None else np.asarray(weights, dtype=np.float64).ravel()
    if w.shape != j.shape:
        raise InputError(f"jackknife weights: expected {j.size}, got {w.size}")
    ok = np.isfinite(j) & (w > 0)
    j, w = j[ok], w[ok]
    if w.sum() == 0:
        return float("nan")
    d = (j * w).sum() / w.sum() - j
    den = (w * d * d).sum()
    if den == 0:
        return 0.0   # no jackknife spread: no skewness to correct
    return float((w * d ** 3).sum() / (6.0 * den ** 1.5))


def interval(values, level=0.95, method="percentile", point=None, jackknife_values=None,
             jackknife_weights=None):
    """Dispatch on ``method`` ("percentile" or "bca")."""
    if method == "percentile":
        return percentile_interval(values, level)
    if method == "bca":
        return bca_interval(values, point, jackknife_values, level, jackknife_weights)
    raise InputError(f"interval method must be one of {', '.join(METHODS)}; got {method!r}")


def _quantiles(v, q1, q2):
    if v.size == 0:
        return float("nan"), float("nan")
    lo, hi = np.quantile(v, [q1, q2])
    return float(lo), float(hi)
