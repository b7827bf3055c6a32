"""What the built-in family metrics share (auc, logloss, accuracy, f1, mapk, rmse,
rmsle, mae, mcrmse): scoring through a core kernel, statistics from its per-row
additive statistics, a generic table, fix first from per-row statistics.

Contract attributes (metric contract issue): ``higher_is_better`` and the
``options`` schema (metrics/schema.py ``Option``) are declared on every class
here; until that contract is merged a stand-in ``Option`` with the same fields
is used, and option values are read with ``opt`` (the declared default when the
options object does not carry them yet).
"""
from dataclasses import dataclass

import numpy as np

from ..errors import Cancelled
from ..tables import Column
from .base import FieldSpec, Metric, Plan, split_rows, take
from .family_analyses import StatsAnalyses

try:
    from .schema import Option
except ImportError:   # before the metric contract lands: the same declaration, no behaviour
    @dataclass(frozen=True)
    class Option:
        name: str
        type: type
        default: object = None
        choices: tuple = ()
        help: str = ""
        label: str = ""
        choice_labels: tuple = ()
        minimum: "float | None" = None
        maximum: "float | None" = None
        step: "float | None" = None


def opt(options, metric, name):
    """Option ``name`` of ``metric`` from ``options`` (its declared default when unset)."""
    default = next((o.default for o in metric.options if o.name == name), None)
    value = getattr(options, name, default)
    return default if value is None else value


class FamilyMetric(StatsAnalyses, Metric):
    higher_is_better = True     # contract attribute; lower-is-better metrics set False
    options = ()                # contract attribute: Option declarations
    unit = "row"

    def detect(self, sub_targets):
        return None             # these layouts overlap: chosen with --metric

    # -- scoring ------------------------------------------------------------------------
    def kernel(self, truth, pred, options):
        """The core result of aligned truth and predictions."""
        raise NotImplementedError

    def plan(self, prep, options):
        return Plan(prep.truth, prep.pred)

    def score(self, plan, rows, options, cancel):
        if cancel():
            raise Cancelled("scoring")
        return self.kernel(take(plan.truth, rows), take(plan.pred, rows), options)

    def perfect(self, prep):
        """The truth in the predictions' shape: class indices as one-hot rows of
        probabilities or scores, 0/1 truth as scores."""
        truth, pred = prep.truth, prep.pred
        if isinstance(pred, np.ndarray) and isinstance(truth, np.ndarray):
            if pred.ndim == 2 and truth.ndim == 1:
                out = np.zeros(pred.shape, dtype=np.float64)
                out[np.arange(len(truth)), truth.astype(np.int64)] = 1.0
                return out
            if pred.dtype.kind == "f":
                return truth.astype(np.float64)
        return truth

    # -- statistics ---------------------------------------------------------------------
    def units(self, result):
        return result.units()

    def row_stats(self, result):
        """(n, m) per-row additive statistics and the score of their sums (R, m) -> (R,)."""
        u = result.units()
        return u.stats, u.score

    def unit_stats(self, report):
        """(n, m) statistics of the scored units and the score of their sums."""
        return self.row_stats(report.result)

    def score_values(self, truth, pred, report):
        """``unit_stats`` of other predictions on the same truth (blends, fixes)."""
        return self.row_stats(self.kernel(truth, pred, report.options))

    def paired(self, reports, split="all"):
        from ..core.compare import UnitPairs
        found = [self.row_stats(r.result if split == "all" else r.splits[split]) for r in reports]
        return UnitPairs([s for s, _ in found], found[0][1])

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        return [f"truth {_short(t)}, predicted {_short(p)}"
                for t, p in zip(take(prep.truth, sol_rows), take(prep.pred, sol_rows))]

    # -- output ----------------------------------------------------------------------------
    def json_fields(self, report):
        return {"higher_is_better": bool(self.higher_is_better)}

    def summary_lines(self, report):
        word = "higher" if self.higher_is_better else "lower"
        unit = self.unit[:-1] + "ies" if self.unit.endswith("y") else self.unit + "s"
        return [f"{report.n_rows:,} {unit}; {word} is better"]

    def submission_rows(self, prep):
        pred = prep.pred
        if isinstance(pred, np.ndarray) and pred.ndim == 2:
            return ([prep.id_column] + list(prep.target_columns),
                    ([i] + row for i, row in zip(prep.ids, pred.tolist())))
        vals = pred.tolist() if isinstance(pred, np.ndarray) else list(pred)
        return [prep.id_column, prep.target_columns[0]], zip(prep.ids, vals)

    def table_columns(self, prep):
        def fmt(v):
            return _short(v)
        return [Column("truth", prep.truth, None, fmt, tooltip="solution value"),
                Column("prediction", prep.pred, None, fmt, tooltip="submission value")]

    def parse(self, spec, text, prep):
        raise ValueError("cells of this metric are shown, not edited, in this version")


def _short(v):
    if isinstance(v, np.ndarray):
        return "[" + ", ".join(_short(x) for x in v.tolist()[:6]) + (", ..." if v.size > 6 else "") + "]"
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.6g}"
    if isinstance(v, (list, tuple)):
        return " ".join(map(str, v))
    return str(v)


__all__ = ["FamilyMetric", "Option", "opt", "FieldSpec", "split_rows"]


def fit_reason(metric, sample, why):
    """A metrics.detect.Fit that is never "clear": these families share layouts (one
    real column is RMSE, MAE or RMSLE), so the user is asked (used once the metric
    contract's value-based detection is merged; ``sample`` is its Sample)."""
    from .detect import Fit
    return Fit(f"{why} ({metric.label})", clear=False)


def label_fit(metric, sub_targets, sample):
    """A not-clear Fit for one column of class labels (text or whole numbers) in both files."""
    found = one_column(sub_targets, sample)
    if found is None or found[1].kind not in ("text", "int") or found[2].kind != found[1].kind:
        return None
    what = "text" if found[1].kind == "text" else "whole-number labels"
    return fit_reason(metric, sample, f"{what} in '{found[0]}' (class labels)")


def one_column(sub_targets, sample):
    """(name, submission summary, solution summary) of a one-column layout, or None."""
    if sample is None or len(sub_targets) != 1:
        return None
    name = sub_targets[0]
    sub, sol = sample.sub_column(name), sample.sol_column(name)
    if sub is None or sol is None:
        return None
    return name, sub, sol


def class_columns(sub_targets, sample, probabilities):
    """Why several submission columns look like per-class scores, or None."""
    if sample is None or len(sub_targets) < 2:
        return None
    subs = [sample.sub_column(c) for c in sub_targets]
    if any(s is None or s.kind not in ("int", "real") for s in subs):
        return None
    if probabilities and not (all(s.unit_interval for s in subs)
                              and sample.rows_sum_to_one(sub_targets, tol=1e-3)):
        return None
    sols = [sample.sol_column(c) for c in sub_targets]
    if all(s is not None and s.binary for s in sols):
        return f"{len(subs)} columns of 0/1 truth and scores"
    if len(sample.sol_targets) == 1:
        label = sample.sol_column(sample.sol_targets[0])
        if label is not None and label.kind == "text":
            return f"labels in '{sample.sol_targets[0]}', {len(subs)} class columns"
    return None
