"""Statistics, fixes and direction of issue 35's families against plain references: the
rank correlations' re-ranked replicates equal scipy on the very rows drawn, their
leave-one-out values equal scipy without each row, Pearson's additive sums and MCC's
confusion cells give scipy's and scikit-learn's numbers; fix first's first step equals
scoring the fixed file; for every registered metric the solution itself scores at least
as well as its demo submission, which a metric declared with the wrong direction fails."""
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as skm

from kmetric_gui import metrics
from kmetric_gui.analysis.fixes import top_fixes
from kmetric_gui.analysis.scoring import Options, score_files, score_prepared
from kmetric_gui.core.resample import bootstrap, resample_indices
from kmetric_gui.core.shakeup import shakeup
from kmetric_gui.metrics.base import better
from kmetric_gui.metrics.kernels.correlation import correlation
from kmetric_gui.metrics.kernels.correlation_stats import RankCorrelationPairs
from kmetric_gui.metrics.kernels.mcc import mcc
from kmetric_gui.metrics.kernels.ranks import Levels, inversions, left_greater, rank, stable_order

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
SCIPY = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}


def sp(kind, x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x, y = np.asarray(x), np.asarray(y)
        return np.mean([SCIPY[kind](x if x.ndim == 1 else x[:, j], y if y.ndim == 1 else y[:, j])[0]
                        for j in range(1 if x.ndim == 1 else x.shape[1])])


def data(seed, n=40, cols=1, ties=True):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, cols))
    y = x + rng.normal(size=(n, cols))
    if ties:
        x, y = np.round(x * 2), np.round(y, 1)
    return (x[:, 0], y[:, 0]) if cols == 1 else (x, y)


# -- the rank machinery -------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 7, 5000, 9000])
def test_stable_order_and_ranks(n):
    rng = np.random.default_rng(n)
    base = rng.normal(size=n)
    near = base.copy()
    near[1::2] = np.nextafter(base[::2], np.inf)[: near[1::2].size]   # truncated keys tie
    for x in (base, np.round(base, 1), near, np.where(base > 0, 0.0, -0.0)):
        assert stable_order(x).tolist() == np.argsort(x, kind="stable").tolist()
        assert np.allclose(rank(x).midranks, stats.rankdata(x))


@pytest.mark.parametrize("n", [1, 2, 3, 64, 65, 300])
def test_inversion_counts_equal_brute_force(n):
    rng = np.random.default_rng(n)
    q = rng.permutation(n)
    lg = [int((q[:j] > q[j]).sum()) for j in range(n)]
    assert left_greater(q).tolist() == lg and inversions(q) == sum(lg)
    w = rng.integers(0, 4, n).astype(float)
    want = sum(w[i] * w[j] for i in range(n) for j in range(i + 1, n) if q[i] > q[j])
    assert Levels(q).count(w) == pytest.approx(want)


# -- statistics of the rank correlations ---------------------------------------------------
@pytest.mark.parametrize("kind", ["spearman", "kendall"])
@pytest.mark.parametrize("cols", [1, 2])
def test_replicates_rerank_the_rows_drawn(kind, cols):
    x, y = data(cols, cols=cols)
    u = correlation(x, y, kind).units()
    reps = bootstrap(u, 30, seed=4)
    rows = resample_indices(len(x), 30, seed=4)
    np.testing.assert_allclose(reps, [sp(kind, x[r], y[r]) for r in rows], rtol=1e-10)
    loo, _ = u.jackknife()
    want = [sp(kind, np.delete(x, i, axis=0), np.delete(y, i, axis=0)) for i in range(len(x))]
    np.testing.assert_allclose(loo, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("kind", ["spearman", "kendall"])
def test_shakeup_splits_score_the_parts(kind):
    x, y = data(5, n=50)
    u = correlation(x, y, kind).units()
    pub, priv = u.split_scores(15, 6, seed=3)
    rng = np.random.default_rng(3)                 # the draws the module documents
    for s in range(6):
        mask = np.zeros(50, bool)
        mask[rng.choice(50, 15, replace=False, shuffle=False)] = True
        assert pub[s] == pytest.approx(sp(kind, x[mask], y[mask]), rel=1e-10)
        assert priv[s] == pytest.approx(sp(kind, x[~mask], y[~mask]), rel=1e-10)
    sh = shakeup(u, 0.3, splits=20, seed=1)
    assert np.isfinite(sh.private - sh.public).all()


@pytest.mark.parametrize("kind", ["spearman", "kendall"])
def test_paired_engine_draws_the_same_rows_for_both(kind):
    x, a = data(6)
    b = x + np.random.default_rng(1).normal(size=x.size) * 2
    e = RankCorrelationPairs(kind, x, [a, b])
    np.testing.assert_allclose(e.scores(), [sp(kind, x, a), sp(kind, x, b)], rtol=1e-12)
    got = e.pair_bootstrap(0, 1, 20, 7)
    for r, rows in enumerate(resample_indices(x.size, 20, seed=7)):
        assert got[r] == pytest.approx([sp(kind, x[rows], a[rows]), sp(kind, x[rows], b[rows])],
                                       rel=1e-10)
    same = RankCorrelationPairs(kind, x, [a, a]).permutation(0, 1, 10, 0)
    assert np.abs(same).max() < 1e-12                # swapping equal files changes nothing
    d, _ = e.pair_jackknife(0, 1)
    i = 3
    assert d[i] == pytest.approx(sp(kind, np.delete(x, i), np.delete(b, i))
                                 - sp(kind, np.delete(x, i), np.delete(a, i)), rel=1e-9)


def test_pearson_sums_resample_like_scipy():
    x, y = data(2, cols=2, ties=False)
    y = y * 50 + 1e6                                  # another scale and a large offset
    u = correlation(x, y, "pearson").units()
    reps = bootstrap(u, 25, seed=2)
    rows = resample_indices(len(x), 25, seed=2)
    np.testing.assert_allclose(reps, [sp("pearson", x[r], y[r]) for r in rows], rtol=1e-9)


def test_mcc_cells_score_as_scikit_learn():
    rng = np.random.default_rng(0)
    t, p = rng.integers(0, 3, 90), rng.integers(0, 3, 90)
    r = mcc(t, p)
    u = r.units()
    counts = rng.multinomial(90, u.cells / u.cells.sum(), size=5)
    for c in counts:
        tt, pp = np.divmod(np.repeat(np.arange(9), c), 3)
        assert u.score(c[None, :])[0] == pytest.approx(skm.matthews_corrcoef(tt, pp), abs=1e-12)


# -- fix first: the first fix, scored again from scratch ------------------------------------
@pytest.mark.parametrize("name", ["pearson", "mcc", "smape", "mape", "ndcg", "levenshtein",
                                  "jaccard_words", "kl_divergence", "laplace_ll", "angular"])
def test_the_first_fix_equals_scoring_the_fixed_data(name):
    m = metrics.get_metric(name)
    rep = score_files(DEMO / f"{name}_solution.csv", DEMO / f"{name}_submission.csv",
                      Options(metric=name))
    tf = top_fixes(rep, 3)
    assert len(tf.fixes) == 3 and (tf.fixes.gains > 0).all()
    prep = rep.prepared
    row = int(tf.rows[0])
    pred = prep.pred.copy() if isinstance(prep.pred, np.ndarray) else list(prep.pred)
    if name == "pearson":       # the truth in the submission's scale (mean and spread)
        t, p = prep.truth, prep.pred
        pred[row] = p.mean() + p.std() * (t[row] - t.mean()) / t.std()
    elif name == "laplace_ll":
        pred[row] = [prep.truth[row], 70.0]
    elif name == "ndcg":
        pred[row] = list(prep.truth[row])
    else:
        pred[row] = prep.truth[row]
    from dataclasses import replace
    fixed = score_prepared(replace(prep, pred=pred), rep.options)
    assert fixed.score == pytest.approx(tf.fixes.score_after[0], rel=1e-9, abs=1e-12)
    assert better(m, fixed.score, rep.score)


# -- direction: the truth itself is a best submission --------------------------------------
def perfect_file(metric, tmp_path):
    """The solution as a submission (Usage dropped; OSIC's confidence at its least)."""
    import pandas as pd
    sol = pd.read_csv(DEMO / f"{metric.name}_solution.csv", dtype=str, keep_default_na=False)
    sol = sol.drop(columns=[c for c in sol.columns if c.lower() == "usage"])
    if metric.name == "laplace_ll":
        sol["Confidence"] = "70"
    path = tmp_path / "perfect.csv"
    sol.to_csv(path, index=False)
    return path


def truth_scores_best(metric, tmp_path):
    sol, sub = DEMO / f"{metric.name}_solution.csv", DEMO / f"{metric.name}_submission.csv"
    o = Options(metric=metric.name)
    demo = score_files(sol, sub, o).score
    best = score_files(sol, perfect_file(metric, tmp_path), o).score
    return best == demo or better(metric, best, demo)


NEW = ["pearson", "spearman", "kendall", "mcc", "smape", "mape", "ndcg", "levenshtein",
       "jaccard_words", "kl_divergence", "laplace_ll", "angular"]


@pytest.mark.parametrize("name", NEW)
def test_the_truth_scores_best(name, tmp_path):
    assert truth_scores_best(metrics.get_metric(name), tmp_path)


@pytest.mark.parametrize("name", ["spearman", "smape", "laplace_ll"])
def test_a_wrong_direction_fails_the_check(name, tmp_path):
    m = metrics.get_metric(name)
    flipped = type(m)()
    flipped.higher_is_better = not m.higher_is_better
    registry, order = dict(metrics.REGISTRY), list(metrics._DETECTION_ORDER)
    metrics.register(flipped)
    try:
        assert not truth_scores_best(flipped, tmp_path)
    finally:           # the registry as it was, in its order
        metrics.REGISTRY.clear()
        metrics.REGISTRY.update(registry)
        metrics._DETECTION_ORDER[:] = order
        metrics.METRIC_NAMES = tuple(registry)
