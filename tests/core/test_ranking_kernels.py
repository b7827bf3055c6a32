"""The fast AUC kernels against scikit-learn and plain per-replicate loops on the
layouts that stress them: many ties, every score tied, one class tiny, float32."""
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from kmetric_gui.metrics.kernels import _buckets, ranking
from kmetric_gui.metrics.kernels.ranking import decimal_codes, roc_auc
from kmetric_gui.metrics.kernels.ranking_boot import _Cells, auc_bootstrap
from kmetric_gui.core.resample import resample_indices

RNG = np.random.default_rng(2026)


def cases():
    n = 400
    y = RNG.random(n) < 0.35
    yield "many ties", y, np.round(RNG.random(n) + 0.3 * y, 1)
    yield "all tied", y, np.full(n, 0.25)
    tiny = np.zeros(n, dtype=bool)
    tiny[[17, 230]] = True
    yield "two positives", tiny, np.round(RNG.random(n), 2)
    yield "one negative", ~tiny & (np.arange(n) != 230), np.round(RNG.random(n), 2)
    yield "float32", y, (RNG.random(n) + 0.2 * y).astype(np.float32)
    yield "alternating classes", np.arange(n) % 2 == 0, np.arange(n, dtype=float)
    yield "negative scores", y, np.round(RNG.normal(size=n) - 0.5 * y, 2)


def decimal_cases():
    n = 3000
    y = RNG.random(n) < 0.3
    p = np.clip(RNG.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    yield "6 decimals", y, np.round(p, 6)
    yield "1 decimal", y, np.round(p, 1)
    yield "whole numbers", y, np.round(p * 40) - 7.0
    yield "negative 3 decimals", y, np.round(-p, 3)
    yield "one long decimal among short", y, np.r_[np.round(p[:-1], 2), 0.1234567891234]
    yield "range too wide", y, np.round(p * 1e9)
    yield "not decimals", y, p
    tiny = np.zeros(n, dtype=bool)
    tiny[1234] = True
    yield "one positive", tiny, np.round(p, 2)
    yield "all tied", y, np.full(n, 0.5)


@pytest.mark.parametrize("name,y,s", list(cases()) + list(decimal_cases()),
                         ids=[c[0] for c in cases()] + [c[0] for c in decimal_cases()])
@pytest.mark.parametrize("path", ["sort", "codes"])
def test_score_equals_sklearn(monkeypatch, path, name, y, s):
    if path == "sort":
        monkeypatch.setattr(ranking, "MAX_DECIMALS", -1)     # no decimal codes
    else:
        monkeypatch.setattr(ranking, "SAMPLE", 1)            # codes tried at any size
    r = roc_auc(y, s)
    assert r.score == pytest.approx(roc_auc_score(y, s), rel=1e-12, abs=1e-15)
    t = np.asarray(s)
    assert r.tied_pairs[0] == sum(int(((t == v) & ~y).sum()) for v in t[y])


@pytest.mark.parametrize("name,y,s", list(decimal_cases()), ids=[c[0] for c in decimal_cases()])
def test_decimal_codes_rank_exactly_or_decline(name, y, s):
    found = decimal_codes(s)
    if name in ("one long decimal among short", "range too wide", "not decimals"):
        assert found is None
        return
    codes, size = found
    assert codes.min() == 0 and codes.max() < size
    # the same order and the same ties as the scores themselves
    order = np.argsort(s, kind="stable")
    np.testing.assert_array_equal(np.argsort(codes, kind="stable"), order)
    np.testing.assert_array_equal(np.diff(codes[order]) == 0, np.diff(s[order]) == 0)


@pytest.mark.parametrize("name,y,s", list(cases()), ids=[c[0] for c in cases()])
def test_cells_give_the_full_data_auc(name, y, s):
    c = _Cells(y, np.asarray(s))
    full = np.bincount(c.cell, minlength=c.cells)[None, :]
    assert c.auc(full)[0] == pytest.approx(roc_auc_score(y, s), rel=1e-12, abs=1e-15)
    assert c.cells <= 2 * len(np.unique(s)) + 1        # pure runs merge: never one cell a row


@pytest.mark.parametrize("name,y,s", list(cases()), ids=[c[0] for c in cases()])
def test_bootstrap_equals_plain_loop(name, y, s):
    b = 30
    reps = auc_bootstrap(y, [s], b, seed=11)[:, 0]
    for r, idx in enumerate(resample_indices(y.size, b, seed=11)):
        yy = y[idx]
        if yy.all() or not yy.any():
            assert np.isnan(reps[r])
        else:
            assert reps[r] == pytest.approx(roc_auc_score(yy, s[idx]), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("n", [500, 3000])
def test_multiclass_with_ties_equals_sklearn(n):
    k = 4
    y = RNG.integers(0, k, n)
    p = np.round(RNG.dirichlet(np.ones(k), n), 3)
    p[:, -1] = np.round(1 - p[:, :-1].sum(axis=1), 3)
    assert roc_auc(y, p).score == pytest.approx(roc_auc_score(y, p, multi_class="ovr"), rel=1e-12)


def placements_loop(y, s):
    """DeLong's components by their definition, one row at a time."""
    pos, neg = s[y], s[~y]
    return np.array([((neg < v).sum() + 0.5 * (neg == v).sum()) / neg.size if t else
                     ((pos > v).sum() + 0.5 * (pos == v).sum()) / pos.size
                     for v, t in zip(s, y)])


@pytest.mark.parametrize("name,y,s", list(cases()) + list(decimal_cases()),
                         ids=[c[0] for c in cases()] + [c[0] for c in decimal_cases()])
@pytest.mark.parametrize("path", ["sort", "codes"])
def test_placements_equal_their_definition(monkeypatch, path, name, y, s):
    if path == "sort":
        monkeypatch.setattr(ranking, "MAX_DECIMALS", -1)
    else:
        monkeypatch.setattr(ranking, "SAMPLE", 1)
    got = ranking.placements(y, s)
    np.testing.assert_array_equal(got, placements_loop(y, np.asarray(s, dtype=np.float64)))


# --- buckets by value: exact on data chosen to break them -------------------

def bucket_cases():
    n = 5000
    y = RNG.random(n) < 0.3
    p = RNG.normal(0.35 + 0.3 * y, 0.2)
    yield "continuous", y, p
    yield "heavy ties", y, np.round(p, 2) + 1e-13 * (RNG.random(n) < 0.01)   # not short decimals
    yield "clipped ends tied", y, np.clip(p, 0.001, 0.999)
    yield "clustered", y, RNG.choice([0.1, 0.5, 0.9], n) + 1e-9 * RNG.random(n)
    yield "one huge outlier", y, np.r_[p[:-1], 1e300]
    yield "outliers both ends", y, np.r_[-1e300, p[1:-1], 1e300]
    yield "negative values", y, p - 3.7
    yield "float32", y, p.astype(np.float32)
    yield "float32 ties", y, np.round(p, 1).astype(np.float32) + np.float32(1e-7)
    tiny = np.zeros(n, dtype=bool)
    tiny[[3, 4000]] = True
    yield "two positives", tiny, p
    yield "one negative", np.arange(n) != 77, p
    yield "signed zeros", y, np.where(RNG.random(n) < 0.5, 0.0, -0.0) + (RNG.random(n) < 0.5) * p
    yield "range overflows", y, np.r_[-1.5e308, p[1:-1], 1.5e308]


BUCKET_IDS = [c[0] for c in bucket_cases()]


@pytest.mark.parametrize("name,y,s", list(bucket_cases()), ids=BUCKET_IDS)
@pytest.mark.parametrize("scan", [0, 4, 10 ** 9])        # search all, the default, scan all
def test_buckets_equal_sklearn_and_the_sort(monkeypatch, scan, name, y, s):
    monkeypatch.setattr(ranking, "MAX_DECIMALS", -1)
    want = ranking.sorted_u(y, s)
    ref = roc_auc_score(y, s)
    monkeypatch.setattr(_buckets, "MIN_ROWS", 0)           # the table at any size
    monkeypatch.setattr(_buckets, "MAX_SCAN", scan)
    found = _buckets.table_u(y, s)
    if found is not None:
        assert found == want                               # the same integers
    if name != "range overflows":                          # there max - min may overflow
        assert found is not None
    assert ranking.binary_u(y, s) == want
    assert roc_auc(y, s).score == pytest.approx(ref, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name,s", [
    ("non-finite", lambda p: np.r_[p[:-1], np.inf]),
])
def test_buckets_decline_when_they_cannot_work(name, s):
    n = 100_000
    y = RNG.random(n) < 0.4
    assert _buckets.table_u(y, s(RNG.random(n))) is None


def test_buckets_decline_small_inputs():
    y = RNG.random(1000) < 0.5
    assert _buckets.table_u(y, RNG.random(1000)) is None


def test_multiclass_ovr_through_buckets_equals_sklearn(monkeypatch):
    monkeypatch.setattr(_buckets, "MIN_ROWS", 0)
    n, k = 20_000, 6
    y = RNG.integers(0, k, n)
    logits = RNG.normal(size=(n, k)) + 1.2 * np.eye(k)[y]
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    p[:50] = 1.0 / k                                       # some rows tied in every column
    assert _buckets.table_u(y == 0, np.ascontiguousarray(p[:, 0])) is not None
    assert roc_auc(y, p).score == pytest.approx(roc_auc_score(y, p, multi_class="ovr"), rel=1e-12)
    assert roc_auc(y, p.astype(np.float32)).score == pytest.approx(
        roc_auc_score(y, p.astype(np.float32), multi_class="ovr"), rel=1e-12)
