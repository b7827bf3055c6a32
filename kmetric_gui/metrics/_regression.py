"""Regression layouts: id + one real column, or several (mcrmse; any regression metric
given several target columns scores each column and takes the mean over columns, as
MCRMSE does for RMSE)."""
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

    def kernel(self, truth, pred, options):
        """The metric's kernel; several columns: each column's score, then their mean."""
        if np.ndim(truth) == 2 and not self.multi:
            from .kernels.regression import columnwise
            return columnwise(self.name, truth, pred)
        return self.row_kernel(truth, pred, options)

    def row_kernel(self, truth, pred, options):
        raise NotImplementedError

    def variant_sums(self, base, w, g, size):
        """One real column: [(weighted) squared or absolute error, weight] sums in one pass
        (RMSE, MAE, RMSLE); several columns: from the per-row statistics."""
        from ..core.additive import mean_units, root_mean_units
        from .variants import mean_sums
        kind = getattr(base, "kind", "")
        if kind not in ("rmse", "mae", "rmsle") or base.n == 0:
            return None
        r = base.residual
        fn = (mean_units if kind == "mae" else root_mean_units)(np.zeros(1)).score
        if isinstance(r, tuple) and r[0].ndim == 1 and g is None and w is not None:
            from .kernels.regression import weighted_distance
            return np.array([weighted_distance(r[0], r[1], w, kind), float(w.sum())]), fn
        e = base.errors
        if e.ndim != 1:
            return None
        return mean_sums(np.abs(e) if kind == "mae" else e * e, w, g, size), fn

    def blend_sets(self, report_a, report_b, alphas, row_sets):
        """Each alpha in one pass over each row set (kernels/regression_blend.py); with a
        variant (weights, groups, rounding, a transform): scored from scratch."""
        pa, pb = report_a.prepared, report_b.prepared
        kind = getattr(report_a.result, "kind", None)
        if (kind not in ("rmse", "mae", "rmsle", "mcrmse") or self.variant(report_a) is not None
                or np.shape(pa.pred) != np.shape(pb.pred) or np.shape(pa.truth) != np.shape(pa.pred)):
            return super().blend_sets(report_a, report_b, alphas, row_sets)
        from ..core.blend import blend_curve
        from .base import split_rows
        from .family_analyses import _positions, blend_grid
        from .kernels.regression_blend import blend_scores
        al = blend_grid(alphas)
        everyone = split_rows(pa.usage)
        # solution rows of each set (None: every row), as _positions places them
        sets = [everyone if p is None else (p if everyone is None else everyone[p])
                for p in _positions(everyone, len(pa.truth), row_sets)]
        scores = blend_scores(kind, pa.truth, pa.pred, pb.pred, al, sets)
        return [blend_curve(al, sc, self.higher_is_better) for sc in scores]

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
        from ._layouts import unscored_rows
        s = Sides(ctx)
        if self.multi or (len(s.targets(ctx.sub)) > 1 and not ctx.options.target_column):
            names = s.same_columns("target")
            truth = matrix(s, ctx.sol, names, ctx.sol_name)
            pred = matrix(s, ctx.sub, names, ctx.sub_name)
            layout = f"id '{ctx.id_col}' + {len(names)} real columns" + (
                "" if self.multi else f" ({self.label} of each column, then their mean)")
        else:
            name = single_target(s)
            names = [name]
            truth, pred = s.sol_numbers(name), s.sub_numbers(name)
            layout = f"id '{ctx.id_col}' + real column '{name}'"
        s.stop_if_any()
        unscored_rows(s, truth)
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
                        layout=layout, cells=self.cells())

    def cells(self):
        """The table's cells: every target's truth beside its prediction, values >= 0
        for a metric of logarithms."""
        from ._cells import Cells, Numbers
        kind = Numbers(low=0.0, why=f"is negative: {self.label} takes log(1 + x) of values "
                       ">= 0") if self.non_negative else Numbers()
        return Cells(kind, kind, interleave=True)

    edit_constants = ("kind",)

    def edit_state(self, result):
        """The units' sums from the score: (squared or absolute errors, rows) of a column
        or of each column (``column_scores``); the count is the rows'."""
        n, r = result.n, result
        if not hasattr(r, "column_scores"):     # SMAPE, MAPE: a mean of rows' values
            return super().edit_state(result)
        if r.column_scores is not None:
            return np.r_[np.square(r.column_scores) * n, n]
        return [(r.score if r.kind == "mae" else r.score * r.score) * n, n]

    def edit_fields(self, result, sums):
        if not hasattr(result, "column_scores"):
            return {}
        if result.column_scores is None:
            return {"column_scores": None}
        return {"column_scores": np.sqrt(np.maximum(sums[:-1], 0.0) / sums[-1])}

    def json_fields(self, report):
        out = super().json_fields(report)
        r = report.result
        if getattr(r, "column_scores", None) is not None:
            # an overflowing column has no score: null, never JSON's invalid Infinity
            out["column_scores"] = {c: (v if np.isfinite(v) else None) for c, v in
                                    zip(report.prepared.target_columns, r.column_scores.tolist())}
        return out
