"""Most of a binary AUC's pair count without sorting: buckets by value.

Scores map to M buckets linearly by value, b = floor((s - min) * M / (max - min)).
Each step (subtract, multiply, truncate) is monotone, so equal scores share a
bucket and a higher bucket means a strictly higher score: a positive in a
higher bucket than a negative outranks it, and those pairs come from per-bucket
counts (positives times the negatives in lower buckets). Only pairs inside one
bucket need their values compared, and only buckets holding both classes have
such pairs; their rows (few when M is about 2n and the scores spread) go to the
exact sort kernel, whose count also holds their cross-bucket pairs: those are
counted once more from the same per-bucket counts and taken off. All counts are
integers, so the result is exact.
"""
from __future__ import annotations

import numpy as np

MIN_ROWS = 1 << 16      # below this a sort is cheap: the tables would not pay
PER_ROW = 2             # buckets per row; more leaves fewer mixed rows but costs memory
MAX_BUCKETS = 1 << 25  # caps the two count tables at 512 MB (rows beyond 16M share more)
PROBE = 64              # 1 row in PROBE estimates the mixed share before the full pass
MAX_MIXED = 0.5         # above this share the full pass + sort costs more than one sort


def _counts(b, y, m):
    """(negatives, positives) per bucket, int64."""
    c1 = np.bincount(b[y], minlength=m)
    c0 = np.bincount(b, minlength=m)
    c0 -= c1
    return c0, c1


def _cross(c0, c1):
    """Pairs whose positive sits in a higher bucket than the negative."""
    below = np.cumsum(c0)
    below -= c0
    return int(np.dot(c1, below))


def _buckets(s, lo, scale, m):
    v = np.subtract(s, lo, dtype=np.float64)   # float32 widens exactly
    v *= scale
    b = v.astype(np.intp)
    np.minimum(b, m - 1, out=b)                 # the maximum lands on m (or rounds past)
    return b


def split(y, s):
    """(2 x the cross-bucket pairs not among the returned rows, mixed rows as a
    boolean mask) or None when buckets cannot beat one sort: few rows, a
    non-finite or constant score, or most rows in buckets holding both classes.

    The caller adds 2U of the masked rows (exact, ties one half) to the first value.
    """
    n = s.size
    if n < MIN_ROWS:
        return None
    lo, hi = float(s.min()), float(s.max())
    span = hi - lo
    if not (np.isfinite(lo) and np.isfinite(hi) and np.isfinite(span) and span > 0):
        return None
    m = min(PER_ROW * n, MAX_BUCKETS)
    # The same bucket width on every PROBE-th row: the same rows per bucket, so
    # about the same mixed share, for 1/PROBE of the work.
    mp = max(m // PROBE, 1)
    yp = y[::PROBE]
    bp = _buckets(s[::PROBE], lo, mp / span, mp)
    p0, p1 = _counts(bp, yp, mp)
    if np.count_nonzero(((p0 > 0) & (p1 > 0))[bp]) > MAX_MIXED * bp.size:
        return None
    b = _buckets(s, lo, m / span, m)
    c0, c1 = _counts(b, y, m)
    cross = _cross(c0, c1)
    mixed = (c0 > 0) & (c1 > 0)
    rows = mixed[b]
    del b
    both = np.flatnonzero(mixed)          # their cross-bucket pairs, from their buckets alone
    return 2 * (cross - _cross(c0[both], c1[both])), rows
