"""Coverage self-check: how often an interval method covers, measured on the data itself.

The sample is taken as the population (its score the "true" value); datasets of
the same size are drawn from it (units with replacement: for cells of identical
units one multinomial draw), the interval is computed on each exactly as it was
on the data (same method, level and replicates), and the share that contains the
sample's score is the measured coverage. It is itself an estimate: with S
simulations its binomial error is about sqrt(c (1 - c) / S). A simulated dataset
whose interval cannot be made counts as a miss.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .resample import Units, check_cancel

SIMULATIONS = 200
SHORTFALL = 0.02      # warn when the measured coverage is this far below nominal


def simulated_units(units, rng, simulations):
    """Yield ``simulations`` datasets of units.n units drawn from ``units`` (as Units)."""
    u = units.collapsed
    n = u.n
    if u.cells is not None:
        p = np.asarray(u.cells, dtype=np.float64) / n
        for counts in rng.multinomial(n, p, size=simulations):
            yield Units(u.stats, u.score, counts, u.kind, minority=units.minority)
        return
    for _ in range(simulations):
        idx = rng.integers(0, n, size=n)
        yield replace(u, stats=u.stats[idx], jackknife_fn=None)


def measured_coverage(units, interval_fn, simulations=SIMULATIONS, seed=0, cancel=None,
                      progress=None):
    """(share of simulated datasets whose interval covers the sample's score, simulations).

    interval_fn(units, seed) -> core.intervals.Interval, the method as used on the data.
    progress(fraction, words), when given, hears after each simulated dataset.
    """
    point = units.point()
    if not np.isfinite(point):
        return float("nan"), 0
    rng = np.random.default_rng([0 if seed is None else seed, 4])
    hits = 0
    for k, sim in enumerate(simulated_units(units, rng, simulations)):
        check_cancel(cancel)
        iv = interval_fn(sim, k)
        if np.isfinite(iv.low) and np.isfinite(iv.high) and iv.low <= point <= iv.high:
            hits += 1
        if progress is not None:
            progress((k + 1) / simulations, f"coverage check: dataset {k + 1} of {simulations}")
    return hits / simulations, simulations


def coverage_note(measured, simulations, level):
    """The warning beside an interval whose measured coverage is short of nominal, or None."""
    if not np.isfinite(measured) or measured >= level - SHORTFALL:
        return None
    return (f"measured coverage {100 * measured:.1f}% at this size ({simulations} datasets "
            f"simulated from this data) is below the nominal {100 * level:g}%")


__all__ = ["measured_coverage", "coverage_note", "simulated_units", "SIMULATIONS"]
