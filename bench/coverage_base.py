"""What every coverage population is made of (bench/coverage_populations.py and the
families beside it import from here, so that the list of populations can import them
in turn without a circle).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kmetric_gui.metrics import get_metric  # noqa: E402
from kmetric_gui.metrics.kernels.kappa import kappa_from_confusion, weight_matrix  # noqa: E402
from kmetric_gui.metrics.kernels.units import kappa_units  # noqa: E402


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _neighbour_joint(p_true, agree):
    """Joint (truth, prediction) probabilities: the truth with prob. agree, else +-1."""
    k = len(p_true)
    j = np.zeros((k, k))
    for t, p in enumerate(p_true):
        j[t, t] += p * agree
        nb = [x for x in (t - 1, t + 1) if 0 <= x < k]
        for x in nb:
            j[t, x] += p * (1 - agree) / len(nb)
    return j


class Population:
    name = ""
    family = ""          # the metric (registry name) whose statistics are drawn
    words = ""           # the population in a few words (the table's first column)
    value = None         # the true score: exact here, or set from compute_value() by the harness

    def compute_value(self):
        """The true score of a population without a closed form (one large data set)."""
        return self.value

    def units(self, rng, n):
        raise NotImplementedError

    def family_units(self, truth, pred):
        m = get_metric(self.family)
        return m.units(m.kernel(truth, pred, None))


class Kappa(Population):
    family = "qwk"

    def __init__(self, name, words, joint):
        self.name, self.words = name, words
        self.joint = joint / joint.sum()
        w = weight_matrix(joint.shape[0], "quadratic")
        e = np.outer(self.joint.sum(axis=1), self.joint.sum(axis=0))
        self.value = float(1 - (w * self.joint).sum() / (w * e).sum())

    def units(self, rng, n):
        o = rng.multinomial(n, self.joint.ravel()).reshape(self.joint.shape)
        return kappa_units(kappa_from_confusion(o))


class Joint(Population):
    """Truth and prediction drawn from a joint table of class probabilities."""

    def __init__(self, name, family, words, joint, value):
        self.name, self.family, self.words = name, family, words
        self.joint, self.value = joint / joint.sum(), value

    def units(self, rng, n):
        k = self.joint.shape[0]
        cell = rng.choice(k * k, size=n, p=self.joint.ravel())
        return self.family_units(cell // k, cell % k)
