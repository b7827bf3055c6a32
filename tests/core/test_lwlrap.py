import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import label_ranking_average_precision_score as sk_lrap

from kmetric_gui.metrics.kernels import lwlrap, sample_ranking
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
    mod = sys.modules["kmetric_gui.metrics.kernels.lwlrap"]
    rng = np.random.default_rng(3)
    t = rng.random((300, 7)) < 0.4
    s = rng.integers(0, 4, (300, 7)) / 4.0   # many ties
    whole = lwlrap(t, s)
    monkeypatch.setattr(mod, "_BLOCK", 16)
    blocked = lwlrap(t, s)
    assert np.array_equal(whole.precisions, blocked.precisions)


def _per_positive_loop(t, s, ties):
    """(per-class means, per-sample means) of hits / rank, from the definition."""
    n, c = t.shape
    by_class, by_sample = [[] for _ in range(c)], [[] for _ in range(n)]
    for i in range(n):
        for j in range(c):
            if not t[i, j]:
                continue
            if ties == "worst":
                above = [k for k in range(c) if s[i, k] >= s[i, j]]
            else:       # later column first among ties
                above = [k for k in range(c) if s[i, k] > s[i, j] or (s[i, k] == s[i, j] and k >= j)]
            p = sum(1 for k in above if t[i, k]) / len(above)
            by_class[j].append(p)
            by_sample[i].append(p)
    return ([np.mean(v) if v else 0.0 for v in by_class],
            [np.mean(v) if v else np.nan for v in by_sample])


@pytest.mark.parametrize("block", [1, 5, 7, 13, 1 << 18])
@pytest.mark.parametrize("ties", ["worst", "original"])
def test_chunked_core_equals_loop(monkeypatch, block, ties):
    """Blocks smaller than a row, a row and a bit, many rows: the same numbers."""
    import sys
    mod = sys.modules["kmetric_gui.metrics.kernels.lwlrap"]
    rng = np.random.default_rng(11)
    t = (rng.random((90, 6)) < 0.35).astype(np.int8)
    t[:, 2] = 0                                   # a class without positives
    t[10:14] = 0                                  # samples without positives
    t[20] = 1                                     # a sample with every class
    s = rng.integers(0, 3, (90, 6)) / 2.0         # many ties
    monkeypatch.setattr(mod, "_BLOCK", block)
    r = lwlrap(t, s, ties=ties)
    per_class, per_sample = _per_positive_loop(t, s, ties)
    assert np.allclose(r.per_class, per_class, rtol=0, atol=1e-12)
    assert np.allclose(r.sample_scores, per_sample, rtol=0, atol=1e-12, equal_nan=True)
    assert r.score == pytest.approx(lwlrap_ref(t, s, ties), abs=1e-12)
    assert np.array_equal(r.class_positives, t.sum(axis=0))


@pytest.mark.parametrize("t_bad,s_bad,msg", [
    (None, (70, 3, np.nan), "scores has NaN at row 70, column 3 \\(2 such"),
    (None, (71, 0, np.inf), "infinite value at row 71, column 0"),
    ((69, 4, 2), None, "truth must be 0/1; row 69, column 4 has 2"),
    ((5, 1, 3), (60, 2, np.nan), "scores has NaN"),   # values checked before the 0/1 rule
])
def test_fault_in_a_late_block_named_as_before(monkeypatch, t_bad, s_bad, msg):
    import sys
    monkeypatch.setattr(sys.modules["kmetric_gui.metrics.kernels.lwlrap"], "_BLOCK", 20)
    t = np.zeros((80, 5), np.int8)
    s = np.zeros((80, 5))
    if t_bad:
        t[t_bad[0], t_bad[1]] = t_bad[2]
    if s_bad:
        s[s_bad[0], s_bad[1]] = s_bad[2]
        s[79, 4] = s_bad[2]
    with pytest.raises(InputError, match=msg):
        lwlrap(t, s)


def test_byte_truth_is_not_copied():
    """An int8 0/1 truth (as read from a file) is viewed as bools, not copied."""
    import sys
    t = np.array([[1, 0], [0, 1]], np.int8)
    b, _ = sys.modules["kmetric_gui.metrics.kernels.lwlrap"]._check_inputs(t, np.zeros((2, 2)))
    assert b.dtype == bool and np.shares_memory(b, t)


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
