"""Honest optimisers against doing it by hand with optimize_cuts, weighted_kappa and sklearn."""
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels import apply_cuts, optimize_cuts, weighted_kappa
from kmetric_gui.metrics.kernels.fbeta_gains import threshold_counts
from kmetric_gui.core.honest import NOISE_SE, fold_ids, verdict
from kmetric_gui.metrics.kernels.fbeta_holdout import threshold_holdout
from kmetric_gui.metrics.kernels.kappa_holdout import (bootstrap_cuts, holdout_verdict,
                                                       kappa_paired_replicates, kfold_cuts,
                                                       public_private)
from kmetric_gui.core.resample import resample_counts, resample_indices
from reference import fbeta_ref


def _data(n=300, k=5, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    x = t + rng.normal(0.3, 0.8, n)            # biased continuous predictions
    public = rng.random(n) < 0.3
    return t, x, public


def _sk(t, p, lo, hi):
    return cohen_kappa_score(t, p, weights="quadratic", labels=list(range(lo, hi + 1)))


def test_public_private_equals_fitting_by_hand():
    t, x, public = _data()
    lo, hi = 0, 4
    pub_priv, priv_pub = public_private(t, x, public, ~public)
    for h, fit, held in ((pub_priv, public, ~public), (priv_pub, ~public, public)):
        by_hand = optimize_cuts(t[fit], x[fit], min_rating=lo, max_rating=hi)
        assert np.array_equal(h.cuts, by_hand.cuts)
        assert h.fit_kappa == pytest.approx(by_hand.kappa, abs=1e-12)
        pred = apply_cuts(x[held], by_hand.cuts, lo)
        assert h.held_kappa == pytest.approx(_sk(t[held], pred, lo, hi), abs=1e-12)
        rounded = apply_cuts(x[held], np.arange(lo, hi) + 0.5, lo)
        assert h.held_start_kappa == pytest.approx(_sk(t[held], rounded, lo, hi), abs=1e-12)


def test_kfold_equals_fitting_each_fold_by_hand():
    t, x, _ = _data(seed=1)
    kf = kfold_cuts(t, x, folds=4, seed=3)
    fid = fold_ids(t.size, 4, seed=3)
    assert sorted(np.bincount(fid).tolist()) == [75, 75, 75, 75]
    oof = np.empty(t.size, dtype=np.int64)
    for f, h in enumerate(kf.folds):
        by_hand = optimize_cuts(t[fid != f], x[fid != f], min_rating=0, max_rating=4)
        assert np.array_equal(h.cuts, by_hand.cuts)
        oof[fid == f] = apply_cuts(x[fid == f], by_hand.cuts, 0)
        assert h.held_kappa == pytest.approx(_sk(t[fid == f], oof[fid == f], 0, 4), abs=1e-12)
    assert np.array_equal(kf.oof_pred, oof)
    assert kf.oof_kappa == pytest.approx(_sk(t, oof, 0, 4), abs=1e-12)


def test_bootstrap_cuts_are_fits_on_the_bootstrap_draws():
    t, x, _ = _data(n=120, seed=2)
    cuts = bootstrap_cuts(t, x, replicates=6, seed=5)
    draws = resample_indices(t.size, 6, seed=5)
    for row, c in zip(draws, cuts):
        assert np.array_equal(c, optimize_cuts(t[row], x[row], min_rating=0, max_rating=4).cuts)
    assert (np.diff(cuts, axis=1) >= 0).all()


def test_paired_replicates_score_the_drawn_rows_like_sklearn():
    t, x, _ = _data(n=80, k=4, seed=3)
    a = apply_cuts(x, [0.5, 1.5, 2.5])
    b = apply_cuts(x, [0.9, 1.9, 2.9])
    reps = kappa_paired_replicates(t, a, b, lo=0, hi=3, replicates=25, seed=7)
    k = 4
    joint = np.bincount((t * k + a) * k + b, minlength=k ** 3)
    cells = np.flatnonzero(joint)
    counts = resample_counts(joint[cells], 25, seed=7)
    for (ka, kb), c in zip(reps, counts):
        rows = np.repeat(cells, c)
        tt, aa, bb = rows // (k * k), (rows // k) % k, rows % k
        assert ka == pytest.approx(_sk(tt, aa, 0, 3), abs=1e-12)
        assert kb == pytest.approx(_sk(tt, bb, 0, 3), abs=1e-12)


def test_paired_se_matches_a_row_bootstrap_loop():
    t, x, _ = _data(n=150, k=4, seed=4)
    a = apply_cuts(x, [0.5, 1.5, 2.5])
    b = apply_cuts(x, [0.8, 1.7, 2.9])
    reps = kappa_paired_replicates(t, a, b, lo=0, hi=3, replicates=3000, seed=1)
    ours = np.nanstd(reps[:, 1] - reps[:, 0], ddof=1)
    rng = np.random.default_rng(0)
    loop = []
    for _ in range(800):
        i = rng.integers(0, t.size, t.size)
        loop.append(_sk(t[i], b[i], 0, 3) - _sk(t[i], a[i], 0, 3))
    assert ours == pytest.approx(np.std(loop, ddof=1), rel=0.1)


def test_verdict_compares_the_gain_with_its_standard_error():
    reps = np.array([[0.5, 0.5 + d] for d in np.linspace(-0.01, 0.03, 41)])
    se = np.std(reps[:, 1] - reps[:, 0], ddof=1)
    small = verdict(0.5, 0.5 + 0.5 * NOISE_SE * se, reps)
    big = verdict(0.5, 0.5 + 1.5 * NOISE_SE * se, reps)
    assert small.within_noise and "within the noise" in small.text
    assert not big.within_noise and "beyond the noise" in big.text
    assert small.se == pytest.approx(se)


def test_holdout_verdict_on_held_out_rows():
    t, x, public = _data(n=400, seed=6)
    h, _ = public_private(t, x, public, ~public)
    v = holdout_verdict(t, x, h, ~public, replicates=200, seed=2)
    assert v.delta == pytest.approx(h.held_gain, abs=1e-12)
    assert v.within_noise == (abs(v.delta) < NOISE_SE * v.se)
    assert v.replicates == 200


WORDS = ["alpha", "beta", "gamma", "delta", "survey", "study"]


def test_threshold_holdout_equals_brute_force_over_thresholds():
    rng = np.random.default_rng(8)
    d = 30
    truths = [[" ".join(rng.choice(WORDS, 3, replace=False))] for _ in range(d)]
    preds = [[" ".join(list(g[0].split()[:int(rng.integers(1, 4))])
                       + list(rng.choice(WORDS, int(rng.integers(0, 3)))))] for g in truths]
    ths = np.round(np.linspace(0.1, 0.9, 9), 2)
    counts = threshold_counts(truths, preds, ths)
    fit = np.arange(d) < 12
    h = threshold_holdout(counts, ths, fit, ~fit, default=0.5, replicates=50, seed=1)

    def score(docs, th):
        return fbeta_ref([truths[i] for i in docs], [preds[i] for i in docs], threshold=th)[0]
    fit_docs, held_docs = np.flatnonzero(fit), np.flatnonzero(~fit)
    fit_scores = [score(fit_docs, th) for th in ths]
    best = max(fit_scores)
    assert h.fit_score == pytest.approx(best, abs=1e-12)
    assert score(fit_docs, h.threshold) == pytest.approx(best, abs=1e-12)
    assert h.held_score == pytest.approx(score(held_docs, h.threshold), abs=1e-12)
    assert h.held_default_score == pytest.approx(score(held_docs, 0.5), abs=1e-12)
    assert h.verdict.delta == pytest.approx(h.held_score - h.held_default_score, abs=1e-12)


def test_weighted_kappa_unchanged_by_range_in_fits():
    # A fit subset missing the top class still uses the full range (W never changes).
    t, x, _ = _data(n=60, seed=9)
    sub = t < 4
    h, _ = public_private(t, x, sub, ~sub)
    by_hand = optimize_cuts(t[sub], x[sub], min_rating=0, max_rating=4)
    assert np.array_equal(h.cuts, by_hand.cuts)
    assert weighted_kappa(t[~sub], apply_cuts(x[~sub], h.cuts), min_rating=0,
                          max_rating=4).score == pytest.approx(h.held_kappa, abs=1e-12)


def test_cancel_stops_the_fits():
    from kmetric_gui.errors import Cancelled
    t, x, public = _data(n=100, seed=10)
    with pytest.raises(Cancelled):
        bootstrap_cuts(t, x, replicates=3, cancel=lambda: True)
    with pytest.raises(Cancelled):
        kfold_cuts(t, x, folds=3, cancel=lambda: True)
    with pytest.raises(Cancelled):
        threshold_counts([["a b"]], [["a"]], [0.5], cancel=lambda: True)
