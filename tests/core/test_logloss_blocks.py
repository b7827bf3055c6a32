"""Multi-class log loss read in blocks of rows: equal to Kaggle's clip-then-renormalise
(a plain loop) and to scikit-learn on the renormalised matrix, on inputs spanning many
blocks, with zeros, ones, rows not summing to 1 and odd memory layouts."""
import math
import tracemalloc

import numpy as np
import pytest
from sklearn import metrics as skm

from kmetric_gui.metrics.kernels import probabilistic
from kmetric_gui.metrics.kernels.probabilistic import log_loss
from kmetric_gui.errors import InputError


def kaggle_rows(y, p, eps=1e-15):
    """Per-row -log p(true) by Kaggle's definition, one row at a time."""
    out = []
    for t, row in zip(y, p):
        clipped = [min(max(float(v), eps), 1 - eps) for v in row]
        out.append(-math.log(clipped[t] / math.fsum(clipped)))
    return np.array(out)


def messy(rng, n, c):
    """Probabilities with zeros, ones, rows summing to less or more than 1."""
    p = rng.dirichlet(np.ones(c), n)
    p[rng.random(p.shape) < 0.05] = 0.0
    p[rng.random(n) < 0.02, rng.integers(0, c)] = 1.0
    p[: n // 3] *= rng.uniform(0.3, 1.5, (n // 3, 1))
    return np.clip(p, 0.0, 1.0)


@pytest.mark.parametrize("n,c", [(1, 2), (3, 7), (20_000, 3), (9_000, 10), (300, 70_000)])
def test_blocks_equal_a_plain_loop_with_zeros_ones_and_unnormalised_rows(n, c):
    rng = np.random.default_rng(n + c)
    p, y = messy(rng, n, c), rng.integers(0, c, n)
    r = log_loss(y, p)
    want = kaggle_rows(y, p)
    np.testing.assert_allclose(r.losses, want, rtol=1e-12, atol=1e-15)   # -log(1 - tiny): ulps
    assert r.score == pytest.approx(want.mean(), rel=1e-12)
    clipped = np.clip(p, 1e-15, 1 - 1e-15)
    np.testing.assert_allclose(r.p_true, clipped[np.arange(n), y] / clipped.sum(axis=1),
                               rtol=1e-13)
    raw = p[np.arange(n), y]
    assert r.clipped == int(np.count_nonzero((raw < 1e-15) | (raw > 1 - 1e-15)))
    for eps in (1e-3, 0.0):
        if eps == 0.0 and (p[np.arange(n), y] == 0).any():
            continue                                 # log 0: infinite, checked below
        assert log_loss(y, p, eps=eps).score == pytest.approx(
            kaggle_rows(y, p, eps).mean(), rel=1e-12)


def test_equal_to_sklearn_on_random_and_on_renormalised_messy_rows():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 10, 50_000)
    p = rng.dirichlet(np.ones(10), 50_000)
    assert log_loss(y, p).score == pytest.approx(skm.log_loss(y, p, labels=range(10)),
                                                 rel=1e-12)
    m = messy(rng, 50_000, 10)
    norm = np.clip(m, 1e-15, 1 - 1e-15)
    norm /= norm.sum(axis=1, keepdims=True)     # then sklearn's own clip changes nothing
    assert log_loss(y, m).score == pytest.approx(skm.log_loss(y, norm, labels=range(10)),
                                                 rel=1e-12)


def test_layouts_and_float32_give_the_same_losses():
    rng = np.random.default_rng(8)
    p, y = messy(rng, 30_000, 6), rng.integers(0, 6, 30_000)
    base = log_loss(y, p)
    wide = np.zeros((30_000, 12))
    wide[:, ::2] = p                          # a strided view
    for q in (np.asfortranarray(p), wide[:, ::2], p.astype(np.float32).astype(np.float64)):
        r = log_loss(y, q)
        want = kaggle_rows(y, q)
        np.testing.assert_allclose(r.losses, want, rtol=1e-12, atol=1e-15)   # -log(1 - tiny): ulps
    assert log_loss(y, np.asfortranarray(p)).score == pytest.approx(base.score, rel=1e-14)
    r32 = log_loss(y, p.astype(np.float32))
    assert r32.score == pytest.approx(kaggle_rows(y, p.astype(np.float32)).mean(), rel=1e-12)


def test_a_true_class_given_zero_with_eps_zero_is_infinite():
    assert log_loss([0, 1], [[0.0, 1.0], [0.5, 0.5]], eps=0.0).score == math.inf


@pytest.mark.parametrize("value,msg", [(np.nan, "NaN at row 12345, column 4"),
                                       (np.inf, "an infinite value at row 12345, column 4"),
                                       (1.5, "1.5, outside \\[0, 1\\] at row 12345, column 4"),
                                       (-0.25, "-0.25, outside \\[0, 1\\] at row 12345")])
def test_a_bad_value_in_a_late_block_is_named_where_it_is(value, msg):
    rng = np.random.default_rng(9)
    p = rng.dirichlet(np.ones(7), 20_000)
    p[12345, 4] = value
    p[19_999, 6] = value
    with pytest.raises(InputError, match=msg + ".*2 such value"):
        log_loss(rng.integers(0, 7, 20_000), p)
    with pytest.raises(InputError, match=msg):          # before the truth's own problem
        log_loss(np.full(20_000, 9), p)


def test_one_pass_when_nothing_needs_a_clip(monkeypatch):
    calls = []
    real = probabilistic._row_sums
    monkeypatch.setattr(probabilistic, "_row_sums",
                        lambda p, eps, clip: calls.append(clip) or real(p, eps, clip))
    rng = np.random.default_rng(10)
    p = rng.dirichlet(np.ones(4) * 5, 1000)
    assert log_loss(rng.integers(0, 4, 1000), p).clipped == 0 and calls == [False]
    p[3, 1] = 0.0
    log_loss(rng.integers(0, 4, 1000), p)
    assert calls == [False, False, True]


@pytest.mark.parametrize("truth_dtype", [np.int8, np.int64, np.bool_, np.float64])
def test_binary_score_by_blocks_equals_a_plain_loop_and_makes_rows_only_when_asked(truth_dtype):
    """Binary: the score is summed by blocks with no per-row array; the per-row losses and
    probabilities (for statistics) are made on first use and equal Kaggle's loop."""
    rng = np.random.default_rng(11)
    n = 10 * probabilistic.BLOCK + 123
    y = rng.random(n) < 0.4
    p = rng.random(n)
    p[rng.integers(0, n, 40)] = 0.0                  # clipped rows in several blocks
    p[rng.integers(0, n, 40)] = 1.0
    t = y.astype(truth_dtype)
    tracemalloc.start()
    r = log_loss(t, p)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    if truth_dtype != np.float64:       # (real truth is checked whole: a rounded copy)
        assert peak < 4 * n             # the score alone made no row array of floats (8n)
    want = kaggle_rows(y.astype(int), np.c_[1 - p, p])
    assert r.score == pytest.approx(math.fsum(want) / n, rel=1e-12)
    np.testing.assert_allclose(r.losses, want, rtol=1e-12)
    np.testing.assert_allclose(r.p_true, np.exp(-want), rtol=1e-12)
    raw = np.where(y, p, 1 - p)
    assert r.clipped == int(np.count_nonzero((raw < 1e-15) | (raw > 1 - 1e-15))) > 0
    q = np.clip(p, 0.01, 0.99)                       # nothing clipped: scikit-learn agrees
    assert log_loss(y.astype(truth_dtype), q).score == pytest.approx(skm.log_loss(y, q), rel=1e-12)
