"""RMSE (root mean squared error): lower is better; layout in metrics/_regression.py."""
from ._regression import RegressionMetric


class Rmse(RegressionMetric):
    name = "rmse"
    label = "RMSE"

    def row_kernel(self, truth, pred, options):
        from .kernels.regression import rmse
        return rmse(truth, pred)


RMSE = Rmse()
