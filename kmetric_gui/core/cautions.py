"""When an interval is likely too narrow, in words, from what the data itself shows.

Every caution here starts with ``TOO_NARROW`` ("too narrow likely"), so the
JSON's ``ci.warnings`` and the app show it, and ``Interval.too_narrow`` finds it.
They come from the measured coverage of the interval methods
(bench/coverage.py, docs/statistics.md): where no method keeps its level, the
interval says so instead of staying silent.

* Heavy tail: the largest single unit's share of a total the score is made
  of (a statistic column: squared errors, a document's matches). With a light tail that share
  shrinks like (log n) / n; with an infinite-variance tail (t(3) errors
  squared, documents of Zipf sizes) it shrinks like n^(1/alpha - 1) at best
  and the bootstrap, which never draws a value beyond the sample's largest,
  cannot see the rest of the tail. Flagged when the share is at least
  TAIL_SHARE / sqrt(n).
* A rare class (cells of a confusion matrix): fewer than RARE_ROWS rows in the
  rarest class or prediction.
* Few units: fewer than FEW_UNITS units or groups resampled.
* Measured short: units that know their interval covers too little below some
  number of units (``narrow_below``, with the reason in ``narrow_words``), where
  no method that holds is known (mAP of boxes: the precision envelope).
"""
from __future__ import annotations

import numpy as np

from .words import plural

TOO_NARROW = "too narrow likely"
TAIL_SHARE = 0.75      # flagged: the largest unit holds >= TAIL_SHARE / sqrt(n) of a total
TAIL_MIN_UNITS = 20    # below this, the few-units caution speaks instead
RARE_ROWS = 6          # a class with fewer rows than this (confusion matrices)
FEW_UNITS = 10         # fewer units (or groups) than this
RESCORED_BELOW = 100   # a score re-scored on resampled rows (a metric file) from fewer units


def tail_values(units):
    """(n,) each unit's value in the statistic column where the largest single unit holds
    the largest share of the column's total (absolute values; a count column of ones is no
    candidate); None without per-unit statistics (cells of a confusion matrix). Each
    column is a total the score is made of (squared errors, a document's matches or
    misses, one column's squared errors of several): a heavy tail in any one of them is
    one the bootstrap cannot see."""
    if units.stats is None:
        return None
    s = np.abs(np.asarray(units.stats, dtype=np.float64))
    if s.ndim != 2 or s.shape[0] == 0:
        return None
    varying = np.flatnonzero(~np.all(s == s[:1], axis=0))
    if not varying.size:
        return None
    w = None if units.cells is None else np.asarray(units.cells, dtype=np.float64)
    total = s[:, varying].sum(axis=0) if w is None else w @ s[:, varying]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(total > 0, s[:, varying].max(axis=0) / np.where(total > 0, total, 1), 0)
    return s[:, varying[int(np.argmax(share))]]


def largest_share(units):
    """The largest single unit's share of the total of ``tail_values`` (0.0 without); rows
    that stand for several units (``cells``) count that many times in the total."""
    v = tail_values(units)
    if v is None:
        return 0.0
    total = float(v.sum() if units.cells is None else np.asarray(units.cells) @ v)
    return float(v.max() / total) if total > 0 else 0.0


def tail_note(units):
    """The heavy-tail caution of Units, or None."""
    n = units.n
    if n < TAIL_MIN_UNITS:
        return None
    share = largest_share(units)
    limit = TAIL_SHARE / np.sqrt(n)
    if share < limit:
        return None
    kind = units.kind
    return (f"{TOO_NARROW} if the tail is heavy: the largest {kind} holds {100 * share:.1f}% "
            f"of a total the score is made of (more than {100 * limit:.1f}% for {n:,} "
            f"{plural(kind)}), as in samples from a heavy tail; resampling never draws a value "
            f"beyond this sample's largest, and with an infinite-variance tail (t(3) errors "
            f"squared) 95% intervals cover about 80%"
            + (f"; at {n:,} {plural(kind)} a light tail often looks like this too" if n < 500
               else ""))


def rare_note(units):
    """The rare-class caution of units that declare ``minority`` (rows of the rarest
    class or prediction; units may set their own limit, ``rare_below``), or None."""
    rare = getattr(units, "minority", None)
    limit = getattr(units, "rare_below", None)
    limit = RARE_ROWS if limit is None else limit
    if rare is None or rare >= limit or units.n < 1:
        return None
    what = getattr(units, "minority_words", "rows in the rarest class or prediction")
    return (f"{TOO_NARROW}: only {rare} {what}; with so few, resampling often shows no "
            f"spread at all and the interval misses the population value more often "
            f"than its level says")


def few_units_note(n, kind):
    if n >= FEW_UNITS or n < 1:
        return None
    return (f"{TOO_NARROW}: only {n} {plural(kind) if n != 1 else kind} to resample; an "
            f"interval from fewer than {FEW_UNITS} independent {plural(kind)} covers less than "
            f"its level")


def rescored_note(n, kind="row"):
    """The caution of a percentile interval re-scored on resampled rows (a metric file,
    whose per-row statistics are unknown, so no studentised or calibrated level) from
    few rows, or None."""
    if n >= RESCORED_BELOW or n < FEW_UNITS:
        return None
    return (f"{TOO_NARROW}: {n} {plural(kind)}; a percentile interval from re-scored "
            f"resamples of fewer than {RESCORED_BELOW} {plural(kind)} covers less than its "
            f"level (measured: 91% for a 95% interval at 50 rows, bench/coverage.py), and "
            f"without the metric's per-row statistics no method that corrects it can be computed")


def measured_note(units):
    """The caution of units that declare how many units their interval needs to keep its
    level (``narrow_below``) and why (``narrow_words``), or None."""
    below = getattr(units, "narrow_below", None)
    if below is None or units.n >= below or units.n < FEW_UNITS:
        return None
    return (f"{TOO_NARROW}: {units.n:,} {plural(units.kind)}, fewer than {below:,}; "
            f"{units.narrow_words}")


def cautions(units, method=None):
    """Every caution that applies to Units and the interval ``method`` used (a tuple of
    strings). Units name the methods that hold with a rare class in ``holds_with_few``."""
    found = [few_units_note(units.n, units.kind)]
    if getattr(units, "rescored", False):      # a metric file: no per-unit statistics
        found.append(rescored_note(units.n, units.kind))
    if method not in getattr(units, "holds_with_few", ()):
        found.append(rare_note(units))
    if units.stats is not None:
        found.append(tail_note(units))
    found.append(measured_note(units))
    return tuple(x for x in found if x)


def too_narrow(warnings):
    """Whether any warning says the interval is likely too narrow."""
    return any(w.startswith(TOO_NARROW) for w in warnings)


__all__ = ["TOO_NARROW", "cautions", "tail_note", "rare_note", "few_units_note", "rescored_note",
           "measured_note", "largest_share", "tail_values", "too_narrow"]
