"""Log loss of alpha*A + (1-alpha)*B (rows renormalised) for many alphas, from what does
not depend on alpha: each row's true-class values and sums of A and B, and the few
values a clip can change.

Renormalised, a blended value is (alpha*a + (1-alpha)*b) / (alpha*Sa + (1-alpha)*Sb):
it lies between a/Sa and b/Sb, so it can fall outside [eps, 1 - eps] only where a/Sa or
b/Sb does. Those values are gathered once; every alpha then costs a few passes over the
rows instead of several over the (n, C) matrix (21 alphas on 1M x 4: 6.3 s by scoring each
blended matrix, bench/blends.py).
"""
import numpy as np

BLOCK = 1 << 16     # values a block of rows


def blend_losses(codes, a, b, eps):
    """A function alpha -> per-row losses (n,) of the renormalised blend, exactly as the
    kernel scores the blended matrix (clip to [eps, 1 - eps], renormalise, -log of the
    true class); None where this shortcut does not apply (a row summing to 0, values
    outside [0, 1]: the kernel's own path says why)."""
    n, c = a.shape
    codes = np.asarray(codes, np.int64)
    flat = np.arange(n, dtype=np.int64) * c + codes
    at, bt = np.take(a, flat), np.take(b, flat)
    sa, sb = np.einsum("ij->i", a), np.einsum("ij->i", b)
    if not (sa.min(initial=1.0) > 0 and sb.min(initial=1.0) > 0):
        return None
    rows, va, vb = [], [], []
    step = max(1, BLOCK // c)
    for s in range(0, n, step):
        xa, xb = a[s:s + step], b[s:s + step]
        if xa.min() < 0 or xb.min() < 0 or xa.max() > 1 or xb.max() > 1:
            return None
        ra, rb = xa / sa[s:s + step, None], xb / sb[s:s + step, None]
        near = (np.minimum(ra, rb) < eps) | (np.maximum(ra, rb) > 1.0 - eps)
        r, j = np.nonzero(near)
        rows.append(r + s)
        va.append(xa[r, j])
        vb.append(xb[r, j])
    rows, va, vb = np.concatenate(rows), np.concatenate(va), np.concatenate(vb)

    def losses(alpha):
        t = alpha * sa + (1.0 - alpha) * sb
        pt = (alpha * at + (1.0 - alpha) * bt) / t
        with np.errstate(divide="ignore", invalid="ignore"):
            if rows.size == 0:
                out = np.log(pt)
            else:
                p = (alpha * va + (1.0 - alpha) * vb) / t[rows]
                sums = 1.0 + np.bincount(rows, np.clip(p, eps, 1.0 - eps) - p, minlength=n)
                out = np.log(np.clip(pt, eps, 1.0 - eps) / sums)
        return np.negative(out, out=out)
    return losses
