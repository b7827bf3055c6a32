"""Power of a paired comparison, from the paired bootstrap's spread (STATS.md).

With SE the standard error of delta = B - A on this test set (the standard
deviation of the paired bootstrap deltas), a two-sided test at level alpha
detects a true difference of

    MDD = (z(1 - alpha / 2) + z(power)) x SE

with the given power (normal approximation). SE shrinks as 1 / sqrt(n), so a
new test set from the same population needs n x (MDD / delta)^2 units to
detect delta.
"""
from __future__ import annotations

import math
from statistics import NormalDist

from ..errors import InputError

_Z = NormalDist()


def _check(alpha, power):
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be between 0 and 1 (exclusive); got {alpha}")
    if not 0 < power < 1:
        raise InputError(f"power must be between 0 and 1 (exclusive); got {power}")


def min_detectable_delta(se, alpha=0.05, power=0.8):
    """Smallest |delta| detected with ``power`` at two-sided level ``alpha``; nan without SE."""
    _check(alpha, power)
    if se is None or not math.isfinite(se) or se < 0:
        return float("nan")
    return (_Z.inv_cdf(1 - alpha / 2) + _Z.inv_cdf(power)) * float(se)


def units_needed(n, se, delta, alpha=0.05, power=0.8):
    """Units (rows) a new test set needs to detect ``delta``: ceil(n (MDD / delta)^2)."""
    mdd = min_detectable_delta(se, alpha, power)
    if not math.isfinite(mdd) or delta == 0 or not math.isfinite(delta):
        return None
    return max(1, math.ceil(n * (mdd / abs(delta)) ** 2))


__all__ = ["min_detectable_delta", "units_needed"]
