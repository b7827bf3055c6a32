"""RMSLE (root mean squared logarithmic error): lower is better; layout in metrics/_regression.py."""
from ..core.regression import rmsle
from ._regression import RegressionMetric


class Rmsle(RegressionMetric):
    name = "rmsle"
    label = "RMSLE"
    non_negative = True

    def kernel(self, truth, pred, options):
        return rmsle(truth, pred)


RMSLE = Rmsle()
