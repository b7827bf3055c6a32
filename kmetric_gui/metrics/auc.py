"""ROC AUC: binary, multi-class (one-vs-rest, macro mean) or multi-label (mean over
columns). Ties count one half, as scikit-learn. Statistics come from the rank
statistic (metrics/kernels/ranking_stats.py), with DeLong's interval beside the bootstrap."""
import numpy as np

from ._family import FamilyMetric
from .base import split_rows, take


class Auc(FamilyMetric):
    name = "auc"
    label = "ROC AUC"
    view = "probabilities"             # the app's anatomy view (gui/views VIEW_KINDS)
    demo_label = "ROC AUC (binary)"          # contract: the app's demo menu
    demo_detected = False   # contract: the app chooses the metric for its demo (layouts overlap)

    def reference(self, prep, options, rows=None):
        from ._references import auc_reference
        return auc_reference(prep, options, rows)
    # Multi-class and multi-label AUC is always the macro mean (no --average here: one
    # declaration of "average" (f1's) keeps its default "binary" for f1).

    def fit(self, sub_targets, sample=None):
        from ._family import class_columns, fit_reason, one_column
        found = one_column(sub_targets, sample)
        if found is not None:
            name, sub, sol = found
            ok = sol.binary and sub.kind == "real"
            return fit_reason(self, sample, f"0/1 truth and scores in '{name}'") if ok else None
        why = class_columns(sub_targets, sample, probabilities=False)
        return fit_reason(self, sample, why) if why else None

    def build(self, ctx):
        from ._probabilities import build_probabilities
        return build_probabilities(self, ctx, probabilities=False, multilabel=True)

    def kernel(self, truth, pred, options):
        from .kernels.ranking import roc_auc
        return roc_auc(truth, pred)

    def units(self, result):
        from .kernels.ranking_stats import RankUnits
        return RankUnits(*result.data)

    def paired(self, reports, split="all"):
        rows = split_rows(reports[0].prepared.usage, split)
        truth = take(reports[0].prepared.truth, rows)
        from .kernels.ranking_stats import AucPairs
        return AucPairs(truth, [take(r.prepared.pred, rows) for r in reports])

    # -- analyses by rank (kernels/auc_units.py) ---------------------------------------
    fix_words = "each moved to its ideal rank: a positive above every negative, a negative below"

    def fixes(self, report, rows, top):
        from ..core.attribution import as_fixlist, check_top, empty_fixes
        from .kernels.auc_units import auc_fix_first, row_pairs
        top = check_top(top)
        prep = report.prepared
        rp = row_pairs(take(prep.truth, rows), take(prep.pred, rows))
        wrong = int(np.count_nonzero(rp.wrong[:, rp.used].sum(axis=1)))
        score = rp.score()
        if not np.isfinite(score):
            return empty_fixes(score, "the score is undefined (a column has one class only)")
        if not wrong:
            return empty_fixes(score, None)
        picks, after = auc_fix_first(rp, top)
        return as_fixlist(picks, after, score, wrong, True)

    def fixed_prediction(self, truth, pred, rows=None):
        from .kernels.auc_units import fixed_scores
        return fixed_scores(truth, pred, np.arange(len(pred)) if rows is None else rows)

    def blend_values(self, a, b, alpha):
        """AUC reads only the order: the blend is of the two rank scales (ranks / n)."""
        from .kernels.auc_units import average_ranks, rank_blend
        from .family_analyses import numeric
        if not (numeric(a) and numeric(b)) or np.shape(a) != np.shape(b):
            return None
        return rank_blend(average_ranks(a), average_ranks(b), alpha)

    def blend_sets(self, report_a, report_b, alphas, row_sets):
        from ..core.blend import blend_curve
        from .family_analyses import blend_grid
        from .kernels.auc_units import average_ranks, rank_blend
        from .kernels.ranking import roc_auc
        pa, pb = report_a.prepared, report_b.prepared
        if self.blend_values(pa.pred[:2], pb.pred[:2], 0.5) is None:
            return [None] * len(row_sets)
        al = blend_grid(alphas)
        ra, rb = average_ranks(pa.pred), average_ranks(pb.pred)
        everyone = split_rows(pa.usage)
        sets = [everyone if r is None else r for r in row_sets]
        truths = [take(pa.truth, r) for r in sets]
        scores = np.full((len(sets), al.size), np.nan)
        for g, x in enumerate(al):
            v = rank_blend(ra, rb, float(x))
            for k, r in enumerate(sets):
                if len(truths[k]):
                    scores[k, g] = roc_auc(truths[k], take(v, r)).score
        return [blend_curve(al, sc, True) for sc in scores]

    def differ(self, report_a, report_b, engine, i, j):
        from .kernels.auc_units import row_pairs, score_bands
        from .kernels.differ import UnitDiffer
        rows = split_rows(report_a.prepared.usage)
        truth = take(report_a.prepared.truth, rows)
        rp_a = row_pairs(truth, take(report_a.prepared.pred, rows))
        rp_b = row_pairs(truth, take(report_b.prepared.pred, rows))
        delta = rp_b.shares() - rp_a.shares()
        moved = np.flatnonzero((rp_a.wrong != rp_b.wrong).any(axis=1))
        order = moved[np.argsort(-np.abs(delta[moved]), kind="stable")]
        d = UnitDiffer(order.astype(np.int64), delta[order], int(truth.shape[0]), True, "row",
                       what="the row's share of AUC under B minus under A (half its "
                            "positive-negative pairs ordered right, over all pairs)",
                       bands=score_bands(rp_a, rp_b))
        from dataclasses import replace
        return replace(d, **self.differ_texts(report_a, report_b, d.units[:200]))

    def json_fields(self, report):
        r = report.result
        out = {**super().json_fields(report), "per_column": [
            None if not np.isfinite(v) else float(v) for v in r.per_column],
            "positives": r.positives.tolist(), "negatives": r.negatives.tolist()}
        if r.skipped:
            out["skipped_columns"] = [report.prepared.target_columns[j] for j in r.skipped]
        return out

    def json_costly(self, report):
        """DeLong's interval: a sort of each class again (a third of `kmetric score`'s time
        on 5M rows), so only where the JSON is shown, not for the human lines."""
        from .kernels.ranking import delong
        r = report.result
        truth, pred = r.data
        if not (r.per_column.size == 1 and np.ndim(pred) == 1 and np.isfinite(r.score)):
            return {}
        d = delong(truth, pred)
        return {"delong": {"se": float(np.sqrt(d.covariance[0, 0])), "low": float(d.low[0]),
                           "high": float(d.high[0]), "level": d.level}}

    def summary_lines(self, report):
        r = report.result
        lines = super().summary_lines(report)
        lines.append(f"{int(r.positives.sum()):,} positive and {int(r.negatives.sum()):,} "
                     f"negative row-column pairs; ties count one half")
        if r.skipped:
            lines.append(f"{len(r.skipped)} column(s) with one class skipped: "
                         f"{', '.join(report.prepared.target_columns[j] for j in r.skipped)}")
        return lines


AUC = Auc()
