"""Held-out checks of optimisers over grouped rows: halves, folds and bootstrap draws
keep a group's rows together; each draw is scored as a plain loop over its rows
scores it (sklearn's kappa, the reference F-beta loop); with duplicated rows as
groups the grouped spread equals the row spread of the data without duplicates."""
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels.fbeta_gains import curve_replicates, threshold_counts
from kmetric_gui.core.groups import group_draws, group_folds
from kmetric_gui.metrics.kernels.fbeta_holdout import threshold_holdout
from kmetric_gui.metrics.kernels.kappa_holdout import kappa_paired_replicates, kfold_cuts
from reference import fbeta_ref


def _pairs(n=200, seed=0):
    rng = np.random.default_rng(seed)
    t = np.repeat(rng.integers(0, 5, n // 2), 2)
    a = np.clip(t + np.repeat(rng.integers(-1, 2, n // 2), 2), 0, 4)
    b = np.clip(t + rng.integers(-1, 2, n), 0, 4)
    return t, a, b, np.arange(n) // 2


def test_group_draws_take_whole_groups_with_replacement():
    codes = np.array([2, 0, 1, 1, 2, 2, 0, 3])
    sizes = np.bincount(codes)
    for _, rows in group_draws(codes, 50, seed=3):
        drawn = codes[rows]
        # every drawn group comes with all its rows, as often as it was drawn
        times = np.bincount(drawn, minlength=4) / sizes
        assert np.array_equal(times, np.round(times)) and times.sum() == 4


def test_grouped_paired_replicates_score_the_drawn_rows_like_sklearn():
    t, a, b, codes = _pairs(60)
    reps = kappa_paired_replicates(t, a, b, lo=0, hi=4, replicates=40, seed=5, groups=codes)
    for r, rows in group_draws(codes, 40, seed=5):
        for col, p in enumerate((a, b)):
            want = cohen_kappa_score(t[rows], p[rows], weights="quadratic", labels=range(5))
            assert reps[r, col] == pytest.approx(want, abs=1e-12)


def test_duplicated_rows_as_groups_spread_like_the_rows_without_duplicates():
    t, a, b, _ = _pairs(400, seed=2)
    one = kappa_paired_replicates(t, a, b, lo=0, hi=4, replicates=3000, seed=1)
    t2, a2, b2 = (np.repeat(x, 2) for x in (t, a, b))
    codes = np.repeat(np.arange(t.size), 2)
    grouped = kappa_paired_replicates(t2, a2, b2, lo=0, hi=4, replicates=3000, seed=1,
                                      groups=codes)
    rows = kappa_paired_replicates(t2, a2, b2, lo=0, hi=4, replicates=3000, seed=1)
    se = [np.std(x[:, 1] - x[:, 0], ddof=1) for x in (one, grouped, rows)]
    assert se[1] == pytest.approx(se[0], rel=0.08)          # groups: right
    assert se[2] == pytest.approx(se[0] / np.sqrt(2), rel=0.08)   # rows: too narrow


def test_folds_keep_groups_whole_and_kfold_fits_them():
    t, a, _, codes = _pairs(200)
    x = a + np.random.default_rng(0).normal(0, 0.3, t.size)
    fid = group_folds(codes, 5, seed=0)
    for g in range(100):
        assert np.unique(fid[codes == g]).size == 1
    kf = kfold_cuts(t, x, folds=5, seed=0, groups=codes)
    from kmetric_gui.metrics.kernels import apply_cuts, optimize_cuts
    for f, h in enumerate(kf.folds):
        fit = optimize_cuts(t[fid != f], x[fid != f], min_rating=0, max_rating=4,
                            start=np.array([0.5, 1.5, 2.5, 3.5]))
        assert np.allclose(h.cuts, fit.cuts)
        held = fid == f
        assert h.held_kappa == pytest.approx(cohen_kappa_score(
            t[held], apply_cuts(x[held], fit.cuts, 0), weights="quadratic", labels=range(5)),
            abs=1e-12)


WORDS = ["a", "b", "c", "d", "e", "f", "g", "h"]


def test_threshold_verdict_and_bands_draw_whole_groups():
    rng = np.random.default_rng(8)
    d = 30
    truths = [[" ".join(rng.choice(WORDS, 3, replace=False))] for _ in range(d)]
    preds = [[" ".join(list(g[0].split()[:int(rng.integers(1, 4))])
                       + list(rng.choice(WORDS, int(rng.integers(0, 3)))))] for g in truths]
    ths = np.round(np.linspace(0.1, 0.9, 9), 2)
    counts = threshold_counts(truths, preds, ths)
    codes = np.arange(d) // 3
    fit = codes < 4                                 # whole groups on each side
    h = threshold_holdout(counts, ths, fit, ~fit, default=0.5, replicates=30, seed=1,
                          groups=codes)
    held = np.flatnonzero(~fit)
    sub = np.unique(codes[held], return_inverse=True)[1].ravel()
    k = int(np.argmin(np.abs(ths - h.threshold)))
    d0 = int(np.argmin(np.abs(ths - 0.5)))
    reps = curve_replicates(counts[:, held], 0.5, replicates=30, seed=1, groups=sub)
    deltas = []
    for r, rows in group_draws(sub, 30, seed=1):
        docs = held[rows]

        def score(th):
            return fbeta_ref([truths[i] for i in docs], [preds[i] for i in docs], threshold=th)[0]
        deltas.append(score(ths[k]) - score(ths[d0]))
        assert reps[r, k] == pytest.approx(score(ths[k]), abs=1e-12)
        assert reps[r, d0] == pytest.approx(score(ths[d0]), abs=1e-12)
    assert h.verdict.se == pytest.approx(np.std(deltas, ddof=1), abs=1e-12)
