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

    # -- edits (metrics/_edits.py): the split's confusion loses and gains a few rows -------
    edit_constants = ("labels", "higher_is_better")

    def edit_rows(self, result, truth, pred, options):
        """The edited rows' (K*K) confusion counts among the split's classes; a class the
        split does not hold yet: scored again (its classes change)."""
        from ._edits import Unfit
        from .variants import VariantResult
        if isinstance(result, VariantResult):
            raise Unfit("a variant's result: scored by score()")
        labels = result.labels
        index = {v: i for i, v in enumerate(labels.tolist())}
        k = labels.size
        try:
            cells = [index[t] * k + index[p] for t, p in zip(np.asarray(truth).tolist(),
                                                             np.asarray(pred).tolist())]
        except KeyError:
            raise Unfit("a class the split does not hold") from None
        return np.bincount(cells, minlength=k * k).astype(np.float64), _confusion_score(k), None

    def edit_state(self, result):
        return result.confusion.ravel().astype(np.float64)

    def edit_fields(self, result, sums):
        from ._edits import Unfit
        from .kernels.mcc import one_class_note
        k = result.labels.size
        conf = np.rint(sums).astype(np.int64).reshape(k, k)
        t, p = conf.sum(axis=1), conf.sum(axis=0)
        if ((t + p) == 0).any():
            raise Unfit("a class left the split")
        return {"confusion": conf, "note": one_class_note(t, p)}

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


def _confusion_score(k):
    def score(sums):
        from .kernels.mcc import mcc_from_sums
        conf = np.asarray(sums, dtype=np.float64).reshape(-1, k, k)
        return mcc_from_sums(np.trace(conf, axis1=1, axis2=2), conf.sum(axis=2), conf.sum(axis=1))
    return score


MCC = Mcc()
