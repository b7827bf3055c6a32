"""Populations with a known true score, one or more per metric family (bench/coverage.py).

Each population draws a data set of n units and returns the metric's own statistics
for it (``units``), as `kmetric score` builds them from files: the metric module's
kernel and ``units`` hook. ``value`` is the population's true score: exact where it
has a closed form, else the score of one very large simulated data set (``LARGE``
units, seed fixed; its own error is far below the intervals' widths at n = 1,000).
"""
import math
import os
import sys
from statistics import NormalDist
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kmetric_gui.metrics import get_metric  # noqa: E402
from kmetric_gui.metrics.kernels.lwlrap import lwlrap  # noqa: E402
from kmetric_gui.metrics.kernels.units import fbeta_units, lwlrap_units  # noqa: E402

from coverage_base import Joint, Kappa, Population, _neighbour_joint, _sigmoid  # noqa: E402,F401

LARGE = 2_000_000
ROOT = os.path.join(os.path.dirname(__file__), "..")


class Lwlrap(Population):
    name, family = "lwlrap", "lwlrap"
    words = "LwLRAP, 8 classes (labels 30% .. 2%), scores label + N(0, 1)"
    rates = np.array([0.3, 0.2, 0.15, 0.1, 0.07, 0.05, 0.03, 0.02])

    def compute_value(self):
        return float(self._score(np.random.default_rng(99), LARGE // 4))

    def _draw(self, rng, n):
        truth = rng.random((n, self.rates.size)) < self.rates
        return truth, truth * 1.0 + rng.standard_normal(truth.shape)

    def _score(self, rng, n):
        return lwlrap(*self._draw(rng, n)).score

    def units(self, rng, n):
        return lwlrap_units(lwlrap(*self._draw(rng, n)))


class FbetaHeavy(Population):
    """Documents of Zipf(2.2) sizes (infinite variance) whose quality varies by document:
    each document's matches rise and fall together, so its share of the sums is as heavy
    as its size. Micro F0.5 = 1.25 E[q] / (1.25 E[q] + 0.25 (1 - E[q]) + 0.5 (1 - E[q]))
    exactly, whatever the size law (sizes independent of quality)."""
    name, family = "fbeta-heavy", "fbeta"
    words = "F-beta, documents of Zipf(2.2) sizes, quality Beta(2, 1) per document"

    def __init__(self):
        q = 2.0 / 3.0
        self.value = 1.25 * q / (1.25 * q + 0.25 * (1 - q) + 0.5 * (1 - q))

    def units(self, rng, n):
        size = np.minimum(rng.zipf(2.2, size=n), 1_000_000)
        q = rng.beta(2.0, 1.0, size=n)
        tp = rng.binomial(size, q)
        fp = rng.poisson(0.5 * size * (1 - q))
        counts = np.column_stack([tp, fp, size - tp]).astype(np.int64)
        return fbeta_units(SimpleNamespace(beta=0.5, per_document=counts))


class AucRare(Population):
    name, family = "auc-rare", "auc"
    words = "AUC, 2% positives, binormal (positives shifted 1.19 sd)"
    shift = 1.19

    def __init__(self):
        self.value = NormalDist().cdf(self.shift / math.sqrt(2))

    def units(self, rng, n):
        y = (rng.random(n) < 0.02).astype(np.int64)
        s = np.round(rng.standard_normal(n) + self.shift * y, 6)
        return self.family_units(y, s)


class LogLoss(Population):
    name, family = "logloss", "logloss"
    words = "log loss, 30% positives, calibrated logistic predictions"

    def compute_value(self):
        p = self._p(np.random.default_rng(98), LARGE)
        return float(np.mean(-(p * np.log(p) + (1 - p) * np.log1p(-p))))   # E[entropy]

    def _p(self, rng, n):
        return _sigmoid(-1.2 + 1.5 * rng.standard_normal(n))

    def units(self, rng, n):
        p = self._p(rng, n)
        y = (rng.random(n) < p).astype(np.int64)
        return self.family_units(y, p)


def _accuracy():
    j = _neighbour_joint([0.5, 0.3, 0.2], 0.8)
    return Joint("accuracy", "accuracy", "accuracy, 3 classes, 80% right", j, float(np.trace(j)))


def _f1():
    prev, sens, fpr = 0.2, 0.7, 0.1
    j = np.array([[(1 - prev) * (1 - fpr), (1 - prev) * fpr], [prev * (1 - sens), prev * sens]])
    tp, fp, fn = j[1, 1], j[0, 1], j[1, 0]
    return Joint("f1", "f1", "F1 (binary), 20% positives, recall 0.7, 10% false positives", j,
                 2 * tp / (2 * tp + fp + fn))


class Mapk(Population):
    name, family = "mapk", "mapk"
    words = "MAP@5, 1-3 relevant of 40 items, predictions right at 35% per slot"

    def compute_value(self):
        return float(self._ap(np.random.default_rng(97), LARGE // 8).mean())

    def _draw(self, rng, n):
        rel = 1 + rng.integers(0, 3, size=n)
        actual, pred = [], []
        for r in rel.tolist():
            items = rng.permutation(40)
            good = items[:r]
            hit = rng.random(5) < 0.35
            bad = iter(items[r:].tolist())
            picks = [int(good[rng.integers(0, r)]) if h else next(bad) for h in hit]
            actual.append(" ".join(map(str, good.tolist())))
            pred.append(" ".join(map(str, dict.fromkeys(picks))))
        return actual, pred

    def _ap(self, rng, n):
        m = get_metric(self.family)
        return m.kernel(*self._draw(rng, n), None).ap

    def units(self, rng, n):
        return self.family_units(*self._draw(rng, n))


class Regression(Population):
    def __init__(self, name, family, words, errors, value=None, truth=None):
        self.name, self.family, self.words = name, family, words
        self.errors, self.truth = errors, truth or (lambda rng, n: 10 + rng.standard_normal(n))
        self.value = value

    def compute_value(self):
        if self.value is not None:
            return self.value
        rng = np.random.default_rng(96)
        t = self.truth(rng, LARGE)
        return float(get_metric(self.family).kernel(t, self._pred(rng, t), None).score)

    def _pred(self, rng, t):
        return self.errors(rng, t)

    def units(self, rng, n):
        t = self.truth(rng, n)
        return self.family_units(t, self._pred(rng, t))


def _regressions():
    t3 = Regression("rmse-t3", "rmse", "RMSE, t(3) errors (heavy tail, infinite 4th moment)",
                    lambda rng, t: t + rng.standard_t(3, t.shape), math.sqrt(3.0))
    normal = Regression("rmse-normal", "rmse", "RMSE, normal errors",
                        lambda rng, t: t + rng.standard_normal(t.shape), 1.0)
    rmsle = Regression("rmsle", "rmsle", "RMSLE, log-normal truth, predictions off by x exp(N(0, 0.3))",
                       lambda rng, t: t * np.exp(0.3 * rng.standard_normal(t.shape)),
                       truth=lambda rng, n: np.exp(2 + rng.standard_normal(n)))
    mae = Regression("mae", "mae", "MAE, normal errors",
                     lambda rng, t: t + rng.standard_normal(t.shape), math.sqrt(2 / math.pi))
    sd = np.array([1.0, 2.0, 0.5])
    mcrmse = Regression("mcrmse", "mcrmse", "MCRMSE, 3 columns, normal errors (sd 1, 2, 0.5)",
                        lambda rng, t: t + rng.standard_normal(t.shape) * sd, float(sd.mean()),
                        truth=lambda rng, n: 10 + rng.standard_normal((n, 3)))
    return [t3, normal, rmsle, mae, mcrmse]


def populations():
    binary = np.array([[0.95 * 0.97, 0.95 * 0.03], [0.05 * 0.3, 0.05 * 0.7]])
    out = [Kappa("qwk-rare", "QWK, 5 classes (60 .. 1%), 70% agreement, else one class off",
                 _neighbour_joint([.60, .25, .10, .04, .01], 0.7)),
           Kappa("kappa-binary-5%", "binary kappa, 5% prevalence, recall 0.7, 3% false positives",
                 binary),
           Lwlrap(), FbetaHeavy(), AucRare(), LogLoss(), _accuracy(), _f1(), Mapk()]
    out += _regressions()
    from coverage_metricfile import MetricFilePopulation
    out.append(MetricFilePopulation())
    from coverage_families import families
    from coverage_confusion import confusion_populations
    return out + families() + confusion_populations()
