"""Blend, where-they-differ and fix first for metrics of per-unit additive statistics,
from what such a metric declares (metrics/_family.py and metrics/additive.py use it).

A metric gives:
  ``unit_stats(report)``            (n, m) statistics of its scored units and the
                                    score of their sums (R, m) -> (R,)
  ``score_values(truth, pred, report)``  (n, m) statistics of other predictions
  ``fixed_prediction(truth, pred, rows)`` predictions with ``rows`` fixed
  ``blend_values(a, b, alpha)``     the blended predictions (None: they do not blend)
  ``fix_words``                     what a fix is, in the metric's words
and gets:
  * the blend curve over alpha, one pass of statistics per alpha for every part of
    the rows at once (sums over each part: the held-out halves cost nothing more);
  * where A and B differ, unit by unit (kernels.differ.unit_differ);
  * fix first: greedy over the units, each fixed unit's statistics from scoring
    the fixed predictions (so ``score_after`` is what rescoring the fixed file gives).
"""
import numpy as np

from .base import split_rows, take

# The generic blend scores each alpha from scratch: at most this many points.
BLEND_POINTS = 21


def numeric(pred):
    """True for real-valued prediction arrays (what a weighted mean applies to)."""
    return isinstance(pred, np.ndarray) and pred.dtype.kind in "fiu" and pred.size > 0


def blend_grid(alphas):
    from ..core.blend import check_alphas
    return check_alphas(np.linspace(0, 1, BLEND_POINTS) if alphas is None else alphas)


class StatsAnalyses:
    """Mixin over Metric: the analyses above, from the hooks above."""
    fix_words = "prediction set to the truth"
    blend_points = BLEND_POINTS     # compare's grid: each alpha is scored from scratch

    # -- what a metric of this kind gives (defaults: a real-valued layout) ---------------
    def fixed_prediction(self, truth, pred, rows=None):
        """A copy of ``pred`` with ``rows`` (None: all) set to what the truth asks."""
        out = np.array(pred, dtype=np.result_type(pred, truth), copy=True)
        if rows is None:
            out[...] = truth
        else:
            out[rows] = np.asarray(truth)[rows]
        return out

    def blend_values(self, a, b, alpha):
        """alpha*A + (1-alpha)*B as predictions of this metric, or None when they do not blend."""
        if not (numeric(a) and numeric(b)) or np.shape(a) != np.shape(b):
            return None
        return alpha * np.asarray(a, np.float64) + (1 - alpha) * np.asarray(b, np.float64)

    no_blend = "these predictions are not numbers: no weighted mean of two of them exists"

    def blend_why_not(self, report_a, report_b):
        return f"{self.label}: {self.no_blend}"

    # -- blend ---------------------------------------------------------------------
    def blend(self, report_a, report_b, alphas=None, rows=None):
        return self.blend_sets(report_a, report_b, alphas,
                               [split_rows(report_a.prepared.usage) if rows is None else rows])[0]

    def blend_sets(self, report_a, report_b, alphas, row_sets):
        """BlendCurves of each set of solution rows (None: every row), or [None, ...]."""
        from ..core.blend import blend_curve
        pa, pb = report_a.prepared, report_b.prepared
        al = blend_grid(alphas)
        if self.blend_values(pa.pred, pb.pred, 0.5) is None:
            return [None] * len(row_sets)
        everyone = split_rows(pa.usage)
        truth = take(pa.truth, everyone)
        n = len(truth)
        # Sums of each row set as one matrix product (a column sum of an (n, m) array
        # is slow in numpy: BLAS reads it once).
        weights = np.zeros((len(row_sets), n))
        for k, p in enumerate(_positions(everyone, len(pa.truth), row_sets)):
            weights[k, slice(None) if p is None else p] = 1.0
        scores = np.full((len(row_sets), al.size), np.nan)
        for g, x in enumerate(al):
            pred = take(self.blend_values(pa.pred, pb.pred, float(x)), everyone)
            stats, score_fn = self.score_values(truth, pred, report_a)
            sums = weights @ np.asarray(stats, np.float64).reshape(n, -1)
            with np.errstate(invalid="ignore", divide="ignore"):
                scores[:, g] = np.where(weights.any(axis=1), score_fn(sums), np.nan)
        return [blend_curve(al, sc, self.higher_is_better) for sc in scores]

    def blend_prediction(self, prep_a, pred_b, alpha):
        """The blended predictions to show or save (what the curve scored)."""
        return self.blend_values(prep_a.pred, pred_b, float(alpha))

    # -- where they differ ---------------------------------------------------------------
    def differ(self, report_a, report_b, engine, i, j):
        from dataclasses import replace
        from .kernels.differ import unit_differ
        sa, score_fn = self.unit_stats(report_a)
        sb, _ = self.unit_stats(report_b)
        d = unit_differ(sa, sb, score_fn, self.higher_is_better, self.unit)
        return replace(d, **self.differ_texts(report_a, report_b, d.units[:LISTED]))

    def differ_texts(self, report_a, report_b, units):
        """{"a_text", "b_text"}: each listed unit's prediction under A and B, in words."""
        rows = split_rows(report_a.prepared.usage)
        sol = units if rows is None else rows[units]
        texts = [tuple(self.fix_details(r, units, sol) or ()) for r in (report_a, report_b)]
        return {"a_text": texts[0], "b_text": texts[1]}

    # -- fix first ----------------------------------------------------------------------
    def fixes(self, report, rows, top):
        from ..core.additive import fix_first
        stats, score_fn = self.unit_stats(report)
        prep = report.prepared
        truth, pred = take(prep.truth, rows), take(prep.pred, rows)
        fixed, _ = self.score_values(truth, self.fixed_prediction(truth, pred), report)
        return fix_first(stats, fixed, score_fn, top, self.higher_is_better)

    def fix_rows(self, prep, rows):
        """(field, new values) of the app's "fix this unit" edit (what fix first counts)."""
        return "pred", self.fixed_prediction(prep.truth, prep.pred, np.asarray(rows, np.int64))


LISTED = 200        # units of "where they differ" described in words


def _positions(everyone, n, row_sets):
    """Positions among the scored rows of each set of solution rows (None: all of them)."""
    if everyone is None:
        return [None if r is None else np.asarray(r, np.int64) for r in row_sets]
    where = np.full(n, -1, np.int64)
    where[everyone] = np.arange(everyone.size)
    out = []
    for r in row_sets:
        if r is None:
            out.append(None)
            continue
        p = where[np.asarray(r, np.int64)]
        out.append(p[p >= 0])
    return out
