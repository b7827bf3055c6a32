"""KL divergence of predicted class probabilities from true ones, as Kaggle's HMS Harmful
Brain Activity metric computes it (lower is better):

* predictions clipped to [eps, 1 - eps] (not renormalised), the truth as given;
* a term t * log(t / p) per class, 0 where the truth t is 0 (scipy's rel_entr);
* micro average: the mean over rows of each row's sum; otherwise the mean over
  classes of each class's mean (the micro value / classes).

Both are means of one number per row (kernels/means.py).
"""
from __future__ import annotations

import numpy as np

from .means import lazy_result

BLOCK = 1 << 14


def row_divergence(t, p, eps, out=None, buf=None):
    """Sum over classes of t log(t / clip(p)) for one block (t, p (rows, C)): each row's into
    ``out`` (rows,), else the block's total. Where t is 0 the ratio t / p is 0 and no
    logarithm is taken (the term stays 0)."""
    q = np.clip(p, eps, 1.0 - eps, out=buf)
    np.divide(t, q, out=q)
    np.log(q, out=q, where=t > 0)
    q *= t
    if out is None:
        return float(np.add.reduce(q, axis=None))
    np.sum(q, axis=1, out=out)
    return None


def kl_divergence(y_true, y_pred, eps=1e-15, micro_average=True):
    """KL divergence (n, C) truth fractions and predictions.

    >>> round(kl_divergence([[0, 1], [1, 0], [1, 0], [0, 1]],
    ...                     [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]).score, 6)
    0.216162
    """
    t = np.asarray(y_true, dtype=np.float64)
    p = np.asarray(y_pred, dtype=np.float64)
    n, c = t.shape
    buf = np.empty((min(n, BLOCK), c))
    total = sum(row_divergence(t[a:a + BLOCK], p[a:a + BLOCK], eps, buf=buf[:min(BLOCK, n - a)])
                for a in range(0, n, BLOCK))
    scale = 1.0 if micro_average else 1.0 / c

    def values():
        out = np.empty(n)
        for a in range(0, n, BLOCK):
            row_divergence(t[a:a + BLOCK], p[a:a + BLOCK], eps, out[a:a + BLOCK])
        return out * scale if scale != 1.0 else out
    return lazy_result(total * scale, n, values, "kl_divergence", eps=float(eps),
                       micro_average=bool(micro_average), classes=int(c), truth=t)
