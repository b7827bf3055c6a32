"""MCRMSE (mean column-wise root mean squared error): lower is better; layout in metrics/_regression.py."""
from ..core.regression import mcrmse
from ._regression import RegressionMetric


class Mcrmse(RegressionMetric):
    name = "mcrmse"
    label = "MCRMSE"
    multi = True

    def kernel(self, truth, pred, options):
        return mcrmse(truth, pred)


MCRMSE = Mcrmse()
