"""The numbers the families' anatomy views draw (core/anatomy.py) against independent
references: scikit-learn's roc_curve and calibration_curve, plain loops and sorts."""
import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import confusion_matrix, roc_curve

from kmetric_gui.core.anatomy import (calibration, largest_first, one_vs_rest, operating_points,
                                      query_costs, residuals, roc_points, thin_curve)
from kmetric_gui.metrics.kernels.classification import labels_and_confusion
from kmetric_gui.metrics.kernels.mapk import mapk


@pytest.mark.parametrize("seed", range(4))
def test_roc_points_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) + 0.3 * y, 1 + seed % 3)       # ties at every rounding
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    roc = roc_points(y, s)
    np.testing.assert_allclose(roc.fpr, fpr)
    np.testing.assert_allclose(roc.tpr, tpr)
    np.testing.assert_array_equal(roc.thresholds[1:], thr[1:])
    assert roc.thresholds[0] == np.inf and roc.positives == y.sum()


def test_operating_points_equal_a_plain_count():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 500)
    s = np.round(rng.random(500) * 0.7 + 0.3 * y, 2)
    op = operating_points(y, s)
    for k, t in enumerate(op.thresholds):
        pred = s >= t
        tp, fp = int(np.sum(pred & (y == 1))), int(np.sum(pred & (y == 0)))
        assert op.tpr[k] == pytest.approx(tp / y.sum())
        assert op.fpr[k] == pytest.approx(fp / (y == 0).sum())
        assert op.predicted[k] == tp + fp
        assert op.precision[k] == pytest.approx(tp / (tp + fp)) if tp + fp else np.isnan(op.precision[k])
    j = [op.tpr[k] - op.fpr[k] for k in range(op.thresholds.size)]
    assert op.best == int(np.argmax(j))
    fpr, tpr, _ = roc_curve(y, s)
    assert j[op.best] == pytest.approx(np.max(tpr - fpr))       # the best point of the curve
    assert set(np.round(np.arange(1, 10) / 10, 10)) <= set(op.thresholds.tolist())


@pytest.mark.parametrize("bins", [5, 10])
def test_calibration_equals_sklearn_and_counts_a_loop(bins):
    rng = np.random.default_rng(bins)
    p = rng.random(400) ** 2
    p[:5] = [0.0, 0.1, 0.2, 1.0, 0.5]                  # bin edges land where sklearn puts them
    y = (rng.random(400) < p).astype(int)
    cal = calibration(y, p, bins)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=bins)
    full = cal.counts > 0
    np.testing.assert_allclose(cal.observed[full], prob_true)
    np.testing.assert_allclose(cal.mean_predicted[full], prob_pred)
    edges = np.linspace(0, 1, bins + 1)
    for b in range(bins):
        inside = [(edges[b] < v <= edges[b + 1]) or (b == 0 and v == 0) for v in p]
        assert cal.counts[b] == sum(inside)
    assert cal.counts.sum() == p.size


def test_one_vs_rest_layouts():
    codes = np.array([0, 2, 1, 2])
    pred = np.arange(12.0).reshape(4, 3)
    y, s = one_vs_rest(codes, pred, 2)
    assert y.tolist() == [False, True, False, True] and s.tolist() == [2, 5, 8, 11]
    y, s = one_vs_rest(np.eye(4, 3, dtype=np.int8), pred, 1)
    assert y.tolist() == [False, True, False, False]
    y, s = one_vs_rest(np.array([1, 0]), np.array([0.3, 0.6]), 0)
    assert y.tolist() == [True, False] and s.tolist() == [0.3, 0.6]


def test_confusion_equals_sklearn():
    rng = np.random.default_rng(2)
    t = rng.choice(np.array(["cat", "dog", "fox"]), 200)
    p = rng.choice(np.array(["cat", "dog", "fox"]), 200)
    labels, m = labels_and_confusion(t, p)
    np.testing.assert_array_equal(m, confusion_matrix(t, p, labels=labels))


def test_residuals_largest_first_equal_a_plain_sort():
    rng = np.random.default_rng(3)
    t = rng.normal(size=1000)
    p = t + np.round(rng.normal(size=1000), 1)            # ties in |error|
    err = p - t
    res = residuals(t, p, err, top=100)
    want = sorted(range(1000), key=lambda i: -abs(err[i]))[:100]
    assert res.order.tolist() == want
    np.testing.assert_allclose(res.residual, p - t)
    assert res.sample.size == 1000 and res.density is None
    assert res.hist[0].sum() == 1000


def test_residuals_of_many_rows_are_a_density_of_every_row():
    rng = np.random.default_rng(4)
    t = rng.random(30_000)
    res = residuals(t, t * 2, t, points=20_000, bins=50)
    assert res.sample is None and res.density.shape == (50, 50)
    assert res.density.sum() == 30_000
    lo, hi = res.span
    want = np.histogram2d(t, t * 2, bins=50, range=[[lo, hi], [lo, hi]])[0]
    np.testing.assert_array_equal(res.density, want)
    assert res.span == (pytest.approx(t.min()), pytest.approx(2 * t.max()))
    assert largest_first(np.array([1.0, np.nan, -3.0]), 3).tolist() == [2, 0, 1]


def apk(actual, predicted, k):
    """Kaggle's public apk (ml_metrics), as the docs quote it."""
    if len(predicted) > k:
        predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


def test_per_query_ap_and_costs_equal_a_plain_loop():
    rng = np.random.default_rng(6)
    items = [str(i) for i in range(12)]
    actual = [list(rng.choice(items, rng.integers(0, 4), replace=False)) for _ in range(300)]
    pred = [list(rng.choice(items, rng.integers(1, 8))) for _ in range(300)]
    r = mapk(actual, pred, k=5)
    want = [apk(a, p, 5) for a, p in zip(actual, pred)]
    np.testing.assert_allclose(r.ap, want)
    qc = query_costs(r.ap, r.actual_sizes, top=50)
    cost = [(1.0 if a else 0.0) - w for a, w in zip(actual, want)]
    assert qc.order.tolist() == sorted(range(300), key=lambda i: -cost[i])[:50]
    counts, edges = qc.hist
    assert counts.sum() == 300
    assert counts[-1] == sum(1 for w in want if w >= edges[-2])


def test_thin_curve_keeps_both_ends_and_the_shape():
    x = np.linspace(0, 1, 100_000)
    y = np.sqrt(x)
    keep = thin_curve(x, y, 500)
    assert keep[0] == 0 and keep[-1] == x.size - 1 and keep.size <= 502
    assert np.all(np.diff(keep) > 0)


def test_one_class_has_no_rates_and_no_best_point_but_no_error():
    op = operating_points(np.zeros(4, int), np.array([0.1, 0.4, 0.4, 0.9]))
    assert np.isnan(op.tpr).all() and op.predicted.tolist() == [4, 3, 3, 3, 1, 1, 1, 1, 1]
    roc = roc_points(np.ones(3, int), np.array([0.2, 0.5, 0.5]))
    assert roc.negatives == 0 and np.isnan(roc.fpr[1:]).all() and roc.tpr.tolist() == [0, 2 / 3, 1]


def test_largest_first_of_many_rows_with_ties_equals_a_stable_sort():
    rng = np.random.default_rng(8)
    e = rng.integers(-40, 40, 50_000).astype(float)      # every value tied many times
    e[rng.integers(0, e.size, 100)] = np.nan
    got = largest_first(e, 500)
    want = sorted(range(e.size), key=lambda i: (np.isnan(e[i]), -abs(e[i]) if e[i] == e[i] else 0))
    assert got.tolist() == want[:500]
