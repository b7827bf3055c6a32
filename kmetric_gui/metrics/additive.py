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


@dataclass(frozen=True)
class AdditiveResult:
    """The core result of an additive metric over some rows."""
    score: float
    sums: np.ndarray            # (m,) summed statistics
    stats: np.ndarray           # (n, m) per-row statistics of the scored rows
    n: int
    undefined_reason: "str | None" = None


class AdditiveMetric(StatsAnalyses, Metric):
    unit = "row"
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
        return Prepared(self.name, ctx.reason, ctx.id_col, [name], sol_ids,
                        truth.astype(np.float64), pred[al.sub_index].astype(np.float64),
                        ctx.usage, layout=f"id '{ctx.id_col}' + real column '{name}'")

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
        return AdditiveResult(score, sums, stats, n, reason)

    def _score_fn(self):
        def score(sums):
            sums = np.asarray(sums, dtype=np.float64)
            return self.score_sums(sums[..., 1:], sums[..., 0])
        return score

    def units(self, result):
        from ..core.resample import Units
        # Column 0 counts rows, so a replicate's score knows its own n.
        stats = np.concatenate([np.ones((result.n, 1)), result.stats], axis=1)
        return Units(stats, self._score_fn(), kind=self.unit, mergeable=False)

    def fixes(self, report, rows, top):
        from ..core.attribution import unit_fix_first
        r = report.result
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
        return np.concatenate([np.ones((r.n, 1)), r.stats], axis=1), self._score_fn()

    def score_values(self, truth, pred, report):
        stats = np.asarray(self.row_stats(truth, pred, report.options), dtype=np.float64)
        stats = stats.reshape(len(truth), -1)
        return np.concatenate([np.ones((len(truth), 1)), stats], axis=1), self._score_fn()

    # -- output ----------------------------------------------------------------------
    def json_fields(self, report):
        return {"sums": dict(zip(self.stat_names, report.result.sums.tolist()))}

    def summary_lines(self, report):
        return [f"{report.result.n:,} rows"]

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], zip(prep.ids, prep.pred.tolist())

    def table_columns(self, prep):
        name = prep.target_columns[0]
        return [
            Column(f"truth ({name})", prep.truth, FieldSpec("truth"), lambda v: f"{v:.6g}",
                   align_right=True, tooltip="solution value (editable)"),
            Column(f"prediction ({name})", prep.pred, FieldSpec("pred"), lambda v: f"{v:.6g}",
                   align_right=True, tooltip="submission prediction (editable)"),
        ]

    def parse(self, spec, text, prep):
        return parse_number(text)

    def plan(self, prep, options):
        return Plan(prep.truth, prep.pred)
