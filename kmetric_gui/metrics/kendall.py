"""Kendall's tau-b (scipy.stats.kendalltau's ties): higher is better; the mean over columns
for several target columns. Layout and statistics in metrics/_correlation.py."""
from ._correlation import CorrelationMetric


class Kendall(CorrelationMetric):
    name = "kendall"
    label = "Kendall tau-b"
    fix_words = "prediction moved to the value holding its truth's rank"
    kind = "kendall"
    demo_label = "Kendall tau (ranking)"


KENDALL = Kendall()
