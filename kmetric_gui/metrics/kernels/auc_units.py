"""AUC by row: each row's share of the score, where two rankings differ, and which rows
to move to their ideal rank first.

For a column with n1 positives and n0 negatives, a positive-negative pair is
right when the positive scores higher (a tie counts one half); AUC = right
pairs / (n1 n0). A positive's pairs are the negatives, a negative's the
positives; giving each row half of its right pairs makes the rows' shares sum
to the AUC, so A and B compare row by row. A fix moves a row to its ideal rank
(a positive above every negative, a negative below every positive): all its
pairs become right. Two fixed rows share one pair, so the score after several
fixes subtracts, per column, the wrong pairs between fixed positives and fixed
negatives: exact, from counts (nothing is sorted again). Multi-class (one vs
rest) and multi-label: the mean over the columns that have both classes.
"""
from dataclasses import dataclass

import numpy as np

from .ranking import _truth_columns


@dataclass(frozen=True)
class RowPairs:
    """Per row and column: wrong pairs (a tie one half) and pairs in all."""
    truth: np.ndarray         # (n, C) bool
    scores: np.ndarray        # (n, C)
    wrong: np.ndarray         # (n, C) wrong pairs of the row in the column (0 where skipped)
    pairs: np.ndarray         # (C,) n1 * n0 (0: column skipped)
    # Row weights (weighted AUC): a pair then counts w_i w_j; ``wrong`` and ``pairs`` are
    # weighted (wrong: the row's own weight times the weight it orders wrong).
    weights: "np.ndarray | None" = None

    @property
    def used(self):
        return self.pairs > 0

    def score(self):
        """The AUC from the counts (the mean over the used columns)."""
        u = self.used
        if not u.any():
            return float("nan")
        tot_wrong = (self.wrong * self.truth).sum(axis=0)[u]   # each wrong pair once (positives)
        return float(np.mean(1.0 - tot_wrong / self.pairs[u]))

    def shares(self):
        """(n,) each row's share of the AUC: half its right pairs over n1 n0, column mean."""
        u = self.used
        if not u.any():
            return np.zeros(self.truth.shape[0])
        if self.weights is None:
            n1 = self.truth[:, u].sum(axis=0)
            n0 = self.truth.shape[0] - n1
            own = np.where(self.truth[:, u], n0, n1)            # pairs of each row
        else:
            w = self.weights
            n1 = (w[:, None] * self.truth[:, u]).sum(axis=0)
            n0 = w.sum() - n1
            own = w[:, None] * np.where(self.truth[:, u], n0, n1)
        right = own - self.wrong[:, u]
        return (0.5 * right / self.pairs[u]).sum(axis=1) / u.sum()


def row_pairs(truth, scores, weights=None):
    """RowPairs of a binary, multi-class or multi-label AUC layout (``weights``: of rows)."""
    t, s, _ = _truth_columns(truth, scores)
    n, c = t.shape
    if weights is not None:
        from .weighted_auc import check_weights, weighted_wrong
        w = check_weights(weights, n)
        wrong = np.zeros((n, c))
        pairs = np.zeros(c)
        for j in range(c):
            wj, w1, w0 = weighted_wrong(t[:, j], s[:, j], w)
            if w1 > 0 and w0 > 0:
                wrong[:, j], pairs[j] = wj, w1 * w0
        return RowPairs(t, s, wrong, pairs, w)
    wrong = np.zeros((n, c))
    pairs = np.zeros(c)
    for j in range(c):
        pos, col = t[:, j], s[:, j]
        n1 = int(pos.sum())
        n0 = n - n1
        if n1 == 0 or n0 == 0:
            continue
        pairs[j] = float(n1) * float(n0)
        sn, sp = np.sort(col[~pos]), np.sort(col[pos])
        x = col[pos]          # positives: negatives above, ties one half
        above = n0 - np.searchsorted(sn, x, side="right")
        tied = np.searchsorted(sn, x, side="right") - np.searchsorted(sn, x, side="left")
        wrong[pos, j] = above + 0.5 * tied
        y = col[~pos]         # negatives: positives below, ties one half
        below = np.searchsorted(sp, y, side="left")
        tied = np.searchsorted(sp, y, side="right") - below
        wrong[~pos, j] = below + 0.5 * tied
    return RowPairs(t, s, wrong, pairs)


def _pair_wrong(rp, i, others, j):
    """(len(others),) wrong pairs (1, a tie 0.5) between row ``i`` and each of ``others``
    (rows of the other class in column ``j``)."""
    si, so = rp.scores[i, j], rp.scores[others, j]
    worse = so > si if rp.truth[i, j] else so < si
    out = worse + 0.5 * (so == si)
    return out if rp.weights is None else out * (rp.weights[i] * rp.weights[others])


def auc_fix_first(rp, top, pool=4):
    """(rows in greedy order, score after each): the rows whose move to their ideal rank
    gains most, each gain net of the pairs shared with rows fixed before it (exact)."""
    u = rp.used
    if not u.any():
        return np.zeros(0, np.int64), np.zeros(0)
    cols = np.flatnonzero(u)
    weight = 1.0 / (rp.pairs[cols] * cols.size)             # one pair's worth, per column
    single = (rp.wrong[:, cols] * weight).sum(axis=1)
    cand = np.flatnonzero(single > 0)
    cand = cand[np.argsort(-single[cand], kind="stable")][:max(top * pool, top)]
    gain = single[cand].copy()
    score = rp.score()
    picked, after = [], []
    alive = np.ones(cand.size, bool)
    while len(picked) < top and alive.any():
        k = int(np.flatnonzero(alive)[np.argmax(gain[alive])])
        if gain[k] <= 0:
            break
        i = int(cand[k])
        score += gain[k]
        picked.append(i)
        after.append(score)
        alive[k] = False
        for jj, j in enumerate(cols):
            # Candidates of the other class in this column lose their pair with row i.
            rest = np.flatnonzero(alive)
            other = rest[rp.truth[cand[rest], j] != rp.truth[i, j]]
            if other.size:
                gain[other] -= _pair_wrong(rp, i, cand[other], j) * weight[jj]
    return np.asarray(picked, np.int64), np.asarray(after, np.float64)


def fixed_scores(truth, scores, rows):
    """Scores with ``rows`` moved to their ideal rank in every column (what a fix is)."""
    t, s, binary = _truth_columns(truth, scores)
    out = np.array(scores, dtype=np.float64, copy=True)
    rows = np.asarray(rows, dtype=np.int64)
    if not rows.size:
        return out
    hi, lo = s.max(axis=0) + 1.0, s.min(axis=0) - 1.0
    fixed = np.where(t[rows], hi[None, :], lo[None, :])
    if binary:
        out[rows] = fixed[:, 0]
    else:
        out[rows] = fixed
    return out


def score_bands(rp_a, rp_b, bands=10):
    """Where the pairs move, by A's score: rows banded by their rank under A (column
    mean), with each band's net pairs B orders right that A did not, and the reverse."""
    n = rp_a.truth.shape[0]
    if n == 0:
        return ()
    u = rp_a.used
    gained = (rp_a.wrong - rp_b.wrong)[:, u].sum(axis=1)     # > 0: B has fewer wrong pairs
    rank = np.argsort(np.argsort(rp_a.scores[:, u].mean(axis=1) if u.any() else np.zeros(n),
                                 kind="stable"), kind="stable")
    band = (rank * bands) // max(n, 1)
    out = []
    for b in range(bands):
        inside = band == b
        if not inside.any():
            continue
        g = gained[inside]
        lo = 100 * b // bands
        out.append((f"A's score: {lo}–{lo + 100 // bands}% (lowest first)", int(inside.sum()),
                    float(g[g > 0].sum()), float(-g[g < 0].sum())))
    return tuple(out)


def average_ranks(x):
    """Ranks 1..n of each column of ``x`` ((n,) or (n, C)), ties sharing their mean rank,
    divided by n: what AUC reads of a score, on one scale for any two submissions."""
    x = np.asarray(x, dtype=np.float64)
    flat = x.reshape(x.shape[0], -1)
    n = flat.shape[0]
    out = np.empty((flat.shape[1], n))         # a row per column: contiguous scatters
    for j in range(flat.shape[1]):
        col = np.ascontiguousarray(flat[:, j])
        order = np.argsort(col)                # any order within ties: they share a rank
        xs = col[order]
        new = np.empty(n, dtype=bool)
        if n:
            new[0] = True
            np.not_equal(xs[1:], xs[:-1], out=new[1:])
        start = np.flatnonzero(new)
        end = np.empty_like(start)
        end[:-1] = start[1:]
        end[-1:] = n
        mid = ((start + end + 1) / 2.0) / max(n, 1)
        out[j, order] = mid if start.size == n else mid[np.cumsum(new) - 1]
    return out.T.reshape(x.shape)


def rank_blend(ranks_a, ranks_b, alpha):
    """The blend of two submissions' rank scales (``average_ranks``): alpha*A + (1-alpha)*B."""
    return alpha * ranks_a + (1 - alpha) * ranks_b
