"""The coverage bench's extra confusion-matrix populations (bench/coverage_confusion.py):
each exact true score against the mean score of large samples drawn through the metric's
own statistics (within 4.5 standard errors of 10 batches), and each sample's score
against scikit-learn's on the same labels."""
import os
import sys

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, f1_score, matthews_corrcoef

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.insert(0, BENCH)

from coverage_confusion import confusion_populations  # noqa: E402

BATCHES = 10


@pytest.mark.parametrize("pop", confusion_populations(), ids=lambda p: p.name)
def test_true_score_is_the_large_sample_score(pop):
    scores = np.array([pop.units(np.random.default_rng([36, b]), 10_000).point()
                       for b in range(BATCHES)])
    error = scores.std(ddof=1) / np.sqrt(BATCHES)
    assert abs(scores.mean() - pop.value) <= 4.5 * error, (pop.name, pop.value, scores.mean())


def _labels(pop, n, seed):
    k = pop.joint.shape[0]
    cell = np.random.default_rng(seed).choice(k * k, size=n, p=pop.joint.ravel())
    return cell // k, cell % k


SKLEARN = {"kappa-3": lambda t, p: cohen_kappa_score(t, p),
           "kappa-linear": lambda t, p: cohen_kappa_score(t, p, weights="linear"),
           "f1-macro": lambda t, p: f1_score(t, p, average="macro"),
           "mcc-binary": matthews_corrcoef}


@pytest.mark.parametrize("name", sorted(SKLEARN))
def test_a_sample_scores_as_scikit_learn_scores_it(name):
    pop = next(p for p in confusion_populations() if p.name == name)
    t, p = _labels(pop, 500, 7)
    if hasattr(pop, "weights"):                 # kappa: units from the confusion counts
        from kmetric_gui.metrics.kernels.kappa import kappa_from_confusion
        from kmetric_gui.metrics.kernels.units import kappa_units
        k = pop.joint.shape[0]
        o = np.bincount(t * k + p, minlength=k * k).reshape(k, k)
        got = kappa_units(kappa_from_confusion(o, weights=pop.weights)).point()
    else:
        got = pop.family_units(t, p).point()
    assert got == pytest.approx(SKLEARN[name](t, p), abs=1e-12)
