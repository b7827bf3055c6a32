"""Matthews correlation coefficient (binary and multi-class, as scikit-learn): id + one
column of class labels in both files (metrics/_labels.py). Higher is better, -1 to 1;
0 by scikit-learn's convention when the truth or the predictions hold one class."""
import numpy as np

from ._family import FamilyMetric
from ._labels import build_labels
from .base import take


class Mcc(FamilyMetric):
    name = "mcc"
    variants = ("weights_column", "mask_column", "group_by", "group_transform")   # no rounding
    label = "MCC"
    view = "confusion"
    fix_words = "label set to the truth"
    demo_label = "MCC (labels)"
    demo_detected = False      # labels are accuracy's and F1's layout too: the app chooses

    def fit(self, sub_targets, sample=None):
        from ._family import label_fit
        return label_fit(self, sub_targets, sample)

    def build(self, ctx):
        return build_labels(self, ctx)

    def kernel(self, truth, pred, options):
        from .kernels.mcc import mcc
        return mcc(truth, pred)

    def reference(self, prep, options, rows=None):
        from sklearn.metrics import matthews_corrcoef
        return matthews_corrcoef(take(prep.truth, rows), take(prep.pred, rows))

    def row_stats(self, result):
        from .kernels.mcc import row_sums_score
        return result.row_stats, row_sums_score(result.labels.size)

    def fixed_stats(self, result, stats):
        k = result.labels.size
        out = stats.copy()
        out[:, 0] = 1.0
        out[:, 1 + k:] = stats[:, 1:1 + k]         # predicted: the true class
        return out

    def json_fields(self, report):
        r = report.result
        out = {**super().json_fields(report), "labels": [str(x) for x in r.labels.tolist()],
               "confusion": r.confusion.tolist()}
        if r.note:
            out["note"] = r.note
        return out

    def summary_lines(self, report):
        r = report.result
        lines = super().summary_lines(report) + [
            f"{r.labels.size} class(es); {int(np.trace(r.confusion)):,} row(s) right"]
        return lines + ([r.note] if r.note else [])


MCC = Mcc()
