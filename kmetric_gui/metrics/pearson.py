"""Pearson's correlation coefficient r: higher is better (1 for predictions on a rising
line through the truth); the mean over columns for several target columns. Layout and
statistics in metrics/_correlation.py."""
from ._correlation import CorrelationMetric


class Pearson(CorrelationMetric):
    name = "pearson"
    label = "Pearson r"
    kind = "pearson"
    demo_label = "Pearson r (correlation)"


PEARSON = Pearson()
