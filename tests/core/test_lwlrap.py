import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import label_ranking_average_precision_score as sk_lrap

from kmetric_gui.core import lwlrap, sample_ranking
from kmetric_gui.errors import InputError
from reference import close, lwlrap_ref


def sk_reference(truth, scores):
    truth, scores = np.asarray(truth), np.asarray(scores)
    nz = truth.sum(axis=1) > 0
    return sk_lrap(truth[nz], scores[nz], sample_weight=truth[nz].sum(axis=1))


def test_worked_example():
    r = lwlrap([[1, 0, 1], [0, 1, 1]], [[.1, .7, .2], [.1, .7, .2]])
    assert r.score == pytest.approx(0.791667, abs=1e-6)
    assert np.allclose(r.per_class, [2 / 3, 1.0, 0.75])
    assert np.allclose(r.class_weights, [.25, .25, .5])
    assert r.score == pytest.approx((r.per_class * r.class_weights).sum())
    assert r.n_positives == 4 and r.tied_positives == 0
    # precisions from seed 001's walk-through: sample 1 A 2/3, C 1/2; sample 2 B 1, C 1
    got = dict(zip(zip(r.positive_rows.tolist(), r.positive_classes.tolist()), r.precisions))
    assert got == pytest.approx({(0, 0): 2 / 3, (0, 2): 0.5, (1, 1): 1.0, (1, 2): 1.0})
    assert np.allclose(r.sample_scores, [7 / 12, 1.0])
    assert r.sample_contributions.sum() == pytest.approx(r.score)


def test_tie_worst_and_original():
    r = lwlrap([[0, 1, 0]], [[.5, .5, .1]])
    assert r.score == pytest.approx(0.5)
    assert r.tied_positives == 1
    # original order: later column first among ties -> class 1 ranks first
    assert lwlrap([[0, 1, 0]], [[.5, .5, .1]], ties="original").score == pytest.approx(1.0)
    assert lwlrap([[1, 0, 0]], [[.5, .5, .1]], ties="original").score == pytest.approx(0.5)


def test_samples_without_positives_contribute_nothing():
    a = lwlrap([[1, 0], [0, 0]], [[.2, .9], [.3, .1]])
    b = lwlrap([[1, 0]], [[.2, .9]])
    assert a.score == b.score == pytest.approx(0.5)
    assert np.isnan(a.sample_scores[1])


def test_no_positives_is_undefined():
    r = lwlrap([[0, 0]], [[.1, .2]])
    assert np.isnan(r.score) and "no positive" in r.undefined_reason
    assert np.all(r.class_weights == 0)


@pytest.mark.parametrize("t,s,msg", [
    ([[1, 0]], [[.1, .2, .3]], r"differ in shape: \(1, 2\) vs \(1, 3\)"),
    ([[1, 0]], [[np.nan, .2]], "NaN at row 0, column 0"),
    ([[1, 0], [0, 1]], [[.1, .2], [.3, np.inf]], "infinite value at row 1, column 1"),
    ([[1, 2]], [[.1, .2]], "must be 0/1; row 0, column 1 has 2"),
    ([1, 0], [.1, .2], "must be 2-D"),
])
def test_bad_input(t, s, msg):
    with pytest.raises(InputError, match=msg):
        lwlrap(t, s)


def test_unknown_ties_option():
    with pytest.raises(InputError, match="unknown ties 'best'"):
        lwlrap([[1]], [[1.0]], ties="best")


def test_blocked_comparison_equals_unblocked(monkeypatch):
    import sys
    mod = sys.modules["kmetric_gui.core.lwlrap"]
    rng = np.random.default_rng(3)
    t = rng.random((300, 7)) < 0.4
    s = rng.integers(0, 4, (300, 7)) / 4.0   # many ties
    whole = lwlrap(t, s)
    monkeypatch.setattr(mod, "_BLOCK", 16)
    blocked = lwlrap(t, s)
    assert np.array_equal(whole.precisions, blocked.precisions)


matrix = st.integers(1, 12).flatmap(lambda n: st.integers(1, 8).flatmap(lambda c: st.tuples(
    st.lists(st.lists(st.booleans(), min_size=c, max_size=c), min_size=n, max_size=n),
    st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 0.3, -2.0]),
                      min_size=c, max_size=c), min_size=n, max_size=n))))


@settings(max_examples=200, deadline=None)
@given(matrix)
def test_random_against_sklearn_and_loops(tm):
    t, s = np.array(tm[0], dtype=int), np.array(tm[1])
    r = lwlrap(t, s)
    assert close(r.score, lwlrap_ref(t, s, "worst"), 1e-9)
    if t.sum():
        assert r.score == pytest.approx(sk_reference(t, s), abs=1e-9)
        assert r.score == pytest.approx((r.per_class * r.class_weights).sum(), abs=1e-9)
    ro = lwlrap(t, s, ties="original")
    assert close(ro.score, lwlrap_ref(t, s, "original"), 1e-9)


def test_sample_ranking_walkthrough():
    order, ranks, hits, prec = sample_ranking([1, 0, 1], [.1, .7, .2])
    assert order.tolist() == [1, 2, 0]
    assert ranks.tolist() == [3, 1, 2]
    assert prec[0] == pytest.approx(2 / 3) and prec[2] == pytest.approx(0.5)
    assert np.isnan(prec[1])
