"""Regression layouts: id + one real column (rmse, rmsle, mae) or several (mcrmse)."""
import numpy as np

from ._family import FamilyMetric


class RegressionMetric(FamilyMetric):
    higher_is_better = False
    multi = False               # mcrmse: several real columns
    non_negative = False        # rmsle: logarithms of values >= 0

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
                        truth.astype(np.float64), s.align(pred).astype(np.float64), ctx.usage,
                        layout=layout)

    def fixed_stats(self, result, stats):
        out = np.zeros_like(stats)
        out[:, -1] = stats[:, -1]          # the count column stays
        return out

    def json_fields(self, report):
        out = super().json_fields(report)
        r = report.result
        if getattr(r, "column_scores", None) is not None:
            out["column_scores"] = dict(zip(report.prepared.target_columns,
                                            r.column_scores.tolist()))
        return out
