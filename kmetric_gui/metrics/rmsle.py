"""RMSLE (root mean squared logarithmic error): lower is better; layout in metrics/_regression.py."""
from ._regression import RegressionMetric


class Rmsle(RegressionMetric):
    name = "rmsle"
    label = "RMSLE"
    non_negative = True

    def row_kernel(self, truth, pred, options):
        from .kernels.regression import rmsle
        return rmsle(truth, pred)


RMSLE = Rmsle()
