"""Accuracy: the share of rows whose predicted label is the true one."""
import numpy as np

from ._family import FamilyMetric
from ._labels import build_labels


class Accuracy(FamilyMetric):
    name = "accuracy"
    label = "Accuracy"
    view = "confusion"             # the app's anatomy view (gui/views VIEW_KINDS)
    demo_label = "accuracy (labels)"          # contract: the app's demo menu
    demo_detected = False   # contract: the app chooses the metric for its demo (layouts overlap)

    def reference(self, prep, options, rows=None):
        from ._references import accuracy_reference
        return accuracy_reference(prep, options, rows)

    fix_words = "label set to the truth"

    no_blend = "the predictions are labels, and a weighted mean of two labels is no label"

    def blend_values(self, a, b, alpha):
        return None             # labels (0/1 labels are numbers, but not scores)

    def fit(self, sub_targets, sample=None):
        from ._family import label_fit
        return label_fit(self, sub_targets, sample)

    def build(self, ctx):
        return build_labels(self, ctx)

    def kernel(self, truth, pred, options):
        from .kernels.classification import accuracy
        return accuracy(truth, pred)

    def row_stats(self, result):
        hit = result.row_hits.astype(np.float64)

        def score(sums):
            with np.errstate(invalid="ignore", divide="ignore"):
                out = sums[:, 0] / sums[:, 1]
            out[sums[:, 1] == 0] = np.nan
            return out
        return np.column_stack([hit, np.ones_like(hit)]), score

    def json_fields(self, report):
        return {**super().json_fields(report), "hits": report.result.hits}


ACCURACY = Accuracy()
