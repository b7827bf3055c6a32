"""Matthews correlation coefficient (binary and multi-class), as scikit-learn computes it:
from the confusion matrix C (truth rows, prediction columns) with t = row sums,
p = column sums, c = trace, s = total,

    MCC = (c s - t.p) / sqrt((s^2 - p.p) (s^2 - t.t)),

and 0.0 when either factor under the root is 0 (one class in the truth or in the
predictions: scikit-learn's value, said in ``note``). Higher is better, -1 to 1.

The confusion cells hold everything, so a bootstrap replicate is a multinomial draw
over them (like accuracy's); per row, the statistics are (right, one-hot truth class,
one-hot predicted class), whose sums are (c, t, p).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.resample import Units
from .classification import encode


@dataclass(frozen=True)
class MccResult:
    score: float
    undefined_reason: "str | None"
    n: int
    labels: np.ndarray
    confusion: np.ndarray          # (K, K)
    truth_codes: np.ndarray        # (n,) index into labels
    pred_codes: np.ndarray
    note: "str | None" = None
    higher_is_better: bool = True

    def units(self):
        k = self.labels.size
        cells = self.confusion.ravel().astype(np.int64)
        ti, pj = np.divmod(np.arange(k * k), k)

        def score(counts):
            counts = np.asarray(counts, dtype=np.float64)
            c = counts[:, ti == pj].sum(axis=1)
            t = np.stack([counts[:, ti == a].sum(axis=1) for a in range(k)], axis=1)
            p = np.stack([counts[:, pj == a].sum(axis=1) for a in range(k)], axis=1)
            return mcc_from_sums(c, t, p)
        return Units(None, score, cells, "row")

    @property
    def row_stats(self):
        """(n, 1 + 2K): right, one-hot truth, one-hot prediction."""
        k, n = self.labels.size, self.n
        out = np.zeros((n, 1 + 2 * k))
        rows = np.arange(n)
        out[:, 0] = self.truth_codes == self.pred_codes
        out[rows, 1 + self.truth_codes] = 1.0
        out[rows, 1 + k + self.pred_codes] = 1.0
        return out


def mcc_from_sums(c, t, p):
    """(R,) MCC of summed statistics: right (R,), truth (R, K) and prediction (R, K) counts
    (nan with no rows, 0.0 with one class on either side)."""
    c = np.asarray(c, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    s = t.sum(axis=1)
    cov_tp = c * s - np.einsum("ij,ij->i", t, p)
    cov_pp = s * s - np.einsum("ij,ij->i", p, p)
    cov_tt = s * s - np.einsum("ij,ij->i", t, t)
    den = cov_pp * cov_tt
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, cov_tp / np.sqrt(den), 0.0)
    out[s == 0] = np.nan
    return np.clip(out, -1.0, 1.0)


def row_sums_score(k):
    """Score of summed row_stats (R, 1 + 2K)."""
    def score(sums):
        sums = np.asarray(sums, dtype=np.float64)
        return mcc_from_sums(sums[:, 0], sums[:, 1:1 + k], sums[:, 1 + k:])
    return score


def mcc(y_true, y_pred) -> MccResult:
    """Matthews correlation coefficient of two label arrays (numbers or text).

    >>> round(mcc([1, 1, 1, 0], [1, 0, 1, 1]).score, 6)
    -0.333333
    """
    labels, tc, pc = encode(y_true, y_pred)
    k, n = labels.size, int(tc.size)
    conf = np.bincount(tc * k + pc, minlength=k * k).reshape(k, k) if n else np.zeros((k, k), int)
    if n == 0:
        return MccResult(float("nan"), "no rows to score", 0, labels, conf, tc, pc)
    t, p = conf.sum(axis=1), conf.sum(axis=0)
    score = float(mcc_from_sums([np.trace(conf)], t[None, :], p[None, :])[0])
    return MccResult(score, None, n, labels, conf, tc, pc, one_class_note(t, p))


def one_class_note(t, p):
    """The note of a confusion whose truth (row sums ``t``) or predictions (column sums
    ``p``) hold one class, or None."""
    if (t > 0).sum() < 2 or (p > 0).sum() < 2:
        side = "truth" if (t > 0).sum() < 2 else "predictions"
        return (f"the {side} hold one class: MCC is 0 by convention (scikit-learn's value; "
                "the correlation is undefined)")
    return None
