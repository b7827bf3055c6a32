"""Independent definitions of the family metrics for the conformance test
(``Metric.reference``): scikit-learn where it computes the same number, plain
loops where Kaggle's definition differs from it (log loss's renormalised rows,
MAP@K). Shares no code with kmetric_gui.core. Slow on purpose."""
import math

import numpy as np

from .base import take


def rows_of(prep, rows):
    return take(prep.truth, rows), take(prep.pred, rows)


def auc_reference(prep, options, rows=None):
    from sklearn.metrics import roc_auc_score
    t, p = rows_of(prep, rows)
    t, p = np.asarray(t), np.asarray(p)
    if p.ndim == 1:
        return roc_auc_score(t, p)
    cols = (t[:, None] == np.arange(p.shape[1])) if t.ndim == 1 else t.astype(bool)
    aucs = [roc_auc_score(cols[:, j], p[:, j]) for j in range(p.shape[1])
            if 0 < cols[:, j].sum() < cols.shape[0]]
    return sum(aucs) / len(aucs) if aucs else float("nan")


def logloss_reference(prep, options, rows=None):
    eps = float(getattr(options, "eps", None) or 1e-15)
    t, p = rows_of(prep, rows)
    total = 0.0
    for y, row in zip(np.asarray(t).tolist(), np.asarray(p).tolist()):
        if not isinstance(row, list):
            row, y = [1.0 - row, row], int(y)
        clipped = [min(max(v, eps), 1 - eps) for v in row]
        total -= math.log(clipped[int(y)] / sum(clipped))
    return total / len(t)


def accuracy_reference(prep, options, rows=None):
    from sklearn.metrics import accuracy_score
    return accuracy_score(*rows_of(prep, rows))


def f1_reference(prep, options, rows=None):
    from sklearn.metrics import f1_score
    t, p = (np.asarray(v) for v in rows_of(prep, rows))
    average = getattr(options, "average", None) or "binary"
    pos = getattr(options, "pos_label", None) or "1"
    if t.dtype.kind in "iuf":
        pos = type(t.flat[0].item())(float(pos))
    return f1_score(t, p, average=average, pos_label=pos, zero_division=0)


def apk(actual, predicted, k):
    predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, item in enumerate(predicted):
        if item in actual and item not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    return score / min(len(actual), k) if actual else 0.0


def mapk_reference(prep, options, rows=None):
    k = int(getattr(options, "k", None) or 5)
    t, p = rows_of(prep, rows)
    return sum(apk(list(a), list(b), k) for a, b in zip(t, p)) / len(t)


def regression_reference(name):
    def reference(prep, options, rows=None):
        from sklearn import metrics as skm
        t, p = rows_of(prep, rows)
        fn = {"rmse": skm.root_mean_squared_error, "mae": skm.mean_absolute_error,
              "rmsle": skm.root_mean_squared_log_error, "mcrmse": skm.root_mean_squared_error}[name]
        return fn(t, p)
    return reference
