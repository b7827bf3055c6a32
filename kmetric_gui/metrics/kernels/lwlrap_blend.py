"""LwLRAP of alpha*A + (1-alpha)*B for many alpha at once (the metric's blend hook).

For a positive (sample i, class j) and another class k, "k ranks at
or above j" depends on alpha through dB + alpha*(dA - dB) (dA = A[i,k] -
A[i,j], dB likewise), which is linear: it holds on a prefix or a suffix of
the sorted alphas. So each (positive, class) pair adds one or two events to
a difference array and one cumulative sum gives every rank at every alpha.
Pairs whose blended scores come within rounding of each other at some alpha
are decided on the float blends themselves, as the plain loop decides them.
"""
import numpy as np

from ...core.blend import _curve, check_alphas
from ...errors import InputError

_BLOCK = 1 << 20          # (positive, class) pairs per block
DENSE_FROM = 1 / 6        # flips per (positive, alpha) cell above which the dense table is used
_EPS = 64 * np.finfo(np.float64).eps


def lwlrap_blend(truth, a, b, alphas=None, *, ties="worst"):
    """LwLRAP of each blend alpha*a + (1-alpha)*b; truth (n, C) 0/1, a and b (n, C) scores."""
    al = check_alphas(np.linspace(0, 1, 101) if alphas is None else alphas)
    t = np.asarray(truth).astype(bool)
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if t.shape != a.shape or a.shape != b.shape or t.ndim != 2:
        raise InputError(f"truth and both score tables must have one shape; got "
                         f"{t.shape}, {a.shape}, {b.shape}")
    g, c = al.size, t.shape[1]
    rows, cols = np.nonzero(t)
    total = np.zeros(g)
    # Bound on rounding in a difference of two blended scores.
    tol = _EPS * max(np.abs(a).max(initial=0), np.abs(b).max(initial=0))
    uniform = g > 2 and np.allclose(al, np.linspace(al[0], al[-1], g), rtol=0, atol=1e-15)
    step = max(1, _BLOCK // max(c, 1))
    for s in range(0, rows.size, step):
        total += _precision_sums(t, a, b, rows[s:s + step], cols[s:s + step], al, ties, uniform, tol)
    scores = total / rows.size if rows.size else np.full(g, np.nan)
    return _curve(al, scores)


def _precision_sums(t, a, b, rows, cols, al, ties, uniform, tol):
    """Sum over the given positives of hits/rank at every alpha."""
    p, g = rows.size, al.size
    ar, br = a[rows], b[rows]                              # (p, C)
    da = ar - ar[np.arange(p), cols][:, None]
    db = br - br[np.arange(p), cols][:, None]
    hit = t[rows]
    # f(alpha) = db + alpha * (da - db) lies between da and db on [0, 1]: pairs clear of
    # 0 by more than rounding rank the same way at every alpha.
    above = np.minimum(da, db) > tol
    mixed = np.maximum(da, db) >= -tol
    mixed &= ~above
    r0 = above.sum(axis=1).astype(np.float64)      # pairs above at every alpha
    above &= hit
    h0 = above.sum(axis=1).astype(np.float64)
    r, q = np.nonzero(mixed)
    da, db = da[r, q], db[r, q]
    tie_ok = np.ones(r.size, bool) if ties == "worst" else q >= cols[r]
    const_tie = (da == 0) & (db == 0)
    slope = da - db
    flat = slope == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        root = db / (db - da)                  # f is 0 here
    root[flat] = 0.0
    if uniform:
        # Grid index arithmetic: off by one only within rounding of a grid point,
        # and there |f| is tiny, so the pair is decided exactly below.
        h = (al[-1] - al[0]) / (g - 1)
        u = (root - al[0]) / h
        pos = np.clip(np.ceil(u), 0, g).astype(np.intp)
        near = np.abs(db + (al[0] + np.clip(np.rint(u), 0, g - 1) * h) * slope)
    else:
        pos = np.searchsorted(al, root)        # alphas below the root
        # |f| is smallest at the grid points next to the root.
        k = np.clip(pos, 1, max(g - 1, 1))
        near = np.minimum(np.abs(db + al[k - 1] * slope),
                          np.abs(db + al[np.minimum(k, g - 1)] * slope))
    near[flat] = np.abs(db[flat])
    exact = near <= tol
    exact &= ~const_tie
    # Spans of alphas where class q ranks at or above the positive: [pos, G) when
    # f rises, [0, pos) when it falls.
    up = slope > 0
    start = np.where(up, pos, 0)
    stop = np.where(up, g, pos)
    stop[flat] = np.where(db[flat] > 0, g, 0)
    stop[const_tie] = np.where(tie_ok[const_tie], g, 0)
    stop[exact] = 0
    start[exact] = 0
    hq = hit[r, q]
    cond = None
    if exact.any():
        e = np.flatnonzero(exact)
        re, qe = r[e], q[e]
        x = al[None, :]
        bk = x * ar[re, qe][:, None] + (1 - x) * br[re, qe][:, None]
        je = cols[re]
        bjj = x * ar[re, je][:, None] + (1 - x) * br[re, je][:, None]
        cond = (bk > bjj) | ((bk == bjj) & tie_ok[e][:, None])    # (e, G)
    exact = None if cond is None else (re, hq[e], cond)
    span = start < stop
    events = np.count_nonzero(span & (start > 0)) + np.count_nonzero(span & (stop < g))
    if events > DENSE_FROM * p * g:    # many pairs cross: a dense (positives, alphas) table is cheaper
        return _dense_sums(r0, h0, r, start, stop, hq, exact, p, g)
    return _event_sums(r0, h0, r, start, stop, hq, span, exact, p, g)


def _dense_sums(r0, h0, r, start, stop, hq, exact, p, g):
    start = start + r * (g + 1)
    stop = stop + r * (g + 1)
    ranks = _spans(start, stop, p, g) + r0[:, None]
    hits = _spans(start[hq], stop[hq], p, g) + h0[:, None]
    if exact is not None:
        re, he, cond = exact
        ranks += _add_rows(re, cond, p, g)
        hits += _add_rows(re, cond & he[:, None], p, g)
    return (hits / ranks).sum(axis=0)


def _event_sums(r0, h0, r, start, stop, hq, span, exact, p, g):
    """Rank and hits at the first alpha, then only the alphas where a pair flips."""
    first = span & (start == 0)
    r0 = r0 + np.bincount(r[first], minlength=p)
    h0 = h0 + np.bincount(r[first & hq], minlength=p)
    on, off = span & (start > 0), span & (stop < g)
    rows = [r[on], r[off]]
    where = [start[on], stop[off]]
    step = [np.ones(int(on.sum())), -np.ones(int(off.sum()))]
    hstep = [hq[on].astype(np.float64), -hq[off].astype(np.float64)]
    if exact is not None:
        re, he, cond = exact
        r0 += np.bincount(re, weights=cond[:, 0], minlength=p)
        h0 += np.bincount(re, weights=cond[:, 0] & he, minlength=p)
        flips = np.diff(cond.astype(np.int8), axis=1)
        fe, fg = np.nonzero(flips)
        d = flips[fe, fg].astype(np.float64)
        rows.append(re[fe])
        where.append(fg + 1)
        step.append(d)
        hstep.append(d * he[fe])
    return _curve_sums(r0, h0, np.concatenate(rows), np.concatenate(where), np.concatenate(step),
                       np.concatenate(hstep), g)


def _curve_sums(r0, h0, rows, where, step, hstep, g):
    """Sum over positives of hits/rank at every alpha, from the values at the first alpha
    and the changes (row, alpha index, rank step, hits step)."""
    base = float((h0 / r0).sum())
    out = np.zeros(g)
    if rows.size:
        code = rows * g + where
        order = np.argsort(code, kind="stable")
        code = code[order]
        first = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        dr = np.add.reduceat(step[order], first)
        dh = np.add.reduceat(hstep[order], first)
        code = code[first]
        row, pos = code // g, code % g
        # Cumulative steps within each positive's run of events.
        new = np.r_[True, row[1:] != row[:-1]]
        run = np.cumsum(new) - 1
        cr, ch = np.cumsum(dr), np.cumsum(dh)
        starts = np.flatnonzero(new)
        cr -= (cr[starts] - dr[starts])[run]
        ch -= (ch[starts] - dh[starts])[run]
        after = (h0[row] + ch) / (r0[row] + cr)
        before = np.where(new, h0[row] / r0[row], np.r_[0.0, after[:-1]])
        out = np.bincount(pos, weights=after - before, minlength=g)
    return base + np.cumsum(out)


def _spans(start, stop, p, g):
    """(p, g) counts: each (start, stop) pair of codes row*(g+1)+alpha adds 1 on [start, stop)."""
    n = p * (g + 1)
    diff = np.bincount(start.ravel(), minlength=n) - np.bincount(stop.ravel(), minlength=n)
    return np.cumsum(diff.reshape(p, g + 1), axis=1)[:, :g]


def _add_rows(r, flags, p, g):
    rr, gg = np.nonzero(flags)
    return np.bincount(r[rr] * g + gg, minlength=p * g).reshape(p, g)
