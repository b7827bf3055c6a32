"""F1 score: binary (of --pos-label), macro, micro or weighted over the labels.

Classes are the sorted union of the solution's labels (a submission label the
solution lacks is refused when reading, see metrics/_labels.py). Zero
division (binary, the positive label nowhere) scores 0.0 as scikit-learn does.
"""
import numpy as np

from ._family import FamilyMetric, Option, opt
from ._labels import build_labels


class F1(FamilyMetric):
    name = "f1"
    label = "F1 score"
    view = "confusion"             # the app's anatomy view (gui/views VIEW_KINDS)
    demo_label = "F1 (binary)"          # contract: the app's demo menu
    demo_detected = False   # contract: the app chooses the metric for its demo (layouts overlap)

    def reference(self, prep, options, rows=None):
        from ._references import f1_reference
        return f1_reference(prep, options, rows)
    options = (
        Option("average", str, "binary", ("binary", "macro", "micro", "weighted"),
               "f1: binary (of the positive label), or macro, micro, weighted over the classes; "
               "auc multi-class: macro"),
        Option("pos_label", str, "1", help="f1 binary: the positive label (default 1)"),
    )

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
        from .kernels.classification import f1
        return f1(truth, pred, average=opt(options, self, "average"),
                  pos_label=opt(options, self, "pos_label"))

    def row_stats(self, result):
        """Per row, TP/FP/FN of every class (3K columns)."""
        from .kernels.classification import f1_from_counts
        t, p = result.truth_codes, result.pred_codes
        k = result.labels.size
        n = t.size
        stats = np.zeros((n, 3 * k))
        hit = t == p
        rows = np.arange(n)
        stats[rows[hit], 3 * t[hit]] = 1
        stats[rows[~hit], 3 * p[~hit] + 1] = 1
        stats[rows[~hit], 3 * t[~hit] + 2] = 1

        def score(sums):
            tp, fp, fn = sums[:, 0::3], sums[:, 1::3], sums[:, 2::3]
            out = f1_from_counts(tp, fp, fn, tp + fn, result.average, result.pos_index)
            out[sums.sum(axis=1) == 0] = np.nan
            return out
        return stats, score

    def json_fields(self, report):
        r = report.result
        out = {**super().json_fields(report), "average": r.average,
               "labels": [str(x) for x in r.labels.tolist()],
               "tp": r.tp.tolist(), "fp": r.fp.tolist(), "fn": r.fn.tolist(),
               "per_class": r.per_class.tolist()}
        if r.note:
            out["note"] = r.note
        return out

    def summary_lines(self, report):
        r = report.result
        extra = [f"{r.average} average over {r.labels.size} label(s)"]
        return super().summary_lines(report) + extra + ([r.note] if r.note else [])


F1_SCORE = F1()
