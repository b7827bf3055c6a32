"""Binary AUC through one sort of the smaller class and a bucket table (metrics/kernels/_buckets.py):
exact against scikit-learn and a plain count on layouts chosen to break it."""
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from kmetric_gui.metrics.kernels import _buckets, ranking
from kmetric_gui.metrics.kernels.ranking import roc_auc
from kmetric_gui.errors import InputError

RNG = np.random.default_rng(2626)


def plain_u(y, s):
    """(2U, tied pairs) by counting, for each positive, the negatives below and equal."""
    neg = np.sort(s[~y])
    pos = s[y]
    lo = np.searchsorted(neg, pos, "left")
    hi = np.searchsorted(neg, pos, "right")
    return int(2 * lo.sum() + (hi - lo).sum()), int((hi - lo).sum())


def layouts():
    n = 70_000                                             # above MIN_ROWS: the real path
    y = RNG.random(n) < 0.3
    p = RNG.normal(0.35 + 0.3 * y, 0.2)
    yield "continuous", y, p
    yield "many ties, not short decimals", y, np.round(p, 2) * (1 + 1e-12)
    yield "every score equal", y, np.full(n, 0.7)
    yield "two values", y, np.where(RNG.random(n) < 0.5, 0.25, 0.75) + 1e-17
    yield "clipped ends", y, np.clip(p, 0.001, 0.999)
    yield "signed zeros among values", y, np.where(RNG.random(n) < 0.4,
                                                   np.where(RNG.random(n) < 0.5, 0.0, -0.0), p)
    yield "only signed zeros", y, np.where(RNG.random(n) < 0.5, 0.0, -0.0)
    sub = np.float64(5e-324)
    yield "subnormals", y, sub * RNG.integers(0, 40, n)
    yield "subnormals and normals", y, np.where(RNG.random(n) < 0.5, sub * RNG.integers(0, 9, n), p)
    yield "float32", y, p.astype(np.float32)
    yield "heavy tail (one bucket holds most)", y, np.exp(12 * p)
    yield "huge range", y, np.where(RNG.random(n) < 0.01, 1e300, p) * np.where(y, 1, -1)
    few = np.zeros(n, dtype=bool)
    few[[5, 60_000, 69_999]] = True
    yield "three positives", few, p
    yield "three negatives", ~few, p
    one = np.zeros(n, dtype=bool)
    one[123] = True
    yield "one positive tied with many", one, np.where(RNG.random(n) < 0.5, 0.5, p)
    yield "positives the majority", ~y, p
    yield "negatives below all positives", y, np.where(y, 1 + RNG.random(n), RNG.random(n))
    yield "dense and sparse buckets", y, np.r_[RNG.random(n - 1000) * 1e-6, RNG.random(1000)]


IDS = [c[0] for c in layouts()]


@pytest.mark.parametrize("name,y,s", list(layouts()), ids=IDS)
def test_table_equals_plain_count_and_sklearn(monkeypatch, name, y, s):
    monkeypatch.setattr(ranking, "MAX_DECIMALS", -1)       # no decimal codes: the table
    u2, ties = plain_u(y, s)
    found = _buckets.table_u(y, s)
    if name not in ("huge range", "subnormals"):           # there the scale may overflow
        assert found is not None
    if found is not None:
        assert found == (u2, int(y.sum()), int((~y).sum()), ties)
    r = roc_auc(y, s)
    assert r.tied_pairs[0] == ties
    assert r.score == pytest.approx(roc_auc_score(y, s), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("scan", [0, 1, 2, 1000])
@pytest.mark.parametrize("per_row,cap", [(1, None), (2, None), (8, None), (2, 1000), (2, 1)])
def test_scan_and_table_size_change_no_count(monkeypatch, scan, per_row, cap):
    monkeypatch.setattr(_buckets, "MAX_SCAN", scan)
    monkeypatch.setattr(_buckets, "PER_ROW", per_row)
    if cap:                                                # capped: many A values a bucket
        monkeypatch.setattr(_buckets, "MAX_BUCKETS", cap)
    n = 80_000
    y = RNG.random(n) < 0.4
    s = np.round(RNG.normal(0.3 * y, 1.0), 3) + RNG.choice([0, 1e-9], n)
    u2, ties = plain_u(y, s)
    assert _buckets.table_u(y, s) == (u2, int(y.sum()), int((~y).sum()), ties)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("where", ["positive", "negative"])
def test_non_finite_scores_still_named(bad, where):
    n = 70_000
    y = RNG.random(n) < 0.3
    s = RNG.random(n)
    row = int(np.flatnonzero(y if where == "positive" else ~y)[7])
    s[row] = bad
    assert _buckets.table_u(y, s) is None
    with pytest.raises(InputError, match=f"row {row}"):
        roc_auc(y, s)


def test_millions_of_one_class_and_a_handful_of_the_other():
    n = 2_000_000
    s = RNG.random(n)
    y = np.zeros(n, dtype=bool)
    y[RNG.choice(n, 5, replace=False)] = True
    s[y] = s[~y][:5]                                       # each positive tied with a negative
    for yy in (y, ~y):
        u2, ties = plain_u(yy, s)
        assert _buckets.table_u(yy, s)[::3] == (u2, ties)
        assert roc_auc(yy, s).score == pytest.approx(roc_auc_score(yy, s), rel=1e-12)


def test_ties_and_spread_values_in_separate_stretches_of_the_larger_class():
    # The larger class in long stretches: one only tied values (searched), one only
    # spread values (scanned), one mixed; a kernel that walks it in pieces must add
    # each piece's counts once.
    n = 300_000
    y = np.zeros(n, dtype=bool)
    y[RNG.choice(n, n // 4, replace=False)] = True
    s = RNG.random(n)
    neg = np.flatnonzero(~y)
    tied = neg[: neg.size // 3]                            # first stretch: ties with A
    s[tied] = RNG.choice(s[y][:20], tied.size)
    mixed = neg[2 * neg.size // 3:]
    s[mixed[::2]] = 0.5
    s[y[:1000].nonzero()[0]] = 0.5                         # A holds 0.5 too: a crowded bucket
    u2, ties = plain_u(y, s)
    assert ties > 0
    assert _buckets.table_u(y, s) == (u2, int(y.sum()), int((~y).sum()), ties)
    assert roc_auc(y, s).score == pytest.approx(roc_auc_score(y, s), rel=1e-12)
