"""MAE (mean absolute error): lower is better; layout in metrics/_regression.py."""
from ..core.regression import mae
from ._regression import RegressionMetric


class Mae(RegressionMetric):
    name = "mae"
    label = "MAE"

    def kernel(self, truth, pred, options):
        return mae(truth, pred)


MAE = Mae()
