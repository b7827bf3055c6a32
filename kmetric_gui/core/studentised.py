"""The studentised (bootstrap-t) interval of a score made of per-unit sums.

A percentile interval reads the bootstrap replicates' own spread; with a
skewed statistic at small n (squared errors, per-row losses, documents of very
different sizes) that spread is too small on the side the sample under-shows.
The studentised interval pivots instead: each replicate's
t* = (score* - score) / se*, with se* the replicate's own standard error, and
the interval is [score - t*(1 - a/2) se, score - t*(a/2) se] (Efron &
Tibshirani 1993, ch. 12; Davison & Hinkley 1997, 5.2.1).

The standard error of a score of sums comes from its influence values: with
T the sums over all units and g the gradient of the score at T, a unit's
influence is d_i = g . (s_i - T / n), so that score(T*) - score(T) is about
the sum of d over a replicate's units, and se^2 = n / (n - 1) sum (d_i - mean d)^2.
A replicate's se* is the same formula over its own units (the sums of d and
d^2 over them), so the replicates cost one more gather of two numbers per unit.
The replicates are the very draws ``resample.bootstrap`` makes with the same
seed, so the percentile interval of the same call reads the same scores.
"""
from __future__ import annotations

import numpy as np

from .intervals import Interval, _defined, _quantiles, check_level, standard_error
from .resample import Units, _index_sums, check_cancel, check_replicates, count_blocks, rng_of


def gradient(score, total):
    """Central-difference gradient (m,) of ``score`` (sums (R, m) -> (R,)) at ``total``."""
    t = np.asarray(total, dtype=np.float64)
    m = t.size
    scale = max(float(np.abs(t).mean()), 1e-12)
    h = 1e-6 * np.maximum(np.abs(t), 1e-3 * scale)
    step = np.diag(h)
    vals = score(np.vstack([t + step, t - step]))
    return (vals[:m] - vals[m:]) / (2.0 * h)


def _rows(units):
    """(statistics of each distinct unit row (M, m), copies of each (M,) or None)."""
    if units.stats is None:
        return np.eye(np.asarray(units.cells).size), np.asarray(units.cells, dtype=np.float64)
    s = np.asarray(units.stats, dtype=np.float64)
    return s, None if units.cells is None else np.asarray(units.cells, dtype=np.float64)


def influence(units):
    """(influence (M,) of each unit row, copies (M,) or None) of collapsed Units; the
    influences are nan when the score or its gradient is undefined."""
    rows, w = _rows(units)
    n = units.n
    total = units.total()
    g = gradient(units.score, total)
    if not np.all(np.isfinite(g)):
        return np.full(rows.shape[0], np.nan), w
    return (rows - total / n) @ g, w


def standard_error_of(d, w, n):
    """se of the score from influences d (weights w: copies of each, or None)."""
    if n < 2:
        return float("nan")
    w = np.ones_like(d) if w is None else w
    mean = float((w * d).sum() / n)
    return float(np.sqrt(max((w * (d - mean) ** 2).sum(), 0.0) * n / (n - 1)))


def replicate_sums(units, columns, replicates, seed=0, cancel=None):
    """Sums (B, q) of ``columns`` (M, q), one row per unit row of collapsed ``units``,
    over the units each bootstrap replicate draws (the draws of ``resample.bootstrap``)."""
    b = check_replicates(replicates)
    rng = rng_of(seed)
    if units.cells is not None:
        out = np.empty((b, columns.shape[1]))
        for r0, counts in count_blocks(rng, units.cells, b):
            check_cancel(cancel)
            out[r0:r0 + counts.shape[0]] = counts.astype(np.float64) @ columns
        return out
    return _index_sums(Units(columns, None), rng, b, cancel)


def _pivot_sums(u, rows, d, replicates, seed, cancel):
    """(sums (B, m), sum of d (B,), sum of d^2 (B,)) over each replicate's units. One
    varying column x (a mean's value beside a count column): d is affine in x, so
    gathering x and x^2 gives every sum, the very cost of the percentile's gather."""
    m = rows.shape[1]
    const = np.all(rows == rows[:1], axis=0)
    if u.cells is None and int((~const).sum()) == 1 and np.all(np.isfinite(d)):
        j = int(np.flatnonzero(~const)[0])
        x = rows[:, j]
        sx, sxx = replicate_sums(u, np.column_stack([x, x * x]), replicates, seed, cancel).T
        n = u.n
        sums = np.tile(rows[0] * n, (sx.size, 1))
        sums[:, j] = sx
        mean = float(x.mean())
        c = x - mean
        k = float(c @ d / (c @ c)) if c.any() else 0.0                   # d = k (x - mean)
        return sums, k * (sx - n * mean), k * k * (sxx - 2 * mean * sx + n * mean * mean)
    out = replicate_sums(u, np.column_stack([rows, d, d * d]), replicates, seed, cancel)
    return out[:, :m], out[:, m], out[:, m + 1]


def studentised_interval(units, level=0.95, replicates=2000, seed=0, cancel=None):
    """(Interval, replicate scores (B,)) of the studentised bootstrap (see the module doc)."""
    level = check_level(level)
    nan = float("nan")
    u = units.collapsed
    n = u.n
    if n == 0:
        reps = np.full(check_replicates(replicates), nan)
        return Interval(nan, nan, nan, level, "studentised", reps.size, reps.size), reps
    point = u.point()
    d, w = influence(u)
    rows, _ = _rows(u)
    sums, sd, sd2 = _pivot_sums(u, rows, d, replicates, seed, cancel)
    reps = u.score(sums)
    v, b, bad = _defined(reps)
    se_rep = standard_error(v)
    se = standard_error_of(d, w, n)
    if v.size == 0 or not (np.isfinite(point) and np.isfinite(se)):
        return Interval(nan, nan, se_rep, level, "studentised", b, bad), reps
    se_star = np.sqrt(np.maximum(sd2 - sd * sd / n, 0.0) * n / (n - 1))
    dev = reps - point
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(se_star > 0, dev / se_star, np.where(dev == 0, 0.0, np.sign(dev) * np.inf))
    t = t[np.isfinite(reps)]
    if se == 0:
        return Interval(point, point, se_rep, level, "studentised", b, bad), reps
    alpha = (1.0 - level) / 2.0
    if np.isfinite(t).all():
        t_lo, t_hi = _quantiles(t, alpha, 1.0 - alpha)
    else:           # infinite pivots: read actual replicates, never interpolate to inf - inf
        t_lo, t_hi = np.quantile(t, [alpha, 1.0 - alpha], method="inverted_cdf")
    low, high = point - t_hi * se, point - t_lo * se
    notes = ()
    if not (np.isfinite(low) and np.isfinite(high)):
        # Replicates whose units are all alike have no spread of their own (se* = 0):
        # that end falls back to the widest replicate.
        low = low if np.isfinite(low) else float(v.min())
        high = high if np.isfinite(high) else float(v.max())
        notes = ("too few distinct units to studentise one end: it is the extreme replicate",)
    return Interval(float(low), float(high), se_rep, level, "studentised", b, bad, notes), reps


__all__ = ["studentised_interval", "influence", "gradient", "replicate_sums", "standard_error_of"]
