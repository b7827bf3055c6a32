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
        return log_loss(truth, pred, eps=opt(options, self, "eps"))

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
        return {**super().json_fields(report), "eps": r.eps, "clipped_rows": r.clipped}

    def summary_lines(self, report):
        r = report.result
        return super().summary_lines(report) + [
            f"probabilities clipped to [{r.eps:g}, 1 - {r.eps:g}] and rows renormalised; "
            f"{r.clipped:,} row(s) clipped"]


LOGLOSS = LogLoss()
