"""Log loss by class: each class's mean loss, then their (weighted) mean.

Kaggle's balanced log loss (ICR 2023): the classes' mean losses averaged, so a
rare class counts as much as a common one; PLAsTiCC's weighted log loss: the
same with a weight per class, sum(w_c * mean loss of c) / sum(w_c). Row losses
are the plain log loss's (clip to [eps, 1 - eps], rows renormalised). A class
with no row in the rows scored is left out of the mean (and of the weights'
total). Per row the statistics are its loss and a count in its class's two
columns, so a bootstrap of rows is exact.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ...core.resample import Units
from .probabilistic import log_loss


def class_codes(truth, pred):
    """(codes (n,), classes C) of log loss's layouts: 0/1 with (n,) probabilities, class
    codes or one-hot rows with (n, C)."""
    t = np.asarray(truth)
    p = np.asarray(pred)
    if p.ndim == 1:
        return t.astype(np.int64).ravel(), 2
    c = p.shape[1]
    codes = np.argmax(t, axis=1) if t.ndim == 2 else t.astype(np.int64)
    return codes, c


def check_class_weights(weights, c, names=None):
    """(C,) class weights: one per class, or one for all; >= 0 with a positive total."""
    w = np.asarray(weights, dtype=np.float64).ravel()
    if w.size == 1:
        w = np.full(c, float(w[0]))
    if w.size != c:
        said = f" ({', '.join(map(str, list(names)[:6]))}{', ...' if c > 6 else ''})" if names \
            else ""
        raise InputError(f"--class-weights: {w.size} weight(s) for {c} classes{said}; give one "
                         "per class, in the submission's column order (binary: class 0, then 1)")
    if not (np.isfinite(w).all() and w.min() >= 0 and w.sum() > 0):
        raise InputError("--class-weights: weights must be >= 0 with a total above 0")
    return w


def by_class(sums, class_weights):
    """Scores (R,) of summed statistics (R, 2C): losses then counts per class."""
    sums = np.asarray(sums, dtype=np.float64)
    c = class_weights.size
    loss, count = sums[:, :c], sums[:, c:]
    present = count > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(present, loss / np.where(present, count, 1.0), 0.0)
        w = np.where(present, class_weights[None, :], 0.0)
        total = w.sum(axis=1)
        return np.where(total > 0, (w * mean).sum(axis=1) / np.where(total > 0, total, 1.0),
                        np.nan)


@dataclass(frozen=True)
class ClassLogLossResult:
    score: float
    undefined_reason: "str | None"
    base: object                       # the plain LogLossResult (row losses, eps, clipped)
    codes: np.ndarray = field(repr=False)
    class_weights: np.ndarray = field(default_factory=lambda: np.zeros(0))
    per_class: np.ndarray = field(default_factory=lambda: np.zeros(0))   # (C,) mean loss
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0))      # (C,) rows
    higher_is_better: bool = False

    @property
    def n(self):
        return int(self.codes.size)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(object.__getattribute__(self, "base"), name)

    def stats(self):
        c = self.class_weights.size
        out = np.zeros((self.n, 2 * c))
        rows = np.arange(self.n)
        out[rows, self.codes] = self.base.losses
        out[rows, c + self.codes] = 1.0
        return out

    def units(self):
        cw = self.class_weights
        return Units(self.stats(), lambda s: by_class(s, cw), None, "row", mergeable=False)


def class_log_loss(truth, pred, *, eps=1e-15, class_weights=None, names=None):
    """Each class's mean log loss, then their mean weighted by ``class_weights`` (None:
    equal, the balanced log loss).

    >>> round(class_log_loss([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.6]).score, 6)   # classes alike
    0.369609
    """
    base = log_loss(truth, pred, eps=eps)
    codes, c = class_codes(truth, pred)
    cw = np.ones(c) if class_weights is None or len(class_weights) == 0 else \
        check_class_weights(class_weights, c, names)
    counts = np.bincount(codes, minlength=c).astype(np.float64)[:c]
    loss = np.bincount(codes, weights=base.losses, minlength=c)[:c] if codes.size else np.zeros(c)
    score = float(by_class(np.r_[loss, counts][None, :], cw)[0]) if codes.size else float("nan")
    with np.errstate(invalid="ignore", divide="ignore"):
        per = np.where(counts > 0, loss / np.maximum(counts, 1), np.nan)
    reason = base.undefined_reason if not np.isfinite(score) else None
    return ClassLogLossResult(score, reason, base, codes, cw, per, counts)
