"""Per-unit additive statistics of each metric, from its core result.

* kappa: the K x K cells of O are cells of identical rows; a replicate's
  sums are its cell counts. W and the rating range stay the full files'.
* LwLRAP: per sample (sum of its positives' precisions, its positive count);
  per class the same per (sample, class).
* F-beta (micro): per document (TP, FP, FN).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.resample import Units, resample_groups

if TYPE_CHECKING:
    from .fbeta import FbetaResult
    from .kappa import KappaResult
    from .lwlrap import LwlrapResult


def kappa_units(result: KappaResult) -> Units:
    """Units of a KappaResult: the nonzero cells of O, scored with its W."""
    obs = np.asarray(result.observed)
    k = obs.shape[0]
    w = np.asarray(result.weights, dtype=np.float64)
    ti, pj = np.nonzero(obs)
    cells = obs[ti, pj].astype(np.int64)
    wcell = w[ti, pj]

    def score(counts):
        counts = np.asarray(counts, dtype=np.float64)
        r = counts.shape[0]
        n = counts.sum(axis=1)
        num = counts @ wcell
        base = (np.arange(r) * k)[:, None]
        ht = np.bincount((base + ti).ravel(), counts.ravel(), r * k).reshape(r, k)
        hp = np.bincount((base + pj).ravel(), counts.ravel(), r * k).reshape(r, k)
        with np.errstate(invalid="ignore", divide="ignore"):
            den = ((ht @ w) * hp).sum(axis=1) / n
            out = 1.0 - num / den
        out[~((den > 0) & (n > 0))] = np.nan
        return out

    def jackknife():
        # One row of cell (i, j) left out: O - e_ij, in closed form.
        ht, hp = obs.sum(axis=1), obs.sum(axis=0)
        n = float(obs.sum())
        num = float((w * obs).sum())
        t = float(ht @ w @ hp)
        with np.errstate(invalid="ignore", divide="ignore"):
            den = (t - (w @ hp)[ti] - (ht @ w)[pj] + wcell) / (n - 1)
            vals = 1.0 - (num - wcell) / den
        vals[~(den > 0)] = np.nan
        return vals, cells

    marg = np.concatenate([obs.sum(axis=1), obs.sum(axis=0)])
    rare = int(marg[marg > 0].min()) if marg.any() else 0
    # Two classes: the rare one drives kappa, and with a handful of its rows no interval
    # holds (bench/coverage.py); with more classes a rare one weighs little (no caution).
    return Units(None, score, cells, "row", jackknife, minority=rare,
                 rare_below=None if k <= 2 else 0)


def _ratio(sums):
    with np.errstate(invalid="ignore", divide="ignore"):
        out = sums[:, 0] / sums[:, 1]
    out[sums[:, 1] == 0] = np.nan
    return out


def lwlrap_units(result: LwlrapResult) -> Units:
    """Units of an LwlrapResult: per sample (sum of precisions, positives)."""
    n = result.sample_scores.size
    rows = result.positive_rows
    stats = np.column_stack([np.bincount(rows, result.precisions, minlength=n),
                             np.bincount(rows, minlength=n).astype(np.float64)])
    return Units(stats, _ratio, None, "sample", mergeable=False)


def lwlrap_class_replicates(result, replicates, seed=0, cancel=None):
    """Per-class replicate scores (B, C) from the same draws as ``bootstrap``."""
    values = np.column_stack([result.precisions, np.ones(result.precisions.size)])
    c = result.per_class.size
    sums = resample_groups(result.positive_rows, result.positive_classes, values,
                           result.sample_scores.size, replicates, seed, cancel)
    out = np.full((sums.shape[0], c), np.nan)
    g = sums.shape[1]
    with np.errstate(invalid="ignore", divide="ignore"):
        out[:, :g] = np.where(sums[:, :, 1] > 0, sums[:, :, 0] / sums[:, :, 1], np.nan)
    return out


def lwlrap_class_jackknife(result, cls):
    """(values, weights) of class ``cls`` with each sample left out once."""
    n = result.sample_scores.size
    sel = result.positive_classes == cls
    prec = result.precisions[sel]
    p = prec.size
    if p == 0:
        return np.array([np.nan]), np.array([n])
    h = prec.sum()
    point = h / p
    with np.errstate(invalid="ignore", divide="ignore"):
        left = (h - prec) / (p - 1) if p > 1 else np.full(p, np.nan)
    return np.r_[point, left], np.r_[n - p, np.ones(p)]


def fbeta_units(result: FbetaResult) -> Units:
    """Units of an FbetaResult: per document (TP, FP, FN), micro F-beta of the sums."""
    b2 = float(result.beta) ** 2

    def score(sums):
        tp, fp, fn = sums[:, 0], sums[:, 1], sums[:, 2]
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = tp / (tp + fp)
            recall = tp / (tp + fn)
            out = (1 + b2) * precision * recall / (b2 * precision + recall)
        out[tp == 0] = 0.0
        out[tp + fp + fn == 0] = np.nan
        return out

    return Units(np.asarray(result.per_document, dtype=np.int64).reshape(-1, 3), score,
                 None, "document")


class ClassUnits:
    """Per-class LwLRAP statistics: points, replicates from the bootstrap's draws, jackknife."""

    def __init__(self, result):
        self.result = result

    def points(self):
        """(C,) per-class score; nan for a class without positives."""
        r = self.result
        return np.where(r.class_positives > 0, r.per_class, np.nan)

    def replicates(self, replicates, seed=0, cancel=None):
        return lwlrap_class_replicates(self.result, replicates, seed, cancel)

    def jackknife(self, cls):
        return lwlrap_class_jackknife(self.result, cls)
