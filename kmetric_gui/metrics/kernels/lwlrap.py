"""Label-weighted label-ranking average precision (LwLRAP).

For each positive (sample i, class j) the precision is
    hits(i, j) / rank(i, j)
where rank counts the classes ranked at or above j and hits the true ones
among them. Instead of sorting every row, each positive is compared with its
row's scores directly: O(positives x classes), no loop over samples.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...core._checks import as_numeric, check_finite, check_option

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

TIES = ("worst", "original")
_BLOCK = 1 << 18  # elements per block (checks, comparisons): temporaries of a few MB at any size


@dataclass(frozen=True)
class LwlrapResult:
    score: float                  # nan when there is no positive label
    per_class: np.ndarray         # (C,) mean precision over the class's positives
    class_weights: np.ndarray     # (C,) share of all positive labels
    n_positives: int
    tied_positives: int           # positives whose score equals another class's
    positive_rows: np.ndarray     # (P,) sample of each positive
    positive_classes: np.ndarray  # (P,) class of each positive
    precisions: np.ndarray        # (P,) precision of each positive
    ranks: np.ndarray             # (P,) rank (1 = top) used for each positive
    sample_scores: np.ndarray     # (N,) mean precision per sample, nan if none
    ties: str = "worst"
    undefined_reason: "str | None" = None

    @property
    def class_positives(self):
        return np.bincount(self.positive_classes, minlength=self.per_class.size)

    @property
    def sample_contributions(self):
        """Each sample's share of the overall score (sums to the score)."""
        if self.n_positives == 0:
            return np.zeros_like(self.sample_scores)
        sums = np.bincount(self.positive_rows, weights=self.precisions,
                           minlength=self.sample_scores.size)
        return sums / self.n_positives


def _check_inputs(truth, scores):
    t = as_numeric(truth, "truth")
    s = as_numeric(scores, "scores")
    if t.ndim != 2 or s.ndim != 2:
        raise InputError(f"truth and scores must be 2-D (samples x classes); "
                         f"got {t.ndim}-D and {s.ndim}-D")
    if t.shape != s.shape:
        raise InputError(f"truth and scores differ in shape: {t.shape} vs {s.shape}")
    # Checked in row blocks (no (n, C) temporaries); a fault is then named as before.
    step = max(1, _BLOCK // max(t.shape[1], 1))
    for a in range(0, t.shape[0], step):
        tb, sb = t[a:a + step], s[a:a + step]
        if not (_finite(tb) and _finite(sb) and ((tb == 0) | (tb == 1)).all()):
            _name_fault(t, s)
    if t.dtype.itemsize == 1 and t.dtype.kind in "iu":
        t = t.view(bool)          # 0/1 bytes are bools: no copy of the truth
    else:
        t = t.astype(bool)
    return t, s.astype(np.float64, copy=False)


def _finite(block):
    return block.dtype.kind != "f" or bool(np.isfinite(block).all())


def _name_fault(t, s):
    check_finite(t, "truth")
    check_finite(s, "scores")
    bad = (t != 0) & (t != 1)
    i = int(np.flatnonzero(bad.ravel())[0])
    r, c = divmod(i, t.shape[1])
    raise InputError(f"truth must be 0/1; row {r}, column {c} has {t.ravel()[i].item()!r}")


def lwlrap(truth: ArrayLike, scores: ArrayLike, *, ties: str = "worst") -> LwlrapResult:
    """LwLRAP of a (samples x classes) 0/1 truth against real-valued scores.

    ties="worst": tied scores count as the worse rank (scikit-learn's rule).
    ties="original": the original code's order (stable sort, descending, so
    among equal scores the later column ranks first).

    >>> round(lwlrap([[1, 0, 1], [0, 1, 1]], [[.1, .7, .2], [.1, .7, .2]]).score, 6)
    0.791667
    """
    check_option("ties", ties, TIES)
    t, s = _check_inputs(truth, scores)
    n, c = t.shape
    rows, cols = np.nonzero(t)
    prec, ranks, tied = _positives(t, s, rows, cols, ties)
    return _result(rows, cols, prec, ranks, n, c, int(tied.sum()), ties)


def _positives(t, s, rows, cols, ties):
    """(precision, rank, tied flag) of the positives (rows, cols) of bool ``t``."""
    p, c = rows.size, s.shape[1]
    ranks = np.empty(p, dtype=np.int64)
    hits = np.empty(p, dtype=np.int64)
    tied = np.zeros(p, dtype=bool)
    step = max(1, _BLOCK // max(c, 1))
    col_idx = np.arange(c)
    for a in range(0, p, step):
        r, j = rows[a:a + step], cols[a:a + step]
        srow = s[r]                                # (b, C)
        sj = s[r, j][:, None]
        above = srow > sj
        equal = srow == sj
        tied[a:a + step] = equal.sum(axis=1) > 1
        if ties == "worst":
            at_or_above = above | equal
        else:
            at_or_above = above | (equal & (col_idx[None, :] >= j[:, None]))
        ranks[a:a + step] = at_or_above.sum(axis=1)
        hits[a:a + step] = (at_or_above & t[r]).sum(axis=1)
    return hits / np.maximum(ranks, 1), ranks, tied


def _result(rows, cols, prec, ranks, n, c, tied, ties):
    """The result from every positive (sample, class, precision, rank) in sample order."""
    p = rows.size
    counts = np.bincount(cols, minlength=c)
    sums = np.bincount(cols, weights=prec, minlength=c)
    per_class = sums / np.maximum(counts, 1)
    weights = counts / p if p else np.zeros(c)
    row_n = np.bincount(rows, minlength=n)
    with np.errstate(invalid="ignore", divide="ignore"):
        sample_scores = np.bincount(rows, weights=prec, minlength=n) / row_n
    if p:
        score, reason = float(prec.mean()), None
    else:
        score, reason = float("nan"), "no positive labels in the truth"
    return LwlrapResult(score, per_class, weights, int(p), int(tied),
                        rows, cols, prec, ranks, sample_scores, ties, reason)


def update_samples(result, samples, old_truth, old_scores, new_truth, new_scores):
    """``result`` after the samples ``samples`` (distinct indices) change from the old
    (k, C) truth and score rows to the new ones: only their positives are ranked
    again, the others are kept. Equal to scoring everything again, bit for bit.

    None when the old rows do not give the result's own positives (a result of
    other data) or a new row is not valid (the full score names the fault).
    """
    n, c = result.sample_scores.size, result.per_class.size
    samples = np.asarray(samples, dtype=np.int64)
    order = np.argsort(samples)
    samples = samples[order]
    rows = result.positive_rows
    lo = np.searchsorted(rows, samples, side="left")
    hi = np.searchsorted(rows, samples, side="right")
    mine = np.repeat(np.arange(samples.size), hi - lo)
    mine = (lo - np.r_[0, np.cumsum(hi - lo)[:-1]])[mine] + np.arange(mine.size)
    parts = []
    for truth, scores in ((old_truth, old_scores), (new_truth, new_scores)):
        truth, scores = np.asarray(truth)[order], np.asarray(scores, dtype=np.float64)[order]
        if (truth.shape != (samples.size, c) or scores.shape != truth.shape
                or not np.isfinite(scores).all() or not ((truth == 0) | (truth == 1)).all()):
            return None
        t = truth.astype(bool)
        r, j = np.nonzero(t)
        prec, ranks, tied = _positives(t, scores, r, j, result.ties)
        parts.append((samples[r], j, prec, ranks, int(tied.sum())))
    old, new = parts
    if not (np.array_equal(rows[mine], old[0]) and np.array_equal(result.positive_classes[mine], old[1])
            and np.array_equal(result.ranks[mine], old[3])
            and np.array_equal(result.precisions[mine], old[2])):
        return None
    keep = np.ones(rows.size, dtype=bool)
    keep[mine] = False
    kept = rows[keep]
    at = np.searchsorted(kept, new[0])      # where the sample's old positives were
    arrays = [np.insert(a[keep], at, b) for a, b in
              zip((rows, result.positive_classes, result.precisions, result.ranks), new[:4])]
    return _result(*arrays, n, c, result.tied_positives - old[4] + new[4], result.ties)


def sample_ranking(truth_row: ArrayLike, score_row: ArrayLike, *,
                   ties: str = "worst") -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One sample's classes ranked by score, for the per-sample walk-through.

    Returns (order, ranks, hits, precisions): ``order`` lists class indices
    best first in the chosen tie order; for each class its rank (1 = top),
    the true classes at or above it, and hits / rank (nan for negatives).
    """
    check_option("ties", ties, TIES)
    t, s = _check_inputs(np.atleast_2d(truth_row), np.atleast_2d(score_row))
    t, s = t[0], s[0]
    c = s.size
    above = s[None, :] > s[:, None]
    equal = s[None, :] == s[:, None]
    if ties == "worst":
        at_or_above = above | equal
        # Worst-rank display order: ties listed in column order.
        order = np.lexsort((np.arange(c), -s))
    else:
        at_or_above = above | (equal & (np.arange(c)[None, :] >= np.arange(c)[:, None]))
        order = np.argsort(s, kind="stable")[::-1]
    ranks = at_or_above.sum(axis=1)
    hits = (at_or_above & t[None, :]).sum(axis=1)
    prec = np.where(t, hits / ranks, np.nan)
    return order, ranks, hits, prec
