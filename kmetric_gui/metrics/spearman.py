"""Spearman's rank correlation rho (Pearson's r of the mid-ranks, as scipy.stats.spearmanr):
higher is better; the mean over columns for several target columns (Google QUEST's
column-wise Spearman). Layout and statistics in metrics/_correlation.py."""
from ._correlation import CorrelationMetric


class Spearman(CorrelationMetric):
    name = "spearman"
    label = "Spearman rho"
    fix_words = "prediction moved to the value holding its truth's rank"
    kind = "spearman"
    demo_label = "Spearman rho (column-wise mean)"


SPEARMAN = Spearman()
