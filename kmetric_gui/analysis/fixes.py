"""Top fixes of a scored report: the metric's greedy list, with the units' ids.

The metric module (kmetric_gui.metrics) computes the list; this maps each
unit back to its id among the scored rows (Ignored rows are not scored).
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TopFixes:
    ids: list                 # unit ids in greedy order
    rows: np.ndarray          # (N,) solution row of each unit
    fixes: object             # core.attribution.FixList (units index the scored rows)
    unit: str                 # "row", "sample", "document"
    details: list = None      # what is wrong with each unit, in words (Metric.fix_details)
    words: str = "prediction set to the truth"   # what a fix is (Metric.fix_words)

    @property
    def reason(self):
        return self.fixes.undefined_reason

    def to_json(self):
        return [{"id": i, "gain": float(g), "score_after": float(s)}
                for i, g, s in zip(self.ids, self.fixes.gains, self.fixes.score_after)]


def scored_rows(prep):
    """Solution rows of the overall score (None: every row), as scoring picks them."""
    from ..metrics.base import split_rows
    return split_rows(prep.usage)


def top_fixes(report, top, cancel=None):
    """The ``top`` units whose fix gains the most, in greedy order (TopFixes). ``cancel``
    reaches a metric whose fixes take it (a metric file's: each fix is a call of it)."""
    import inspect
    metric = report.definition
    rows = scored_rows(report.prepared)
    kw = {"cancel": cancel} if cancel is not None and \
        "cancel" in inspect.signature(metric.fixes).parameters else {}
    fixes = metric.fixes(report, rows, top, **kw)
    sol_rows = fixes.units if rows is None else rows[fixes.units]
    ids = report.prepared.id_array.take(np.asarray(sol_rows, dtype=np.int64)).to_pylist()
    details = metric.fix_details(report, fixes.units, sol_rows) if len(fixes) else []
    return TopFixes(ids, np.asarray(sol_rows, dtype=np.int64), fixes, metric.unit, details,
                    metric.fix_words)


def gains(report):
    """The metric's gains of single fixes (see Metric.gains) over the scored rows."""
    return report.definition.gains(report, scored_rows(report.prepared))
