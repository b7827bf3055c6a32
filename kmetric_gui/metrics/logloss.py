"""Log loss (binary and multi-class) as Kaggle computes it: probabilities clipped to
[eps, 1 - eps], rows renormalised. Lower is better."""
import numpy as np

from ._family import FamilyMetric, Option, opt


class LogLoss(FamilyMetric):
    name = "logloss"
    label = "Log loss"
    view = "probabilities"             # the app's anatomy view (gui/views VIEW_KINDS)
    demo_label = "log loss (multi-class)"          # contract: the app's demo menu
    demo_detected = False   # contract: the app chooses the metric for its demo (layouts overlap)

    def reference(self, prep, options, rows=None):
        from ._references import logloss_reference
        return logloss_reference(prep, options, rows)
    higher_is_better = False
    options = (
        Option("eps", float, 1e-15, help="log loss: probabilities are clipped to "
               "[eps, 1 - eps] before rows are renormalised (Kaggle: 1e-15)",
               minimum=0.0, maximum=0.49),
        Option("balanced", bool, False, help="log loss: each class's mean loss, then their "
               "mean (Kaggle's balanced log loss)", label="Balanced by class"),
        Option("class_weights", tuple, (), help="log loss: a weight per class, in the "
               "submission's column order (binary: class 0, then 1): each class's mean loss, "
               "weighted (PLAsTiCC's weighted log loss); one number weighs every class alike",
               label="Class weights"),
    )

    def fit(self, sub_targets, sample=None):
        from ._family import class_columns, fit_reason, one_column
        found = one_column(sub_targets, sample)
        if found is not None:
            name, sub, sol = found
            ok = sol.binary and sub.kind == "real" and sub.unit_interval
            return fit_reason(self, sample, f"0/1 truth and probabilities in '{name}'") if ok else None
        why = class_columns(sub_targets, sample, probabilities=True)
        return fit_reason(self, sample, why) if why else None

    def build(self, ctx):
        from ._probabilities import build_probabilities
        return build_probabilities(self, ctx, probabilities=True, multilabel=False)

    def kernel(self, truth, pred, options):
        from .kernels.probabilistic import log_loss
        eps = opt(options, self, "eps")
        weights = opt(options, self, "class_weights")
        if opt(options, self, "balanced") or weights:
            from .kernels.class_logloss import class_log_loss
            return class_log_loss(truth, pred, eps=eps, class_weights=weights or None)
        return log_loss(truth, pred, eps=eps)

    def variant_sums(self, base, w, g, size):
        """[(weighted) loss, weight]: the row losses' one pass (by class: from the statistics)."""
        if getattr(base, "per_class", None) is not None or base.n == 0:
            return None
        from ..core.additive import mean_units
        from .variants import mean_sums
        return mean_sums(base.losses, w, g, size), mean_units(np.zeros(1)).score

    edit_counts = ("clipped",)
    edit_constants = ("eps",)

    def edit_state(self, result):
        return [result.score * result.n, result.n]      # mean_units: (loss, count) sums

    fix_words = "true class's probability set to 1"

    def fixed_prediction(self, truth, pred, rows=None):
        """The true class given probability 1 (binary: the probability of class 1 = truth)."""
        pred = np.asarray(pred, dtype=np.float64)
        if pred.ndim == 1:
            return super().fixed_prediction(np.asarray(truth, np.float64), pred, rows)
        out = pred.copy()
        rows = np.arange(len(out)) if rows is None else np.asarray(rows, np.int64)
        out[rows] = 0.0
        out[rows, np.asarray(truth)[rows].astype(np.int64)] = 1.0
        return out

    def blend_values(self, a, b, alpha):
        """Per class, alpha*A + (1-alpha)*B, each row renormalised to sum to 1."""
        out = super().blend_values(a, b, alpha)
        if out is None or out.ndim == 1:
            return out
        total = (out @ np.ones(out.shape[1]))[:, None]      # row sums (BLAS: one read)
        return np.divide(out, total, out=out, where=total > 0)

    def blend_sets(self, report_a, report_b, alphas, row_sets):
        """Plain multi-class log loss: each alpha from the rows' sums (kernels/logloss_blend.py);
        by class, weighted, with a variant or binary: scored from scratch (the generic way)."""
        pa, pb, o = report_a.prepared, report_b.prepared, report_a.options
        plain = (np.ndim(pa.pred) == 2 and np.shape(pa.pred) == np.shape(pb.pred)
                 and not opt(o, self, "balanced") and not opt(o, self, "class_weights")
                 and self.variant(report_a) is None and np.ndim(pa.truth) == 1)
        losses = None
        if plain:
            from .base import split_rows, take
            from .kernels.logloss_blend import blend_losses
            everyone = split_rows(pa.usage)
            losses = blend_losses(take(pa.truth, everyone), take(pa.pred, everyone),
                                  take(pb.pred, everyone), opt(o, self, "eps"))
        if losses is None:
            return super().blend_sets(report_a, report_b, alphas, row_sets)
        from ..core.blend import blend_curve
        from .family_analyses import _positions, blend_grid
        al = blend_grid(alphas)
        sets = _positions(everyone, len(pa.truth), row_sets)
        scores = np.full((len(row_sets), al.size), np.nan)
        with np.errstate(invalid="ignore"):
            for g, x in enumerate(al):
                rows = losses(float(x))
                for k, p in enumerate(sets):      # sums, not a (sets x rows) product: BLAS
                    if p is None or p.size:       # threads spin on a busy machine
                        scores[k, g] = (rows.sum() if p is None else rows[p].sum()) / \
                            (rows.size if p is None else p.size)
        return [blend_curve(al, sc, self.higher_is_better) for sc in scores]

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        if prep.pred.ndim == 1:
            return super().fix_details(report, units, sol_rows)
        out = []
        for t, row in zip(prep.truth[sol_rows].tolist(), prep.pred[sol_rows]):
            out.append(f"truth {prep.classes[t]}, given {row[t]:.4g} "
                       f"(highest: {prep.classes[int(row.argmax())]} {row.max():.4g})")
        return out

    def json_fields(self, report):
        r = report.result
        out = {**super().json_fields(report), "eps": r.eps, "clipped_rows": r.clipped}
        per = getattr(r, "per_class", None)
        if per is not None:          # by class: each class's mean loss and its weight
            names = report.prepared.classes if len(report.prepared.classes) == per.size \
                else [str(k) for k in range(per.size)]
            out["per_class"] = {str(k): (None if not np.isfinite(v) else float(v))
                                for k, v in zip(names, per.tolist())}
            out["class_weights"] = r.class_weights.tolist()
        return out

    def summary_lines(self, report):
        r = report.result
        lines = super().summary_lines(report) + [
            f"probabilities clipped to [{r.eps:g}, 1 - {r.eps:g}] and rows renormalised; "
            f"{r.clipped:,} row(s) clipped"]
        if getattr(r, "per_class", None) is not None:
            lines.append("each class's mean loss, then their weighted mean (by class)")
        return lines


LOGLOSS = LogLoss()
