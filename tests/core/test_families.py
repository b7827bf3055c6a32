"""The common Kaggle metric families against scikit-learn and plain loops."""
import math

import numpy as np
import pytest
from sklearn import metrics as skm

from kmetric_gui.metrics.kernels.classification import accuracy, f1
from kmetric_gui.metrics.kernels.mapk import mapk
from kmetric_gui.metrics.kernels.probabilistic import log_loss
from kmetric_gui.metrics.kernels.regression import mae, mcrmse, rmse, rmsle
from kmetric_gui.core.resample import bootstrap, resample_indices
from kmetric_gui.errors import InputError


# --- plain references written from the public definitions ------------------

def apk_ref(actual, predicted, k):
    """Kaggle's public apk, written from its definition."""
    predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


def log_loss_ref(truth, probs, eps=1e-15):
    """Kaggle's multi-class log loss: clip, renormalise rows, mean -log p(true)."""
    total = 0.0
    for y, row in zip(truth, probs):
        clipped = [min(max(v, eps), 1 - eps) for v in row]
        total -= math.log(clipped[y] / sum(clipped))
    return total / len(truth)


RNG = np.random.default_rng(20261201)


# --- log loss ----------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 7, 500])
def test_binary_log_loss_equals_sklearn(n):
    y = RNG.integers(0, 2, n)
    y[0] = 1 - y[-1] if n > 1 else y[0]
    p = RNG.uniform(0.01, 0.99, n)
    r = log_loss(y, p)
    assert r.score == pytest.approx(skm.log_loss(y, p, labels=[0, 1]), rel=1e-12)
    assert r.losses.mean() == pytest.approx(r.score) and r.higher_is_better is False


def test_multiclass_log_loss_equals_sklearn_and_one_hot():
    y = RNG.integers(0, 5, 400)
    p = RNG.dirichlet(np.ones(5), 400)
    r = log_loss(y, p)
    assert r.score == pytest.approx(skm.log_loss(y, p, labels=range(5)), rel=1e-12)
    onehot = np.eye(5, dtype=int)[y]
    assert log_loss(onehot, p).score == pytest.approx(r.score, rel=1e-14)


def test_log_loss_clips_and_renormalises_as_kaggle():
    # zeros, ones and rows not summing to 1: Kaggle's clip then renormalise
    y = [0, 1, 2, 2]
    p = [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.2, 0.2, 0.2], [0.5, 0.5, 0.0]]
    r = log_loss(y, p)
    assert r.score == pytest.approx(log_loss_ref(y, p), rel=1e-12)
    assert r.clipped == 3
    assert log_loss(y, p, eps=1e-3).score == pytest.approx(log_loss_ref(y, p, 1e-3), rel=1e-12)
    # binary 0 and 1 probabilities: -log(1e-15) for the confident miss
    b = log_loss([1, 0], [0.0, 0.0])
    assert b.score == pytest.approx((-math.log(1e-15) - math.log(1 - 1e-15)) / 2)


@pytest.mark.parametrize("p,msg", [
    ([0.2, 1.2], "1.2, outside \\[0, 1\\] at position 1"),
    ([0.2, -0.1], "-0.1, outside"),
    ([np.nan, 0.5], "NaN at position 0"),
    ([0.5, np.inf], "infinite value at position 1"),
])
def test_log_loss_bad_probabilities(p, msg):
    with pytest.raises(InputError, match=msg):
        log_loss([0, 1], p)


def test_log_loss_bad_truth_and_eps():
    with pytest.raises(InputError, match="0 or 1; found 2 at row 1"):
        log_loss([0, 2], [0.1, 0.2])
    with pytest.raises(InputError, match="not one-hot"):
        log_loss([[1, 1], [0, 1]], [[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(InputError, match="integers 0..1"):
        log_loss([0, 2], [[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(InputError, match="eps"):
        log_loss([0, 1], [0.5, 0.5], eps=0.7)
    with pytest.raises(InputError, match="at least 2 columns"):
        log_loss([0, 0], [[1.0], [1.0]])


# --- regression ----------------------------------------------------------------

def test_regression_errors_equal_sklearn():
    t = RNG.normal(3, 2, 300)
    p = t + RNG.normal(0, 1, 300)
    assert rmse(t, p).score == pytest.approx(skm.root_mean_squared_error(t, p), rel=1e-12)
    assert mae(t, p).score == pytest.approx(skm.mean_absolute_error(t, p), rel=1e-12)
    tp, pp = np.abs(t), np.abs(p)
    assert rmsle(tp, pp).score == pytest.approx(
        skm.root_mean_squared_log_error(tp, pp), rel=1e-12)
    t2, p2 = RNG.normal(size=(200, 3)), RNG.normal(size=(200, 3))
    r = mcrmse(t2, p2)
    assert r.score == pytest.approx(skm.root_mean_squared_error(t2, p2), rel=1e-12)
    assert r.column_scores == pytest.approx(
        skm.root_mean_squared_error(t2, p2, multioutput="raw_values"), rel=1e-12)
    # 2-D rmse pools every cell
    assert rmse(t2, p2).score == pytest.approx(
        skm.root_mean_squared_error(t2.ravel(), p2.ravel()), rel=1e-12)
    assert r.higher_is_better is False


def test_regression_hand_numbers():
    assert rmse([0, 0, 0, 0], [1, 1, 1, 3]).score == pytest.approx(math.sqrt(12 / 4))
    assert mae([1, 2], [2, 0]).score == 1.5
    assert rmsle([0.0], [math.e - 1]).score == pytest.approx(1.0)
    assert mcrmse([[0, 0], [0, 0]], [[3, 0], [3, 4]]).score == pytest.approx((3 + math.sqrt(8)) / 2)


def test_regression_bad_input():
    with pytest.raises(InputError, match="negative value -1.0 at position 1"):
        rmsle([1.0, 2.0], [1.0, -1.0])
    with pytest.raises(InputError, match="truth has a negative value"):
        rmsle([-3.0, 2.0], [1.0, 1.0])
    with pytest.raises(InputError, match="predictions has NaN at position 2"):
        rmse([1.0, 2.0, 3.0], [1.0, 2.0, np.nan])
    with pytest.raises(InputError, match="truth has an infinite value at row 1, column 0"):
        mcrmse([[1.0], [np.inf]], [[1.0], [1.0]])
    with pytest.raises(InputError, match="differ in shape"):
        mae([1.0], [1.0, 2.0])
    with pytest.raises(InputError, match="predictions has NaN"):
        rmsle([1.0], [np.nan])


def test_regression_units_bootstrap_equals_plain_loop():
    t, p = RNG.normal(size=40), RNG.normal(size=40)
    idx = resample_indices(40, 30, seed=5)
    for fn, ref in ((rmse, skm.root_mean_squared_error), (mae, skm.mean_absolute_error)):
        reps = bootstrap(fn(t, p).units(), 30, seed=5)
        assert reps == pytest.approx([ref(t[i], p[i]) for i in idx], rel=1e-10)
    t2, p2 = RNG.normal(size=(40, 2)), RNG.normal(size=(40, 2))
    reps = bootstrap(mcrmse(t2, p2).units(), 30, seed=5)
    assert reps == pytest.approx([skm.root_mean_squared_error(t2[i], p2[i]) for i in idx], rel=1e-10)
    assert mcrmse(t2, p2).units().point() == pytest.approx(mcrmse(t2, p2).score)


# --- accuracy and F1 --------------------------------------------------------------

@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_f1_multiclass_equals_sklearn(average):
    t = RNG.integers(0, 6, 500)
    p = np.where(RNG.random(500) < 0.6, t, RNG.integers(0, 7, 500))   # 6 only predicted
    r = f1(t, p, average=average)
    assert r.score == pytest.approx(skm.f1_score(t, p, average=average, zero_division=0), rel=1e-12)
    assert r.per_class == pytest.approx(skm.f1_score(t, p, average=None, zero_division=0))


def test_f1_text_labels_and_binary_pos_label():
    t = np.array(["cat", "dog", "dog", "cat", "dog"])
    p = np.array(["cat", "cat", "dog", "dog", "dog"])
    assert f1(t, p, pos_label="dog").score == pytest.approx(skm.f1_score(t, p, pos_label="dog"))
    assert f1(t, p, pos_label="cat").score == pytest.approx(skm.f1_score(t, p, pos_label="cat"))
    yt, yp = RNG.integers(0, 2, 300), RNG.integers(0, 2, 300)
    assert f1(yt, yp).score == pytest.approx(skm.f1_score(yt, yp))
    assert f1(yt, yp, pos_label="0").score == pytest.approx(skm.f1_score(yt, yp, pos_label=0))


def test_f1_zero_division_and_bad_input():
    # the positive label nowhere: 0/0, reported 0.0 like scikit-learn
    r = f1([0, 0], [0, 0])
    assert r.score == 0.0 == skm.f1_score([0, 0], [0, 0], zero_division=0)
    assert "zero_division" in r.note
    with pytest.raises(InputError, match="at most 2 labels; found 3"):
        f1([0, 1, 2], [0, 1, 1])
    with pytest.raises(InputError, match="positive label 'x' is not one of"):
        f1(["a", "b"], ["a", "a"], pos_label="x")
    with pytest.raises(InputError, match="both be numbers or both be text"):
        f1([1, 2], ["1", "2"], average="macro")
    with pytest.raises(InputError, match="average"):
        f1([1], [1], average="samples")


def test_accuracy_equals_sklearn_and_units():
    t = RNG.integers(0, 4, 300)
    p = np.where(RNG.random(300) < 0.5, t, RNG.integers(0, 4, 300))
    r = accuracy(t, p)
    assert r.score == pytest.approx(skm.accuracy_score(t, p))
    assert r.units().point() == pytest.approx(r.score)
    assert accuracy(["a", "b"], ["a", "c"]).score == 0.5
    assert np.isnan(accuracy([], []).score)


def test_classification_bootstrap_same_law_as_rows():
    # cells are multinomial draws: mean and spread agree with a row bootstrap
    t = RNG.integers(0, 3, 60)
    p = np.where(RNG.random(60) < 0.6, t, RNG.integers(0, 3, 60))
    reps = bootstrap(f1(t, p, average="macro").units(), 4000, seed=1)
    idx = resample_indices(60, 4000, seed=2)
    ref = np.array([skm.f1_score(t[i], p[i], average="macro", zero_division=0,
                                 labels=np.unique(np.r_[t[i], p[i]])) for i in idx])
    assert reps.mean() == pytest.approx(ref.mean(), abs=0.005)
    assert reps.std() == pytest.approx(ref.std(), rel=0.08)
    # the units' point equals the score, for every average
    for avg in ("macro", "micro", "weighted"):
        assert f1(t, p, average=avg).units().point() == pytest.approx(f1(t, p, average=avg).score)
    b = f1(t > 0, p > 0)
    assert b.units().point() == pytest.approx(b.score)
    assert b.row_stats.sum(axis=0).tolist() == [b.tp[b.pos_index], b.fp[b.pos_index], b.fn[b.pos_index]]


# --- MAP@K -----------------------------------------------------------------------

def test_mapk_equals_plain_apk_on_random_lists():
    items = list("abcdefghij")
    actual, predicted = [], []
    for _ in range(300):
        actual.append(list(RNG.choice(items, RNG.integers(0, 4), replace=False)))
        predicted.append(list(RNG.choice(items, RNG.integers(0, 9), replace=True)))  # duplicates
    for k in (1, 3, 5, 10):
        r = mapk([" ".join(a) for a in actual], [" ".join(p) for p in predicted], k=k)
        ref = [apk_ref(a, p, k) for a, p in zip(actual, predicted)]
        assert r.ap == pytest.approx(ref)
        assert r.score == pytest.approx(np.mean(ref))


def test_mapk_edge_cases():
    # duplicates count once but take their position; empty actual scores 0
    assert mapk(["a b"], ["a a b"], k=3).ap[0] == pytest.approx((1 + 2 / 3) / 2)
    assert mapk([""], ["a"], k=3).ap[0] == 0.0
    assert mapk(["a"], [""], k=3).ap[0] == 0.0
    assert mapk([["x", "y"]], [["y", "x"]], k=1).score == 1.0
    with pytest.raises(InputError, match="at least 1"):
        mapk(["a"], ["a"], k=0)
    with pytest.raises(InputError, match="1 queries, predictions 2"):
        mapk(["a"], ["a", "b"], k=2)
    r = mapk(["a b", "c"], ["b a", "x"], k=2)
    assert r.units().point() == pytest.approx(r.score) and r.higher_is_better


def test_f1_label_spans_and_kinds_take_either_counting_path():
    t = RNG.choice([3, 5000, 99999, -7], 300)          # span > 2048: coded labels
    p = np.where(RNG.random(300) < 0.6, t, RNG.choice([3, 5000, 99999, -7], 300))
    for avg in ("macro", "micro", "weighted"):
        assert f1(t, p, average=avg).score == pytest.approx(
            skm.f1_score(t, p, average=avg), rel=1e-12)
    small = np.abs(t) % 4                                # span 4: counted in one pass
    ps = np.abs(p) % 4
    r = f1(small, ps, average="macro")
    assert r.score == pytest.approx(skm.f1_score(small, ps, average="macro"), rel=1e-12)
    assert r.confusion.tolist() == skm.confusion_matrix(small, ps).tolist()
    assert (r.labels[r.truth_codes] == small).all() and (r.labels[r.pred_codes] == ps).all()
    b = f1(small > 1, ps > 1)                            # booleans: True is the positive label
    assert b.score == pytest.approx(skm.f1_score(small > 1, ps > 1))
