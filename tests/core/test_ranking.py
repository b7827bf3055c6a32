"""ROC AUC, its bootstrap and DeLong against scikit-learn and brute force."""
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from kmetric_gui.metrics.kernels.ranking import delong, placements, roc_auc
from kmetric_gui.metrics.kernels.ranking_boot import auc_bootstrap
from kmetric_gui.core.resample import resample_indices
from kmetric_gui.errors import InputError

RNG = np.random.default_rng(26)


def pairs_auc(y, s):
    """Brute force: share of (positive, negative) pairs ranked right, ties 1/2."""
    pos = [v for v, t in zip(s, y) if t]
    neg = [v for v, t in zip(s, y) if not t]
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    return wins / (len(pos) * len(neg))


@pytest.mark.parametrize("n,decimals", [(2, None), (31, None), (400, 1), (1000, 2), (50, 0)])
def test_binary_auc_equals_sklearn_with_ties(n, decimals):
    y = RNG.random(n) < 0.4
    y[0], y[1] = True, False
    s = RNG.random(n) + 0.3 * y
    if decimals is not None:
        s = np.round(s, decimals)                 # many ties
    r = roc_auc(y, s)
    assert r.score == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    assert r.score == pytest.approx(pairs_auc(y, s), rel=1e-12)
    assert r.positives[0] == y.sum() and r.negatives[0] == (~y).sum()


def test_auc_hand_example_and_all_tied():
    assert roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).score == 0.75
    r = roc_auc([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])
    assert r.score == 0.5 and r.tied_pairs[0] == 4


def test_multiclass_ovr_macro_and_multilabel_equal_sklearn():
    y = RNG.integers(0, 4, 600)
    p = RNG.dirichlet(np.ones(4), 600)
    assert roc_auc(y, p).score == pytest.approx(
        roc_auc_score(y, p, multi_class="ovr", average="macro"), rel=1e-12)
    ym = RNG.random((300, 5)) < 0.3
    sm = np.round(RNG.random((300, 5)) + 0.2 * ym, 2)
    r = roc_auc(ym.astype(int), sm)
    assert r.score == pytest.approx(roc_auc_score(ym, sm, average="macro"), rel=1e-12)
    assert r.per_column == pytest.approx(roc_auc_score(ym, sm, average=None), rel=1e-12)


def test_single_class_is_undefined_or_skipped():
    r = roc_auc([1, 1, 1], [0.2, 0.3, 0.4])
    assert math.isnan(r.score) and "every row is positive" in r.undefined_reason
    r = roc_auc([0, 0], [0.2, 0.3])
    assert "every row is negative" in r.undefined_reason
    # a column with one class is skipped (Kaggle's column-wise AUC), and named
    t = np.array([[1, 0], [0, 0], [1, 0], [0, 0]])
    s = np.array([[.9, .1], [.2, .3], [.8, .5], [.1, .7]])
    r = roc_auc(t, s)
    assert r.skipped == (1,) and r.score == 1.0
    r = roc_auc(np.zeros((3, 2)), np.ones((3, 2)))
    assert math.isnan(r.score) and "every column" in r.undefined_reason
    assert math.isnan(roc_auc(np.zeros(0), np.zeros(0)).score)


@pytest.mark.parametrize("t,s,msg", [
    ([0, 1], [0.1, np.nan], "NaN at row 1"),
    ([0, 1, 1], [np.inf, 0.1, 0.2], "infinite value at row 0"),
    ([0, 2], [0.1, 0.2], "must be 0 or 1"),
    ([0, 1], [0.1, 0.2, 0.3], "differ in shape"),
    ([0, 3], [[0.1, 0.9], [0.5, 0.5]], "integers 0..1"),
])
def test_auc_bad_input(t, s, msg):
    with pytest.raises(InputError, match=msg):
        roc_auc(t, s)


@pytest.mark.parametrize("decimals", [None, 1])
def test_bootstrap_equals_plain_loop_on_same_draws(decimals):
    n, b = 60, 40
    y = RNG.random(n) < 0.3
    y[:2] = [True, False]
    a = RNG.random(n) + 0.4 * y
    c = RNG.random(n) + 0.2 * y
    if decimals is not None:
        a, c = np.round(a, decimals), np.round(c, decimals)
    reps = auc_bootstrap(y, [a, c], b, seed=9)
    for r, idx in enumerate(resample_indices(n, b, seed=9)):
        yy = y[idx]
        if yy.all() or not yy.any():
            assert np.isnan(reps[r]).all()
            continue
        assert reps[r] == pytest.approx([roc_auc_score(yy, a[idx]), roc_auc_score(yy, c[idx])],
                                        rel=1e-12)
    # one submission alone gets the same replicates as in the pair
    assert auc_bootstrap(y, [a], b, seed=9)[:, 0] == pytest.approx(reps[:, 0], nan_ok=True)


def test_bootstrap_multiclass_and_slices(monkeypatch):
    from kmetric_gui.core import resample
    y = RNG.integers(0, 3, 90)
    p = RNG.dirichlet(np.ones(3), 90)
    monkeypatch.setattr(resample, "CHUNK", 32)      # a replicate arrives in slices
    reps = auc_bootstrap(y, [p], 12, seed=4)[:, 0]
    for r, idx in enumerate(resample_indices(90, 12, seed=4)):
        yy = y[idx]
        ref = np.mean([roc_auc_score(yy == k, p[idx, k]) for k in range(3)])
        assert reps[r] == pytest.approx(ref, rel=1e-12)


def delong_brute(y, scores):
    """DeLong (1988) from its definition with double loops."""
    pos = [i for i in range(len(y)) if y[i]]
    neg = [i for i in range(len(y)) if not y[i]]
    m, n = len(pos), len(neg)

    def psi(a, b):
        return 1.0 if a > b else 0.5 if a == b else 0.0
    v10 = [[sum(psi(s[i], s[j]) for j in neg) / n for i in pos] for s in scores]
    v01 = [[sum(psi(s[i], s[j]) for i in pos) / m for j in neg] for s in scores]
    auc = [sum(v) / m for v in v10]
    k = len(scores)
    cov = [[sum((v10[a][i] - auc[a]) * (v10[b][i] - auc[b]) for i in range(m)) / (m - 1) / m
            + sum((v01[a][j] - auc[a]) * (v01[b][j] - auc[b]) for j in range(n)) / (n - 1) / n
            for b in range(k)] for a in range(k)]
    return auc, cov


def test_delong_equals_brute_force_and_paired_test():
    n = 80
    y = RNG.random(n) < 0.4
    y[:2] = [True, False]
    a = np.round(RNG.random(n) + 0.5 * y, 1)
    b = np.round(RNG.random(n) + 0.3 * y, 1)
    auc, cov = delong_brute(y.tolist(), [a.tolist(), b.tolist()])
    r = delong(y, a, b)
    assert r.auc == pytest.approx(auc, rel=1e-12)
    assert r.covariance == pytest.approx(np.array(cov), rel=1e-10)
    var = cov[0][0] + cov[1][1] - 2 * cov[0][1]
    z = (auc[1] - auc[0]) / math.sqrt(var)
    assert r.z == pytest.approx(z) and r.p_value == pytest.approx(2 * stats.norm.sf(abs(z)))
    se = math.sqrt(cov[0][0])
    assert r.low[0] == pytest.approx(auc[0] - stats.norm.ppf(0.975) * se)
    assert roc_auc(y, a).score == pytest.approx(r.auc[0])


def test_placements_average_to_auc_and_delong_close_to_bootstrap():
    n = 3000
    y = RNG.random(n) < 0.3
    s = RNG.random(n) + 0.4 * y
    v = placements(y, s)
    auc = roc_auc(y, s).score
    assert v[y].mean() == pytest.approx(auc) and v[~y].mean() == pytest.approx(auc)
    se_boot = np.nanstd(auc_bootstrap(y, [s], 2000, seed=0)[:, 0], ddof=1)
    se_delong = math.sqrt(delong(y, s).covariance[0, 0])
    assert se_boot == pytest.approx(se_delong, rel=0.1)


def test_rank_units_splits_and_pairs_equal_plain_subsets():
    from kmetric_gui.metrics.kernels.ranking_stats import AucPairs, RankUnits
    from kmetric_gui.core.shakeup import shakeup
    n = 70
    y = RNG.random(n) < 0.4
    y[:4] = [True, False, True, False]
    a = np.round(RNG.random(n) + 0.4 * y, 1)
    b = RNG.random(n) + 0.2 * y
    pub, priv = RankUnits(y, a).split_scores(20, 15, seed=5)
    rng = np.random.default_rng(5)
    for r in range(15):
        sel = rng.choice(n, 20, replace=False, shuffle=False)
        rest = np.setdiff1d(np.arange(n), sel)
        for got, rows in ((pub[r], sel), (priv[r], rest)):
            yy = y[rows]
            ref = roc_auc_score(yy, a[rows]) if 0 < yy.sum() < yy.size else np.nan
            assert got == pytest.approx(ref, rel=1e-12, nan_ok=True)
    # through the shake-up of the statistics layer: the same splits
    sh = shakeup(RankUnits(y, a), 20 / n, splits=15, seed=5)
    assert sh.public == pytest.approx(pub, nan_ok=True) and sh.private == pytest.approx(priv, nan_ok=True)
    eng = AucPairs(y, [a, b])
    assert eng.scores() == pytest.approx([roc_auc_score(y, a), roc_auc_score(y, b)])
    sp = eng.splits(0, 1, 20, 10, seed=3)
    assert sp.shape == (10, 4)
    jk, _ = eng.pair_jackknife(0, 1)
    keep = np.arange(n) != 5
    assert jk[5] == pytest.approx(roc_auc_score(y[keep], b[keep]) - roc_auc_score(y[keep], a[keep]))
    perm = eng.permutation(0, 1, 30, seed=1)
    assert perm.shape == (30,) and np.abs(perm).max() < 1
