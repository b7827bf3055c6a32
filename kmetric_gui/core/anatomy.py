"""What the app's anatomy views of the common families draw (numpy only, run on a worker).

ROC points and operating points, calibration bins, regression residuals (sampled
points or a 2-D density, largest errors first), the per-query AP histogram and
the queries that cost most. The views only draw these.
"""
from dataclasses import dataclass

import numpy as np

TOP = 500                 # rows listed in a "largest first" table
POINTS = 20_000           # truth vs prediction: every point up to this, else a density
DENSITY_BINS = 160


# -- probabilities ----------------------------------------------------------------------
@dataclass(frozen=True)
class Roc:
    fpr: np.ndarray           # (m,) from 0 to 1, a point per distinct score (and the origin)
    tpr: np.ndarray
    thresholds: np.ndarray    # (m,) score >= threshold is positive; inf at the origin
    positives: int
    negatives: int
    tps: np.ndarray           # (m,) rows counted positive at each point that are (true
    fps: np.ndarray           # positives) and are not (false positives)


def roc_points(y, s):
    """Every point of the ROC curve (scikit-learn's ``roc_curve(drop_intermediate=False)``):
    rows with score >= threshold predicted positive, one point per distinct score."""
    y = np.asarray(y).astype(bool)
    s = np.asarray(s, dtype=np.float64)
    order = np.argsort(s)[::-1]           # ties need no order: only a tie run's end counts
    ss = s[order]
    last = np.r_[np.flatnonzero(ss[1:] != ss[:-1]), ss.size - 1] if ss.size else np.zeros(0, int)
    tps = np.r_[0, np.cumsum(y[order])[last]] if ss.size else np.zeros(1, np.int64)
    fps = np.r_[0, last + 1] - tps
    pos, neg = int(y.sum()), int(y.size - y.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = tps / pos if pos else np.r_[0.0, np.full(tps.size - 1, np.nan)]
        fpr = fps / neg if neg else np.r_[0.0, np.full(fps.size - 1, np.nan)]
    return Roc(fpr, tpr, np.r_[np.inf, ss[last]], pos, neg, tps, fps)


def thin_curve(x, y, n=4000):
    """Indices of at most ~n points spread along a monotone curve (both ends kept), to draw."""
    if x.size <= n:
        return np.arange(x.size)
    step = np.abs(np.diff(x)) + np.abs(np.diff(y))
    length = np.r_[0.0, np.cumsum(np.nan_to_num(step))]
    at = np.searchsorted(length, np.linspace(0, length[-1], n))
    return np.unique(np.r_[0, np.minimum(at, x.size - 1), x.size - 1])


@dataclass(frozen=True)
class OperatingPoints:
    thresholds: np.ndarray    # (t,)
    tpr: np.ndarray
    fpr: np.ndarray
    precision: np.ndarray     # nan where nothing is predicted positive
    predicted: np.ndarray     # rows predicted positive (score >= threshold)
    best: int                 # index of the largest TPR - FPR (Youden's J)


def operating_points(y, s, thresholds=None, roc=None):
    """TPR, FPR and precision at each threshold (score >= threshold is positive). Default
    thresholds: 0.1 .. 0.9 for scores in [0, 1], else the scores' deciles; the point of
    the largest TPR - FPR among distinct scores is added. ``roc``: roc_points(y, s), if made."""
    s = np.asarray(s, dtype=np.float64)
    roc = roc_points(y, s) if roc is None else roc
    if thresholds is None:
        if s.size and s.min() >= 0 and s.max() <= 1:
            thresholds = np.round(np.arange(1, 10) / 10, 10)
        else:
            thresholds = np.unique(np.quantile(s, np.arange(1, 10) / 10)) if s.size else []
        j = (roc.tpr - roc.fpr)[1:]           # not the origin (no threshold)
        if np.isfinite(j).any():
            thresholds = np.r_[thresholds, roc.thresholds[1:][int(np.nanargmax(j))]]
    t = np.unique(np.asarray(thresholds, dtype=np.float64))
    at = np.searchsorted(-roc.thresholds[1:], -t, side="right")   # distinct scores >= t
    tp, fp = roc.tps[at], roc.fps[at]
    pos, neg = roc.positives, roc.negatives
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = tp / pos if pos else np.full(t.size, np.nan)
        fpr = fp / neg if neg else np.full(t.size, np.nan)
        precision = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), np.nan)
    j = np.nan_to_num(tpr - fpr, nan=-np.inf)
    return OperatingPoints(t, tpr, fpr, precision, tp + fp, int(np.argmax(j)) if t.size else -1)


@dataclass(frozen=True)
class Calibration:
    edges: np.ndarray         # (bins + 1,) uniform over [0, 1]
    mean_predicted: np.ndarray    # (bins,) nan for an empty bin
    observed: np.ndarray      # (bins,) share of positives, nan for an empty bin
    counts: np.ndarray        # (bins,) rows in each bin


def calibration(y, p, bins=10):
    """Reliability per uniform bin of [0, 1] as ``sklearn.calibration.calibration_curve``
    bins (a bin holds (lo, hi], the first also 0), with the rows of each bin."""
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    edges = np.linspace(0.0, 1.0, bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    counts = np.bincount(ids, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_p = np.bincount(ids, weights=p, minlength=bins) / counts
        observed = np.bincount(ids, weights=y, minlength=bins) / counts
    return Calibration(edges, mean_p, observed, counts)


def one_vs_rest(truth, pred, j):
    """(0/1 truth, scores) of class or column ``j``: binary (j = 0), class codes or 0/1 columns."""
    truth, pred = np.asarray(truth), np.asarray(pred)
    if pred.ndim == 1:
        return truth.astype(bool), pred
    y = truth[:, j] if truth.ndim == 2 else truth == j
    return np.asarray(y).astype(bool), pred[:, j]


# -- regression -------------------------------------------------------------------------
@dataclass(frozen=True)
class Residuals:
    order: np.ndarray         # (<= TOP,) positions, largest metric error first (ties by position)
    residual: np.ndarray      # (n,) prediction - truth
    sample: "np.ndarray | None"   # positions drawn as points (None: a density instead)
    density: "np.ndarray | None"  # (bins, bins) counts: truth along axis 0, prediction axis 1
    span: tuple               # (low, high) of both axes
    hist: tuple               # (counts, edges) of the residuals, the 0.5% at each end in the end bins


def largest_first(error, top=TOP):
    """Positions of the ``top`` largest |error|, largest first, ties in position order
    (a stable sort of every row, made on the few rows at or above the top's last value)."""
    e = np.abs(np.asarray(error, dtype=np.float64))
    key = np.where(np.isnan(e), np.inf, -e)      # nan last
    if key.size > 4 * top:
        cut = np.partition(key, top - 1)[top - 1]
        near = np.flatnonzero(key <= cut)          # every tie of the last one, in position order
        return near[np.argsort(key[near], kind="stable")][:top]
    return np.argsort(key, kind="stable")[:top]


def residuals(truth, pred, error, points=POINTS, bins=DENSITY_BINS, top=TOP):
    """Truth vs prediction (every point up to ``points`` rows, else a 2-D density) and
    the residuals; ``error``: the metric's own error of each row (sorted largest first)."""
    t = np.asarray(truth, dtype=np.float64)
    p = np.asarray(pred, dtype=np.float64)
    r = p - t
    both = np.r_[t, p]
    both = both[np.isfinite(both)]
    lo, hi = (float(both.min()), float(both.max())) if both.size else (0.0, 1.0)
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    sample = density = None
    if t.size <= points:
        sample = np.arange(t.size)
    else:
        scale = bins / (hi - lo)         # histogram2d's bins, by one bincount
        it = np.clip(((t - lo) * scale).astype(np.int64), 0, bins - 1)
        ip = np.clip(((p - lo) * scale).astype(np.int64), 0, bins - 1)
        ok = np.isfinite(t) & np.isfinite(p)
        density = np.bincount((it * bins + ip)[ok], minlength=bins * bins).reshape(bins, bins)
    fin = r[np.isfinite(r)]
    hist = (np.zeros(0), np.zeros(1))
    if fin.size:      # the middle 99%: a few wild rows would squeeze every bar into one
        a, b = np.quantile(fin, [0.005, 0.995])
        a, b = (a, b) if b > a else (fin.min() - 0.5, fin.max() + 0.5)
        hist = np.histogram(np.clip(fin, a, b), bins=60, range=(a, b))
    return Residuals(largest_first(error, top), r, sample, density, (lo, hi), hist)


# -- ranking (per-query average precision) ------------------------------------------------
@dataclass(frozen=True)
class QueryCosts:
    order: np.ndarray         # (<= TOP,) queries, costliest first (ties by position)
    cost: np.ndarray          # (n,) AP a query misses: its best AP (1, or 0 with nothing relevant) - AP
    hist: tuple               # (counts, edges) of AP over [0, 1]


def query_costs(ap, actual_sizes, bins=20, top=TOP):
    """The per-query AP histogram and the queries that cost most (what fixing each gains,
    times the query count)."""
    ap = np.asarray(ap, dtype=np.float64)
    best = (np.asarray(actual_sizes) > 0).astype(np.float64)
    cost = best - ap
    order = np.argsort(-cost, kind="stable")[:top]
    return QueryCosts(order, cost, np.histogram(ap, bins=bins, range=(0.0, 1.0)))
