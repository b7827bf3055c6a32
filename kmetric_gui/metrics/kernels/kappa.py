"""Weighted Cohen's kappa (quadratic, linear, unweighted) with every matrix.

The rating set is the integer range lo..hi (Kaggle's rule), not the set of
observed labels. The confusion counts are additive, so chunks merge by sum
(see ``KappaAccumulator``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...core._checks import as_numeric, check_finite, check_option

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

WEIGHTS = ("quadratic", "linear", "none")
MAX_CLASSES = 1000  # K x K matrices: beyond this the range is almost surely a mistake


@dataclass(frozen=True)
class KappaResult:
    """Kappa and the matrices it is made of (all K x K unless noted)."""
    score: float                 # nan when undefined
    undefined_reason: "str | None"
    labels: np.ndarray           # (K,) rating values lo..hi
    observed: np.ndarray         # O: counts, truth rows x prediction columns
    weights: np.ndarray          # W in 0..1
    expected: np.ndarray         # E = outer(hist_true, hist_pred) / n
    numerator: float             # sum(W * O)
    denominator: float           # sum(W * E)
    hist_true: np.ndarray        # (K,) row sums of O
    hist_pred: np.ndarray        # (K,) column sums of O
    weighting: str = "quadratic"

    @property
    def n(self):
        return float(self.observed.sum())

    @property
    def numerator_matrix(self):
        return self.weights * self.observed

    @property
    def denominator_matrix(self):
        return self.weights * self.expected

    @property
    def perfect_expected(self):
        """E of a perfect prediction: hist_pred replaced by hist_true."""
        n = self.n
        if n == 0:
            return np.zeros_like(self.expected)
        return np.outer(self.hist_true, self.hist_true) / n


def weight_matrix(k: int, weights: str = "quadratic") -> np.ndarray:
    """W for k classes: 0 on the diagonal, 1 at the farthest pair."""
    check_option("weights", weights, WEIGHTS)
    i = np.arange(k)
    d = np.abs(i[:, None] - i[None, :]).astype(np.float64)
    if weights == "none":
        return (d > 0).astype(np.float64)
    if k < 2:
        return np.zeros((k, k))
    if weights == "linear":
        return d / (k - 1)
    return d * d / float((k - 1) ** 2)


def kappa_from_confusion(observed: ArrayLike, *, weights: str = "quadratic",
                         labels: ArrayLike | None = None) -> KappaResult:
    """Kappa from a K x K confusion matrix (truth rows, prediction columns).

    >>> round(kappa_from_confusion([[2, 1], [0, 3]]).score, 4)
    0.6667
    """
    check_option("weights", weights, WEIGHTS)
    obs = as_numeric(observed, "confusion matrix")
    if obs.ndim != 2 or obs.shape[0] != obs.shape[1]:
        raise InputError(f"confusion matrix must be square; got shape {obs.shape}")
    check_finite(obs, "confusion matrix")
    if (obs < 0).any():
        i = int(np.flatnonzero(obs.ravel() < 0)[0])
        r, c = divmod(i, obs.shape[1])
        raise InputError(f"confusion matrix has a negative count at row {r}, column {c}")
    k = obs.shape[0]
    if labels is None:
        labels = np.arange(k)
    labels = np.asarray(labels)
    if labels.shape != (k,):
        raise InputError(f"labels: expected {k} labels, got {labels.size}")
    obs = obs.astype(np.float64)
    w = weight_matrix(k, weights)
    hist_true = obs.sum(axis=1)
    hist_pred = obs.sum(axis=0)
    n = hist_true.sum()
    expected = np.outer(hist_true, hist_pred) / n if n > 0 else np.zeros_like(obs)
    num = float((w * obs).sum())
    den = float((w * expected).sum())
    reason = None
    if n == 0:
        reason = "no rows to score"
    elif den == 0:
        reason = _one_class_reason(labels, hist_true, hist_pred)
    score = float("nan") if reason else 1.0 - num / den
    return KappaResult(score, reason, labels, obs, w, expected, num, den,
                       hist_true, hist_pred, weights)


def _one_class_reason(labels, hist_true, hist_pred):
    cls = labels[np.flatnonzero(hist_true)]
    if cls.size == 1:
        return (f"every truth and every prediction is rating {cls[0]}: "
                "expected disagreement is 0, so kappa is 0/0")
    return "expected disagreement is 0, so kappa is 0/0"


def as_ratings(values, what="ratings"):
    """Integer ratings from ints or integer-valued floats; else InputError."""
    arr = as_numeric(values, what)
    if arr.ndim != 1:
        arr = arr.ravel()
    if arr.dtype.kind == "f":
        check_finite(arr, what)
        frac = arr != np.floor(arr)
        if frac.any():
            i = int(np.flatnonzero(frac)[0])
            raise InputError(
                f"{what} must be integer ratings; position {i} has {arr[i].item()!r} "
                f"({int(frac.sum())} non-integer value(s)). Continuous predictions "
                "need cut points: round them or use the threshold optimizer")
        if arr.size and (np.abs(arr).max() > 2 ** 53):
            raise InputError(f"{what}: ratings too large to be exact integers")
        arr = arr.astype(np.int64)
    return arr


class KappaAccumulator:
    """Sum confusion counts over chunks; ``result()`` gives the kappa.

    Without a declared range the counts grow to cover every rating seen, so
    ``update`` in any number of chunks equals one ``weighted_kappa`` call.
    """

    def __init__(self, *, weights: str = "quadratic", min_rating: int | None = None,
                 max_rating: int | None = None) -> None:
        self.weights = check_option("weights", weights, WEIGHTS)
        self._lo_decl, self._hi_decl = min_rating, max_rating
        if min_rating is not None and max_rating is not None and min_rating > max_rating:
            raise InputError(f"min rating {min_rating} is above max rating {max_rating}")
        self.lo = None
        self.counts = np.zeros((0, 0), dtype=np.int64)
        self.n_rows = 0

    def update(self, y_true: ArrayLike, y_pred: ArrayLike) -> KappaAccumulator:
        t = as_ratings(y_true, "truth")
        p = as_ratings(y_pred, "predictions")
        if t.shape != p.shape:
            raise InputError(
                f"truth and predictions differ in length: {t.size} vs {p.size}")
        self.n_rows += t.size
        if t.size == 0:
            return self
        tmin, tmax = int(t.min()), int(t.max())
        pmin, pmax = int(p.min()), int(p.max())
        if max(-tmin, tmax, -pmin, pmax) > 2 ** 62:
            raise InputError("ratings too large to be exact integers")
        self._check_declared(t, "truth", tmin, tmax)
        self._check_declared(p, "predictions", pmin, pmax)
        lo = min(tmin, pmin)
        hi = max(tmax, pmax)
        if self._lo_decl is not None:
            lo = min(lo, int(self._lo_decl))
        if self._hi_decl is not None:
            hi = max(hi, int(self._hi_decl))
        self._grow(lo, hi)
        k = self.counts.shape[0]
        if k > MAX_CLASSES:
            raise InputError(
                f"ratings span {k} classes ({self.lo}..{self.lo + k - 1}); "
                f"at most {MAX_CLASSES} are supported - are these ratings?")
        # One bincount over the flattened (truth, prediction) pair index.
        # One int64 temporary updated in place (narrow inputs must not overflow).
        code = np.multiply(t, k, dtype=np.int64, casting="unsafe")
        np.add(code, p, out=code, casting="unsafe")
        offset = self.lo * k + self.lo
        if offset:
            code -= offset
        self.counts += np.bincount(code, minlength=k * k).reshape(k, k)
        return self

    def _check_declared(self, arr, what, vmin, vmax):
        lo, hi = self._lo_decl, self._hi_decl
        if lo is not None and vmin < lo:
            i = int(np.flatnonzero(arr < lo)[0])
            raise InputError(f"{what}: rating {arr[i]} at position {i} is below "
                             f"the declared minimum {lo}")
        if hi is not None and vmax > hi:
            i = int(np.flatnonzero(arr > hi)[0])
            raise InputError(f"{what}: rating {arr[i]} at position {i} is above "
                             f"the declared maximum {hi}")

    def _grow(self, lo, hi):
        if self.lo is None:
            k = hi - lo + 1
            if k > MAX_CLASSES:
                raise InputError(
                    f"ratings span {k} classes ({lo}..{hi}); at most "
                    f"{MAX_CLASSES} are supported - are these ratings?")
            self.lo = lo
            self.counts = np.zeros((k, k), dtype=np.int64)
            return
        old_lo, old_k = self.lo, self.counts.shape[0]
        new_lo = min(lo, old_lo)
        new_hi = max(hi, old_lo + old_k - 1)
        if new_lo == old_lo and new_hi == old_lo + old_k - 1:
            return
        k = new_hi - new_lo + 1
        if k > MAX_CLASSES:
            raise InputError(
                f"ratings span {k} classes ({new_lo}..{new_hi}); at most "
                f"{MAX_CLASSES} are supported - are these ratings?")
        grown = np.zeros((k, k), dtype=np.int64)
        s = old_lo - new_lo
        grown[s:s + old_k, s:s + old_k] = self.counts
        self.lo, self.counts = new_lo, grown

    def merge(self, other):
        """Add another accumulator's counts (same weights)."""
        if other.lo is None:
            return self
        self._grow(other.lo, other.lo + other.counts.shape[0] - 1)
        s = other.lo - self.lo
        k = other.counts.shape[0]
        self.counts[s:s + k, s:s + k] += other.counts
        self.n_rows += other.n_rows
        return self

    def result(self) -> KappaResult:
        if self.lo is None:
            lo = self._lo_decl if self._lo_decl is not None else 0
            hi = self._hi_decl if self._hi_decl is not None else lo
            k = int(hi) - int(lo) + 1
            return kappa_from_confusion(np.zeros((k, k)), weights=self.weights,
                                        labels=np.arange(int(lo), int(hi) + 1))
        k = self.counts.shape[0]
        return kappa_from_confusion(self.counts, weights=self.weights,
                                    labels=np.arange(self.lo, self.lo + k))


def weighted_kappa(y_true: ArrayLike, y_pred: ArrayLike, *, weights: str = "quadratic",
                   min_rating: int | None = None, max_rating: int | None = None) -> KappaResult:
    """Weighted kappa of integer ratings over the range min_rating..max_rating.

    The range defaults to min..max over truth and predictions together.

    >>> round(weighted_kappa([0, 1, 2, 3], [3, 2, 1, 0]).score, 6)
    -1.0
    """
    acc = KappaAccumulator(weights=weights, min_rating=min_rating,
                           max_rating=max_rating)
    return acc.update(y_true, y_pred).result()


def kappa_rows(o, w):
    """Kappa of each row of o: (R, K*K) confusion counts (truth-major); nan when undefined."""
    k = w.shape[0]
    o = np.asarray(o, dtype=np.float64).reshape(-1, k, k)
    ht, hp = o.sum(axis=2), o.sum(axis=1)
    n = ht.sum(axis=1)
    num = np.einsum("rij,ij->r", o, w)
    with np.errstate(invalid="ignore", divide="ignore"):
        den = np.einsum("ri,ij,rj->r", ht, w, hp) / n
        out = 1.0 - num / den
    return np.where(den > 0, out, np.nan)
