"""Percentile and BCa intervals against scipy.stats.bootstrap on the same replicates."""
import numpy as np
import pytest
from scipy import stats

from kmetric_gui.core.intervals import (Interval, bca_interval, interval,
                                        percentile_interval, standard_error)
from kmetric_gui.errors import InputError


def _scipy(data, statistic, replicates, method, level):
    """scipy's interval from our replicate values (it recomputes its own jackknife)."""
    prior = stats.bootstrap((data,), statistic, n_resamples=1000, random_state=1,
                            vectorized=False)
    prior = type(prior)(bootstrap_distribution=np.asarray(replicates),
                        confidence_interval=prior.confidence_interval,
                        standard_error=prior.standard_error)
    res = stats.bootstrap((data,), statistic, n_resamples=0, bootstrap_result=prior,
                          method=method, confidence_level=level, vectorized=False)
    return res.confidence_interval, res.standard_error


@pytest.mark.parametrize("level", [0.8, 0.95])
def test_percentile_matches_scipy(level):
    rng = np.random.default_rng(3)
    x = rng.exponential(size=40)
    idx = rng.integers(0, x.size, size=(999, x.size))
    reps = x[idx].mean(axis=1)
    ours = percentile_interval(reps, level)
    ci, se = _scipy(x, np.mean, reps, "percentile", level)
    assert ours.low == pytest.approx(ci.low, abs=1e-12)
    assert ours.high == pytest.approx(ci.high, abs=1e-12)
    assert ours.se == pytest.approx(se, abs=1e-12)
    assert (ours.replicates, ours.undefined, ours.method) == (999, 0, "percentile")


@pytest.mark.parametrize("level", [0.9, 0.95])
def test_bca_matches_scipy_on_a_skewed_statistic(level):
    rng = np.random.default_rng(5)
    x = rng.lognormal(size=30)
    stat = lambda a: float(np.mean(a) ** 2 / (1 + np.std(a)))
    idx = rng.integers(0, x.size, size=(1500, x.size))
    reps = np.array([stat(x[i]) for i in idx])
    jack = np.array([stat(np.delete(x, i)) for i in range(x.size)])
    ours = bca_interval(reps, stat(x), jack, level)
    ci, _ = _scipy(x, stat, reps, "BCa", level)
    assert ours.low == pytest.approx(ci.low, abs=1e-12)
    assert ours.high == pytest.approx(ci.high, abs=1e-12)
    # BCa is not the percentile interval on skewed data
    assert ours.low != pytest.approx(percentile_interval(reps, level).low, abs=1e-9)


def test_bca_with_cell_weights_equals_repeated_values():
    rng = np.random.default_rng(2)
    reps = rng.normal(size=500)
    jack = np.array([0.1, -0.3, 0.25])
    counts = np.array([3, 1, 5])
    a = bca_interval(reps, 0.05, jack, 0.9, jackknife_weights=counts)
    b = bca_interval(reps, 0.05, np.repeat(jack, counts), 0.9)
    assert (a.low, a.high) == pytest.approx((b.low, b.high), abs=1e-14)


def test_undefined_replicates_are_counted_and_left_out():
    reps = np.array([0.1, np.nan, 0.3, 0.2, np.nan, 0.5])
    iv = percentile_interval(reps, 0.5)
    clean = percentile_interval(reps[np.isfinite(reps)], 0.5)
    assert (iv.replicates, iv.undefined) == (6, 2)
    assert (iv.low, iv.high) == (clean.low, clean.high)
    assert iv.se == pytest.approx(np.std([0.1, 0.3, 0.2, 0.5], ddof=1))
    d = iv.to_dict(seed=7)
    assert list(d) == ["level", "low", "high", "se", "method", "replicates", "seed",
                       "undefined_replicates", "warnings", "too_narrow_likely"]
    assert d["undefined_replicates"] == 2 and d["seed"] == 7


def test_all_undefined_gives_null_interval():
    iv = percentile_interval([np.nan, np.nan], 0.95)
    assert np.isnan(iv.low) and np.isnan(iv.high) and iv.undefined == 2
    assert iv.to_dict()["low"] is None
    assert np.isnan(standard_error([1.0]))


def test_bca_degenerate_is_nan_not_a_crash():
    # every replicate above the point: the bias correction is infinite
    iv = bca_interval([1.0, 2.0, 3.0], 0.0, [0.0, 1.0], 0.95)
    assert np.isnan(iv.low) and np.isnan(iv.high)


@pytest.mark.parametrize("level", [0, 1, -0.5, 1.5])
def test_level_outside_zero_one_is_refused(level):
    with pytest.raises(InputError, match="between 0 and 1"):
        percentile_interval([1.0, 2.0], level)


def test_dispatch():
    reps = np.linspace(0, 1, 11)
    assert interval(reps, 0.8) == percentile_interval(reps, 0.8)
    assert isinstance(interval(reps, 0.8, "bca", 0.5, [0.4, 0.6]), Interval)
    with pytest.raises(InputError, match="percentile, bca"):
        interval(reps, 0.8, "basic")
