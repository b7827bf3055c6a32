"""Laplace log likelihood, as the OSIC Pulmonary Fibrosis competition scores it (higher is
better; 0 is out of reach, about -6.5 is a good score there):

    sigma = max(confidence, 70),  delta = min(|truth - prediction|, 1000),
    row   = -sqrt(2) delta / sigma - log(sqrt(2) sigma),  score = mean of the rows.

The clip values are options (``sigma_min``, ``error_max``). A fix sets a row's
prediction to its truth and its confidence to sigma_min: the best a row can score.
"""
from __future__ import annotations

import numpy as np

from .means import mean_result

SQRT2 = float(np.sqrt(2.0))
BLOCK = 1 << 15


def best_row(sigma_min=70.0):
    """The best value a row can take: exact prediction, the least allowed sigma."""
    return -float(np.log(SQRT2 * sigma_min))


def laplace_log_likelihood(y_true, y_pred, confidence, sigma_min=70.0, error_max=1000.0):
    """Mean Laplace log likelihood.

    >>> round(laplace_log_likelihood([2000.0], [2100.0], [100.0]).score, 6)
    -6.365957
    """
    t = np.asarray(y_true, dtype=np.float64).ravel()
    p = np.asarray(y_pred, dtype=np.float64).ravel()
    c = np.asarray(confidence, dtype=np.float64).ravel()
    n = t.size
    values = np.empty(n)
    for a in range(0, n, BLOCK):
        b = slice(a, a + BLOCK)
        sigma = np.maximum(c[b], sigma_min)
        v = values[b]
        np.subtract(t[b], p[b], out=v)
        np.abs(v, out=v)
        np.minimum(v, error_max, out=v)
        v *= -SQRT2
        v /= sigma
        sigma *= SQRT2
        v -= np.log(sigma, out=sigma)
    clipped = int(np.count_nonzero(c < sigma_min))
    return mean_result(values, "laplace_ll", higher_is_better=True,
                       sigma_clipped=clipped, sigma_min=float(sigma_min),
                       error_max=float(error_max))
