"""MAE (mean absolute error): lower is better; layout in metrics/_regression.py."""
from ._regression import RegressionMetric


class Mae(RegressionMetric):
    name = "mae"
    label = "MAE"

    def row_kernel(self, truth, pred, options):
        from .kernels.regression import mae
        return mae(truth, pred)


MAE = Mae()
