import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from kmetric_gui.metrics.kernels import apply_cuts, optimize_cuts, rounding_cuts, weighted_kappa
from kmetric_gui.errors import InputError


def noisy(n, seed, bias=0.0):
    rng = np.random.default_rng(seed)
    t = rng.choice(5, n, p=[.45, .15, .2, .1, .1])
    x = t + rng.normal(bias, 0.8, n) - 0.3 * (t == 4)
    return t, x


def test_apply_cuts_boundaries():
    assert apply_cuts([0.4, 0.5, 1.49, 1.5, 9], [0.5, 1.5, 2.5]).tolist() == [0, 1, 1, 2, 3]
    assert apply_cuts([0.2], [0.5], lo=3).tolist() == [3]
    with pytest.raises(InputError, match="sorted"):
        apply_cuts([1], [2, 1])


def test_rounding_cuts_equal_rounding_half_up():
    x = np.array([0.49, 0.5, 2.51, 3.5])
    assert apply_cuts(x, rounding_cuts(0, 4)).tolist() == np.floor(x + 0.5).astype(int).tolist()


@pytest.mark.parametrize("weights", ["quadratic", "linear", "none"])
def test_optimizer_improves_and_reports_exact_kappa(weights):
    t, x = noisy(3000, 1, bias=0.4)
    r = optimize_cuts(t, x, weights=weights)
    before = weighted_kappa(t, apply_cuts(x, rounding_cuts(0, 4)), weights=weights,
                            min_rating=0, max_rating=4).score
    after = weighted_kappa(t, apply_cuts(x, r.cuts), weights=weights,
                           min_rating=0, max_rating=4).score
    assert r.start_kappa == pytest.approx(before, abs=1e-12)
    assert r.kappa == pytest.approx(after, abs=1e-12)
    assert after > before + 0.01           # the biased predictions leave room
    assert np.all(np.diff(r.cuts) >= 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(20, 300), st.floats(-1, 1))
def test_never_lowers_kappa(seed, n, bias):
    t, x = noisy(n, seed, bias)
    if np.unique(t).size < 2:
        return
    start = np.sort(np.random.default_rng(seed).uniform(-1, 5, t.max() - t.min()))
    r = optimize_cuts(t, x, start=start)
    lo, hi = t.min(), t.max()
    kappa = lambda c: weighted_kappa(t, apply_cuts(x, c, lo), min_rating=lo, max_rating=hi).score
    assert r.start_kappa == pytest.approx(kappa(start), abs=1e-12)
    assert r.kappa >= r.start_kappa - 1e-12
    assert r.kappa == pytest.approx(kappa(r.cuts), abs=1e-12)


def test_bad_inputs():
    with pytest.raises(InputError, match="differ in length"):
        optimize_cuts([0, 1], [0.1])
    with pytest.raises(InputError, match="at least two"):
        optimize_cuts([1, 1], [0.1, 0.2])
    with pytest.raises(InputError, match="NaN"):
        optimize_cuts([0, 1], [0.1, np.nan])
    with pytest.raises(InputError, match="expected 1 cut points"):
        optimize_cuts([0, 1], [0.1, 0.9], start=[0.2, 0.3])


def test_optimize_cuts_refuses_truth_outside_the_declared_range():
    # Before: rows with truth 0 and 4 were dropped silently and kappa came out 1.0.
    truth = np.array([1, 2, 3, 0, 4, 2])
    x = np.array([1.0, 2.0, 3.0, 3.0, 1.0, 2.0])
    with pytest.raises(InputError) as e:
        optimize_cuts(truth, x, min_rating=1, max_rating=3)
    assert str(e.value) == ("truth: 2 rating(s) outside the declared range 1..3: row 4: 0, row 5: 4")
    optimize_cuts(truth, x, min_rating=0, max_rating=4)      # the full range is fine
