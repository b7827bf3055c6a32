"""ROC AUC: binary, multi-class (one-vs-rest, macro mean) or multi-label (mean over
columns). Ties count one half, as scikit-learn. Statistics come from the rank
statistic (metrics/kernels/ranking_stats.py), with DeLong's interval beside the bootstrap."""
import threading
import weakref

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

    # -- variants: weighted ranks (kernels/weighted_auc.py); a per-group mean has no
    # per-row statistics, so its analyses say so --------------------------------------
    def variant_result(self, variant, base, rows):
        from .variants import VariantResult, transformed
        truth, pred = base.data[0], base.data[1]
        w = take(variant.weights, rows) if variant.weights is not None else None
        if variant.groups is None:
            r = base if w is None else self._weighted(truth, pred, w)
            score = float(transformed(np.float64(r.score), variant.transform))
            return VariantResult(score, r.undefined_reason, r, None, None, r.n, variant,
                                 weight_total=None if w is None else float(w.sum()),
                                 higher_is_better=True)
        g = take(variant.groups, rows)
        names = variant.group_names
        per = np.full(len(names), np.nan)
        for k in range(len(names)):
            at = np.flatnonzero(g == k)
            if at.size:
                sub = self._weighted(take(truth, at), take(pred, at), None if w is None else w[at])
                per[k] = sub.score
        vals = transformed(per, variant.transform)
        ok = np.isfinite(vals)
        score = float(vals[ok].mean()) if ok.any() else float("nan")
        return VariantResult(score, None if ok.any() else "no group has both classes", base,
                             None, None, base.n, variant, per,
                             None if w is None else float(w.sum()), self.NO_GROUP_STATS, True)

    NO_GROUP_STATS = ("a per-group mean of ROC AUC has no per-row statistics: intervals, "
                      "comparisons, blends and fix first are not available for it")

    @staticmethod
    def _weighted(truth, pred, w):
        from .kernels.ranking import roc_auc
        from .kernels.weighted_auc import weighted_roc_auc
        return roc_auc(truth, pred) if w is None else weighted_roc_auc(truth, pred, w)

    def _grouped(self, report):
        v = self.variant(report)
        return v is not None and (v.groups is not None or v.transform != "none")

    def blend_why_not(self, report_a, report_b):
        if self._grouped(report_a):
            return self.NO_GROUP_STATS
        return super().blend_why_not(report_a, report_b)

    def _rows_data(self, report, rows):
        """(truth, predictions as scored, weights or None) of solution ``rows``."""
        from ..errors import InputError
        from .variants import rounded
        prep = report.prepared
        v = self.variant(report)
        if v is not None and (v.groups is not None or v.transform != "none"):
            raise InputError(self.NO_GROUP_STATS)
        pred = take(prep.pred, rows)
        if v is None:
            return take(prep.truth, rows), pred, None
        w = take(v.weights, rows) if v.weights is not None else None
        return take(prep.truth, rows), rounded(pred, v.digits), w

    def units(self, result):
        from .kernels.ranking_stats import RankUnits
        from .variants import VariantResult
        if isinstance(result, VariantResult):
            if result.stats is None and result.why_no_stats:
                from ..errors import InputError
                raise InputError(result.why_no_stats)
            if result.variant.transform != "none":
                from ..errors import InputError
                raise InputError("the log of ROC AUC has no interval here: drop the transform")
            return RankUnits(*result.base.data)
        return RankUnits(*result.data)

    def paired(self, reports, split="all"):
        rows = split_rows(reports[0].prepared.usage, split)
        found = [self._rows_data(r, rows) for r in reports]
        from .kernels.ranking_stats import AucPairs
        return AucPairs(found[0][0], [p for _, p, _ in found], found[0][2])

    # -- analyses by rank (kernels/auc_units.py) ---------------------------------------
    fix_words = "each moved to its ideal rank: a positive above every negative, a negative below"

    def fixes(self, report, rows, top):
        from ..core.attribution import as_fixlist, check_top, empty_fixes
        from .kernels.auc_units import auc_fix_first, row_pairs
        top = check_top(top)
        if self._grouped(report):
            return empty_fixes(report.result.score, self.NO_GROUP_STATS)
        rp = row_pairs(*self._rows_data(report, rows))
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
        pa, pb = report_a.prepared, report_b.prepared
        if self.blend_values(pa.pred[:2], pb.pred[:2], 0.5) is None or self._grouped(report_a):
            return [None] * len(row_sets)
        al = blend_grid(alphas)
        _, pred_a, w = self._rows_data(report_a, None)
        pred_b = self._rows_data(report_b, None)[1]
        everyone = split_rows(pa.usage)
        sets = [everyone if r is None else r for r in row_sets]
        truths = [take(pa.truth, r) for r in sets]
        weights = [None if w is None else take(w, r) for r in sets]
        # each alpha is a sort (numpy lets go of the GIL): two threads halve the curve's time
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(2, thread_name_prefix="kmetric-blend") as pool:
            ra, rb = pool.map(average_ranks, (pred_a, pred_b))

            def at(x):
                v = rank_blend(ra, rb, float(x))
                return [self._weighted(t, take(v, r), wk).score if len(t) else np.nan
                        for t, r, wk in zip(truths, sets, weights)]
            scores = np.array(list(pool.map(at, al)), dtype=np.float64).T.reshape(len(sets), al.size)
        return [blend_curve(al, sc, True) for sc in scores]

    def differ(self, report_a, report_b, engine, i, j):
        from .kernels.auc_units import row_pairs, score_bands
        from .kernels.differ import UnitDiffer
        if self._grouped(report_a):
            return None
        rows = split_rows(report_a.prepared.usage)
        truth, pred_a, w = self._rows_data(report_a, rows)
        rp_a = row_pairs(truth, pred_a, w)
        rp_b = row_pairs(truth, self._rows_data(report_b, rows)[1], w)
        delta = rp_b.shares() - rp_a.shares()
        moved = np.flatnonzero((rp_a.wrong != rp_b.wrong).any(axis=1))
        order = moved[np.argsort(-np.abs(delta[moved]), kind="stable")]
        d = UnitDiffer(order.astype(np.int64), delta[order], int(truth.shape[0]), True, "row",
                       what="the row's share of AUC under B minus under A (half its "
                            "positive-negative pairs ordered right, over all pairs)",
                       bands=score_bands(rp_a, rp_b))
        from dataclasses import replace
        return replace(d, **self.differ_texts(report_a, report_b, d.units[:200]))

    def edit_split(self, options, result, edit):
        """An edit moves a few rows in their columns' rankings: each moved row's pairs
        are counted again among the other rows (metrics/kernels/ranking_edits.py), exact
        integers, by binary searches in the loaded scores of each class (sorted at the
        data's first edit)."""
        from .kernels.ranking import auc_from_counts
        from .kernels.ranking_edits import twice_u, update_column
        from ._edits import MAX_TOUCHED, LazyInputs, Unfit, field_rows
        base = edit.old.base
        c = result.per_column.size
        usage = base.usage
        codes = [None] if usage is None else {"all": [0, 1], "public": [0],
                                              "private": [1]}[edit.name]
        touched = sorted({u for name, u, _ in edit.old.overlay if name in ("truth", "pred")
                          and (usage is None or int(usage[u]) in codes)})
        if len(touched) > MAX_TOUCHED:
            raise Unfit("too many edited rows")
        now = _columns(base, field_rows(edit.old, "truth", touched),
                       field_rows(edit.old, "pred", touched), c)
        loaded_t = _columns(base, base.truth[touched], base.pred[touched], c)
        before = _columns(base, *edit.before, c)
        after = _columns(base, *edit.after, c)
        loaded_u = _columns(base, base.truth[edit.units], base.pred[edit.units], c)
        u2s, pos, neg = [], result.positives.copy(), result.negatives.copy()
        tied = result.tied_pairs.copy()
        for j in range(c):
            u2 = twice_u(result.per_column[j], pos[j], neg[j])
            if u2 is None:
                raise Unfit("too many pairs to count back exactly")
            moves = [(u, (before[0][k, j], before[1][k, j]), (after[0][k, j], after[1][k, j]),
                      (loaded_u[0][k, j], loaded_u[1][k, j])) for k, u in enumerate(edit.units)
                     if (before[0][k, j], before[1][k, j]) != (after[0][k, j], after[1][k, j])]
            if moves:
                was = {w: (loaded_t[0][k, j], loaded_t[1][k, j], now[0][k, j], now[1][k, j])
                       for k, w in enumerate(touched)
                       if (loaded_t[0][k, j], loaded_t[1][k, j]) != (now[0][k, j], now[1][k, j])}
                parts = [_class_scores(base, j, code) for code in codes]
                u2, pos[j], neg[j], tied[j] = update_column(parts, was, moves, u2, int(pos[j]),
                                                            int(neg[j]), int(tied[j]))
            u2s.append(u2)
        return auc_from_counts(u2s, pos, neg, tied, result.n, np.ndim(base.pred) == 1,
                               LazyInputs(edit.new, edit.name))

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
        on 5M rows), so only where the JSON is shown, not for the human lines. Undefined
        (null, with the reason) below 2 rows of a class: its variance has nothing to use."""
        from .kernels.ranking import delong
        r = report.result
        truth, pred = r.data
        if not (r.per_column.size == 1 and np.ndim(pred) == 1 and np.isfinite(r.score)):
            return {}
        d = delong(truth, pred)
        se = float(np.sqrt(d.covariance[0, 0]))
        out = {"se": se, "low": float(d.low[0]), "high": float(d.high[0]), "level": d.level}
        if not np.isfinite(se):
            n1, n0 = int(r.positives[0]), int(r.negatives[0])
            out = {"se": None, "low": None, "high": None, "level": d.level,
                   "undefined_reason": f"DeLong's variance needs at least 2 positive and 2 "
                                       f"negative rows; there are {n1} and {n0}"}
        return {"delong": out}

    def summary_lines(self, report):
        r = report.result
        lines = super().summary_lines(report)
        lines.append(f"{int(r.positives.sum()):,} positive and {int(r.negatives.sum()):,} "
                     f"negative row-column pairs; ties count one half")
        if r.skipped:
            lines.append(f"{len(r.skipped)} column(s) with one class skipped: "
                         f"{', '.join(report.prepared.target_columns[j] for j in r.skipped)}")
        return lines


def _columns(base, truth, pred, c):
    """(membership (k, C) bool, scores (k, C)) of some rows, one column per AUC column
    (binary: one; class codes: one-vs-rest; 0/1 columns: each)."""
    truth, pred = np.asarray(truth), np.asarray(pred, dtype=np.float64)
    if np.ndim(base.pred) == 1:
        return (truth == 1).reshape(-1, 1), pred.reshape(-1, 1)
    if np.ndim(base.truth) == 1:
        return truth.reshape(-1, 1) == np.arange(c), pred.reshape(-1, c)
    return truth.reshape(-1, c) == 1, pred.reshape(-1, c)


_SCORES = {}            # (id of the loaded data, column, Usage code) -> ClassScores
_LOCK = threading.Lock()


def _class_scores(base, j, code):
    """A column's loaded scores by class, of one Usage part (None: every row), sorted and
    kept while the loaded data lives: made at its first edit, reused by every later one."""
    from .kernels.ranking_edits import ClassScores
    key = (id(base), j, code)
    with _LOCK:
        found = _SCORES.get(key)
        if found is None:
            if not any(k[0] == id(base) for k in _SCORES):
                weakref.finalize(base, _forget, id(base))
            scores = base.pred if np.ndim(base.pred) == 1 else base.pred[:, j]
            truth = base.truth
            member = truth == 1 if np.ndim(base.pred) == 1 else \
                truth == j if np.ndim(truth) == 1 else truth[:, j] == 1
            rows = None if code is None else base.usage == code
            found = _SCORES[key] = ClassScores(scores, member, rows)
        return found


def _forget(ident):
    with _LOCK:
        for key in [k for k in _SCORES if k[0] == ident]:
            del _SCORES[key]


AUC = Auc()
