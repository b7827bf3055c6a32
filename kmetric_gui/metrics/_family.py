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
from .variants import VARIANT_NAMES, VariantHooks, VariantResult, declare

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


class FamilyMetric(VariantHooks, StatsAnalyses, Metric):
    higher_is_better = True     # contract attribute; lower-is-better metrics set False
    options = ()                # contract attribute: Option declarations
    unit = "row"
    variants = VARIANT_NAMES    # honoured by ``score`` below (metrics/variants.py)

    # -- variants (metrics/variants.py: weights, a mask, rounding, per-group means) -------
    def variant_result(self, variant, base, rows):
        """The variant's result from the plain result over ``rows`` (solution rows)."""
        from .variants import apply
        return apply(variant, rows, self.higher_is_better, base, lambda: self.row_stats(base),
                     lambda w, g, size: self.variant_sums(base, w, g, size))

    def variant_sums(self, base, w, g, size):
        """(weighted sums of ``row_stats`` (m,), or per group g (size, m), the score of
        sums) without making the (n, m) statistics, or None (they are made then)."""
        return None

    def detect(self, sub_targets):
        return None             # these layouts overlap: chosen with --metric

    # -- scoring ------------------------------------------------------------------------
    def kernel(self, truth, pred, options):
        """The core result of aligned truth and predictions."""
        raise NotImplementedError

    def plan(self, prep, options):
        v = self.variant(prep, options)
        if v is None:
            return Plan(prep.truth, prep.pred)
        from .variants import rounded
        return Plan(prep.truth, rounded(prep.pred, v.digits), {"variant": v})

    def score(self, plan, rows, options, cancel):
        if cancel():
            raise Cancelled("scoring")
        base = self.kernel(take(plan.truth, rows), take(plan.pred, rows), options)
        v = plan.params.get("variant")
        if v is None or not v.active:
            return base
        return self.variant_result(v, base, rows)

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

    def result_stats(self, result):
        """``row_stats`` of a result as scored (a variant's: weighted, by group)."""
        if isinstance(result, VariantResult):
            u = result.units()
            return u.stats, u.score
        return self.row_stats(result)

    def unit_stats(self, report):
        """(n, m) statistics of the scored units and the score of their sums."""
        return self.result_stats(report.result)

    def score_values(self, truth, pred, report, rows=None):
        """``unit_stats`` of other predictions on the same truth (blends, fixes);
        ``rows``: the solution rows of ``truth`` (None: every scored row)."""
        v = self.variant(report)
        if v is None:
            return self.row_stats(self.kernel(truth, pred, report.options))
        from .variants import rounded
        base = self.kernel(truth, rounded(pred, v.digits), report.options)
        if not v.active:
            return self.row_stats(base)
        rows = split_rows(report.prepared.usage) if rows is None else rows
        return self.result_stats(self.variant_result(v, base, rows))

    def paired(self, reports, split="all"):
        from ..core.compare import UnitPairs
        found = [self.result_stats(r.result if split == "all" else r.splits[split])
                 for r in reports]
        return UnitPairs([s for s, _ in found], found[0][1])

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        return [f"truth {_short(t)}, predicted {_short(p)}"
                for t, p in zip(take(prep.truth, sol_rows), take(prep.pred, sol_rows))]

    # -- edits: rescored from the statistics (metrics/_edits.py) ---------------------------
    edit_counts = ()        # whole-number fields of a result that add over rows (shown: hits)
    edit_constants = ()     # fields an edit leaves as they are (the options in force: eps, k)
    edit_detail = False     # the result's ``detail`` dict: its counts follow the edit (_edits.py)
    edit_largest = None     # a unit's statistic above this: scored again (no cancellation)

    def rescore_cells(self, report, cells, old, new):
        from ._edits import rescore_splits
        if self.variant(report) is not None:   # rounded, weighted, masked, by group: not
            return None                        # the plain rows' sums; scored again
        opts = report.options
        return rescore_splits(self, report, cells, old, new,
                              lambda result, edit: self.edit_split(opts, result, edit))

    def edit_split(self, options, result, edit):
        """A split's result after its edited units went from ``edit.before`` to
        ``edit.after`` ((truth, pred) shaped like the fields; metrics/_edits.SplitEdit):
        the sums lose the old values' statistics and gain the new ones'; the score and
        counts are exact at once, the rest is made from the edited data on first use.
        Unfit (metrics/_edits.py): score again from scratch."""
        from ._edits import EditedResult, Unfit, checked_state
        s0, score_fn, r0 = self.edit_rows(result, *edit.before, options)
        s1, _, r1 = self.edit_rows(result, *edit.after, options)
        if isinstance(result, EditedResult):
            state, counts = result.state
        else:
            state = checked_state(result, self.edit_state(result), score_fn)
            counts = {f: int(getattr(result, f)) for f in self.edit_counts}
        if np.shape(s0) != np.shape(state) or np.shape(s1) != np.shape(state):
            raise Unfit("statistics of another shape")
        if self.edit_largest is not None and not (
                np.abs(np.r_[s0, s1]).max(initial=0.0) <= self.edit_largest):
            raise Unfit("a statistic too large to take away exactly")
        sums = state - s0 + s1
        score = float(score_fn(sums[None, :])[0])
        counts = {f: v - int(getattr(r0, f)) + int(getattr(r1, f)) for f, v in counts.items()}
        fields = {"score": score, "undefined_reason": None if np.isfinite(score) else
                  (getattr(result, "undefined_reason", None) or "undefined"), **counts}
        for f in ("n",) + tuple(self.edit_constants):
            if hasattr(result, f):
                fields[f] = getattr(result, f)
        fields.update(self.edit_fields(result, sums))
        out = EditedResult(fields, (sums, counts), edit.full)
        if self.edit_detail:
            from ._edits import edited_detail
            out._fields["detail"] = edited_detail(result, r0, r1, out.full_result)
        return out

    def edit_rows(self, result, truth, pred, options):
        """(sums (m,), score of sums (R, m) -> (R,), their result) of a few units: the
        per-unit statistics (``units().stats``) of the kernel's result on them, summed."""
        from ..errors import InputError
        from ._edits import Unfit
        if type(self).kernel is FamilyMetric.kernel:       # scored by its own ``score``
            raise Unfit("no kernel of rows")
        try:
            r = self.kernel(truth, pred, options)
        except InputError as e:
            raise Unfit(str(e)) from None
        u = r.units() if hasattr(r, "units") else None
        if u is None or u.stats is None or u.cells is not None:
            raise Unfit("no statistics of units")
        return u.stats.sum(axis=0).astype(np.float64), u.score, r

    def edit_state(self, result):
        """A split's summed statistics in ``edit_rows``' coordinates (checked against its
        score). Default: its units' statistics summed (O(units), at the first edit); a
        metric that knows them from a few numbers gives them in O(1)."""
        u = result.units()
        return None if u.stats is None or u.cells is not None else u.stats.sum(axis=0)

    def edit_fields(self, result, sums):
        """More fields of the edited result from the new sums (e.g. each column's score)."""
        return {}

    # -- output ----------------------------------------------------------------------------
    def json_fields(self, report):
        return {"higher_is_better": bool(self.higher_is_better)}

    def human_lines(self, report, fields):
        return []

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
        """The layout's own cells (``Prepared.cells``, metrics/_cells.py): one column per
        class or target, labels by name; read-only text for a layout without them."""
        cells = getattr(prep, "cells", None)
        if cells is not None:
            return cells.columns(prep)
        return [Column("truth", prep.truth, None, _short, tooltip="solution value"),
                Column("prediction", prep.pred, None, _short, tooltip="submission value")]

    def parse(self, spec, text, prep):
        cells = getattr(prep, "cells", None)
        if cells is None:
            raise ValueError("this layout's cells are shown, not edited")
        return cells.parse(spec, text, prep)


def _short(v):
    if isinstance(v, np.ndarray):
        return "[" + ", ".join(_short(x) for x in v.tolist()[:6]) + (", ..." if v.size > 6 else "") + "]"
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.6g}"
    if isinstance(v, (list, tuple)):
        return " ".join(map(str, v))
    return str(v)


declare(FamilyMetric)

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
