"""Confusion-matrix populations beside those of coverage_populations.py, so that every
variant with confusion-matrix units the registry has is measured where ``auto``
chooses between the calibrated and the percentile interval: Cohen's (unweighted)
kappa of three classes, linear-weighted kappa, macro F1 and two-class MCC. True
scores are exact: each statistic's formula on the joint probabilities (every one of
them is a function of the confusion matrix's shares)."""
import math
from types import SimpleNamespace

import numpy as np

from coverage_base import Joint, Kappa, _neighbour_joint
from kmetric_gui.metrics import get_metric
from kmetric_gui.metrics.kernels.kappa import kappa_from_confusion, weight_matrix
from kmetric_gui.metrics.kernels.units import kappa_units

THREE = [0.5, 0.3, 0.2]


class WeightedKappa(Kappa):
    """Kappa with the given weights (Kappa's are quadratic)."""

    def __init__(self, name, words, joint, weights):
        self.name, self.words, self.weights = name, words, weights
        self.joint = joint / joint.sum()
        w = weight_matrix(joint.shape[0], weights)
        e = np.outer(self.joint.sum(axis=1), self.joint.sum(axis=0))
        self.value = float(1 - (w * self.joint).sum() / (w * e).sum())

    def units(self, rng, n):
        o = rng.multinomial(n, self.joint.ravel()).reshape(self.joint.shape)
        return kappa_units(kappa_from_confusion(o, weights=self.weights))


class OptionJoint(Joint):
    """A Joint population scored with metric options (e.g. macro F1)."""

    def __init__(self, name, family, words, joint, value, **options):
        super().__init__(name, family, words, joint, value)
        self.options = SimpleNamespace(**options)

    def family_units(self, truth, pred):
        m = get_metric(self.family)
        return m.units(m.kernel(truth, pred, self.options))


def _macro_f1(j):
    d = np.diag(j)
    return float(np.mean(2 * d / (j.sum(axis=0) + j.sum(axis=1))))


def _mcc(j):
    t, p = j.sum(axis=1), j.sum(axis=0)
    return float((np.trace(j) - t @ p) / math.sqrt((1 - t @ t) * (1 - p @ p)))


def confusion_populations():
    three = _neighbour_joint(THREE, 0.75)
    prev, sens, fpr = 0.2, 0.7, 0.1
    binary = np.array([[(1 - prev) * (1 - fpr), (1 - prev) * fpr], [prev * (1 - sens), prev * sens]])
    return [
        WeightedKappa("kappa-3", "Cohen's kappa (unweighted), 3 classes (50/30/20%), 75% right, "
                      "else one class off", three, "none"),
        WeightedKappa("kappa-linear", "linear-weighted kappa, 4 classes (40/30/20/10%), 70% right, "
                      "else one class off", _neighbour_joint([.4, .3, .2, .1], 0.7), "linear"),
        OptionJoint("f1-macro", "f1", "macro F1, 3 classes (50/30/20%), 75% right, else one "
                    "class off", three, _macro_f1(three), average="macro"),
        Joint("mcc-binary", "mcc", "MCC (binary), 20% positives, recall 0.7, 10% false positives",
              binary, _mcc(binary)),
    ]
