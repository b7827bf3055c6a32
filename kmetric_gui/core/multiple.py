"""Several comparisons at once: Holm's step-down adjustment of p-values.

With m pairs tested, some p-value is small by chance alone; Holm (1979)
controls the chance of any false "different" at the test's level, for any
dependence between the tests: sort the p-values, multiply the i-th smallest
by (m - i + 1), carry the running maximum, cap at 1.
"""
from __future__ import annotations

import numpy as np


def holm(pvalues):
    """Holm-adjusted p-values in the input order; nan entries stay nan and are not counted."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out[order] = adj
    return out
