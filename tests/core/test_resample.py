"""Bootstrap from per-unit sums against plain loops on the very same draws.

The reference side resamples the units themselves (rows, samples, documents)
with the indices or cell counts the core exposes, and scores them with
scikit-learn or the plain loops of tests/reference.py.
"""
import warnings

import numpy as np
import pytest
from reference import fbeta_ref, lwlrap_ref
from scipy import stats as sps
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels import jaccard_fbeta, kappa_from_confusion, lwlrap, weighted_kappa
from kmetric_gui.core import resample as rs
from kmetric_gui.core.intervals import bca_interval, percentile_interval
from kmetric_gui.metrics.kernels.units import (fbeta_units, kappa_units, lwlrap_class_jackknife,
                                    lwlrap_class_replicates, lwlrap_units)
from kmetric_gui.errors import InputError
from kmetric_gui.analysis.stats import interval_of

SK_WEIGHTS = {"quadratic": "quadratic", "linear": "linear", "none": None}


def _kappa_data(n, seed, k=5):
    rng = np.random.default_rng(seed)
    t = rng.integers(1, k, n)
    p = np.clip(t + rng.integers(-2, 3, n), 1, k)
    return t, p


def _cell_rows(result, counts):
    """Rows (truth, prediction) of one replicate from its cell counts."""
    ti, pj = np.nonzero(result.observed)
    lab = result.labels
    return np.repeat(lab[ti], counts), np.repeat(lab[pj], counts)


@pytest.mark.parametrize("weights", ["quadratic", "linear", "none"])
def test_kappa_replicates_equal_sklearn_on_the_drawn_rows(weights):
    t, p = _kappa_data(80, 1)
    res = weighted_kappa(t, p, weights=weights, min_rating=0, max_rating=6)  # range wider than data
    units = kappa_units(res)
    reps = rs.bootstrap(units, 40, seed=11)
    counts = rs.resample_counts(units.cells, 40, seed=11)
    assert (counts.sum(axis=1) == 80).all()
    for b in range(40):
        tt, pp = _cell_rows(res, counts[b])
        ref = cohen_kappa_score(tt, pp, labels=list(range(0, 7)), weights=SK_WEIGHTS[weights])
        assert reps[b] == pytest.approx(ref, abs=1e-12)


def test_kappa_point_and_jackknife_match_brute_force():
    t, p = _kappa_data(60, 2)
    res = weighted_kappa(t, p)
    units = kappa_units(res)
    assert units.point() == pytest.approx(res.score, abs=1e-14)
    values, weights = units.jackknife()
    rows = list(zip(t, p))
    lab = list(res.labels)
    brute = [cohen_kappa_score(*zip(*(rows[:i] + rows[i + 1:])), labels=lab, weights="quadratic")
             for i in range(len(rows))]
    ti, pj = np.nonzero(res.observed)
    # each cell's value stands for every row in that cell
    ours = {(lab[a], lab[b]): v for a, b, v in zip(ti, pj, values)}
    assert [ours[r] for r in rows] == pytest.approx(brute, abs=1e-12)
    assert weights.sum() == 60


def test_kappa_multinomial_and_row_bootstrap_agree_in_standard_error():
    t, p = _kappa_data(300, 3)
    res = weighted_kappa(t, p)
    b = 20000
    multi = rs.bootstrap(kappa_units(res), b, seed=0)
    # row bootstrap: rows drawn with replacement, kappa from each draw's confusion matrix
    rng = np.random.default_rng(123)
    lo, k = int(res.labels[0]), res.labels.size
    code = (t - lo) * k + (p - lo)
    rows = np.empty(b)
    for i in range(b):
        o = np.bincount(code[rng.integers(0, t.size, t.size)], minlength=k * k).reshape(k, k)
        rows[i] = kappa_from_confusion(o).score
    se_m, se_r = multi.std(ddof=1), rows.std(ddof=1)
    assert se_m == pytest.approx(se_r, rel=0.03)      # sampling error of each SE is ~0.5%
    assert np.median(multi) == pytest.approx(np.median(rows), abs=0.1 * se_r)


def test_lwlrap_replicates_equal_the_plain_loop_on_the_drawn_samples():
    rng = np.random.default_rng(4)
    truth = (rng.random((25, 5)) < 0.35).astype(int)
    truth[3] = 0                                        # a sample without positives still counts
    scores = np.round(rng.random((25, 5)), 1)          # ties
    res = lwlrap(truth, scores)
    reps = rs.bootstrap(lwlrap_units(res), 30, seed=5)
    idx = rs.resample_indices(25, 30, seed=5)
    for b in range(30):
        assert reps[b] == pytest.approx(lwlrap_ref(truth[idx[b]], scores[idx[b]]), abs=1e-12)


def _per_class_loop(truth, scores):
    """Per-class mean precision, a plain loop (nan for a class without positives)."""
    c = truth.shape[1]
    sums, counts = [0.0] * c, [0] * c
    for t_row, s_row in zip(truth, scores):
        for j in range(c):
            if t_row[j]:
                above = [k for k in range(c) if s_row[k] >= s_row[j]]
                sums[j] += sum(1 for k in above if t_row[k]) / len(above)
                counts[j] += 1
    return [s / n if n else float("nan") for s, n in zip(sums, counts)]


def test_lwlrap_per_class_replicates_equal_the_plain_loop(monkeypatch):
    rng = np.random.default_rng(6)
    truth = (rng.random((30, 4)) < 0.3).astype(int)
    truth[:, 3] = 0
    truth[7, 3] = 1                                      # a rare class: often absent in a replicate
    scores = rng.random((30, 4))
    res = lwlrap(truth, scores)
    monkeypatch.setattr(rs, "CHUNK", 64)                 # several accumulation rounds
    reps = lwlrap_class_replicates(res, 50, seed=8)
    idx = rs.resample_indices(30, 50, seed=8)
    for b in range(50):
        ref = _per_class_loop(truth[idx[b]], scores[idx[b]])
        np.testing.assert_allclose(reps[b], ref, atol=1e-12, equal_nan=True)
    assert np.isnan(reps[:, 3]).sum() == sum(7 not in idx[b] for b in range(50))


def test_lwlrap_class_jackknife_is_leave_one_sample_out():
    rng = np.random.default_rng(9)
    truth = (rng.random((12, 3)) < 0.4).astype(int)
    truth[0] = 1
    scores = rng.random((12, 3))
    res = lwlrap(truth, scores)
    for c in range(3):
        values, weights = lwlrap_class_jackknife(res, c)
        brute = np.array([_per_class_loop(np.delete(truth, i, 0), np.delete(scores, i, 0))[c]
                          for i in range(12)])
        ours = np.repeat(values, weights.astype(int))
        np.testing.assert_allclose(np.sort(ours), np.sort(brute), atol=1e-12)


def _docs(rng, n):
    words = ["alpha beta", "beta gamma", "gamma", "delta epsilon", "alpha"]
    truths = [list(rng.choice(words, rng.integers(0, 3))) for _ in range(n)]
    preds = [list(rng.choice(words, rng.integers(0, 3))) for _ in range(n)]
    return truths, preds


def test_fbeta_replicates_equal_the_reference_loop_on_the_drawn_documents():
    rng = np.random.default_rng(10)
    truths, preds = _docs(rng, 30)
    res = jaccard_fbeta(truths, preds, beta=0.5)
    reps = rs.bootstrap(fbeta_units(res), 30, seed=2)
    idx = rs.resample_indices(30, 30, seed=2)
    for b in range(30):
        ref, _ = fbeta_ref([truths[i] for i in idx[b]], [preds[i] for i in idx[b]], beta=0.5)
        assert reps[b] == pytest.approx(ref, abs=1e-12, nan_ok=True)


def test_long_draws_are_cut_into_blocks_of_bounded_size(monkeypatch):
    monkeypatch.setattr(rs, "CHUNK", 7)
    blocks = list(rs.index_blocks(np.random.default_rng(0), 20, 3))
    assert max(b[3].size for b in blocks) <= 7
    assert sum(b[3].size for b in blocks) == 60
    rng = np.random.default_rng(12)
    truth = (rng.random((20, 3)) < 0.5).astype(int)
    scores = rng.random((20, 3))
    res = lwlrap(truth, scores)
    reps = rs.bootstrap(lwlrap_units(res), 6, seed=1)
    idx = rs.resample_indices(20, 6, seed=1)
    for b in range(6):
        assert reps[b] == pytest.approx(lwlrap_ref(truth[idx[b]], scores[idx[b]]), abs=1e-12)
    per_class = lwlrap_class_replicates(res, 6, seed=1)
    for b in range(6):
        np.testing.assert_allclose(per_class[b], _per_class_loop(truth[idx[b]], scores[idx[b]]),
                                   atol=1e-12, equal_nan=True)


def test_packed_integer_sums_fall_back_when_they_would_overflow():
    stats = np.array([[2 ** 40, 1, 0], [3, 2 ** 30, 5]], dtype=np.int64)
    g = rs._Gather(stats, 1000)
    assert g.shifts is None                              # 63 bits are not enough: floats
    acc = g.zeros(1)
    g.add(acc, slice(0, 1), np.array([[0, 1, 1, 0]]))
    np.testing.assert_array_equal(g.unpack(acc)[0], (stats[[0, 1, 1, 0]]).sum(axis=0))
    small = rs._Gather(np.array([[1, 0, 2], [0, 3, 1]]), 10)
    assert small.shifts is not None
    acc = small.zeros(2)
    small.add(acc, slice(0, 2), np.array([[0, 0, 1], [1, 1, 1]]))
    np.testing.assert_array_equal(small.unpack(acc), [[2, 3, 5], [0, 9, 3]])


def test_same_seed_same_replicates_other_seed_other_replicates():
    t, p = _kappa_data(200, 5)
    u = kappa_units(weighted_kappa(t, p))
    assert np.array_equal(rs.bootstrap(u, 300, seed=4), rs.bootstrap(u, 300, seed=4))
    assert not np.array_equal(rs.bootstrap(u, 300, seed=4), rs.bootstrap(u, 300, seed=5))
    truths, preds = _docs(np.random.default_rng(1), 40)
    f = fbeta_units(jaccard_fbeta(truths, preds))
    assert np.array_equal(rs.bootstrap(f, 100, seed=9), rs.bootstrap(f, 100, seed=9))


def test_undefined_replicates_are_counted():
    # three rows, two in one cell: a replicate of only that cell has one class: 0/0
    res = weighted_kappa([0, 0, 1], [0, 0, 1])
    units = kappa_units(res)
    reps = rs.bootstrap(units, 400, seed=0)
    counts = rs.resample_counts(units.cells, 400, seed=0)
    one_cell = (counts == 3).any(axis=1)
    assert np.array_equal(np.isnan(reps), one_cell)
    assert 90 < one_cell.sum() < 180                     # P = (2/3)^3 + (1/3)^3 = 1/3
    iv = interval_of(units, 0.9, 400, 0)
    assert (iv.replicates, iv.undefined) == (400, int(one_cell.sum()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                  # sklearn warns on 0/0 and returns nan
        for b in np.flatnonzero(one_cell)[:5]:
            tt, pp = _cell_rows(res, counts[b])
            assert np.isnan(cohen_kappa_score(tt, pp, labels=[0, 1], weights="quadratic"))


def _scipy_bca(n, statistic, reps, level):
    """scipy's BCa from our replicates; scipy does its own leave-one-unit-out jackknife."""
    data = np.arange(n)
    prior = sps.bootstrap((data,), statistic, n_resamples=2, vectorized=False, rng=0)
    prior = type(prior)(bootstrap_distribution=reps, confidence_interval=prior.confidence_interval,
                        standard_error=prior.standard_error)
    return sps.bootstrap((data,), statistic, n_resamples=0, bootstrap_result=prior,
                         method="BCa", confidence_level=level, vectorized=False).confidence_interval


def test_bca_matches_scipy_for_kappa_on_rows():
    t, p = _kappa_data(70, 7)
    res = weighted_kappa(t, p)
    lab = list(res.labels)
    stat = lambda i: cohen_kappa_score(t[i], p[i], labels=lab, weights="quadratic")
    units = kappa_units(res)
    reps = rs.bootstrap(units, 999, seed=3)
    values, weights = units.jackknife()
    ours = bca_interval(reps, units.point(), values, 0.9, weights)
    ref = _scipy_bca(70, stat, reps, 0.9)
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    assert interval_of(units, 0.9, 999, 3, "bca") == ours


def test_bca_matches_scipy_for_fbeta_and_lwlrap():
    rng = np.random.default_rng(8)
    truths, preds = _docs(rng, 40)
    f = fbeta_units(jaccard_fbeta(truths, preds))
    stat = lambda i: fbeta_ref([truths[k] for k in i], [preds[k] for k in i])[0]
    ours = interval_of(f, 0.95, 500, 1, "bca")
    ref = _scipy_bca(40, stat, rs.bootstrap(f, 500, seed=1), 0.95)
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    truth = (rng.random((30, 4)) < 0.4).astype(int)
    truth[0] = 1
    scores = rng.random((30, 4))
    lw = lwlrap_units(lwlrap(truth, scores))
    stat = lambda i: lwlrap_ref(truth[i], scores[i])
    ours = interval_of(lw, 0.95, 500, 2, "bca")
    ref = _scipy_bca(30, stat, rs.bootstrap(lw, 500, seed=2), 0.95)
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    assert ours != percentile_interval(rs.bootstrap(lw, 500, seed=2), 0.95)


def test_replicate_count_is_checked():
    u = kappa_units(weighted_kappa([0, 1], [0, 1]))
    for bad in (0, -3, rs.MAX_REPLICATES + 1):
        with pytest.raises(InputError, match="between 1 and 1,000,000"):
            rs.bootstrap(u, bad)


def test_no_units_gives_undefined_replicates():
    res = lwlrap(np.zeros((0, 3)), np.zeros((0, 3)))
    reps = rs.bootstrap(lwlrap_units(res), 5)
    assert np.isnan(reps).all() and reps.size == 5
