"""Point-in-box F1 (Kuzushiji recognition).

Truth: "label x y width height" per character; predictions: "label x y" centre
points. Each truth box, in file order, takes the first unused predicted point
of its label strictly inside it (a true positive); unmatched boxes are false
negatives, unused points false positives. F1 of the counts pooled over images
(0 when there is no true positive).
"""
import numpy as np

from ._box_metric import BoxMetric


class PointF1(BoxMetric):
    name = "point_f1"
    label = "Point F1"
    demo_detected = False
    default_format = "xywh"
    truth_groups = (5,)
    pred_groups = (3,)
    points = True
    count_names = ("TP", "FP", "FN")

    def fit(self, sub_targets, sample=None):
        from ._image_layouts import _one_text_column, box_groups
        from .detect import Fit
        found = _one_text_column(sub_targets, sample)
        if found is None:
            return None
        name, (sol, sub) = found
        if not any(c.strip() for c in sol) or box_groups(sol, (5,)) is None \
                or box_groups(sub, (3,)) is None or box_groups(sub, (5, 6)) is not None:
            return None
        return Fit(f"label x y points in '{name}' and labelled boxes in the solution "
                   f"({self.label})")

    def image_stats(self, truth, pred, options):
        from .kernels.boxes import point_matches
        n = len(truth)
        counts = np.zeros((n, 3), np.int64)
        matches = []
        for k, (t, p) in enumerate(zip(truth, pred)):
            tp, fp, fn, m = point_matches(t, p)
            counts[k] = tp, fp, fn
            matches.append(m)
        values = _f1(counts.astype(np.float64))
        values[counts.sum(axis=1) == 0] = np.nan
        return counts.astype(np.float64), values, counts, matches

    def score_of(self, options):
        return _f1

    def reference(self, prep, options, rows=None):
        from ._image_references import point_f1
        return point_f1(self, prep, options, rows)


def _f1(sums):
    s = np.asarray(sums, np.float64).reshape(-1, 3)
    tp, fp, fn = s[:, 0], s[:, 1], s[:, 2]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 2 * tp / (2 * tp + fp + fn)
    return np.where(tp > 0, out, 0.0)


POINT_F1 = PointF1()
