"""Intervals that keep their promise: the studentised bootstrap, AUC's score interval, the
cautions ("too narrow likely") and the widened coverage check, against plain loops and
brute force written from the definitions."""
from statistics import NormalDist

import numpy as np
import pytest

from kmetric_gui.analysis.stats import interval_of
from kmetric_gui.core.additive import mean_units, root_mean_units
from kmetric_gui.core.calibrated import auto_method
from kmetric_gui.core.cautions import TAIL_SHARE, cautions, largest_share
from kmetric_gui.core.coverage import Tail, coverage_check, widened_tail
from kmetric_gui.core.resample import bootstrap
from kmetric_gui.core.studentised import influence, studentised_interval
from kmetric_gui.metrics.kernels.kappa import kappa_from_confusion
from kmetric_gui.metrics.kernels.ranking_stats import RankUnits, score_interval
from kmetric_gui.metrics.kernels.units import kappa_units


def test_studentised_equals_a_plain_bootstrap_t_loop():
    x = np.random.default_rng(0).exponential(size=60) ** 2
    iv, reps = studentised_interval(mean_units(x), 0.9, 1500, seed=4)
    # Plain loop: the bootstrap's draws for seed 4, t* = (mean* - mean) / (sd* / sqrt(n)).
    idx = np.random.default_rng(4).integers(0, 60, size=(1500, 60), dtype=np.uint32)
    xb = x[idx]
    t = (xb.mean(axis=1) - x.mean()) / (xb.std(axis=1, ddof=1) / np.sqrt(60))
    se = x.std(ddof=1) / np.sqrt(60)
    lo_t, hi_t = np.quantile(t, [0.05, 0.95])
    assert iv.method == "studentised" and iv.level == 0.9
    assert iv.low == pytest.approx(x.mean() - hi_t * se, rel=1e-9)
    assert iv.high == pytest.approx(x.mean() - lo_t * se, rel=1e-9)
    np.testing.assert_allclose(reps, bootstrap(mean_units(x), 1500, 4))   # the same draws


def test_influence_of_a_root_mean_is_its_derivative():
    x = np.random.default_rng(1).normal(size=40) ** 2
    d, _ = influence(root_mean_units(x))
    # sqrt(mean) moves by (x_i - mean) / (2 n sqrt(mean)) per unit
    np.testing.assert_allclose(d, (x - x.mean()) / (2 * 40 * np.sqrt(x.mean())), rtol=1e-5)


def test_studentised_covers_a_skewed_mean_better_than_the_percentile():
    # Squared normal errors at n = 40: the percentile interval of RMSE is known short.
    rng = np.random.default_rng(3)
    hits = {"percentile": 0, "studentised": 0}
    for k in range(150):
        u = root_mean_units(rng.standard_normal(40) ** 2)
        for m in hits:
            iv = interval_of(u, 0.95, 400, k, m)
            hits[m] += iv.low <= 1.0 <= iv.high
    assert hits["studentised"] > hits["percentile"]


def brute_score_interval(theta, n1, n0, level):
    """Every t on a fine grid with |theta - t| <= z sqrt(V(t)), V from the published formula."""
    z = NormalDist().inv_cdf(0.5 + level / 2)
    t = np.linspace(0, 1, 400001)
    half = (n1 + n0) / 2 - 1
    v = t * (1 - t) / (n1 * n0) * (1 + half * (1 - t) / (2 - t) + half * t / (1 + t))
    inside = t[(theta - t) ** 2 <= z * z * v]
    return inside.min(), inside.max()


@pytest.mark.parametrize("theta, n1, n0", [(0.8, 4, 196), (1.0, 1, 49), (0.5, 20, 980),
                                           (0.0, 3, 10), (0.93, 12, 30)])
def test_score_interval_against_a_grid(theta, n1, n0):
    low, high = score_interval(theta, n1, n0, 0.95)
    want = brute_score_interval(theta, n1, n0, 0.95)
    assert low == pytest.approx(want[0], abs=1e-5) and high == pytest.approx(want[1], abs=1e-5)
    assert low < high                       # never zero width, even at AUC 0 or 1


def test_auto_picks_the_score_interval_for_auc_with_a_rare_class_and_says_so():
    rng = np.random.default_rng(2)
    y = np.zeros(300, dtype=int)
    y[:5] = 1
    s = rng.normal(size=300) + y
    iv = interval_of(RankUnits(y, s), 0.95, 300, 0, "auto")
    assert iv.method == "score" and iv.replicates == 0
    assert not iv.too_narrow                 # the score interval holds with few positives
    pct = interval_of(RankUnits(y, s), 0.95, 300, 0, "percentile")
    assert pct.too_narrow and any("only 5 rows in the rarer class" in w for w in pct.warnings)
    y2 = (rng.random(300) < 0.4).astype(int)
    assert auto_method(RankUnits(y2, rng.normal(size=300) + y2))[0] == "percentile"


def test_auto_studentises_means_not_ratios_and_keeps_calibrating_small_confusions():
    assert auto_method(mean_units(np.arange(50.0)))[0] == "studentised"
    from kmetric_gui.core.resample import Units
    ratio = Units(np.column_stack([np.arange(50.0), np.arange(50.0) % 7 + 1]),
                  lambda s: s[:, 0] / s[:, 1])
    assert auto_method(ratio) == ("percentile", "a ratio of per-unit sums")
    small = kappa_units(kappa_from_confusion(np.array([[20, 5], [8, 12]])))
    assert auto_method(small)[0] == "calibrated"
    assert auto_method(kappa_units(kappa_from_confusion(np.array([[80, 20], [30, 50]]))))[0] \
        == "percentile"


def test_heavy_tail_caution_on_t3_squared_errors_not_on_normal_ones():
    rng = np.random.default_rng(5)
    heavy = root_mean_units(rng.standard_t(3, 1000) ** 2)
    light = root_mean_units(rng.standard_normal(1000) ** 2)
    share = largest_share(heavy)
    assert share >= TAIL_SHARE / np.sqrt(1000)
    found = cautions(heavy, "studentised")
    assert len(found) == 1 and found[0].startswith("too narrow likely if the tail is heavy")
    assert cautions(light, "studentised") == ()


def test_largest_share_is_the_largest_unit_over_the_total():
    from kmetric_gui.core.resample import Units
    stats = np.array([[1, 2.0], [1, 6.0], [1, 2.0]])          # a count column and a value
    assert largest_share(Units(stats, lambda s: s[:, 1] / s[:, 0])) == pytest.approx(0.6)
    # Two columns: the one whose largest unit holds most of its total (3 of 6 > 1 of 2).
    two = np.array([[1.0, 2.0], [1.0, 1.0], [0.0, 3.0]])
    assert largest_share(Units(two, lambda s: 2 * s[:, 0] + s[:, 1])) == pytest.approx(0.5)


def test_rare_class_and_few_units_cautions():
    rare = kappa_units(kappa_from_confusion(np.array([[45, 2], [1, 2]])))     # 3 positives
    assert any(w.startswith("too narrow likely: only 3 rows") for w in cautions(rare, "calibrated"))
    few = mean_units(np.arange(6.0))
    assert any("only 6 rows to resample" in w for w in cautions(few, "studentised"))


def test_a_zero_width_interval_is_flagged_too_narrow():
    ok = kappa_units(kappa_from_confusion(np.array([[47, 0], [0, 3]])))    # perfect agreement
    iv = interval_of(ok, 0.95, 500, 0, "percentile")
    assert iv.low == iv.high == 1.0 and iv.too_narrow
    assert iv.to_dict()["too_narrow_likely"] is True


def test_coverage_check_widens_a_heavy_tail_and_measures_less_than_the_sample_alone():
    x = np.random.default_rng(11).standard_t(3, 200) ** 2
    u = root_mean_units(x)
    tail = widened_tail(u)
    assert tail is not None and 1.0 < tail.fitted < 3.0 and tail.top.size == 29

    def fn(sim, k):
        return interval_of(sim, 0.95, 300, k, "studentised")
    wide, sims, t = coverage_check(u, fn, 60, seed=1)
    plain, _, _ = coverage_check(u, fn, 60, seed=1, widen=False)
    assert t is not None and sims == 60 and wide < plain
    iv = interval_of(u, 0.95, 300, 0, "studentised", coverage=30)
    c = iv.coverage
    assert c["widened_tail_index"] == pytest.approx(tail.index)
    assert c["measured"] == pytest.approx((c["widened"] + c["sample_only"]) / 2)
    assert any(w.startswith("coverage check on a heavy tail:") for w in iv.warnings)


def test_the_widened_population_keeps_light_data_as_it_is():
    u = root_mean_units(np.random.default_rng(0).standard_normal(1000) ** 2)
    assert widened_tail(u) is None


def test_a_pareto_tail_is_fitted_near_its_index():
    rng = np.random.default_rng(8)
    fits = []
    for _ in range(30):
        x = rng.pareto(1.5, 1000) + 1.0
        fits.append(Tail(mean_units(x), x).fitted)
    assert abs(np.median(fits) - 1.5) < 0.25


def test_rank_units_take_rows_for_the_coverage_check():
    y = np.array([0, 1, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1])
    s = np.arange(12.0)
    u = RankUnits(y, s).take(np.array([1, 1, 0, 2]))
    assert u.n == 4 and list(u.truth) == [1, 1, 0, 0] and list(u.scores) == [1.0, 1.0, 0.0, 2.0]
    iv = interval_of(RankUnits(y, s), 0.95, 200, 0, "auto", coverage=20)
    assert iv.coverage["simulations"] == 20
