"""Kappa of ratings(alpha*A + (1-alpha)*B) for many alpha at once (the metric's blend hook)."""
import numpy as np

from ...core.blend import _curve, check_alphas
from ...errors import InputError
from .kappa import weight_matrix
from .kappa import kappa_rows


def kappa_blend(truth, a, b, cuts, alphas=None, *, min_rating=None, weights="quadratic"):
    """Kappa of ratings(alpha*a + (1-alpha)*b) for every alpha.

    truth: integer ratings; a, b: continuous predictions; cuts: sorted cut
    points, rating = min_rating + searchsorted(cuts, x, side="right").
    """
    al = check_alphas(np.linspace(0, 1, 101) if alphas is None else alphas)
    cuts = np.asarray(cuts, dtype=np.float64).ravel()
    if cuts.size and (np.diff(cuts) < 0).any():
        raise InputError("cut points must be sorted ascending")
    t = np.asarray(truth, dtype=np.int64).ravel()
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if not (t.size == a.size == b.size):
        raise InputError(f"truth and both predictions differ in length: {t.size}, {a.size}, {b.size}")
    if min_rating is not None:
        lo = int(min_rating)
    else:
        lo = int(t.min()) if t.size else 0
    k = cuts.size + 1
    tc = t - lo
    if tc.size and (tc.min() < 0 or tc.max() >= k):
        raise InputError(f"truth ratings must lie in {lo}..{lo + k - 1} for {cuts.size} cut points")
    g = al.size
    counts = np.zeros(g * k * k, dtype=np.int64)
    x = al[:, None]
    step = max(1, (1 << 22) // g)
    for s in range(0, t.size, step):
        blend = x * a[None, s:s + step] + (1 - x) * b[None, s:s + step]     # (G, rows)
        r = np.searchsorted(cuts, blend, side="right")
        code = (np.arange(g)[:, None] * k + tc[None, s:s + step]) * k + r
        counts += np.bincount(code.ravel(), minlength=g * k * k)
    return _curve(al, kappa_rows(counts.reshape(g, k * k), weight_matrix(k, weights)))
