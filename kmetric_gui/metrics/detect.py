"""Which metric a pair of files is for: from column names and from the values.

Each metric answers ``Metric.fit(sub_targets, sample)`` with a ``Fit`` (why it
fits, and whether the layout is clearly its own) or None. The registry then
takes the first clear fit in detection order (the three seeds keep their
layouts: a PredictionString column, several score columns, one integer
rating column), else the only fit; where several fit and none clearly, it
picks none: ``AmbiguousMetric`` lists them, and the user chooses (CLI:
``--metric``, exit 2 without it; the app asks).

``Sample`` describes the columns from their first rows (types, ranges, 0/1
columns, rows summing to 1), read in numbers.py's grammar.
"""
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..errors import InputError

SAMPLE_ROWS = 10_000


@dataclass(frozen=True)
class Fit:
    reason: str
    clear: bool = True      # the layout is this metric's own (no question asked)


class AmbiguousMetric(InputError):
    """Several metrics fit and none clearly: the user chooses."""

    def __init__(self, fits):
        self.fits = list(fits)             # [(metric, Fit)]
        self.listing = ", ".join(f"{m.name} ({f.reason})" for m, f in self.fits)
        super().__init__(f"several metrics fit these files: {self.listing}; choose one with "
                         f"--metric {{{','.join(m.name for m, _ in self.fits)}}}")

    @property
    def in_app(self):
        """The same in the window's words (no command-line flag)."""
        return (f"several metrics fit these files: {self.listing}; choose one (Options, "
                "Metric)")

    @property
    def names(self):
        return [m.name for m, _ in self.fits]


@dataclass(frozen=True)
class ColumnSummary:
    name: str
    kind: str               # "int", "real", "text" or "empty" (from the first rows)
    low: float = float("nan")
    high: float = float("nan")

    @property
    def binary(self):
        """Every sampled value is 0 or 1."""
        return self.kind == "int" and self.low >= 0 and self.high <= 1

    @property
    def unit_interval(self):
        return self.kind in ("int", "real") and self.low >= 0 and self.high <= 1


def summarize(arr, name):
    from ..numbers import column_numbers
    if len(arr) == 0:
        return ColumnSummary(name, "empty")
    cv = column_numbers(arr)
    if cv.bad.size:
        return ColumnSummary(name, "text")
    v = np.asarray(cv.values, dtype=np.float64)
    kind = "int" if np.array_equal(v, np.round(v)) else "real"
    return ColumnSummary(name, kind, float(v.min()), float(v.max()))


@dataclass
class Sample:
    """The first rows of both tables (pyarrow), summarised on demand."""
    sol: object
    sub: object
    id_col: str
    rows: int = SAMPLE_ROWS
    _cache: dict = field(default_factory=dict)

    def _summary(self, table, which, name):
        key = (which, name)
        if key not in self._cache:
            if name not in table.column_names:
                self._cache[key] = None
            else:
                self._cache[key] = summarize(table.column(name).slice(0, self.rows), name)
        return self._cache[key]

    def sub_column(self, name):
        """ColumnSummary of a submission column (None when absent)."""
        return self._summary(self.sub, "sub", name)

    def sol_column(self, name):
        return self._summary(self.sol, "sol", name)

    @cached_property
    def sub_targets(self):
        return [c for c in self.sub.column_names if c != self.id_col and c.lower() != "usage"]

    @cached_property
    def sol_targets(self):
        return [c for c in self.sol.column_names if c != self.id_col and c.lower() != "usage"]

    def rows_sum_to_one(self, names, tol=1e-6):
        """The submission's columns ``names`` sum to 1 on every sampled row."""
        from ..numbers import column_numbers
        if not names:
            return False
        total = None
        for n in names:
            cv = column_numbers(self.sub.column(n).slice(0, self.rows))
            if cv.bad.size:
                return False
            total = cv.values if total is None else total + cv.values
        return bool(np.all(np.abs(total - 1.0) <= tol))


def choose(order, sub_targets, chosen, sample, get_metric):
    """(metric, reason): the user's choice, else the first clear fit, else the only fit."""
    if chosen:
        return get_metric(chosen), f"metric {chosen} chosen by the user"
    fits = []
    for m in order:
        f = m.fit(sub_targets, sample)
        if f:
            fits.append((m, f))
    for m, f in fits:
        if f.clear:
            return m, f.reason
    if len(fits) == 1:
        return fits[0][0], fits[0][1].reason
    if fits:
        raise AmbiguousMetric(fits)
    raise InputError("no metric fits this submission's columns")
