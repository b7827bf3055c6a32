"""Accuracy and F1 (binary, macro, micro, weighted) from confusion counts.

Labels are any values (numbers or text); the classes are the sorted union of
the truth's and the predictions' labels, as scikit-learn takes them. The
confusion matrix holds everything: TP of class k = O[k, k], FP = column sum
minus TP, FN = row sum minus TP, and a row of the data adds one count to one
cell. So the cells are the resampling units' cells (like kappa's), and a
bootstrap is a multinomial over them.

F1 of a class = 2 TP / (2 TP + FP + FN) (scikit-learn's formula since 1.3).
Zero division: when 2 TP + FP + FN = 0 (binary only: the positive label is
in neither truth nor predictions) the F1 is 0.0, scikit-learn's
``zero_division="warn"`` value; the result says so in ``note``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...errors import InputError
from ...core._checks import check_option
from ...core.resample import Units

AVERAGES = ("binary", "macro", "micro", "weighted")
_DENSE_SPAN = 1 << 20         # integer labels within this range are coded by a lookup table


def encode(y_true, y_pred):
    """(labels (K,), truth codes (n,), prediction codes (n,)): codes index the
    sorted union of labels."""
    t, p = np.asarray(y_true), np.asarray(y_pred)
    if t.shape != p.shape or t.ndim != 1:
        raise InputError(f"truth and predictions must be 1-D of one length; got {t.shape} and {p.shape}")
    numeric = [a.dtype.kind in "biuf" for a in (t, p)]
    if numeric[0] != numeric[1]:
        raise InputError("truth and predictions must both be numbers or both be text labels")
    if t.size == 0:
        return np.zeros(0, dtype=t.dtype), np.zeros(0, np.intp), np.zeros(0, np.intp)
    if t.dtype.kind in "biu" and p.dtype.kind in "biu":
        lo = min(int(t.min()), int(p.min()))
        span = max(int(t.max()), int(p.max())) - lo + 1
        if span <= _DENSE_SPAN:
            ti, pi = t.astype(np.intp) - lo, p.astype(np.intp) - lo
            present = (np.bincount(ti, minlength=span) + np.bincount(pi, minlength=span)) > 0
            labels = np.flatnonzero(present)
            lut = np.cumsum(present) - 1
            return (labels + lo).astype(np.result_type(t, p)), lut[ti], lut[pi]
    if numeric[0]:
        both = np.concatenate([t.astype(np.float64), p.astype(np.float64)])
        if not np.isfinite(both).all():
            i = int(np.flatnonzero(~np.isfinite(both))[0])
            who, row = ("truth", i) if i < t.size else ("predictions", i - t.size)
            raise InputError(f"{who} has a value that is not finite at row {row}")
    else:
        both = np.concatenate([t.astype(str), p.astype(str)])
    labels, inv = np.unique(both, return_inverse=True)
    return labels, inv[:t.size], inv[t.size:]


def labels_and_confusion(y_true, y_pred):
    """(labels (K,), confusion (K, K)) of the sorted union of labels. Small integer
    labels are counted in one pass over (truth, prediction) pairs, no coding."""
    t, p = np.asarray(y_true), np.asarray(y_pred)
    if t.shape == p.shape and t.ndim == 1 and t.size and t.dtype.kind in "biu" \
            and p.dtype.kind in "biu":
        lo = min(int(t.min()), int(p.min()))
        span = max(int(t.max()), int(p.max())) - lo + 1
        if span <= 2048:
            key = t.astype(np.int64)
            key -= lo
            key *= span
            key += p
            key -= lo
            full = np.bincount(key, minlength=span * span).reshape(span, span)
            idx = np.flatnonzero((full.sum(axis=0) + full.sum(axis=1)) > 0)
            labels = (idx + lo).astype(np.result_type(t, p))
            return labels, full[np.ix_(idx, idx)]
    labels, tc, pc = encode(t, p)
    return labels, confusion(tc, pc, labels.size)


def confusion(t, p, k):
    """(K, K) counts: truth rows, prediction columns."""
    return np.bincount(t * k + p, minlength=k * k).reshape(k, k)


@dataclass(frozen=True)
class AccuracyResult:
    score: float
    undefined_reason: "str | None"
    n: int
    hits: int
    row_hits: np.ndarray          # (n,) bool, the per-row additive statistic
    higher_is_better: bool = True

    @property
    def row_stats(self):
        return self.row_hits

    def units(self):
        cells = np.array([self.n - self.hits, self.hits], dtype=np.int64)

        def score(counts):
            counts = np.asarray(counts, dtype=np.float64)
            total = counts.sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out = counts[:, 1] / total
            out[total == 0] = np.nan
            return out
        return Units(None, score, cells, "row")


def accuracy(y_true, y_pred) -> AccuracyResult:
    """Share of rows whose prediction equals the truth.

    >>> accuracy([1, 2, 3, 4], [1, 2, 0, 4]).score
    0.75
    """
    t, p = np.asarray(y_true), np.asarray(y_pred)
    if t.shape != p.shape or t.ndim != 1:
        raise InputError(f"truth and predictions must be 1-D of one length; got {t.shape} and {p.shape}")
    if (t.dtype.kind in "biuf") != (p.dtype.kind in "biuf"):
        raise InputError("truth and predictions must both be numbers or both be text labels")
    hit = t == p
    n, hits = int(t.size), int(np.count_nonzero(hit))
    if n == 0:
        return AccuracyResult(float("nan"), "no rows to score", 0, 0, hit)
    return AccuracyResult(hits / n, None, n, hits, hit)


@dataclass(frozen=True)
class F1Result:
    score: float
    undefined_reason: "str | None"
    average: str
    labels: np.ndarray            # (K,) sorted union of labels
    confusion: np.ndarray         # (K, K) truth rows, prediction columns
    per_class: np.ndarray         # (K,) F1 of each class
    pos_index: "int | None"       # binary: the positive label's index (None: absent)
    data: tuple = field(default=(), repr=False, compare=False)   # (truth, predictions) as given
    note: "str | None" = None
    higher_is_better: bool = True

    def _codes(self, values):
        v = np.asarray(values)
        if self.labels.dtype.kind not in "biuf":
            v = v.astype(str)
        return np.searchsorted(self.labels, v).astype(np.intp)

    @cached_property
    def truth_codes(self):
        """(n,) per-row class codes: row i adds 1 to confusion[truth_i, pred_i]."""
        return self._codes(self.data[0])

    @cached_property
    def pred_codes(self):
        return self._codes(self.data[1])

    @property
    def n(self):
        return int(self.confusion.sum())

    @property
    def tp(self):
        return np.diag(self.confusion)

    @property
    def fp(self):
        return self.confusion.sum(axis=0) - self.tp

    @property
    def fn(self):
        return self.confusion.sum(axis=1) - self.tp

    @property
    def support(self):
        return self.confusion.sum(axis=1)

    @property
    def row_stats(self):
        """(n, 3) TP, FP, FN of each row for the positive class (binary) or
        pooled over classes (micro); macro/weighted: use the codes."""
        t, p = self.truth_codes, self.pred_codes
        if self.average == "binary":
            k = -1 if self.pos_index is None else self.pos_index
            return np.column_stack([(t == k) & (p == k), (t != k) & (p == k),
                                    (t == k) & (p != k)]).astype(np.int8)
        hit = t == p
        return np.column_stack([hit, ~hit, ~hit]).astype(np.int8)

    def units(self):
        return f1_units(self.confusion, self.average, self.pos_index)


def f1_from_counts(tp, fp, fn, support, average, pos_index):
    """F1 from per-class counts (R, K) -> (R,)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if average == "micro":
            a, b, c = tp.sum(axis=1), fp.sum(axis=1), fn.sum(axis=1)
            den = 2 * a + b + c
            return np.where(den > 0, 2 * a / np.where(den > 0, den, 1), np.nan)
        den = 2 * tp + fp + fn
        per = np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)
        if average == "binary":
            return per[:, pos_index] if pos_index is not None else np.zeros(tp.shape[0])
        if average == "macro":
            return per.mean(axis=1) if per.shape[1] else np.full(tp.shape[0], np.nan)
        w = support.sum(axis=1)
        return np.where(w > 0, (per * support).sum(axis=1) / np.where(w > 0, w, 1), 0.0)


def f1_units(observed, average, pos_index=None) -> Units:
    """Units of a confusion matrix: its nonzero cells, each cell rows alike."""
    obs = np.asarray(observed)
    k = obs.shape[0]
    ti, pj = np.nonzero(obs)
    cells = obs[ti, pj].astype(np.int64)
    diag = ti == pj

    def score(counts):
        counts = np.asarray(counts, dtype=np.float64)
        r = counts.shape[0]
        base = (np.arange(r) * k)[:, None]

        def per_class(cls, mask):
            w = counts[:, mask]
            return np.bincount((base + cls[mask]).ravel(), w.ravel(), r * k).reshape(r, k)
        tp = per_class(ti, diag)
        fp = per_class(pj, ~diag)
        fn = per_class(ti, ~diag)
        out = f1_from_counts(tp, fp, fn, tp + fn, average, pos_index)
        out[counts.sum(axis=1) == 0] = np.nan
        return out

    # The rows that drive the score: the positive class (binary), every class alike (macro);
    # a handful of them leaves no interval that holds (core/cautions.py).
    minority = None
    if average == "binary" and pos_index is not None:
        minority = int(min(obs[pos_index].sum(), obs[:, pos_index].sum()))
    elif average == "macro" and obs.any():
        marg = np.concatenate([obs.sum(axis=1), obs.sum(axis=0)])
        minority = int(marg[marg > 0].min())
    return Units(None, score, cells, "row", minority=minority)


def _label_index(labels, label):
    """Index of ``label`` among labels (text '1' finds the number 1), or None."""
    for cand in (label, str(label)):
        hit = np.flatnonzero(labels.astype(str) == str(cand)) if labels.dtype.kind not in "biuf" \
            else np.flatnonzero(labels == _as_number(cand))
        if hit.size:
            return int(hit[0])
    return None


def _as_number(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return np.nan


def f1(y_true, y_pred, *, average: str = "binary", pos_label=1) -> F1Result:
    """F1 score as scikit-learn's ``f1_score`` (labels: the union, sorted).

    >>> f1([0, 1, 1, 0], [0, 1, 0, 1]).score          # TP 1, FP 1, FN 1
    0.5
    """
    check_option("average", average, AVERAGES)
    labels, obs = labels_and_confusion(y_true, y_pred)
    data = (y_true, y_pred)
    if obs.sum() == 0:
        z = np.zeros((0, 0), dtype=np.int64)
        return F1Result(float("nan"), "no rows to score", average, labels, z, np.zeros(0),
                        None, data)
    return f1_from_confusion(labels, obs, average, pos_label, data)


def f1_from_confusion(labels, obs, average="binary", pos_label=1, data=()):
    """F1Result of a (K, K) confusion matrix over ``labels`` (truth rows, prediction
    columns): what ``f1`` returns for data with these counts."""
    k = labels.size
    pos_index = None
    note = None
    if average == "binary":
        if k > 2:
            raise InputError(f"binary F1 needs at most 2 labels; found {k} "
                             f"({', '.join(map(str, labels[:5].tolist()))}{'...' if k > 5 else ''}); "
                             "choose --average macro, micro or weighted")
        pos_index = _label_index(labels, pos_label)
        if pos_index is None and k == 2:
            raise InputError(f"positive label {pos_label!r} is not one of the labels "
                             f"{', '.join(map(repr, labels.tolist()))}")
        if pos_index is None:
            note = (f"positive label {pos_label!r} occurs in neither truth nor predictions: "
                    "F1 is 0/0, reported as 0.0 (scikit-learn's zero_division)")
    tp = np.diag(obs)[None, :].astype(np.float64)
    fp = obs.sum(axis=0)[None, :] - tp
    fn = obs.sum(axis=1)[None, :] - tp
    score = float(f1_from_counts(tp, fp, fn, tp + fn, average, pos_index)[0])
    den = 2 * tp[0] + fp[0] + fn[0]
    per = np.where(den > 0, 2 * tp[0] / np.where(den > 0, den, 1), 0.0)
    return F1Result(score, None, average, labels, obs, per, pos_index, data, note)
