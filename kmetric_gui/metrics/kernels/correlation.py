"""Correlations between truth and predictions: Pearson's r, Spearman's rho and Kendall's
tau-b, each over one column or the mean over several (Google QUEST's column-wise
Spearman). Higher is better; a column with one distinct value has no correlation, and
the mean over columns is then undefined too (the competitions' np.mean gives nan).

* Pearson: per-row sums of the centred values (x, y, x^2, y^2, xy): additive, so a
  bootstrap replicate, a Public/Private split or a fix is a sum of rows.
* Spearman: Pearson's r of the mid-ranks (ties share the mean of their ranks), as
  scipy.stats.spearmanr.
* Kendall's tau-b, as scipy.stats.kendalltau: (concordant - discordant pairs) /
  sqrt((pairs - ties in x) (pairs - ties in y)); discordant pairs are the inversions
  of y ranked in (x, y) order (metrics/kernels/ranks.py).

The rank correlations are not sums over rows; their statistics re-rank each replicate
(metrics/kernels/correlation_stats.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...core._checks import position
from ...errors import InputError
from .column_correlation import column_correlation
from .ranks import rank

KINDS = ("pearson", "spearman", "kendall")


@dataclass(frozen=True)
class CorrelationResult:
    score: float                   # mean over columns; nan when undefined
    undefined_reason: "str | None"
    kind: str                      # "pearson", "spearman", "kendall"
    n: int                         # rows
    column_scores: np.ndarray      # (C,) each column's correlation (nan: undefined)
    truth: np.ndarray = field(repr=False)    # (n,) or (n, C) float64
    pred: np.ndarray = field(repr=False)
    higher_is_better: bool = True

    @property
    def columns(self):
        return 1 if self.truth.ndim == 1 else self.truth.shape[1]

    def column(self, j, which="truth"):
        a = self.truth if which == "truth" else self.pred
        return a if a.ndim == 1 else a[:, j]

    @cached_property
    def scales(self):
        """(2, 2, C): mean and spread of truth ([0]) and predictions ([1]) per column: the
        frame of Pearson's statistics (standard scores: the same frame for every
        submission, so a paired permutation can swap rows between them)."""
        out = np.zeros((2, 2, self.columns))
        out[:, 1] = 1.0
        for k, a in enumerate((self.truth, self.pred)):
            a = a.reshape(self.n, -1)
            if self.n:
                sd = a.std(axis=0)
                out[k, 0], out[k, 1] = a.mean(axis=0), np.where(sd > 0, sd, 1.0)
        return out

    @property
    def row_stats(self):
        """(n, 1 + 5C) Pearson's additive statistics: a count, then per column the
        standard scores x, y and x^2, y^2, xy."""
        return pearson_rows(self.truth, self.pred, self.scales)

    @cached_property
    def errors(self):
        """(n,) or (n, C): how far each row's prediction sits from its truth on the
        correlation's own scale: standardised values (Pearson: r = 1 - mean((zp - zt)^2)/2),
        else ranks as a share of the rows."""
        t = self.truth.reshape(self.n, -1)
        p = self.pred.reshape(self.n, -1)
        out = np.empty(t.shape)
        for j in range(t.shape[1]):
            if self.kind == "pearson":
                a, b = _standard(t[:, j]), _standard(p[:, j])
            else:
                a = rank(t[:, j]).midranks / max(self.n, 1)
                b = rank(p[:, j]).midranks / max(self.n, 1)
            out[:, j] = b - a
        return out[:, 0] if self.truth.ndim == 1 else out

    def units(self):
        if self.kind == "pearson":
            from ...core.resample import Units
            return Units(self.row_stats, pearson_score, kind="row", mergeable=False)
        from .correlation_stats import RankCorrelationUnits
        return RankCorrelationUnits(self.kind, self.truth, self.pred)


def _standard(v):
    sd = v.std()
    return (v - v.mean()) / sd if sd > 0 else np.zeros_like(v)


def pearson_rows(truth, pred, scales):
    n = truth.shape[0]
    t = (truth.reshape(n, -1) - scales[0, 0]) / scales[0, 1]
    p = (pred.reshape(n, -1) - scales[1, 0]) / scales[1, 1]
    c = t.shape[1]
    out = np.empty((n, 1 + 5 * c))
    out[:, 0] = 1.0
    out[:, 1::5], out[:, 2::5] = t, p
    out[:, 3::5], out[:, 4::5], out[:, 5::5] = t * t, p * p, t * p
    return out


def pearson_score(sums):
    """(R,) mean over columns of Pearson's r from summed statistics (R, 1 + 5C)."""
    sums = np.asarray(sums, dtype=np.float64)
    n = sums[:, :1]
    sx, sy, sxx, syy, sxy = (sums[:, 1 + k::5] for k in range(5))
    with np.errstate(invalid="ignore", divide="ignore"):
        vx = sxx - sx * sx / n
        vy = syy - sy * sy / n
        r = (sxy - sx * sy / n) / np.sqrt(vx * vy)
    # One value (up to rounding of the centred sums): no correlation.
    flat = (vx <= 1e-12 * sxx) | (vy <= 1e-12 * syy) | (n < 2)
    r = np.where(flat, np.nan, np.clip(r, -1.0, 1.0))
    return r.mean(axis=1)


def _pair(y_true, y_pred, kind):
    t = np.asarray(y_true, dtype=np.float64)
    p = np.asarray(y_pred, dtype=np.float64)
    if t.shape != p.shape:
        raise InputError(f"truth and predictions differ in shape: {t.shape} vs {p.shape}")
    if t.ndim not in (1, 2):
        raise InputError(f"{kind} takes 1-D or 2-D values; got {t.ndim}-D")
    for arr, what in ((t, "truth"), (p, "predictions")):
        if not np.isfinite(arr.sum()) and not np.isfinite(arr).all():
            i = int(np.flatnonzero(~np.isfinite(arr.ravel()))[0])
            raise InputError(f"{what} has a value that is not finite at {position(i, arr.shape)}")
    return t, p


def correlation(y_true, y_pred, kind="pearson") -> CorrelationResult:
    """Correlation of predictions with the truth: one column, or the mean over columns.

    >>> round(correlation([1, 2, 3, 4], [1, 3, 2, 4], "spearman").score, 6)
    0.8
    >>> round(correlation([1, 2, 3, 4], [1, 3, 2, 4], "kendall").score, 6)
    0.666667
    """
    if kind not in KINDS:
        raise InputError(f"unknown correlation {kind!r}; allowed: {', '.join(KINDS)}")
    t, p = _pair(y_true, y_pred, kind)
    n = t.shape[0]
    cols = 1 if t.ndim == 1 else t.shape[1]
    if n < 2:
        return CorrelationResult(float("nan"), "fewer than two rows to correlate", kind, n,
                                 np.full(cols, np.nan), t, p)
    t2, p2 = t.reshape(n, -1), p.reshape(n, -1)
    scores = np.array([column_correlation(kind, t2[:, j], p2[:, j]) for j in range(cols)])
    reason = None
    if not np.isfinite(scores).all():
        flat = [j for j in range(cols) if not np.isfinite(scores[j])]
        which = "it has" if cols == 1 else f"column(s) {', '.join(str(j + 1) for j in flat)} have"
        reason = f"no correlation: {which} one distinct value in the truth or the predictions"
    return CorrelationResult(float(scores.mean()) if reason is None else float("nan"), reason,
                             kind, n, scores, t, p)


@dataclass(frozen=True)
class Scatter:
    """What the app's correlation view draws for one column (made on a worker)."""
    x: np.ndarray                  # (n,) truth, or its rank as a share of the rows
    y: np.ndarray                  # (n,) prediction, or its rank share
    error: np.ndarray              # (n,) how far apart (standard scores or rank shares)
    sample: "np.ndarray | None"    # rows drawn as points (None: a density instead)
    density: "np.ndarray | None"   # (bins, bins) counts, x along axis 0
    spans: tuple                   # ((x low, x high), (y low, y high))
    line: tuple                    # (slope, intercept) of the line drawn through the points
    hist: tuple                    # (counts, edges) of the errors


def scatter(result, j=0, points=20_000, bins=160):
    """Truth against prediction on their own scales (Pearson: with the least-squares line)
    or their rank shares (Spearman, Kendall: the diagonal is a perfect ranking)."""
    x, y = result.column(j, "truth"), result.column(j, "pred")
    err = result.errors if result.errors.ndim == 1 else result.errors[:, j]
    if result.kind != "pearson":
        x, y = rank(x).midranks / max(x.size, 1), rank(y).midranks / max(y.size, 1)
        line = (1.0, 0.0)
    else:
        vx = float(np.var(x)) if x.size else 0.0
        slope = float(np.mean((x - x.mean()) * (y - y.mean())) / vx) if vx > 0 else 0.0
        line = (slope, float(y.mean() - slope * x.mean()) if x.size else 0.0)
    spans = tuple((float(a.min()), float(a.max())) if a.size and a.max() > a.min()
                  else ((float(a[0]) - 0.5, float(a[0]) + 0.5) if a.size else (0.0, 1.0))
                  for a in (x, y))
    sample = density = None
    if x.size <= points:
        sample = np.arange(x.size)
    else:
        ix = np.clip(((x - spans[0][0]) / (spans[0][1] - spans[0][0]) * bins).astype(np.int64), 0,
                     bins - 1)
        iy = np.clip(((y - spans[1][0]) / (spans[1][1] - spans[1][0]) * bins).astype(np.int64), 0,
                     bins - 1)
        density = np.bincount(ix * bins + iy, minlength=bins * bins).reshape(bins, bins)
    hist = np.histogram(err, bins=60) if err.size else (np.zeros(0), np.zeros(1))
    return Scatter(x, y, err, sample, density, spans, line, hist)
