"""Units merged by distinct row (Units.collapsed, UnitPairs.cells) against per-document draws.

Merging identical F-beta documents is exact in distribution: a replicate
depends on the documents only through how often each distinct (TP, FP, FN)
row is drawn. Checked three ways: exact laws (every per-document draw of a
tiny case enumerated, against the multinomial / multivariate hypergeometric
law over the merged cells), the very draws (documents rebuilt from the drawn
cell counts and scored by the reference loop), and in distribution against
plain loops that resample documents by index (B large).
"""
import importlib
import itertools
from collections import Counter
from fractions import Fraction
from math import comb, factorial

import numpy as np
import pytest
from reference import fbeta_ref

from kmetric_gui.metrics.kernels import jaccard_fbeta
from kmetric_gui.core import resample as rs
from kmetric_gui.core.compare import UnitPairs, compare_pair
from kmetric_gui.core.intervals import bca_interval
from kmetric_gui.core.shakeup import public_size, shakeup
from kmetric_gui.metrics.kernels.units import fbeta_units
from kmetric_gui.errors import Cancelled
from kmetric_gui.analysis.stats import interval_of

shakeup_module = importlib.import_module("kmetric_gui.core.shakeup")
WORDS = ["alpha study", "beta survey", "gamma census", "delta data"]


def docs(n, seed, sub=0.7):
    rng = np.random.default_rng(seed)
    truths, preds = [], []
    for _ in range(n):
        gt = list(rng.choice(WORDS, rng.integers(0, 3), replace=False))
        truths.append(gt)
        preds.append([g for g in gt if rng.random() < sub]
                     + ([str(rng.choice(WORDS)) + " x"] if rng.random() < 0.3 else []))
    return truths, preds


def triples(truths, preds):
    """Per-document (TP, FP, FN) from the reference loop."""
    return np.array([fbeta_ref([t], [p])[1] for t, p in zip(truths, preds)])


def f_of(sums, beta=0.5):
    """Micro F-beta of summed counts (R, 3), from the definition; nan when all are 0."""
    out = np.empty(len(sums))
    b2 = beta * beta
    for r, (tp, fp, fn) in enumerate(sums):
        if tp + fp + fn == 0:
            out[r] = np.nan
        elif tp == 0:
            out[r] = 0.0
        else:
            p, q = tp / (tp + fp), tp / (tp + fn)
            out[r] = (1 + b2) * p * q / (b2 * p + q)
    return out


def test_distinct_rows_equal_a_counter_of_the_rows(monkeypatch):
    rng = np.random.default_rng(0)
    stats = rng.integers(-2, 3, (4000, 3))
    rows, counts = rs.distinct_rows(stats)
    assert Counter(map(tuple, stats.tolist())) == dict(zip(map(tuple, rows.tolist()), counts))
    assert [tuple(r) for r in rows.tolist()] == sorted(map(tuple, rows.tolist()))
    # whole floats merge; fractional ones, or rows repeating too little, do not
    assert rs.distinct_rows(stats.astype(float))[1].tolist() == counts.tolist()
    assert rs.distinct_rows(stats + 0.5) is None
    assert rs.distinct_rows(np.arange(40).reshape(20, 2)) is None
    big = np.array([[0, 2 ** 40], [2 ** 40, 0]] * 40)          # keys past 62 bits: no merge
    assert rs.distinct_rows(big) is None
    sparse = np.array([[0, 0, 0], [10 ** 6, 3, 10 ** 6]] * 50)  # wide range: sorted keys
    rows, counts = rs.distinct_rows(sparse)
    assert rows.tolist() == [[0, 0, 0], [10 ** 6, 3, 10 ** 6]] and counts.tolist() == [50, 50]
    monkeypatch.setattr(rs, "COLLAPSE", 2)
    assert rs.distinct_rows(np.array([[1], [2], [3]])) is None


def _enumerated_law(stats):
    """Exact law of the summed rows over all n^n per-unit index draws."""
    n = len(stats)
    law = Counter()
    for idx in itertools.product(range(n), repeat=n):
        law[tuple(stats[list(idx)].sum(axis=0))] += 1
    return {k: Fraction(v, n ** n) for k, v in law.items()}


def _multinomial_law(rows, counts):
    """Exact law of the summed rows when N draws fall on the cells multinomially."""
    n = int(sum(counts))
    law = Counter()
    for x in itertools.product(range(n + 1), repeat=len(counts)):
        if sum(x) != n:
            continue
        p = Fraction(factorial(n))
        for xi, c in zip(x, counts):
            p *= Fraction(int(c), n) ** xi / factorial(xi)
        law[tuple((np.array(x)[:, None] * rows).sum(axis=0))] += p
    return dict(law)


def test_merged_draw_has_exactly_the_law_of_per_document_draws(monkeypatch):
    monkeypatch.setattr(rs, "COLLAPSE", 1)
    stats = np.array([[1, 0, 0], [0, 1, 2], [1, 0, 0], [2, 1, 0], [0, 1, 2], [1, 0, 0]])
    rows, counts = rs.distinct_rows(stats)
    assert _multinomial_law(rows, counts) == _enumerated_law(stats)
    # paired: both submissions' triples of a document are one 6-column row
    pair = np.array([[1, 0, 0, 1, 0, 0], [0, 1, 2, 1, 0, 1], [1, 0, 0, 1, 0, 0],
                     [0, 1, 2, 0, 1, 2], [0, 1, 2, 1, 0, 1]])
    rows, counts = rs.distinct_rows(pair)
    assert len(counts) == 3
    assert _multinomial_law(rows, counts) == _enumerated_law(pair)


def test_merged_split_has_exactly_the_law_of_document_subsets(monkeypatch):
    monkeypatch.setattr(rs, "COLLAPSE", 1)
    stats = np.array([[1, 0, 0], [0, 1, 2], [1, 0, 0], [2, 1, 0], [0, 1, 2], [1, 0, 0], [1, 0, 0]])
    n, k = len(stats), 3
    brute = Counter(tuple(stats[list(s)].sum(axis=0)) for s in itertools.combinations(range(n), k))
    brute = {key: Fraction(v, comb(n, k)) for key, v in brute.items()}
    rows, counts = rs.distinct_rows(stats)
    law = Counter()
    for x in itertools.product(*(range(c + 1) for c in counts)):
        if sum(x) == k:
            p = Fraction(np.prod([comb(int(c), xi) for c, xi in zip(counts, x)]), comb(n, k))
            law[tuple((np.array(x)[:, None] * rows).sum(axis=0))] += p
    assert dict(law) == brute


def test_drawn_cell_counts_have_the_multinomial_moments(monkeypatch):
    monkeypatch.setattr(rs, "COLLAPSE", 1)
    stats = np.array([[1, 0, 0], [0, 1, 2], [1, 0, 0], [2, 1, 0], [0, 1, 2], [1, 0, 0]])
    cells = rs.distinct_rows(stats)[1]
    b = 40000
    x = rs.resample_counts(cells, b, seed=3).astype(float)
    n, p = cells.sum(), cells / cells.sum()
    cov = n * (np.diag(p) - np.outer(p, p))             # multinomial covariance
    np.testing.assert_allclose(x.mean(axis=0), n * p, atol=4 * np.sqrt(cov.diagonal().max() / b))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.04 * cov.diagonal().max())


def test_merged_replicates_equal_the_reference_loop_on_the_drawn_documents():
    truths, preds = docs(400, 1)
    units = fbeta_units(jaccard_fbeta(truths, preds, beta=0.5))
    merged = units.collapsed
    assert merged is not units and merged.n == 400        # the merged path runs
    reps = rs.bootstrap(units, 30, seed=2)
    counts = rs.resample_counts(merged.cells, 30, seed=2)
    per_doc = triples(truths, preds)
    members = [np.flatnonzero((per_doc == row).all(axis=1)) for row in merged.stats]
    assert [m.size for m in members] == merged.cells.tolist()
    for r in range(30):
        # documents of the replicate: c copies drawn from each cell (any of its members)
        pick = np.concatenate([np.resize(m, c) for m, c in zip(members, counts[r])])
        ref, _ = fbeta_ref([truths[i] for i in pick], [preds[i] for i in pick])
        assert reps[r] == pytest.approx(ref, abs=1e-12, nan_ok=True)


def _close_in_law(ours, ref, rel=0.04):
    ours, ref = ours[np.isfinite(ours)], ref[np.isfinite(ref)]
    se = ref.std(ddof=1)
    assert ours.std(ddof=1) == pytest.approx(se, rel=rel)
    qs = [0.025, 0.25, 0.5, 0.75, 0.975]
    np.testing.assert_allclose(np.quantile(ours, qs), np.quantile(ref, qs), atol=0.15 * se)


def test_bootstrap_agrees_with_resampling_documents_by_index():
    truths, preds = docs(300, 4)
    units = fbeta_units(jaccard_fbeta(truths, preds))
    assert units.collapsed is not units
    b = 20000
    ours = rs.bootstrap(units, b, seed=0)
    per_doc = triples(truths, preds)
    idx = np.random.default_rng(77).integers(0, 300, (b, 300))
    ref = f_of(per_doc[idx].sum(axis=1))
    _close_in_law(ours, ref)


def test_shakeup_agrees_with_random_document_subsets():
    truths, preds = docs(300, 5)
    units = fbeta_units(jaccard_fbeta(truths, preds))
    assert units.collapsed is not units
    s = 20000
    sh = shakeup(units, 0.3, s, seed=1)
    k = public_size(300, 0.3)
    assert sh.n_public == k and sh.n_units == 300 and sh.kind == "document"
    per_doc = triples(truths, preds)
    total = per_doc.sum(axis=0)
    rng = np.random.default_rng(5)
    pub = np.stack([per_doc[rng.permutation(300)[:k]].sum(axis=0) for _ in range(s)])
    _close_in_law(sh.public, f_of(pub))
    _close_in_law(sh.gap, f_of(total - pub) - f_of(pub))


def test_paired_comparison_agrees_with_resampling_documents_by_index():
    truths, pa = docs(400, 6, sub=0.6)
    _, pb = docs(400, 6, sub=0.9)
    units = [fbeta_units(jaccard_fbeta(truths, p)) for p in (pa, pb)]
    e = UnitPairs([u.stats for u in units], units[0].score)
    assert e.cells is not None and e.cells.sum() == 400    # merged by (A, B) 6-tuples
    ta, tb = triples(truths, pa), triples(truths, pb)
    assert e.scores() == pytest.approx([fbeta_ref(truths, p)[0] for p in (pa, pb)], abs=1e-12)
    b = 20000
    res = compare_pair(e, 0, 1, replicates=b, permutations=b, n_public=120, splits=b, seed=0)
    rng = np.random.default_rng(8)
    idx = rng.integers(0, 400, (b, 400))
    ref = f_of(tb[idx].sum(axis=1)) - f_of(ta[idx].sum(axis=1))
    _close_in_law(res.deltas, ref)
    assert res.p_b_better == pytest.approx(np.mean(ref > 0), abs=0.02)
    # permutations: each document swaps A and B with probability 1/2
    swap = rng.random((b, 400)) < 0.5
    move = swap.astype(int) @ (tb - ta)
    perm = f_of(tb.sum(axis=0) - move) - f_of(ta.sum(axis=0) + move)
    _close_in_law(res.permuted, perm)
    # splits: Public = 120 random documents; flips of the order between the sides
    pubs = np.stack([rng.permutation(400)[:120] for _ in range(b)])
    pa_, pb_ = ta[pubs].sum(axis=1), tb[pubs].sum(axis=1)
    d_pub = f_of(pb_) - f_of(pa_)
    d_priv = f_of(tb.sum(axis=0) - pb_) - f_of(ta.sum(axis=0) - pa_)
    assert res.p_order_flips == pytest.approx(np.mean(d_pub * d_priv < 0), abs=0.02)
    got = e.splits(0, 1, 120, b, seed=0)           # Public A, Public B, Private A, Private B
    _close_in_law(got[:, 1] - got[:, 0], d_pub)
    _close_in_law(got[:, 2], f_of(ta.sum(axis=0) - pa_))


def test_merged_jackknife_is_leave_one_document_out():
    truths, pa = docs(320, 7)
    _, pb = docs(320, 7, sub=0.9)
    units = fbeta_units(jaccard_fbeta(truths, pa))
    values, weights = units.jackknife()
    loo = [fbeta_ref(truths[:i] + truths[i + 1:], pa[:i] + pa[i + 1:])[0] for i in range(320)]
    assert weights.sum() == 320 and values.size < 320 / 16
    # one value per distinct document row, weighted by its size: the loop's multiset
    assert sorted(np.repeat(values, weights)) == pytest.approx(sorted(loo), abs=1e-12)
    reps = rs.bootstrap(units, 500, seed=1)
    ours = interval_of(units, 0.9, 500, 1, "bca")
    ref = bca_interval(reps, fbeta_ref(truths, pa)[0], loo, 0.9)
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    e = UnitPairs([fbeta_units(jaccard_fbeta(truths, p)).stats for p in (pa, pb)], units.score)
    values, weights = e.pair_jackknife(0, 1)
    loo_d = [fbeta_ref(truths[:i] + truths[i + 1:], pb[:i] + pb[i + 1:])[0] - loo[i]
             for i in range(320)]
    assert sorted(np.repeat(values, weights)) == pytest.approx(sorted(loo_d), abs=1e-12)


def test_same_seed_same_numbers_other_seed_other_numbers():
    truths, preds = docs(400, 9)
    units = fbeta_units(jaccard_fbeta(truths, preds))
    assert units.collapsed is not units
    again = fbeta_units(jaccard_fbeta(truths, preds))
    assert np.array_equal(rs.bootstrap(units, 300, seed=4), rs.bootstrap(again, 300, seed=4))
    assert not np.array_equal(rs.bootstrap(units, 300, seed=4), rs.bootstrap(units, 300, seed=5))
    a, b = shakeup(units, 0.3, 200, seed=2), shakeup(again, 0.3, 200, seed=2)
    assert np.array_equal(a.public, b.public) and np.array_equal(a.private, b.private)


def test_cancel_stops_the_merged_bootstrap_and_shakeup_between_blocks(monkeypatch):
    truths, preds = docs(400, 10)
    units = fbeta_units(jaccard_fbeta(truths, preds))
    d = units.collapsed.cells.size
    monkeypatch.setattr(rs, "CHUNK", 10 * d)              # 10 replicates per block
    monkeypatch.setattr(shakeup_module, "CHUNK", 10 * d)
    for run in (lambda c: rs.bootstrap(units, 1000, seed=0, cancel=c),
                lambda c: shakeup(units, 0.3, 1000, seed=0, cancel=c)):
        calls = []

        def cancel():
            calls.append(1)
            return len(calls) >= 3                        # the app supersedes the work
        with pytest.raises(Cancelled):
            run(cancel)
        assert len(calls) == 3                            # stopped at the third block of 100

        def raising():
            raise Cancelled("superseded")
        with pytest.raises(Cancelled):
            run(raising)


def test_lwlrap_units_are_never_merged_even_when_their_sums_are_whole():
    """LwLRAP's per-class intervals reuse the bootstrap's index draws: its sample units
    stay per sample even when every precision sum is a whole number (a perfect ranking
    here: each sample's sum equals its positives) — found in review."""
    from kmetric_gui.metrics.kernels import lwlrap
    from kmetric_gui.metrics.kernels.units import lwlrap_units
    rng = np.random.default_rng(2)
    truth = (rng.random((2000, 4)) < 0.4).astype(int)
    truth[truth.sum(1) == 0, 0] = 1
    scores = truth + rng.random(truth.shape) * 0.1            # positives always ranked first
    u = lwlrap_units(lwlrap(truth, scores))
    assert np.array_equal(u.stats[:, 0], u.stats[:, 1])          # whole sums: mergeable values
    assert u.collapsed is u
