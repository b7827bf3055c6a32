"""AUC after a few rows change: each moved row's pairs are counted again.

2U of a column counts, over every positive-negative pair, 2 when the positive
scores higher and 1 on a tie. A row (y, s) takes part in the pairs of the
other class only: a positive in 2 * #negatives below s + #negatives at s, a
negative in 2 * #positives above s + #positives at s. So when one row moves
from (y0, s0) to (y1, s1), 2U changes by its pairs at the new place minus its
pairs at the old one, both counted among the other rows; the class sizes move
by one and the ties likewise. Counting the other rows is two binary searches
in the loaded scores of a class (kept apart and sorted once, ``ClassScores``),
corrected for the rows edited before (``touched``): O(log rows + edited rows)
a moved row, integers throughout (exact).
"""
import numpy as np


class ClassScores:
    """One column's loaded scores of some rows, positives and negatives apart, sorted
    (made once, at the data's first edit): a count is two binary searches."""

    def __init__(self, scores, positive, rows=None):
        s = np.asarray(scores, dtype=np.float64)
        y = np.asarray(positive, dtype=bool)
        if rows is not None:              # a boolean mask of the rows kept
            y, keep = y & rows, ~y & rows
        else:
            keep = ~y
        self.pos, self.neg = np.sort(s[y]), np.sort(s[keep])

    def counts(self, positive, x):
        """(below x, at x, above x) among the loaded scores of that class."""
        arr = self.pos if positive else self.neg
        below = int(np.searchsorted(arr, x, "left"))
        at = int(np.searchsorted(arr, x, "right")) - below
        return below, at, arr.size - below - at


def _place(s, x):
    return (s < x, s == x, s > x)


def update_column(parts, touched, moves, u2, n1, n0, ties):
    """2U, positives, negatives and tied pairs of one column after ``moves``.

    parts: ClassScores of the loaded data (a split may be several parts: Public and
    Private); touched: {row: (loaded y, loaded s, current y, current s)} of the rows whose
    current value differs from the loaded one (updated here as rows move); moves: [(row,
    (y0, s0) current, (y1, s1) new, (loaded y, loaded s))], applied in order.
    Returns (u2, n1, n0, ties) as Python integers.
    """
    for row, (y0, s0), (y1, s1), (yb, sb) in moves:
        y0, y1, s0, s1 = bool(y0), bool(y1), float(s0), float(s1)
        if y0 == y1 and s0 == s1:
            continue

        def others(positive, x):
            """(below, at, above) of the class among every row but this one, as they are now."""
            c = np.zeros(3, dtype=np.int64)
            for p in parts:
                c += p.counts(positive, x)
            for _, (ly, ls, cy, cs) in touched.items():
                if bool(ly) == positive:
                    c -= _place(float(ls), x)
                if bool(cy) == positive:
                    c += _place(float(cs), x)
            if y0 == positive:                       # this row itself, as it is now
                c -= _place(s0, x)
            return c

        def pairs(y, s):
            if y:
                below, at, _ = others(False, s)
                return 2 * int(below) + int(at), int(at)
            _, at, above = others(True, s)
            return 2 * int(above) + int(at), int(at)
        p0, t0 = pairs(y0, s0)
        p1, t1 = pairs(y1, s1)
        u2 += p1 - p0
        ties += t1 - t0
        n1 += int(y1) - int(y0)
        n0 += int(y0) - int(y1)
        if bool(yb) == y1 and float(sb) == s1:
            touched.pop(row, None)                   # back to the loaded value
        else:
            touched[row] = (bool(yb), float(sb), y1, s1)
    return u2, n1, n0, ties


def twice_u(auc, n1, n0):
    """2U of a column from its AUC (u2 / (2 n1 n0)), exact while 2 n1 n0 < 2**51; None
    beyond (the AUC then holds too few digits to give it back)."""
    if not (n1 and n0):
        return 0
    pairs = 2 * int(n1) * int(n0)
    if pairs >= 1 << 51:
        return None
    return int(round(float(auc) * pairs))
