"""Paired comparison against plain loops that draw the same units / swaps and call
scikit-learn or the reference loops of tests/reference.py."""
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels import jaccard_fbeta, lwlrap
from kmetric_gui.metrics.kernels.kappa_blend import kappa_blend
from kmetric_gui.metrics.kernels.lwlrap_blend import lwlrap_blend
from kmetric_gui.core.compare import UnitPairs, compare_pair, score_interval
from kmetric_gui.metrics.kernels.kappa_pairs import KappaPairs
from kmetric_gui.metrics.kernels.differ import fbeta_differ, kappa_differ, lwlrap_differ
from kmetric_gui.metrics.kernels.units import fbeta_units, lwlrap_units
from kmetric_gui.errors import InputError
from reference import fbeta_ref, kappa_ref, lwlrap_ref

K = 5


def sk_kappa(t, p):
    return cohen_kappa_score(t, p, weights="quadratic", labels=list(range(K)))


def kappa_data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.choice(K, n, p=[.4, .2, .2, .1, .1])
    a = np.clip(t + rng.choice([-1, 0, 0, 1], n), 0, K - 1)
    b = np.clip(t + rng.choice([-2, -1, 0, 0, 0, 1], n), 0, K - 1)
    return t, a, b


def rows_from_cells(codes, counts):
    """Rows (t, a, b) realising joint cell counts (row order is irrelevant to kappa)."""
    c = np.repeat(codes, counts)
    return c // (K * K), (c // K) % K, c % K


def test_kappa_bootstrap_replicates_equal_sklearn_on_the_same_multinomial_draws():
    t, a, b = kappa_data()
    e = KappaPairs(t, [a, b], K)
    got = e.pair_bootstrap(0, 1, 40, seed=7)
    code = (t * K + a) * K + b
    cells = np.unique(code)
    counts = np.array([np.sum(code == c) for c in cells])
    draws = np.random.default_rng(7).multinomial(t.size, counts / t.size, size=40)
    for r in range(40):
        tt, aa, bb = rows_from_cells(cells, draws[r])
        assert got[r, 0] == pytest.approx(sk_kappa(tt, aa), abs=1e-12)
        assert got[r, 1] == pytest.approx(sk_kappa(tt, bb), abs=1e-12)


def test_kappa_cell_bootstrap_matches_a_row_bootstrap_in_standard_error():
    t, a, b = kappa_data(n=800, seed=3)
    e = KappaPairs(t, [a, b], K)
    reps = 5000
    cell = e.pair_bootstrap(0, 1, reps, seed=1)
    rng = np.random.default_rng(99)
    row = np.empty((reps, 2))
    for r in range(reps):          # resample rows, score with the reference formula
        i = rng.integers(0, t.size, t.size)
        row[r] = [kappa_ref(t[i], a[i], lo=0, hi=K - 1), kappa_ref(t[i], b[i], lo=0, hi=K - 1)]
    for x, y in ((cell[:, 1] - cell[:, 0], row[:, 1] - row[:, 0]), (cell[:, 0], row[:, 0])):
        assert x.std() == pytest.approx(y.std(), rel=0.05)
        assert x.mean() == pytest.approx(y.mean(), abs=0.1 * y.std())


def test_kappa_permutations_equal_sklearn_on_the_same_swaps():
    t, a, b = kappa_data(n=90, seed=5)
    e = KappaPairs(t, [a, b], K)
    got = e.permutation(0, 1, 60, seed=4)
    code = (t * K + a) * K + b
    cells = np.unique(code)
    counts = np.array([np.sum(code == c) for c in cells])
    off = (cells // K) % K != cells % K
    s = np.random.default_rng([4, 1]).binomial(counts[off], 0.5, size=(60, off.sum()))
    for r in range(60):
        tt, aa, bb = rows_from_cells(cells, counts)
        aa, bb = aa.copy(), bb.copy()
        for cell, swap in zip(cells[off], s[r]):
            rows = np.flatnonzero((tt * K + aa) * K + bb == cell)[:swap]
            aa[rows], bb[rows] = bb[rows], aa[rows].copy()
        assert got[r] == pytest.approx(sk_kappa(tt, bb) - sk_kappa(tt, aa), abs=1e-12)
    delta = sk_kappa(t, b) - sk_kappa(t, a)
    res = compare_pair(e, 0, 1, replicates=10, permutations=60, seed=4)
    assert res.delta == pytest.approx(delta, abs=1e-12)
    assert res.p_value == (1 + np.sum(np.abs(got) >= abs(delta) - 1e-12)) / 61


def lwlrap_data(n=30, c=5, seed=0, digits=None):
    rng = np.random.default_rng(seed)
    t = (rng.random((n, c)) < 0.3).astype(int)
    t[np.arange(n), rng.integers(0, c, n)] = 1
    t[0] = 0                                   # a sample without positives still counts as a unit
    a, b = rng.random((n, c)) + 0.3 * t, rng.random((n, c)) + 0.5 * t
    if digits is not None:
        a, b = np.round(a, digits), np.round(b, digits)
    return t, a, b


def lwlrap_pairs(t, subs):
    units = [lwlrap_units(lwlrap(t, s)) for s in subs]
    return UnitPairs([u.stats for u in units], units[0].score)


def test_lwlrap_replicates_and_p_value_equal_the_reference_loop_on_the_same_units():
    t, a, b = lwlrap_data()
    e = lwlrap_pairs(t, [a, b])
    boot = e.pair_bootstrap(0, 1, 25, seed=3)
    rng = np.random.default_rng(3)
    for r in range(25):
        i = rng.integers(0, len(t), size=len(t))
        ra, rb = lwlrap_ref(t[i].tolist(), a[i].tolist()), lwlrap_ref(t[i].tolist(), b[i].tolist())
        assert boot[r] == pytest.approx([ra, rb], abs=1e-12)
    perm = e.permutation(0, 1, 30, seed=3)
    rng = np.random.default_rng([3, 1])
    ref = []
    for r in range(30):
        words = rng.integers(0, 2 ** 64, size=-(-len(t) // 64), dtype=np.uint64)
        swap = np.unpackbits(words.view(np.uint8), bitorder="little")[:len(t)].astype(bool)
        aa, bb = np.where(swap[:, None], b, a), np.where(swap[:, None], a, b)
        ref.append(lwlrap_ref(t.tolist(), bb.tolist()) - lwlrap_ref(t.tolist(), aa.tolist()))
    assert perm == pytest.approx(ref, abs=1e-12)
    delta = lwlrap_ref(t.tolist(), b.tolist()) - lwlrap_ref(t.tolist(), a.tolist())
    res = compare_pair(e, 0, 1, replicates=25, permutations=30, seed=3)
    assert res.delta == pytest.approx(delta, abs=1e-12)
    assert res.p_value == (1 + np.sum(np.abs(ref) >= abs(delta) - 1e-12)) / 31


def fbeta_data(n=25, seed=0):
    rng = np.random.default_rng(seed)
    words = ["alpha study", "beta survey", "gamma census", "delta data", "epsilon set"]
    truths, pa, pb = [], [], []
    for _ in range(n):
        gt = list(rng.choice(words, rng.integers(0, 3), replace=False))
        truths.append(gt)
        pa.append([g for g in gt if rng.random() < .6] + ([words[rng.integers(5)] + " x"]
                                                          if rng.random() < .3 else []))
        pb.append([g for g in gt if rng.random() < .8] + ([str(words[rng.integers(5)])]
                                                          if rng.random() < .4 else []))
    return truths, pa, pb


def fbeta_pairs(truths, subs, beta=0.5):
    units = [fbeta_units(jaccard_fbeta(truths, s, beta=beta)) for s in subs]
    return UnitPairs([u.stats for u in units], units[0].score)


def test_fbeta_replicates_and_p_value_equal_the_reference_loop():
    truths, pa, pb = fbeta_data()
    e = fbeta_pairs(truths, [pa, pb])
    boot = e.pair_bootstrap(0, 1, 30, seed=2)
    rng = np.random.default_rng(2)
    n = len(truths)
    for r in range(30):
        i = rng.integers(0, n, size=n)
        ref = [fbeta_ref([truths[k] for k in i], [p[k] for k in i])[0] for p in (pa, pb)]
        np.testing.assert_allclose(boot[r], ref, atol=1e-12)
    perm = e.permutation(0, 1, 40, seed=2)
    rng = np.random.default_rng([2, 1])
    for r in range(40):
        words = rng.integers(0, 2 ** 64, size=-(-n // 64), dtype=np.uint64)
        swap = np.unpackbits(words.view(np.uint8), bitorder="little")[:n].astype(bool)
        aa = [pb[k] if swap[k] else pa[k] for k in range(n)]
        bb = [pa[k] if swap[k] else pb[k] for k in range(n)]
        assert perm[r] == pytest.approx(fbeta_ref(truths, bb)[0] - fbeta_ref(truths, aa)[0], abs=1e-12)


def test_order_flips_equal_a_loop_over_the_same_splits():
    t, a, b = lwlrap_data(n=40, seed=8)
    e = lwlrap_pairs(t, [a, b])
    got = e.splits(0, 1, 15, 50, seed=6)
    rng = np.random.default_rng([6, 2])
    flips = 0
    for r in range(50):
        pub = rng.permuted(np.arange(40) < 15)
        s = [lwlrap_ref(t[m].tolist(), x[m].tolist()) for m in (pub, ~pub) for x in (a, b)]
        assert got[r] == pytest.approx(s, abs=1e-12)
        flips += (s[1] - s[0]) * (s[3] - s[2]) < 0
    res = compare_pair(e, 0, 1, replicates=5, permutations=0, n_public=15, splits=50, seed=6)
    assert res.p_order_flips == flips / 50
    # kappa: the same via multivariate hypergeometric draws over the joint cells
    t, a, b = kappa_data(n=150, seed=2)
    e = KappaPairs(t, [a, b], K)
    got = e.splits(0, 1, 60, 30, seed=1)
    code = (t * K + a) * K + b
    cells = np.unique(code)
    counts = np.array([np.sum(code == c) for c in cells])
    pub = np.random.default_rng([1, 2]).multivariate_hypergeometric(counts, 60, size=30)
    for r in range(30):
        ref = []
        for part in (pub[r], counts - pub[r]):
            tt, aa, bb = rows_from_cells(cells, part)
            ref += [sk_kappa(tt, aa), sk_kappa(tt, bb)]
        assert got[r] == pytest.approx(ref, abs=1e-12)


def all_engines(same=False, truth_wins=False):
    t, a, b = kappa_data(n=200)
    if same:
        b = a.copy()
    if truth_wins:
        b = t.copy()
    yield KappaPairs(t, [a, b], K)
    t, a, b = lwlrap_data(n=60)
    yield lwlrap_pairs(t, [a, a.copy() if same else (t + 0.0 if truth_wins else b)])
    truths, pa, pb = fbeta_data(n=60)
    yield fbeta_pairs(truths, [pa, list(pa) if same else (truths if truth_wins else pb)])


def test_identical_submissions_give_zero_delta_and_p_one():
    for e in all_engines(same=True):
        res = compare_pair(e, 0, 1, replicates=200, permutations=200, n_public=20, splits=100)
        assert res.delta == 0
        assert (res.deltas == 0).all()
        assert res.p_value == 1.0
        assert res.p_b_better == 0.0 and res.p_a_better == 0.0      # ties are neither
        assert res.delta_ci.low == res.delta_ci.high == 0
        assert res.p_order_flips == 0.0


def test_the_truth_itself_wins_with_probability_one():
    for e in all_engines(truth_wins=True):
        assert e.scores()[1] == pytest.approx(1.0)
        res = compare_pair(e, 0, 1, replicates=300, permutations=300)
        assert res.p_b_better == 1.0 and res.p_a_better == 0.0
        assert res.delta_ci.low > 0
        assert res.p_value < 0.01


def test_bca_jackknife_is_leave_one_unit_out():
    t, a, b = kappa_data(n=40, seed=9)
    e = KappaPairs(t, [a, b], K)
    values, weights = e.pair_jackknife(0, 1)
    loo = [sk_kappa(np.delete(t, i), np.delete(b, i)) - sk_kappa(np.delete(t, i), np.delete(a, i))
           for i in range(40)]
    # one value per joint cell, weighted by its size: the same multiset as the loop's
    assert sorted(np.repeat(values, weights.astype(int))) == pytest.approx(sorted(loo), abs=1e-12)
    tl, la, lb = lwlrap_data(n=20)
    e = lwlrap_pairs(tl, [la, lb])
    values, _ = e.pair_jackknife(0, 1)
    ref = [lwlrap_ref(np.delete(tl, i, 0).tolist(), np.delete(lb, i, 0).tolist())
           - lwlrap_ref(np.delete(tl, i, 0).tolist(), np.delete(la, i, 0).tolist()) for i in range(20)]
    assert values == pytest.approx(ref, abs=1e-12)
    iv = score_interval(e, 0, replicates=300, method="bca")
    assert iv.method == "bca" and iv.low < e.scores()[0] < iv.high


def test_undefined_replicates_are_counted():
    t = np.array([0, 0, 0, 0, 1])      # most resamples of 5 rows lose the only 1
    e = KappaPairs(t, [t.copy(), np.array([0, 0, 0, 1, 1])], 2)
    res = compare_pair(e, 0, 1, replicates=500, permutations=10)
    assert 0 < res.delta_ci.undefined < 500
    assert res.delta_ci.replicates == 500
    assert np.isnan(res.deltas).sum() == res.delta_ci.undefined


@pytest.mark.parametrize("path", [0.0, np.inf])          # dense table / flips only
@pytest.mark.parametrize("ties", ["worst", "original"])
@pytest.mark.parametrize("digits", [None, 1, 2])
def test_lwlrap_blend_equals_the_reference_on_each_blend(ties, digits, path, monkeypatch):
    import kmetric_gui.metrics.kernels.lwlrap_blend as blend
    monkeypatch.setattr(blend, "DENSE_FROM", path)
    t, a, b = lwlrap_data(n=25, c=6, seed=digits or 0, digits=digits)
    a[::4, 1], b[::4, 1] = a[::4, 2], b[::4, 2]          # ties that hold at every alpha
    curve = lwlrap_blend(t, a, b, ties=ties)
    ref = [lwlrap_ref(t.tolist(), (x * a + (1 - x) * b).tolist(), ties=ties) for x in curve.alphas]
    assert curve.scores == pytest.approx(ref, abs=1e-12)
    assert curve.best_score == max(curve.scores)
    assert curve.best_score == pytest.approx(ref[int(np.argmax(ref))], abs=1e-12)
    odd = np.array([0.0, 0.13, 0.5, 0.51, 0.9, 1.0])          # an uneven grid too
    curve = lwlrap_blend(t, a, b, odd, ties=ties)
    ref = [lwlrap_ref(t.tolist(), (x * a + (1 - x) * b).tolist(), ties=ties) for x in odd]
    assert curve.scores == pytest.approx(ref, abs=1e-12)


def test_kappa_blend_equals_the_reference_on_each_blend():
    rng = np.random.default_rng(4)
    t = rng.integers(1, 6, 300)
    xa, xb = t + rng.normal(0, 0.9, 300), t + rng.normal(0.4, 0.7, 300)
    xb[:20] = np.round(xb[:20], 1)
    cuts = np.array([1.4, 2.5, 3.6, 4.5])
    curve = kappa_blend(t, xa, xb, cuts, min_rating=1)
    ref = [kappa_ref(t, 1 + np.searchsorted(cuts, x * xa + (1 - x) * xb, side="right"), lo=1, hi=5)
           for x in curve.alphas]
    assert curve.scores == pytest.approx(ref, abs=1e-12)
    assert curve.best_alpha == curve.alphas[int(np.argmax(ref))]


def test_blend_rejects_bad_alphas():
    t, a, b = lwlrap_data()
    for bad in ([0.5, 0.2], [-0.1, 1], [0, 2], []):
        with pytest.raises(InputError):
            lwlrap_blend(t, a, b, bad)


def test_kappa_differ_against_brute_force():
    t, a, b = kappa_data(n=80, seed=1)
    e = KappaPairs(t, [a, b], K)
    d = kappa_differ(e.joint(0, 1))
    base = sk_kappa(t, b)
    for x in range(K):
        for y in range(K):
            rows = (a == x) & (b == y)
            assert d.agreement[x, y] == rows.sum()
            assert d.a_right[x, y] == np.sum(rows & (t == x))
            assert d.b_right[x, y] == np.sum(rows & (t == y))
            assert d.cell_delta[x, y] == pytest.approx(base - sk_kappa(t, np.where(rows, a, b)),
                                                       abs=1e-12)


def test_lwlrap_and_fbeta_differ_against_brute_force():
    t, a, b = lwlrap_data()
    ra, rb = lwlrap(t, a), lwlrap(t, b)
    d = lwlrap_differ(ra.per_class, rb.per_class, ra.class_weights)
    assert d.contribution.sum() == pytest.approx(rb.score - ra.score, abs=1e-12)
    truths, pa, pb = fbeta_data()
    d = fbeta_differ(jaccard_fbeta(truths, pa).per_document, jaccard_fbeta(truths, pb).per_document)
    base = fbeta_ref(truths, pb)[0]
    for k in range(len(truths)):
        mixed = [pa[i] if i == k else pb[i] for i in range(len(truths))]
        assert d.doc_delta[k] == pytest.approx(base - fbeta_ref(truths, mixed)[0], abs=1e-12)


def test_bad_counts_and_too_many_classes_are_input_errors():
    t, a, b = kappa_data()
    e = KappaPairs(t, [a, b], K)
    for kw in ({"replicates": 0}, {"permutations": -1}, {"replicates": 2.5}):
        with pytest.raises(InputError):
            compare_pair(e, 0, 1, **kw)
    with pytest.raises(InputError):
        KappaPairs(np.arange(50), [np.arange(50), np.arange(50)], 50)
