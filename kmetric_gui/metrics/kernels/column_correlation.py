"""One column's correlation (Pearson's r, Spearman's rho, Kendall's tau-b), shared by the
score (metrics/kernels/correlation.py) and its statistics, which score each replicate
(metrics/kernels/correlation_stats.py)."""
import numpy as np

from .ranks import inversions, midranks, pair_order, rank

BLOCK = 1 << 15


def _pearson(x, y):
    """Pearson's r in one pass over blocks in the cache: the five sums of the values shifted
    by the first row's (a column of one value sums to exact zeros: no correlation)."""
    x0, y0 = float(x[0]), float(y[0])
    n = x.size
    bx, by = np.empty(min(n, BLOCK)), np.empty(min(n, BLOCK))
    sx = sy = sxx = syy = sxy = 0.0
    for a in range(0, n, BLOCK):
        m = min(BLOCK, n - a)
        dx, dy = bx[:m], by[:m]
        np.subtract(x[a:a + m], x0, out=dx)
        np.subtract(y[a:a + m], y0, out=dy)
        sx += float(np.add.reduce(dx))
        sy += float(np.add.reduce(dy))
        sxx += float(np.einsum("i,i->", dx, dx))
        syy += float(np.einsum("i,i->", dy, dy))
        sxy += float(np.einsum("i,i->", dx, dy))
    vx, vy = sxx - sx * sx / n, syy - sy * sy / n
    if sxx == 0 or syy == 0 or not (vx > 0 and vy > 0):
        return float("nan")
    return float(np.clip((sxy - sx * sy / n) / np.sqrt(vx * vy), -1.0, 1.0))


def column_correlation(kind, x, y):
    """One column's correlation (nan with one distinct value on either side)."""
    n = x.size
    if n < 2:
        return float("nan")
    if kind == "pearson":
        return _pearson(x, y)
    if x.min() == x.max() or y.min() == y.max():
        return float("nan")
    if kind == "spearman":
        m = (n + 1) / 2.0
        dx, dy = midranks(x), midranks(y)
        dx -= m
        dy -= m
        r = float(np.einsum("i,i->", dx, dy)) / np.sqrt(
            float(np.einsum("i,i->", dx, dx)) * float(np.einsum("i,i->", dy, dy)))
        return float(np.clip(r, -1.0, 1.0))
    rx, ry = rank(x), rank(y)
    return kendall_from_ranks(rx, ry)


def kendall_from_ranks(rx, ry):
    """Kendall's tau-b of two Ranked columns (scipy's tie handling)."""
    n = rx.n
    order, q = pair_order(rx, ry)
    dis = inversions(q)
    gx, gy = rx.group[order], ry.group[order]
    new = np.r_[True, (gx[1:] != gx[:-1]) | (gy[1:] != gy[:-1]), True]
    joint = np.diff(np.flatnonzero(new)).astype(np.int64)
    ntie = int((joint * (joint - 1) // 2).sum())
    xtie, ytie = rx.tie_pairs(), ry.tie_pairs()
    tot = n * (n - 1) // 2
    if xtie == tot or ytie == tot:
        return float("nan")
    s = tot - xtie - ytie + ntie - 2 * dis
    return float(np.clip(s / np.sqrt(float(tot - xtie)) / np.sqrt(float(tot - ytie)), -1.0, 1.0))
