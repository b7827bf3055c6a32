"""The calibrated (double) bootstrap interval, and the automatic choice of method.

A percentile interval at level 1 - a covers less than 1 - a at small n and
with skewed or discrete statistics. Calibration measures by how much, on the
data itself: each outer replicate b (a resample of the data) is treated as a
sample in its own right, ``inner`` replicates are drawn from it, and
u_b = the share of its inner scores below the original score (mid-rank for
ties). Were the percentile method exact, the u_b would be uniform; their
a/2 and 1 - a/2 quantiles are the levels at which the outer percentiles are
read instead (Beran's prepivoting; Davison & Hinkley 1997, section 5.6).

The outer replicates are the very ones ``resample.bootstrap`` draws (same
seed), so the calibrated and the percentile interval read the same numbers.
Inner draws: cells of identical units (a confusion matrix's K x K cells, merged integer
statistics) are one multinomial draw over the outer replicate's counts;
single units are drawn by index from the outer replicate's units when
B1 x B2 x n is small, else the inner sums are drawn from their normal limit
(n times the mean and covariance of the outer replicate's units, from one
gather of the statistics and their products) and scored through the metric's
own (non-linear) formula; with very many units (B1 x n above LIMIT_WORK) the
outer level too is drawn from its normal limit.
"""
from __future__ import annotations

import numpy as np

from .intervals import Interval, _defined, _quantiles, check_level, standard_error
from .resample import CHUNK, _Gather, check_cancel, count_blocks, index_blocks, rng_of
from .words import plural

INNER = 400                 # inner replicates per outer replicate (few: noisy shares, too wide)
OUTER = 500                 # outer replicates used to calibrate (the first of the B drawn)
EXACT_WORK = 10_000_000     # single units: index draws while B1 x B2 x n stays under this
LIMIT_WORK = 20_000_000     # ... and gathers of the outer replicates while B1 x n stays under this
AUTO_UNITS = 50             # auto: calibrated below this many units (a confusion matrix) ...
AUTO_UNITS_CLASSES = 200    # ... below this many with three classes or more ...
AUTO_MINORITY = 6           # ... or when a class has fewer rows than this


def _mid_share(inner, point):
    """Per row of inner (R, B2): share of defined values below point, ties counted half."""
    ok = np.isfinite(inner)
    d = ok.sum(axis=1)
    below = np.count_nonzero(ok & (inner < point), axis=1)
    equal = np.count_nonzero(ok & (inner == point), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(d > 0, (below + 0.5 * equal) / d, np.nan)


def calibration_shares(units, outer=OUTER, inner=INNER, seed=0, cancel=None):
    """u_b (B1,) for the first ``outer`` replicates ``bootstrap(units, ., seed)`` draws."""
    point = units.point()
    units = units.collapsed
    n = units.n
    rng = rng_of(seed)
    rng_in = np.random.default_rng([0 if seed is None else seed, 3])
    out = np.full(outer, np.nan)
    if units.cells is not None:
        m = units.cells.size
        step = max(1, CHUNK // max(m * inner, 1))
        for r0, counts in count_blocks(rng, units.cells, outer):
            for a in range(0, counts.shape[0], step):
                check_cancel(cancel)
                c = counts[a:a + step]
                draws = rng_in.multinomial(n, (c / n)[:, None, :], size=(c.shape[0], inner))
                sc = units.score(units.sums_of_counts(draws.reshape(-1, m)))
                out[r0 + a:r0 + a + c.shape[0]] = _mid_share(sc.reshape(c.shape[0], inner), point)
        return out
    stats = np.asarray(units.stats, dtype=np.float64)
    if outer * n > LIMIT_WORK:
        return _limit_shares(units, stats, rng, rng_in, outer, inner, point)
    if outer * inner * n > EXACT_WORK or n > CHUNK:
        return _normal_shares(units, stats, rng, rng_in, outer, inner, point, cancel)
    for r0, r, u0, idx in index_blocks(rng, n, outer):
        check_cancel(cancel)
        for k in range(r):
            pos = rng_in.integers(0, n, size=(inner, n))
            sums = stats[idx[k][pos]].sum(axis=1)
            out[r0 + k] = _mid_share(units.score(sums)[None, :], point)[0]
    return out


def _normal_shares(units, stats, rng, rng_in, outer, inner, point, cancel):
    """Inner sums drawn from their normal limit: N(n mean_b, n cov_b), with mean_b and
    cov_b the outer replicate's (its empirical law, ddof 0), one gather of the units'
    statistics and their products for every outer replicate."""
    n, m = stats.shape
    iu = np.triu_indices(m)
    aug = np.column_stack([stats, stats[:, iu[0]] * stats[:, iu[1]]])
    g = _Gather(aug, n)
    acc = g.zeros(outer)
    for r0, r, _, idx in index_blocks(rng, n, outer):
        check_cancel(cancel)
        g.add(acc, slice(r0, r0 + r), idx)
    sums = g.unpack(acc)
    mean = sums[:, :m] / n
    second = np.zeros((outer, m, m))
    second[:, iu[0], iu[1]] = sums[:, m:] / n
    second[:, iu[1], iu[0]] = sums[:, m:] / n
    cov = second - mean[:, :, None] * mean[:, None, :]
    vals, vecs = np.linalg.eigh(cov)
    root = vecs * np.sqrt(np.clip(vals, 0, None))[:, None, :]          # cov = root root^T
    z = rng_in.standard_normal((outer, inner, m))
    draws = n * mean[:, None, :] + np.sqrt(n) * np.einsum("bij,bkj->bki", root, z)
    scores = units.score(draws.reshape(-1, m)).reshape(outer, inner)
    return _mid_share(scores, point)


def _limit_shares(units, stats, rng, rng_in, outer, inner, point):
    """Very many units: both levels in their normal limit. An outer replicate's mean is
    N(mean, cov / n) and its inner sums N(n mean_b, n cov), with the data's mean and
    covariance (one pass over the units instead of one gather per outer replicate; at
    this size an outer replicate's own covariance differs from the data's by O(n^-1/2))."""
    n, m = stats.shape
    mean = stats.mean(axis=0)
    cov = np.atleast_2d(np.cov(stats.T, bias=True))
    vals, vecs = np.linalg.eigh(cov)
    root = vecs * np.sqrt(np.clip(vals, 0, None))[None, :]
    mb = mean + rng.standard_normal((outer, m)) @ root.T / np.sqrt(n)
    z = rng_in.standard_normal((outer, inner, m))
    draws = n * mb[:, None, :] + np.sqrt(n) * (z @ root.T)
    return _mid_share(units.score(draws.reshape(-1, m)).reshape(outer, inner), point)


def calibrated_interval(values, units, level=0.95, seed=0, outer=OUTER, inner=INNER,
                        cancel=None) -> Interval:
    """The calibrated interval from the bootstrap ``values`` of ``units`` (same seed)."""
    level = check_level(level)
    v, b, bad = _defined(values)
    se = standard_error(v)
    nan = float("nan")
    point = units.point() if units.n else nan
    if v.size == 0 or not np.isfinite(point):
        return Interval(nan, nan, se, level, "calibrated", b, bad)
    u = calibration_shares(units, min(outer, b), inner, seed, cancel)
    u = u[np.isfinite(u)]
    if u.size == 0:
        return Interval(nan, nan, se, level, "calibrated", b, bad)
    alpha = (1.0 - level) / 2.0
    q_lo, q_hi = np.quantile(u, [alpha, 1.0 - alpha])
    low, high = _quantiles(v, float(np.clip(q_lo, 0, 1)), float(np.clip(q_hi, 0, 1)))
    return Interval(low, high, se, level, "calibrated", b, bad)


def auto_method(units, minority=None):
    """(method, why): the method measured to keep its level in this case
    (bench/coverage.py, docs/statistics.md). Units may choose for themselves
    (``auto_choice()``, e.g. a rank statistic's closed-form interval). Per-unit
    statistics: the studentised bootstrap for the mean (or root mean) of one per-unit
    value, whose skew the percentile misses; percentile for ratios of several sums, where
    the studentised one measured worse (documents of heavy-tailed sizes: 0.72 against
    0.90). Cells of identical units (a confusion matrix): calibrated with a rare class or
    few rows, where the percentile covers too little, else percentile. Measured
    (bench/coverage.py, 500 data sets a cell, the per-family numbers in
    docs/statistics.md): tables of three classes or more held calibrated at 50 rows, where
    the percentile fell to 0.923, and at 200 (0.936-0.960); two-class tables calibrated at
    50 rows covered 0.99 (too wide), so they keep the percentile from 50 rows, and so does
    a table of two cells (right and wrong) whatever the classes."""
    choose = getattr(units, "auto_choice", None)
    if choose is not None:
        return choose()
    if hasattr(units, "replicates") and not hasattr(units, "placement_units"):
        # a statistic that draws its own replicates and has no additive form to calibrate
        # or studentise with (auto chose calibrated for it, then said it could not)
        return "percentile", "a statistic with no additive form"
    if units.stats is not None:
        if varying_columns(units) == 1:
            return "studentised", "the mean of one per-unit value"
        return "percentile", "a ratio of per-unit sums"
    if minority is None:
        minority = getattr(units, "minority", None)
    if units.n < AUTO_UNITS:
        return "calibrated", f"fewer than {AUTO_UNITS:,} {plural(units.kind)}"
    if units.n < AUTO_UNITS_CLASSES and np.size(units.cells) > 4:   # > 4 cells: 3+ classes
        return "calibrated", (f"fewer than {AUTO_UNITS_CLASSES:,} {plural(units.kind)} "
                              f"with three classes or more")
    if minority is not None and minority < AUTO_MINORITY:
        return "calibrated", f"a class with fewer than {AUTO_MINORITY} {plural(units.kind)}"
    return "percentile", f"{units.n:,} {plural(units.kind)}"


def varying_columns(units):
    """How many of the units' statistic columns vary between units (a count column of
    ones does not)."""
    s = np.asarray(units.stats)
    if s.ndim != 2 or s.shape[0] == 0:
        return 0
    return int(np.count_nonzero(~np.all(s == s[:1], axis=0)))
