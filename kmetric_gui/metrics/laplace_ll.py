"""Laplace log likelihood (OSIC Pulmonary Fibrosis Progression): the submission gives a
prediction and a confidence (the Laplace distribution's sigma) per row; sigma is clipped
at ``sigma_min`` (70), the error at ``error_max`` (1000). Higher is better (a row's best is
-log(sqrt(2) * 70), about -4.59).

Layout: solution id + the target column (OSIC: ``FVC``); submission id + the same
target column + the confidence column (the one submission column the solution lacks, or
one named ``Confidence``)."""
import math

import numpy as np

from ._family import Option, opt
from ._means import MeanMetric
from .base import take


class LaplaceLL(MeanMetric):
    name = "laplace_ll"
    label = "Laplace log likelihood"
    higher_is_better = True
    fix_words = "prediction set to the truth, confidence to the least sigma"
    demo_label = "Laplace log likelihood (OSIC)"
    options = (
        Option("sigma_min", float, 70.0, help="laplace_ll: confidences below this count as it "
               "(OSIC: 70)", label="Least sigma", minimum=0.001, maximum=1e5, step=1.0),
        Option("error_max", float, 1000.0, help="laplace_ll: errors above this count as it "
               "(OSIC: 1000)", label="Most error", minimum=0.0, maximum=1e7,
               step=10.0),
    )

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason
        if sample is None or len(sample.sol_targets) != 1 or len(sub_targets) != 2:
            return None
        target = sample.sol_targets[0]
        extra = [c for c in sub_targets if c != target]
        if target not in sub_targets or len(extra) != 1:
            return None
        cols = [sample.sol_column(target), sample.sub_column(target), sample.sub_column(extra[0])]
        if all(c is not None and c.kind in ("int", "real") for c in cols):
            return fit_reason(self, sample, f"'{target}' with a confidence column '{extra[0]}'")
        return None

    def build(self, ctx):
        from ..io.prepare import Prepared
        from ._layouts import Sides
        s = Sides(ctx)
        sols, subs = s.targets(ctx.sol), s.targets(ctx.sub)
        target = ctx.options.target_column or (sols[0] if len(sols) == 1 else None)
        if target is None:
            s.col.add(ctx.sol_name, f"expected one target column besides '{ctx.id_col}'; found "
                      f"{len(sols)}: {', '.join(sols) or 'none'}")
        others = [c for c in subs if c != target and c not in sols]
        named = [c for c in subs if c.lower() in ("confidence", "sigma")]
        conf = others[0] if len(others) == 1 else (named[0] if len(named) == 1 else None)
        if conf is None and target is not None:
            s.col.add(ctx.sub_name, "expected one confidence column besides the target "
                      f"'{target}' (a column the solution lacks, or one named Confidence); "
                      f"found {', '.join(c for c in subs if c != target) or 'none'}")
        for name in (target, conf):
            if name is not None and name not in ctx.sub.column_names:
                s.col.add(ctx.sub_name, f"no column '{name}'; found columns: "
                          f"{', '.join(ctx.sub.column_names)}")
        if target is not None and target not in ctx.sol.column_names:
            s.col.add(ctx.sol_name, f"no target column '{target}'; found columns: "
                      f"{', '.join(ctx.sol.column_names)}")
        s.stop_if_any()
        truth, pred, sigma = s.sol_numbers(target), s.sub_numbers(target), s.sub_numbers(conf)
        s.stop_if_any()
        both = np.column_stack([pred, sigma])
        return Prepared(self.name, ctx.reason, ctx.id_col, [target, conf], s.sol_ids_arr,
                        truth.astype(np.float64), s.align(both).astype(np.float64), ctx.usage,
                        layout=f"id '{ctx.id_col}' + '{target}', the submission's confidence "
                               f"in '{conf}'", cells=_cells())

    def kernel(self, truth, pred, options):
        from .kernels.laplace import laplace_log_likelihood
        return laplace_log_likelihood(truth, pred[:, 0], pred[:, 1],
                                      opt(options, self, "sigma_min"),
                                      opt(options, self, "error_max"))

    def reference(self, prep, options, rows=None):
        """OSIC's formula, row by row."""
        lo, hi = opt(options, self, "sigma_min"), opt(options, self, "error_max")
        total, n = 0.0, 0
        for t, (p, c) in zip(np.asarray(take(prep.truth, rows)).tolist(),
                             np.asarray(take(prep.pred, rows)).tolist()):
            sd, delta = max(c, lo), min(abs(t - p), hi)
            total += -math.sqrt(2) * delta / sd - math.log(math.sqrt(2) * sd)
            n += 1
        return total / n if n else float("nan")

    def perfect(self, prep):
        """The truth, with a confidence of 0 (counted as the least sigma): the best rows."""
        return np.column_stack([prep.truth, np.zeros(len(prep.truth))])

    def fixed_prediction(self, truth, pred, rows=None):
        """``rows`` (None: all) predicted at their truth with a confidence of 0 (counted as
        the least sigma)."""
        out = np.array(pred, dtype=np.float64, copy=True)
        sel = slice(None) if rows is None else np.asarray(rows, np.int64)
        out[sel, 0] = np.asarray(truth, np.float64)[sel]
        out[sel, 1] = 0.0
        return out

    def fixed_value(self, result):
        from .kernels.laplace import best_row
        return best_row(result.detail["sigma_min"])

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        return [f"truth {t:.6g}, predicted {p:.6g} with confidence {c:.4g}"
                for t, (p, c) in zip(prep.truth[sol_rows].tolist(), prep.pred[sol_rows].tolist())]

    def submission_rows(self, prep):
        return ([prep.id_column] + list(prep.target_columns),
                ([i] + row for i, row in zip(prep.ids, prep.pred.tolist())))

    def summary_lines(self, report):
        d = report.result.detail
        return super().summary_lines(report) + [
            f"confidence clipped at {d['sigma_min']:g} ({d['sigma_clipped']:,} row(s)), "
            f"errors at {d['error_max']:g}"]


def _cells():
    """The truth; the prediction beside its confidence (a spread: never negative)."""
    from ._cells import Cells, Numbers, Parts
    sigma = Numbers(low=0.0, why="is negative: a confidence is the spread (sigma) of the "
                    "prediction, 0 or more")
    return Cells(Numbers(), Parts(("prediction", "confidence"), (Numbers(), sigma)))


LAPLACE_LL = LaplaceLL()
