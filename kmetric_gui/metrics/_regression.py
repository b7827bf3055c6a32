"""Regression layouts: id + one real column (rmse, rmsle, mae) or several (mcrmse)."""
import numpy as np

from ._family import FamilyMetric


class RegressionMetric(FamilyMetric):
    higher_is_better = False
    view = "residuals"             # the app's anatomy view (gui/views VIEW_KINDS)
    multi = False               # mcrmse: several real columns
    non_negative = False        # rmsle: logarithms of values >= 0
    demo_detected = False       # contract: the app chooses the metric for its demo

    @property
    def demo_label(self):
        return f"{self.label} (regression)"

    def reference(self, prep, options, rows=None):
        from ._references import regression_reference
        return regression_reference(self.name)(prep, options, rows)

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason, one_column
        if self.multi:
            if sample is None or len(sub_targets) < 2:
                return None
            cols = [(sample.sub_column(c), sample.sol_column(c)) for c in sub_targets]
            if all(s is not None and t is not None and s.kind in ("int", "real")
                   and t.kind in ("int", "real") for s, t in cols) \
                    and not all(t.binary for _, t in cols):
                if any(t.kind == "real" for _, t in cols):     # measured values: not labels
                    from .detect import Fit
                    return Fit(f"{len(cols)} real columns in both files ({self.label})")
                return fit_reason(self, sample, f"{len(cols)} real columns in both files")
            return None
        found = one_column(sub_targets, sample)
        if found is None:
            return None
        name, sub, sol = found
        if sol.kind != "real" or sub.kind not in ("int", "real"):
            return None
        if self.non_negative and not (sol.low >= 0 and sub.low >= 0):
            return None
        return fit_reason(self, sample, f"one real column '{name}'")

    def build(self, ctx):
        from ..io.prepare import Prepared
        from ._layouts import Sides, matrix, single_target
        s = Sides(ctx)
        if self.multi:
            names = s.same_columns("target")
            truth = matrix(s, ctx.sol, names, ctx.sol_name)
            pred = matrix(s, ctx.sub, names, ctx.sub_name)
            layout = f"id '{ctx.id_col}' + {len(names)} real columns"
        else:
            name = single_target(s)
            names = [name]
            truth, pred = s.sol_numbers(name), s.sub_numbers(name)
            layout = f"id '{ctx.id_col}' + real column '{name}'"
        s.stop_if_any()
        if self.non_negative:
            why = f"{self.label} takes log(1 + x) of values >= 0"
            for j, name in enumerate(names):
                t = truth if truth.ndim == 1 else truth[:, j]
                p = pred if pred.ndim == 1 else pred[:, j]
                s.check_non_negative(t, name, ctx.sol_name, s.sol_ids, why)
                s.check_non_negative(p, name, ctx.sub_name, s.sub_ids, why)
        s.stop_if_any()
        return Prepared(self.name, ctx.reason, ctx.id_col, names, s.sol_ids_arr,
                        truth.astype(np.float64), s.align(pred).astype(np.float64, copy=False), ctx.usage,
                        layout=layout)

    def json_fields(self, report):
        out = super().json_fields(report)
        r = report.result
        if getattr(r, "column_scores", None) is not None:
            out["column_scores"] = dict(zip(report.prepared.target_columns,
                                            r.column_scores.tolist()))
        return out
