"""Coverage self-check: how often an interval method covers, measured on the data itself.

The sample is taken as the population (its score the "true" value); datasets of
the same size are drawn from it (units with replacement: for cells of identical
units one multinomial draw; a rank statistic draws its rows, ``take``), the
interval is computed on each exactly as it was on the data (same method, level
and replicates), and the share that contains the population's score is the
measured coverage. It is itself an estimate: with S simulations its binomial
error is about sqrt(c (1 - c) / S). A simulated dataset whose interval cannot
be made counts as a miss.

What it cannot see: a population value beyond what the sample shows. Where the
sample's largest unit holds a large share of a total (core/cautions.py's heavy
tail), datasets drawn from the sample alone never hold a larger unit, and the
check would be optimistic. There the population is widened: the sample's
largest units (the top 2 sqrt(n), at least 10) are replaced by draws from a
Pareto tail fitted to them (the moment estimator of the tail index), each unit's
statistics scaled together, so simulated datasets hold units larger than any
in the sample, and the "true" value is that population's (its expected sums).
The result says it was widened and with which tail index.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import InputError
from .cautions import tail_note, tail_values
from .resample import Units, check_cancel
from .words import plural

SIMULATIONS = 200
SHORTFALL = 0.02      # warn when the measured coverage is this far below nominal
MIN_UNITS = 10        # fewer units than this: no check (datasets drawn from so few say nothing)
MIN_TAIL = 10         # largest units the tail is fitted to (at least)
MIN_INDEX = 1.1       # tail index used at least (below 1 the population has no mean)


def check_simulable(units):
    """InputError when the data has too few units for a coverage check."""
    if units.n < MIN_UNITS:
        raise InputError(f"--coverage-check needs at least {MIN_UNITS} {plural(units.kind)} to "
                         f"draw datasets from; this input has {units.n}")


class Tail:
    """A Pareto tail fitted to the largest units by ``values`` (each unit's size in the
    total the score is made of, core/cautions.py; see the module doc)."""

    def __init__(self, units, values):
        s = np.asarray(units.stats, dtype=np.float64)
        n = s.shape[0]
        x = np.asarray(values, dtype=np.float64)
        k = min(n // 2, max(MIN_TAIL, int(np.ceil(2 * np.sqrt(n)))))
        order = np.argsort(x, kind="stable")
        self.top = order[n - k:]                       # the k largest units
        self.threshold = float(x[order[n - k - 1]])
        gamma = moment_index(x[self.top], self.threshold)
        self.fitted = 1.0 / gamma if gamma > 0 else float("inf")
        self.index = max(MIN_INDEX, self.fitted)
        self.scaled = ~np.all(s == s[:1], axis=0)      # constant columns (counts) stay
        self.x = x
        self.stats = s
        self.n = n

    def population_value(self, score):
        """The score of the widened population's expected sums."""
        s = self.stats.copy()
        mean_tail = self.threshold * self.index / (self.index - 1.0)
        f = mean_tail / np.maximum(self.x[self.top], 1e-300)
        s[np.ix_(self.top, np.flatnonzero(self.scaled))] *= f[:, None]
        return float(score(s.sum(axis=0)[None, :])[0])

    def draw(self, rng, idx):
        """Statistics of the units ``idx`` drawn from the widened population."""
        s = self.stats[idx]
        mark = np.isin(idx, self.top)
        if mark.any():
            y = self.threshold * rng.random(int(mark.sum())) ** (-1.0 / self.index)
            f = y / np.maximum(self.x[idx[mark]], 1e-300)
            cols = np.flatnonzero(self.scaled)
            s[np.ix_(np.flatnonzero(mark), cols)] *= f[:, None]
        return s


def moment_index(top, threshold):
    """The tail's extreme-value index gamma (1 / tail index) from the largest values
    ``top`` above ``threshold``: Dekkers, Einmahl & de Haan's (1989) moment estimator,
    nearly unbiased where Hill's (its first term) is not (a t(3) square: Hill's median
    1.3 at n = 200 for a true 1.5, this one's 1.5); <= 0 for light or bounded tails."""
    if threshold <= 0 or top.size < 2:
        return 0.0
    logs = np.log(top / threshold)
    m1, m2 = float(logs.mean()), float((logs * logs).mean())
    if m2 <= 0:
        return 0.0
    return m1 + 1.0 - 0.5 / (1.0 - m1 * m1 / m2)


def widened_tail(units):
    """A Tail when the data's heavy-tail caution applies (per-unit statistics), else None."""
    if units.stats is None or units.cells is not None or tail_note(units) is None:
        return None
    tail = Tail(units, tail_values(units))
    return tail if np.isfinite(tail.index) else None


def simulated_units(units, rng, simulations, tail=None):
    """Yield ``simulations`` datasets of units.n units drawn from ``units`` (as Units, or
    as the rank statistic's own ``take``); from the widened population with ``tail``."""
    if hasattr(units, "take"):
        n = units.n
        for _ in range(simulations):
            yield units.take(rng.integers(0, n, size=n))
        return
    if tail is not None:
        for _ in range(simulations):
            idx = rng.integers(0, tail.n, size=tail.n)
            yield replace(units, stats=tail.draw(rng, idx), cells=None, jackknife_fn=None)
        return
    u = units.collapsed
    n = u.n
    if u.cells is not None:
        p = np.asarray(u.cells, dtype=np.float64) / n
        for counts in rng.multinomial(n, p, size=simulations):
            yield Units(u.stats, u.score, counts, u.kind, minority=units.minority,
                        rare_below=units.rare_below)
        return
    for _ in range(simulations):
        idx = rng.integers(0, n, size=n)
        yield replace(u, stats=u.stats[idx], jackknife_fn=None)


def measured_coverage(units, interval_fn, simulations=SIMULATIONS, seed=0, cancel=None,
                      progress=None, widen=True):
    """(share of simulated datasets whose interval covers the population's score,
    simulations): ``coverage_check`` without the tail it used."""
    return coverage_check(units, interval_fn, simulations, seed, cancel, progress, widen)[:2]


def coverage_check(units, interval_fn, simulations=SIMULATIONS, seed=0, cancel=None,
                   progress=None, widen=True):
    """(measured, simulations, Tail or None): the population is the sample, widened where
    its tail is heavy (``widen``; the Tail says how). interval_fn(units, seed) -> Interval,
    the method as used on the data. progress(fraction, words), when given, hears after
    each simulated dataset."""
    tail = widened_tail(units) if widen and not hasattr(units, "take") else None
    point = units.point() if tail is None else tail.population_value(units.score)
    if not np.isfinite(point):
        return float("nan"), 0, tail
    rng = np.random.default_rng([0 if seed is None else seed, 4])
    hits = 0
    for k, sim in enumerate(simulated_units(units, rng, simulations, tail)):
        check_cancel(cancel)
        iv = interval_fn(sim, k)
        if np.isfinite(iv.low) and np.isfinite(iv.high) and iv.low <= point <= iv.high:
            hits += 1
        if progress is not None:
            progress((k + 1) / simulations, f"coverage check: dataset {k + 1} of {simulations}")
    return hits / simulations, simulations, tail


def coverage_note(measured, simulations, level):
    """The warning beside an interval whose measured coverage is short of nominal, or None."""
    if not np.isfinite(measured) or measured >= level - SHORTFALL:
        return None
    return (f"measured coverage {100 * measured:.1f}% at this size ({simulations} datasets "
            f"simulated from this data) is below the nominal {100 * level:g}%")


def widened_note(tail, widened=None, plain=None):
    """What the check did beyond the sample, in words (None: it drew from the sample only)."""
    if tail is None:
        return None
    fitted = "above 10" if tail.fitted > 10 else f"{tail.fitted:.2f}"
    used = "" if tail.index == tail.fitted else f", used as {tail.index:g}: below it there is no mean"
    both = ("" if widened is None or plain is None else
            f": {100 * widened:.1f}% with the tail widened, {100 * plain:.1f}% from the sample "
            "alone; the measured coverage is their mid-point")
    return (f"coverage check on a heavy tail{both}. Drawing from the sample alone never gives a "
            f"unit larger than its largest (optimistic); the widened check replaces its "
            f"{tail.top.size} largest units by draws from a Pareto tail fitted to them (tail "
            f"index {fitted}{used}), which on small samples is often heavier than the truth "
            "(pessimistic): on t(3) squared errors the true coverage lay between the two")


__all__ = ["measured_coverage", "coverage_check", "coverage_note", "widened_note", "simulated_units",
           "check_simulable", "widened_tail", "SIMULATIONS", "MIN_UNITS"]
