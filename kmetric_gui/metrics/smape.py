"""SMAPE, as Kaggle's forecasting competitions score it (Web Traffic, Store Item Demand):
100/n * sum |F - A| / ((|A| + |F|) / 2), 0 for a row where both are 0; lower is
better, 0 to 200. Layout: id + one real column (metrics/_regression.py)."""
import numpy as np

from ._means import MeanEdits
from ._regression import RegressionMetric
from .base import take


class Smape(MeanEdits, RegressionMetric):
    name = "smape"
    label = "SMAPE"
    demo_label = "SMAPE (forecast)"

    def kernel(self, truth, pred, options):
        from .kernels.percentage import percentage_error
        return percentage_error(truth, pred, "smape")

    def reference(self, prep, options, rows=None):
        """The definition, row by row (no library has Kaggle's SMAPE)."""
        total, n = 0.0, 0
        for a, f in zip(np.asarray(take(prep.truth, rows)).tolist(),
                        np.asarray(take(prep.pred, rows)).tolist()):
            den = (abs(a) + abs(f)) / 2
            total += 0.0 if den == 0 else abs(f - a) / den
            n += 1
        return 100 * total / n if n else float("nan")

    def json_fields(self, report):
        return {**super().json_fields(report), "truth_zero": report.result.detail["truth_zero"]}

    def summary_lines(self, report):
        return super().summary_lines(report) + ["in percent (0 to 200); a row where truth and "
                                                "prediction are both 0 counts 0"]


SMAPE = Smape()
