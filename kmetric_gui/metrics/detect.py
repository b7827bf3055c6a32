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


class _Columns:
    """One table's first rows: each column's position by name and its summary, made once
    for all columns (io/blocks.py: a look-up per column in the list of names was
    quadratic; the numeric columns without gaps are summarised in blocks, as
    ``summarize`` reads them)."""

    def __init__(self, table, rows):
        from ..io.blocks import positions
        self.head = table.slice(0, rows)
        self.names = self.head.schema.names
        self.at = positions(self.head)
        self._summaries = None

    def summary(self, name):
        at = self.at.get(name)
        if at is None:
            return None
        if self._summaries is None:
            self._summaries = self._summarize()
        if self._summaries[at] is None:     # text and other columns: read when asked
            self._summaries[at] = summarize(self.head.column(at), name)
        return self._summaries[at]

    def row_sums(self, names):
        """Each sampled row's sum over the columns ``names``, or None when a value is not a
        number (or a column is missing). Plain numeric columns are added a block at a time."""
        from ..io.blocks import blocks, plain
        from ..numbers import column_numbers
        if any(name not in self.at for name in names):
            return None
        total, numeric = np.zeros(self.head.num_rows), []
        for name in names:
            col = self.head.column(self.at[name])
            if plain(col):
                numeric.append((0, col))
                continue
            cv = column_numbers(col)
            if cv.bad.size:
                return None
            total += cv.values
        for _, m in blocks(numeric, self.head.num_rows):
            if not np.isfinite(m).all():
                return None
            total += m.sum(axis=0)
        return total

    def _summarize(self):
        from ..io.blocks import blocks, plain
        names, n = self.names, self.head.num_rows
        if n == 0:
            return [ColumnSummary(c, "empty") for c in names]
        out = [None] * len(names)
        numeric = [(i, col) for i, col in enumerate(self.head.columns) if plain(col)]
        for idx, m in blocks(numeric, n):
            finite = np.isfinite(m).all(axis=1)
            with np.errstate(invalid="ignore"):
                whole = (m == np.round(m)).all(axis=1)
            low, high = m.min(axis=1), m.max(axis=1)
            for j, i in enumerate(idx):
                out[i] = (ColumnSummary(names[i], "int" if whole[j] else "real",
                                        float(low[j]), float(high[j])) if finite[j]
                          else ColumnSummary(names[i], "text"))
        return out


@dataclass
class Sample:
    """The first rows of both tables (pyarrow), summarised on demand."""
    sol: object
    sub: object
    id_col: str
    rows: int = SAMPLE_ROWS
    _tables: dict = field(default_factory=dict)

    def _side(self, which):
        if which not in self._tables:
            self._tables[which] = _Columns(self.sub if which == "sub" else self.sol, self.rows)
        return self._tables[which]

    def sub_column(self, name):
        """ColumnSummary of a submission column (None when absent)."""
        return self._side("sub").summary(name)

    def sol_column(self, name):
        return self._side("sol").summary(name)

    @cached_property
    def sub_targets(self):
        return [c for c in self._side("sub").names if c != self.id_col and c.lower() != "usage"]

    @cached_property
    def sol_targets(self):
        return [c for c in self._side("sol").names if c != self.id_col and c.lower() != "usage"]

    def rows_sum_to_one(self, names, tol=1e-6):
        """The submission's columns ``names`` sum to 1 on every sampled row."""
        total = self._side("sub").row_sums(names) if names else None
        return total is not None and bool(np.all(np.abs(total - 1.0) <= tol))


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
