"""The coverage bench's populations of the later families (bench/coverage_families.py):
each true score (closed form, quadrature, exact sums, or one large simulated data set)
against the score of a large sample drawn through the metric's own statistics, within
4.5 standard errors (from 10 independent batches). A population whose true score does
not belong to what it draws (a wrong formula, a wrong parameter, a metric's option read
otherwise) fails: e.g. Spearman's (6/pi) asin(rho/2) taken as rho is off by 7 errors."""
import os
import sys

import numpy as np
import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.insert(0, BENCH)

from coverage_families import families  # noqa: E402

BATCHES = 10
SLOW = {"ndcg": 3_000, "levenshtein": 3_000, "jaccard-words": 3_000,   # drawn in Python
        "dice": 3_000, "map-boxes": 3_000,
        "point-f1": 3_000}


@pytest.mark.parametrize("pop", families(), ids=lambda p: p.name)
def test_true_score_is_the_large_sample_score(pop):
    size = SLOW.get(pop.name, 10_000)
    scores = np.array([pop.units(np.random.default_rng([36, b]), size).point()
                       for b in range(BATCHES)])
    error = scores.std(ddof=1) / np.sqrt(BATCHES)
    value = pop.compute_value()
    assert np.isfinite(value)
    assert abs(scores.mean() - value) <= 4.5 * error, (pop.name, value, scores.mean(), error)


def test_the_check_tells_a_wrong_true_score():
    """The check has the power to tell the rank correlations' values apart: Spearman's
    sample against Pearson's rho (the same bivariate normal) is far outside."""
    pops = {p.name: p for p in families()}
    sp = pops["spearman"]
    scores = np.array([sp.units(np.random.default_rng([36, b]), 10_000).point()
                       for b in range(BATCHES)])
    error = scores.std(ddof=1) / np.sqrt(BATCHES)
    assert abs(scores.mean() - pops["pearson"].value) > 4.5 * error
    assert abs(scores.mean() - pops["kendall"].value) > 4.5 * error


def test_populations_are_listed_once_with_their_family():
    from coverage_populations import populations

    from kmetric_gui.metrics import REGISTRY
    pops = populations()
    names = [p.name for p in pops]
    assert len(names) == len(set(names))
    new = {p.family for p in families()}
    assert new <= set(REGISTRY)
    assert {"pearson", "spearman", "kendall", "mcc", "smape", "mape", "ndcg", "levenshtein",
            "jaccard_words", "kl_divergence", "laplace_ll", "angular", "dice", "map_iou",
            "point_f1"} <= new
