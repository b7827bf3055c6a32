"""F1 of multi-label rows: each cell holds space-separated labels (a set per row).

As scikit-learn's ``f1_score`` on the rows' label indicators
(``MultiLabelBinarizer`` over the labels of both files, sorted): TP, FP and FN
of each label count (row, label) pairs. micro: pooled over labels; macro: the
labels' F1s averaged; weighted: by each label's support; binary: the F1 of
one label (``pos_label``). Per row the statistics are its TP, FP, FN (micro,
binary: 3 numbers; macro, weighted: 3 per label), so a bootstrap of rows is
exact. Labels repeated in one cell count once.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ...core.resample import Units
from .classification import AVERAGES, f1_from_counts

MAX_VALUES = 1 << 26          # per-row statistics of macro/weighted above this: none


def split_labels(cells):
    """Each cell's labels (a tuple, first occurrence kept; an empty cell: none)."""
    return [tuple(dict.fromkeys(str(c).split())) for c in cells]


@dataclass(frozen=True)
class MultiLabelF1Result:
    score: float
    undefined_reason: "str | None"
    average: str
    labels: np.ndarray            # (L,) sorted labels of both files
    tp: np.ndarray                # (L,) per label
    fp: np.ndarray
    fn: np.ndarray
    per_class: np.ndarray         # (L,) F1 of each label
    pos_index: "int | None"
    keys: tuple = field(default=(), repr=False)   # (truth keys, prediction keys): row * L + label
    n: int = 0
    note: "str | None" = None
    higher_is_better: bool = True

    @property
    def support(self):
        return self.tp + self.fn

    def row_stats(self):
        """(n, 3) TP, FP, FN of each row (micro over labels, or of the binary label), or
        (n, 3L) per label (macro, weighted)."""
        tk, pk = self.keys
        size = max(self.labels.size, 1)
        both = np.intersect1d(tk, pk, assume_unique=True)
        if self.average in ("micro", "binary"):
            if self.average == "binary":
                k = -1 if self.pos_index is None else self.pos_index
                tk, pk, both = (x[x % size == k] for x in (tk, pk, both))
            out = np.zeros((self.n, 3))
            for j, (keys, sign) in enumerate(((both, 0), (pk, 1), (tk, 2))):
                out[:, j] = np.bincount(keys // size, minlength=self.n)
            out[:, 1] -= out[:, 0]
            out[:, 2] -= out[:, 0]
            return out
        if self.n * 3 * size > MAX_VALUES:
            raise InputError(f"macro F1 of {self.n:,} rows x {size:,} labels: too many "
                             "statistics for intervals and comparisons (micro has them)")
        out = np.zeros((self.n, 3 * size))
        for off, keys in ((0, both), (1, pk), (2, tk)):
            np.add.at(out, (keys // size, 3 * (keys % size) + off), 1.0)
        out[:, 1::3] -= out[:, 0::3]
        out[:, 2::3] -= out[:, 0::3]
        return out

    def score_of_sums(self, sums):
        sums = np.asarray(sums, dtype=np.float64)
        if self.average in ("micro", "binary"):
            tp, fp, fn = sums[:, 0:1], sums[:, 1:2], sums[:, 2:3]
            den = 2 * tp + fp + fn
            with np.errstate(invalid="ignore", divide="ignore"):
                out = np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)[:, 0]
            if self.average == "micro":
                out[den[:, 0] == 0] = np.nan
            return out
        tp, fp, fn = sums[:, 0::3], sums[:, 1::3], sums[:, 2::3]
        return f1_from_counts(tp, fp, fn, tp + fn, self.average, None)

    def units(self):
        return Units(self.row_stats(), self.score_of_sums, None, "row", mergeable=False)


def multilabel_f1(truth, pred, *, average="micro", pos_label="1") -> MultiLabelF1Result:
    """F1 over rows of label sets (tuples of labels).

    >>> multilabel_f1([("a", "b"), ("c",)], [("a",), ("c", "d")], average="micro").score
    0.6666666666666666
    """
    if average not in AVERAGES:
        raise InputError(f"average must be one of {', '.join(AVERAGES)}; got {average!r}")
    if len(truth) != len(pred):
        raise InputError(f"truth has {len(truth)} rows, predictions {len(pred)}")
    n = len(truth)
    labels = np.array(sorted({x for row in truth for x in row} | {x for row in pred for x in row}),
                      dtype=object)
    index = {lab: i for i, lab in enumerate(labels.tolist())}
    size = max(labels.size, 1)

    def keys(rows):
        flat = [(r * size + index[x]) for r, row in enumerate(rows) for x in row]
        return np.unique(np.asarray(flat, dtype=np.int64))
    tk, pk = keys(truth), keys(pred)
    both = np.intersect1d(tk, pk, assume_unique=True)
    tp = np.bincount(both % size, minlength=labels.size).astype(np.float64)[:labels.size]
    fp = np.bincount(pk % size, minlength=labels.size)[:labels.size] - tp
    fn = np.bincount(tk % size, minlength=labels.size)[:labels.size] - tp
    den = 2 * tp + fp + fn
    with np.errstate(invalid="ignore", divide="ignore"):
        per = np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)
    pos_index, note = None, None
    if average == "binary":
        pos_index = index.get(str(pos_label))
        if pos_index is None:
            note = (f"label {pos_label!r} is in neither file: F1 is 0/0, reported as 0.0 "
                    "(scikit-learn's zero_division)")
    r = MultiLabelF1Result(float("nan"), None, average, labels, tp, fp, fn, per, pos_index,
                           (tk, pk), n, note)
    if n == 0:
        return MultiLabelF1Result(float("nan"), "no rows to score", average, labels, tp, fp, fn,
                                  per, pos_index, (tk, pk), 0)
    if average == "binary":
        k = pos_index
        sums = np.array([[tp[k], fp[k], fn[k]]]) if k is not None else np.zeros((1, 3))
    elif average == "micro":
        sums = np.array([[tp.sum(), fp.sum(), fn.sum()]])
    else:
        sums = np.stack([tp, fp, fn], axis=1).reshape(1, -1)
    score = float(r.score_of_sums(sums)[0])
    reason = None if np.isfinite(score) else "no label in either file"
    return MultiLabelF1Result(score, reason, average, labels, tp, fp, fn, per, pos_index,
                              (tk, pk), n, note)
