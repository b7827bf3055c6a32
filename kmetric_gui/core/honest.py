"""Optimisers that show their own overfitting: the metric-agnostic parts.

A value fitted on some rows (cut points, a threshold) scores better on those
rows than on new ones. The metric's optimiser (metrics/kernels/) fits it on
one part and scores it on the other (Public -> Private and the reverse, or
k folds across rows); a paired bootstrap of the held-out gain, ``verdict``,
says plainly whether the gain is within the noise.
"""
from dataclasses import dataclass

import numpy as np

from .resample import rng_of

NOISE_SE = 2.0   # a gain smaller than this many standard errors is "within the noise"


@dataclass(frozen=True)
class Verdict:
    """Paired bootstrap of a score difference (B minus A) on the same units."""
    delta: float
    se: float
    low: float
    high: float
    level: float
    replicates: int
    undefined: int
    within_noise: bool
    text: str


def index_of(rows, n):
    rows = np.asarray(rows)
    return np.flatnonzero(rows) if rows.dtype == bool and rows.size == n else rows.astype(np.int64)


def recode(groups, rows):
    """Group codes 0..G'-1 of the groups present among ``rows``."""
    _, codes = np.unique(np.asarray(groups)[rows], return_inverse=True)
    return codes.ravel().astype(np.int64)


def fold_ids(n, folds=5, seed=0):
    """Fold of each row: a seeded shuffle cut into ``folds`` near-equal parts."""
    folds = int(folds)
    if not 2 <= folds <= max(n, 2):
        from ..errors import InputError
        raise InputError(f"folds must be between 2 and the number of rows ({n}); got {folds}")
    out = np.empty(n, dtype=np.int64)
    out[rng_of(seed).permutation(n)] = np.arange(n) % folds
    return out


def verdict(point_a, point_b, reps, *, level=0.95, what="the optimised cut points",
            held="held-out rows"):
    """Plain words on whether B - A is within the noise of its paired bootstrap."""
    d = reps[:, 1] - reps[:, 0]
    ok = np.isfinite(d)
    delta = float(point_b - point_a)
    v = d[ok]
    se = float(v.std(ddof=1)) if v.size > 1 else float("nan")
    alpha = (1 - level) / 2
    low, high = (np.quantile(v, [alpha, 1 - alpha]) if v.size else (np.nan, np.nan))
    within = not np.isfinite(se) or delta == 0 or abs(delta) < NOISE_SE * se
    if delta == 0:
        text = f"{what} no gain on the {held} (the same score as before)"
    elif not np.isfinite(se):
        text = f"{what} gain {delta:+.4f} on the {held}; too few defined replicates to judge the noise"
    elif within:
        text = (f"{what} gain {delta:+.4f} on the {held}, within the noise: the bootstrap "
                f"standard error of that gain is {se:.4f} (|gain| < {NOISE_SE:g} SE)")
    else:
        text = (f"{what} gain {delta:+.4f} on the {held}, beyond the noise: "
                f"{abs(delta) / se:.1f} bootstrap standard errors ({se:.4f})")
    return Verdict(delta, se, float(low), float(high), level, int(d.size), int((~ok).sum()),
                   bool(within), text)
