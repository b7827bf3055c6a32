"""``Result.rows()``: each scored unit's contribution to the score, as a DataFrame.

One row per scored unit (a row, sample, document or image, the metric's unit)
in the solution's order: its id, its Usage split when the solution has one,
the statistics the metric sums over units (when it has per-unit ones: a row's
error or loss, a hit, a document's counts...), ``score_without`` (the
score with this unit left out: the metric's leave-one-out, from the same
statistics the intervals use) and ``contribution`` = score - score_without
(how far this unit moves the score; for a lower-is-better metric a positive
contribution makes the score worse).

Where a metric has no such per-unit values the frame is empty and
``frame.attrs["reason"]`` says why (a warning says it too): a metric file or a
Python function would need one call of the metric per row, and a few metrics
count units by kind (cells of a confusion matrix) without telling which unit is
which.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..core.words import plural

CHUNK = 1 << 16          # units scored at once for the leave-one-out


def _pandas():
    try:
        import pandas as pd
    except ImportError:
        from .errors import refuse
        raise refuse("rows() returns a pandas DataFrame, and pandas is not installed here "
                     "(pip install pandas)") from None
    return pd


def _leave_one_out(units):
    """(statistics (n, m), score without each unit (n,)) of per-unit Units, else None."""
    from ..core.resample import Units
    if not isinstance(units, Units) or units.stats is None or units.cells is not None:
        return None
    stats = np.asarray(units.stats)
    total = units.total()
    out = np.empty(stats.shape[0])
    for a in range(0, out.size, CHUNK):
        out[a:a + CHUNK] = units.score(total[None, :] - stats[a:a + CHUNK])
    return stats, out


def _per_unit(metric, report, units, n):
    """(statistics or None, score_without (n,)) or a reason in words."""
    found = _leave_one_out(units)
    if found is not None:
        return found
    from ..metricfile.units import FileUnits
    if isinstance(units, FileUnits):
        return ("the metric is foreign code (a metric file or a Python function): a row's "
                "contribution would need a call of the metric per row; top_fixes= lists the "
                "rows that cost the most")
    cells = metric.unit_cells(report)
    if cells is not None:                       # units counted by cell, each unit's cell known
        values, _ = units.jackknife()
        return None, np.asarray(values, dtype=np.float64)[np.asarray(cells)]
    if getattr(units, "cells", None) is None and hasattr(units, "jackknife"):
        values, _ = units.jackknife()
        values = np.asarray(values, dtype=np.float64)
        if values.shape == (n,):
            return None, values
    return (f"{metric.label} counts its {plural(metric.unit)} by kind (cells of a confusion matrix) "
            f"without telling which {metric.unit} is which: no per-{metric.unit} contribution")


def unit_rows(result):
    pd = _pandas()
    from ..metrics.base import split_rows
    report, metric = result._report, result._definition
    prep = report.prepared
    units = metric.units(report.result)
    n = int(units.n)
    rows = split_rows(prep.usage)
    sol_rows = np.arange(len(prep)) if rows is None else np.asarray(rows)
    id_name = prep.id_column
    found = _per_unit(metric, report, units, n) if len(sol_rows) == n else (
        f"the metric's {n:,} {plural(metric.unit)} do not match the {len(sol_rows):,} scored rows")
    if isinstance(found, str):
        frame = pd.DataFrame({id_name: pd.Series([], dtype=object),
                              "score_without": pd.Series([], dtype=float),
                              "contribution": pd.Series([], dtype=float)})
        frame.attrs["reason"] = found
        warnings.warn(f"no per-{metric.unit} contributions: {found}", stacklevel=3)
        return frame
    stats, without = found
    ids = prep.id_array.take(sol_rows) if rows is not None else prep.id_array
    cols = {id_name: ids.to_numpy(zero_copy_only=False)}
    if prep.usage is not None:
        words = np.array(["Public", "Private", "Ignored"], dtype=object)
        cols["usage"] = words[np.asarray(prep.usage)[sol_rows]]
    if stats is not None:
        names = getattr(metric, "stat_names", None)
        if not names or len(names) != stats.shape[1]:
            names = [f"stat_{j + 1}" for j in range(stats.shape[1])]
        for j, name in enumerate(names):
            cols[name] = stats[:, j]
    score = float(report.result.score)
    cols["score_without"] = without
    cols["contribution"] = score - without
    frame = pd.DataFrame(cols)
    frame.attrs["unit"] = metric.unit
    frame.attrs["higher_is_better"] = bool(metric.higher_is_better)
    return frame


__all__ = ["unit_rows"]
