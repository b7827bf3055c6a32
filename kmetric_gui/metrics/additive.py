"""A metric that is a function of per-row additive statistics, in a few lines.

Most Kaggle metrics are: log loss (the row's loss), RMSE and MAE (squared and
absolute errors), accuracy (hits). Subclass ``AdditiveMetric``, give
``row_stats`` (truth, pred -> (n, m)), ``score_sums`` (sums (..., m) -> score,
nan where undefined) and ``fixed_stats`` (a row's statistics once its
prediction equals its truth), and every analysis follows with no more code:
score, intervals, shake-up, compare (paired on the same rows), blends of two
submissions, fix first, JSON, the app's table and edits, the generic view.

The default layout is Kaggle's regression one: ``id`` plus one real column in
both files (``build``); override ``build`` for other layouts.
"""
from dataclasses import dataclass

import numpy as np

from ..errors import Cancelled
from ..tables import Column
from .base import FieldSpec, Metric, Plan, parse_number, take
from .family_analyses import StatsAnalyses
from .variants import VARIANT_NAMES, VariantHooks, VariantResult, declare


@dataclass(frozen=True)
class AdditiveResult:
    """The core result of an additive metric over some rows."""
    score: float
    sums: np.ndarray            # (m,) summed statistics
    stats: np.ndarray           # (n, m) per-row statistics of the scored rows
    n: int
    undefined_reason: "str | None" = None


class AdditiveMetric(VariantHooks, StatsAnalyses, Metric):
    unit = "row"
    variants = VARIANT_NAMES      # honoured by ``score`` below (metrics/variants.py)
    stat_names = ("loss",)        # names of the m statistics (JSON "sums")
    demo_detected = False         # set True with a ``fit`` that finds the layout

    # -- what a subclass gives -----------------------------------------------------
    def row_stats(self, truth, pred, options):
        """(n, m) statistics of each row."""
        raise NotImplementedError

    def score_sums(self, sums, n):
        """Scores of summed statistics: sums (R, m), n (R,) rows -> (R,) (nan: undefined)."""
        raise NotImplementedError

    def fixed_stats(self, truth, options):
        """(n, m) statistics of each row once fixed (its prediction set to its truth)."""
        t = np.asarray(truth, dtype=np.float64)
        return self.row_stats(t, t, options)

    def reference(self, truth, pred, options):
        """The plain, independent definition (the conformance test compares with it)."""
        raise NotImplementedError

    # -- layout: id + one real column ------------------------------------------------
    def detect(self, sub_targets):
        return None      # never guessed: chosen with --metric unless a subclass says why

    def build(self, ctx):
        from ..io.columns import Lazy, join_ids, numbers, string_ids, target_column
        from ..io.prepare import Prepared
        from ..io.problems import ValidationFailed
        sol, sub, col = ctx.sol, ctx.sub, ctx.col
        name = target_column(sol, sub, ctx.sol_name, ctx.sub_name, ctx.id_col, ctx.options, col)
        if name is None:
            raise ValidationFailed(col.problems)
        al, sol_ids = join_ids(sol, sub, ctx.sol_name, ctx.sub_name, ctx.id_col, col)
        truth = numbers(sol, name, ctx.sol_name, Lazy(sol_ids), col, integer=False)
        pred = numbers(sub, name, ctx.sub_name, Lazy(string_ids(sub, ctx.id_col)), col,
                       integer=False)
        col.raise_if_any()
        self.check_values(truth, pred, ctx, name)
        col.raise_if_any()
        from ._cells import Cells, Numbers
        return Prepared(self.name, ctx.reason, ctx.id_col, [name], sol_ids,
                        truth.astype(np.float64), pred[al.sub_index].astype(np.float64),
                        ctx.usage, layout=f"id '{ctx.id_col}' + real column '{name}'",
                        cells=Cells(Numbers(), Numbers()))

    def check_values(self, truth, pred, ctx, name):
        """Collect value problems the metric cannot score (e.g. negatives for RMSLE)."""

    # -- scoring -------------------------------------------------------------------
    def score(self, plan, rows, options, cancel):
        if cancel():
            raise Cancelled("scoring")
        t, p = take(plan.truth, rows), take(plan.pred, rows)
        stats = np.asarray(self.row_stats(t, p, options), dtype=np.float64).reshape(len(t), -1)
        sums = stats.sum(axis=0)
        n = int(len(t))
        score = float(self.score_sums(sums[None, :], np.array([n]))[0]) if n else float("nan")
        reason = None if np.isfinite(score) else "no rows to score" if n == 0 else "undefined"
        base = AdditiveResult(score, sums, stats, n, reason)
        v = plan.params.get("variant")
        if v is None or not v.active:
            return base
        return self._variant(v, base, rows)

    def _variant(self, v, base, rows):
        from .variants import apply
        return apply(v, rows, self.higher_is_better, base, lambda: (
            np.concatenate([np.ones((base.n, 1)), base.stats], axis=1), self._score_fn()))

    def _score_fn(self):
        def score(sums):
            sums = np.asarray(sums, dtype=np.float64)
            return self.score_sums(sums[..., 1:], sums[..., 0])
        return score

    def units(self, result):
        from ..core.resample import Units
        if isinstance(result, VariantResult):
            return result.units()
        # Column 0 counts rows, so a replicate's score knows its own n.
        stats = np.concatenate([np.ones((result.n, 1)), result.stats], axis=1)
        return Units(stats, self._score_fn(), kind=self.unit, mergeable=False)

    def fixes(self, report, rows, top):
        from ..core.attribution import unit_fix_first
        r = report.result
        if isinstance(r, VariantResult):
            return StatsAnalyses.fixes(self, report, rows, top)
        plan = self.plan(report.prepared, report.options)
        fixed = np.asarray(self.fixed_stats(take(plan.truth, rows), report.options),
                           dtype=np.float64).reshape(r.n, -1)
        one = np.ones((r.n, 1))
        return unit_fix_first(np.concatenate([one, r.stats], axis=1),
                              np.concatenate([one, fixed], axis=1), self._score_fn(), top,
                              self.higher_is_better)

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        return [f"truth {t:.6g}, predicted {p:.6g}" for t, p in
                zip(prep.truth[sol_rows].tolist(), prep.pred[sol_rows].tolist())]

    def unit_stats(self, report):
        r = report.result
        if isinstance(r, VariantResult):
            u = r.units()
            return u.stats, u.score
        return np.concatenate([np.ones((r.n, 1)), r.stats], axis=1), self._score_fn()

    def score_values(self, truth, pred, report, rows=None):
        from .variants import rounded
        v = self.variant(report)
        pred = pred if v is None else rounded(pred, v.digits)
        stats = np.asarray(self.row_stats(truth, pred, report.options), dtype=np.float64)
        stats = stats.reshape(len(truth), -1)
        if v is not None and v.active:
            from .base import split_rows
            base = AdditiveResult(float("nan"), stats.sum(axis=0), stats, len(truth))
            u = self._variant(v, base, split_rows(report.prepared.usage) if rows is None
                              else rows).units()
            return u.stats, u.score
        return np.concatenate([np.ones((len(truth), 1)), stats], axis=1), self._score_fn()

    # -- output ----------------------------------------------------------------------
    def json_fields(self, report):
        return {"sums": dict(zip(self.stat_names, report.result.sums.tolist()))}

    def summary_lines(self, report):
        return [f"{report.result.n:,} rows"]

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], zip(prep.ids, prep.pred.tolist())

    def table_columns(self, prep):
        """The layout's cells (``Prepared.cells``, set by the shared builders: one column
        per class or target, labels by name); else the id + real column layout's."""
        cells = getattr(prep, "cells", None)
        if cells is not None:
            return cells.columns(prep)
        name = prep.target_columns[0]
        return [
            Column(f"truth ({name})", prep.truth, FieldSpec("truth"), lambda v: f"{v:.6g}",
                   align_right=True, tooltip="solution value (editable)"),
            Column(f"prediction ({name})", prep.pred, FieldSpec("pred"), lambda v: f"{v:.6g}",
                   align_right=True, tooltip="submission prediction (editable)"),
        ]

    def parse(self, spec, text, prep):
        cells = getattr(prep, "cells", None)
        return cells.parse(spec, text, prep) if cells is not None else parse_number(text)

    # -- edits: the sums lose the edited rows' old statistics, gain the new ----------
    def rescore_cells(self, report, cells, old, new):
        from ._edits import rescore_splits
        if self.variant(report) is not None:   # rounded, weighted, masked, by group: not
            return None                        # the plain rows' sums; scored again
        opts = report.options
        return rescore_splits(self, report, cells, old, new,
                              lambda result, edit: self.edit_split(opts, result, edit))

    def edit_split(self, options, result, edit):
        """A split's result after an edit (metrics/_edits.py): O(edited rows); the per-row
        statistics are the edited data's, made when first read (on a worker)."""
        from ._edits import EditedResult, Unfit

        def sums(values):
            t, p = values
            try:
                st = np.asarray(self.row_stats(t, p, options), dtype=np.float64)
            except (ValueError, ArithmeticError) as e:
                raise Unfit(str(e)) from None
            return st.reshape(len(t), -1).sum(axis=0)
        total = np.asarray(result.sums, dtype=np.float64) - sums(edit.before) + sums(edit.after)
        score = float(self.score_sums(total[None, :], np.array([result.n]))[0])
        return EditedResult({"score": score, "sums": total, "n": result.n, "undefined_reason":
                             None if np.isfinite(score) else "undefined"}, None, edit.full)

    def plan(self, prep, options):
        v = self.variant(prep, options)
        if v is None:
            return Plan(prep.truth, prep.pred)
        from .variants import rounded
        return Plan(prep.truth, rounded(prep.pred, v.digits), {"variant": v})


declare(AdditiveMetric)
