"""What the correlation metrics share (pearson, spearman, kendall): id + one real column in
both files, or several (the mean of each column's correlation, as Google QUEST's
column-wise Spearman); higher is better; undefined, with the reason, when a column holds
one distinct value. Statistics: Pearson's from additive per-row sums, the rank
correlations' by ranking each replicate again (metrics/kernels/correlation_stats.py).
"""
import numpy as np

from ._family import FamilyMetric
from .base import split_rows, take


def columns_of(a):
    a = np.asarray(a, dtype=np.float64)
    return [a] if a.ndim == 1 else [a[:, j] for j in range(a.shape[1])]


class CorrelationMetric(FamilyMetric):
    higher_is_better = True
    view = "correlation"           # truth against prediction on their own scales or as ranks
    demo_detected = False          # one real column is also RMSE's, MAE's...: the app asks
    kind = ""                      # kernels.correlation KINDS
    fix_words = "prediction moved onto its truth in the submission's own scale (mean and spread)"

    # -- layout ------------------------------------------------------------------------
    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason
        if sample is None or not sub_targets:
            return None
        cols = [(sample.sub_column(c), sample.sol_column(c)) for c in sub_targets]
        if all(s is not None and t is not None and t.kind == "real" and s.kind in ("int", "real")
               for s, t in cols):
            what = (f"one real column '{sub_targets[0]}'" if len(cols) == 1
                    else f"{len(cols)} real columns in both files")
            return fit_reason(self, sample, what)
        return None

    def build(self, ctx):
        from ..io.prepare import Prepared
        from ._cells import Cells, Numbers
        from ._layouts import Sides, matrix, single_target
        s = Sides(ctx)
        if ctx.options.target_column or len(s.targets(ctx.sub)) == 1:
            name = single_target(s)
            names = [name]
            truth, pred = s.sol_numbers(name), s.sub_numbers(name)
            layout = f"id '{ctx.id_col}' + real column '{name}'"
        else:
            names = s.same_columns("target")
            truth = matrix(s, ctx.sol, names, ctx.sol_name)
            pred = matrix(s, ctx.sub, names, ctx.sub_name)
            layout = f"id '{ctx.id_col}' + {len(names)} real columns (mean of each column's)"
        s.stop_if_any()
        return Prepared(self.name, ctx.reason, ctx.id_col, names, s.sol_ids_arr,
                        truth.astype(np.float64), s.align(pred).astype(np.float64, copy=False),
                        ctx.usage, layout=layout, cells=Cells(Numbers(), Numbers(), interleave=True))

    # -- scoring -----------------------------------------------------------------------
    def kernel(self, truth, pred, options):
        from .kernels.correlation import correlation
        return correlation(truth, pred, self.kind)

    def reference(self, prep, options, rows=None):
        """scipy.stats on each column, their np.mean (nan when one is nan)."""
        import warnings

        from scipy import stats
        fn = {"pearson": stats.pearsonr, "spearman": stats.spearmanr,
              "kendall": stats.kendalltau}[self.kind]
        t, p = take(prep.truth, rows), take(prep.pred, rows)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # scipy warns on a constant column
            return float(np.mean([fn(a, b)[0] if a.size > 1 else np.nan
                                  for a, b in zip(columns_of(t), columns_of(p))]))

    def paired(self, reports, split="all"):
        if self.kind == "pearson":
            return super().paired(reports, split)
        from .kernels.correlation_stats import RankCorrelationPairs
        rows = split_rows(reports[0].prepared.usage, split)
        return RankCorrelationPairs(self.kind, take(reports[0].prepared.truth, rows),
                                    [take(r.prepared.pred, rows) for r in reports])

    def row_stats(self, result):
        from .kernels.correlation import pearson_score
        return result.row_stats, pearson_score

    def score_values(self, truth, pred, report):
        """Pearson's statistics of other predictions in the report's frame (its means and
        spreads): blends and fixes sum with the report's own rows."""
        from .kernels.correlation import pearson_rows, pearson_score
        return pearson_rows(np.asarray(truth, np.float64), np.asarray(pred, np.float64),
                            report.result.scales), pearson_score

    def fixed_prediction(self, truth, pred, rows=None):
        """Rows' predictions set to their truth in the submission's own scale: Pearson,
        the truth's standard score in the predictions' mean and spread; the rank
        correlations, the prediction value holding the truth's rank."""
        from .kernels.correlation_fixes import fixed_prediction
        return fixed_prediction(self.kind, truth, pred, rows)

    def fixes(self, report, rows, top):
        if self.kind == "pearson":
            return super().fixes(report, rows, top)
        from .kernels.correlation_fixes import rank_fix_first
        prep = report.prepared
        return rank_fix_first(self.kind, take(prep.truth, rows), take(prep.pred, rows), top)

    def blend_sets(self, report_a, report_b, alphas, row_sets):
        if self.kind == "pearson":
            return super().blend_sets(report_a, report_b, alphas, row_sets)
        from ..core.blend import blend_curve
        from .family_analyses import blend_grid
        from .kernels.correlation import correlation
        pa, pb = report_a.prepared, report_b.prepared
        al = blend_grid(alphas)
        out = []
        for rows in row_sets:
            r = split_rows(pa.usage) if rows is None else rows
            t, a, b = take(pa.truth, r), take(pa.pred, r), take(pb.pred, r)
            out.append(blend_curve(al, [correlation(t, x * a + (1 - x) * b, self.kind).score
                                        for x in al], self.higher_is_better))
        return out

    def differ(self, report_a, report_b, engine, i, j):
        """Rows where B would score differently with A's prediction on them (B's score minus
        B's with that row from A), largest first."""
        from dataclasses import replace

        from .family_analyses import LISTED
        from .kernels.correlation_fixes import rank_differ
        from .kernels.differ import unit_differ
        rows = split_rows(report_b.prepared.usage)
        truth = take(report_b.prepared.truth, rows)
        a, b = take(report_a.prepared.pred, rows), take(report_b.prepared.pred, rows)
        if self.kind == "pearson":
            sb, fn = self.unit_stats(report_b)
            sa, _ = self.score_values(truth, a, report_b)       # A's values in B's frame
            d = unit_differ(sa, sb, fn, self.higher_is_better, self.unit)
        else:
            d = rank_differ(self.kind, truth, a, b, self.unit)
        return replace(d, **self.differ_texts(report_a, report_b, d.units[:LISTED]))

    def fix_details(self, report, units, sol_rows):
        r = report.result
        if r.columns != 1:
            return super().fix_details(report, units, sol_rows)
        prep = report.prepared
        t, p = prep.truth[sol_rows].tolist(), prep.pred[sol_rows].tolist()
        if self.kind != "pearson":
            from .kernels.ranks import midranks
            rt, rp = midranks(r.truth)[units], midranks(r.pred)[units]
            return [f"truth {a:.6g} (rank {x:g} of {r.n:,}), predicted {b:.6g} (rank {y:g})"
                    for a, b, x, y in zip(t, p, rt.tolist(), rp.tolist())]
        (mt, st), (mp, sp) = r.scales[0, :, 0], r.scales[1, :, 0]
        return [f"truth {a:.6g}, predicted {b:.6g} (as the truth: {mp + sp * (a - mt) / st:.6g})"
                for a, b in zip(t, p)]

    # -- edits (metrics/_edits.py) ----------------------------------------------------------
    # Pearson: the five sums of each column, in the frame (means and spreads) of the
    # split as first scored, lose the edited rows' old values and gain their new ones.
    # Spearman and Kendall: ranks move with any edit, so the split is scored again from
    # its arrays with the edits applied (exact; O(n log n), no Prepared made).
    edit_constants = ("kind", "columns", "higher_is_better")

    def edit_split(self, options, result, edit):
        from ._edits import Unfit, split_fields
        if self.variant(edit.old.base, options) is not None:
            raise Unfit("a variant: scored by score()")
        if self.kind == "pearson":
            return super().edit_split(options, result, edit)
        return self.kernel(*split_fields(edit.new, edit.name), options)

    def edit_rows(self, result, truth, pred, options):
        from .kernels.correlation import pearson_rows, pearson_score
        s = pearson_rows(np.asarray(truth, np.float64), np.asarray(pred, np.float64),
                         self._frame(result))
        return s.sum(axis=0), pearson_score, None

    def edit_fields(self, result, sums):
        from ._edits import Unfit
        from .kernels.correlation import pearson_score
        cols = (sums.size - 1) // 5
        scores = np.array([pearson_score(sums[None, [0, *range(1 + 5 * j, 6 + 5 * j)]])[0]
                           for j in range(cols)])
        if not np.isfinite(scores).all():
            raise Unfit("no correlation: scored again for the reason in words")
        return {"edit_frame": self._frame(result), "column_scores": scores}

    @staticmethod
    def _frame(result):
        """The frame of the sums: the split's means and spreads as first scored."""
        from ._edits import EditedResult
        return result.edit_frame if isinstance(result, EditedResult) else result.scales

    # -- output ------------------------------------------------------------------------
    def json_fields(self, report):
        r = report.result
        out = super().json_fields(report)
        if r.columns > 1:
            out["column_scores"] = {c: (None if not np.isfinite(v) else float(v))
                                    for c, v in zip(report.prepared.target_columns,
                                                    r.column_scores.tolist())}
        return out

    def summary_lines(self, report):
        r = report.result
        lines = super().summary_lines(report)
        if r.columns > 1:
            lines.append(f"mean of {r.columns} columns' {self.label}")
        if r.undefined_reason:
            lines.append(r.undefined_reason)
        return lines
