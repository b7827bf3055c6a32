"""MCRMSE (mean column-wise root mean squared error): lower is better; layout in metrics/_regression.py."""
from ._regression import RegressionMetric


class Mcrmse(RegressionMetric):
    name = "mcrmse"
    label = "MCRMSE"
    column_label = "RMSE"        # one column's score (the anatomy's column chooser)
    multi = True

    def row_kernel(self, truth, pred, options):
        from .kernels.regression import mcrmse
        return mcrmse(truth, pred)


MCRMSE = Mcrmse()
