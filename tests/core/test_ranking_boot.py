"""AUC's bootstrap: counting on worker threads changes no number, cancelling stops it,
and every replicate equals scikit-learn on the very rows ``resample_indices`` draws."""
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from kmetric_gui.core import resample
from kmetric_gui.metrics.kernels import ranking_boot
from kmetric_gui.metrics.kernels.ranking_boot import auc_bootstrap
from kmetric_gui.core.resample import resample_indices
from kmetric_gui.errors import Cancelled

RNG = np.random.default_rng(404)


def plain(y, s, b, seed):
    """Replicate AUCs by a plain loop over the drawn rows (nan: one class drawn)."""
    out = []
    for idx in resample_indices(y.size, b, seed=seed):
        yy = y[idx]
        out.append(np.nan if yy.all() or not yy.any() else roc_auc_score(yy, s[idx]))
    return np.array(out)


@pytest.mark.parametrize("chunk", [None, 64])          # 64: a replicate arrives in slices
def test_threads_change_no_number(monkeypatch, chunk):
    if chunk:
        monkeypatch.setattr(resample, "CHUNK", chunk)
    n, b = 300, 40
    y = RNG.random(n) < 0.3
    a = np.round(RNG.random(n) + 0.3 * y, 2)
    c = RNG.random(n) + 0.1 * y
    one = auc_bootstrap(y, [a, c], b, seed=7, threads=1)
    two = auc_bootstrap(y, [a, c], b, seed=7, threads=2)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_allclose(two[:, 0], plain(y, a, b, 7), rtol=1e-12)
    np.testing.assert_allclose(two[:, 1], plain(y, c, b, 7), rtol=1e-12)


def test_threads_by_default_on_big_jobs_same_numbers(monkeypatch):
    monkeypatch.setattr(ranking_boot, "PARALLEL_DRAWS", 1)     # threads for any size
    n, b = 500, 30
    y = RNG.random(n) < 0.4
    s = RNG.normal(size=n) + y
    np.testing.assert_array_equal(auc_bootstrap(y, [s], b, seed=3),
                                  auc_bootstrap(y, [s], b, seed=3, threads=1))
    np.testing.assert_allclose(auc_bootstrap(y, [s], b, seed=3)[:, 0], plain(y, s, b, 3),
                               rtol=1e-12)


@pytest.mark.parametrize("threads", [1, 2])
def test_cancel_stops_the_bootstrap(monkeypatch, threads):
    monkeypatch.setattr(resample, "CHUNK", 50)
    y = RNG.random(200) < 0.5
    s = RNG.random(200)
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 3
    with pytest.raises(Cancelled):
        auc_bootstrap(y, [s], 100, seed=1, cancel=cancel, threads=threads)
    assert len(calls) == 4


def plain_on(draws, y, s):
    out = []
    for idx in draws:
        yy = y[idx]
        out.append(np.nan if yy.all() or not yy.any() else roc_auc_score(yy, s[idx]))
    return np.array(out)


@pytest.mark.parametrize("n", [64, 200, 257])       # whole blocks, a partial last block
def test_block_draws_equal_a_plain_loop_on_their_rows(monkeypatch, n):
    monkeypatch.setattr(ranking_boot, "BLOCK", 64)   # n > BLOCK: draws come by blocks
    b = 25
    y = RNG.random(n) < 0.3
    a = np.round(RNG.random(n) + 0.3 * y, 1)
    c = RNG.normal(size=n) + 0.5 * y
    reps = auc_bootstrap(y, [a, c], b, seed=12, threads=2)
    draws = ranking_boot.auc_draws(n, b, seed=12)
    assert draws.shape == (b, n) and draws.min() >= 0 and draws.max() < n
    np.testing.assert_allclose(reps[:, 0], plain_on(draws, y, a), rtol=1e-12)
    np.testing.assert_allclose(reps[:, 1], plain_on(draws, y, c), rtol=1e-12)
    np.testing.assert_array_equal(reps, auc_bootstrap(y, [a, c], b, seed=12, threads=1))
    # the second submission alone gets its replicates of the pair: draws depend on (n, B, seed)
    np.testing.assert_array_equal(auc_bootstrap(y, [c], b, seed=12)[:, 0], reps[:, 1])


def test_small_n_draws_are_resample_bootstrap_draws():
    np.testing.assert_array_equal(ranking_boot.auc_draws(300, 20, seed=5),
                                  resample_indices(300, 20, seed=5))


def test_block_draws_are_uniform_with_replacement(monkeypatch):
    # each row's count over many replicates: mean 1 and binomial(n, 1/n) variance
    monkeypatch.setattr(ranking_boot, "BLOCK", 16)
    n, b = 100, 4000                                   # 6 whole blocks and one of 4 rows
    counts = np.stack([np.bincount(d, minlength=n) for d in ranking_boot.auc_draws(n, b, seed=1)])
    assert counts.sum(axis=1).tolist() == [n] * b
    mean = counts.mean(axis=0)
    assert np.abs(mean - 1).max() < 5 * np.sqrt((1 - 1 / n) / b)     # every row, the last block's too
    assert counts.var() == pytest.approx(1 - 1 / n, rel=0.05)
    # two rows of different blocks are drawn independently but for the fixed total
    r = np.corrcoef(counts[:, 3], counts[:, 97])[0, 1]
    assert abs(r + 1 / (n - 1)) < 0.06


@pytest.mark.parametrize("block", [64, 48])          # raw bits (a power of two), bounded integers
def test_replicate_draws_are_their_own_and_threads_change_nothing(monkeypatch, block):
    monkeypatch.setattr(ranking_boot, "BLOCK", block)
    monkeypatch.setattr(ranking_boot, "TASK", 3)       # several tasks, the last one short
    n, b = 150, 20
    y = RNG.random(n) < 0.4
    s = RNG.normal(size=n) + 0.6 * y
    one = auc_bootstrap(y, [s], b, seed=21, threads=1)
    two = auc_bootstrap(y, [s], b, seed=21, threads=2)
    np.testing.assert_array_equal(one, two)
    draws = ranking_boot.auc_draws(n, b, seed=21)
    np.testing.assert_allclose(two[:, 0], plain_on(draws, y, s), rtol=1e-12)
    # replicate r's rows depend on (n, seed, r): more replicates keep the first ones
    np.testing.assert_array_equal(ranking_boot.auc_draws(n, b + 7, seed=21)[:b], draws)
    assert not np.array_equal(ranking_boot.auc_draws(n, b, seed=22), draws)
    assert len({tuple(d) for d in draws}) == b               # no two replicates alike


def test_raw_bit_rows_are_uniform_in_a_partial_power_of_two_block(monkeypatch):
    # 3 blocks of 32 and one of 8 rows: masked raw bits in every block; each row's mean
    # count over many replicates is 1
    monkeypatch.setattr(ranking_boot, "BLOCK", 32)
    n, b = 104, 3000
    counts = np.stack([np.bincount(d, minlength=n) for d in ranking_boot.auc_draws(n, b, seed=4)])
    assert counts.sum(axis=1).tolist() == [n] * b
    assert np.abs(counts.mean(axis=0) - 1).max() < 5 * np.sqrt((1 - 1 / n) / b)
    assert counts.var() == pytest.approx(1 - 1 / n, rel=0.05)


def test_big_bootstrap_on_threads_equals_sklearn_on_its_rows():
    # the real block size (n > BLOCK): two submissions, both thread counts, a few replicates
    n, b = ranking_boot.BLOCK + 5000, 4
    y = RNG.random(n) < 0.3
    a = np.round(RNG.random(n) + 0.2 * y, 3)
    c = RNG.normal(size=n) + 0.4 * y
    reps = auc_bootstrap(y, [a, c], b, seed=2, threads=2)
    np.testing.assert_array_equal(reps, auc_bootstrap(y, [a, c], b, seed=2, threads=1))
    draws = ranking_boot.auc_draws(n, b, seed=2)
    np.testing.assert_allclose(reps[:, 0], plain_on(draws, y, a), rtol=1e-12)
    np.testing.assert_allclose(reps[:, 1], plain_on(draws, y, c), rtol=1e-12)
