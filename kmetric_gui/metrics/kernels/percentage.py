"""Percentage errors: SMAPE (Kaggle's, in percent) and MAPE (scikit-learn's, a fraction).

* SMAPE = 100/n * sum |F - A| / ((|A| + |F|) / 2), a row with A = F = 0 counting 0
  (the Web Traffic and Store Item Demand competitions' reading): 0 to 200.
* MAPE = 1/n * sum |A - F| / max(|A|, eps), eps the float64 machine epsilon, as
  sklearn.metrics.mean_absolute_percentage_error (a row with truth 0 weighs
  |F| / eps: huge, as there).

Both are means of one number per row (kernels/means.py), summed in blocks that stay in
the cache: the score makes no n-sized array; the per-row values are made when
statistics ask.
"""
from __future__ import annotations

import numpy as np

from .means import lazy_result

EPS = float(np.finfo(np.float64).eps)
BLOCK = 1 << 15


def _terms(t, p, kind, out):
    """Each row's term of ``kind`` into ``out`` (float64 buffers of one block)."""
    d = np.subtract(p, t, out=out)
    np.abs(d, out=d)
    if kind == "smape":
        s = np.abs(t) + np.abs(p)
        with np.errstate(invalid="ignore", divide="ignore"):
            np.divide(d, s, out=d)
        d *= 200.0
        d[s == 0] = 0.0
    else:
        np.divide(d, np.maximum(np.abs(t), EPS), out=d)
    return d


def percentage_error(y_true, y_pred, kind="smape"):
    """SMAPE (percent) or MAPE (fraction) of 1-D truth and predictions.

    >>> round(percentage_error([100.0, 0.0], [110.0, 0.0], "smape").score, 6)
    4.761905
    >>> percentage_error([2.0, 4.0], [1.0, 5.0], "mape").score
    0.375
    """
    t = np.asarray(y_true, dtype=np.float64).ravel()
    p = np.asarray(y_pred, dtype=np.float64).ravel()
    n = t.size
    buf = np.empty(min(n, BLOCK))
    total = 0.0
    for a in range(0, n, BLOCK):
        total += float(np.add.reduce(_terms(t[a:a + BLOCK], p[a:a + BLOCK], kind, buf[:min(BLOCK, n - a)])))

    def values():
        out = np.empty(n)
        for a in range(0, n, BLOCK):
            _terms(t[a:a + BLOCK], p[a:a + BLOCK], kind, out[a:a + BLOCK])
        return out
    zero = int(n - np.count_nonzero(t))
    return lazy_result(total, n, values, kind, truth_zero=zero)
