"""The final-two advisor's core: joint draws, P(best), the best pair, agreement, power.

References: scikit-learn's cohen_kappa_score on the very row draws (exact),
plain loops over replicates and pairs, a population whose best candidate is
known, and hand-computed normal quantiles.
"""
import itertools

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels import lwlrap
from kmetric_gui.core.compare import UnitPairs
from kmetric_gui.metrics.kernels.kappa_pairs import KappaPairs
from kmetric_gui.core.joint import joint_replicates
from kmetric_gui.core.power import min_detectable_delta, units_needed
from kmetric_gui.core.resample import resample_indices
from kmetric_gui.core.select import contains_best, p_best, pair_shortfalls, select
from kmetric_gui.metrics.kernels.units import lwlrap_units
from kmetric_gui.errors import InputError


def kappa_case(n=200, k=4, c=4, seed=1, copy_of=None):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    preds = [np.where(rng.random(n) < 0.55 + 0.06 * i, t, rng.integers(0, k, n)) for i in range(c)]
    if copy_of is not None:
        p = preds[copy_of].copy()
        flip = rng.random(n) < 0.03
        p[flip] = rng.integers(0, k, flip.sum())
        preds.append(p)
    return t, preds, k


def brute_reps(t, preds, k, replicates, seed):
    """Every candidate scored by scikit-learn on each of the joint row draws."""
    idx = resample_indices(t.size, replicates, seed)
    return np.array([[cohen_kappa_score(t[i], p[i], labels=np.arange(k), weights="quadratic")
                      for p in preds] for i in idx])


def brute_best_share(reps, higher=True):
    out = np.zeros(reps.shape[1])
    for row in reps:
        g = row if higher else -row
        best = np.flatnonzero(g == g.max())
        out[best] += 1.0 / best.size
    return out / reps.shape[0]


def test_exact_draws_are_sklearn_on_the_same_rows():
    t, preds, k = kappa_case()
    joint = joint_replicates(KappaPairs(t, preds, k), 150, seed=7, draws="exact")
    ref = brute_reps(t, preds, k, 150, 7)
    assert joint.draws == "exact"
    np.testing.assert_allclose(joint.reps, ref, atol=1e-12)
    np.testing.assert_allclose(joint.points, [cohen_kappa_score(t, p, weights="quadratic")
                                              for p in preds], atol=1e-12)
    np.testing.assert_allclose(p_best(joint.reps), brute_best_share(ref), atol=1e-12)


def test_normal_draws_agree_with_brute_force_within_monte_carlo_error():
    t, preds, k = kappa_case(n=400, c=4, seed=3)
    small = brute_reps(t, preds, k, 300, 11)
    # The exact draws are scikit-learn's scores on the same rows (checked here on 300
    # replicates, and above); more of them make the reference sharper.
    ref = joint_replicates(KappaPairs(t, preds, k), 6000, seed=11, draws="exact").reps
    np.testing.assert_allclose(ref[:300], small, atol=1e-12)
    pb_ref = brute_best_share(ref)
    joint = joint_replicates(KappaPairs(t, preds, k), 20000, seed=5, draws="normal")
    assert joint.draws == "normal"
    pb = p_best(joint.reps)
    se = np.sqrt(pb_ref * (1 - pb_ref) / 6000 + pb * (1 - pb) / 20000)
    assert np.all(np.abs(pb - pb_ref) <= 4 * se + 1e-3), (pb, pb_ref)
    # Spread and correlation of the replicate scores too.
    np.testing.assert_allclose(joint.reps.std(axis=0), ref.std(axis=0), rtol=0.08)
    np.testing.assert_allclose(np.corrcoef(joint.reps.T), np.corrcoef(ref.T), atol=0.08)


def test_units_engine_normal_draws_match_exact_ones():
    rng = np.random.default_rng(4)
    n, classes = 300, 6
    truth = (rng.random((n, classes)) < 0.3).astype(np.int8)
    truth[truth.sum(axis=1) == 0, 0] = 1
    scores = [truth + rng.normal(0, s, truth.shape) for s in (0.6, 0.7, 0.75)]
    stats = [lwlrap_units(lwlrap(truth, s)).stats for s in scores]
    engine = UnitPairs(stats, lwlrap_units(lwlrap(truth, scores[0])).score)
    exact = joint_replicates(engine, 4000, seed=1, draws="exact")
    normal = joint_replicates(engine, 4000, seed=1, draws="normal")
    np.testing.assert_allclose(exact.reps, engine.bootstrap(4000, 1))   # the very same draws
    np.testing.assert_allclose(normal.reps.std(axis=0), exact.reps.std(axis=0), rtol=0.1)
    a, b = p_best(exact.reps), p_best(normal.reps)
    assert np.all(np.abs(a - b) < 0.05), (a, b)


def test_auto_chooses_by_cost(monkeypatch):
    import kmetric_gui.core.joint as joint_mod
    t, preds, k = kappa_case(n=100, c=3)
    assert joint_replicates(KappaPairs(t, preds, k), 100).draws == "exact"
    monkeypatch.setattr(joint_mod, "EXACT_BUDGET", 10)
    assert joint_replicates(KappaPairs(t, preds, k), 100).draws == "normal"


def test_set_probabilities_and_pair_search_against_plain_loops():
    t, preds, k = kappa_case(n=120, c=5, seed=9, copy_of=4)
    joint = joint_replicates(KappaPairs(t, preds, k), 400, seed=2, draws="exact")
    reps = joint.reps
    sel = select(joint.points, reps, 2)
    c = reps.shape[1]
    # Plain loop: a pair holds the best when its better member scores the best of all.
    cover = {pair: np.mean([max(r[list(pair)]) == r.max() for r in reps])
             for pair in itertools.combinations(range(c), 2)}
    best_value = max(cover.values())
    assert sel.best.p_contains_best == pytest.approx(best_value)
    assert cover[tuple(sorted(sel.best.members))] == pytest.approx(best_value)
    for pair, v in cover.items():
        assert contains_best(reps, pair) == pytest.approx(v)
    short = pair_shortfalls(reps)
    for a, b in itertools.combinations(range(c), 2):
        ref = np.mean([r.max() - max(r[a], r[b]) for r in reps])
        assert short[a, b] == pytest.approx(ref)
    top2 = tuple(np.argsort(-joint.points, kind="stable")[:2])
    assert set(sel.top.members) == set(top2)
    assert sel.top.p_contains_best == pytest.approx(cover[tuple(sorted(top2))])
    np.testing.assert_allclose(sel.p_best, brute_best_share(reps), atol=1e-12)
    assert sel.p_best.sum() == pytest.approx(1.0)


def test_identical_candidates_split_p_best_but_a_pair_holds_it_whole():
    reps = np.array([[0.5, 0.7, 0.7], [0.9, 0.6, 0.6], [0.1, 0.8, 0.8], [0.2, 0.3, 0.3]])
    sel = select(np.array([0.4, 0.6, 0.6]), reps, 2)
    np.testing.assert_allclose(sel.p_best, [0.25, 0.375, 0.375])
    assert set(sel.best.members) == {0, 1} or set(sel.best.members) == {0, 2}
    assert sel.best.p_contains_best == 1.0
    assert set(sel.top.members) == {1, 2} and sel.top.p_contains_best == 0.75
    assert sel.agreement[1, 2] == pytest.approx(1.0)


def test_lower_is_better_is_the_mirror_image():
    t, preds, k = kappa_case(n=150, c=5, seed=12)
    joint = joint_replicates(KappaPairs(t, preds, k), 300, seed=3, draws="exact")
    up = select(joint.points, joint.reps, 2, higher_is_better=True)
    down = select(-joint.points, -joint.reps, 2, higher_is_better=False)
    np.testing.assert_allclose(up.p_best, down.p_best)
    assert set(up.best.members) == set(down.best.members)
    assert set(up.top.members) == set(down.top.members)
    assert up.best.shortfall == pytest.approx(down.best.shortfall)
    # Read the wrong way round, the worst candidate becomes the most likely best.
    wrong = select(joint.points, joint.reps, 2, higher_is_better=False)
    assert int(np.argmax(wrong.p_best)) == int(np.argmin(joint.points))


def test_k_tuples_greedy_cover_matches_exhaustive_on_a_small_case():
    rng = np.random.default_rng(0)
    reps = rng.normal(size=(500, 6)) + np.array([0.3, 0.25, 0.2, 0.1, 0.0, -0.1])
    sel = select(reps.mean(axis=0), reps, 3)
    best = max(contains_best(reps, s) for s in itertools.combinations(range(6), 3))
    assert sel.best.p_contains_best >= best - 0.02     # greedy: near the exhaustive optimum
    assert len(sel.best.members) == 3


def test_too_few_candidates():
    with pytest.raises(InputError, match="at least 3 candidates"):
        select(np.zeros(2), np.zeros((10, 2)), 2)


def test_advisor_holds_the_true_best_more_often_than_the_top_two_with_near_copies():
    """C is the best in the population; A and A' are near-copies just below it."""
    k, n, datasets = 5, 300, 120
    rng = np.random.default_rng(2024)

    def draw(m):
        t = rng.integers(0, k, m)
        c = np.where(rng.random(m) < 0.64, t, rng.integers(0, k, m))
        a = np.where(rng.random(m) < 0.61, t, rng.integers(0, k, m))
        a2 = np.where(rng.random(m) < 0.01, rng.integers(0, k, m), a)
        return t, [a, a2, c]

    t, ps = draw(400_000)
    true = [cohen_kappa_score(t, p, weights="quadratic") for p in ps]
    assert int(np.argmax(true)) == 2
    advisor = top = 0
    for _ in range(datasets):
        t, ps = draw(n)
        joint = joint_replicates(KappaPairs(t, ps, k), 400, seed=int(rng.integers(1 << 30)))
        sel = select(joint.points, joint.reps, 2)
        advisor += 2 in sel.best.members
        top += 2 in sel.top.members
    assert advisor / datasets > top / datasets + 0.1, (advisor, top)


def test_power_from_the_paired_spread():
    z = 1.959963984540054 + 0.8416212335729143
    assert min_detectable_delta(0.01) == pytest.approx(z * 0.01)
    assert min_detectable_delta(0.01, alpha=0.01, power=0.9) == pytest.approx(
        (2.5758293035489 + 1.2815515655446004) * 0.01)
    mdd = min_detectable_delta(0.02)
    assert units_needed(1000, 0.02, mdd) == 1000
    assert units_needed(1000, 0.02, mdd / 2) == 4000
    assert units_needed(1000, 0.02, 0.0) is None
    assert np.isnan(min_detectable_delta(float("nan")))
    with pytest.raises(InputError):
        min_detectable_delta(0.01, power=1.0)


def test_power_matches_a_simulated_test():
    """MDD at 80 % power: a normal delta of that size with that SE is detected ~80 %."""
    rng = np.random.default_rng(1)
    se = 0.01
    est = rng.normal(min_detectable_delta(se), se, 20000)
    assert np.mean(np.abs(est) / se > 1.959963984540054) == pytest.approx(0.8, abs=0.015)


def test_kappa_influence_is_the_derivative_of_scikit_learns_kappa():
    """Adding a row of cell (t, p) with a small weight moves kappa by weight / N x L[t, p]."""
    from kmetric_gui.metrics.kernels.kappa_joint import kappa_influence
    from kmetric_gui.metrics.kernels.kappa import weight_matrix
    t, preds, k = kappa_case(n=300, c=2, seed=8)
    points, table = kappa_influence(t, np.stack(preds, axis=1).astype(np.int8), k,
                                    weight_matrix(k, "quadratic"))
    eps = 1e-4
    for j, p in enumerate(preds):
        assert points[j] == pytest.approx(cohen_kappa_score(t, p, weights="quadratic"))
        for a, b in [(0, 0), (1, 3), (3, 0), (2, 2)]:
            moved = cohen_kappa_score(np.r_[t, a], np.r_[p, b], weights="quadratic",
                                      labels=np.arange(k), sample_weight=np.r_[np.ones(t.size), eps])
            slope = (moved - points[j]) / (eps / (t.size + eps))
            assert slope == pytest.approx(table[j, a, b], rel=1e-3, abs=1e-6)
