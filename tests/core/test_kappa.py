import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels import (KappaAccumulator, kappa_from_confusion,
                              weight_matrix, weighted_kappa)
from kmetric_gui.errors import InputError
from reference import close, kappa_ref

SK = {"quadratic": "quadratic", "linear": "linear", "none": None}


@pytest.mark.parametrize("t,p,expected", [
    ([0, 1, 2, 3, 4, 2, 1, 0], [0, 2, 2, 3, 3, 1, 1, 0], (0.52, 0.727273, 0.875)),
    ([0, 1, 2, 3], [3, 2, 1, 0], (-0.333333, -0.6, -1.0)),
    ([0, 1, 3, 3, 1, 0], [0, 3, 3, 1, 1, 0], (0.5, 0.5, 0.571429)),
])
def test_worked_numbers_from_metrics_md(t, p, expected):
    for w, e in zip(("none", "linear", "quadratic"), expected):
        assert weighted_kappa(t, p, weights=w).score == pytest.approx(e, abs=1e-6)


def test_seed_example():
    r = weighted_kappa([1, 1, 1, 2, 3, 4, 4, 4, 4, 4], [1, 1, 1, 2, 3, 4, 4, 4, 4, 0])
    assert r.score == pytest.approx(0.615385, abs=1e-6)
    assert list(r.labels) == [0, 1, 2, 3, 4]


def test_absent_middle_class_uses_integer_range_not_observed_labels():
    t, p = [0, 1, 3, 3, 1, 0], [0, 3, 3, 1, 1, 0]
    r = weighted_kappa(t, p)
    assert r.observed.shape == (4, 4)
    assert r.hist_true[2] == 0 and r.hist_pred[2] == 0
    sk = cohen_kappa_score(t, p, weights="quadratic", labels=range(0, 4))
    assert r.score == pytest.approx(sk, abs=1e-12)
    # sklearn's default compresses the absent class and disagrees
    assert abs(cohen_kappa_score(t, p, weights="quadratic") - r.score) > 1e-3


def test_matrices_are_consistent():
    rng = np.random.default_rng(0)
    t = rng.integers(0, 5, 500)
    p = np.clip(t + rng.integers(-1, 2, 500), 0, 4)
    r = weighted_kappa(t, p)
    o = np.zeros((5, 5))
    for a, b in zip(t, p):
        o[a, b] += 1
    assert np.array_equal(r.observed, o)
    assert r.expected.sum() == pytest.approx(r.observed.sum())
    assert np.allclose(r.expected, np.outer(o.sum(1), o.sum(0)) / 500)
    assert r.numerator == pytest.approx((r.weights * o).sum())
    assert r.denominator == pytest.approx((r.weights * r.expected).sum())
    assert r.score == pytest.approx(1 - r.numerator / r.denominator)
    assert np.allclose(r.numerator_matrix, r.weights * o)
    assert r.weights.max() == 1.0 and np.all(np.diag(r.weights) == 0)
    assert np.allclose(r.perfect_expected, np.outer(o.sum(1), o.sum(1)) / 500)


def test_weight_matrices():
    assert np.allclose(weight_matrix(3, "quadratic"), [[0, .25, 1], [.25, 0, .25], [1, .25, 0]])
    assert np.allclose(weight_matrix(3, "linear"), [[0, .5, 1], [.5, 0, .5], [1, .5, 0]])
    assert np.allclose(weight_matrix(3, "none"), 1 - np.eye(3))


def test_declared_range_changes_k_and_score_matches_sklearn():
    t, p = [1, 2, 3, 2], [1, 3, 3, 2]
    r = weighted_kappa(t, p, min_rating=0, max_rating=5)
    assert r.observed.shape == (6, 6)
    sk = cohen_kappa_score(t, p, weights="quadratic", labels=range(0, 6))
    assert r.score == pytest.approx(sk, abs=1e-12)
    assert r.score == pytest.approx(kappa_ref(t, p, "quadratic", 0, 5), abs=1e-12)


@pytest.mark.parametrize("kw,msg", [
    (dict(max_rating=3), "above the declared maximum 3"),
    (dict(min_rating=2), "below the declared minimum 2"),
])
def test_value_outside_declared_range(kw, msg):
    with pytest.raises(InputError, match=msg):
        weighted_kappa([1, 2, 4], [1, 2, 3], **kw)


def test_undefined_when_everything_is_one_class():
    r = weighted_kappa([3, 3, 3], [3, 3, 3])
    assert np.isnan(r.score)
    assert "rating 3" in r.undefined_reason
    r = weighted_kappa([], [])
    assert np.isnan(r.score) and r.undefined_reason == "no rows to score"


def test_disjoint_single_classes_give_zero_not_undefined():
    r = weighted_kappa([1, 1], [2, 2])
    assert r.undefined_reason is None and r.score == pytest.approx(0.0)


def test_integer_valued_floats_are_ratings():
    assert weighted_kappa([0.0, 1.0, 2.0], [0, 1.0, 1]).score == \
        pytest.approx(weighted_kappa([0, 1, 2], [0, 1, 1]).score)


@pytest.mark.parametrize("t,p,msg", [
    ([0, 1, 2], [0, 1], "differ in length: 3 vs 2"),
    ([0, 1, 2], [0, 2.7, 1], r"position 1 has 2\.7.*cut points"),
    ([0, np.nan, 2], [0, 1, 1], "NaN at position 1"),
    ([0, 1, 2], [0, np.inf, 1], "infinite value at position 1"),
    ([0, 1, 2], ["a", "b", "c"], "must be numbers"),
    ([0, 10 ** 6], [0, 1], "span 1000001 classes"),
])
def test_bad_input_raises_input_error(t, p, msg):
    with pytest.raises(InputError, match=msg):
        weighted_kappa(t, p)


def test_unknown_weights_option_lists_allowed():
    with pytest.raises(InputError, match="unknown weights 'cubic'; allowed: 'quadratic', 'linear', 'none'"):
        weighted_kappa([0, 1], [0, 1], weights="cubic")


def test_from_confusion_equals_from_labels():
    o = np.array([[39, 0, 0, 1], [0, 30, 0, 0], [0, 5, 15, 0], [0, 0, 0, 10]])
    t = np.repeat(np.repeat(np.arange(4), 4), o.ravel())
    p = np.repeat(np.tile(np.arange(4), 4), o.ravel())
    for w in ("quadratic", "linear", "none"):
        a = kappa_from_confusion(o, weights=w)
        b = weighted_kappa(t, p, weights=w)
        assert a.score == pytest.approx(b.score, abs=1e-12)
        assert a.score == pytest.approx(cohen_kappa_score(t, p, weights=SK[w]), abs=1e-12)


def test_from_confusion_rejects_bad_matrices():
    with pytest.raises(InputError, match="square"):
        kappa_from_confusion([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(InputError, match="negative count at row 1, column 0"):
        kappa_from_confusion([[1, 0], [-1, 2]])
    with pytest.raises(InputError, match="expected 2 labels"):
        kappa_from_confusion([[1, 0], [0, 2]], labels=[1, 2, 3])


ratings = st.lists(st.tuples(st.integers(-3, 6), st.integers(-3, 6)), min_size=1, max_size=200)


@settings(max_examples=150, deadline=None)
@given(ratings, st.sampled_from(["quadratic", "linear", "none"]))
def test_random_against_sklearn_and_loop(pairs, w):
    t = np.array([a for a, _ in pairs])
    p = np.array([b for _, b in pairs])
    r = weighted_kappa(t, p, weights=w)
    ref = kappa_ref(t, p, w)
    assert close(r.score, ref, 1e-9)
    if not np.isnan(ref):
        lo, hi = min(t.min(), p.min()), max(t.max(), p.max())
        sk = cohen_kappa_score(t, p, weights=SK[w], labels=list(range(lo, hi + 1)))
        assert r.score == pytest.approx(sk, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(ratings, st.lists(st.integers(0, 200), max_size=5))
def test_chunked_equals_whole(pairs, cuts):
    t = np.array([a for a, _ in pairs])
    p = np.array([b for _, b in pairs])
    bounds = sorted({0, len(t), *[c % (len(t) + 1) for c in cuts]})
    acc = KappaAccumulator()
    for a, b in zip(bounds[:-1], bounds[1:]):
        acc.update(t[a:b], p[a:b])
    whole = weighted_kappa(t, p)
    got = acc.result()
    assert np.array_equal(got.observed, whole.observed)
    assert np.array_equal(got.labels, whole.labels)
    assert close(got.score, whole.score, 1e-12)


def test_merge_of_accumulators():
    a = KappaAccumulator().update([0, 1], [0, 2])
    b = KappaAccumulator().update([5, 4], [5, 3])
    a.merge(b)
    whole = weighted_kappa([0, 1, 5, 4], [0, 2, 5, 3])
    assert np.array_equal(a.result().observed, whole.observed)
    assert a.n_rows == 4
