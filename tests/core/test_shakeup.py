"""Shake-up: split counts follow the hypergeometric law; split scores equal plain loops."""
import numpy as np
import pytest
from reference import fbeta_ref, lwlrap_ref
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels import jaccard_fbeta, lwlrap, weighted_kappa
from kmetric_gui.core.resample import rng_of
from kmetric_gui.core.shakeup import (Shakeup, public_size, shakeup, split_blocks,
                                      subset_blocks)
from kmetric_gui.metrics.kernels.units import fbeta_units, kappa_units, lwlrap_units
from kmetric_gui.errors import InputError


def _kappa(n, seed):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 4, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, 3)
    return t, p, weighted_kappa(t, p)


def _hyper_moments(total, n_pop, draws):
    """Mean and variance of the hypergeometric count of a group of ``total`` in ``draws`` of ``n_pop``."""
    q = total / n_pop
    return draws * q, draws * q * (1 - q) * (n_pop - draws) / (n_pop - 1)


def test_cell_split_counts_follow_the_hypergeometric_law():
    _, _, res = _kappa(500, 1)
    units = kappa_units(res)
    k = public_size(units.n, 0.3)
    s = 20000
    pub = np.concatenate([c for _, c in split_blocks(rng_of(0), units, s, k)])
    assert pub.shape == (s, units.cells.size) and (pub.sum(axis=1) == k).all()
    for j, total in enumerate(units.cells):
        mean, var = _hyper_moments(total, units.n, k)
        assert pub[:, j].mean() == pytest.approx(mean, abs=5 * np.sqrt(var / s))
        assert pub[:, j].var(ddof=1) == pytest.approx(var, rel=0.06)


@pytest.mark.parametrize("fraction", [0.2, 0.8])
def test_unit_subsets_follow_the_hypergeometric_law(fraction):
    n, s = 60, 20000
    units = fbeta_units(jaccard_fbeta([["a"]] * n, [["a"]] * n))
    k = public_size(n, fraction)
    marks = np.concatenate([m for _, m in split_blocks(rng_of(3), units, s, k)])
    assert (marks.sum(axis=1) == k).all()                # exactly round(f N) units in Public
    assert set(np.unique(marks)) == {0, 1}
    group = marks[:, :17].sum(axis=1)                    # Public units among a fixed group of 17
    mean, var = _hyper_moments(17, n, k)
    assert group.mean() == pytest.approx(mean, abs=5 * np.sqrt(var / s))
    assert group.var(ddof=1) == pytest.approx(var, rel=0.06)
    np.testing.assert_allclose(marks.mean(axis=0), k / n, atol=0.02)  # every unit equally likely


def test_kappa_split_scores_equal_sklearn_on_the_drawn_rows():
    _, _, res = _kappa(90, 2)
    units = kappa_units(res)
    sh = shakeup(units, 0.25, 30, seed=4)
    k = public_size(units.n, 0.25)
    pub = np.concatenate([c for _, c in split_blocks(rng_of(4), units, 30, k)])
    ti, pj = np.nonzero(res.observed)
    lab = list(res.labels)
    for b in range(30):
        for counts, score in ((pub[b], sh.public[b]), (units.cells - pub[b], sh.private[b])):
            ref = cohen_kappa_score(np.repeat(ti, counts), np.repeat(pj, counts), labels=lab,
                                    weights="quadratic")
            assert score == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("fraction", [0.3, 0.7])
def test_lwlrap_and_fbeta_split_scores_equal_the_plain_loops(fraction):
    rng = np.random.default_rng(5)
    truth = (rng.random((40, 4)) < 0.4).astype(int)
    truth[:, 0] = 1
    scores = rng.random((40, 4))
    units = lwlrap_units(lwlrap(truth, scores))
    sh = shakeup(units, fraction, 25, seed=6)
    k = public_size(40, fraction)
    sel = np.concatenate([s for _, s in subset_blocks(rng_of(6), 40, 25, k)])
    for b in range(25):
        small = np.zeros(40, bool)
        small[sel[b]] = True
        public = small if k <= 40 - k else ~small
        assert sh.public[b] == pytest.approx(lwlrap_ref(truth[public], scores[public]), abs=1e-12)
        assert sh.private[b] == pytest.approx(lwlrap_ref(truth[~public], scores[~public]), abs=1e-12)
    words = ["a b", "b c", "c", "d"]
    truths = [list(rng.choice(words, rng.integers(0, 3))) for _ in range(40)]
    preds = [list(rng.choice(words, rng.integers(0, 3))) for _ in range(40)]
    sh = shakeup(fbeta_units(jaccard_fbeta(truths, preds)), fraction, 25, seed=6)
    for b in range(25):
        small = np.zeros(40, bool)
        small[sel[b]] = True
        public = np.flatnonzero(small if k <= 40 - k else ~small)
        ref, _ = fbeta_ref([truths[i] for i in public], [preds[i] for i in public])
        assert sh.public[b] == pytest.approx(ref, abs=1e-12, nan_ok=True)


def test_seed_reproduces_and_summary_keys():
    _, _, res = _kappa(300, 3)
    a = shakeup(kappa_units(res), 0.3, 500, seed=1, actual_gap=0.01)
    b = shakeup(kappa_units(res), 0.3, 500, seed=1, actual_gap=0.01)
    c = shakeup(kappa_units(res), 0.3, 500, seed=2)
    assert np.array_equal(a.gap, b.gap) and not np.array_equal(a.gap, c.gap)
    d = a.to_dict()
    assert list(d)[:10] == ["public_fraction", "splits", "seed", "gap_mean", "gap_sd", "gap_p05",
                            "gap_p50", "gap_p95", "actual_gap", "actual_gap_percentile"]
    g = a.gap
    assert d["gap_mean"] == pytest.approx(g.mean()) and d["gap_sd"] == pytest.approx(g.std(ddof=1))
    assert d["gap_p05"] == pytest.approx(np.percentile(g, 5))
    assert d["actual_gap_percentile"] == pytest.approx(100 * (g < 0.01).mean(), abs=100 * (g == 0.01).mean())
    assert c.to_dict()["actual_gap"] is None


def test_actual_percentile_is_the_mid_rank():
    sh = Shakeup(np.zeros(4), np.array([-1.0, 0.0, 0.0, 2.0]), 0.5, 2, 4, 0, actual_gap=0.0)
    assert sh.actual_percentile == pytest.approx(100 * (1 + 3) / 8)   # 1 below, 3 at or below


def test_undefined_splits_are_counted_not_dropped_silently():
    # two rows of one cell and one of another: a Public of one cell is 0/0
    res = weighted_kappa([0, 0, 1, 1], [0, 0, 1, 1])
    sh = shakeup(kappa_units(res), 0.5, 200, seed=0)
    assert sh.undefined == int((~np.isfinite(sh.gap)).sum()) and sh.undefined > 0
    assert sh.to_dict()["undefined_splits"] == sh.undefined


def test_bad_fraction_and_too_few_units():
    _, _, res = _kappa(10, 0)
    for f in (0, 1, -0.1, 1.5):
        with pytest.raises(InputError, match="between 0 and 1"):
            shakeup(kappa_units(res), f, 10)
    one = weighted_kappa([1], [1])
    with pytest.raises(InputError, match="at least 2 units"):
        shakeup(kappa_units(one), 0.5, 10)
    assert public_size(10, 0.01) == 1 and public_size(10, 0.99) == 9
