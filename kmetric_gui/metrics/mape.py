"""MAPE as scikit-learn computes it: the mean of |truth - prediction| / max(|truth|, eps)
(eps the float64 machine epsilon), a fraction (0.12 is 12 %); lower is better. A row
whose truth is 0 weighs |prediction| / eps: huge, as in scikit-learn; the output says how
many there are. Layout: id + one real column (metrics/_regression.py)."""

from ._means import MeanEdits
from ._regression import RegressionMetric
from .base import take


class Mape(MeanEdits, RegressionMetric):
    name = "mape"
    label = "MAPE"
    demo_label = "MAPE (percentage error)"

    def kernel(self, truth, pred, options):
        from .kernels.percentage import percentage_error
        return percentage_error(truth, pred, "mape")

    def reference(self, prep, options, rows=None):
        from sklearn.metrics import mean_absolute_percentage_error
        return mean_absolute_percentage_error(take(prep.truth, rows), take(prep.pred, rows))

    def json_fields(self, report):
        return {**super().json_fields(report), "truth_zero": report.result.detail["truth_zero"]}

    def summary_lines(self, report):
        lines = super().summary_lines(report) + ["a fraction: 0.12 is 12 %"]
        zero = report.result.detail["truth_zero"]
        if zero:
            lines.append(f"{zero:,} row(s) with truth 0 weigh |prediction| / 2.2e-16 "
                         "(scikit-learn's rule)")
        return lines


MAPE = Mape()
